"""The simplex of the lay-down search's linear-programming bound (numba).

The programme: maximise ``points . y`` over ``y >= 0`` with ``counts^T y <=
hand`` (each kind's copies), at most one meld per group (``sum of y over a
group <= 1``), optionally the keep rule's row (the melds hold at most
``hand.sum() - keep`` cards) and at most one meld of each *cut* (a clique of
melds no two of which fit the hand together, :mod:`kernels.lp_bound_cuts`).

:func:`lp_solve` solves it with a revised simplex (dense basis inverse over
the kinds held, the groups and the cuts; Dantzig's rule; at most
``max_iterations`` pivots): cold, a primal simplex from the all-slack basis;
warm, from the basis of the round before, the new cut rows entering with their
slack basic, a dual simplex back to feasibility and then primal pivots.
:func:`lp_duals` is the cold solve's duals. Numbers in, numbers out.

Cuts are given as ``cut_starts`` (int64[C + 1]) and ``cut_melds``: cut c holds
the melds ``cut_melds[cut_starts[c]:cut_starts[c + 1]]``; slack vectors hold
the G groups' values, then the C cuts'.
"""

from __future__ import annotations

import numpy as np

from kernels.encoding import KIND_COUNT
from kernels.jit import njit

EPSILON = 1e-9
MAX_ITERATIONS = 2000


@njit(cache=True)
def no_cuts():
    """The empty cut set: (cut_starts, cut_melds)."""
    return np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64)



@njit(cache=True)
def group_count(groups):
    """The number of groups: one more than the largest group index (0 without groups)."""
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
    leaves costs at least that dual (:func:`kernels.lp_bound_repair.least_price`).

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
    group_total = group_count(groups)
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
