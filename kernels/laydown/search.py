"""The lay-down searches' entry points: ``count``, ``best``, ``beats`` and ``best_priced``.

``count`` and ``best`` run one programme (:mod:`kernels.laydown.programme`): without
groups it is the first-card programme, each state deciding the first kind it still
holds (decision order) by laying a multiset of the melds whose first card is that
kind; with groups each table meld's additions get a step of their own. The remaining
hand is packed into one int64 when it fits (:mod:`kernels.laydown.packed`) and
otherwise kept as a counts vector (:mod:`kernels.laydown.counts`); both meet the same
states and return the same values. From PRICED_CARDS cards ``best`` and ``beats`` bound
the search by a linear programme's prices (kernels.lp_bound.priced).

Array shapes: ``hand`` int64[53]; ``meld_counts`` int64[M, 53]; ``meld_points`` and
``points`` int64[M]; ``groups`` int64[M] (-1 or 0..62) and ``max_left`` int64[53]
(see ``best``).
"""

from __future__ import annotations

import numpy as np
from kernels.jit import njit
from kernels.link import linked
from numba import types

from kernels.encoding import KIND_COUNT
from kernels.laydown.layout import (DIVES, INT64_MAX, MEMO_BITS, META_STOPPED, MODE_BEST,
                                    MODE_COUNT, NO_VALUE, NODE_CARDS, NODE_LP_CARDS, NODE_LP_LEFT,
                                    NODE_LP_MOVES, NODE_LP_SIZE, NODE_MOVES, NODE_PROGRAMMES,
                                    NODE_SHIFT, PLATEAU_STEPS, SHARE_SCALE, WORK_FACTOR,
                                    CountsProblem)
from kernels.laydown.counts import counts_solve
from kernels.laydown.memo import memo_new, memo_sized
from kernels.laydown.packed import packed_solve
from kernels.laydown.programme import card_shares, cut_tail, open_cuts, prepare, programme
from kernels.laydown.rebuild import counts_best, packed_best
from kernels.lp_bound import CUT_ROUNDS, least_price, no_cuts, priced
from kernels.params import COUNT_BUDGET, NEG_INF, PRICED_CARDS, STATE_BUDGET

# the linked functions' types (kernels.link)
_I, _V, _M = types.int64, types.int64[::1], types.int64[:, ::1]


@njit(cache=True)
def count(hand, meld_counts, budget=COUNT_BUDGET):
    """(number of lay-downs, overflow flag, exhausted flag). Past ``budget`` memo entries
    the search stops (a sub-problem not yet solved is not searched) and ``exhausted`` is
    set: the number is then meaningless and the caller refuses it."""
    meld_total = meld_counts.shape[0]
    fixed = np.empty(2 * meld_total, dtype=np.int64)
    points = fixed[:meld_total]  # counting: no points, no groups
    points[:] = 0
    groups = fixed[meld_total:]
    groups[:] = -1
    steps = programme(hand, meld_counts, points, groups, hand, MODE_COUNT, fixed[:0],
                      fixed[:0], fixed[:0])
    overflow = np.zeros(1, dtype=np.int64)
    if steps.kinds.shape[1] > 0:
        memo, meta = memo_sized(hand.sum(), budget)
        total, _ = packed_solve(steps.state, np.int64(0), np.int64(0), np.int64(NEG_INF),
                                MODE_COUNT, steps, np.int64(0), np.int64(0), memo, meta,
                                overflow)
        return total, overflow[0], meta[META_STOPPED] != 0
    prepared = prepare(hand, meld_counts)
    cut_starts, cut_melds = no_cuts()
    problem = CountsProblem(meld_counts, points, groups, hand, np.int64(0), np.int64(0), steps,
                            prepared, np.zeros(KIND_COUNT, dtype=np.int64),
                            np.zeros(meld_total, dtype=np.int64), cut_starts, cut_melds,
                            open_cuts(steps, meld_total, cut_starts, cut_melds, fixed[:0], 0),
                            np.zeros(NODE_LP_SIZE, dtype=np.int64), overflow)
    memo, meta = memo_new(MEMO_BITS, budget)
    total, _ = counts_solve(hand.copy(), np.int64(0), np.int64(0), np.int64(NEG_INF),
                            MODE_COUNT, problem, memo, meta)
    return total, overflow[0], meta[META_STOPPED] != 0


