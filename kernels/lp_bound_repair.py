"""Integer prices from the simplex's duals, and what they rule out (numba).

The dual of the lay-down programme (:mod:`kernels.lp_bound_simplex`) gives a
price per kind and a value (slack) per group and per cut such that every
meld's cards, group and cuts are worth at least its points; then any
remaining hand ``r`` with the groups and cuts ``g`` still open can reach at
most ``prices . r + sum(slack[g])``, in the search's fixed point
(``SHARE_SCALE``). :func:`repair` turns the duals into integers so that every
meld's inequality holds exactly: whatever the simplex returns (early stop,
rounding), the repaired prices are a valid bound, and exactness never rests on
the floating point. :func:`reduced` is reduced-cost fixing: the melds and
leftovers a lay-down worth a given amount can still afford.
"""

from __future__ import annotations

import numpy as np

from kernels.encoding import KIND_COUNT
from kernels.jit import njit
from kernels.lp_bound_simplex import MAX_ITERATIONS, cold_basis, group_count, lp_solve, no_cuts


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
    group_total = group_count(groups)
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
def subset_prices(hand, meld_counts, points, groups, cut_starts, cut_melds, subset, keep,
                  scale):
    """The programme over ``subset`` with the cuts and the keep row, repaired: (int64[53]
    prices, int64[G + C] slack, the bound at ``hand`` scaled, float64[N] the solution)."""
    fixed, slack, bound, solution, _ = warm_prices(hand, meld_counts, points, groups,
                                                   cut_starts, cut_melds, subset, keep, scale,
                                                   cold_basis())
    return fixed, slack, bound, solution


@njit(cache=True)
def warm_prices(hand, meld_counts, points, groups, cut_starts, cut_melds, subset, keep, scale,
                basis):
    """:func:`subset_prices` from ``basis`` (see :func:`lp_solve`), and the basis reached."""
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
    return subset_prices(hand, meld_counts, points, groups, cut_starts, cut_melds,
                         np.arange(meld_counts.shape[0]), 0, scale)


@njit(cache=True)
def subset_bound(hand, meld_counts, points, groups, cut_starts, cut_melds, subset, keep,
                 scale):
    """The repaired bound (scaled) of the programme over the melds ``subset`` only, for a
    lay-down that leaves at least ``keep`` of the cards ``hand``."""
    prices, _, bound, _ = subset_prices(hand, meld_counts, points, groups, cut_starts,
                                        cut_melds, subset, keep, scale)
    return bound - keep * least_price(hand, prices)


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
    cost = cut_worth(total, cut_starts, cut_melds, slack, group_count(groups))
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
