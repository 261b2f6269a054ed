"""A linear-programming bound for the lay-down search: per-card prices (numba).

The lay-down problem relaxed to a linear programme: maximise ``points . y``
over ``y >= 0`` with ``counts^T y <= hand`` (each kind's copies), at most one
meld per group (``sum of y over a group <= 1``) and at most one meld of each
*cut* (a clique of melds no two of which fit the hand together, see
:func:`separate`). Its dual gives a price per kind and a value (slack) per
group and per cut such that every meld's cards, group and cuts are worth at
least its points; then any remaining hand ``r`` with the groups and cuts ``g``
still open can reach at most ``prices . r + sum(slack[g])``, in the search's
fixed point (``SHARE_SCALE``). On seeded 45-card instances with 10 table melds
the programme without cuts is 0-6% above the optimum (the per-card shares of
:func:`kernels.partition_numba._shares` are 100% above); a few rounds of cuts
take most of that gap away.

:func:`lp_solve` solves the programme with a revised simplex (dense basis
inverse over the kinds held, the groups and the cuts; Dantzig's rule; at most
``max_iterations`` pivots): cold, a primal simplex from the all-slack basis;
warm, from the basis of the round before, the new cut rows entering with their
slack basic, a dual simplex back to feasibility and then primal pivots.
:func:`lp_duals` is the cold solve's duals. :func:`repair` turns duals into
integers so that every meld's inequality holds exactly. Whatever the simplex
returns (early stop, rounding), the repaired prices are a valid bound:
exactness never rests on the floating point. :func:`priced` is the whole
preparation of a search: the programme, its cuts, a floor (a lay-down from
the solution) and the melds and leftovers that a lay-down as good can afford.
Numbers in, numbers out.

Cuts are given as ``cut_starts`` (int64[C + 1]) and ``cut_melds``: cut c holds
the melds ``cut_melds[cut_starts[c]:cut_starts[c + 1]]``; slack vectors hold
the G groups' values, then the C cuts'.
"""

from __future__ import annotations

import numpy as np
from numba import types

from kernels.jit import njit
from kernels.link import linked

from kernels.encoding import KIND_COUNT

EPSILON = 1e-9
MAX_ITERATIONS = 2000
CUT_ROUNDS = 8      # priced(): at most this many rounds of cuts
CUTS_PER_ROUND = 16
MAX_CUTS = 64
STALLED_ROUNDS = 3  # ... ending after this many in a row that lower the bound by < a step


@njit(cache=True)
def no_cuts():
    """The empty cut set: (cut_starts, cut_melds)."""
    return np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64)


@njit(cache=True)
def _group_total(groups):
    total = 0
    for m in range(groups.shape[0]):
        if groups[m] + 1 > total:
            total = groups[m] + 1
    return total


@njit(cache=True)
def _columns(meld_counts, groups, cut_starts, cut_melds, subset, group_total):
    """The nonzeros of the melds ``subset``'s columns: (starts int64[N + 1], kinds, counts,
    rows). Kind entries have ``kinds`` >= 0 and ``counts``; the group and cut entries
    have ``kinds`` -1 and ``rows`` their row after the kinds' (group g: g; cut c:
    group_total + c), coefficient 1."""
    total = subset.shape[0]
    position = np.full(meld_counts.shape[0], -1, dtype=np.int64)
    for j in range(total):
        position[subset[j]] = j
    extra = np.zeros(total, dtype=np.int64)
    for c in range(cut_starts.shape[0] - 1):
        for i in range(cut_starts[c], cut_starts[c + 1]):
            if position[cut_melds[i]] >= 0:
                extra[position[cut_melds[i]]] += 1
    starts = np.zeros(total + 1, dtype=np.int64)
    for j in range(total):
        n = extra[j] + (1 if groups[subset[j]] >= 0 else 0)
        for k in range(KIND_COUNT):
            if meld_counts[subset[j], k] > 0:
                n += 1
        starts[j + 1] = starts[j] + n
    kinds = np.empty(starts[total], dtype=np.int64)
    counts = np.ones(starts[total], dtype=np.int64)
    rows = np.zeros(starts[total], dtype=np.int64)
    fill = starts[:total].copy()
    for j in range(total):
        m = subset[j]
        for k in range(KIND_COUNT):
            if meld_counts[m, k] > 0:
                kinds[fill[j]] = k
                counts[fill[j]] = meld_counts[m, k]
                fill[j] += 1
        if groups[m] >= 0:
            kinds[fill[j]] = -1
            rows[fill[j]] = groups[m]
            fill[j] += 1
    for c in range(cut_starts.shape[0] - 1):
        for i in range(cut_starts[c], cut_starts[c + 1]):
            j = position[cut_melds[i]]
            if j >= 0:
                kinds[fill[j]] = -1
                rows[fill[j]] = group_total + c
                fill[j] += 1
    return starts, kinds, counts, rows


@njit(cache=True)
def lp_duals(hand, meld_counts, points, groups, cut_starts, cut_melds, subset, keep,
             max_iterations):
    """The programme over the melds ``subset`` (indices into the rows) and the cuts: its
    value, duals (float64[53] per kind, float64[G + C] per group, then per cut) and
    solution (float64[N], per entry of ``subset``), solved cold (:func:`lp_solve`)."""
    objective, prices, slack, solution, _ = lp_solve(
        hand, meld_counts, points, groups, cut_starts, cut_melds, subset, keep,
        max_iterations, cold_basis())
    return objective, prices, slack, solution


