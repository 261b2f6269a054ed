"""numba backend of the meld-partition kernels.

Same algorithms and results as :mod:`kernels.partition_ref` (read that
module's docstring first); here everything is arrays and ``@njit(cache=True)``.

Array shapes: ``hand`` int64[53]; ``scalars`` int64[6] (RuleParams switches);
``values`` int64[53]; ``run_bonus`` int64[4, 2, 14]; ``set_bonus``
int64[14, 2, S]; ``meld_counts`` int64[M, 53]; ``meld_points`` int64[M].
"""

from __future__ import annotations

import kernels  # noqa: F401  (sets the numba cache location first)
import numpy as np
from numba import njit

KIND_COUNT = 53
JOKER = 52
RANK_COUNT = 13
ACE_HIGH = 13
KIND_RUN = 0
KIND_SET = 1
KIND_WILD_SET = 2
NEG_INF = -(1 << 60)
INT64_MAX = (1 << 63) - 1
MAX_WIDTH = 16          # most distinct kinds in one meld (a 13-card run)
MAX_DEPTH = 8           # most melds sharing their first card (its copies, <= 6 jokers)
SHARE_SCALE = 1 << 20   # fixed-point scale of the per-card point bounds
NO_VALUE = -(1 << 62)   # no child value to take in
MEMO_MULTIPLIER = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64 (Fibonacci hashing)
MEMO_BITS = 8


@njit(cache=True)
def decision_order():
    """Same order as kernels.params.decision_order (rank-major, aces last)."""
    order = np.empty(KIND_COUNT, dtype=np.int64)
    n = 0
    for step in range(2, RANK_COUNT + 1):
        rank = step % RANK_COUNT
        for suit in range(4):
            order[n] = suit * RANK_COUNT + rank
            n += 1
    for suit in range(4):
        order[n] = suit * RANK_COUNT + 1
        n += 1
    order[n] = JOKER
    return order


@njit(cache=True)
def meld_key(counts):
    """Same key as kernels.partition_ref.meld_key."""
    wild = counts[JOKER]
    for suit in range(4):
        wild |= counts[suit * RANK_COUNT + 1] << (3 + 2 * suit)
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
        return (1 << 40) | ((suit | (mask << 2)) << 11) | wild
    rank = 0
    for r in range(RANK_COUNT):
        if (ranks_seen >> r) & 1:
            rank = r
    payload = rank
    for suit in range(4):
        payload |= counts[suit * RANK_COUNT + rank] << (4 + 2 * suit)
    return (2 << 40) | (payload << 11) | wild


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
    new_rows = np.zeros((size, KIND_COUNT), dtype=np.int64)
    new_info = np.zeros((size, 3), dtype=np.int64)
    new_keys[:used] = keys[:used]
    new_rows[:used] = rows[:used]
    new_info[:used] = info[:used]
    return new_keys, new_rows, new_info


