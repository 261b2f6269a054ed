"""Table additions by position masks: the fast path of
``kernels.laydown.melds.additions``.

``kernels.laydown.melds.additions`` finds a table meld's additions by generating the
catalogue of the meld plus the hand's cards that can join it (every reading, 53 counts a row) and
keeping the rows that hold the meld. For the rules of every preset but partnership (2s
wild, at most one wild a meld, no ratio rule) the melds a table run or set can become are
few and easy to name, so this module lists them directly, with one small integer per
candidate instead of a row:

- a **run** of suit ``s`` (its naturals a mask over the positions 0..13: the ace low,
  2..K, the ace high) plus a set of the hand's naturals of ``s``, some of the hand's 2s of
  ``s`` (natural at position 1 or wild) and at most one other wild is a run when some
  reading puts its naturals in a window with at most one wild cell (the one wild), of
  13 cards at most; it is clean when a reading needs no wild;
- a **set** of rank ``r`` (``r`` not the 2) plus natural cards of ``r`` and, when it
  holds none yet, one wild.

A meld these do not cover (a run without a natural other than a 2, a set of 2s, a set of
wilds, a meld with two wilds, partnership's rules) returns ``handled`` False, and the
caller takes the general path. Both give the same rows in the same order (by key):
tested against ``partition_ref.additions`` and against the general path.

Arrays: ``base`` and ``hand`` int64[53] (``hand``: the cards in hand, not yet masked to
the meld); ``values`` int64[53]; ``run_bonus`` int64[4, 2, 14]; ``set_bonus``
int64[14, 2, S]. The rows go into the caller's buffer ``out`` = (counts int64[c, 53]:
the cards added, gains int64[c]: the meld's new points less ``before``, groups int64[c]:
the table meld, keys int64[c]: the new meld's key), grown as needed, by key.
"""

from __future__ import annotations

import numpy as np
from kernels.jit import njit

from kernels.encoding import ACE_HIGH_POSITION as ACE_HIGH
from kernels.encoding import JOKER, KIND_COUNT, RANK_COUNT
from kernels.params import (
    KEY_BODY_SHIFT,
    KEY_TAG_RUN,
    KEY_TAG_SET,
    KEY_TAG_SHIFT,
    KEY_TWO_SHIFT,
    RULE_MAX_WILDS,
    RULE_NATURALS_PER_WILD,
    RULE_WILD_TWOS,
)

NO_WILD = -1      # a candidate that adds no foreign wild


@njit(cache=True)
def one_wild_rules(scalars):
    """Do the rules fit this module: 2s wild, at most one wild a meld, no ratio rule?"""
    return (scalars[RULE_WILD_TWOS] == 1 and scalars[RULE_MAX_WILDS] == 1
            and scalars[RULE_NATURALS_PER_WILD] == 0)


@njit(cache=True)
def _bits(mask):
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@njit(cache=True)
def _span(cells):
    low = 0
    while not (cells >> low) & 1:
        low += 1
    high = ACE_HIGH
    while not (cells >> high) & 1:
        high -= 1
    return high - low + 1


@njit(cache=True)
def run_fits(naturals, ace, twos, foreign):
    """(fits, clean) of a one-suit meld: its naturals ``naturals`` (bit ``r`` for the rank
    index ``r`` = 2..12), ``ace`` 0/1 (placed low or high), ``twos`` 2s of the suit (one
    may stand at position 1), ``foreign`` other wilds. At most one wild in a reading."""
    fits = False
    clean = False
    for place in range(2 if ace else 1):
        cells = naturals
        if ace:
            cells |= 1 if place == 0 else 1 << ACE_HIGH
        for natural_two in range(2 if twos > 0 else 1):
            wilds = foreign + twos - natural_two
            if wilds > 1:
                continue
            placed = cells | (natural_two << 1)
            if placed == 0:
                continue
            count = _bits(placed)
            if _span(placed) - count > wilds or count + wilds > RANK_COUNT:
                continue
            fits = True
            if wilds == 0:
                clean = True
    return fits, clean


@njit(cache=True)
def _reach(base_cells, available):
    """The positions a run of ``base_cells`` can grow to through ``available`` cells, with
    one cell at most not available (the one wild)."""
    low = 0
    while not (base_cells >> low) & 1:
        low += 1
    high = ACE_HIGH
    while not (base_cells >> high) & 1:
        high -= 1
    reach = 0
    for p in range(low, high + 1):
        reach |= 1 << p
    gaps = 0
    for p in range(low - 1, -1, -1):
        if not (available >> p) & 1:
            gaps += 1
            if gaps > 1:
                break
        reach |= 1 << p
    gaps = 0
    for p in range(high + 1, ACE_HIGH + 1):
        if not (available >> p) & 1:
            gaps += 1
            if gaps > 1:
                break
        reach |= 1 << p
    return reach