@njit(cache=True)
def cold_basis():
    """No basis to start from: :func:`lp_solve` starts from the slacks."""
    return (np.zeros((0, 0), dtype=np.float64), np.zeros(0, dtype=np.int64),
            np.zeros(0, dtype=np.float64), np.zeros(0, dtype=np.float64))


@njit(cache=True)
def _pivot(inverse, values, duals, basic, column, leaving, entering, reduced):
    """Basis change: ``entering`` (its column ``column`` in the basis, reduced cost
    ``reduced``) replaces the variable of row ``leaving``."""
    rows = values.shape[0]
    pivot = column[leaving]
    ratio = values[leaving] / pivot
    for r in range(rows):
        values[r] -= ratio * column[r]
    values[leaving] = ratio
    for j in range(rows):
        inverse[leaving, j] /= pivot
    for r in range(rows):
        if r != leaving and column[r] != 0.0:
            factor = column[r]
            for j in range(rows):
                inverse[r, j] -= factor * inverse[leaving, j]
    for j in range(rows):
        duals[j] += reduced * inverse[leaving, j]
    basic[leaving] = entering


@njit(cache=True)
def lp_solve(hand, meld_counts, points, groups, cut_starts, cut_melds, subset, keep,
             max_iterations, basis):
    """:func:`lp_duals`'s programme, with its basis: (value, prices, slack, solution,
    basis), ``basis`` = (inverse float64[R, R], basic int64[R], values float64[R], duals
    float64[R]).

    Rows: the kinds held, then the groups, then (``keep`` > 0) the keep rule:
    the melds hold at most ``hand.sum() - keep`` cards, then the cuts. The keep
    row's dual is added to every price of a kind held (a meld's cards pay it
    per card), so the prices alone bound every meld and each card a lay-down
    leaves costs at least that dual (:func:`least_price`).

    Cold (``basis`` of 0 rows, :func:`cold_basis`): a revised primal simplex
    from the slack basis (dense basis inverse, Dantzig's rule). Warm: ``basis``
    is an optimal basis of the same programme (same hand, melds, keep) with the
    first cuts only; the new cuts' rows enter with their slacks basic, which
    keeps the basis dual feasible, and a dual simplex (most negative value
    leaves, the ratio test on the reduced costs) restores primal feasibility
    before the primal simplex finishes. At most ``max_iterations`` pivots in
    each phase; the duals are then those of the last basis, repaired by the
    caller (a valid bound whatever the floating point).
    """
    total = subset.shape[0]
    group_total = _group_total(groups)
    cut_total = cut_starts.shape[0] - 1
    starts, col_kinds, col_counts, col_rows = _columns(meld_counts, groups, cut_starts,
                                                       cut_melds, subset, group_total)
    row_of = np.full(KIND_COUNT, -1, dtype=np.int64)
    rows = 0
    for k in range(KIND_COUNT):
        if hand[k] > 0:
            row_of[k] = rows
            rows += 1
    kind_rows = rows
    rows += group_total
    card_row = -1
    sizes = np.zeros(total, dtype=np.float64)
    if keep > 0:
        card_row = rows
        rows += 1
        for j in range(total):
            for k in range(KIND_COUNT):
                sizes[j] += meld_counts[subset[j], k]
    cut_row = rows
    rows += cut_total
    for i in range(col_kinds.shape[0]):  # every entry's row
        if col_kinds[i] >= 0:
            col_rows[i] = row_of[col_kinds[i]]
        elif col_rows[i] < group_total:
            col_rows[i] = kind_rows + col_rows[i]
        else:
            col_rows[i] = cut_row + col_rows[i] - group_total
    rhs = np.ones(rows, dtype=np.float64)
    for k in range(KIND_COUNT):
        if row_of[k] >= 0:
            rhs[row_of[k]] = hand[k]
    if card_row >= 0:
        rhs[card_row] = max(hand.sum() - keep, 0)
    old_inverse, old_basic, old_values, old_duals = basis
    before = old_basic.shape[0]
    inverse = np.zeros((rows, rows), dtype=np.float64)
    basic = np.empty(rows, dtype=np.int64)  # a meld, or total + row for a slack
    values = np.empty(rows, dtype=np.float64)
    duals = np.zeros(rows, dtype=np.float64)
    for r in range(rows):
        inverse[r, r] = 1.0
        basic[r] = total + r
        values[r] = rhs[r]
    if before > 0:
        inverse[:before, :before] = old_inverse
        basic[:before] = old_basic
        values[:before] = old_values
        duals[:before] = old_duals
        # a new cut's row: its slack basic, its inverse row minus the rows of the basic
        # melds it holds, its value 1 less their values (negative: violated)
        row_of_meld = np.full(total, -1, dtype=np.int64)
        for p in range(before):
            if basic[p] < total:
                row_of_meld[basic[p]] = p
        for j in range(total):
            p = row_of_meld[j]
            if p < 0:
                continue
            for i in range(starts[j], starts[j + 1]):
                row = col_rows[i]
                if col_kinds[i] < 0 and row >= before:
                    for q in range(before):
                        inverse[row, q] -= inverse[p, q]
                    values[row] -= values[p]
    is_basic = np.zeros(total + rows, dtype=np.bool_)
    for r in range(rows):
        is_basic[basic[r]] = True
    column = np.zeros(rows, dtype=np.float64)
    # the dual simplex: the most negative value leaves
    for _ in range(max_iterations if before > 0 else 0):
        leaving = -1
        worst = -EPSILON
        for r in range(rows):
            if values[r] < worst:
                worst = values[r]
                leaving = r
        if leaving < 0:
            break
        entering = -1
        least = np.inf
        entering_reduced = 0.0
        for j in range(total + rows):
            if is_basic[j]:
                continue
            if j < total:
                alpha = 0.0
                reduced = float(points[subset[j]])
                for i in range(starts[j], starts[j + 1]):
                    alpha += inverse[leaving, col_rows[i]] * col_counts[i]
                    reduced -= duals[col_rows[i]] * col_counts[i]
                if card_row >= 0:
                    alpha += inverse[leaving, card_row] * sizes[j]
                    reduced -= duals[card_row] * sizes[j]
            else:
                alpha = inverse[leaving, j - total]
                reduced = -duals[j - total]
            if alpha < -EPSILON:
                ratio = min(reduced, 0.0) / alpha  # >= 0: the reduced costs stay <= 0
                if ratio < least:
                    least = ratio
                    entering = j
                    entering_reduced = reduced
        if entering < 0:
            break  # primal infeasible: cannot happen (no melds laid is feasible)
        _entering_column(inverse, starts, col_rows, col_counts, sizes, card_row, total,
                         entering, column)
        is_basic[basic[leaving]] = False
        _pivot(inverse, values, duals, basic, column, leaving, entering, entering_reduced)
        is_basic[entering] = True
    # the primal simplex: the largest reduced cost enters (melds; slacks have -dual)
    for _ in range(max_iterations):
        entering = -1
        best = EPSILON
        for j in range(total):
            if is_basic[j]:
                continue
            reduced = float(points[subset[j]])
            for i in range(starts[j], starts[j + 1]):
                reduced -= duals[col_rows[i]] * col_counts[i]
            if card_row >= 0:
                reduced -= duals[card_row] * sizes[j]
            if reduced > best:
                best = reduced
                entering = j
        for r in range(rows):
            if not is_basic[total + r] and -duals[r] > best:
                best = -duals[r]
                entering = total + r
        if entering < 0:
            break
        _entering_column(inverse, starts, col_rows, col_counts, sizes, card_row, total,
                         entering, column)
        leaving = -1
        ratio = 0.0
        for r in range(rows):
            if column[r] > EPSILON:
                step = max(values[r], 0.0) / column[r]
                if leaving < 0 or step < ratio - EPSILON:
                    leaving = r
                    ratio = step
        if leaving < 0:
            break  # unbounded: cannot happen with the card rows
        is_basic[basic[leaving]] = False
        _pivot(inverse, values, duals, basic, column, leaving, entering, best)
        is_basic[entering] = True
    per_card = max(duals[card_row], 0.0) if card_row >= 0 else 0.0
    prices = np.zeros(KIND_COUNT, dtype=np.float64)
    for k in range(KIND_COUNT):
        if row_of[k] >= 0:
            prices[k] = max(duals[row_of[k]], 0.0) + per_card
    slack = np.zeros(group_total + cut_total, dtype=np.float64)
    for g in range(group_total):
        slack[g] = max(duals[kind_rows + g], 0.0)
    for c in range(cut_total):
        slack[group_total + c] = max(duals[cut_row + c], 0.0)
    solution = np.zeros(total, dtype=np.float64)
    objective = 0.0
    for r in range(rows):
        if basic[r] < total and values[r] > 0.0:
            solution[basic[r]] = values[r]
            objective += values[r] * points[subset[basic[r]]]
    return objective, prices, slack, solution, (inverse, basic, values, duals)