@njit(cache=True)
def _emit_wilds(hand, base, wild_kinds, wild_kind_count, wild_count, shape, home, clean,
                keys, rows, info, used):
    """Append base + every fitting multiset of wild_count wilds; returns the arrays and count."""
    index = np.zeros(max(wild_count, 1), dtype=np.int64)
    while True:
        ok = True
        meld = base.copy()
        for j in range(wild_count):
            kind = wild_kinds[index[j]]
            meld[kind] += 1
            if meld[kind] > hand[kind]:
                ok = False
        if ok:
            if used == keys.shape[0]:
                keys, rows, info = _grow(keys, rows, info, used)
            keys[used] = meld_key(meld)
            rows[used] = meld
            info[used, 0] = shape
            info[used, 1] = home
            info[used, 2] = clean
            used += 1
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
def _generate(hand, scalars):
    """Every (meld, reading) candidate, duplicates included."""
    wild_twos = scalars[0]
    min_size = scalars[3]
    keys = np.empty(256, dtype=np.int64)
    rows = np.zeros((256, KIND_COUNT), dtype=np.int64)
    info = np.zeros((256, 3), dtype=np.int64)
    used = 0
    run_wilds = np.empty(5, dtype=np.int64)
    run_wilds[0] = JOKER
    run_wild_count = 1
    if wild_twos:
        for suit in range(4):
            run_wilds[run_wild_count] = suit * RANK_COUNT + 1
            run_wild_count += 1
    optional = np.empty(14, dtype=np.int64)
    chosen = np.empty(14, dtype=np.int64)
    is_wild = np.zeros(14, dtype=np.bool_)
    for suit in range(4):
        for low in range(ACE_HIGH + 1):
            for high in range(low + min_size - 1, ACE_HIGH + 1):
                length = high - low + 1
                if length > RANK_COUNT:
                    continue
                forced = 0
                optional_count = 0
                for p in range(low, high + 1):
                    kind = suit * RANK_COUNT + (0 if p == ACE_HIGH else p)
                    if hand[kind] == 0:
                        forced += 1
                    else:
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
                        is_wild[:] = False
                        for j in range(extra):
                            is_wild[optional[chosen[j]]] = True
                        base = np.zeros(KIND_COUNT, dtype=np.int64)
                        for p in range(low, high + 1):
                            kind = suit * RANK_COUNT + (0 if p == ACE_HIGH else p)
                            if hand[kind] > 0 and not is_wild[p]:
                                base[kind] += 1
                        keys, rows, info, used = _emit_wilds(
                            hand, base, run_wilds, run_wild_count, wild_count, KIND_RUN, suit,
                            1 if wild_count == 0 else 0, keys, rows, info, used,
                        )
                        if extra == 0 or not _next_combination(chosen, extra, optional_count):
                            break
    set_wilds = np.empty(5, dtype=np.int64)
    for rank in range(RANK_COUNT):
        if not (scalars[4] >> rank) & 1:
            continue
        set_wilds[0] = JOKER
        set_wild_count = 1
        if wild_twos and rank != 1:
            for suit in range(4):
                set_wilds[set_wild_count] = suit * RANK_COUNT + 1
                set_wild_count += 1
        limits = np.empty(4, dtype=np.int64)
        for suit in range(4):
            limits[suit] = hand[suit * RANK_COUNT + rank]
        natural = np.zeros(4, dtype=np.int64)
        while True:
            natural_count = natural[0] + natural[1] + natural[2] + natural[3]
            if natural_count > 0:
                for wild_count in range(0, natural_count + 1):
                    if natural_count + wild_count < min_size:
                        continue
                    if not _limit_ok(scalars, wild_count, natural_count):
                        break
                    base = np.zeros(KIND_COUNT, dtype=np.int64)
                    for suit in range(4):
                        base[suit * RANK_COUNT + rank] = natural[suit]
                    keys, rows, info, used = _emit_wilds(
                        hand, base, set_wilds, set_wild_count, wild_count, KIND_SET, rank,
                        1 if wild_count == 0 else 0, keys, rows, info, used,
                    )
            # odometer over the natural counts per suit
            digit = 0
            while digit < 4:
                natural[digit] += 1
                if natural[digit] <= limits[digit]:
                    break
                natural[digit] = 0
                digit += 1
            if digit == 4:
                break
    if scalars[5]:
        total = 0
        for j in range(run_wild_count):
            total += hand[run_wilds[j]]
        for size in range(min_size, total + 1):
            base = np.zeros(KIND_COUNT, dtype=np.int64)
            keys, rows, info, used = _emit_wilds(
                hand, base, run_wilds, run_wild_count, size, KIND_WILD_SET, RANK_COUNT, 0,
                keys, rows, info, used,
            )
    return keys[:used], rows[:used], info[:used]


@njit(cache=True)
def _points(row, shape, home, clean, values, run_bonus, set_bonus):
    size = 0
    value = 0
    for kind in range(KIND_COUNT):
        size += row[kind]
        value += values[kind] * row[kind]
    if shape == KIND_RUN:
        return value + run_bonus[home, clean, size]
    last = set_bonus.shape[2] - 1
    return value + set_bonus[home, clean, min(size, last)]


