"""A hand's meld catalogue by position masks: the fast path of
``kernels.laydown.melds.catalogue``.

``kernels.laydown.melds.catalogue`` generates every reading of every meld as a row of 53
counts, then sorts the rows by key and keeps each key's best reading. For the rules of
:func:`kernels.additions_numba.one_wild_rules` without sets of wilds (every preset but
partnership and venezuelan) a meld's readings are few and have one shape, so this module
lists the readings as small integers and builds the 53-count rows only for the melds kept:

- a **run** of suit ``s`` is a window of 3..13 positions (0 the ace low, 1 the 2, 2..12
  the 3..K, 13 the ace high) whose cells hold the hand's naturals of ``s`` (the 2 of ``s``
  at its place) but for one cell at most, which holds the wild (a joker, a 2 of another
  suit, or a second 2 of ``s``); a natural may also give its cell to the wild and stay in
  hand. A meld read so in several ways is clean when one reading holds no wild.
- a **set** of rank ``r`` (allowed by the rules) is some naturals of ``r`` and at most one
  wild, as many naturals as wilds at least (a set of 2s takes only the joker).

Same keys, rows, shapes, homes, cleans and points, in the same order (ascending key), as
the general path: tested against it and against ``partition_ref.catalogue``.
"""

from __future__ import annotations

import numpy as np
from kernels.jit import njit

from kernels.additions_numba import one_wild_rules, wild_kind
from kernels.encoding import ACE_HIGH_POSITION as ACE_HIGH
from kernels.encoding import JOKER, KIND_COUNT, RANK_COUNT
from kernels.params import (
    KEY_BODY_SHIFT,
    KEY_TAG_RUN,
    KEY_TAG_SET,
    KEY_TAG_SHIFT,
    KEY_TWO_SHIFT,
    RULE_MIN_SIZE,
    RULE_SET_RANKS,
    RULE_WILD_SETS,
    SHAPE_RUN,
    SHAPE_SET,
)

NO_WILD = -1


@njit(cache=True)
def handles(scalars):
    """Do the rules fit this module (one wild a meld, 2s wild, no ratio, no wild sets)?"""
    return one_wild_rules(scalars) and scalars[RULE_WILD_SETS] == 0


@njit(cache=True)
def _kind_at(suit, position):
    return suit * RANK_COUNT + (0 if position == ACE_HIGH else position)


# the columns of the readings found
KEY, SHAPE, HOME, CELLS, WILD, CLEAN = 0, 1, 2, 3, 4, 5


@njit(cache=True)
def _push(found, n, key, shape, home, cells, wild, clean):
    """Append a reading to ``found`` (int64[c, 6]: key, shape, home, cells (a run's
    natural positions, a set's naturals 2 bits a suit), wild kind or NO_WILD, clean),
    grown as needed; returns (found, n + 1)."""
    if n == found.shape[0]:
        grown = np.empty((2 * n, 6), np.int64)
        grown[:n] = found
        found = grown
    found[n, KEY] = key
    found[n, SHAPE] = shape
    found[n, HOME] = home
    found[n, CELLS] = cells
    found[n, WILD] = wild
    found[n, CLEAN] = clean
    return found, n + 1