@njit(cache=True)
def _entering_column(inverse, starts, col_rows, col_counts, sizes, card_row, total, entering,
                     column):
    """``column`` := the basis inverse times the entering variable's column."""
    rows = column.shape[0]
    column[:] = 0.0
    if entering < total:
        for i in range(starts[entering], starts[entering + 1]):
            row = col_rows[i]
            for r in range(rows):
                column[r] += inverse[r, row] * col_counts[i]
        if card_row >= 0:
            for r in range(rows):
                column[r] += inverse[r, card_row] * sizes[entering]
    else:
        for r in range(rows):
            column[r] = inverse[r, entering - total]


@njit(cache=True)
def cut_worth(meld_total, cut_starts, cut_melds, slack, group_total):
    """Per meld, the summed slack of the cuts that hold it (int64[M])."""
    worth = np.zeros(meld_total, dtype=np.int64)
    for c in range(cut_starts.shape[0] - 1):
        for i in range(cut_starts[c], cut_starts[c + 1]):
            worth[cut_melds[i]] += slack[group_total + c]
    return worth


@njit(cache=True, inline="always")
def repair(meld_counts, points, groups, cut_starts, cut_melds, subset, prices, duals, scale):
    """Fixed-point prices and slack that bound every meld of ``subset`` exactly.

    ``prices`` (float64[53]) and the cuts' duals (``duals[G:]``) rounded up to
    ``scale``; then, meld by meld, a meld whose cards and cuts are worth less
    than its points (times ``scale``) raises each of its cards' prices by an
    equal share of the shortfall (raising a price never breaks a meld already
    checked), and a grouped meld's shortfall becomes its group's slack. Returns
    (int64[53], int64[G + C]) with, for every meld m of ``subset``, ``prices .
    counts[m] + slack[group] + sum(slack[its cuts]) >= points[m] * scale``.
    """
    group_total = _group_total(groups)
    cut_total = cut_starts.shape[0] - 1
    fixed = np.zeros(KIND_COUNT, dtype=np.int64)
    for k in range(KIND_COUNT):
        fixed[k] = np.int64(np.ceil(prices[k] * scale))
    slack = np.zeros(group_total + cut_total, dtype=np.int64)
    for c in range(cut_total):
        slack[group_total + c] = np.int64(np.ceil(duals[group_total + c] * scale))
    from_cuts = cut_worth(meld_counts.shape[0], cut_starts, cut_melds, slack, group_total)
    for grouped in range(2):  # the free melds first: their repair moves the prices
        for j in range(subset.shape[0]):
            m = subset[j]
            if (groups[m] >= 0) != (grouped == 1):
                continue
            worth = from_cuts[m]
            size = 0
            for k in range(KIND_COUNT):
                worth += fixed[k] * meld_counts[m, k]
                size += meld_counts[m, k]
            short = points[m] * scale - worth
            if short <= 0 or size == 0:
                continue
            if grouped == 1:
                if short > slack[groups[m]]:
                    slack[groups[m]] = short
            else:
                share = -((-short) // size)
                for k in range(KIND_COUNT):
                    if meld_counts[m, k] > 0:
                        fixed[k] += share
    return fixed, slack


@njit(cache=True)
def least_price(hand, prices):
    """The lowest price of a kind ``hand`` holds (0 without prices): every card a lay-down
    leaves costs its bound at least this much."""
    if prices.shape[0] == 0:
        return np.int64(0)
    least = np.int64(-1)
    for k in range(KIND_COUNT):
        if hand[k] > 0 and (least < 0 or prices[k] < least):
            least = prices[k]
    return max(least, np.int64(0))


@njit(cache=True)
def _dual_prices(hand, meld_counts, points, groups, cut_starts, cut_melds, subset, keep, scale):
    """The programme over ``subset`` with the cuts and the keep row, repaired: (int64[53]
    prices, int64[G + C] slack, the bound at ``hand`` scaled, float64[N] the solution)."""
    fixed, slack, bound, solution, _ = _warm_prices(hand, meld_counts, points, groups,
                                                    cut_starts, cut_melds, subset, keep,
                                                    scale, cold_basis())
    return fixed, slack, bound, solution


@njit(cache=True)
def _warm_prices(hand, meld_counts, points, groups, cut_starts, cut_melds, subset, keep, scale,
                 basis):
    """:func:`_dual_prices` from ``basis`` (see :func:`lp_solve`), and the basis reached."""
    _, prices, duals, solution, reached = lp_solve(hand, meld_counts, points, groups,
                                                   cut_starts, cut_melds, subset, keep,
                                                   MAX_ITERATIONS, basis)
    fixed, slack = repair(meld_counts, points, groups, cut_starts, cut_melds, subset, prices,
                          duals, scale)
    return fixed, slack, np.sum(fixed * hand) + np.sum(slack), solution, reached


@njit(cache=True)
def dual_prices(hand, meld_counts, points, groups, scale):
    """(int64[53] prices, int64[G] slack, the bound at the full hand scaled by ``scale``,
    float64[M] the programme's solution): all the melds, no cuts, no keep rule."""
    cut_starts, cut_melds = no_cuts()
    return _dual_prices(hand, meld_counts, points, groups, cut_starts, cut_melds,
                        np.arange(meld_counts.shape[0]), 0, scale)


@njit(cache=True)
def subset_bound(hand, meld_counts, points, groups, cut_starts, cut_melds, subset, keep,
                 scale):
    """The repaired bound (scaled) of the programme over the melds ``subset`` only, for a
    lay-down that leaves at least ``keep`` of the cards ``hand``."""
    prices, _, bound, _ = _dual_prices(hand, meld_counts, points, groups, cut_starts,
                                       cut_melds, subset, keep, scale)
    return bound - keep * least_price(hand, prices)


@njit(cache=True)
def fitting(meld_counts, groups, left, candidates, used):
    """The melds of ``candidates`` whose cards ``left`` holds and whose group is not in the
    bit set ``used``."""
    found = np.empty(candidates.shape[0], dtype=np.int64)
    n = 0
    for m in candidates:
        if groups[m] >= 0 and (used >> groups[m]) & 1:
            continue
        fits = True
        for k in range(KIND_COUNT):
            if meld_counts[m, k] > left[k]:
                fits = False
                break
        if fits:
            found[n] = m
            n += 1
    return found[:n]


@njit(cache=True)
def reduced(meld_counts, points, groups, cut_starts, cut_melds, max_left, prices, slack, scale,
            gap, spare):
    """What a lay-down worth at least the bound less ``gap`` (scaled) can use.

    With prices and slack that bound every meld, a lay-down's points (times
    ``scale``) are at most the bound less each of its melds' reduced cost
    (``prices . counts + slack[group] + sum(slack[its cuts]) - points * scale``,
    never negative) and less the prices of the cards it leaves (reduced-cost
    fixing), at least ``spare`` (the keep rule's cards at the least price). So
    such a lay-down holds only melds whose reduced cost is at most ``gap -
    spare`` and leaves at most ``gap // price`` copies of a kind. Returns
    (int64[M]: 1 for those melds, else 0; int64[53]: ``max_left`` lowered to
    those copies).
    """
    total = meld_counts.shape[0]
    cost = cut_worth(total, cut_starts, cut_melds, slack, _group_total(groups))
    live = np.zeros(total, dtype=np.int64)
    for m in range(total):
        cost[m] -= points[m] * scale
        for k in range(KIND_COUNT):
            cost[m] += prices[k] * meld_counts[m, k]
        if groups[m] >= 0:
            cost[m] += slack[groups[m]]
        if cost[m] <= gap - spare:
            live[m] = 1
    limits = max_left.copy()
    for k in range(KIND_COUNT):
        if prices[k] > 0 and gap // prices[k] < limits[k]:
            limits[k] = max(gap // prices[k], 0)
    return live, limits


@njit(cache=True)
def _exceeds(meld_counts, hand, groups, subset):
    """Conflict masks of the melds ``subset`` (by position j in it): bit k of
    ``above[j, t - 1]`` is set when meld subset[j] holds t or more copies of kind k,
    of ``needs[j, t - 1]`` when it holds more than hand[k] - t; melds at positions
    a and b (a may be b) cannot both be laid when they share a group (``sub_groups``)
    or some ``above[a, t] & needs[b, t]`` (their copies of a kind exceed the hand's).
    ``alone[j]``: the meld at j conflicts with itself (it cannot be laid twice)."""
    total = subset.shape[0]
    most = 1
    for j in range(total):
        for k in range(KIND_COUNT):
            if meld_counts[subset[j], k] > most:
                most = meld_counts[subset[j], k]
    above = np.zeros((total, most), dtype=np.int64)
    needs = np.zeros((total, most), dtype=np.int64)
    sub_groups = np.empty(total, dtype=np.int64)
    alone = np.zeros(total, dtype=np.bool_)
    for j in range(total):
        m = subset[j]
        sub_groups[j] = groups[m]
        for k in range(KIND_COUNT):
            c = meld_counts[m, k]
            if c == 0:
                continue
            for t in range(1, most + 1):
                if c >= t:
                    above[j, t - 1] |= np.int64(1) << k
                if c > hand[k] - t:
                    needs[j, t - 1] |= np.int64(1) << k
        alone[j] = _conflict(j, j, above, needs, sub_groups)
    return above, needs, sub_groups, alone


@njit(cache=True)
def _thresholds(meld_counts, hand, subset, above):
    """Per meld of ``subset`` (position j), the kinds it holds with the least count a
    member must hold of each to conflict with it: kind ``kinds[i]`` and count
    ``least[i]`` (hand[k] less its count, plus 1) for i in starts[j]:starts[j + 1],
    only where that count is at most ``above.shape[1]`` (no meld holds more)."""
    total = subset.shape[0]
    starts = np.zeros(total + 1, dtype=np.int64)
    for j in range(total):
        held = above[j, 0]  # the kinds the meld holds
        while held != 0:
            held &= held - 1
            starts[j + 1] += 1
        starts[j + 1] += starts[j]
    kinds = np.empty(starts[total], dtype=np.int64)
    least = np.empty(starts[total], dtype=np.int64)
    for j in range(total):
        used = starts[j]
        held = above[j, 0]
        k = 0
        while held != 0:
            if held & 1 and hand[k] - meld_counts[subset[j], k] < above.shape[1]:
                kinds[used] = k
                least[used] = hand[k] - meld_counts[subset[j], k] + 1
                used += 1
            held >>= 1
            k += 1
        starts[j + 1] = used  # the kinds that no meld's count reaches are left out
    return starts, kinds, least


@njit(cache=True)
def _first_free(holders, kind_starts, kinds, least, group_bits, j, group, size):
    """The first member (position in the clique) that meld ``j`` does not conflict with,
    or -1: bit q of ``holders[k, t - 1]`` is set when member q holds t or more copies of
    kind k, of ``group_bits`` when member q is of ``group``."""
    for w in range(((size - 1) >> 6) + 1):
        cover = group_bits[w] if group >= 0 else np.int64(0)
        for i in range(kind_starts[j], kind_starts[j + 1]):
            cover |= holders[kinds[i], least[i] - 1, w]
        width = min(size - (w << 6), 64)
        full = np.int64(-1) if width == 64 else (np.int64(1) << width) - 1
        if cover & full != full:
            free = ~cover & full
            q = 0
            while not (free >> q) & 1:
                q += 1
            return (w << 6) + q
    return -1


@njit(cache=True)
def _conflict(a, b, above, needs, groups):
    if groups[a] >= 0 and groups[a] == groups[b]:
        return True
    for t in range(above.shape[1]):
        if above[a, t] & needs[b, t]:
            return True
    return False


@njit(cache=True)
def _hold(holders, group_holders, meld_counts, m, group, q):
    """Member q of the clique is meld m (of ``group``, or -1): set its bits."""
    w = q >> 6
    bit = np.int64(1) << (q & 63)
    for k in range(KIND_COUNT):
        for t in range(min(meld_counts[m, k], holders.shape[1])):
            holders[k, t, w] |= bit
    if group >= 0:
        group_holders[group, w] |= bit


@njit(cache=True, inline="always")
def separate(hand, meld_counts, groups, subset, solution, cut_starts, cut_melds, max_new):
    """Clique cuts that the programme's ``solution`` (over ``subset``) violates.

    A clique is a set of melds every two of which (and each with itself: it
    cannot be laid twice) cannot be laid together, so at most one of them is
    laid: ``sum of y over it <= 1``. From each meld of the solution, in
    decreasing order of its value, a clique is grown greedily over the
    solution's melds (largest value first), and if it holds more than 1 it is
    extended by every other meld of ``subset`` that conflicts with all its
    members (a stronger cut) and kept unless it is already a cut. Returns the
    cuts given and at most ``max_new`` new ones, as (cut_starts, cut_melds).
    """
    above, needs, sub_groups, alone = _exceeds(meld_counts, hand, groups, subset)
    most = above.shape[1]
    kind_starts, kinds_of, least = _thresholds(meld_counts, hand, subset, above)
    words = (subset.shape[0] + 63) >> 6
    holders = np.zeros((KIND_COUNT, most, words), dtype=np.int64)  # bit q: member q's copies
    group_holders = np.zeros((_group_total(groups) + 1, words), dtype=np.int64)
    order = np.argsort(-solution)
    support = 0
    while support < order.shape[0] and solution[order[support]] > 1e-6:
        support += 1
    members = np.empty(subset.shape[0], dtype=np.int64)
    in_clique = np.zeros(subset.shape[0], dtype=np.bool_)
    new_starts = np.zeros(max_new + 1, dtype=np.int64)
    new_melds = np.empty(max_new * subset.shape[0], dtype=np.int64)
    found = 0
    # the cliques grown over the solution's melds so far (a basic solution holds at most
    # one meld per row of the programme: support <= 53 + groups + cuts + 1)
    grown_starts = np.zeros(support + 1, dtype=np.int64)
    grown_melds = np.empty(support * support, dtype=np.int64)
    grown_total = 0
    size_last = 0  # the last clique's size: the words of ``holders`` to clear
    for s in range(support):
        if found >= max_new:
            break
        seed = order[s]
        if not alone[seed]:
            continue
        for w in range(((size_last - 1) >> 6) + 1 if size_last > 0 else 0):
            holders[:, :, w] = 0
            group_holders[:, w] = 0
        size = 1
        members[0] = seed
        _hold(holders, group_holders, meld_counts, subset[seed], sub_groups[seed], 0)
        in_clique[:] = False
        in_clique[seed] = True
        weight = solution[seed]
        rejecter = 0  # the member that last kept a meld out: it is tested first
        # the kinds every member holds t or more copies of (bit k of common[t - 1]), and
        # the members' one group (-2: none shared): a meld that needs more of such a kind
        # than the hand leaves, or is of that group, conflicts with every member at once
        common = above[seed].copy()
        common_group = sub_groups[seed] if sub_groups[seed] >= 0 else -2
        for pass_ in range(2):  # the solution's melds, then (a violated clique) the others
            for i in range(support if pass_ == 0 else subset.shape[0]):
                j = order[i] if pass_ == 0 else i
                if in_clique[j] or (pass_ == 1 and solution[j] > 1e-6):
                    continue
                if not alone[j]:
                    continue
                joins = sub_groups[j] == common_group
                for t in range(common.shape[0]):
                    if common[t] & needs[j, t]:
                        joins = True
                if not joins:
                    if not _conflict(j, members[rejecter], above, needs, sub_groups):
                        continue
                    free = _first_free(holders, kind_starts, kinds_of, least,
                                       group_holders[max(sub_groups[j], 0)], j,
                                       sub_groups[j], size)
                    joins = free < 0
                    if not joins:
                        rejecter = free
                if joins:
                    members[size] = j
                    _hold(holders, group_holders, meld_counts, subset[j], sub_groups[j], size)
                    size += 1
                    in_clique[j] = True
                    weight += solution[j]
                    for t in range(common.shape[0]):
                        common[t] &= above[j, t]
                    if sub_groups[j] != common_group:
                        common_group = -2
            if pass_ == 0:
                if weight <= 1.0 + 1e-6:
                    break
                # the same melds from another seed grow the same cut: skip them
                grown = np.sort(members[:size])
                repeat = False
                for c in range(grown_total):
                    if grown_starts[c + 1] - grown_starts[c] == size and (
                            grown_melds[grown_starts[c]:grown_starts[c + 1]] == grown).all():
                        repeat = True
                        break
                if repeat:
                    weight = 0.0
                    break
                grown_melds[grown_starts[grown_total]:grown_starts[grown_total] + size] = grown
                grown_starts[grown_total + 1] = grown_starts[grown_total] + size
                grown_total += 1
        size_last = size
        if weight <= 1.0 + 1e-6:
            continue
        clique = np.sort(subset[members[:size]])
        known = False
        for c in range(cut_starts.shape[0] - 1):
            if cut_starts[c + 1] - cut_starts[c] == size and (
                    cut_melds[cut_starts[c]:cut_starts[c + 1]] == clique).all():
                known = True
        for c in range(found):
            if new_starts[c + 1] - new_starts[c] == size and (
                    new_melds[new_starts[c]:new_starts[c + 1]] == clique).all():
                known = True
        if known:
            continue
        new_melds[new_starts[found]:new_starts[found] + size] = clique
        new_starts[found + 1] = new_starts[found] + size
        found += 1
    old = cut_starts.shape[0] - 1
    starts = np.empty(old + found + 1, dtype=np.int64)
    starts[:old + 1] = cut_starts
    starts[old + 1:] = cut_starts[old] + new_starts[1:found + 1]
    melds = np.empty(starts[old + found], dtype=np.int64)
    melds[:cut_starts[old]] = cut_melds
    melds[cut_starts[old]:] = new_melds[:new_starts[found]]
    return starts, melds


@njit(cache=True)
def _lay(m, copies, meld_counts, points, groups, keep, left, laid):
    """Lay up to ``copies`` copies of meld ``m`` while it fits ``left``, its group is free
    and ``keep`` cards stay. ``laid`` is [cards left, points, melds laid, group bits];
    the melds go to ``laid[4:]``. Returns how many were laid."""
    done = 0
    while done < copies:
        if groups[m] >= 0 and (laid[3] >> groups[m]) & 1:
            break
        size = 0
        for k in range(KIND_COUNT):
            if meld_counts[m, k] > left[k]:
                return done
            size += meld_counts[m, k]
        if laid[0] - size < keep:
            break
        for k in range(KIND_COUNT):
            left[k] -= meld_counts[m, k]
        laid[0] -= size
        laid[1] += points[m]
        laid[4 + laid[2]] = m
        laid[2] += 1
        done += 1
        if groups[m] >= 0:
            laid[3] |= np.int64(1) << groups[m]
    return done


@njit(cache=True)
def _finish(melds, order, meld_counts, points, groups, keep, max_left, left, laid):
    """Lay ``melds[order]`` greedily (each as often as it fits); (points, melds) or (-1, none)
    when more copies of a kind than ``max_left`` allows stay, or fewer than ``keep`` cards
    (a hand smaller than ``keep``: no lay-down at all)."""
    for j in range(order.shape[0]):
        _lay(melds[order[j]], 1 << 30, meld_counts, points, groups, keep, left, laid)
    if laid[0] < keep:
        return np.int64(-1), laid[4:4]
    for k in range(KIND_COUNT):
        if left[k] > max_left[k]:
            return np.int64(-1), laid[4:4]
    return laid[1], laid[4:4 + laid[2]]


@njit(cache=True)
def _start(hand):
    laid = np.zeros(4 + hand.sum() + 1, dtype=np.int64)
    laid[0] = hand.sum()
    return hand.copy(), laid


@njit(cache=True)
def rounded(hand, meld_counts, points, groups, keep, max_left, pool, solution):
    """A lay-down from the programme's solution over the melds ``pool`` (``solution[j]``
    is meld ``pool[j]``'s value): (points, meld indices), or (-1, none).

    The pool's melds in decreasing order of their value in the solution (then
    of points), each laid while it fits the cards left, its group is free and
    ``keep`` cards stay; -1 when the result leaves more copies of a kind than
    ``max_left`` allows (must-use cards the rounding did not lay).
    """
    left, laid = _start(hand)
    order = np.argsort(-(solution * 1e6 + points[pool]))
    return _finish(pool, order, meld_counts, points, groups, keep, max_left, left, laid)


@njit(cache=True, inline="always")
def dived(hand, meld_counts, points, groups, cut_starts, cut_melds, keep, max_left, pool,
          solution, max_solves):
    """A lay-down by diving on the programme over the melds ``pool`` (``solution`` as for
    :func:`rounded`): (points, meld indices), or (-1, none).

    Lay every meld the solution holds whole (value 1 or more, as many copies),
    and the one it holds most, then solve the programme (with the cuts, which
    stay valid for fewer cards) of the cards left over the pool's melds that
    still fit (their group free), at most ``max_solves`` times; what is left is
    finished as :func:`rounded` does, in the last solution's order. -1 as there
    (``max_left``).
    """
    left, laid = _start(hand)
    current = solution.copy()
    subset = pool
    solves = 0
    while True:
        top = -1
        for j in range(subset.shape[0]):
            if top < 0 or current[j] > current[top] + EPSILON:
                top = j
        count = 0
        for j in range(subset.shape[0]):
            if current[j] >= 1.0 - 1e-6 or (j == top and current[j] >= 1e-6):
                count += _lay(subset[j], max(1, int(current[j] + 1e-6)), meld_counts, points,
                              groups, keep, left, laid)
        if count == 0 or solves >= max_solves:
            break
        fits = fitting(meld_counts, groups, left, pool, laid[3])
        if fits.shape[0] == 0:
            break
        subset = fits
        _, _, _, current = lp_duals(left, meld_counts, points, groups, cut_starts, cut_melds,
                                    subset, keep, MAX_ITERATIONS)
        solves += 1
    order = np.argsort(-(current * 1e6 + points[subset]))
    return _finish(subset, order, meld_counts, points, groups, keep, max_left, left, laid)


@njit(cache=True)
def _floor(hand, meld_counts, points, groups, cut_starts, cut_melds, keep, max_left, pool,
           solution, dives, start, start_melds):
    """The better of (start, start_melds) and the lay-downs :func:`rounded` and
    :func:`dived` (with each of ``dives`` solves) make of ``solution``."""
    value, melds = rounded(hand, meld_counts, points, groups, keep, max_left, pool, solution)
    if value > start:
        start, start_melds = value, melds.copy()
    for solves in dives:
        value, melds = dived(hand, meld_counts, points, groups, cut_starts, cut_melds, keep,
                             max_left, pool, solution, solves)
        if value > start:
            start, start_melds = value, melds.copy()
    return start, start_melds


@njit(cache=True)
def granularity(points):
    """The greatest common divisor of the points (1 when all are 0): a lay-down worth more
    than another is worth at least this much more."""
    step = np.int64(0)
    for m in range(points.shape[0]):
        a = abs(points[m])
        while a != 0:
            step, a = a, step % a
    return max(step, np.int64(1))


@njit(cache=True)
def _fix_again(live, limits, meld_counts, points, groups, cut_starts, cut_melds, max_left,
               prices, slack, scale, gap, spare):
    """:func:`reduced` with these prices, its melds and copies taken off ``live`` and
    ``limits`` (in place): each fixing holds, so all of them do together."""
    again, tighter = reduced(meld_counts, points, groups, cut_starts, cut_melds, max_left,
                             prices, slack, scale, gap, spare)
    for m in range(live.shape[0]):
        live[m] = live[m] & again[m]
    for k in range(KIND_COUNT):
        limits[k] = min(limits[k], tighter[k])


@njit(cache=True)
def _narrow(pool, solution, basis, live):
    """The pool's melds still ``live`` (and those the basis holds: the programme over the
    pool stays the one it is optimal for, less columns it does not use), their solution
    values, and the basis over the new positions."""
    inverse, basic, values, duals = basis
    total = pool.shape[0]
    kept = np.zeros(total, dtype=np.bool_)
    for j in range(total):
        kept[j] = live[pool[j]] != 0
    for r in range(basic.shape[0]):
        if basic[r] < total:
            kept[basic[r]] = True
    position = np.full(total, -1, dtype=np.int64)
    count = 0
    for j in range(total):
        if kept[j]:
            position[j] = count
            count += 1
    moved = basic.copy()
    for r in range(basic.shape[0]):
        moved[r] = position[basic[r]] if basic[r] < total else basic[r] - total + count
    return pool[kept], solution[kept], (inverse, moved, values, duals)


_I, _V, _M = types.int64, types.int64[::1], types.int64[:, ::1]
_FIXED = types.Array(types.int64, 1, "C", readonly=True)   # a module's constant array


@linked(types.Tuple((_V, _V, _I, _V, _V, _I, _V, _I, _V, _V))(_V, _M, _V, _V, _I, _V, _I, _FIXED,
                                                              _I))
def priced(hand, meld_counts, points, groups, keep, max_left, scale, dives, rounds):
    """Everything a priced search starts from: the programme, cuts, and what they rule out.

    1. The programme over every meld, with the keep rule's row; its repaired
       prices; a floor: the best lay-down that rounding and diving (``dives``:
       the solves of each dive) make of its solution.
    2. Reduced-cost fixing (:func:`reduced`) for lay-downs worth at least
       ``start`` (the floor's points): the *pool* of melds they can hold.
    3. At most ``rounds`` rounds: clique cuts the pool's solution violates
       (:func:`separate`), the programme over the pool with them, its repaired
       prices (kept when their bound is lower), and its rounded solution (a
       better floor, when it is); STALLED_ROUNDS rounds in a row that lower the
       bound by less than ``step`` end them. Then a dive on the last solution.
    4. Reduced-cost fixing again, for lay-downs *better* than the floor: worth
       at least ``start + step`` (``step``: :func:`granularity`).

    Returns (prices int64[53], slack int64[G + C], bound, live int64[M] (1: may
    be laid; empty when there is no floor), limits int64[53] (copies that may
    stay), start (-1 if there is no floor), start_melds, step, cut_starts,
    cut_melds). A lay-down worth ``start + step`` or more holds only live
    melds, leaves at most ``limits`` and, with the groups and cuts still open,
    is bounded by the prices and slack (less ``keep`` cards at the least
    price); the bound covers every live meld. So when no live lay-down is worth
    that much, the floor's lay-down is a best one.
    """
    step = granularity(points)
    cut_starts, cut_melds = no_cuts()
    every = np.arange(meld_counts.shape[0])
    prices, slack, bound, solution = _dual_prices(hand, meld_counts, points, groups,
                                                  cut_starts, cut_melds, every, keep, scale)
    spare = keep * least_price(hand, prices)  # the keep rule's cards, at the least price
    start, start_melds = _floor(hand, meld_counts, points, groups, cut_starts, cut_melds, keep,
                                max_left, every, solution, dives, np.int64(-1),
                                np.zeros(0, dtype=np.int64))
    if start < 0:
        return (prices, slack, bound, np.zeros(0, dtype=np.int64), max_left, start,
                start_melds, step, cut_starts, cut_melds)
    live, limits = reduced(meld_counts, points, groups, cut_starts, cut_melds, max_left, prices,
                           slack, scale, bound - start * scale, spare)
    pool = np.flatnonzero(live)
    solution = solution[pool]
    cuts, cut_list = cut_starts, cut_melds
    last = bound - spare
    stalled = 0  # rounds in a row that lowered the programme's bound by less than a step
    basis = cold_basis()  # the last round's, over the pool: the next round starts from it
    for _ in range(rounds):
        if stalled >= STALLED_ROUNDS:
            break
        if bound - spare < (start + step) * scale:
            break  # the floor is proven a best lay-down
        if pool.shape[0] == 0 or cuts.shape[0] - 1 >= MAX_CUTS:
            break
        more, more_list = separate(hand, meld_counts, groups, pool, solution, cuts, cut_list,
                                   min(CUTS_PER_ROUND, MAX_CUTS - (cuts.shape[0] - 1)))
        if more.shape[0] == cuts.shape[0]:
            break  # no clique is violated
        cuts, cut_list = more, more_list
        new_prices, new_slack, new_bound, solution, basis = _warm_prices(
            hand, meld_counts, points, groups, cuts, cut_list, pool, keep, scale, basis)
        new_spare = keep * least_price(hand, new_prices)
        stalled = stalled + 1 if last - (new_bound - new_spare) < step * scale else 0
        last = new_bound - new_spare
        if new_bound - new_spare < bound - spare:
            prices, slack, bound, spare = new_prices, new_slack, new_bound, new_spare
            cut_starts, cut_melds = cuts, cut_list
        value, melds = rounded(hand, meld_counts, points, groups, keep, max_left, pool,
                               solution)
        if value > start:
            start, start_melds = value, melds.copy()
        # fix again with the lowest bound and the floor so far: the next rounds' programmes
        # and separations are over fewer melds
        _fix_again(live, limits, meld_counts, points, groups, cut_starts, cut_melds,
                   max_left, prices, slack, scale, bound - start * scale, spare)
        pool, solution, basis = _narrow(pool, solution, basis, live)
    if cuts.shape[0] > 1 and pool.shape[0] > 0 and bound - spare >= (start + step) * scale:
        start, start_melds = _floor(hand, meld_counts, points, groups, cuts, cut_list, keep,
                                    max_left, pool, solution, dives[:1], start, start_melds)
    _fix_again(live, limits, meld_counts, points, groups, cut_starts, cut_melds, max_left,
               prices, slack, scale, bound - (start + step) * scale, spare)
    return (prices, slack, bound, live, limits, start, start_melds, step, cut_starts,
            cut_melds)
