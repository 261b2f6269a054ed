"""The meld key, its inverse and the cards that can join a meld: one body for the
reference and the numba backend.

Written in the Python subset numba compiles: :mod:`kernels.partition_ref` runs them as
plain Python, :mod:`kernels.laydown.melds` compiles the same functions (``njit``) for the
numba backend. (Cython's port is in kernels/_partition.pyx.)

The key's layout (the KEY_* constants of kernels.params): bits 0-2 jokers, 3-10 the 2s per suit
(2 bits each); bits 11-39 the other cards: a run-shaped part (one suit, each rank once)
is ``suit | rank_mask << 2`` (mask bit 0 the ace, bit ``r-1`` rank index ``r``), a
set-shaped part is ``rank | per-suit counts << 4``; bits 40-41 the shape tag (0 no
other cards, 1 run-shaped, 2 set-shaped).
"""

from __future__ import annotations

from kernels.encoding import JOKER, KIND_COUNT, RANK_COUNT
from kernels.params import (
    KEY_BODY_BITS,
    KEY_BODY_SHIFT,
    KEY_JOKER_MASK,
    KEY_TAG_RUN,
    KEY_TAG_SET,
    KEY_TAG_SHIFT,
    KEY_TWO_SHIFT,
    SHAPE_RUN,
    SHAPE_SET,
)


def meld_key(counts):
    """Injective 64-bit key of a legal meld's multiset (53 counts); catalogue order is
    ascending key."""
    wild = counts[JOKER]
    for suit in range(4):
        wild |= counts[suit * RANK_COUNT + 1] << (KEY_TWO_SHIFT + 2 * suit)
    suits_seen = 0
    ranks_seen = 0
    repeated = False
    for kind in range(JOKER):
        count = counts[kind]
        if count > 0 and kind % RANK_COUNT != 1:
            suits_seen |= 1 << (kind // RANK_COUNT)
            ranks_seen |= 1 << (kind % RANK_COUNT)
            if count > 1:
                repeated = True
    if suits_seen == 0:
        return wild
    if suits_seen & (suits_seen - 1) == 0 and not repeated:
        suit = 0
        while not (suits_seen >> suit) & 1:
            suit += 1
        mask = 0
        for rank in range(RANK_COUNT):
            if rank != 1 and counts[suit * RANK_COUNT + rank] > 0:
                mask |= 1 << (0 if rank == 0 else rank - 1)
        return (KEY_TAG_RUN << KEY_TAG_SHIFT) | ((suit | (mask << 2)) << KEY_BODY_SHIFT) | wild
    rank = 0
    for r in range(RANK_COUNT):
        if (ranks_seen >> r) & 1:
            rank = r
    payload = rank
    for suit in range(4):
        payload |= counts[suit * RANK_COUNT + rank] << (4 + 2 * suit)
    return (KEY_TAG_SET << KEY_TAG_SHIFT) | (payload << KEY_BODY_SHIFT) | wild


def key_counts_into(key, out):
    """Write into ``out`` (53 counts) the meld whose meld_key is ``key`` (the inverse of
    meld_key); all zero past the jokers and 2s for a key no meld has."""
    for kind in range(KIND_COUNT):
        out[kind] = 0
    out[JOKER] = key & KEY_JOKER_MASK
    for suit in range(4):
        out[suit * RANK_COUNT + 1] = (key >> (KEY_TWO_SHIFT + 2 * suit)) & 3
    tag = (key >> KEY_TAG_SHIFT) & 3
    payload = (key >> KEY_BODY_SHIFT) & ((1 << KEY_BODY_BITS) - 1)
    if tag == KEY_TAG_RUN:
        suit = payload & 3
        mask = payload >> 2
        for rank in range(RANK_COUNT):
            if rank != 1 and (mask >> (0 if rank == 0 else rank - 1)) & 1:
                out[suit * RANK_COUNT + rank] += 1
    elif tag == KEY_TAG_SET:
        rank = payload & 15
        if rank >= RANK_COUNT:      # no meld has this key: an action made up by hand
            return
        for suit in range(4):
            out[suit * RANK_COUNT + rank] += (payload >> (4 + 2 * suit)) & 3


def relevant_into(shape, home, wild_twos, mask):
    """Set ``mask`` (53 zeros) to 1 at the cards that can join a meld of this shape and
    home: the wilds always; a run's suit, or a set's rank in the four suits (an all-wild
    set takes wilds only)."""
    mask[JOKER] = 1
    if wild_twos:
        for suit in range(4):
            mask[suit * RANK_COUNT + 1] = 1
    if shape == SHAPE_RUN:
        for rank in range(RANK_COUNT):
            mask[home * RANK_COUNT + rank] = 1
    elif shape == SHAPE_SET:
        for suit in range(4):
            mask[suit * RANK_COUNT + home] = 1