@linked(types.Tuple((_I, _V, types.boolean))(_V, _M, _V, _I, _V, _V, _I))
def best(hand, meld_counts, points, keep, groups, max_left, budget=STATE_BUDGET):
    """(best points, chosen meld indices sorted, exact); NEG_INF and none when nothing is feasible.

    At most ``budget`` sub-problems are memoised; past that a sub-problem not
    yet solved counts as infeasible, so the answer is a legal lay-down that may
    fall short of the best, and ``exact`` is False.

    ``groups`` (int64[M], -1 or a group 0..62: at most one meld per group) and
    ``max_left`` (int64[53]: most copies of each kind left in hand) are the
    optimizer's constraints of partition_ref.best_laydown; without groups the
    steps are the first-card programme's. Below PRICED_CARDS cards the lay-down
    returned is the first optimal one in the reference's order (at each kind:
    the empty multiset, then multisets in depth-first order), so every backend
    returns the same melds.

    From PRICED_CARDS cards the search is bounded by the linear programme
    (kernels.lp_bound.priced): the keep rule's row and clique cuts tighten it,
    its repaired dual prices replace the per-card shares, a lay-down made of
    its solution (rounded, or a dive) is the floor, and the search looks only
    for lay-downs *better* than the floor (worth at least its points plus the
    points' granularity), over the melds and leftovers whose reduced cost such
    a lay-down can afford (kernels.lp_bound.reduced). When it finds none, the
    floor's lay-down is proven best: the answer is then a best lay-down with
    the same points as the reference's, not always the same melds. A priced
    search also stops after WORK_FACTOR * ``budget`` moves; it then answers
    the floor's lay-down (legal, ``exact`` False). Once it has tried NODE_MOVES
    moves (a search that ends sooner does not pay for them), its new
    sub-problems of NODE_CARDS cards or more get their own programme (at most
    NODE_PROGRAMMES of them), except on a *plateau*: when the bound is less
    than PLATEAU_STEPS steps above the floor, the sub-problems' programmes
    reach it too and prune little, so the search goes without.
    """
    none = np.zeros(0, dtype=np.int64)
    cut_starts, cut_melds = no_cuts()
    if hand.sum() < PRICED_CARDS:
        return best_priced(hand, meld_counts, points, keep, groups, max_left, budget, none,
                           none, NEG_INF, none, cut_starts, cut_melds)
    # the linear programme's prices and cuts bound the search, a lay-down from its solution
    # is the floor, and reduced costs rule out melds and leftovers
    setup = priced(hand, meld_counts, points, groups, keep, max_left, SHARE_SCALE, DIVES,
                   CUT_ROUNDS)
    start = setup.start
    floor = above_floor(start, setup.step)
    value, picked, exact = _search_above(hand, meld_counts, points, keep, groups, budget,
                                         setup, floor)
    if value != NO_VALUE:
        return value, picked, exact
    if start >= 0:
        # nothing better than the floor's lay-down (proven: it is a best one), or stopped
        return start, np.sort(setup.start_melds), exact
    cut_starts, cut_melds = no_cuts()
    value, picked, _ = best_priced(hand, meld_counts, points, keep, groups, max_left, budget,
                                   none, none, NEG_INF, none, cut_starts, cut_melds)
    return value, picked, False


@njit(cache=True)
def above_floor(start, step):
    """The value a priced search must beat: one step below the floor's lay-down plus a
    step (a better one), or NEG_INF when the programme gave no floor (``start`` < 0)."""
    return start + step - 1 if start >= 0 else NEG_INF


@njit(cache=True)
def sub_programmes(hand, keep, budget, start, step, bound, prices, floor):
    """How many sub-problems of a priced search get a programme of their own: one per
    2^NODE_SHIFT memo entries of the budget, at most NODE_PROGRAMMES; none on a plateau,
    where the bound is within PLATEAU_STEPS steps of what the search must beat (the
    sub-problems' programmes would reach it too). Both compiled backends' drivers ask it."""
    base = max(start, floor - step + 1)
    if base >= 0 and (bound - keep * least_price(hand, prices)
                      < (base + PLATEAU_STEPS * step) * SHARE_SCALE):
        return 0
    return min(NODE_PROGRAMMES, budget >> NODE_SHIFT)


@njit(cache=True)
def _search_above(hand, meld_counts, points, keep, groups, budget, setup, floor):
    """best_priced for lay-downs worth more than ``floor``, with priced()'s set-up (``setup``) and
    best()'s policy for the sub-problems' programmes (none on a plateau: the bound within
    PLATEAU_STEPS steps of what the search must beat)."""
    node_programmes = sub_programmes(hand, keep, budget, setup.start, setup.step,
                                     setup.bound, setup.prices, floor)
    return best_priced(hand, meld_counts, points, keep, groups, setup.limits, budget,
                       setup.prices, setup.slack, floor, setup.live, setup.cut_starts,
                       setup.cut_melds, node_programmes, NODE_CARDS)