@njit(cache=True)
def room(out, n):
    """``out`` (counts, gains, groups, keys) with room for row ``n``, rows zeroed."""
    counts, gains, groups, keys = out
    if n < counts.shape[0]:
        counts[n] = 0
        return out
    capacity = 2 * counts.shape[0]
    grown = np.zeros((capacity, KIND_COUNT), dtype=np.int64)
    grown[:n] = counts[:n]
    return (grown, np.concatenate((gains, np.empty(capacity - n, np.int64))),
            np.concatenate((groups, np.empty(capacity - n, np.int64))),
            np.concatenate((keys, np.empty(capacity - n, np.int64))))


@njit(cache=True)
def _sort_rows(out, first, n):
    """Insertion sort of rows ``first..n-1`` of ``out`` by key (a handful a meld)."""
    if n - first < 2:
        return
    counts, gains, groups, keys = out
    row = np.empty(KIND_COUNT, dtype=np.int64)
    for i in range(first + 1, n):
        key = keys[i]
        gain = gains[i]
        group = groups[i]
        row[:] = counts[i]
        j = i - 1
        while j >= first and keys[j] > key:
            keys[j + 1] = keys[j]
            gains[j + 1] = gains[j]
            groups[j + 1] = groups[j]
            counts[j + 1] = counts[j]
            j -= 1
        keys[j + 1] = key
        gains[j + 1] = gain
        groups[j + 1] = group
        counts[j + 1] = row


@njit(cache=True)
def wild_kind(slot):
    """The wild kinds in a fixed order: slot 0 the joker, 1..4 the 2s of S H D C."""
    return JOKER if slot == 0 else (slot - 1) * RANK_COUNT + 1


@njit(cache=True)
def wild_field(base, extra_twos_suit, extra_twos, extra_wild):
    """The key's wild field of ``base`` plus ``extra_twos`` 2s of ``extra_twos_suit`` and
    one card of kind ``extra_wild`` (NO_WILD: none)."""
    jokers = base[JOKER] + (1 if extra_wild == JOKER else 0)
    field = jokers
    for suit in range(4):
        kind = suit * RANK_COUNT + 1
        twos = base[kind] + (1 if extra_wild == kind else 0)
        if suit == extra_twos_suit:
            twos += extra_twos
        field |= twos << (KEY_TWO_SHIFT + 2 * suit)
    return field


@njit(cache=True)
def _value_and_size(meld, values):
    value = 0
    size = 0
    for kind in range(KIND_COUNT):
        value += values[kind] * meld[kind]
        size += meld[kind]
    return value, size


@njit(cache=True, inline="always")
def run_additions(base, hand, suit, before, values, run_bonus, group, out, n):
    """Append the additions of the table run ``base`` of ``suit`` (table meld ``group``) to
    ``out`` from row ``n``, by key; returns (handled, out, n). Not handled: nothing added."""
    own_two = suit * RANK_COUNT + 1
    naturals = 0
    ace = 0
    foreign = 0
    for kind in range(KIND_COUNT):
        count = base[kind]
        if count == 0 or kind == own_two:
            continue
        rank = kind % RANK_COUNT
        if kind == JOKER or rank == 1:
            foreign += count
        elif kind // RANK_COUNT != suit or count > 1:
            return False, out, n          # not a run of this suit's naturals
        elif rank == 0:
            ace = 1
        else:
            naturals |= 1 << rank
    twos = base[own_two]
    if naturals == 0 or foreign > 1:
        return False, out, n
    base_value, size = _value_and_size(base, values)
    # the hand's naturals that may join (not in the run yet): rank bits, the ace at bit 0;
    # the foreign wilds it holds (slots of wild_kind) when the run holds none
    held = 0
    for rank in range(RANK_COUNT):
        kind = suit * RANK_COUNT + rank
        if rank != 1 and hand[kind] > 0 and base[kind] == 0:
            held |= 1 << rank
    hand_twos = hand[own_two]
    wild_slots = 0
    if foreign == 0:
        for slot in range(5):
            kind = wild_kind(slot)
            if kind != own_two and hand[kind] > 0:
                wild_slots |= 1 << slot
    if held == 0 and hand_twos == 0 and wild_slots == 0:
        return True, out, n
    # positions the run can reach: the hand's naturals, the ace at both ends, a 2 at 1
    cells = naturals
    if ace:
        cells |= 1 | (1 << ACE_HIGH)
    available = held | cells
    if held & 1:
        available |= 1 << ACE_HIGH
    if twos + hand_twos > 0:
        available |= 2
    reach = _reach(naturals, available)
    if ace:
        reach |= _reach(naturals | 1, available) | _reach(naturals | (1 << ACE_HIGH), available)
    if (reach >> ACE_HIGH) & 1:
        reach |= 1                        # the ace's one bit: low or high
    joinable = held & reach & ((1 << RANK_COUNT) - 1)
    first = n
    subset = joinable
    while True:
        mask = naturals | (subset & ~1)
        with_ace = ace | (subset & 1)
        for added_twos in range(hand_twos + 1):
            for slot in range(6):
                if slot < 5 and not (wild_slots >> slot) & 1:
                    continue
                extra = NO_WILD if slot == 5 else wild_kind(slot)
                if subset == 0 and added_twos == 0 and extra == NO_WILD:
                    continue
                fits, clean = run_fits(mask, with_ace, twos + added_twos,
                                       foreign + (0 if extra == NO_WILD else 1))
                if not fits:
                    continue
                out = room(out, n)
                counts, gains, groups, keys = out
                value = base_value
                total = size
                for rank in range(RANK_COUNT):
                    if (subset >> rank) & 1:
                        kind = suit * RANK_COUNT + rank
                        counts[n, kind] = 1
                        value += values[kind]
                        total += 1
                if added_twos > 0:
                    counts[n, own_two] = added_twos
                    value += values[own_two] * added_twos
                    total += added_twos
                if extra != NO_WILD:
                    counts[n, extra] = 1
                    value += values[extra]
                    total += 1
                rank_mask = (mask >> 1) | with_ace
                body = suit | (rank_mask << 2)
                keys[n] = ((KEY_TAG_RUN << KEY_TAG_SHIFT) | (body << KEY_BODY_SHIFT)
                           | wild_field(base, suit, added_twos, extra))
                gains[n] = value + run_bonus[suit, 1 if clean else 0, total] - before
                groups[n] = group
                n += 1
        if subset == 0:
            break
        subset = (subset - 1) & joinable
    _sort_rows(out, first, n)
    return True, out, n


