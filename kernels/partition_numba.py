"""numba backend of the meld-partition kernels.

Same algorithms and results as :mod:`kernels.partition_ref` (read that
module's docstring first); here everything is arrays and ``@njit(cache=True)``.

Array shapes: ``hand`` int64[53]; ``scalars`` int64[6] (RuleParams switches);
``values`` int64[53]; ``run_bonus`` int64[4, 2, 14]; ``set_bonus``
int64[14, 2, S]; ``meld_counts`` int64[M, 53]; ``meld_points`` int64[M];
``groups`` int64[M] (-1 or 0..62) and ``max_left`` int64[53] (see ``best``).

``count`` and ``best`` run one programme, a fixed sequence of steps (see "the
programme" below): without groups it is the first-card programme, each state
deciding the first kind it still holds (decision order) by laying a multiset
of the melds whose first card is that kind; with groups each table meld's
additions get a step of their own. The remaining hand is packed into one
int64 when it fits (two bits a card at most: every hand of up to 31 cards
does; see "the packed programme" below, ``_packed_solve``) and otherwise kept
as a counts vector (``_solve``); both meet the same states and return the
same values.
"""

from __future__ import annotations

import kernels  # noqa: F401  (sets the numba cache location first)
import numpy as np
from kernels.jit import njit
from kernels.link import linked
from numba import types

from kernels.additions_numba import one_wild_rules, room, run_additions, set_additions
from kernels.catalogue_numba import catalogue as window_catalogue
from kernels.catalogue_numba import handles as window_rules
from kernels.encoding import ACE_HIGH_POSITION as ACE_HIGH
from kernels.encoding import JOKER, KIND_COUNT, RANK_COUNT
from kernels.lp_bound import CUT_ROUNDS, fitting, least_price, no_cuts, priced, subset_bound
from kernels.params import (
    COUNT_BUDGET,
    NEG_INF,
    PRICED_CARDS,
    SHAPE_RUN,
    SHAPE_SET,
    SHAPE_WILD_SET,
    STATE_BUDGET,
)
from kernels.params import (
    KEY_BODY_BITS,
    KEY_BODY_SHIFT,
    KEY_JOKER_MASK,
    KEY_TAG_RUN,
    KEY_TAG_SET,
    KEY_TAG_SHIFT,
    KEY_TWO_SHIFT,
)
from kernels.params import decision_order as _decision_order

DECISION_ORDER = tuple(_decision_order())
# the linked functions' types (kernels.link)
_I, _V, _M, _T3 = types.int64, types.int64[::1], types.int64[:, ::1], types.int64[:, :, ::1]

INT64_MAX = (1 << 63) - 1
MAX_WIDTH = 16          # most distinct kinds in one meld (a 13-card run)
MAX_DEPTH = 8           # most melds sharing their first card (its copies, <= 6 jokers)
SHARE_SCALE = 1 << 20   # fixed-point scale of the per-card point bounds
NO_VALUE = -(1 << 62)   # no child value to take in
NODE_PROGRAMMES = 128   # a priced search solves at most this many sub-problems' programmes
NODE_SHIFT = 11         # ... and at most one per 2^NODE_SHIFT memo entries of its budget
NODE_CARDS = 24         # ... for sub-problems of at least this many cards
NODE_MOVES = 1 << 15    # ... once the search has tried this many moves
PLATEAU_STEPS = 3       # ... none when the bound is fewer steps than this above the floor
DIVES = np.array([64])  # the floor: the rounded solution, or a dive with this many solves
WORK_FACTOR = 8         # a priced best() search tries at most this many moves per memo entry
MEMO_MULTIPLIER = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64 (Fibonacci hashing)
MEMO_BITS = 8


@njit(cache=True)
def decision_order():
    """kernels.params.decision_order as an array (its one definition, read as a constant)."""
    order = np.empty(KIND_COUNT, dtype=np.int64)
    for position in range(KIND_COUNT):
        order[position] = DECISION_ORDER[position]
    return order


@njit(cache=True)
def meld_key(counts):
    """Same key as kernels.partition_ref.meld_key."""
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
                if rank == 0:
                    mask |= 1
                else:
                    mask |= 1 << (rank - 1)
        return (KEY_TAG_RUN << KEY_TAG_SHIFT) | ((suit | (mask << 2)) << KEY_BODY_SHIFT) | wild
    rank = 0
    for r in range(RANK_COUNT):
        if (ranks_seen >> r) & 1:
            rank = r
    payload = rank
    for suit in range(4):
        payload |= counts[suit * RANK_COUNT + rank] << (4 + 2 * suit)
    return (KEY_TAG_SET << KEY_TAG_SHIFT) | (payload << KEY_BODY_SHIFT) | wild


@njit(cache=True)
def key_counts(key, out):
    """Write into ``out`` the 53 counts of the meld whose meld_key is ``key`` (the inverse
    of meld_key, as kernels.partition_ref.key_counts)."""
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
            if rank == 1:
                continue
            bit = 0 if rank == 0 else rank - 1
            if (mask >> bit) & 1:
                out[suit * RANK_COUNT + rank] += 1
    elif tag == KEY_TAG_SET:
        rank = payload & 15
        if rank >= RANK_COUNT:      # no meld has this key: an action made up by hand
            return
        for suit in range(4):
            out[suit * RANK_COUNT + rank] += (payload >> (4 + 2 * suit)) & 3


@njit(cache=True)
def _limit_ok(scalars, wilds, naturals):
    if wilds > scalars[1]:
        return False
    if scalars[2] > 0 and wilds * scalars[2] > naturals:
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
def _grow(keys, rows, info, used):
    size = keys.shape[0] * 2
    new_keys = np.empty(size, dtype=np.int64)
    new_rows = np.empty((size, KIND_COUNT), dtype=np.int64)
    new_info = np.empty((size, 3), dtype=np.int64)
    new_keys[:used] = keys[:used]
    new_rows[:used] = rows[:used]
    new_info[:used] = info[:used]
    return new_keys, new_rows, new_info


@njit(cache=True)
def _emit_wilds(hand, base, wild_kinds, wild_kind_count, wild_count, shape, home, clean,
                keys, rows, info, used, required, prune, index):
    """Append base + every fitting multiset of wild_count wilds that holds ``required``
    (checked when ``prune``); returns the arrays and count. ``index`` is scratch space
    and ``base`` is restored before returning."""
    for j in range(wild_count):
        index[j] = 0
    while True:
        ok = True
        for j in range(wild_count):
            kind = wild_kinds[index[j]]
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
                keys, rows, info = _grow(keys, rows, info, used)
            keys[used] = meld_key(base)
            rows[used] = base
            info[used, 0] = shape
            info[used, 1] = home
            info[used, 2] = clean
            used += 1
        for j in range(wild_count):
            base[wild_kinds[index[j]]] -= 1
        if wild_count == 0 or not _next_multiset(index, wild_count, wild_kind_count):
            break
    return keys, rows, info, used


@njit(cache=True)
def _wild_cap(scalars, size):
    cap = scalars[1]
    if scalars[2] > 0:
        alt = size // (scalars[2] + 1)
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
    wild_twos = scalars[0]
    min_size = scalars[3]
    need_suits, need_low, need_high, need_ace, need_ranks, need_naturals = _needs(
        required, wild_twos)
    keys = np.empty(32, dtype=np.int64)
    rows = np.empty((32, KIND_COUNT), dtype=np.int64)
    info = np.empty((32, 3), dtype=np.int64)
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
                        keys, rows, info, used = _emit_wilds(
                            hand, base, run_wilds, run_wild_count, wild_count, SHAPE_RUN, suit,
                            1 if wild_count == 0 else 0, keys, rows, info, used, required, prune, index,
                        )
                        if extra == 0 or not _next_combination(chosen, extra, optional_count):
                            break
    set_wilds = scratch[190:195]
    limits = scratch[195:199]
    natural = scratch[199:203]
    lower = scratch[203:207]
    for rank in range(RANK_COUNT):
        if not (scalars[4] >> rank) & 1 or (need_ranks and need_ranks != 1 << rank):
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
        if held + min(wilds_held, scalars[1]) < min_size:
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
                    keys, rows, info, used = _emit_wilds(
                        hand, base, set_wilds, set_wild_count, wild_count, SHAPE_SET, rank,
                        1 if wild_count == 0 else 0, keys, rows, info, used, required, prune, index,
                    )
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
    if scalars[5] and need_naturals == 0:
        total = 0
        for j in range(run_wild_count):
            total += hand[run_wilds[j]]
        for size in range(min_size, total + 1):
            base[:] = 0
            keys, rows, info, used = _emit_wilds(
                hand, base, run_wilds, run_wild_count, size, SHAPE_WILD_SET, RANK_COUNT, 0,
                keys, rows, info, used, required, prune, index,
            )
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


