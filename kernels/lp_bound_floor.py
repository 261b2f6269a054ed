"""Integer lay-downs from the programme's solution: rounding and diving (numba).

A lay-down made from the linear programme's fractional solution is a floor of
the search: :func:`rounded` lays the solution's melds greedily, :func:`dived`
lays what the solution holds whole and solves the programme again over the
cards left. Both honour the groups, the keep rule and the must-use cards
(``max_left``).
"""

from __future__ import annotations

import numpy as np

from kernels.encoding import KIND_COUNT
from kernels.jit import njit
from kernels.lp_bound_simplex import EPSILON, MAX_ITERATIONS, lp_duals

# a lay-down under construction, int64[LAID_MELDS + cards + 1]: the fields, then its melds
LAID_CARDS = 0    # cards left in hand
LAID_POINTS = 1   # points of the melds laid
LAID_COUNT = 2    # melds laid
LAID_GROUPS = 3   # bit g: a meld of group g is laid
LAID_MELDS = 4    # where the melds laid begin


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
def _lay(m, copies, meld_counts, points, groups, keep, left, laid):
    """Lay up to ``copies`` copies of meld ``m`` while it fits ``left``, its group is free
    and ``keep`` cards stay. ``laid``: the lay-down so far (the ``LAID_`` fields). Returns
    how many were laid."""
    done = 0
    while done < copies:
        if groups[m] >= 0 and (laid[LAID_GROUPS] >> groups[m]) & 1:
            break
        size = 0
        for k in range(KIND_COUNT):
            if meld_counts[m, k] > left[k]:
                return done
            size += meld_counts[m, k]
        if laid[LAID_CARDS] - size < keep:
            break
        for k in range(KIND_COUNT):
            left[k] -= meld_counts[m, k]
        laid[LAID_CARDS] -= size
        laid[LAID_POINTS] += points[m]
        laid[LAID_MELDS + laid[LAID_COUNT]] = m
        laid[LAID_COUNT] += 1
        done += 1
        if groups[m] >= 0:
            laid[LAID_GROUPS] |= np.int64(1) << groups[m]
    return done


@njit(cache=True)
def _finish(melds, order, meld_counts, points, groups, keep, max_left, left, laid):
    """Lay ``melds[order]`` greedily (each as often as it fits); (points, melds) or (-1, none)
    when more copies of a kind than ``max_left`` allows stay, or fewer than ``keep`` cards
    (a hand smaller than ``keep``: no lay-down at all)."""
    for j in range(order.shape[0]):
        _lay(melds[order[j]], 1 << 30, meld_counts, points, groups, keep, left, laid)
    if laid[LAID_CARDS] < keep:
        return np.int64(-1), laid[LAID_MELDS:LAID_MELDS]
    for k in range(KIND_COUNT):
        if left[k] > max_left[k]:
            return np.int64(-1), laid[LAID_MELDS:LAID_MELDS]
    return laid[LAID_POINTS], laid[LAID_MELDS:LAID_MELDS + laid[LAID_COUNT]]


@njit(cache=True)
def _start(hand):
    """The cards left (a copy of ``hand``) and an empty lay-down (the ``LAID_`` fields)."""
    laid = np.zeros(LAID_MELDS + hand.sum() + 1, dtype=np.int64)
    laid[LAID_CARDS] = hand.sum()
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
        fits = fitting(meld_counts, groups, left, pool, laid[LAID_GROUPS])
        if fits.shape[0] == 0:
            break
        subset = fits
        _, _, _, current = lp_duals(left, meld_counts, points, groups, cut_starts, cut_melds,
                                    subset, keep, MAX_ITERATIONS)
        solves += 1
    order = np.argsort(-(current * 1e6 + points[subset]))
    return _finish(subset, order, meld_counts, points, groups, keep, max_left, left, laid)


@njit(cache=True)
def floor_laydown(hand, meld_counts, points, groups, cut_starts, cut_melds, keep, max_left,
                  pool, solution, dives, start, start_melds):
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
