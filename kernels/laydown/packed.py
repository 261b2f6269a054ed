"""The lay-down search on a remaining hand packed into one int64.

When the hand's kinds fit (two bits a card at most: every hand of up to 31 cards
does), each kind present gets a bit field of the state (in decision order, low bits
first): its count in ``bit_length(hand[kind])`` bits and a guard bit above. A meld is
packed the same way; it fits a state when ``((state | guards) - meld) & guards ==
guards`` (a field too small borrows its guard). A kind is set aside by masking its
field, and the state itself is the memo key. Everything per call lives in one
workspace, with no M x 53 scan beyond the kinds the hand holds. The packed tables are
built by :func:`kernels.laydown.programme.programme` (``PK_*``, ``PS_*`` and the
packed ``ST_*`` rows).
"""

from __future__ import annotations

import numpy as np
from kernels.jit import njit

from kernels.laydown.layout import (FR_BOUND, FR_COLS, FR_EMPTY, FR_GAINED, FR_KEPT, FR_POS,
                                    FR_SLOT, FR_STATE, MAX_DEPTH, META_STOPPED, MODE_BEST,
                                    NO_VALUE, PK_LOW, PK_SHARE, PK_SHIFT, PS_PACKED, PS_POINTS,
                                    PS_SHARE, ST_FIELD, ST_HI, ST_LO, ST_LOW, ST_MAXLEFT, ST_SHARE,
                                    ST_SHIFT, ST_SINGLE)
from kernels.laydown.memo import (bar_of, cannot_beat, close_frame, count_move, entry_value,
                                  open_frame, pop_move, push_move, take)


DEBRUIJN = 0x03F79D71B4CB0A89  # a de Bruijn sequence: the index of a state's lowest set bit
_DEBRUIJN_BITS = np.zeros(64, dtype=np.int64)
for _bit in range(64):
    _DEBRUIJN_BITS[((DEBRUIJN << _bit) & ((1 << 64) - 1)) >> 58] = _bit
DEBRUIJN_BITS = _DEBRUIJN_BITS
DEBRUIJN_SIGNED = DEBRUIJN - (1 << 64) if DEBRUIJN >= (1 << 63) else DEBRUIJN


@njit(cache=True)
def bound_of(state, kinds):
    """The bound of a packed state: its cards' shares summed (SHARE_SCALE)."""
    bound = 0
    for i in range(kinds.shape[1] - 1):
        bound += ((state >> kinds[PK_SHIFT, i]) & kinds[PK_LOW, i]) * kinds[PK_SHARE, i]
    return bound


@njit(cache=True, inline="always")
def step_moves(table, step):
    """(single, first, high) of a step of the step table: 1 when it takes one meld at most
    (a group step), and its melds' slots [first, high)."""
    return table[ST_SINGLE, step], table[ST_LO, step], table[ST_HI, step]


@njit(cache=True, inline="always")
def packed_field(table, step):
    """(field, shift, low) of a kind step on the packed state: the kind's bits, its first
    bit and its count mask (field 0: a group step)."""
    return table[ST_FIELD, step], table[ST_SHIFT, step], table[ST_LOW, step]


@njit(cache=True)
def packed_fit(state, guards, slot, high, slots):
    """First slot in [slot, high) whose meld fits ``state``; -1 if none."""
    lifted = state | guards
    for s in range(slot, high):
        if ((lifted - slots[PS_PACKED, s]) & guards) == guards:
            return s
    return -1


@njit(cache=True)
def packed_next_move(cur, guards, slot, high, single, depth, gained, stack, slots):
    """next_move on a packed state: (advanced, cur, slot, depth, gained)."""
    while True:
        found = -1
        if single == 0 or depth == 0:
            found = packed_fit(cur, guards, slot, high, slots)
        if found >= 0:
            stack[depth] = found
            return (True, cur - slots[PS_PACKED, found], found + single, depth + 1,
                    gained + slots[PS_POINTS, found])
        if depth == 0:
            return False, cur, slot, depth, gained
        depth -= 1
        found = stack[depth]
        cur += slots[PS_PACKED, found]
        gained -= slots[PS_POINTS, found]
        slot = found + 1


@njit(cache=True)
def next_step(state, jump):
    """The kind step of the first kind ``state`` (> 0) still holds."""
    low = state & -state
    return jump[DEBRUIJN_BITS[((low * DEBRUIJN_SIGNED) >> 58) & 63]]