@njit(cache=True)
def _relevant(shape, home, wild_twos):
    """0/1 per kind: the cards that can join a meld of this shape and home."""
    mask = np.zeros(KIND_COUNT, dtype=np.int64)
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
        mask = _relevant(shapes[index], homes[index], scalars[0])
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
        blocked = (scalars[1] == 1 and scalars[2] == 0 and shapes[index] != SHAPE_WILD_SET
                   and _holds_foreign_wild(base, shapes[index], homes[index], scalars[0]))
        if blocked:
            naturals = 0
            for kind in range(KIND_COUNT):
                if mask[kind] and hand[kind] > 0 and not _always_wild(
                        kind, shapes[index], homes[index], scalars[0]):
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


# --- the shared dynamic programme ---------------------------------------------------


@njit(cache=True)
def _prepare(hand, meld_counts):
    """Sparse melds, their layer masks and memo-key deltas, the memo-key places.

    A meld's layer ``j`` mask has bit ``k`` (suited kind k < 52) when the meld
    holds more than ``j`` copies of k; it fits a remaining hand when each of
    its masks is inside the hand's and it needs no more jokers than are left.
    """
    meld_total = meld_counts.shape[0]
    order = decision_order()
    places = np.zeros(KIND_COUNT, dtype=np.int64)
    place = 1
    for kind in range(KIND_COUNT):
        if hand[kind] > 0:
            places[kind] = place
            place *= hand[kind] + 1
    widths = np.zeros(meld_total, dtype=np.int64)
    kinds = np.zeros((meld_total, MAX_WIDTH), dtype=np.int64)
    mults = np.zeros((meld_total, MAX_WIDTH), dtype=np.int64)
    layers = np.zeros((meld_total, 3), dtype=np.int64)
    jokers = np.zeros(meld_total, dtype=np.int64)
    key_deltas = np.zeros(meld_total, dtype=np.int64)
    present = np.empty(KIND_COUNT, dtype=np.int64)  # a meld only holds kinds of the hand
    present_count = 0
    for kind in range(KIND_COUNT):
        if hand[kind] > 0:
            present[present_count] = kind
            present_count += 1
    for m in range(meld_total):
        for p in range(present_count):
            kind = present[p]
            count = meld_counts[m, kind]
            if count > 0:
                kinds[m, widths[m]] = kind
                mults[m, widths[m]] = count
                widths[m] += 1
                key_deltas[m] += count * places[kind]
                if kind == JOKER:
                    jokers[m] = count
                else:
                    for j in range(min(count, 3)):
                        layers[m, j] |= np.int64(1) << kind
    return order, widths, kinds, mults, layers, jokers, key_deltas, places


@njit(cache=True)
def _hand_layers(remaining):
    layers = np.zeros(3, dtype=np.int64)
    for kind in range(JOKER):
        for j in range(min(remaining[kind], 3)):
            layers[j] |= np.int64(1) << kind
    return layers


@njit(cache=True)
def _set_count(remaining, hand_layers, kind, value):
    """Set one kind's remaining count, keeping the layer masks in step."""
    remaining[kind] = value
    if kind != JOKER:
        bit = np.int64(1) << kind
        for j in range(3):
            if value > j:
                hand_layers[j] |= bit
            else:
                hand_layers[j] &= ~bit


@njit(cache=True)
def _apply(remaining, hand_layers, m, widths, kinds, mults, sign):
    for j in range(widths[m]):
        kind = kinds[m, j]
        _set_count(remaining, hand_layers, kind, remaining[kind] - sign * mults[m, j])


@njit(cache=True)
def _next_fit(remaining, hand_layers, slot, high, slotted, layers, jokers):
    """First slot in [slot, high) whose meld (``slotted[slot]``) fits; -1 if none."""
    layer0 = hand_layers[0]
    layer1 = hand_layers[1]
    layer2 = hand_layers[2]
    joker_count = remaining[JOKER]
    for s in range(slot, high):
        m = slotted[s]
        if ((layers[m, 0] & ~layer0) == 0 and (layers[m, 1] & ~layer1) == 0
                and (layers[m, 2] & ~layer2) == 0 and jokers[m] <= joker_count):
            return s
    return -1


@njit(cache=True)
def _next_move(remaining, hand_layers, slot, high, single, depth, gained, stack, slotted,
               points, widths, kinds, mults, layers, jokers):
    """A reconstruction's next non-empty move at one stop: (advanced, slot, depth, gained).

    Walks the stop's multisets of ``slotted[slot:high]`` depth-first (the
    melds laid are ``stack[:depth]``, applied to ``remaining``); ``single``
    1 allows one meld at most (a group step), 0 repeats as the hand allows.
    """
    while True:
        found = -1
        if single == 0 or depth == 0:
            found = _next_fit(remaining, hand_layers, slot, high, slotted, layers, jokers)
        if found >= 0:
            m = slotted[found]
            _apply(remaining, hand_layers, m, widths, kinds, mults, 1)
            stack[depth] = found
            return True, found + single, depth + 1, gained + points[m]
        if depth == 0:
            return False, slot, depth, gained
        depth -= 1
        found = stack[depth]
        m = slotted[found]
        _apply(remaining, hand_layers, m, widths, kinds, mults, -1)
        gained -= points[m]
        slot = found + 1


@njit(cache=True)
def _memo_new(bits, budget=INT64_MAX):
    """An open-addressing (int64, int64) -> int64 table: (memo, meta).

    ``meta`` is [entries, mask, budget, exhausted, moves, move limit]: a best() search
    enters no new sub-problem once ``entries`` reaches ``budget`` and then sets
    ``exhausted`` (:func:`_out_of_budget`); count() stops so too, and refuses the
    number. A priced best() search (best_priced) may also search a stored state
    again (an upper bound above its new threshold), so it counts the moves it
    tries and stops every frame once they pass the move limit.

    Row ``[key, key2, value]``, so that a probe reads one cache line. The
    first key word is >= 0 (memo keys are), so -1 marks a free slot; the
    second is a small extra word (0 in _solve; the kept count and/or the step
    in the packed and step programmes). numba's
    typed Dict costs more per call and loses more to cold caches on small hands.
    """
    size = 1 << bits
    return (np.full((size, 3), -1, dtype=np.int64),
            np.array([0, size - 1, budget, 0, 0, INT64_MAX], dtype=np.int64))


@njit(cache=True)
def _out_of_budget(meta):
    """Whether the memo is full to its budget (marking the search as stopped)."""
    if meta[0] >= meta[2]:
        meta[3] = 1
        return True
    return False


@njit(cache=True)
def _memo_slot(memo, mask, key, key2):
    """Slot of ``(key, key2)``, or of the free slot where it would go (linear probing)."""
    slot = (((key ^ (key2 * 0x5BD1E995)) * MEMO_MULTIPLIER) >> 29) & mask
    while memo[slot, 0] != -1 and (memo[slot, 0] != key or memo[slot, 1] != key2):
        slot = (slot + 1) & mask
    return slot


@njit(cache=True)
def _memo_put(memo, meta, key, key2, value):
    """Store (key, key2) -> value; returns the (possibly grown) table."""
    slot = _memo_slot(memo, meta[1], key, key2)
    if memo[slot, 0] == -1:
        meta[0] += 1
    memo[slot, 0] = key
    memo[slot, 1] = key2
    memo[slot, 2] = value
    if meta[0] * 2 > meta[1] + 1:
        memo = _packed_grow(memo, meta)
    return memo


@njit(cache=True)
def _set_aside(remaining, hand_layers, kind, state_key, bound, places, shares):
    """Decide ``kind``: its copies leave the remaining hand; returns the new key and bound."""
    count = remaining[kind]
    _set_count(remaining, hand_layers, kind, 0)
    return state_key - count * places[kind], bound - count * shares[kind]


@njit(cache=True)
def _undo_dead(remaining, hand_layers, undo_kinds, undo_counts, undo_top, mark, places, shares):
    """Give back the dead kinds set aside above ``mark``; returns the key and bound changes."""
    key_change = 0
    bound_change = 0
    while undo_top > mark:
        undo_top -= 1
        dead = undo_kinds[undo_top]
        _set_count(remaining, hand_layers, dead, undo_counts[undo_top])
        key_change += undo_counts[undo_top] * places[dead]
        bound_change += undo_counts[undo_top] * shares[dead]
    return key_change, bound_change


MODE_COUNT = 0
MODE_BEST = 1


