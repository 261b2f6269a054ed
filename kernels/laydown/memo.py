"""The memo table and the frame helpers both lay-down searches share.

The memo is an open-addressing (int64, int64) -> int64 table with a control record
``meta`` (int64[META_SIZE], slots named ``META_*`` in :mod:`kernels.laydown.layout`). A
search keeps one frame per step entered (``FR_*``); the helpers here open a frame, take
in a child's value, close a frame into the memo and decide whether a child may matter.
"""

from __future__ import annotations

import numpy as np
from kernels.jit import njit

from kernels.laydown.layout import (FR_ACC, FR_ALPHA, FR_DEPTH, FR_EMPTY, FR_GAINED, FR_KEPT,
                                    FR_KEY, FR_KEY2, FR_POS, FR_SLOT, INT64_MAX, MEMO_BITS,
                                    MEMO_MULTIPLIER, META_BUDGET, META_ENTRIES, META_MASK,
                                    META_MOVE_LIMIT, META_MOVES, META_SIZE, META_STOPPED, NO_VALUE,
                                    SHARE_SCALE)
from kernels.params import NEG_INF


@njit(cache=True)
def memo_new(bits, budget=INT64_MAX):
    """An open-addressing (int64, int64) -> int64 table of 2^bits rows: (memo, meta).

    ``meta`` (the ``META_*`` slots): a search enters no new sub-problem once
    META_ENTRIES reaches META_BUDGET and then sets META_STOPPED
    (:func:`out_of_budget`); count() stops so too, and refuses the number. A priced
    best() search (best_priced) may also search a stored state again (an upper bound
    above its new threshold), so it counts the moves it tries (META_MOVES) and stops
    every frame once they pass META_MOVE_LIMIT.

    Row ``[key, key2, value]``, so that a probe reads one cache line. The
    first key word is >= 0 (memo keys are), so -1 marks a free slot; the
    second is a small extra word (the step and the kept count). numba's typed Dict
    costs more per call and loses more to cold caches on small hands.
    """
    size = 1 << bits
    meta = np.zeros(META_SIZE, dtype=np.int64)
    meta[META_MASK] = size - 1
    meta[META_BUDGET] = budget
    meta[META_MOVE_LIMIT] = INT64_MAX
    return np.full((size, 3), -1, dtype=np.int64), meta


@njit(cache=True)
def memo_sized(cards, budget=INT64_MAX):
    """:func:`memo_new` sized from the hand's ``cards`` (small hands meet few states)."""
    bits = 6 if cards <= 12 else (7 if cards <= 16 else MEMO_BITS + (2 if cards > 24 else 0))
    return memo_new(bits, budget)


@njit(cache=True)
def out_of_budget(meta):
    """Whether the memo is full to its budget (marking the search as stopped)."""
    if meta[META_ENTRIES] >= meta[META_BUDGET]:
        meta[META_STOPPED] = 1
        return True
    return False


@njit(cache=True, inline="always")
def _home(key, key2, mask):
    """The slot where ``(key, key2)``'s probe starts."""
    return (((key ^ (key2 * 0x5BD1E995)) * MEMO_MULTIPLIER) >> 29) & mask


@njit(cache=True)
def memo_slot(memo, mask, key, key2):
    """Slot of ``(key, key2)``, or of the free slot where it would go (linear probing)."""
    slot = _home(key, key2, mask)
    while memo[slot, 0] != -1 and (memo[slot, 0] != key or memo[slot, 1] != key2):
        slot = (slot + 1) & mask
    return slot


@njit(cache=True)
def memo_put(memo, meta, key, key2, value):
    """Store (key, key2) -> value; returns the (possibly grown) table."""
    slot = memo_slot(memo, meta[META_MASK], key, key2)
    if memo[slot, 0] == -1:
        meta[META_ENTRIES] += 1
    memo[slot, 0] = key
    memo[slot, 1] = key2
    memo[slot, 2] = value
    if meta[META_ENTRIES] * 2 > meta[META_MASK] + 1:
        memo = memo_grow(memo, meta)
    return memo


@njit(cache=True)
def memo_grow(memo, meta):
    """The memo table at twice the size."""
    size = (meta[META_MASK] + 1) * 2
    grown = np.full((size, 3), -1, dtype=np.int64)
    mask = size - 1
    meta[META_MASK] = mask
    for i in range(memo.shape[0]):
        key = memo[i, 0]
        if key != -1:
            key2 = memo[i, 1]
            slot = _home(key, key2, mask)
            while grown[slot, 0] != -1:
                slot = (slot + 1) & mask
            grown[slot, 0] = key
            grown[slot, 1] = key2
            grown[slot, 2] = memo[i, 2]
    return grown


# --- the frames ----------------------------------------------------------------------


@njit(cache=True, inline="always")
def leaf_value(best_mode, kept, keep):
    """Value of a state with no step left: one lay-down, or no points (NEG_INF: too few kept)."""
    if not best_mode:
        return 1
    return 0 if kept >= keep else NEG_INF


@njit(cache=True, inline="always")
def entry_value(feasible, step, step_total, kept, keep, best_mode, memo, meta, key, alpha):
    """(value, key2) of a state on entry, after its forced steps: NEG_INF when a forced step
    kept too many copies, the leaf's value past the last step, else what the memo knows
    (NO_VALUE: the state is to search), ``key2`` its memo key's second word."""
    key2 = (step << 7) | kept
    if not feasible:
        return NEG_INF, key2
    if step == step_total:
        return leaf_value(best_mode, kept, keep), key2
    return look_up(best_mode, memo, meta, key, key2, alpha), key2