@njit(cache=True)
def catalogue(hand, scalars, values, run_bonus, set_bonus):
    """Returns (keys, counts, shapes, homes, cleans, points), ascending key."""
    keys, rows, info = _generate(hand, scalars)
    order = np.argsort(keys, kind="mergesort")
    unique = 0
    for i in range(order.shape[0]):
        if i == 0 or keys[order[i]] != keys[order[i - 1]]:
            unique += 1
    out_keys = np.empty(unique, dtype=np.int64)
    out_counts = np.zeros((unique, KIND_COUNT), dtype=np.int64)
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


# --- the shared dynamic programme ---------------------------------------------------


@njit(cache=True)
def _prepare(hand, meld_counts):
    """Sparse melds, their layer masks, melds grouped by first card (CSR), memo-key places.

    A meld's layer ``j`` mask has bit ``k`` (suited kind k < 52) when the meld
    holds more than ``j`` copies of k; it fits a remaining hand when each of
    its masks is inside the hand's and it needs no more jokers than are left.
    """
    meld_total = meld_counts.shape[0]
    order = decision_order()
    position_of = np.empty(KIND_COUNT, dtype=np.int64)
    for position in range(KIND_COUNT):
        position_of[order[position]] = position
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
    first = np.empty(meld_total, dtype=np.int64)
    present = np.empty(KIND_COUNT, dtype=np.int64)  # a meld only holds kinds of the hand
    present_count = 0
    for kind in range(KIND_COUNT):
        if hand[kind] > 0:
            present[present_count] = kind
            present_count += 1
    for m in range(meld_total):
        best_position = KIND_COUNT
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
                if position_of[kind] < best_position:
                    best_position = position_of[kind]
        first[m] = order[best_position]
    group_start = np.zeros(KIND_COUNT + 1, dtype=np.int64)
    for m in range(meld_total):
        group_start[first[m] + 1] += 1
    for kind in range(KIND_COUNT):
        group_start[kind + 1] += group_start[kind]
    fill = group_start[:KIND_COUNT].copy()
    grouped = np.empty(meld_total, dtype=np.int64)
    for m in range(meld_total):
        grouped[fill[first[m]]] = m
        fill[first[m]] += 1
    return order, widths, kinds, mults, layers, jokers, key_deltas, group_start, grouped, places


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
def _first_position(remaining, start, order):
    position = start
    while position < KIND_COUNT and remaining[order[position]] == 0:
        position += 1
    return position


@njit(cache=True)
def _next_fit(remaining, hand_layers, slot, high, grouped, layers, jokers):
    layer0 = hand_layers[0]
    layer1 = hand_layers[1]
    layer2 = hand_layers[2]
    joker_count = remaining[JOKER]
    for s in range(slot, high):
        m = grouped[s]
        if ((layers[m, 0] & ~layer0) == 0 and (layers[m, 1] & ~layer1) == 0
                and (layers[m, 2] & ~layer2) == 0 and jokers[m] <= joker_count):
            return s
    return -1


@njit(cache=True)
def _memo_new(bits):
    """An open-addressing int64 -> int64 table: (keys, values, meta=[size, mask]).

    Keys are >= 0 (memo keys are), so -1 marks a free slot. numba's typed
    Dict costs more per call and loses more to cold caches on small hands.
    """
    size = 1 << bits
    return (np.full(size, -1, dtype=np.int64), np.zeros(size, dtype=np.int64),
            np.array([0, size - 1], dtype=np.int64))


@njit(cache=True)
def _memo_slot(keys, mask, key):
    """Slot of ``key``, or of the free slot where it would go (linear probing)."""
    slot = ((key * MEMO_MULTIPLIER) >> 29) & mask
    while keys[slot] != -1 and keys[slot] != key:
        slot = (slot + 1) & mask
    return slot


@njit(cache=True)
def _memo_put(keys, values, meta, key, value):
    """Store key -> value; returns the (possibly grown) arrays."""
    slot = _memo_slot(keys, meta[1], key)
    if keys[slot] == -1:
        meta[0] += 1
    keys[slot] = key
    values[slot] = value
    if meta[0] * 2 > meta[1] + 1:
        old_keys = keys
        old_values = values
        size = (meta[1] + 1) * 2
        keys = np.full(size, -1, dtype=np.int64)
        values = np.zeros(size, dtype=np.int64)
        meta[1] = size - 1
        for i in range(old_keys.shape[0]):
            if old_keys[i] != -1:
                new_slot = _memo_slot(keys, meta[1], old_keys[i])
                keys[new_slot] = old_keys[i]
                values[new_slot] = old_values[i]
    return keys, values


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


