"""The lay-down search on a counts vector, for hands that do not fit one int64.

:func:`counts_solve` is :func:`kernels.laydown.packed.packed_solve` with the remaining
hand kept as 53 counts (with layer masks to test a meld's fit) and a mixed-radix memo
key; same modes, values, thresholds and move order. A priced search
(kernels.lp_bound) also solves the linear programme of its large sub-problems and drops
a clique cut's slack from the bound once one of its melds is laid.
"""

from __future__ import annotations

import numpy as np
from kernels.jit import njit

from kernels.encoding import KIND_COUNT
from kernels.laydown.layout import (FR_COLS, FR_DEPTH, FR_EMPTY, FR_GAINED, FR_KEPT, FR_POS,
                                    FR_SAVED, FR_SLOT, FR_UNDO, MAX_DEPTH, META_MOVES, META_STOPPED,
                                    MODE_BEST, NO_VALUE, NODE_LP_CARDS, NODE_LP_LEFT, NODE_LP_MOVES,
                                    SHARE_SCALE, ST_HI, ST_KIND, ST_LO, ST_SINGLE)
from kernels.laydown.memo import (bar_of, cannot_beat, close_frame, count_move, entry_value,
                                  memo_put, open_frame, pop_move, push_move, take)
from kernels.laydown.programme import apply_meld, close_cuts, hand_layers, next_fit, set_count
from kernels.lp_bound import fitting, subset_bound
from kernels.params import NEG_INF


@njit(cache=True)
def set_aside(remaining, layers, kind, state_key, bound, places, shares):
    """Decide ``kind``: its copies leave the remaining hand; returns the new key and bound."""
    count = remaining[kind]
    set_count(remaining, layers, kind, 0)
    return state_key - count * places[kind], bound - count * shares[kind]


@njit(cache=True)
def undo_dead(remaining, layers, undo_kinds, undo_counts, undo_top, mark, places, shares):
    """Give back the dead kinds set aside above ``mark``; returns the key and bound changes."""
    key_change = 0
    bound_change = 0
    while undo_top > mark:
        undo_top -= 1
        dead = undo_kinds[undo_top]
        set_count(remaining, layers, dead, undo_counts[undo_top])
        key_change += undo_counts[undo_top] * places[dead]
        bound_change += undo_counts[undo_top] * shares[dead]
    return key_change, bound_change


@njit(cache=True, inline="always")
def _lay(problem, remaining, layers, frames, top, m, here, sign):
    """Lay meld ``m`` in frame ``top`` at step ``here`` (``sign`` 1) or take it back (-1):
    the hand, the cuts and the frame's points follow; returns the changes of the memo
    key and of the bound."""
    prepared = problem.prepared
    apply_meld(remaining, layers, m, prepared.widths, prepared.kinds, prepared.mults, sign)
    close_cuts(problem.cuts, m, here, sign)
    frames[top, FR_GAINED] += sign * problem.points[m]
    return -sign * prepared.key_deltas[m], -sign * problem.meld_shares[m]


@njit(cache=True, inline="always")
def _enter(remaining, held, frames, top, kind, saved, state_key, bound, problem):
    """Enter the child of frame ``top`` that keeps ``saved`` copies of the step's kind (set
    aside from the hand): its (state key, bound, cards kept)."""
    frames[top, FR_SAVED] = saved
    if kind >= 0:
        state_key, bound = set_aside(remaining, held, kind, state_key, bound,
                                     problem.prepared.places, problem.shares)
    return state_key, bound, min(problem.keep, frames[top, FR_KEPT] + saved)