@njit(cache=True, inline="always")
def set_additions(base, hand, rank, before, values, set_bonus, group, out, n):
    """Append the additions of the table set ``base`` of ``rank`` (table meld ``group``) to
    ``out`` from row ``n``, by key; returns (handled, out, n). Not handled: nothing added."""
    if rank == 1:
        return False, out, n              # a set of 2s: its 2s are naturals
    wilds = 0
    naturals = 0
    for kind in range(KIND_COUNT):
        count = base[kind]
        if count == 0:
            continue
        if kind == JOKER or kind % RANK_COUNT == 1:
            wilds += count
        elif kind % RANK_COUNT == rank:
            naturals += count
        else:
            return False, out, n
    if naturals < 2 or wilds > 1:
        return False, out, n
    base_value, size = _value_and_size(base, values)
    limit = 0                             # the hand's naturals of the rank, 2 bits a suit
    for suit in range(4):
        limit |= hand[suit * RANK_COUNT + rank] << (2 * suit)
    wild_slots = 0
    if wilds == 0:
        for slot in range(5):
            if hand[wild_kind(slot)] > 0:
                wild_slots |= 1 << slot
    if limit == 0 and wild_slots == 0:
        return True, out, n
    first = n
    last = set_bonus.shape[2] - 1
    added = 0                             # the naturals added, 2 bits a suit (an odometer)
    while True:
        extra_naturals = 0
        for suit in range(4):
            extra_naturals += (added >> (2 * suit)) & 3
        for slot in range(6):
            if slot < 5 and not (wild_slots >> slot) & 1:
                continue
            extra = NO_WILD if slot == 5 else wild_kind(slot)
            if extra_naturals == 0 and extra == NO_WILD:
                continue
            total = size + extra_naturals + (0 if extra == NO_WILD else 1)
            out = room(out, n)
            counts, gains, groups, keys = out
            value = base_value
            payload = rank
            for suit in range(4):
                kind = suit * RANK_COUNT + rank
                more = (added >> (2 * suit)) & 3
                counts[n, kind] = more
                value += values[kind] * more
                payload |= (base[kind] + more) << (4 + 2 * suit)
            if extra != NO_WILD:
                counts[n, extra] = 1
                value += values[extra]
            clean = 1 if wilds == 0 and extra == NO_WILD else 0
            keys[n] = ((KEY_TAG_SET << KEY_TAG_SHIFT) | (payload << KEY_BODY_SHIFT)
                       | wild_field(base, -1, 0, extra))
            gains[n] = value + set_bonus[rank, clean, min(total, last)] - before
            groups[n] = group
            n += 1
        suit = 0                          # next odometer reading, suit by suit
        while suit < 4:
            digit = (added >> (2 * suit)) & 3
            if digit < (limit >> (2 * suit)) & 3:
                added += 1 << (2 * suit)
                break
            added &= ~(3 << (2 * suit))
            suit += 1
        if suit == 4:
            break
    _sort_rows(out, first, n)
    return True, out, n
