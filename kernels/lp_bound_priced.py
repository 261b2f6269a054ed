"""The priced set-up of a lay-down search: the programme, its cuts, a floor (numba).

:func:`priced` is the whole preparation of a priced search: the linear
programme (:mod:`kernels.lp_bound_simplex`) and its repaired prices
(:mod:`kernels.lp_bound_repair`), rounds of clique cuts
(:mod:`kernels.lp_bound_cuts`), a floor (a lay-down from the solution,
:mod:`kernels.lp_bound_floor`) and the melds and leftovers that a lay-down as
good can afford. On seeded 45-card instances with 10 table melds the programme
without cuts is 0-6% above the optimum (the per-card shares of
:func:`kernels.laydown.programme.card_shares` are 100% above); a few rounds of cuts
take most of that gap away.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import types

from kernels.encoding import KIND_COUNT
from kernels.jit import njit
from kernels.link import linked
from kernels.lp_bound_cuts import separate
from kernels.lp_bound_floor import floor_laydown, rounded
from kernels.lp_bound_repair import least_price, reduced, subset_prices, warm_prices
from kernels.lp_bound_simplex import cold_basis, no_cuts

CUT_ROUNDS = 8      # priced(): at most this many rounds of cuts
CUTS_PER_ROUND = 16
MAX_CUTS = 64
STALLED_ROUNDS = 3  # ... ending after this many in a row that lower the bound by < a step


class Priced(NamedTuple):
    """What :func:`priced` returns (a tuple in this order, so it also unpacks by position)."""

    prices: np.ndarray       # int64[53]: the repaired price per kind
    slack: np.ndarray        # int64[G + C]: the value per group, then per cut
    bound: int               # the bound at the full hand, scaled
    live: np.ndarray         # int64[M]: 1 where a meld may be laid (empty without a floor)
    limits: np.ndarray       # int64[53]: the copies of each kind that may stay
    start: int               # the floor's points (-1: no floor)
    start_melds: np.ndarray  # the floor's melds
    step: int                # granularity(): a better lay-down is worth this much more
    cut_starts: np.ndarray   # int64[C + 1]: the cuts the prices hold (see lp_bound_simplex)
    cut_melds: np.ndarray


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


@linked(types.NamedTuple((_V, _V, _I, _V, _V, _I, _V, _I, _V, _V), Priced)(
    _V, _M, _V, _V, _I, _V, _I, _FIXED, _I))
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

    Returns a :class:`Priced`. A lay-down worth ``start + step`` or more holds only live
    melds, leaves at most ``limits`` and, with the groups and cuts still open,
    is bounded by the prices and slack (less ``keep`` cards at the least
    price); the bound covers every live meld. So when no live lay-down is worth
    that much, the floor's lay-down is a best one.
    """
    step = granularity(points)
    cut_starts, cut_melds = no_cuts()
    every = np.arange(meld_counts.shape[0])
    prices, slack, bound, solution = subset_prices(hand, meld_counts, points, groups,
                                                   cut_starts, cut_melds, every, keep, scale)
    spare = keep * least_price(hand, prices)  # the keep rule's cards, at the least price
    start, start_melds = floor_laydown(hand, meld_counts, points, groups, cut_starts,
                                       cut_melds, keep, max_left, every, solution, dives,
                                       np.int64(-1), np.zeros(0, dtype=np.int64))
    if start < 0:
        return Priced(prices, slack, bound, np.zeros(0, dtype=np.int64), max_left, start,
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
        new_prices, new_slack, new_bound, solution, basis = warm_prices(
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
        start, start_melds = floor_laydown(hand, meld_counts, points, groups, cuts, cut_list,
                                           keep, max_left, pool, solution, dives[:1], start,
                                           start_melds)
    _fix_again(live, limits, meld_counts, points, groups, cut_starts, cut_melds, max_left,
               prices, slack, scale, bound - (start + step) * scale, spare)
    return Priced(prices, slack, bound, live, limits, start, start_melds, step, cut_starts,
                  cut_melds)