@njit(cache=True, inline="always")
def known(memo, meta, key, key2):
    """The memo's value of (key, key2); NEG_INF past the budget (not searched); else NO_VALUE."""
    slot = memo_slot(memo, meta[META_MASK], key, key2)
    if memo[slot, 0] == key:
        return memo[slot, 2]
    if out_of_budget(meta):
        return NEG_INF
    return NO_VALUE


@njit(cache=True, inline="always")
def known_best(memo, meta, key, key2, alpha):
    """best()'s memo look-up against the threshold ``alpha`` (a value at or below it
    no longer matters to the caller): the value, or NO_VALUE to search the state.

    A stored word is value * 2 + 1 for an upper bound (a search that failed low),
    value * 2 for an exact value; an upper bound above ``alpha`` is searched again.
    """
    slot = memo_slot(memo, meta[META_MASK], key, key2)
    if memo[slot, 0] == key:
        word = memo[slot, 2]
        if (word & 1) == 0 or (word >> 1) <= alpha:
            return word >> 1
        if meta[META_STOPPED] != 0:
            return NEG_INF
    elif out_of_budget(meta):
        return NEG_INF
    return NO_VALUE


@njit(cache=True, inline="always")
def look_up(best_mode, memo, meta, key, key2, alpha):
    """A state's value from the memo in either mode (:func:`known_best`, :func:`known`)."""
    if best_mode:
        return known_best(memo, meta, key, key2, alpha)
    return known(memo, meta, key, key2)


@njit(cache=True, inline="always")
def open_frame(frames, top, step, key, key2, kept, slot, best_mode, alpha):
    """Frame ``top`` starts on ``step`` against the threshold ``alpha``: no move taken,
    nothing found yet."""
    frames[top, FR_POS] = step
    frames[top, FR_KEY] = key
    frames[top, FR_KEY2] = key2
    frames[top, FR_KEPT] = kept
    frames[top, FR_SLOT] = slot
    frames[top, FR_DEPTH] = 0
    frames[top, FR_GAINED] = 0
    frames[top, FR_ACC] = NEG_INF if best_mode else 0
    frames[top, FR_EMPTY] = 0
    frames[top, FR_ALPHA] = alpha


@njit(cache=True, inline="always")
def take(frames, top, value, best_mode, overflow):
    """Frame ``top`` takes in a child's ``value``: the best so far, or the count's sum."""
    if best_mode:
        if value > NEG_INF and value + frames[top, FR_GAINED] > frames[top, FR_ACC]:
            frames[top, FR_ACC] = value + frames[top, FR_GAINED]
    elif value > INT64_MAX - frames[top, FR_ACC]:
        overflow[0] = 1
        frames[top, FR_ACC] = INT64_MAX
    else:
        frames[top, FR_ACC] += value


@njit(cache=True, inline="always")
def count_move(meta):
    """One more move tried: the search stops past its move limit."""
    meta[META_MOVES] += 1
    if meta[META_MOVES] > meta[META_MOVE_LIMIT]:
        meta[META_STOPPED] = 1


@njit(cache=True, inline="always")
def bar_of(frames, top):
    """What a child of frame ``top`` must beat to matter: its best so far or its threshold."""
    return max(frames[top, FR_ACC], frames[top, FR_ALPHA])


@njit(cache=True, inline="always")
def cannot_beat(best_mode, bar, gained, child_bound, keep, kept, leave):
    """Whether a child cannot beat ``bar``: the points ``gained`` by its move plus its
    bound (``child_bound``, scaled by SHARE_SCALE, tails included) less the cheapest
    cards it must still keep (``leave`` each, from ``kept`` up to ``keep``)."""
    return (best_mode and bar > NEG_INF
            and gained * SHARE_SCALE + child_bound - (keep - min(keep, kept)) * leave
            <= bar * SHARE_SCALE)


@njit(cache=True, inline="always")
def close_frame(frames, top, best_mode, memo, meta):
    """Frame ``top`` is finished: its value (in best mode exact above its threshold, else
    the threshold as an upper bound: fail hard) goes to the memo; returns (value, memo)."""
    value = frames[top, FR_ACC]
    word = value
    if best_mode:
        alpha = frames[top, FR_ALPHA]
        if value > alpha:
            word = value * 2
        else:
            value = alpha
            word = alpha * 2 + 1
    memo = memo_put(memo, meta, frames[top, FR_KEY], frames[top, FR_KEY2], word)
    return value, memo


@njit(cache=True, inline="always")
def push_move(frames, stack, top, found, high, single):
    """Record meld slot ``found`` as frame ``top``'s next move; the frame's next try starts
    past it (a group step, one meld at most: past its last meld, ``high``)."""
    stack[top, frames[top, FR_DEPTH]] = found
    frames[top, FR_DEPTH] += 1
    frames[top, FR_SLOT] = high if single else found


@njit(cache=True, inline="always")
def pop_move(frames, stack, top):
    """Take back frame ``top``'s last move: its meld slot (the next try starts past it), or
    -1 when the frame has none left."""
    if frames[top, FR_DEPTH] == 0:
        return -1
    frames[top, FR_DEPTH] -= 1
    found = stack[top, frames[top, FR_DEPTH]]
    frames[top, FR_SLOT] = found + 1
    return found