@njit(cache=True, specialize=True)  # its mode folds into the search
def packed_solve(state, step, kept, alpha, mode, steps, keep, leave, memo, meta, overflow):
    """The programme's value from (state, step, kept) on the packed state; returns
    (value, memo).

    mode MODE_COUNT counts lay-downs (saturating, ``overflow[0]`` set on overflow);
    MODE_BEST returns the most points leaving ``keep`` cards and at most ``max_left``
    copies of each kind (NEG_INF if none). No recursion (numba cannot reload a recursive
    function from its cache): one frame per step entered, each recording the state with
    its chosen melds applied, so a returning child needs nothing undone. In best mode
    the non-empty moves come first, the empty move last, and the search is a branch and
    bound: each frame has a threshold ``alpha`` (what its value must beat to matter to
    the root: the caller's floor, then each ancestor's best so far less the points
    gained below it), a child whose bound cannot beat the frame's bar (its best so far
    or its threshold) is skipped, and a frame that ends at or below its threshold
    returns the threshold and stores it in the memo as an upper bound (fail hard;
    memo.known_best, memo.close_frame). Values above a frame's threshold are exact.
    Memo keys are (state, step << 7 | kept).
    """
    table, melds, jump, kinds, guards, tail = (steps.table, steps.melds, steps.jump,
                                                steps.kinds, steps.guards, steps.tail)
    step_total = table.shape[1]
    frames = np.empty((step_total + 1, FR_COLS), dtype=np.int64)
    stack = np.empty((step_total + 1, MAX_DEPTH), dtype=np.int64)
    best_mode = mode == MODE_BEST
    bound = bound_of(state, kinds) if best_mode else 0
    top, value, entering = -1, 0, True     # no frame yet; the root state is entered
    while True:
        if entering:
            entering = False
            # the steps with no choice: a kind not held, a group none of whose melds fits,
            # a held kind none of whose melds fits (set aside; infeasible past max_left)
            feasible = True
            while True:
                if state == 0:
                    step = step_total
                    break
                step = min(next_step(state, jump), jump[64 + step])
                if packed_fit(state, guards, table[ST_LO, step], table[ST_HI, step],
                              melds) >= 0:
                    break
                field = table[ST_FIELD, step]
                if field != 0:
                    count = (state >> table[ST_SHIFT, step]) & table[ST_LOW, step]
                    if count > table[ST_MAXLEFT, step]:
                        feasible = False
                        break
                    kept = min(keep, kept + count)
                    bound -= count * table[ST_SHARE, step]
                    state &= ~field
                step += 1
            value, key2 = entry_value(feasible, step, step_total, kept, keep, best_mode, memo,
                                      meta, state, alpha)
            if value == NO_VALUE:
                top += 1
                open_frame(frames, top, step, state, key2, kept, table[ST_LO, step],
                           best_mode, alpha)
                frames[top, FR_STATE] = state
                frames[top, FR_BOUND] = bound
            if value != NO_VALUE and top < 0:
                return value, memo
        if value != NO_VALUE:
            take(frames, top, value, best_mode, overflow)  # a child's value
        value = 0
        here = frames[top, FR_POS]
        field, shift, low = packed_field(table, here)
        single, _, high = step_moves(table, here)
        share = table[ST_SHARE, here]
        max_left = table[ST_MAXLEFT, here]
        cur = frames[top, FR_STATE]
        cur_bound = frames[top, FR_BOUND]
        # advance to the next non-empty move whose child may still matter
        while True:
            if best_mode and meta[META_STOPPED] != 0:  # stopped: the frame ends with what it has
                frames[top, FR_EMPTY] = 1
                break
            found = packed_fit(cur, guards, frames[top, FR_SLOT], high, melds)
            if found >= 0:
                count_move(meta)
                cur -= melds[PS_PACKED, found]
                cur_bound -= melds[PS_SHARE, found]
                frames[top, FR_GAINED] += melds[PS_POINTS, found]
                push_move(frames, stack, top, found, high, single)
                saved = (cur >> shift) & low
                if saved > max_left:
                    continue  # too many copies of the kind stay; deeper moves use more
                bar = bar_of(frames, top)
                if cannot_beat(best_mode, bar, frames[top, FR_GAINED],
                               cur_bound - saved * share + tail[here + 1], keep,
                               frames[top, FR_KEPT] + saved, leave):
                    continue  # this child cannot beat the frame's bar; deeper moves may
                alpha = bar - frames[top, FR_GAINED]
                frames[top, FR_STATE] = cur
                frames[top, FR_BOUND] = cur_bound
                state = cur & ~field
                bound = cur_bound - saved * share
                kept = min(keep, frames[top, FR_KEPT] + saved)
                step, entering = here + 1, True    # enter the child's state
                break
            found = pop_move(frames, stack, top)
            if found < 0:
                break
            cur += melds[PS_PACKED, found]
            cur_bound += melds[PS_SHARE, found]
            frames[top, FR_GAINED] -= melds[PS_POINTS, found]
        if entering:
            continue
        frames[top, FR_STATE] = cur
        frames[top, FR_BOUND] = cur_bound
        if frames[top, FR_EMPTY] == 0:
            # the empty move last, once the others set a high bar (a count's order is free)
            frames[top, FR_EMPTY] = 1
            saved = (cur >> shift) & low
            bar = bar_of(frames, top)
            child_bound = cur_bound - saved * share
            if saved <= max_left and not cannot_beat(best_mode, bar, 0,
                                                     child_bound + tail[here + 1], keep,
                                                     frames[top, FR_KEPT] + saved, leave):
                alpha = bar
                state = cur & ~field
                bound = child_bound
                kept = min(keep, frames[top, FR_KEPT] + saved)
                step = here + 1
                entering = True
                continue
        # frame finished: store its value, return to the parent
        value, memo = close_frame(frames, top, best_mode, memo, meta)
        top -= 1
        if top < 0:
            return value, memo
