"""A linear-programming bound for the lay-down search: per-card prices (numba).

The lay-down problem relaxed to a linear programme: maximise ``points . y``
over ``y >= 0`` with ``counts^T y <= hand`` (each kind's copies) and at most one
meld per group (``sum of y over a group <= 1``). Its dual gives a price per
kind and a value per group such that every meld's cards and group are worth at
least its points; then any remaining hand ``r`` with the groups ``g`` still
open can reach at most ``prices . r + sum(slack[g])``, in the search's fixed
point (``SHARE_SCALE``). On seeded 30- and 45-card instances with 10 table
melds that bound is 0-6% above the optimum, where the per-card shares of
:func:`kernels.partition_numba._shares` are 100% above.

:func:`dual_prices` solves the programme with a revised primal simplex (dense
basis inverse over the kinds held and the groups; Dantzig's rule; at most
``max_iterations`` pivots) and then *repairs* the prices in integers so that
every meld's inequality holds exactly. Whatever the simplex returns (early
stop, rounding), the repaired prices are a valid bound: exactness never rests
on the floating point. Numbers in, numbers out.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kernels.encoding import KIND_COUNT

EPSILON = 1e-9
MAX_ITERATIONS = 2000


@njit(cache=True)
def _columns(meld_counts):
    """Each meld's (kind, count) pairs: (starts int64[M + 1], kinds, counts)."""
    total = meld_counts.shape[0]
    starts = np.zeros(total + 1, dtype=np.int64)
    for m in range(total):
        n = 0
        for k in range(KIND_COUNT):
            if meld_counts[m, k] > 0:
                n += 1
        starts[m + 1] = starts[m] + n
    kinds = np.empty(starts[total], dtype=np.int64)
    counts = np.empty(starts[total], dtype=np.int64)
    for m in range(total):
        i = starts[m]
        for k in range(KIND_COUNT):
            if meld_counts[m, k] > 0:
                kinds[i] = k
                counts[i] = meld_counts[m, k]
                i += 1
    return starts, kinds, counts


@njit(cache=True)
def lp_duals(hand, meld_counts, points, groups, max_iterations):
    """The programme's value, duals (float64[53] per kind, float64[G] per group) and solution.

    Rows: the kinds held, then the groups. Stops after ``max_iterations`` pivots
    (the duals are then those of the last basis, repaired by the caller).
    """
    total = meld_counts.shape[0]
    starts, col_kinds, col_counts = _columns(meld_counts)
    group_total = 0
    for m in range(total):
        if groups[m] + 1 > group_total:
            group_total = groups[m] + 1
    row_of = np.full(KIND_COUNT, -1, dtype=np.int64)
    rows = 0
    for k in range(KIND_COUNT):
        if hand[k] > 0:
            row_of[k] = rows
            rows += 1
    kind_rows = rows
    rows += group_total
    rhs = np.empty(rows, dtype=np.float64)
    for k in range(KIND_COUNT):
        if row_of[k] >= 0:
            rhs[row_of[k]] = hand[k]
    for g in range(group_total):
        rhs[kind_rows + g] = 1.0
    inverse = np.eye(rows)
    basic = np.empty(rows, dtype=np.int64)  # a meld, or total + row for a slack
    for r in range(rows):
        basic[r] = total + r
    values = rhs.copy()
    duals = np.zeros(rows, dtype=np.float64)
    column = np.zeros(rows, dtype=np.float64)
    objective = 0.0
    for _ in range(max_iterations):
        # entering column: the largest reduced cost (melds; slacks have -dual)
        entering = -1
        best = EPSILON
        for m in range(total):
            reduced = float(points[m])
            for i in range(starts[m], starts[m + 1]):
                reduced -= duals[row_of[col_kinds[i]]] * col_counts[i]
            if groups[m] >= 0:
                reduced -= duals[kind_rows + groups[m]]
            if reduced > best:
                best = reduced
                entering = m
        for r in range(rows):
            if -duals[r] > best:
                best = -duals[r]
                entering = total + r
        if entering < 0:
            break
        # its column in the current basis
        column[:] = 0.0
        if entering < total:
            for i in range(starts[entering], starts[entering + 1]):
                row = row_of[col_kinds[i]]
                for r in range(rows):
                    column[r] += inverse[r, row] * col_counts[i]
            if groups[entering] >= 0:
                row = kind_rows + groups[entering]
                for r in range(rows):
                    column[r] += inverse[r, row]
        else:
            for r in range(rows):
                column[r] = inverse[r, entering - total]
        leaving = -1
        ratio = 0.0
        for r in range(rows):
            if column[r] > EPSILON:
                step = values[r] / column[r]
                if leaving < 0 or step < ratio - EPSILON:
                    leaving = r
                    ratio = step
        if leaving < 0:
            break  # unbounded: cannot happen with the card rows
        pivot = column[leaving]
        for r in range(rows):
            values[r] -= ratio * column[r]
        values[leaving] = ratio
        objective += ratio * best
        for j in range(rows):
            inverse[leaving, j] /= pivot
        for r in range(rows):
            if r != leaving and column[r] != 0.0:
                factor = column[r]
                for j in range(rows):
                    inverse[r, j] -= factor * inverse[leaving, j]
        for j in range(rows):
            duals[j] += best * inverse[leaving, j]
        basic[leaving] = entering
    prices = np.zeros(KIND_COUNT, dtype=np.float64)
    for k in range(KIND_COUNT):
        if row_of[k] >= 0:
            prices[k] = max(duals[row_of[k]], 0.0)
    slack = np.zeros(group_total, dtype=np.float64)
    for g in range(group_total):
        slack[g] = max(duals[kind_rows + g], 0.0)
    solution = np.zeros(total, dtype=np.float64)
    for r in range(rows):
        if basic[r] < total:
            solution[basic[r]] = values[r]
    return objective, prices, slack, solution