@njit(cache=True)
def _solve(remaining, start, kept, keep, mode, points, prepared, shares, meld_shares,
           memo_keys, memo_values, memo_meta, overflow):
    """The memoised programme of partition_ref, without recursion, from one state.

    ``remaining`` (the state's hand, kinds before ``start`` all zero) is
    restored on return. numba cannot reload recursive functions from its
    cache (numba issue #6061), so the call stack is explicit: one frame per
    decided kind (at most 53 deep), each holding its multiset S of melds as a
    small stack. mode 0 counts lay-downs (saturating, ``overflow[0]`` set on
    overflow); mode 1 returns the most points leaving ``keep`` cards
    (NEG_INF if none). The memo key (mixed radix over the hand's kinds, times
    ``keep + 1`` plus the capped kept count in mode 1) and the layer masks
    are kept up to date incrementally.

    In mode 1 a frame tries its non-empty multisets first and skips a child
    whose bound (``_shares``) cannot beat the frame's best so far; the frame's
    value stays exact, so the memo only ever holds exact values.
    """
    (order, widths, kinds, mults, layers, jokers, key_deltas, group_start, grouped,
     places) = prepared
    hand_layers = _hand_layers(remaining)
    state_key = 0
    bound = 0
    for kind in range(KIND_COUNT):
        state_key += remaining[kind] * places[kind]
        bound += remaining[kind] * shares[kind]
    frames = KIND_COUNT + 1
    f_position = np.zeros(frames, dtype=np.int64)
    f_key = np.zeros(frames, dtype=np.int64)
    f_kept = np.zeros(frames, dtype=np.int64)
    f_slot = np.zeros(frames, dtype=np.int64)
    f_depth = np.zeros(frames, dtype=np.int64)
    f_gained = np.zeros(frames, dtype=np.int64)
    f_acc = np.zeros(frames, dtype=np.int64)
    f_saved = np.zeros(frames, dtype=np.int64)
    f_empty_done = np.zeros(frames, dtype=np.int64)
    f_stack = np.zeros((frames, MAX_DEPTH), dtype=np.int64)
    f_undo = np.zeros(frames, dtype=np.int64)
    undo_kinds = np.zeros(KIND_COUNT + 1, dtype=np.int64)
    undo_counts = np.zeros(KIND_COUNT + 1, dtype=np.int64)
    undo_top = 0
    top = -1
    child_start = start
    child_kept = kept
    entering = True
    value = 0
    while True:
        if entering:
            entering = False
            # A kind none of whose melds fits is dead once reached (the melds using
            # it start at it or earlier): it stays in hand. Set it aside like a
            # decided kind, on the undo stack, so that states differing only there
            # share a key, and no frame or memo entry is spent on it.
            mark = undo_top
            position = _first_position(remaining, child_start, order)
            while position < KIND_COUNT and _next_fit(
                    remaining, hand_layers, group_start[order[position]],
                    group_start[order[position] + 1], grouped, layers, jokers) < 0:
                dead = order[position]
                undo_kinds[undo_top] = dead
                undo_counts[undo_top] = remaining[dead]
                undo_top += 1
                child_kept = min(keep, child_kept + remaining[dead])
                state_key -= remaining[dead] * places[dead]
                bound -= remaining[dead] * shares[dead]
                _set_count(remaining, hand_layers, dead, 0)
                position = _first_position(remaining, position + 1, order)
            pushed = False
            if position == KIND_COUNT:
                if mode == MODE_COUNT:
                    value = 1
                else:
                    value = 0 if child_kept >= keep else NEG_INF
            else:
                key = state_key
                if mode == MODE_BEST:
                    key = key * (keep + 1) + child_kept
                slot = _memo_slot(memo_keys, memo_meta[1], key)
                if memo_keys[slot] == key:
                    value = memo_values[slot]
                else:
                    top += 1
                    pushed = True
                    f_position[top] = position
                    f_key[top] = key
                    f_kept[top] = child_kept
                    f_slot[top] = group_start[order[position]]
                    f_depth[top] = 0
                    f_gained[top] = 0
                    f_acc[top] = 0 if mode == MODE_COUNT else NEG_INF
                    f_empty_done[top] = 0
                    f_undo[top] = mark
                    value = NO_VALUE
            if not pushed:
                key_change, bound_change = _undo_dead(
                    remaining, hand_layers, undo_kinds, undo_counts, undo_top, mark,
                    places, shares)
                undo_top = mark
                state_key += key_change
                bound += bound_change
                if top < 0:
                    return value, memo_keys, memo_values
        if value != NO_VALUE:
            # a child returned ``value`` to frame ``top``
            kind = order[f_position[top]]
            _set_count(remaining, hand_layers, kind, f_saved[top])
            state_key += f_saved[top] * places[kind]
            bound += f_saved[top] * shares[kind]
            f_saved[top] = -1
            if mode == MODE_COUNT:
                if value > INT64_MAX - f_acc[top]:
                    overflow[0] = 1
                    f_acc[top] = INT64_MAX
                else:
                    f_acc[top] += value
            elif value > NEG_INF and value + f_gained[top] > f_acc[top]:
                f_acc[top] = value + f_gained[top]
        value = 0
        kind = order[f_position[top]]
        high = group_start[kind + 1]
        if mode == MODE_COUNT and f_empty_done[top] == 0:
            # counting: the empty multiset first, as in the reference
            f_empty_done[top] = 1
            f_saved[top] = remaining[kind]
            state_key, bound = _set_aside(remaining, hand_layers, kind, state_key, bound,
                                          places, shares)
            child_start = f_position[top] + 1
            child_kept = min(keep, f_kept[top] + f_saved[top])
            entering = True
            continue
        # advance to the next multiset S whose child may still matter
        while True:
            found = _next_fit(remaining, hand_layers, f_slot[top], high, grouped, layers, jokers)
            if found >= 0:
                m = grouped[found]
                _apply(remaining, hand_layers, m, widths, kinds, mults, 1)
                state_key -= key_deltas[m]
                bound -= meld_shares[m]
                f_gained[top] += points[m]
                f_stack[top, f_depth[top]] = found
                f_depth[top] += 1
                f_slot[top] = found
                if mode == MODE_BEST:
                    child_bound = bound - remaining[kind] * shares[kind]
                    if (f_acc[top] > NEG_INF
                            and f_gained[top] * SHARE_SCALE + child_bound <= f_acc[top] * SHARE_SCALE):
                        continue  # this child cannot beat the frame's best; deeper S may
                f_saved[top] = remaining[kind]
                state_key, bound = _set_aside(remaining, hand_layers, kind, state_key, bound,
                                              places, shares)
                child_start = f_position[top] + 1
                child_kept = min(keep, f_kept[top] + f_saved[top])
                entering = True
                break
            if f_depth[top] == 0:
                break
            f_depth[top] -= 1
            found = f_stack[top, f_depth[top]]
            m = grouped[found]
            _apply(remaining, hand_layers, m, widths, kinds, mults, -1)
            state_key += key_deltas[m]
            bound += meld_shares[m]
            f_gained[top] -= points[m]
            f_slot[top] = found + 1
        if entering:
            continue
        if mode == MODE_BEST and f_empty_done[top] == 0:
            # best: the empty multiset last, once the others set a high bar
            f_empty_done[top] = 1
            child_bound = bound - remaining[kind] * shares[kind]
            if not (f_acc[top] > NEG_INF and child_bound <= f_acc[top] * SHARE_SCALE):
                f_saved[top] = remaining[kind]
                state_key, bound = _set_aside(remaining, hand_layers, kind, state_key, bound,
                                              places, shares)
                child_start = f_position[top] + 1
                child_kept = min(keep, f_kept[top] + f_saved[top])
                entering = True
                continue
        # frame finished: undo the dead kinds set aside on entry, return to the parent
        value = f_acc[top]
        memo_keys, memo_values = _memo_put(memo_keys, memo_values, memo_meta, f_key[top], value)
        key_change, bound_change = _undo_dead(
            remaining, hand_layers, undo_kinds, undo_counts, undo_top, f_undo[top],
            places, shares)
        undo_top = f_undo[top]
        state_key += key_change
        bound += bound_change
        top -= 1
        if top < 0:
            return value, memo_keys, memo_values


