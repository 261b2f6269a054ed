"""A best lay-down rebuilt from the memoised values of a finished search.

After a search has found the best value ``target``, the rebuild walks the programme's
steps again from the whole hand: at each step it tries the step's moves in the search's
order and takes the first whose child, solved against the threshold ``target - gained -
1`` (the memo answers most of them), reaches exactly what is left of ``target``.
:func:`packed_best` does it on the packed state, :func:`counts_best` on a counts vector.
"""

from __future__ import annotations

import numpy as np
from kernels.jit import njit

from kernels.encoding import KIND_COUNT
from kernels.laydown.counts import counts_solve
from kernels.laydown.layout import (INT64_MAX, MAX_DEPTH, MEMO_BITS, META_BUDGET, META_MOVE_LIMIT,
                                    META_MOVES, META_STOPPED, MODE_BEST, NO_VALUE, PS_MELD,
                                    SHARE_SCALE, ST_FIELD, ST_HI, ST_KIND, ST_LO, ST_LOW,
                                    ST_MAXLEFT, ST_SHIFT)
from kernels.laydown.memo import memo_new, memo_sized
from kernels.laydown.packed import (bound_of, packed_field, packed_fit, packed_next_move,
                                    packed_solve, step_moves)
from kernels.laydown.programme import close_cuts, hand_layers, next_fit, next_move, set_count
from kernels.params import NEG_INF


@njit(cache=True, inline="always")
def _searched(target, floor, move_limit, budget, meta, cards):
    """(answered, value, picked, stack): whether the search's ``target`` is already the
    answer (nothing above the floor, ``exact`` saying it is proven; stopped; or nothing
    feasible), then the rebuild's buffers: the melds picked (empty when answered) and the
    stack of a step's moves."""
    picked = np.empty(cards + 1, dtype=np.int64)
    stack = np.empty(MAX_DEPTH, dtype=np.int64)
    if (floor > NEG_INF and target <= floor) or (move_limit < INT64_MAX
                                                 and meta[META_STOPPED] != 0):
        return True, np.int64(NO_VALUE), picked[:0], stack  # nothing above the floor, or stopped
    if target == NEG_INF:
        return True, target, picked[:0], stack
    # a priced search's rebuild re-searches sub-problems against new thresholds: it gets
    # a fresh move allowance and room for ``budget`` more memo entries, and if it still
    # stops, the caller answers the floor (not proven) instead of failing
    if move_limit < INT64_MAX:
        meta[META_MOVES] = 0
        meta[META_BUDGET] += budget
    return False, target, picked, stack


@njit(cache=True, inline="always")
def _unmatched(move_limit, meta):
    """No move of a step reaches its value: a rebuild stopped by its move allowance (the
    caller answers the floor), else the search and the rebuild disagree."""
    if not (move_limit < INT64_MAX and meta[META_STOPPED] != 0):
        raise RuntimeError("best lay-down reconstruction failed")  # exact values match


@njit(cache=True, inline="always")
def packed_best(steps, keep, cards, budget, floor, move_limit, leave):
    """best() on the packed state: (points, sorted catalogue indices, exact)."""
    table, melds, kinds, guards, tail = (steps.table, steps.melds, steps.kinds, steps.guards,
                                         steps.tail)
    state = steps.state
    memo, meta = memo_sized(cards, budget)
    meta[META_MOVE_LIMIT] = move_limit
    overflow = np.zeros(1, dtype=np.int64)
    target, memo = packed_solve(state, np.int64(0), np.int64(0), floor, MODE_BEST, steps, keep,
                                leave, memo, meta, overflow)
    answered, target, picked, stack = _searched(target, floor, move_limit, budget, meta, cards)
    if answered:
        return target, picked, meta[META_STOPPED] == 0
    result, picked_count, kept, step, step_total = target, 0, 0, 0, table.shape[1]
    while True:
        # the steps with one move or none, as on entry to a state
        while step < step_total and state != 0:
            field = table[ST_FIELD, step]
            if field != 0 and (state & field) == 0:
                step += 1
                continue
            if packed_fit(state, guards, table[ST_LO, step], table[ST_HI, step], melds) >= 0:
                break
            if field != 0:
                kept = min(keep, kept + ((state >> table[ST_SHIFT, step]) & table[ST_LOW, step]))
                state &= ~field
            step += 1
        if step == step_total or state == 0:
            break
        field, shift, low = packed_field(table, step)
        single, slot, high = step_moves(table, step)
        depth = 0
        gained = 0
        cur = state
        matched = False
        while True:
            # the leaf for the current move, evaluated exactly unless its bound rules it out
            saved = (cur >> shift) & low
            if saved <= table[ST_MAXLEFT, step]:
                child = cur & ~field
                next_kept = min(keep, kept + saved)
                if (gained * SHARE_SCALE + bound_of(child, kinds) + tail[step + 1]
                        - (keep - next_kept) * leave >= target * SHARE_SCALE):
                    sub, memo = packed_solve(child, step + 1, next_kept, target - gained - 1,
                                             MODE_BEST, steps, keep, leave, memo, meta,
                                             overflow)
                    if sub > NEG_INF and sub + gained == target:
                        matched = True
                        state = child
                        kept = next_kept
                        target = sub
                        break
            advanced, cur, slot, depth, gained = packed_next_move(
                cur, guards, slot, high, single, depth, gained, stack, melds)
            if not advanced:
                break
        if not matched:
            _unmatched(move_limit, meta)
            return np.int64(NO_VALUE), picked[:0], False  # the rebuild stopped
        for j in range(depth):
            picked[picked_count] = melds[PS_MELD, stack[j]]
            picked_count += 1
        step += 1
    return result, np.sort(picked[:picked_count]), meta[META_STOPPED] == 0