@njit(cache=True, specialize=True)  # its mode folds into the search
def counts_solve(remaining, step, kept, alpha, mode, problem, memo, meta):
    """packed_solve on a counts vector (a CountsProblem); returns (value, memo).

    ``remaining`` is restored on return; the kinds set aside on entry (a held kind
    none of whose step's melds fits) go on an undo stack. Memo keys are (mixed-radix
    hand, step << 7 | kept). A priced search (``problem.node_lp``, the NODE_LP_* slots)
    also solves the linear programme of a new sub-problem this large, over the melds
    of its steps that fit (kernels.lp_bound.subset_bound), and fails it low at once
    when that bound cannot beat its threshold. ``problem.cuts`` (programme.open_cuts)
    drops a cut's slack from the tail once one of its melds is laid.
    """
    steps, prepared = problem.steps, problem.prepared
    table, step_melds, tail = steps.table, steps.step_melds, steps.tail
    layers, jokers, places = prepared.layers, prepared.jokers, prepared.places
    shares, max_left, keep, leave = problem.shares, problem.max_left, problem.keep, problem.leave
    node_lp, overflow = problem.node_lp, problem.overflow
    closed = problem.cuts.closed
    best_mode = mode == MODE_BEST
    step_total = table.shape[1]
    held = hand_layers(remaining)
    state_key = 0
    bound = 0
    for kind in range(KIND_COUNT):
        state_key += remaining[kind] * places[kind]
        bound += remaining[kind] * shares[kind]
    frames = np.zeros((step_total + 1, FR_COLS), dtype=np.int64)
    stack = np.zeros((step_total + 1, MAX_DEPTH), dtype=np.int64)
    undo_kinds = np.zeros(KIND_COUNT + 1, dtype=np.int64)
    undo_counts = np.zeros(KIND_COUNT + 1, dtype=np.int64)
    undo_top = 0
    top, value, entering = -1, 0, True     # no frame yet; the root state is entered
    while True:
        if entering:
            entering = False
            mark = undo_top
            feasible = True
            while step < step_total:
                if state_key == 0:
                    step = step_total
                    break
                kind = table[ST_KIND, step]
                if kind >= 0 and remaining[kind] == 0:
                    step += 1
                    continue
                if next_fit(remaining, held, table[ST_LO, step], table[ST_HI, step],
                            step_melds, layers, jokers) >= 0:
                    break
                if kind >= 0:
                    if remaining[kind] > max_left[kind]:
                        feasible = False
                        break
                    undo_kinds[undo_top] = kind
                    undo_counts[undo_top] = remaining[kind]
                    undo_top += 1
                    kept = min(keep, kept + remaining[kind])
                    state_key, bound = set_aside(remaining, held, kind, state_key, bound,
                                                 places, shares)
                step += 1
            value, key2 = entry_value(feasible, step, step_total, kept, keep, best_mode, memo,
                                      meta, state_key, alpha)
            if (value == NO_VALUE and node_lp[NODE_LP_LEFT] > 0 and alpha > NEG_INF
                    and remaining.sum() >= node_lp[NODE_LP_CARDS]
                    and meta[META_MOVES] >= node_lp[NODE_LP_MOVES]):
                # a large sub-problem: its own linear programme may rule it out
                node_lp[NODE_LP_LEFT] -= 1
                # the melds of this step and later ones (their groups all open) that fit
                subset = fitting(problem.meld_counts, problem.groups, remaining,
                                 step_melds[table[ST_LO, step]:], 0)
                if subset_bound(remaining, problem.meld_counts, problem.points,
                                problem.groups, problem.cut_starts, problem.cut_melds,
                                subset, keep - kept, SHARE_SCALE) <= alpha * SHARE_SCALE:
                    memo = memo_put(memo, meta, state_key, key2, alpha * 2 + 1)
                    value = alpha
            if value == NO_VALUE:
                top += 1
                open_frame(frames, top, step, state_key, key2, kept, table[ST_LO, step],
                           best_mode, alpha)
                frames[top, FR_UNDO] = mark
            if value != NO_VALUE:
                key_change, bound_change = undo_dead(remaining, held, undo_kinds, undo_counts,
                                                     undo_top, mark, places, shares)
                undo_top = mark
                state_key += key_change
                bound += bound_change
                if top < 0:
                    return value, memo
        here = frames[top, FR_POS]
        kind = table[ST_KIND, here]
        if value != NO_VALUE:
            # a child returned ``value`` to frame ``top``
            if kind >= 0:
                saved = frames[top, FR_SAVED]
                set_count(remaining, held, kind, saved)
                state_key += saved * places[kind]
                bound += saved * shares[kind]
            take(frames, top, value, best_mode, overflow)
        value = 0
        single = table[ST_SINGLE, here]
        high = table[ST_HI, here]
        # advance to the next non-empty move whose child may still matter
        while True:
            if best_mode and meta[META_STOPPED] != 0:  # stopped: undo the moves, end the frame
                while frames[top, FR_DEPTH] > 0:
                    frames[top, FR_DEPTH] -= 1
                    m = step_melds[stack[top, frames[top, FR_DEPTH]]]
                    key_change, bound_change = _lay(problem, remaining, held, frames, top, m,
                                                    here, -1)
                    state_key += key_change
                    bound += bound_change
                frames[top, FR_EMPTY] = 1
                break
            found = next_fit(remaining, held, frames[top, FR_SLOT], high, step_melds, layers,
                             jokers)
            if found >= 0:
                count_move(meta)
                key_change, bound_change = _lay(problem, remaining, held, frames, top,
                                                step_melds[found], here, 1)
                state_key += key_change
                bound += bound_change
                push_move(frames, stack, top, found, high, single)
                saved = 0
                child_bound = bound
                if kind >= 0:
                    saved = remaining[kind]
                    if saved > max_left[kind]:
                        continue  # too many copies of the kind stay; deeper moves use more
                    child_bound = bound - saved * shares[kind]
                bar = bar_of(frames, top)
                if cannot_beat(best_mode, bar, frames[top, FR_GAINED],
                               child_bound + tail[here + 1] - closed[here + 1], keep,
                               frames[top, FR_KEPT] + saved, leave):
                    continue  # this child cannot beat the frame's bar; deeper moves may
                alpha = bar - frames[top, FR_GAINED]
                state_key, bound, kept = _enter(remaining, held, frames, top, kind, saved,
                                                state_key, bound, problem)
                step, entering = here + 1, True    # enter the child's state
                break
            found = pop_move(frames, stack, top)
            if found < 0:
                break
            key_change, bound_change = _lay(problem, remaining, held, frames, top,
                                            step_melds[found], here, -1)
            state_key += key_change
            bound += bound_change
        if entering:
            continue
        if frames[top, FR_EMPTY] == 0:
            # the empty move last, once the others set a high bar (a count's order is free)
            frames[top, FR_EMPTY] = 1
            saved = 0
            child_bound = bound
            if kind >= 0:
                saved = remaining[kind]
                child_bound = bound - saved * shares[kind]
            bar = bar_of(frames, top)
            if (kind < 0 or saved <= max_left[kind]) and not cannot_beat(
                    best_mode, bar, 0, child_bound + tail[here + 1] - closed[here + 1], keep,
                    frames[top, FR_KEPT] + saved, leave):
                alpha = bar
                state_key, bound, kept = _enter(remaining, held, frames, top, kind, saved,
                                                state_key, bound, problem)
                step = here + 1
                entering = True
                continue
        # frame finished: undo the kinds set aside on entry, return to the parent
        value, memo = close_frame(frames, top, best_mode, memo, meta)
        mark = frames[top, FR_UNDO]
        key_change, bound_change = undo_dead(remaining, held, undo_kinds, undo_counts, undo_top,
                                             mark, places, shares)
        undo_top = mark
        state_key += key_change
        bound += bound_change
        top -= 1
        if top < 0:
            return value, memo