@njit(cache=True)
def _wild_bits(wild):
    """The key's wild field of one wild card of kind ``wild`` (NO_WILD: none)."""
    if wild == JOKER:
        return 1
    if wild == NO_WILD:
        return 0
    return 1 << (KEY_TWO_SHIFT + 2 * (wild // RANK_COUNT))


@njit(cache=True)
def _run_key(suit, cells, wild):
    """The meld key of the run of ``suit`` with naturals in ``cells`` (bit p: position p)
    and the wild card ``wild`` (a kind, or NO_WILD)."""
    rank_mask = 0
    if cells & (1 | (1 << ACE_HIGH)):
        rank_mask |= 1
    for position in range(2, ACE_HIGH):
        if (cells >> position) & 1:
            rank_mask |= 1 << (position - 1)
    field = _wild_bits(wild) + (((cells >> 1) & 1) << (KEY_TWO_SHIFT + 2 * suit))
    return ((KEY_TAG_RUN << KEY_TAG_SHIFT) | ((suit | (rank_mask << 2)) << KEY_BODY_SHIFT)
            | field)


@njit(cache=True)
def catalogue(hand, scalars, values, run_bonus, set_bonus):
    """(keys, counts, shapes, homes, cleans, points) of the hand's melds, ascending key,
    as ``kernels.laydown.melds.catalogue`` (call only when :func:`handles` the rules)."""
    min_size = scalars[RULE_MIN_SIZE]
    found = np.empty((32, 6), np.int64)
    n = 0
    foreign_of = np.empty(5, np.int64)
    for suit in range(4):
        own_two = suit * RANK_COUNT + 1
        available = 0
        for position in range(ACE_HIGH + 1):
            if hand[_kind_at(suit, position)] > 0:
                available |= 1 << position
        if available & ~2 == 0:
            continue                          # no natural of the suit but its 2s
        foreign = 0
        for slot in range(5):
            kind = wild_kind(slot)
            if kind != own_two and hand[kind] > 0:
                foreign_of[foreign] = kind
                foreign += 1
        for low in range(ACE_HIGH + 1):
            missing = 0
            for high in range(low, min(low + RANK_COUNT, ACE_HIGH + 1)):
                if not (available >> high) & 1:
                    missing += 1
                    if missing > 1:
                        break
                if high - low + 1 < min_size:
                    continue
                window = ((1 << (high + 1)) - 1) ^ ((1 << low) - 1)
                naturals = window & available
                for hole in range(low - 1, high + 1):
                    # hole: the cell the wild takes (low - 1: none); a missing cell must be it
                    if hole < low:
                        if missing:
                            continue
                        cells = naturals
                    else:
                        if missing and (available >> hole) & 1:
                            continue
                        cells = naturals & ~(1 << hole)
                    if cells & ~2 == 0:
                        continue              # every natural would be the suit's 2
                    if hole < low:
                        found, n = _push(found, n, _run_key(suit, cells, NO_WILD), SHAPE_RUN,
                                         suit, cells, NO_WILD, 1)
                        continue
                    twos_left = hand[own_two] - ((cells >> 1) & 1)
                    for w in range(foreign + 1):      # the foreign wilds, then a 2 of the suit
                        if w == foreign:
                            if twos_left <= 0:
                                continue
                            wild = own_two
                        else:
                            wild = foreign_of[w]
                        found, n = _push(found, n, _run_key(suit, cells, wild), SHAPE_RUN,
                                         suit, cells, wild, 0)
    for rank in range(RANK_COUNT):
        if not (scalars[RULE_SET_RANKS] >> rank) & 1:
            continue
        limit = 0                             # the hand's naturals of the rank, 2 bits a suit
        held = 0
        for suit in range(4):
            count = hand[suit * RANK_COUNT + rank]
            limit |= count << (2 * suit)
            held += count
        if held == 0:
            continue
        set_wild_count = 0
        for slot in range(5 if rank != 1 else 1):
            if hand[wild_kind(slot)] > 0:
                foreign_of[set_wild_count] = wild_kind(slot)
                set_wild_count += 1
        if held + min(set_wild_count, 1) < min_size:
            continue
        naturals = 0                          # an odometer over the naturals, suit by suit
        while True:
            count = 0
            for suit in range(4):
                count += (naturals >> (2 * suit)) & 3
            if count > 0:
                for w in range(set_wild_count + 1):
                    wild = NO_WILD if w == set_wild_count else foreign_of[w]
                    if count + (0 if wild == NO_WILD else 1) < min_size:
                        continue
                    if rank == 1:                 # a set of 2s: the key holds only wilds
                        key = 1 if wild == JOKER else 0
                        for suit in range(4):
                            key |= ((naturals >> (2 * suit)) & 3) << (3 + 2 * suit)
                    else:
                        payload = rank
                        for suit in range(4):
                            payload |= ((naturals >> (2 * suit)) & 3) << (4 + 2 * suit)
                        key = ((KEY_TAG_SET << KEY_TAG_SHIFT) | (payload << KEY_BODY_SHIFT)
                               | _wild_bits(wild))
                    found, n = _push(found, n, key, SHAPE_SET, rank, naturals, wild,
                                     1 if wild == NO_WILD else 0)
            suit = 0
            while suit < 4:
                if ((naturals >> (2 * suit)) & 3) < ((limit >> (2 * suit)) & 3):
                    naturals += 1 << (2 * suit)
                    break
                naturals &= ~(3 << (2 * suit))
                suit += 1
            if suit == 4:
                break
    keys = found[:n, KEY].copy()
    order = np.argsort(keys, kind="mergesort")
    unique = 0
    for i in range(n):
        if i == 0 or keys[order[i]] != keys[order[i - 1]]:
            unique += 1
    out_keys = np.empty(unique, np.int64)
    out_counts = np.zeros((unique, KIND_COUNT), np.int64)
    out_shapes = np.empty(unique, np.int64)
    out_homes = np.empty(unique, np.int64)
    out_cleans = np.zeros(unique, np.int64)
    out_points = np.empty(unique, np.int64)
    slot = -1
    for i in range(n):
        c = order[i]
        if i == 0 or keys[c] != keys[order[i - 1]]:
            slot += 1
            out_keys[slot] = keys[c]
            out_shapes[slot] = found[c, SHAPE]
            out_homes[slot] = found[c, HOME]
            row = out_counts[slot]
            cells = found[c, CELLS]
            if found[c, SHAPE] == SHAPE_RUN:
                for position in range(ACE_HIGH + 1):
                    if (cells >> position) & 1:
                        row[_kind_at(found[c, HOME], position)] += 1
            else:
                for suit in range(4):
                    row[suit * RANK_COUNT + found[c, HOME]] = (cells >> (2 * suit)) & 3
            if found[c, WILD] != NO_WILD:
                row[found[c, WILD]] += 1
        if found[c, CLEAN]:
            out_cleans[slot] = 1
    last = set_bonus.shape[2] - 1
    for slot in range(unique):
        value = 0
        size = 0
        for kind in range(KIND_COUNT):
            count = out_counts[slot, kind]
            if count:
                value += values[kind] * count
                size += count
        clean = out_cleans[slot]
        if out_shapes[slot] == SHAPE_RUN:
            out_points[slot] = value + run_bonus[out_homes[slot], clean, size]
        else:
            out_points[slot] = value + set_bonus[out_homes[slot], clean, min(size, last)]
    return out_keys, out_counts, out_shapes, out_homes, out_cleans, out_points