@njit(cache=True)
def count(hand, meld_counts):
    """(number of lay-downs, overflow flag)."""
    memo_keys, memo_values, memo_meta = _memo_new(MEMO_BITS)
    overflow = np.zeros(1, dtype=np.int64)
    points = np.zeros(meld_counts.shape[0], dtype=np.int64)
    prepared = _prepare(hand, meld_counts)
    shares = np.zeros(KIND_COUNT, dtype=np.int64)
    meld_shares = np.zeros(meld_counts.shape[0], dtype=np.int64)
    remaining = hand.copy()
    total, _, _ = _solve(remaining, 0, 0, 0, MODE_COUNT, points, prepared, shares, meld_shares,
                         memo_keys, memo_values, memo_meta, overflow)
    return total, overflow[0]


@njit(cache=True)
def best(hand, meld_counts, points, keep):
    """(best points, chosen meld indices sorted); NEG_INF and none when keep is impossible.

    The lay-down returned is the first optimal one in the reference's order
    (at each kind: the empty multiset, then multisets in depth-first order),
    so every backend returns the same melds.
    """
    memo_keys, memo_values, memo_meta = _memo_new(MEMO_BITS)
    overflow = np.zeros(1, dtype=np.int64)
    prepared = _prepare(hand, meld_counts)
    (order, widths, kinds, mults, layers, jokers, _, group_start, grouped, _) = prepared
    shares, meld_shares = _shares(hand, meld_counts, points, widths, kinds, mults)
    remaining = hand.copy()
    target, memo_keys, memo_values = _solve(
        remaining, 0, 0, keep, MODE_BEST, points, prepared, shares, meld_shares,
        memo_keys, memo_values, memo_meta, overflow)
    picked = np.empty(hand.sum() + 1, dtype=np.int64)
    if target == NEG_INF:
        return target, picked[:0]
    hand_layers = _hand_layers(remaining)
    picked_count = 0
    result = target
    start = 0
    kept = 0
    stack = np.empty(MAX_DEPTH, dtype=np.int64)
    while True:
        position = _first_position(remaining, start, order)
        if position == KIND_COUNT:
            break
        kind = order[position]
        high = group_start[kind + 1]
        depth = 0
        slot = group_start[kind]
        gained = 0
        matched = False
        while True:
            # the leaf for the current S, evaluated exactly unless its bound rules it out
            saved = remaining[kind]
            _set_count(remaining, hand_layers, kind, 0)
            next_kept = min(keep, kept + saved)
            child_bound = 0
            for k in range(KIND_COUNT):
                child_bound += remaining[k] * shares[k]
            if gained * SHARE_SCALE + child_bound >= target * SHARE_SCALE:
                sub, memo_keys, memo_values = _solve(
                    remaining, position + 1, next_kept, keep, MODE_BEST, points, prepared,
                    shares, meld_shares, memo_keys, memo_values, memo_meta, overflow)
                if sub > NEG_INF and sub + gained == target:
                    matched = True
                    kept = next_kept
                    target = sub
                    break
            _set_count(remaining, hand_layers, kind, saved)
            advanced = False
            while True:
                found = _next_fit(remaining, hand_layers, slot, high, grouped, layers, jokers)
                if found >= 0:
                    m = grouped[found]
                    _apply(remaining, hand_layers, m, widths, kinds, mults, 1)
                    gained += points[m]
                    stack[depth] = found
                    depth += 1
                    slot = found
                    advanced = True
                    break
                if depth == 0:
                    break
                depth -= 1
                m = grouped[stack[depth]]
                _apply(remaining, hand_layers, m, widths, kinds, mults, -1)
                gained -= points[m]
                slot = stack[depth] + 1
            if not advanced:
                break
        if not matched:  # the exact values guarantee a match
            raise RuntimeError("best lay-down reconstruction failed")
        for j in range(depth):
            picked[picked_count] = grouped[stack[j]]
            picked_count += 1
        start = position + 1
    out = np.sort(picked[:picked_count])
    return result, out
