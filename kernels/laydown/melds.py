"""The meld catalogue of a hand, on numba: meld keys, the general generator of every
reading of every meld, a laid meld's reading and the additions to table melds.

Same results as :mod:`kernels.partition_ref`. Under one-wild rules the catalogue and
the additions take the fast paths of :mod:`kernels.catalogue_numba` and
:mod:`kernels.additions_numba`; the generator here covers every rule set.

Array shapes: ``hand`` int64[53]; ``scalars`` int64[6] (RuleParams switches, read by
the ``RULE_*`` names of kernels.params); ``values`` int64[53]; ``run_bonus``
int64[4, 2, 14]; ``set_bonus`` int64[14, 2, S].
"""

from __future__ import annotations

import numpy as np
from kernels.jit import njit
from kernels.link import linked
from numba import types

from kernels.additions_numba import one_wild_rules, room, run_additions, set_additions
from kernels.catalogue_numba import catalogue as window_catalogue
from kernels.catalogue_numba import handles as window_rules
from kernels.encoding import ACE_HIGH_POSITION as ACE_HIGH
from kernels import meld_basics
from kernels.encoding import JOKER, KIND_COUNT, RANK_COUNT
from kernels.params import (RULE_MAX_WILDS, RULE_MIN_SIZE, RULE_NATURALS_PER_WILD, RULE_SET_RANKS,
                            RULE_WILD_SETS, RULE_WILD_TWOS, SHAPE_RUN, SHAPE_SET, SHAPE_WILD_SET)

# the linked functions' types (kernels.link)
_V, _M, _T3 = types.int64[::1], types.int64[:, ::1], types.int64[:, :, ::1]


# the meld key and its inverse: kernels.meld_basics' bodies, compiled
meld_key = njit(cache=True)(meld_basics.meld_key)
key_counts = njit(cache=True)(meld_basics.key_counts_into)


@njit(cache=True)
def _limit_ok(scalars, wilds, naturals):
    if wilds > scalars[RULE_MAX_WILDS]:
        return False
    ratio = scalars[RULE_NATURALS_PER_WILD]
    if ratio > 0 and wilds * ratio > naturals:
        return False
    return True


@njit(cache=True)
def _next_combination(index, k, n):
    """Advance a strictly increasing index[0:k] over 0..n-1; False when exhausted."""
    i = k - 1
    while i >= 0 and index[i] == n - k + i:
        i -= 1
    if i < 0:
        return False
    index[i] += 1
    for j in range(i + 1, k):
        index[j] = index[j - 1] + 1
    return True


@njit(cache=True)
def _next_multiset(index, k, n):
    """Advance a non-decreasing index[0:k] over 0..n-1; False when exhausted."""
    i = k - 1
    while i >= 0 and index[i] == n - 1:
        i -= 1
    if i < 0:
        return False
    index[i] += 1
    for j in range(i + 1, k):
        index[j] = index[i]
    return True


@njit(cache=True)
def _grow(found, used):
    """The candidates' arrays (keys, rows, info) at twice the size, the first ``used``
    rows kept."""
    keys, rows, info = found
    size = keys.shape[0] * 2
    new_keys = np.empty(size, dtype=np.int64)
    new_rows = np.empty((size, KIND_COUNT), dtype=np.int64)
    new_info = np.empty((size, 3), dtype=np.int64)
    new_keys[:used] = keys[:used]
    new_rows[:used] = rows[:used]
    new_info[:used] = info[:used]
    return new_keys, new_rows, new_info


@njit(cache=True)
def _emit_wilds(hand, base, wilds, wild_count, shape, home, found, used, required, prune,
                index):
    """Append to ``found`` (keys, rows, info: shape, home, clean) base + every fitting
    multiset of wild_count of the kinds ``wilds`` that holds ``required`` (checked when
    ``prune``); returns the arrays and count. ``index`` is scratch space and ``base`` is
    restored before returning."""
    keys, rows, info = found
    clean = 1 if wild_count == 0 and shape != SHAPE_WILD_SET else 0
    for j in range(wild_count):
        index[j] = 0
    while True:
        ok = True
        for j in range(wild_count):
            kind = wilds[index[j]]
            base[kind] += 1
            if base[kind] > hand[kind]:
                ok = False
        if ok and prune:
            for kind in range(KIND_COUNT):
                if base[kind] < required[kind]:
                    ok = False
                    break
        if ok:
            if used == keys.shape[0]:
                keys, rows, info = _grow((keys, rows, info), used)
            keys[used] = meld_key(base)
            rows[used] = base
            info[used, 0] = shape
            info[used, 1] = home
            info[used, 2] = clean
            used += 1
        for j in range(wild_count):
            base[wilds[index[j]]] -= 1
        if wild_count == 0 or not _next_multiset(index, wild_count, wilds.shape[0]):
            break
    return (keys, rows, info), used