@njit(cache=True)
def counts_best(problem, hand, budget, floor, move_limit, empty_last):
    """best() on a counts vector (a CountsProblem): (points, sorted catalogue indices,
    exact). ``empty_last``: a priced search's rebuild, which tries each step's empty
    move last."""
    steps, prepared, cuts = problem.steps, problem.prepared, problem.cuts
    table, step_melds, tail = steps.table, steps.step_melds, steps.tail
    layers, jokers = prepared.layers, prepared.jokers
    points, max_left, shares = problem.points, problem.max_left, problem.shares
    keep, leave = problem.keep, problem.leave
    memo, meta = memo_new(MEMO_BITS, budget)
    meta[META_MOVE_LIMIT] = move_limit
    remaining = hand.copy()
    target, memo = counts_solve(remaining, np.int64(0), np.int64(0), floor, MODE_BEST, problem,
                                memo, meta)
    answered, target, picked, stack = _searched(target, floor, move_limit, budget, meta,
                                                hand.sum())
    if answered:
        return target, picked, meta[META_STOPPED] == 0
    held = hand_layers(remaining)
    result, picked_count, kept, step, step_total = target, 0, 0, 0, table.shape[1]
    while True:
        # the steps with one move or none, as on entry to a state
        while step < step_total:
            kind = table[ST_KIND, step]
            if kind >= 0 and remaining[kind] == 0:
                step += 1
                continue
            if next_fit(remaining, held, table[ST_LO, step], table[ST_HI, step], step_melds,
                        layers, jokers) >= 0:
                break
            if kind >= 0:
                kept = min(keep, kept + remaining[kind])
                set_count(remaining, held, kind, 0)
            step += 1
        if step == step_total:
            break
        kind = table[ST_KIND, step]
        single, slot, high = step_moves(table, step)
        depth = 0
        gained = 0
        matched = False
        # a priced search tried the empty move last (a memo entry at the threshold it
        # then had), so it is tried last here too; else first, in the reference's order
        empty_done = not empty_last
        while True:
            # the leaf for the current move, evaluated exactly unless its bound rules it out
            saved = remaining[kind] if kind >= 0 else 0
            if (depth > 0 or empty_done) and (kind < 0 or saved <= max_left[kind]):
                if kind >= 0:
                    set_count(remaining, held, kind, 0)
                next_kept = min(keep, kept + saved)
                child_bound = 0
                for k in range(KIND_COUNT):
                    child_bound += remaining[k] * shares[k]
                for j in range(depth):  # the move's cuts close, as in the search
                    close_cuts(cuts, step_melds[stack[j]], step, 1)
                if (gained * SHARE_SCALE + child_bound + tail[step + 1] - cuts.closed[step + 1]
                        - (keep - next_kept) * leave >= target * SHARE_SCALE):
                    sub, memo = counts_solve(remaining, step + 1, next_kept, target - gained - 1,
                                             MODE_BEST, problem, memo, meta)
                    if sub > NEG_INF and sub + gained == target:
                        matched = True
                        kept = next_kept
                        target = sub
                        break  # the path's cuts stay closed for the steps after
                for j in range(depth):
                    close_cuts(cuts, step_melds[stack[j]], step, -1)
                if kind >= 0:
                    set_count(remaining, held, kind, saved)
            if depth == 0 and empty_done and empty_last:
                break  # the empty move, last
            advanced, slot, depth, gained = next_move(
                remaining, held, slot, high, single, depth, gained, stack, step_melds, points,
                prepared)
            if not advanced:
                if empty_done:
                    break
                empty_done = True  # now the empty move (depth 0, nothing gained)
        if not matched:
            _unmatched(move_limit, meta)
            return np.int64(NO_VALUE), picked[:0], False  # the rebuild stopped
        for j in range(depth):
            picked[picked_count] = step_melds[stack[j]]
            picked_count += 1
        step += 1
    return result, np.sort(picked[:picked_count]), meta[META_STOPPED] == 0