@linked(types.boolean(_V, _M, _V, _I, _V, _V, _I, _I))
def beats(hand, meld_counts, points, keep, groups, max_left, threshold, budget=STATE_BUDGET):
    """Whether some lay-down (best()'s constraints) is worth more than ``threshold``.

    best()'s question with a bar: from PRICED_CARDS cards the programme's floor (a
    lay-down above the bar: yes) or its bound (at most the bar: no) usually answers it,
    and otherwise the search looks only for a lay-down above the bar. A search stopped at
    its budget answers no (what best()'s floor says then). Below PRICED_CARDS, best().
    """
    if hand.sum() < PRICED_CARDS or threshold <= NEG_INF:
        value, _, _ = best(hand, meld_counts, points, keep, groups, max_left, budget)
        return value > threshold
    setup = priced(hand, meld_counts, points, groups, keep, max_left, SHARE_SCALE, DIVES,
                   CUT_ROUNDS)
    if setup.start > threshold:
        return True
    if setup.bound - keep * least_price(hand, setup.prices) < (threshold + 1) * SHARE_SCALE:
        return False  # no lay-down reaches threshold + 1
    # the fixings hold for lay-downs better than the floor, and threshold >= start here
    value, _, _ = _search_above(hand, meld_counts, points, keep, groups, budget, setup,
                                threshold)
    return value != NO_VALUE and value > threshold


@linked(types.Tuple((_I, _V, types.boolean))(_V, _M, _V, _I, _V, _V, _I, _V, _V, _I, _V, _V, _V,
                                             _I, _I, _I))
def best_priced(hand, meld_counts, points, keep, groups, max_left, budget, prices, slack,
                floor, live, cut_starts, cut_melds, node_programmes=NODE_PROGRAMMES,
                node_cards=NODE_CARDS, node_moves=NODE_MOVES):
    """best() with the bound of a dual-feasible price vector (see kernels.lp_bound).

    ``prices`` (int64[53], fixed point SHARE_SCALE; empty: the per-card shares
    of programme.card_shares) and ``slack`` (int64[G + C], the groups' and the cuts' dual
    values; cut c holds the melds cut_melds[cut_starts[c]:cut_starts[c + 1]],
    of which at most one is laid) must satisfy, for every live meld m, prices .
    counts[m] + slack[group of m] + sum(slack[cuts of m]) >= points[m] *
    SHARE_SCALE: then a remaining hand r with the groups and cuts g still open
    can reach at most prices . r + sum(slack[g]). Any such vector keeps the answer
    exact and the lay-down the same; a tight one prunes more. ``floor``: the
    search looks only for lay-downs worth more (NEG_INF: any); ``live``: the
    melds it may lay (int64[M], 1 or 0; empty: all), see programme.programme. Answers
    NO_VALUE when no lay-down is worth more than the floor (``exact`` True) or
    the search stopped at its budget (``exact`` False).
    """
    move_limit = INT64_MAX if prices.shape[0] == 0 else WORK_FACTOR * budget
    steps = programme(hand, meld_counts, points, groups, max_left, MODE_BEST, prices, slack,
                      live)
    meld_total = meld_counts.shape[0]
    group_total = slack.shape[0] - (cut_starts.shape[0] - 1)
    cut_tail(steps, meld_total, cut_starts, cut_melds, slack, group_total)
    leave = least_price(hand, prices)
    if steps.kinds.shape[1] > 0:
        return packed_best(steps, keep, hand.sum(), budget, floor, move_limit, leave)
    prepared = prepare(hand, meld_counts)
    priced_search = prices.shape[0] == KIND_COUNT
    node_lp = np.zeros(NODE_LP_SIZE, dtype=np.int64)
    if priced_search:
        node_lp[NODE_LP_LEFT] = node_programmes
        node_lp[NODE_LP_CARDS] = node_cards
        node_lp[NODE_LP_MOVES] = node_moves
    shares, meld_shares = card_shares(meld_counts, points, prepared, prices)
    cuts = open_cuts(steps, meld_total, cut_starts, cut_melds, slack, group_total)
    problem = CountsProblem(meld_counts, points, groups, max_left, keep, leave, steps,
                            prepared, shares, meld_shares, cut_starts, cut_melds, cuts, node_lp,
                            np.zeros(1, dtype=np.int64))
    return counts_best(problem, hand, budget, floor, move_limit, priced_search)