@njit(cache=True)
def _wild_cap(scalars, size):
    cap = scalars[RULE_MAX_WILDS]
    if scalars[RULE_NATURALS_PER_WILD] > 0:
        alt = size // (scalars[RULE_NATURALS_PER_WILD] + 1)
        if alt < cap:
            cap = alt
    return cap


@njit(cache=True)
def _needs(required, wild_twos):
    """What every reading of a meld holding ``required`` satisfies (its natural cards).

    Returns (suit mask, lowest and highest run position of a natural other than
    the ace, 1 if a natural ace, rank mask, natural card count).
    """
    suits = 0
    low = ACE_HIGH + 1
    high = -1
    ace = 0
    ranks = 0
    naturals = 0
    for kind in range(JOKER):
        rank = kind % RANK_COUNT
        if required[kind] == 0 or (wild_twos and rank == 1):
            continue
        naturals += required[kind]
        suits |= 1 << (kind // RANK_COUNT)
        ranks |= 1 << rank
        if rank == 0:
            ace = 1
        else:
            low = min(low, rank)
            high = max(high, rank)
    return suits, low, high, ace, ranks, naturals


@njit(cache=True, inline="always")
def _generate(hand, scalars, required):
    """Every (meld, reading) candidate holding ``required``, duplicates included.

    ``required`` (53 counts, zeros for the catalogue) prunes the search to the
    readings a meld holding it can have: its naturals fix the run's suit and
    the cells its window covers, or the set's rank.
    """
    wild_twos = scalars[RULE_WILD_TWOS]
    min_size = scalars[RULE_MIN_SIZE]
    need_suits, need_low, need_high, need_ace, need_ranks, need_naturals = _needs(
        required, wild_twos)
    found = (np.empty(32, dtype=np.int64), np.empty((32, KIND_COUNT), dtype=np.int64),
             np.empty((32, 3), dtype=np.int64))   # keys, rows, info (shape, home, clean)
    used = 0
    prune = False
    for kind in range(KIND_COUNT):
        if required[kind] > 0:
            prune = True
    # one scratch block instead of a dozen small arrays (allocation dominates small hands)
    scratch = np.zeros(256, dtype=np.int64)
    index = scratch[0:64]
    base = scratch[64:64 + KIND_COUNT]
    run_wilds = scratch[120:125]
    run_wilds[0] = JOKER
    run_wild_count = 1
    if wild_twos:
        for suit in range(4):
            run_wilds[run_wild_count] = suit * RANK_COUNT + 1
            run_wild_count += 1
    optional = scratch[125:139]
    chosen = scratch[139:153]
    is_wild = scratch[153:167]
    wild_total = 0
    for j in range(run_wild_count):
        wild_total += hand[run_wilds[j]]
    prefix = scratch[167:167 + ACE_HIGH + 2]
    for suit in range(4):
        if need_suits and need_suits != 1 << suit:
            continue
        # prefix[p]: positions below p the hand holds (position 13 is the high ace)
        for p in range(ACE_HIGH + 1):
            held = hand[suit * RANK_COUNT + (0 if p == ACE_HIGH else p)] > 0
            prefix[p + 1] = prefix[p] + (1 if held else 0)
        for low in range(min(ACE_HIGH, need_low) + 1):
            for high in range(max(low + min_size - 1, need_high), ACE_HIGH + 1):
                length = high - low + 1
                if length - (prefix[high + 1] - prefix[low]) > wild_total:
                    break     # more cells missing than wilds held, and a longer run misses more
                if length > RANK_COUNT or (need_ace and low != 0 and high != ACE_HIGH):
                    continue
                forced = 0
                optional_count = 0
                for p in range(low, high + 1):
                    kind = suit * RANK_COUNT + (0 if p == ACE_HIGH else p)
                    if hand[kind] == 0:
                        forced += 1
                    elif not (prune and required[kind] > 0 and not (wild_twos and p == 1)):
                        # (a required natural keeps its cell: only other cells may go wild)
                        optional[optional_count] = p
                        optional_count += 1
                cap = _wild_cap(scalars, length)
                if forced > cap:
                    continue
                for extra in range(cap - forced + 1):
                    if extra > optional_count:
                        break
                    wild_count = forced + extra
                    if not _limit_ok(scalars, wild_count, length - wild_count):
                        continue
                    for j in range(extra):
                        chosen[j] = j
                    while True:
                        is_wild[:] = 0
                        for j in range(extra):
                            is_wild[optional[chosen[j]]] = True
                        base[:] = 0
                        for p in range(low, high + 1):
                            kind = suit * RANK_COUNT + (0 if p == ACE_HIGH else p)
                            if hand[kind] > 0 and not is_wild[p]:
                                base[kind] += 1
                        found, used = _emit_wilds(
                            hand, base, run_wilds[:run_wild_count], wild_count, SHAPE_RUN,
                            suit, found, used, required, prune, index)
                        if extra == 0 or not _next_combination(chosen, extra, optional_count):
                            break
    set_wilds = scratch[190:195]
    limits = scratch[195:199]
    natural = scratch[199:203]
    lower = scratch[203:207]
    for rank in range(RANK_COUNT):
        if (not (scalars[RULE_SET_RANKS] >> rank) & 1
                or (need_ranks and need_ranks != 1 << rank)):
            continue
        held = 0
        for suit in range(4):
            held += hand[suit * RANK_COUNT + rank]
        if held == 0:
            continue
        set_wilds[0] = JOKER
        set_wild_count = 1
        wilds_held = hand[JOKER]
        if wild_twos and rank != 1:
            for suit in range(4):
                set_wilds[set_wild_count] = suit * RANK_COUNT + 1
                set_wild_count += 1
                wilds_held += hand[suit * RANK_COUNT + 1]
        if held + min(wilds_held, scalars[RULE_MAX_WILDS]) < min_size:
            continue      # too few cards of this rank and wilds for any set
        fits = True
        for suit in range(4):
            limits[suit] = hand[suit * RANK_COUNT + rank]
            # the required cards of this rank are naturals of every such set
            lower[suit] = required[suit * RANK_COUNT + rank] if prune else 0
            natural[suit] = lower[suit]
            if lower[suit] > limits[suit]:
                fits = False
        while fits:
            natural_count = natural[0] + natural[1] + natural[2] + natural[3]
            if natural_count > 0:
                for wild_count in range(0, min(natural_count, wilds_held) + 1):
                    if natural_count + wild_count < min_size:
                        continue
                    if not _limit_ok(scalars, wild_count, natural_count):
                        break
                    base[:] = 0
                    for suit in range(4):
                        base[suit * RANK_COUNT + rank] = natural[suit]
                    found, used = _emit_wilds(
                        hand, base, set_wilds[:set_wild_count], wild_count, SHAPE_SET, rank,
                        found, used, required, prune, index)
            # odometer over the natural counts per suit
            digit = 0
            while digit < 4:
                natural[digit] += 1
                if natural[digit] <= limits[digit]:
                    break
                natural[digit] = lower[digit]
                digit += 1
            if digit == 4:
                break
    if scalars[RULE_WILD_SETS] and need_naturals == 0:
        total = 0
        for j in range(run_wild_count):
            total += hand[run_wilds[j]]
        for size in range(min_size, total + 1):
            base[:] = 0
            found, used = _emit_wilds(
                hand, base, run_wilds[:run_wild_count], size, SHAPE_WILD_SET, RANK_COUNT, found,
                used, required, prune, index)
    keys, rows, info = found
    return keys[:used], rows[:used], info[:used]


@njit(cache=True)
def _points(row, shape, home, clean, values, run_bonus, set_bonus):
    size = 0
    value = 0
    for kind in range(KIND_COUNT):
        size += row[kind]
        value += values[kind] * row[kind]
    if shape == SHAPE_RUN:
        return value + run_bonus[home, clean, size]
    last = set_bonus.shape[2] - 1
    return value + set_bonus[home, clean, min(size, last)]


@linked(types.Tuple((_V, _M, _V, _V, _V, _V))(_V, _V, _V, _T3, _T3), borrow=True)
def catalogue(hand, scalars, values, run_bonus, set_bonus):
    """Returns (keys, counts, shapes, homes, cleans, points), ascending key. One-wild rules
    without sets of wilds take the fast path of :mod:`kernels.catalogue_numba`."""
    if window_rules(scalars):
        return window_catalogue(hand, scalars, values, run_bonus, set_bonus)
    return _catalogue(hand, scalars, values, run_bonus, set_bonus,
                      np.zeros(KIND_COUNT, dtype=np.int64))


@njit(cache=True)
def _catalogue(hand, scalars, values, run_bonus, set_bonus, required):
    """The catalogue's melds that hold ``required`` (all of them for zeros)."""
    keys, rows, info = _generate(hand, scalars, required)
    order = np.argsort(keys, kind="mergesort")
    unique = 0
    for i in range(order.shape[0]):
        if i == 0 or keys[order[i]] != keys[order[i - 1]]:
            unique += 1
    out_keys = np.empty(unique, dtype=np.int64)
    out_counts = np.empty((unique, KIND_COUNT), dtype=np.int64)
    out_shapes = np.empty(unique, dtype=np.int64)
    out_homes = np.empty(unique, dtype=np.int64)
    out_cleans = np.empty(unique, dtype=np.int64)
    out_points = np.empty(unique, dtype=np.int64)
    i = 0
    slot = 0
    n = order.shape[0]
    while i < n:
        j = i
        while j < n and keys[order[j]] == keys[order[i]]:
            j += 1
        # best reading: most points, then clean, then the lower shape code
        best = order[i]
        best_points = _points(rows[best], info[best, 0], info[best, 1], info[best, 2],
                              values, run_bonus, set_bonus)
        for t in range(i + 1, j):
            c = order[t]
            p = _points(rows[c], info[c, 0], info[c, 1], info[c, 2], values, run_bonus, set_bonus)
            if (p > best_points or (p == best_points and info[c, 2] > info[best, 2])
                    or (p == best_points and info[c, 2] == info[best, 2] and info[c, 0] < info[best, 0])):
                best = c
                best_points = p
        clean = 0
        for t in range(i, j):
            c = order[t]
            if info[c, 0] == info[best, 0] and info[c, 1] == info[best, 1] and info[c, 2] == 1:
                clean = 1
        out_keys[slot] = keys[best]
        out_counts[slot] = rows[best]
        out_shapes[slot] = info[best, 0]
        out_homes[slot] = info[best, 1]
        out_cleans[slot] = clean
        out_points[slot] = _points(rows[best], info[best, 0], info[best, 1], clean,
                                   values, run_bonus, set_bonus)
        slot += 1
        i = j
    return out_keys, out_counts, out_shapes, out_homes, out_cleans, out_points


@njit(cache=True)
def meld_reading(counts, scalars, values, run_bonus, set_bonus):
    """(shape, home, clean, points) of the best reading of the meld ``counts``, the row the
    catalogue of ``counts`` gives its key (shape -1: no meld). It generates only the
    readings that hold every card, not the catalogue of all the meld's sub-melds."""
    keys, _, shapes, homes, cleans, points = _catalogue(counts, scalars, values, run_bonus,
                                                        set_bonus, counts)
    key = meld_key(counts)
    for i in range(keys.shape[0]):
        if keys[i] == key:
            return shapes[i], homes[i], cleans[i], points[i]
    return -1, -1, 0, 0


_relevant_into = njit(cache=True)(meld_basics.relevant_into)


@njit(cache=True)
def _relevant(shape, home, wild_twos):
    """0/1 per kind: the cards that can join a meld of this shape and home."""
    mask = np.zeros(KIND_COUNT, dtype=np.int64)
    _relevant_into(shape, home, wild_twos, mask)
    return mask


@njit(cache=True)
def _always_wild(kind, shape, home, wild_twos):
    """Is ``kind`` wild in every reading of a meld of this shape and home?"""
    if kind == JOKER:
        return True
    if not wild_twos or kind % RANK_COUNT != 1:
        return False
    if shape == SHAPE_RUN:
        return kind // RANK_COUNT != home     # an own-suit 2 may stand at its place
    return not (shape == SHAPE_SET and home == 1)


@njit(cache=True)
def _holds_foreign_wild(meld, shape, home, wild_twos):
    for kind in range(KIND_COUNT):
        if meld[kind] > 0 and _always_wild(kind, shape, home, wild_twos):
            return True
    return False


@linked(types.Tuple((_M, _V, _V))(_V, _M, _V, _V, _V, _V, _V, _T3, _T3), borrow=True)
def additions(hand, melds, shapes, homes, before, scalars, values, run_bonus, set_bonus):
    """Returns (counts int64[n, 53], points int64[n], groups int64[n]): each table
    meld's additions (``partition_ref.additions``), by meld then key. Runs and sets under
    one-wild rules take the fast path of :mod:`kernels.additions_numba`; the others (and
    partnership's rules) the catalogue of the meld with the hand's cards that can join."""
    capacity = 16            # rows are zeroed as they are taken (additions_numba.room)
    out = (np.empty((capacity, KIND_COUNT), dtype=np.int64), np.empty(capacity, np.int64),
           np.empty(capacity, np.int64), np.empty(capacity, np.int64))
    n = 0
    fast = one_wild_rules(scalars)
    for index in range(melds.shape[0]):
        base = melds[index]
        if fast and shapes[index] == SHAPE_RUN:
            handled, out, n = run_additions(base, hand, homes[index], before[index], values,
                                            run_bonus, index, out, n)
            if handled:
                continue
        elif fast and shapes[index] == SHAPE_SET:
            handled, out, n = set_additions(base, hand, homes[index], before[index], values,
                                            set_bonus, index, out, n)
            if handled:
                continue
        mask = _relevant(shapes[index], homes[index], scalars[RULE_WILD_TWOS])
        pool = np.empty(KIND_COUNT, dtype=np.int64)
        size = 0
        extra = 0
        for kind in range(KIND_COUNT):
            pool[kind] = base[kind] + hand[kind] * mask[kind]
            size += base[kind]
            extra += hand[kind] * mask[kind]
        if extra == 0:
            continue          # no card of the hand can join this meld
        # one wild per meld, and this one holds a wild that never turns natural: only a
        # natural card of the hand could join (and move the wild); a set of wilds only
        # (venezuelan) takes wilds
        wild_twos = scalars[RULE_WILD_TWOS]
        blocked = (scalars[RULE_MAX_WILDS] == 1 and scalars[RULE_NATURALS_PER_WILD] == 0
                   and shapes[index] != SHAPE_WILD_SET
                   and _holds_foreign_wild(base, shapes[index], homes[index], wild_twos))
        if blocked:
            naturals = 0
            for kind in range(KIND_COUNT):
                if mask[kind] and hand[kind] > 0 and not _always_wild(
                        kind, shapes[index], homes[index], wild_twos):
                    naturals += 1
            if naturals == 0:
                continue
        _, counts, found_shapes, found_homes, _, points = _catalogue(
            pool, scalars, values, run_bonus, set_bonus, base)
        for row in range(counts.shape[0]):
            if found_shapes[row] != shapes[index] or found_homes[row] != homes[index]:
                continue
            total = 0
            inside = True
            for kind in range(KIND_COUNT):
                total += counts[row, kind]
                if counts[row, kind] < base[kind]:
                    inside = False
            if not inside or total <= size:
                continue
            out = room(out, n)
            out_counts, out_points, out_groups, _ = out
            for kind in range(KIND_COUNT):
                out_counts[n, kind] = counts[row, kind] - base[kind]
            out_points[n] = points[row] - before[index]
            out_groups[n] = index
            n += 1
    out_counts, out_points, out_groups, _ = out
    return out_counts[:n].copy(), out_points[:n].copy(), out_groups[:n].copy()