@njit(cache=True)
def _shares(hand, meld_counts, points, widths, kinds, mults):
    """Per-kind upper bound on the points one card can bring, scaled by SHARE_SCALE.

    A lay-down's points are the sum over its cards of ``points[m] / size(m)``
    of the meld ``m`` holding the card, so the largest such share over the
    melds that hold a kind bounds that card's contribution. Summed over the
    remaining cards it bounds any lay-down of them (0 for cards in no meld).
    """
    shares = np.zeros(KIND_COUNT, dtype=np.int64)
    for m in range(meld_counts.shape[0]):
        size = 0
        for j in range(widths[m]):
            size += mults[m, j]
        share = -((-points[m] * SHARE_SCALE) // size)  # ceiling
        for j in range(widths[m]):
            if share > shares[kinds[m, j]]:
                shares[kinds[m, j]] = share
    meld_shares = np.zeros(meld_counts.shape[0], dtype=np.int64)
    for m in range(meld_counts.shape[0]):
        for j in range(widths[m]):
            meld_shares[m] += mults[m, j] * shares[kinds[m, j]]
    return shares, meld_shares


# --- the packed programme: the whole remaining hand in one int64 ------------------
#
# When the hand's kinds fit, each kind present gets a bit field of the state
# (in decision order, low bits first): its count in ``bit_length(hand[kind])``
# bits and a guard bit above. A meld is packed the same way; it fits a state
# when ``((state | guards) - meld) & guards == guards`` (a field too small
# borrows its guard). A kind is set aside by masking its field, and the state
# itself is the memo key. Everything per call lives in one workspace, with no
# M x 53 scan beyond the kinds the hand holds.

PACK_BITS = 63          # the packed state must stay non-negative
DEBRUIJN = 0x03F79D71B4CB0A89  # a de Bruijn sequence: the index of a state's lowest set bit
_DEBRUIJN_BITS = np.zeros(64, dtype=np.int64)
for _bit in range(64):
    _DEBRUIJN_BITS[((DEBRUIJN << _bit) & ((1 << 64) - 1)) >> 58] = _bit
DEBRUIJN_BITS = _DEBRUIJN_BITS
DEBRUIJN_SIGNED = DEBRUIJN - (1 << 64) if DEBRUIJN >= (1 << 63) else DEBRUIJN
# rows of the packed tables: per local kind (int64[PK_ROWS, L + 1]) ...
PK_SHIFT, PK_LOW, PK_FIELD, PK_SHARE, PK_ROWS = 0, 1, 2, 3, 4
# ... and per step meld (int64[PS_ROWS, M'], in step order)
PS_MELD, PS_PACKED, PS_POINTS, PS_SHARE, PS_ROWS = 0, 1, 2, 3, 4
# frame columns of both solvers (FR_STATE, FR_BOUND: the packed one's; FR_SAVED,
# FR_UNDO: the counts one's)
FR_POS, FR_KEY2, FR_KEPT, FR_SLOT, FR_DEPTH, FR_GAINED, FR_ACC, FR_EMPTY = 0, 1, 2, 3, 4, 5, 6, 7
FR_STATE, FR_BOUND, FR_KEY, FR_SAVED, FR_UNDO, FR_ALPHA, FR_COLS = 8, 9, 10, 11, 12, 13, 14


@njit(cache=True)
def _bound_of(state, kinds):
    bound = 0
    for i in range(kinds.shape[1] - 1):
        bound += ((state >> kinds[PK_SHIFT, i]) & kinds[PK_LOW, i]) * kinds[PK_SHARE, i]
    return bound


@njit(cache=True)
def _packed_fit(state, guards, slot, high, slots):
    """First slot in [slot, high) whose meld fits ``state``; -1 if none."""
    lifted = state | guards
    for s in range(slot, high):
        if ((lifted - slots[PS_PACKED, s]) & guards) == guards:
            return s
    return -1


@njit(cache=True)
def _packed_next_move(cur, guards, slot, high, single, depth, gained, stack, slots):
    """_next_move on a packed state: (advanced, cur, slot, depth, gained)."""
    while True:
        found = -1
        if single == 0 or depth == 0:
            found = _packed_fit(cur, guards, slot, high, slots)
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
def _packed_grow(memo, meta):
    """The memo table (see _memo_new) at twice the size."""
    size = (meta[1] + 1) * 2
    grown = np.full((size, 3), -1, dtype=np.int64)
    meta[1] = size - 1
    for i in range(memo.shape[0]):
        key = memo[i, 0]
        if key != -1:
            key2 = memo[i, 1]
            slot = (((key ^ (key2 * 0x5BD1E995)) * MEMO_MULTIPLIER) >> 29) & meta[1]
            while grown[slot, 0] != -1:
                slot = (slot + 1) & meta[1]
            grown[slot, 0] = key
            grown[slot, 1] = key2
            grown[slot, 2] = memo[i, 2]
    return grown


@njit(cache=True)
def _packed_memo(cards, budget=INT64_MAX):
    """A memo sized from the hand (small hands meet few states); meta as in _memo_new."""
    bits = 6 if cards <= 12 else (7 if cards <= 16 else MEMO_BITS + (2 if cards > 24 else 0))
    return (np.full((1 << bits, 3), -1, dtype=np.int64),
            np.array([0, (1 << bits) - 1, budget, 0, 0, INT64_MAX], dtype=np.int64))


# --- the programme: a fixed sequence of steps (partition_ref._Problem.steps) -------
#
# ``count`` and ``best`` walk the reference's fixed sequence of steps: for each
# decision-order position, one *group step* per group anchored there (groups in
# ascending number), then the position's *kind step*. A kind step lays a multiset
# of the ungrouped melds whose first card is its kind and sets the kind aside; a
# group step lays at most one of the group's melds (catalogue order). Without
# groups the steps are the kind steps alone: the first-card programme. Steps are
# numbered over the kinds the hand holds only (the others are never held), which
# keeps the order and so the values and the lay-down reported. The memo key is
# (remaining hand, kept, step). On entry a state skips the steps with no choice
# (a kind not held, a group none of whose melds fits) and sets aside a held kind
# none of whose step's melds fits (its only move: the empty multiset), so keys
# differ from the reference's but values and reconstruction do not.
# step table rows: int64[ST_ROWS, steps]
ST_KIND, ST_LO, ST_HI, ST_SINGLE, ST_FIELD, ST_SHIFT, ST_LOW, ST_SHARE, ST_MAXLEFT, ST_ROWS = (
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9)


@njit(cache=True, specialize=True)  # its mode folds into the search
def _programme(hand, meld_counts, points, groups, max_left, mode, prices, slack, live):
    """The steps of the programme and, when the hand fits one int64, their packed form.

    Returns (table int64[ST_ROWS, S], step_melds int64[M'], kinds, melds, jump,
    guards, state). ``step_melds[table[ST_LO, s]:table[ST_HI, s]]`` are step
    s's melds in catalogue order; ST_KIND is -1 for a group step; ST_MAXLEFT is
    its kind's limit (a large number for a group step). ``live`` (int64[M], or
    empty: every meld) leaves out the melds marked 0; the steps and their order
    stay those of all the melds (a group's step is anchored by all its melds),
    so a search over the live melds meets them in the same order. Steps, anchors and
    first cards are counted over the kinds the hand holds, in decision order
    (their *local* numbers): kind step of local kind p after the group steps
    anchored at p.

    Packed (``kinds`` has columns; none when the hand needs more than
    PACK_BITS bits): ``kinds`` int64[PK_ROWS, L + 1] the local kinds' fields,
    ``melds`` int64[PS_ROWS, M'] the step melds' packed forms in step order,
    ``table``'s packed rows filled in, and ``jump`` to reach a state's next
    step at once: ``jump[:64]`` the kind step of each state bit's kind (the
    lowest set bit is the first kind still held), ``jump[64 + s]`` the first
    group step at or after step s. One pass over the melds serves both, as
    small hands pay this on every call.
    """
    meld_total = meld_counts.shape[0]
    order = decision_order()
    best_mode = mode == MODE_BEST
    present = np.empty(KIND_COUNT, dtype=np.int64)  # local kind -> kind
    local = 0
    bits = 0
    for position in range(KIND_COUNT):
        count = hand[order[position]]
        if count > 0:
            present[local] = order[position]
            local += 1
            width = 1
            while (count >> width) > 0:
                width += 1
            bits += width + 1
    packed = bits <= PACK_BITS
    kinds = np.zeros((PK_ROWS, local + 1 if packed else 0), dtype=np.int64)
    guards = 0
    state = 0
    if packed:
        shift = 0
        for p in range(local):
            count = hand[present[p]]
            width = 1
            while (count >> width) > 0:
                width += 1
            kinds[PK_SHIFT, p] = shift
            kinds[PK_LOW, p] = (np.int64(1) << width) - 1
            kinds[PK_FIELD, p] = ((np.int64(1) << (width + 1)) - 1) << shift
            guards |= np.int64(1) << (shift + width)
            state |= count << shift
            shift += width + 1
    # one pass over the melds: first local kind, packed form, size and (kind, count) pairs
    group_total = 0
    for m in range(meld_total):
        if groups[m] + 1 > group_total:
            group_total = groups[m] + 1
    shares = best_mode and packed
    work = np.zeros(4 * meld_total + 1 + (2 * meld_total * MAX_WIDTH if shares else 0)
                    + 2 * group_total, dtype=np.int64)
    first = work[:meld_total]
    form = work[meld_total:2 * meld_total]
    sizes = work[2 * meld_total:3 * meld_total]
    starts = work[3 * meld_total:4 * meld_total + 1]
    pair_end = 4 * meld_total + 1 + (meld_total * MAX_WIDTH if shares else 0)
    pair_kind = work[4 * meld_total + 1:pair_end]
    pair_count = work[pair_end:pair_end + (meld_total * MAX_WIDTH if shares else 0)]
    anchors = work[work.shape[0] - 2 * group_total:work.shape[0] - group_total]
    group_step = work[work.shape[0] - group_total:]
    anchors[:] = local
    pairs = 0
    for m in range(meld_total):
        first[m] = local  # an empty meld: never laid
        for p in range(local):
            count = meld_counts[m, present[p]]
            if count > 0:
                if first[m] == local:
                    first[m] = p
                    if not packed:
                        break
                form[m] += count << kinds[PK_SHIFT, p]
                if shares:
                    sizes[m] += count
                    pair_kind[pairs] = p
                    pair_count[pairs] = count
                    pairs += 1
        starts[m + 1] = pairs
        group = groups[m]
        if group >= 0 and first[m] < anchors[group]:
            anchors[group] = first[m]
    # step numbers: per local kind, the groups anchored there, then its kind step
    kind_step = np.empty(local + 1, dtype=np.int64)
    step_total = 0
    for p in range(local):
        for group in range(group_total):
            if anchors[group] == p:
                group_step[group] = step_total
                step_total += 1
        kind_step[p] = step_total
        step_total += 1
    table = np.zeros((ST_ROWS, step_total), dtype=np.int64)
    for group in range(group_total):
        if anchors[group] < local:
            s = group_step[group]
            table[ST_KIND, s] = -1
            table[ST_SINGLE, s] = 1
            table[ST_MAXLEFT, s] = 1 << 40
    for p in range(local):
        table[ST_KIND, kind_step[p]] = present[p]
        table[ST_MAXLEFT, kind_step[p]] = max_left[present[p]]
    for m in range(meld_total):  # step of each meld, in ``first``'s place
        if first[m] < local and (live.shape[0] == 0 or live[m] != 0):
            first[m] = group_step[groups[m]] if groups[m] >= 0 else kind_step[first[m]]
            table[ST_HI, first[m]] += 1
        else:
            first[m] = -1
    total = 0
    for s in range(step_total):
        size = table[ST_HI, s]
        table[ST_LO, s] = total
        table[ST_HI, s] = total
        total += size
    step_melds = np.empty(total, dtype=np.int64)
    for m in range(meld_total):
        s = first[m]
        if s >= 0:
            step_melds[table[ST_HI, s]] = m
            table[ST_HI, s] += 1
    jump = np.full(64 + step_total + 1, step_total, dtype=np.int64)
    melds = np.zeros((PS_ROWS, total if packed else 0), dtype=np.int64)
    # the group steps' slack of a priced bound: tail[s] sums it over the groups decided at s or later
    tail = np.zeros(step_total + 1, dtype=np.int64)
    if best_mode and slack.shape[0] > 0:
        for group in range(group_total):
            if anchors[group] < local:
                for s in range(group_step[group] + 1):
                    tail[s] += slack[group]
    if not packed:
        return table, step_melds, kinds, melds, jump, guards, state, tail
    for j in range(total):
        m = step_melds[j]
        melds[PS_MELD, j] = m
        melds[PS_PACKED, j] = form[m]
        melds[PS_POINTS, j] = points[m]
    if shares:
        # per-card point shares (see _shares), over local kinds; or the caller's prices
        if prices.shape[0] == KIND_COUNT:
            for p in range(local):
                kinds[PK_SHARE, p] = prices[present[p]]
        for j in range(total if prices.shape[0] != KIND_COUNT else 0):
            m = step_melds[j]
            share = -((-points[m] * SHARE_SCALE) // sizes[m])  # ceiling
            for i in range(starts[m], starts[m + 1]):
                if share > kinds[PK_SHARE, pair_kind[i]]:
                    kinds[PK_SHARE, pair_kind[i]] = share
        for j in range(total):
            m = step_melds[j]
            value = 0
            for i in range(starts[m], starts[m + 1]):
                value += pair_count[i] * kinds[PK_SHARE, pair_kind[i]]
            melds[PS_SHARE, j] = value
    for p in range(local):
        s = kind_step[p]
        table[ST_FIELD, s] = kinds[PK_FIELD, p]
        table[ST_SHIFT, s] = kinds[PK_SHIFT, p]
        table[ST_LOW, s] = kinds[PK_LOW, p]
        table[ST_SHARE, s] = kinds[PK_SHARE, p]
        b = kinds[PK_SHIFT, p]
        while (kinds[PK_FIELD, p] >> b) & 1:
            jump[b] = s
            b += 1
    for s in range(step_total - 1, -1, -1):
        jump[64 + s] = s if table[ST_KIND, s] < 0 else jump[64 + s + 1]
    return table, step_melds, kinds, melds, jump, guards, state, tail


@njit(cache=True, inline="always")
def _leaf(best_mode, kept, keep):
    """Value of a state with no step left: one lay-down, or no points (NEG_INF: too few kept)."""
    if not best_mode:
        return 1
    return 0 if kept >= keep else NEG_INF


@njit(cache=True, inline="always")
def _known(memo, meta, key, key2):
    """The memo's value of (key, key2); NEG_INF past the budget (not searched); else NO_VALUE."""
    slot = _memo_slot(memo, meta[1], key, key2)
    if memo[slot, 0] == key:
        return memo[slot, 2]
    if _out_of_budget(meta):
        return NEG_INF
    return NO_VALUE


@njit(cache=True, inline="always")
def _known_best(memo, meta, key, key2, alpha):
    """best()'s memo look-up against the threshold ``alpha`` (a value at or below it
    no longer matters to the caller): the value, or NO_VALUE to search the state.

    A stored word is value * 2 + 1 for an upper bound (a search that failed low),
    value * 2 for an exact value; an upper bound above ``alpha`` is searched again.
    """
    slot = _memo_slot(memo, meta[1], key, key2)
    if memo[slot, 0] == key:
        word = memo[slot, 2]
        if (word & 1) == 0 or (word >> 1) <= alpha:
            return word >> 1
        if meta[3] != 0:
            return NEG_INF
    elif _out_of_budget(meta):
        return NEG_INF
    return NO_VALUE


@njit(cache=True, inline="always")
def _close_best(frames, top):
    """A best() frame's value and its memo word: exact above its threshold, else the threshold
    as an upper bound (fail hard)."""
    value = frames[top, FR_ACC]
    alpha = frames[top, FR_ALPHA]
    if value > alpha:
        return value, value * 2
    return alpha, alpha * 2 + 1


@njit(cache=True, inline="always")
def _open(frames, top, step, key, key2, kept, slot, best_mode):
    """Frame ``top`` starts on ``step``: no move taken, nothing found yet."""
    frames[top, FR_POS] = step
    frames[top, FR_KEY] = key
    frames[top, FR_KEY2] = key2
    frames[top, FR_KEPT] = kept
    frames[top, FR_SLOT] = slot
    frames[top, FR_DEPTH] = 0
    frames[top, FR_GAINED] = 0
    frames[top, FR_ACC] = NEG_INF if best_mode else 0
    frames[top, FR_EMPTY] = 0


@njit(cache=True, inline="always")
def _take(frames, top, value, best_mode, overflow):
    """Frame ``top`` takes in a child's ``value``: the best so far, or the count's sum."""
    if best_mode:
        if value > NEG_INF and value + frames[top, FR_GAINED] > frames[top, FR_ACC]:
            frames[top, FR_ACC] = value + frames[top, FR_GAINED]
    elif value > INT64_MAX - frames[top, FR_ACC]:
        overflow[0] = 1
        frames[top, FR_ACC] = INT64_MAX
    else:
        frames[top, FR_ACC] += value


@njit(cache=True)
def _next_step(state, jump):
    """The kind step of the first kind ``state`` (> 0) still holds."""
    low = state & -state
    return jump[DEBRUIJN_BITS[((low * DEBRUIJN_SIGNED) >> 58) & 63]]


@njit(cache=True, specialize=True)  # its mode folds into the search
def _packed_solve(state, step, kept, keep, mode, table, melds, jump, kinds, guards, memo, meta,
                  overflow, tail, alpha, leave):
    """The programme's value from (state, step, kept) on the packed state.

    mode 0 counts lay-downs (saturating, ``overflow[0]`` set on overflow);
    mode 1 returns the most points leaving ``keep`` cards and at most
    ``max_left`` copies of each kind (NEG_INF if none). No recursion (numba
    cannot reload recursive functions from its cache, numba issue #6061): one
    frame per step entered, each recording the state with its chosen melds
    applied, so a returning child needs nothing undone. In mode 1 the
    non-empty moves come first, the empty move last, and the search is a
    branch and bound: each frame has a threshold ``alpha`` (what its value must
    beat to matter to the root: the caller's floor, then each ancestor's best
    so far less the points gained below it), a child whose bound cannot beat
    the frame's bar (its best so far or its threshold) is skipped, and a frame
    that ends at or below its threshold returns the threshold and stores it in
    the memo as an upper bound (fail hard; _known_best, _close_best). Values
    above a frame's threshold are exact. Memo keys are (state, step << 7 | kept).
    """
    step_total = table.shape[1]
    frames = np.empty((step_total + 1, FR_COLS), dtype=np.int64)
    stack = np.empty((step_total + 1, MAX_DEPTH), dtype=np.int64)
    best_mode = mode == MODE_BEST
    bound = _bound_of(state, kinds) if best_mode else 0
    top = -1
    value = 0
    entering = True
    while True:
        if entering:
            entering = False
            feasible = True
            while True:
                if state == 0:
                    step = step_total
                    break
                step = min(_next_step(state, jump), jump[64 + step])
                if _packed_fit(state, guards, table[ST_LO, step], table[ST_HI, step],
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
            if not feasible:
                value = NEG_INF
            elif step == step_total:
                value = _leaf(best_mode, kept, keep)
            else:
                key2 = (step << 7) | kept
                if best_mode:
                    value = _known_best(memo, meta, state, key2, alpha)
                else:
                    value = _known(memo, meta, state, key2)
                if value == NO_VALUE:
                    top += 1
                    _open(frames, top, step, state, key2, kept, table[ST_LO, step], best_mode)
                    frames[top, FR_ALPHA] = alpha
                    frames[top, FR_STATE] = state
                    frames[top, FR_BOUND] = bound
            if value != NO_VALUE and top < 0:
                return value, memo
        if value != NO_VALUE:
            _take(frames, top, value, best_mode, overflow)  # a child's value
        value = 0
        here = frames[top, FR_POS]
        field = table[ST_FIELD, here]
        shift = table[ST_SHIFT, here]
        low = table[ST_LOW, here]
        share = table[ST_SHARE, here]
        max_left = table[ST_MAXLEFT, here]
        single = table[ST_SINGLE, here]
        high = table[ST_HI, here]
        cur = frames[top, FR_STATE]
        cur_bound = frames[top, FR_BOUND]
        # advance to the next non-empty move whose child may still matter
        while True:
            if best_mode and meta[3] != 0:  # stopped: the frame ends with what it has
                frames[top, FR_EMPTY] = 1
                break
            found = _packed_fit(cur, guards, frames[top, FR_SLOT], high, melds)
            if found >= 0:
                meta[4] += 1
                if meta[4] > meta[5]:
                    meta[3] = 1
                cur -= melds[PS_PACKED, found]
                cur_bound -= melds[PS_SHARE, found]
                frames[top, FR_GAINED] += melds[PS_POINTS, found]
                stack[top, frames[top, FR_DEPTH]] = found
                frames[top, FR_DEPTH] += 1
                frames[top, FR_SLOT] = high if single else found  # a group step: one meld
                saved = (cur >> shift) & low
                if saved > max_left:
                    continue  # too many copies of the kind stay; deeper moves use more
                bar = max(frames[top, FR_ACC], frames[top, FR_ALPHA])
                if (best_mode and bar > NEG_INF and frames[top, FR_GAINED] * SHARE_SCALE
                        + cur_bound - saved * share + tail[here + 1]
                        - (keep - min(keep, frames[top, FR_KEPT] + saved)) * leave
                        <= bar * SHARE_SCALE):
                    continue  # this child cannot beat the frame's bar; deeper moves may
                alpha = bar - frames[top, FR_GAINED]
                frames[top, FR_STATE] = cur
                frames[top, FR_BOUND] = cur_bound
                state = cur & ~field
                bound = cur_bound - saved * share
                kept = min(keep, frames[top, FR_KEPT] + saved)
                step = here + 1
                entering = True
                break
            if frames[top, FR_DEPTH] == 0:
                break
            frames[top, FR_DEPTH] -= 1
            found = stack[top, frames[top, FR_DEPTH]]
            cur += melds[PS_PACKED, found]
            cur_bound += melds[PS_SHARE, found]
            frames[top, FR_GAINED] -= melds[PS_POINTS, found]
            frames[top, FR_SLOT] = found + 1
        if entering:
            continue
        frames[top, FR_STATE] = cur
        frames[top, FR_BOUND] = cur_bound
        if frames[top, FR_EMPTY] == 0:
            # the empty move last, once the others set a high bar (a count's order is free)
            frames[top, FR_EMPTY] = 1
            saved = (cur >> shift) & low
            bar = max(frames[top, FR_ACC], frames[top, FR_ALPHA])
            child_bound = cur_bound - saved * share
            short = keep - min(keep, frames[top, FR_KEPT] + saved)  # cards still to keep
            if saved <= max_left and not (best_mode and bar > NEG_INF and child_bound
                                          + tail[here + 1] - short * leave
                                          <= bar * SHARE_SCALE):
                alpha = bar
                state = cur & ~field
                bound = child_bound
                kept = min(keep, frames[top, FR_KEPT] + saved)
                step = here + 1
                entering = True
                continue
        # frame finished: store its value, return to the parent
        value = frames[top, FR_ACC]
        word = value
        if best_mode:
            value, word = _close_best(frames, top)
        memo = _memo_put(memo, meta, frames[top, FR_KEY], frames[top, FR_KEY2], word)
        top -= 1
        if top < 0:
            return value, memo


@njit(cache=True)
def _rebuild_allowance(meta, budget, move_limit):
    """A priced search's rebuild re-searches sub-problems against new thresholds: it gets
    a fresh move allowance and room for ``budget`` more memo entries, and if it still
    stops, the caller answers the floor (not proven) instead of failing."""
    if move_limit < INT64_MAX:
        meta[4] = 0
        meta[2] += budget


@njit(cache=True, inline="always")
def _packed_best(state, keep, table, melds, jump, kinds, guards, cards, budget, tail, floor,
                 move_limit, leave):
    """best() on the packed state: (points, sorted catalogue indices, exact)."""
    memo, meta = _packed_memo(cards, budget)
    meta[5] = move_limit
    overflow = np.zeros(1, dtype=np.int64)
    target, memo = _packed_solve(state, np.int64(0), np.int64(0), keep, MODE_BEST, table,
                                 melds, jump, kinds, guards, memo, meta, overflow, tail, floor,
                                 leave)
    picked = np.empty(cards + 1, dtype=np.int64)
    if (floor > NEG_INF and target <= floor) or (move_limit < INT64_MAX and meta[3] != 0):
        # nothing above the floor (``exact``: proven so), or stopped
        return np.int64(NO_VALUE), picked[:0], meta[3] == 0
    if target == NEG_INF:
        return target, picked[:0], meta[3] == 0
    _rebuild_allowance(meta, budget, move_limit)
    result = target
    picked_count = 0
    kept = 0
    step = 0
    step_total = table.shape[1]
    stack = np.empty(MAX_DEPTH, dtype=np.int64)
    while True:
        # the steps with one move or none, as on entry to a state
        while step < step_total and state != 0:
            field = table[ST_FIELD, step]
            if field != 0 and (state & field) == 0:
                step += 1
                continue
            if _packed_fit(state, guards, table[ST_LO, step], table[ST_HI, step],
                           melds) >= 0:
                break
            if field != 0:
                kept = min(keep, kept + ((state >> table[ST_SHIFT, step]) & table[ST_LOW, step]))
                state &= ~field
            step += 1
        if step == step_total or state == 0:
            break
        field = table[ST_FIELD, step]
        shift = table[ST_SHIFT, step]
        low = table[ST_LOW, step]
        single = table[ST_SINGLE, step]
        high = table[ST_HI, step]
        slot = table[ST_LO, step]
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
                if (gained * SHARE_SCALE + _bound_of(child, kinds) + tail[step + 1]
                        - (keep - next_kept) * leave >= target * SHARE_SCALE):
                    sub, memo = _packed_solve(child, step + 1, next_kept, keep, MODE_BEST,
                                              table, melds, jump, kinds, guards, memo, meta,
                                              overflow, tail, target - gained - 1, leave)
                    if sub > NEG_INF and sub + gained == target:
                        matched = True
                        state = child
                        kept = next_kept
                        target = sub
                        break
            advanced, cur, slot, depth, gained = _packed_next_move(
                cur, guards, slot, high, single, depth, gained, stack, melds)
            if not advanced:
                break
        if not matched:
            if move_limit < INT64_MAX and meta[3] != 0:
                return np.int64(NO_VALUE), picked[:0], False  # the rebuild stopped
            raise RuntimeError("best lay-down reconstruction failed")  # exact values match
        for j in range(depth):
            picked[picked_count] = melds[PS_MELD, stack[j]]
            picked_count += 1
        step += 1
    return result, np.sort(picked[:picked_count]), meta[3] == 0


@njit(cache=True, specialize=True)  # its mode folds into the search
def _solve(remaining, step, kept, keep, mode, points, max_left, prepared, table, step_melds,
           shares, meld_shares, memo, memo_meta, overflow, tail, alpha, meld_counts, groups,
           cut_starts, cut_melds, node_lp, leave, cuts):
    """_packed_solve on a counts vector (hands that do not fit one int64).

    Same modes, values, thresholds and move order; ``remaining`` is restored on
    return, the kinds set aside on entry (a held kind none of whose step's melds
    fits) go on an undo stack. Memo keys are (mixed-radix hand, step << 7 | kept).
    A priced search (``node_lp`` = [programmes left, from this many cards, once
    this many moves are tried]) also
    solves the linear programme of a new sub-problem this large, over the melds
    of its steps that fit (kernels.lp_bound.subset_bound), and fails it low at
    once when that bound cannot beat its threshold. ``cuts`` (:func:`_open_cuts`)
    drops a cut's slack from the tail once one of its melds is laid.
    """
    (order, widths, kinds, mults, layers, jokers, key_deltas, places) = prepared
    closed = cuts[0]
    best_mode = mode == MODE_BEST
    step_total = table.shape[1]
    hand_layers = _hand_layers(remaining)
    state_key = 0
    bound = 0
    for kind in range(KIND_COUNT):
        state_key += remaining[kind] * places[kind]
        bound += remaining[kind] * shares[kind]
    f_int = np.zeros((step_total + 1, FR_COLS), dtype=np.int64)
    f_stack = np.zeros((step_total + 1, MAX_DEPTH), dtype=np.int64)
    undo_kinds = np.zeros(KIND_COUNT + 1, dtype=np.int64)
    undo_counts = np.zeros(KIND_COUNT + 1, dtype=np.int64)
    undo_top = 0
    top = -1
    value = 0
    entering = True
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
                if _next_fit(remaining, hand_layers, table[ST_LO, step], table[ST_HI, step],
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
                    state_key, bound = _set_aside(remaining, hand_layers, kind, state_key,
                                                  bound, places, shares)
                step += 1
            if not feasible:
                value = NEG_INF
            elif step == step_total:
                value = _leaf(best_mode, kept, keep)
            else:
                key2 = (step << 7) | kept
                if best_mode:
                    value = _known_best(memo, memo_meta, state_key, key2, alpha)
                else:
                    value = _known(memo, memo_meta, state_key, key2)
                if (value == NO_VALUE and node_lp[0] > 0 and alpha > NEG_INF
                        and remaining.sum() >= node_lp[1] and memo_meta[4] >= node_lp[2]):
                    # a large sub-problem: its own linear programme may rule it out
                    node_lp[0] -= 1
                    # the melds of this step and later ones (their groups all open) that fit
                    subset = fitting(meld_counts, groups, remaining,
                                     step_melds[table[ST_LO, step]:], 0)
                    if subset_bound(remaining, meld_counts, points, groups, cut_starts,
                                    cut_melds, subset, keep - kept,
                                    SHARE_SCALE) <= alpha * SHARE_SCALE:
                        memo = _memo_put(memo, memo_meta, state_key, key2, alpha * 2 + 1)
                        value = alpha
                if value == NO_VALUE:
                    top += 1
                    _open(f_int, top, step, state_key, key2, kept, table[ST_LO, step], best_mode)
                    f_int[top, FR_ALPHA] = alpha
                    f_int[top, FR_UNDO] = mark
            if value != NO_VALUE:
                key_change, bound_change = _undo_dead(
                    remaining, hand_layers, undo_kinds, undo_counts, undo_top, mark,
                    places, shares)
                undo_top = mark
                state_key += key_change
                bound += bound_change
                if top < 0:
                    return value, memo
        here = f_int[top, FR_POS]
        kind = table[ST_KIND, here]
        if value != NO_VALUE:
            # a child returned ``value`` to frame ``top``
            if kind >= 0:
                saved = f_int[top, FR_SAVED]
                _set_count(remaining, hand_layers, kind, saved)
                state_key += saved * places[kind]
                bound += saved * shares[kind]
            _take(f_int, top, value, best_mode, overflow)
        value = 0
        single = table[ST_SINGLE, here]
        high = table[ST_HI, here]
        # advance to the next non-empty move whose child may still matter
        while True:
            if best_mode and memo_meta[3] != 0:  # stopped: undo the moves, end the frame
                while f_int[top, FR_DEPTH] > 0:
                    f_int[top, FR_DEPTH] -= 1
                    m = step_melds[f_stack[top, f_int[top, FR_DEPTH]]]
                    _apply(remaining, hand_layers, m, widths, kinds, mults, -1)
                    _close_cuts(cuts, m, here, -1)
                    state_key += key_deltas[m]
                    bound += meld_shares[m]
                    f_int[top, FR_GAINED] -= points[m]
                f_int[top, FR_EMPTY] = 1
                break
            found = _next_fit(remaining, hand_layers, f_int[top, FR_SLOT], high, step_melds,
                              layers, jokers)
            if found >= 0:
                memo_meta[4] += 1
                if memo_meta[4] > memo_meta[5]:
                    memo_meta[3] = 1
                m = step_melds[found]
                _apply(remaining, hand_layers, m, widths, kinds, mults, 1)
                _close_cuts(cuts, m, here, 1)
                state_key -= key_deltas[m]
                bound -= meld_shares[m]
                f_int[top, FR_GAINED] += points[m]
                f_stack[top, f_int[top, FR_DEPTH]] = found
                f_int[top, FR_DEPTH] += 1
                f_int[top, FR_SLOT] = high if single else found  # a group step: one meld
                saved = 0
                child_bound = bound
                if kind >= 0:
                    saved = remaining[kind]
                    if saved > max_left[kind]:
                        continue  # too many copies of the kind stay; deeper moves use more
                    child_bound = bound - saved * shares[kind]
                bar = max(f_int[top, FR_ACC], f_int[top, FR_ALPHA])
                if (best_mode and bar > NEG_INF and f_int[top, FR_GAINED] * SHARE_SCALE
                        + child_bound + tail[here + 1] - closed[here + 1]
                        - (keep - min(keep, f_int[top, FR_KEPT] + saved)) * leave
                        <= bar * SHARE_SCALE):
                    continue  # this child cannot beat the frame's bar; deeper moves may
                alpha = bar - f_int[top, FR_GAINED]
                f_int[top, FR_SAVED] = saved
                if kind >= 0:
                    state_key, bound = _set_aside(remaining, hand_layers, kind, state_key,
                                                  bound, places, shares)
                step = here + 1
                kept = min(keep, f_int[top, FR_KEPT] + saved)
                entering = True
                break
            if f_int[top, FR_DEPTH] == 0:
                break
            f_int[top, FR_DEPTH] -= 1
            found = f_stack[top, f_int[top, FR_DEPTH]]
            m = step_melds[found]
            _apply(remaining, hand_layers, m, widths, kinds, mults, -1)
            _close_cuts(cuts, m, here, -1)
            state_key += key_deltas[m]
            bound += meld_shares[m]
            f_int[top, FR_GAINED] -= points[m]
            f_int[top, FR_SLOT] = found + 1
        if entering:
            continue
        if f_int[top, FR_EMPTY] == 0:
            # the empty move last, once the others set a high bar (a count's order is free)
            f_int[top, FR_EMPTY] = 1
            saved = 0
            child_bound = bound
            if kind >= 0:
                saved = remaining[kind]
                child_bound = bound - saved * shares[kind]
            bar = max(f_int[top, FR_ACC], f_int[top, FR_ALPHA])
            short = keep - min(keep, f_int[top, FR_KEPT] + saved)  # cards still to keep
            if (kind < 0 or saved <= max_left[kind]) and not (
                    best_mode and bar > NEG_INF
                    and child_bound + tail[here + 1] - closed[here + 1] - short * leave
                    <= bar * SHARE_SCALE):
                alpha = bar
                f_int[top, FR_SAVED] = saved
                if kind >= 0:
                    state_key, bound = _set_aside(remaining, hand_layers, kind, state_key,
                                                  bound, places, shares)
                step = here + 1
                kept = min(keep, f_int[top, FR_KEPT] + saved)
                entering = True
                continue
        # frame finished: undo the kinds set aside on entry, return to the parent
        value = f_int[top, FR_ACC]
        word = value
        if best_mode:
            value, word = _close_best(f_int, top)
        memo = _memo_put(memo, memo_meta, f_int[top, FR_KEY], f_int[top, FR_KEY2], word)
        mark = f_int[top, FR_UNDO]
        key_change, bound_change = _undo_dead(
            remaining, hand_layers, undo_kinds, undo_counts, undo_top, mark, places, shares)
        undo_top = mark
        state_key += key_change
        bound += bound_change
        top -= 1
        if top < 0:
            return value, memo


@njit(cache=True)
def count(hand, meld_counts, budget=COUNT_BUDGET):
    """(number of lay-downs, overflow flag, exhausted flag). Past ``budget`` memo entries
    the search stops (a sub-problem not yet solved is not searched) and ``exhausted`` is
    set: the number is then meaningless and the caller refuses it."""
    meld_total = meld_counts.shape[0]
    fixed = np.empty(2 * meld_total, dtype=np.int64)
    points = fixed[:meld_total]  # counting: no points, no groups
    points[:] = 0
    groups = fixed[meld_total:]
    groups[:] = -1
    table, step_melds, kinds, melds, jump, guards, state, tail = _programme(
        hand, meld_counts, points, groups, hand, MODE_COUNT, fixed[:0], fixed[:0], fixed[:0])
    overflow = np.zeros(1, dtype=np.int64)
    if kinds.shape[1] > 0:
        memo, meta = _packed_memo(hand.sum(), budget)
        total, _ = _packed_solve(state, np.int64(0), np.int64(0), np.int64(0), MODE_COUNT, table,
                                 melds, jump, kinds, guards, memo, meta, overflow, tail,
                                 np.int64(NEG_INF), np.int64(0))
        return total, overflow[0], meta[3] != 0
    memo, memo_meta = _memo_new(MEMO_BITS, budget)
    prepared = _prepare(hand, meld_counts)
    shares = np.zeros(KIND_COUNT, dtype=np.int64)
    meld_shares = np.zeros(meld_total, dtype=np.int64)
    remaining = hand.copy()
    cut_starts, cut_melds = no_cuts()
    total, _ = _solve(remaining, np.int64(0), np.int64(0), np.int64(0), MODE_COUNT, points, hand,
                      prepared, table, step_melds, shares, meld_shares, memo, memo_meta, overflow,
                      tail, np.int64(NEG_INF), meld_counts, groups, cut_starts, cut_melds,
                      np.zeros(2, dtype=np.int64), np.int64(0),
                      _open_cuts(table, step_melds, meld_total, cut_starts, cut_melds,
                                 np.zeros(0, dtype=np.int64), 0))
    return total, overflow[0], memo_meta[3] != 0


@linked(types.Tuple((_I, _V, types.boolean))(_V, _M, _V, _I, _V, _V, _I))
def best(hand, meld_counts, points, keep, groups, max_left, budget=STATE_BUDGET):
    """(best points, chosen meld indices sorted, exact); NEG_INF and none when nothing is feasible.

    At most ``budget`` sub-problems are memoised; past that a sub-problem not
    yet solved counts as infeasible, so the answer is a legal lay-down that may
    fall short of the best, and ``exact`` is False.

    ``groups`` (int64[M], -1 or a group 0..62: at most one meld per group) and
    ``max_left`` (int64[53]: most copies of each kind left in hand) are the
    optimizer's constraints of partition_ref.best_laydown; without groups the
    steps are the first-card programme's. Below PRICED_CARDS cards the lay-down
    returned is the first optimal one in the reference's order (at each kind:
    the empty multiset, then multisets in depth-first order), so every backend
    returns the same melds.

    From PRICED_CARDS cards the search is bounded by the linear programme
    (kernels.lp_bound.priced): the keep rule's row and clique cuts tighten it,
    its repaired dual prices replace the per-card shares, a lay-down made of
    its solution (rounded, or a dive) is the floor, and the search looks only
    for lay-downs *better* than the floor (worth at least its points plus the
    points' granularity), over the melds and leftovers whose reduced cost such
    a lay-down can afford (kernels.lp_bound.reduced). When it finds none, the
    floor's lay-down is proven best: the answer is then a best lay-down with
    the same points as the reference's, not always the same melds. A priced
    search also stops after WORK_FACTOR * ``budget`` moves; it then answers
    the floor's lay-down (legal, ``exact`` False). Once it has tried NODE_MOVES
    moves (a search that ends sooner does not pay for them), its new
    sub-problems of NODE_CARDS cards or more get their own programme (at most
    NODE_PROGRAMMES of them), except on a *plateau*: when the bound is less
    than PLATEAU_STEPS steps above the floor, the sub-problems' programmes
    reach it too and prune little, so the search goes without.
    """
    none = np.zeros(0, dtype=np.int64)
    cut_starts, cut_melds = no_cuts()
    if hand.sum() < PRICED_CARDS:
        return best_priced(hand, meld_counts, points, keep, groups, max_left, budget, none,
                           none, NEG_INF, none, cut_starts, cut_melds)
    # the linear programme's prices and cuts bound the search, a lay-down from its solution
    # is the floor, and reduced costs rule out melds and leftovers
    (prices, slack, bound, live, limits, start, start_melds, step, cut_starts,
     cut_melds) = priced(hand, meld_counts, points, groups, keep, max_left, SHARE_SCALE, DIVES,
                         CUT_ROUNDS)
    floor = start + step - 1 if start >= 0 else NEG_INF  # better than the floor's lay-down
    value, picked, exact = _search_above(hand, meld_counts, points, keep, groups, limits,
                                         budget, prices, slack, bound, live, cut_starts,
                                         cut_melds, start, step, floor)
    if value != NO_VALUE:
        return value, picked, exact
    if start >= 0:
        # nothing better than the floor's lay-down (proven: it is a best one), or stopped
        return start, np.sort(start_melds), exact
    cut_starts, cut_melds = no_cuts()
    value, picked, _ = best_priced(hand, meld_counts, points, keep, groups, max_left, budget,
                                   none, none, NEG_INF, none, cut_starts, cut_melds)
    return value, picked, False


@njit(cache=True)
def _search_above(hand, meld_counts, points, keep, groups, limits, budget, prices, slack,
                  bound, live, cut_starts, cut_melds, start, step, floor):
    """best_priced for lay-downs worth more than ``floor``, with priced()'s outputs and
    best()'s policy for the sub-problems' programmes (none on a plateau: the bound within
    PLATEAU_STEPS steps of what the search must beat)."""
    node_programmes = min(NODE_PROGRAMMES, budget >> NODE_SHIFT)
    base = max(start, floor - step + 1)
    if base >= 0 and (bound - keep * least_price(hand, prices)
                      < (base + PLATEAU_STEPS * step) * SHARE_SCALE):
        node_programmes = 0  # a plateau: the sub-problems' programmes reach the bound too
    return best_priced(hand, meld_counts, points, keep, groups, limits, budget, prices, slack,
                       floor, live, cut_starts, cut_melds, node_programmes, NODE_CARDS)


@linked(types.boolean(_V, _M, _V, _I, _V, _V, _I, _I))
def beats(hand, meld_counts, points, keep, groups, max_left, threshold, budget=STATE_BUDGET):
    """Whether some lay-down (best()'s constraints) is worth more than ``threshold``.

    best()'s question with a bar: from PRICED_CARDS cards the programme's floor (a
    lay-down above the bar: yes) or its bound (at most the bar: no) usually answers it,
    and otherwise the search looks only for a lay-down above the bar. A search stopped at
    its budget answers no (what best()'s floor says then). Below PRICED_CARDS, best().
    """
    if hand.sum() < PRICED_CARDS or threshold <= NEG_INF:
        value, _, _ = best(hand, meld_counts, points, keep, groups, max_left, budget)
        return value > threshold
    (prices, slack, bound, live, limits, start, start_melds, step, cut_starts,
     cut_melds) = priced(hand, meld_counts, points, groups, keep, max_left, SHARE_SCALE, DIVES,
                         CUT_ROUNDS)
    if start > threshold:
        return True
    if bound - keep * least_price(hand, prices) < (threshold + 1) * SHARE_SCALE:
        return False  # no lay-down reaches threshold + 1
    # the fixings hold for lay-downs better than the floor, and threshold >= start here
    value, _, _ = _search_above(hand, meld_counts, points, keep, groups, limits, budget,
                                prices, slack, bound, live, cut_starts, cut_melds, start,
                                step, threshold)
    return value != NO_VALUE and value > threshold


@njit(cache=True)
def _cut_tail(tail, table, step_melds, meld_total, cut_starts, cut_melds, slack, group_total):
    """Add to ``tail[s]`` each cut's slack while a step at or after s holds one of its melds."""
    if cut_starts.shape[0] < 2:
        return
    step_of = np.full(meld_total, -1, dtype=np.int64)
    for s in range(table.shape[1]):
        for j in range(table[ST_LO, s], table[ST_HI, s]):
            step_of[step_melds[j]] = s
    for c in range(cut_starts.shape[0] - 1):
        last = -1
        for i in range(cut_starts[c], cut_starts[c + 1]):
            last = max(last, step_of[cut_melds[i]])
        for s in range(last + 1):
            tail[s] += slack[group_total + c]


@njit(cache=True)
def _open_cuts(table, step_melds, meld_total, cut_starts, cut_melds, slack, group_total):
    """What the search needs to drop a cut's slack from its bound once a meld of the cut
    is laid: (closed int64[S + 1], meld_cuts_start int64[M + 1], meld_cuts int64[..],
    cut_last int64[C], cut_value int64[C], cut_laid int64[C]); see :func:`_close_cuts`.
    Only the cuts with slack are listed."""
    cut_total = cut_starts.shape[0] - 1
    step_of = np.full(meld_total, -1, dtype=np.int64)
    for s in range(table.shape[1]):
        for j in range(table[ST_LO, s], table[ST_HI, s]):
            step_of[step_melds[j]] = s
    cut_last = np.full(max(cut_total, 0), -1, dtype=np.int64)
    cut_value = np.zeros(max(cut_total, 0), dtype=np.int64)
    per_meld = np.zeros(meld_total + 1, dtype=np.int64)
    for c in range(cut_total):
        cut_value[c] = slack[group_total + c]
        for i in range(cut_starts[c], cut_starts[c + 1]):
            cut_last[c] = max(cut_last[c], step_of[cut_melds[i]])
            if cut_value[c] > 0:
                per_meld[cut_melds[i] + 1] += 1
    for m in range(meld_total):
        per_meld[m + 1] += per_meld[m]
    meld_cuts = np.empty(per_meld[meld_total], dtype=np.int64)
    fill = per_meld[:meld_total].copy()
    for c in range(cut_total):
        if cut_value[c] > 0:
            for i in range(cut_starts[c], cut_starts[c + 1]):
                meld_cuts[fill[cut_melds[i]]] = c
                fill[cut_melds[i]] += 1
    return (np.zeros(table.shape[1] + 2, dtype=np.int64), per_meld, meld_cuts, cut_last,
            cut_value, np.zeros(max(cut_total, 0), dtype=np.int64))


@njit(cache=True)
def _close_cuts(cuts, m, here, sign):
    """Meld ``m`` laid (``sign`` 1) or taken back (-1) at step ``here``: a cut holding it is
    closed (no other meld of the clique fits what is left, and the meld cannot be laid
    again), so the slack that ``tail[s]`` counts for it is dropped for the steps s after
    ``here`` (``closed[s]``, to subtract from ``tail[s]``). Without this, a laid meld's
    points, which its cuts' slack helps cover, and the tail would count that slack twice.
    Only the entries after ``here`` change: the search reads them only while ``m`` is
    laid (deeper steps), and takes ``m`` back at the same step."""
    closed, meld_cuts_start, meld_cuts, cut_last, cut_value, cut_laid = cuts
    for i in range(meld_cuts_start[m], meld_cuts_start[m + 1]):
        c = meld_cuts[i]
        cut_laid[c] += sign
        if cut_laid[c] != (1 if sign > 0 else 0):
            continue  # already closed on this path (or still is)
        for s in range(here + 1, cut_last[c] + 1):
            closed[s] += sign * cut_value[c]


@linked(types.Tuple((_I, _V, types.boolean))(_V, _M, _V, _I, _V, _V, _I, _V, _V, _I, _V, _V, _V,
                                             _I, _I, _I))
def best_priced(hand, meld_counts, points, keep, groups, max_left, budget, prices, slack,
                floor, live, cut_starts, cut_melds, node_programmes=NODE_PROGRAMMES,
                node_cards=NODE_CARDS, node_moves=NODE_MOVES):
    """best() with the bound of a dual-feasible price vector (see kernels.lp_bound).

    ``prices`` (int64[53], fixed point SHARE_SCALE; empty: the per-card shares
    of _shares) and ``slack`` (int64[G + C], the groups' and the cuts' dual
    values; cut c holds the melds cut_melds[cut_starts[c]:cut_starts[c + 1]],
    of which at most one is laid) must satisfy, for every live meld m, prices .
    counts[m] + slack[group of m] + sum(slack[cuts of m]) >= points[m] *
    SHARE_SCALE: then a remaining hand r with the groups and cuts g still open
    can reach at most prices . r + sum(slack[g]). Any such vector keeps the answer
    exact and the lay-down the same; a tight one prunes more. ``floor``: the
    search looks only for lay-downs worth more (NEG_INF: any); ``live``: the
    melds it may lay (int64[M], 1 or 0; empty: all), see _programme. Answers
    NO_VALUE when no lay-down is worth more than the floor (``exact`` True) or
    the search stopped at its budget (``exact`` False).
    """
    move_limit = INT64_MAX if prices.shape[0] == 0 else WORK_FACTOR * budget
    table, step_melds, kinds, melds, jump, guards, state, tail = _programme(
        hand, meld_counts, points, groups, max_left, MODE_BEST, prices, slack, live)
    _cut_tail(tail, table, step_melds, meld_counts.shape[0], cut_starts, cut_melds, slack,
              slack.shape[0] - (cut_starts.shape[0] - 1))
    leave = least_price(hand, prices)
    if kinds.shape[1] > 0:
        return _packed_best(state, keep, table, melds, jump, kinds, guards, hand.sum(), budget,
                            tail, floor, move_limit, leave)
    memo, memo_meta = _memo_new(MEMO_BITS, budget)
    overflow = np.zeros(1, dtype=np.int64)
    prepared = _prepare(hand, meld_counts)
    (order, widths, kinds_of, mults, layers, jokers, _, _) = prepared
    memo_meta[5] = move_limit
    node_lp = np.zeros(3, dtype=np.int64)  # [programmes left, from this many cards, moves]
    if prices.shape[0] == KIND_COUNT:
        node_lp[0] = node_programmes
        node_lp[1] = node_cards
        node_lp[2] = node_moves
    shares, meld_shares = _shares(hand, meld_counts, points, widths, kinds_of, mults)
    if prices.shape[0] == KIND_COUNT:
        shares[:] = prices
        for m in range(meld_counts.shape[0]):
            meld_shares[m] = 0
            for j in range(widths[m]):
                meld_shares[m] += mults[m, j] * shares[kinds_of[m, j]]
    remaining = hand.copy()
    cuts = _open_cuts(table, step_melds, meld_counts.shape[0], cut_starts, cut_melds, slack,
                      slack.shape[0] - (cut_starts.shape[0] - 1))
    target, memo = _solve(remaining, np.int64(0), np.int64(0), keep, MODE_BEST, points,
                          max_left, prepared, table, step_melds, shares, meld_shares, memo,
                          memo_meta, overflow, tail, floor, meld_counts, groups, cut_starts,
                          cut_melds, node_lp, leave, cuts)
    picked = np.empty(hand.sum() + 1, dtype=np.int64)
    if (floor > NEG_INF and target <= floor) or (move_limit < INT64_MAX and memo_meta[3] != 0):
        # nothing above the floor (``exact``: proven so), or stopped
        return np.int64(NO_VALUE), picked[:0], memo_meta[3] == 0
    if target == NEG_INF:
        return target, picked[:0], memo_meta[3] == 0
    _rebuild_allowance(memo_meta, budget, move_limit)
    hand_layers = _hand_layers(remaining)
    empty_last = prices.shape[0] == KIND_COUNT
    result = target
    picked_count = 0
    kept = 0
    step = 0
    step_total = table.shape[1]
    stack = np.empty(MAX_DEPTH, dtype=np.int64)
    while True:
        # the steps with one move or none, as on entry to a state
        while step < step_total:
            kind = table[ST_KIND, step]
            if kind >= 0 and remaining[kind] == 0:
                step += 1
                continue
            if _next_fit(remaining, hand_layers, table[ST_LO, step], table[ST_HI, step],
                         step_melds, layers, jokers) >= 0:
                break
            if kind >= 0:
                kept = min(keep, kept + remaining[kind])
                _set_count(remaining, hand_layers, kind, 0)
            step += 1
        if step == step_total:
            break
        kind = table[ST_KIND, step]
        single = table[ST_SINGLE, step]
        high = table[ST_HI, step]
        slot = table[ST_LO, step]
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
                    _set_count(remaining, hand_layers, kind, 0)
                next_kept = min(keep, kept + saved)
                child_bound = 0
                for k in range(KIND_COUNT):
                    child_bound += remaining[k] * shares[k]
                for j in range(depth):  # the move's cuts close, as in the search
                    _close_cuts(cuts, step_melds[stack[j]], step, 1)
                if (gained * SHARE_SCALE + child_bound + tail[step + 1] - cuts[0][step + 1]
                        - (keep - next_kept) * leave >= target * SHARE_SCALE):
                    sub, memo = _solve(remaining, step + 1, next_kept, keep, MODE_BEST, points,
                                       max_left, prepared, table, step_melds, shares,
                                       meld_shares, memo, memo_meta, overflow, tail,
                                       target - gained - 1, meld_counts, groups, cut_starts,
                                       cut_melds, node_lp, leave, cuts)
                    if sub > NEG_INF and sub + gained == target:
                        matched = True
                        kept = next_kept
                        target = sub
                        break  # the path's cuts stay closed for the steps after
                for j in range(depth):
                    _close_cuts(cuts, step_melds[stack[j]], step, -1)
                if kind >= 0:
                    _set_count(remaining, hand_layers, kind, saved)
            if depth == 0 and empty_done and empty_last:
                break  # the empty move, last
            advanced, slot, depth, gained = _next_move(
                remaining, hand_layers, slot, high, single, depth, gained, stack, step_melds,
                points, widths, kinds_of, mults, layers, jokers)
            if not advanced:
                if empty_done:
                    break
                empty_done = True  # now the empty move (depth 0, nothing gained)
        if not matched:
            if move_limit < INT64_MAX and memo_meta[3] != 0:
                return np.int64(NO_VALUE), picked[:0], False  # the rebuild stopped
            raise RuntimeError("best lay-down reconstruction failed")  # exact values match
        for j in range(depth):
            picked[picked_count] = step_melds[stack[j]]
            picked_count += 1
        step += 1
    return result, np.sort(picked[:picked_count]), memo_meta[3] == 0