@njit(cache=True)
def repair(meld_counts, points, groups, prices, scale):
    """Fixed-point prices and group slack that bound every meld exactly.

    ``prices`` (float64[53]) rounded up to ``scale``; then, meld by meld, a meld
    whose cards are worth less than its points (times ``scale``) raises each of
    its cards' prices by an equal share of the shortfall (raising a price never
    breaks a meld already checked), and a grouped meld's shortfall becomes its
    group's slack. Returns (int64[53], int64[G]) with, for every meld m,
    ``prices . counts[m] + slack[group] >= points[m] * scale``.
    """
    total = meld_counts.shape[0]
    starts, col_kinds, col_counts = _columns(meld_counts)
    fixed = np.zeros(KIND_COUNT, dtype=np.int64)
    for k in range(KIND_COUNT):
        fixed[k] = np.int64(np.ceil(prices[k] * scale))
    group_total = 0
    for m in range(total):
        if groups[m] + 1 > group_total:
            group_total = groups[m] + 1
    slack = np.zeros(group_total, dtype=np.int64)
    for grouped in range(2):  # the free melds first: their repair moves the prices
        for m in range(total):
            if (groups[m] >= 0) != (grouped == 1):
                continue
            worth = 0
            size = 0
            for i in range(starts[m], starts[m + 1]):
                worth += fixed[col_kinds[i]] * col_counts[i]
                size += col_counts[i]
            short = points[m] * scale - worth
            if short <= 0 or size == 0:
                continue
            if grouped == 1:
                if short > slack[groups[m]]:
                    slack[groups[m]] = short
            else:
                share = -((-short) // size)
                for i in range(starts[m], starts[m + 1]):
                    fixed[col_kinds[i]] += share
    return fixed, slack


@njit(cache=True)
def dual_prices(hand, meld_counts, points, groups, scale):
    """(int64[53] prices, int64[G] slack, the bound at the full hand scaled by ``scale``,
    float64[M] the programme's solution)."""
    _, prices, _, solution = lp_duals(hand, meld_counts, points, groups, MAX_ITERATIONS)
    fixed, slack = repair(meld_counts, points, groups, prices, scale)
    return fixed, slack, np.sum(fixed * hand) + np.sum(slack), solution


@njit(cache=True)
def subset_bound(hand, meld_counts, points, groups, subset, scale):
    """The repaired bound (scaled) of the programme over the melds ``subset`` only."""
    fixed, slack, bound, _ = dual_prices(hand, meld_counts[subset], points[subset],
                                         groups[subset], scale)
    return bound


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
    when more copies of a kind than ``max_left`` allows stay."""
    for j in range(order.shape[0]):
        _lay(melds[order[j]], 1 << 30, meld_counts, points, groups, keep, left, laid)
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
def rounded(hand, meld_counts, points, groups, keep, max_left, solution):
    """A lay-down from the programme's solution: (points, meld indices), or (-1, none).

    Melds in decreasing order of their value in the solution (then of points),
    each laid while it fits the cards left, its group is free and ``keep``
    cards stay; -1 when the result leaves more copies of a kind than
    ``max_left`` allows (must-use cards the rounding did not lay).
    """
    left, laid = _start(hand)
    order = np.argsort(-(solution * 1e6 + points))
    return _finish(np.arange(meld_counts.shape[0]), order, meld_counts, points, groups, keep,
                   max_left, left, laid)


@njit(cache=True)
def dived(hand, meld_counts, points, groups, keep, max_left, solution, max_solves):
    """A lay-down by diving on the programme: (points, meld indices), or (-1, none).

    Lay every meld the solution holds whole (value 1 or more, as many copies),
    and the one it holds most, then solve the programme of the cards left over
    the melds that still fit (their group free), at most ``max_solves`` times;
    what is left is finished as :func:`rounded` does, in the last solution's
    order. -1 as there (``max_left``).
    """
    total = meld_counts.shape[0]
    left, laid = _start(hand)
    current = solution.copy()
    subset = np.arange(total)
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
        fitting = np.empty(total, dtype=np.int64)
        n = 0
        for m in range(total):
            if groups[m] >= 0 and (laid[3] >> groups[m]) & 1:
                continue
            fits = True
            for k in range(KIND_COUNT):
                if meld_counts[m, k] > left[k]:
                    fits = False
                    break
            if fits:
                fitting[n] = m
                n += 1
        if n == 0:
            break
        subset = fitting[:n]
        _, _, _, current = lp_duals(left, meld_counts[subset], points[subset], groups[subset],
                                    MAX_ITERATIONS)
        solves += 1
    order = np.argsort(-(current * 1e6 + points[subset]))
    return _finish(subset, order, meld_counts, points, groups, keep, max_left, left, laid)
