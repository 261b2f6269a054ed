# distutils: language = c++
# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""Cython backend of the meld-partition kernels.

Same algorithms and results as :mod:`kernels.partition_ref` and
:mod:`kernels.partition_numba` (read the reference's docstring first); the
structure follows the numba port: the catalogue enumerates every (meld,
reading) candidate, sorts them stably by key and keeps each key's best
reading; ``count`` and ``best`` run the memoised programme over remaining
hands (C recursion, at most 53 deep: one level per decided kind, each with its
multiset S of melds as a small stack), deciding kinds in
:func:`kernels.params.decision_order` and trying the multisets S in the
reference's order, so ``best``'s reconstructed lay-down is the reference's and
the numba backend's. The memo is an open-addressing table in a C++ vector.

Array shapes: ``hand`` int64[53]; ``scalars`` int64[6] (RuleParams switches);
``values`` int64[53]; ``run_bonus`` int64[4, 2, 14]; ``set_bonus``
int64[14, 2, S]; ``meld_counts`` int64[M, 53]; ``points`` int64[M].

Buffers are sized from the inputs, never fixed: a meld's distinct kinds from
the widest catalogue row, the melds sharing a first card from the largest
count in the hand (each such meld holds at least one copy of that card), the
wild-index odometer from the number of cards in the hand.
"""

import numpy as np

from kernels.params import decision_order as _decision_order

from libc.stdint cimport int64_t, uint64_t
from libc.string cimport memcpy, memset
from libcpp.algorithm cimport sort
from libcpp.utility cimport pair
from libcpp.vector cimport vector

cdef enum:
    KIND_COUNT = 53
    JOKER = 52
    RANK_COUNT = 13
    ACE_HIGH = 13
    KIND_RUN = 0
    KIND_SET = 1
    KIND_WILD_SET = 2

cdef int64_t C_NEG_INF = -((<int64_t>1) << 60)
cdef int64_t C_INT64_MAX = 0x7FFFFFFFFFFFFFFF

# The order the programme decides kinds in is the reference's, taken from
# kernels.params so the backends cannot drift apart.
cdef int64_t _ORDER[KIND_COUNT]


_order = [int(kind) for kind in _decision_order()]
if sorted(_order) != list(range(KIND_COUNT)):
    raise ImportError("kernels.params.decision_order() is not a permutation of the 53 kinds")
for _position in range(KIND_COUNT):
    _ORDER[_position] = _order[_position]
del _order, _position

COMPILED = True
NEG_INF = -(1 << 60)



# --- the catalogue ----------------------------------------------------------------


cdef inline int64_t _floordiv(int64_t a, int64_t b) noexcept nogil:
    """Python's floor division (cdivision is on module-wide); b > 0."""
    cdef int64_t q = a / b
    if a % b != 0 and a < 0:
        q -= 1
    return q


cdef int64_t _meld_key(const int64_t* counts) noexcept nogil:
    """Same key as kernels.partition_ref.meld_key."""
    cdef int64_t wild = counts[JOKER]
    cdef int64_t suits_seen = 0
    cdef int64_t ranks_seen = 0
    cdef int64_t mask, payload, count
    cdef bint repeated = False
    cdef int suit, kind, rank, r
    for suit in range(4):
        wild |= counts[suit * RANK_COUNT + 1] << (3 + 2 * suit)
    for kind in range(JOKER):
        count = counts[kind]
        if count > 0 and kind % RANK_COUNT != 1:
            suits_seen |= (<int64_t>1) << (kind // RANK_COUNT)
            ranks_seen |= (<int64_t>1) << (kind % RANK_COUNT)
            if count > 1:
                repeated = True
    if suits_seen == 0:
        return wild
    if (suits_seen & (suits_seen - 1)) == 0 and not repeated:
        suit = 0
        while not ((suits_seen >> suit) & 1):
            suit += 1
        mask = 0
        for rank in range(RANK_COUNT):
            if rank != 1 and counts[suit * RANK_COUNT + rank] > 0:
                if rank == 0:
                    mask |= 1
                else:
                    mask |= (<int64_t>1) << (rank - 1)
        return ((<int64_t>1) << 40) | ((suit | (mask << 2)) << 11) | wild
    rank = 0
    for r in range(RANK_COUNT):
        if (ranks_seen >> r) & 1:
            rank = r
    payload = rank
    for suit in range(4):
        payload |= counts[suit * RANK_COUNT + rank] << (4 + 2 * suit)
    return ((<int64_t>2) << 40) | (payload << 11) | wild


cdef inline bint _limit_ok(const int64_t* scalars, int64_t wilds, int64_t naturals) noexcept nogil:
    if wilds > scalars[1]:
        return False
    if scalars[2] > 0 and wilds * scalars[2] > naturals:
        return False
    return True


cdef inline int64_t _wild_cap(const int64_t* scalars, int64_t size) noexcept nogil:
    cdef int64_t cap = scalars[1]
    cdef int64_t alt
    if scalars[2] > 0:
        alt = _floordiv(size, scalars[2] + 1)
        if alt < cap:
            cap = alt
    return cap


cdef bint _next_combination(int64_t* index, int64_t k, int64_t n) noexcept nogil:
    """Advance a strictly increasing index[0:k] over 0..n-1; False when exhausted."""
    cdef int64_t i = k - 1
    cdef int64_t j
    while i >= 0 and index[i] == n - k + i:
        i -= 1
    if i < 0:
        return False
    index[i] += 1
    for j in range(i + 1, k):
        index[j] = index[j - 1] + 1
    return True


cdef bint _next_multiset(int64_t* index, int64_t k, int64_t n) noexcept nogil:
    """Advance a non-decreasing index[0:k] over 0..n-1; False when exhausted."""
    cdef int64_t i = k - 1
    cdef int64_t j
    while i >= 0 and index[i] == n - 1:
        i -= 1
    if i < 0:
        return False
    index[i] += 1
    for j in range(i + 1, k):
        index[j] = index[i]
    return True


cdef struct Candidates:
    vector[int64_t]* keys      # one per candidate
    vector[int64_t]* rows      # KIND_COUNT per candidate
    vector[int64_t]* info      # shape, home, clean per candidate
    int64_t* index             # wild odometer, >= the largest wild count asked for


cdef int _emit_wilds(const int64_t* hand, const int64_t* base, const int64_t* wild_kinds,
                     int64_t wild_kind_count, int64_t wild_count, int64_t shape, int64_t home,
                     int64_t clean, Candidates* out) except -1 nogil:
    """Append base + every fitting multiset of wild_count wilds."""
    cdef int64_t meld[KIND_COUNT]
    cdef int64_t* index = out.index
    cdef int64_t j, kind
    cdef size_t offset
    cdef bint ok
    for j in range(wild_count):
        index[j] = 0
    while True:
        ok = True
        memcpy(meld, base, KIND_COUNT * sizeof(int64_t))
        for j in range(wild_count):
            kind = wild_kinds[index[j]]
            meld[kind] += 1
            if meld[kind] > hand[kind]:
                ok = False
        if ok:
            out.keys.push_back(_meld_key(meld))
            offset = out.rows.size()
            out.rows.resize(offset + KIND_COUNT)
            memcpy(out.rows.data() + offset, meld, KIND_COUNT * sizeof(int64_t))
            out.info.push_back(shape)
            out.info.push_back(home)
            out.info.push_back(clean)
        if wild_count == 0 or not _next_multiset(index, wild_count, wild_kind_count):
            break
    return 0


cdef int _generate(const int64_t* hand, const int64_t* scalars, Candidates* out) except -1 nogil:
    """Every (meld, reading) candidate, duplicates included (numba's _generate)."""
    cdef int64_t wild_twos = scalars[0]
    cdef int64_t min_size = scalars[3]
    cdef int64_t run_wilds[5]
    cdef int64_t set_wilds[5]
    cdef int64_t run_wild_count = 1
    cdef int64_t set_wild_count
    cdef int64_t optional[ACE_HIGH + 1]
    cdef int64_t chosen[ACE_HIGH + 1]
    cdef char is_wild[ACE_HIGH + 1]
    cdef int64_t base[KIND_COUNT]
    cdef int64_t limits[4]
    cdef int64_t natural[4]
    cdef int64_t suit, low, high, length, p, kind, forced, optional_count, cap, extra
    cdef int64_t wild_count, j, rank, natural_count, digit, total, size
    run_wilds[0] = JOKER
    if wild_twos:
        for suit in range(4):
            run_wilds[run_wild_count] = suit * RANK_COUNT + 1
            run_wild_count += 1
    # runs
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
                        memset(is_wild, 0, sizeof(is_wild))
                        for j in range(extra):
                            is_wild[optional[chosen[j]]] = 1
                        memset(base, 0, sizeof(base))
                        for p in range(low, high + 1):
                            kind = suit * RANK_COUNT + (0 if p == ACE_HIGH else p)
                            if hand[kind] > 0 and not is_wild[p]:
                                base[kind] += 1
                        _emit_wilds(hand, base, run_wilds, run_wild_count, wild_count, KIND_RUN,
                                    suit, 1 if wild_count == 0 else 0, out)
                        if extra == 0 or not _next_combination(chosen, extra, optional_count):
                            break
    # sets of one rank
    for rank in range(RANK_COUNT):
        if not ((scalars[4] >> rank) & 1):
            continue
        set_wilds[0] = JOKER
        set_wild_count = 1
        if wild_twos and rank != 1:
            for suit in range(4):
                set_wilds[set_wild_count] = suit * RANK_COUNT + 1
                set_wild_count += 1
        for suit in range(4):
            limits[suit] = hand[suit * RANK_COUNT + rank]
            natural[suit] = 0
        while True:
            natural_count = natural[0] + natural[1] + natural[2] + natural[3]
            if natural_count > 0:
                for wild_count in range(natural_count + 1):
                    if natural_count + wild_count < min_size:
                        continue
                    if not _limit_ok(scalars, wild_count, natural_count):
                        break
                    memset(base, 0, sizeof(base))
                    for suit in range(4):
                        base[suit * RANK_COUNT + rank] = natural[suit]
                    _emit_wilds(hand, base, set_wilds, set_wild_count, wild_count, KIND_SET, rank,
                                1 if wild_count == 0 else 0, out)
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
    # sets of wilds only
    if scalars[5]:
        total = 0
        for j in range(run_wild_count):
            total += hand[run_wilds[j]]
        for size in range(min_size, total + 1):
            memset(base, 0, sizeof(base))
            _emit_wilds(hand, base, run_wilds, run_wild_count, size, KIND_WILD_SET, RANK_COUNT,
                        0, out)
    return 0


cdef struct Scoring:
    const int64_t* values          # [KIND_COUNT]
    const int64_t* run_bonus       # [4, 2, run_last + 1], C order
    const int64_t* set_bonus       # [14, 2, set_last + 1], C order
    int64_t run_width
    int64_t set_width


cdef int64_t _points(const int64_t* row, int64_t shape, int64_t home, int64_t clean,
                     const Scoring* scoring) noexcept nogil:
    cdef int64_t size = 0
    cdef int64_t value = 0
    cdef int64_t kind
    for kind in range(KIND_COUNT):
        size += row[kind]
        value += scoring.values[kind] * row[kind]
    if shape == KIND_RUN:
        return value + scoring.run_bonus[(home * 2 + clean) * scoring.run_width + size]
    if size > scoring.set_width - 1:
        size = scoring.set_width - 1
    return value + scoring.set_bonus[(home * 2 + clean) * scoring.set_width + size]


def catalogue(hand, scalars, values, run_bonus, set_bonus):
    """Returns (keys, counts, shapes, homes, cleans, points), ascending key."""
    cdef const int64_t[::1] hand_view = np.ascontiguousarray(hand, dtype=np.int64)
    cdef const int64_t[::1] scalar_view = np.ascontiguousarray(scalars, dtype=np.int64)
    cdef const int64_t[::1] value_view = np.ascontiguousarray(values, dtype=np.int64)
    cdef const int64_t[:, :, ::1] run_view = np.ascontiguousarray(run_bonus, dtype=np.int64)
    cdef const int64_t[:, :, ::1] set_view = np.ascontiguousarray(set_bonus, dtype=np.int64)
    if hand_view.shape[0] != KIND_COUNT or value_view.shape[0] != KIND_COUNT:
        raise ValueError(f"hand and values must have {KIND_COUNT} entries")
    if scalar_view.shape[0] != 6:
        raise ValueError("scalars must have 6 entries")
    if run_view.shape[0] != 4 or run_view.shape[1] != 2 or run_view.shape[2] < RANK_COUNT + 1:
        raise ValueError("run_bonus must have shape (4, 2, >= 14)")
    if set_view.shape[0] != RANK_COUNT + 1 or set_view.shape[1] != 2 or set_view.shape[2] < 1:
        raise ValueError("set_bonus must have shape (14, 2, >= 1)")
    cdef int64_t card_total = 0
    cdef int64_t kind
    for kind in range(KIND_COUNT):
        if hand_view[kind] < 0:
            raise ValueError("hand counts must be non-negative")
        card_total += hand_view[kind]

    cdef vector[int64_t] keys, rows, info
    cdef vector[int64_t] index
    index.resize(card_total + ACE_HIGH + 1)
    cdef Candidates out
    out.keys = &keys
    out.rows = &rows
    out.info = &info
    out.index = index.data()
    cdef Scoring scoring
    scoring.values = &value_view[0]
    scoring.run_bonus = &run_view[0, 0, 0]
    scoring.set_bonus = &set_view[0, 0, 0]
    scoring.run_width = run_view.shape[2]
    scoring.set_width = set_view.shape[2]

    cdef vector[pair[int64_t, int64_t]] order
    cdef int64_t n, i, j, t, c, best, best_points, p, unique, slot, clean
    with nogil:
        _generate(&hand_view[0], &scalar_view[0], &out)
        n = <int64_t>keys.size()
        order.resize(n)
        for i in range(n):
            order[i] = pair[int64_t, int64_t](keys[i], i)
        # (key, index) order == a stable sort by key
        sort(order.begin(), order.end())
        unique = 0
        for i in range(n):
            if i == 0 or order[i].first != order[i - 1].first:
                unique += 1

    out_keys = np.empty(unique, dtype=np.int64)
    out_counts = np.zeros((unique, KIND_COUNT), dtype=np.int64)
    out_shapes = np.empty(unique, dtype=np.int64)
    out_homes = np.empty(unique, dtype=np.int64)
    out_cleans = np.empty(unique, dtype=np.int64)
    out_points = np.empty(unique, dtype=np.int64)
    cdef int64_t[::1] ok = out_keys
    cdef int64_t[:, ::1] oc = out_counts
    cdef int64_t[::1] osh = out_shapes
    cdef int64_t[::1] oh = out_homes
    cdef int64_t[::1] ocl = out_cleans
    cdef int64_t[::1] op = out_points
    cdef const int64_t* row
    with nogil:
        i = 0
        slot = 0
        while i < n:
            j = i
            while j < n and order[j].first == order[i].first:
                j += 1
            # best reading: most points, then clean, then the lower shape code
            best = order[i].second
            best_points = _points(rows.data() + best * KIND_COUNT, info[3 * best],
                                  info[3 * best + 1], info[3 * best + 2], &scoring)
            for t in range(i + 1, j):
                c = order[t].second
                p = _points(rows.data() + c * KIND_COUNT, info[3 * c], info[3 * c + 1],
                            info[3 * c + 2], &scoring)
                if (p > best_points
                        or (p == best_points and info[3 * c + 2] > info[3 * best + 2])
                        or (p == best_points and info[3 * c + 2] == info[3 * best + 2]
                            and info[3 * c] < info[3 * best])):
                    best = c
                    best_points = p
            clean = 0
            for t in range(i, j):
                c = order[t].second
                if (info[3 * c] == info[3 * best] and info[3 * c + 1] == info[3 * best + 1]
                        and info[3 * c + 2] == 1):
                    clean = 1
            row = rows.data() + best * KIND_COUNT
            ok[slot] = keys[best]
            memcpy(&oc[slot, 0], row, KIND_COUNT * sizeof(int64_t))
            osh[slot] = info[3 * best]
            oh[slot] = info[3 * best + 1]
            ocl[slot] = clean
            op[slot] = _points(row, info[3 * best], info[3 * best + 1], clean, &scoring)
            slot += 1
            i = j
    return out_keys, out_counts, out_shapes, out_homes, out_cleans, out_points


# --- the memo: open addressing over non-negative int64 keys -------------------------
#
# Memo keys are the remaining hand in mixed radix (times keep + 1, plus kept, for best),
# so they are >= 0 and -1 can mark a free slot. Linear probing with Fibonacci hashing
# over a power-of-two table kept at most half full; keys and values interleave in one
# C++ vector, so a lookup is usually a single cache line.

cdef uint64_t _GOLDEN = 0x9E3779B97F4A7C15
cdef int64_t _INITIAL_BITS = 12


cdef struct Memo:
    vector[int64_t]* slots     # [2 * capacity]: key, value
    int64_t* data
    uint64_t mask
    int64_t shift
    int64_t size


cdef int _memo_init(Memo* memo, vector[int64_t]* slots) except -1:
    memo.slots = slots
    slots.assign(2 << _INITIAL_BITS, -1)
    memo.data = slots.data()
    memo.mask = (<uint64_t>1 << _INITIAL_BITS) - 1
    memo.shift = 64 - _INITIAL_BITS
    memo.size = 0
    return 0


cdef inline bint _memo_find(const Memo* memo, int64_t key, int64_t* value) noexcept nogil:
    cdef uint64_t i = ((<uint64_t>key) * _GOLDEN) >> memo.shift
    cdef int64_t found
    while True:
        found = memo.data[2 * i]
        if found == key:
            value[0] = memo.data[2 * i + 1]
            return True
        if found == -1:
            return False
        i = (i + 1) & memo.mask


cdef inline void _memo_place(Memo* memo, int64_t key, int64_t value) noexcept nogil:
    cdef uint64_t i = ((<uint64_t>key) * _GOLDEN) >> memo.shift
    while memo.data[2 * i] != -1 and memo.data[2 * i] != key:
        i = (i + 1) & memo.mask
    if memo.data[2 * i] == -1:
        memo.size += 1
    memo.data[2 * i] = key
    memo.data[2 * i + 1] = value


cdef int _memo_put(Memo* memo, int64_t key, int64_t value) except -1 nogil:
    cdef vector[int64_t] old
    cdef size_t j
    if (memo.size + 1) * 2 > <int64_t>(memo.mask + 1):
        old.swap(memo.slots[0])
        memo.slots.assign(4 * (memo.mask + 1), -1)
        memo.data = memo.slots.data()
        memo.mask = 2 * memo.mask + 1
        memo.shift -= 1
        memo.size = 0
        j = 0
        while j < old.size():
            if old[j] != -1:
                _memo_place(memo, old[j], old[j + 1])
            j += 2
    _memo_place(memo, key, value)
    return 0


# --- the shared dynamic programme ---------------------------------------------------
#
# Besides the remaining counts, the programme keeps them as bit masks: bit p of
# levels[t] is set when the kind decided at position p has more than t copies left.
# A meld fits when, for each t below its largest multiplicity, its kinds needing more
# than t copies are all in levels[t]; the first kind left is the lowest set bit of
# levels[0]. Same answers as the per-kind loops of the numba port, fewer steps.

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static inline int partition_ctz64(unsigned long long x) {
        unsigned long i; _BitScanForward64(&i, x); return (int)i;
    }
    #else
    static inline int partition_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    #endif
    """
    int partition_ctz64(unsigned long long x) noexcept nogil


cdef struct Ctx:
    int64_t* remaining         # [KIND_COUNT], the remaining hand
    int64_t state              # the remaining hand in mixed radix, kept up to date
    const int64_t* place_of    # [KIND_COUNT], mixed-radix place per kind (0: not held)
    const int64_t* order       # [KIND_COUNT], decision order
    const int64_t* widths      # [M], distinct kinds per meld
    const int64_t* kinds       # [M, width]
    const int64_t* mults       # [M, width]
    int64_t width
    const int64_t* deltas      # [M], what a meld takes off the state
    uint64_t* levels           # [L]: bit position_of[k] of levels[t] iff remaining[k] > t
    const uint64_t* bit_of     # [KIND_COUNT]: 1 << position_of[kind]
    const uint64_t* needs      # [M, L]: needs[m, t]: kinds of m with multiplicity > t
    const int64_t* reach       # [M]: largest multiplicity, -1 if the meld exceeds the hand
    int64_t level_count        # L: the largest count in the hand (at least 1)
    const int64_t* group_start  # [KIND_COUNT + 1], CSR over first cards
    const int64_t* grouped     # [M]
    const int64_t* points      # [M] (best only)
    int64_t* stacks            # [KIND_COUNT, depth_cap], one stack per decision level
    int64_t depth_cap
    int64_t keep
    int64_t overflow
    Memo memo


cdef class _Tables:
    """Sparse melds, melds grouped by first card (CSR) and memo-key places (numba's _prepare)."""

    cdef vector[int64_t] order, widths, kinds, mults, deltas, group_start, grouped
    cdef vector[int64_t] place_of, stacks, remaining, points, memo_slots, reach
    cdef vector[uint64_t] levels, bit_of, needs
    cdef int64_t width, depth_cap, level_count, meld_total, card_total, state_total

    cdef int build(self, hand, meld_counts) except -1:
        cdef const int64_t[::1] hand_view = np.ascontiguousarray(hand, dtype=np.int64)
        cdef const int64_t[:, :] melds = np.asarray(meld_counts, dtype=np.int64)
        if hand_view.shape[0] != KIND_COUNT:
            raise ValueError(f"hand must have {KIND_COUNT} entries")
        if melds.shape[1] != KIND_COUNT:
            raise ValueError(f"meld_counts must have shape (M, {KIND_COUNT})")
        cdef int64_t meld_total = melds.shape[0]
        cdef int64_t position, kind, m, count, width, best_position, place, slot, delta, t
        cdef int64_t level_count
        cdef bint within
        cdef int64_t position_of[KIND_COUNT]
        self.meld_total = meld_total
        # the memo key: the remaining hand in mixed radix (hand[kind] + 1 per held kind)
        self.card_total = 0
        self.depth_cap = 1
        self.place_of.assign(KIND_COUNT, 0)
        self.remaining.assign(KIND_COUNT, 0)
        place = 1
        for kind in range(KIND_COUNT):
            count = hand_view[kind]
            if count < 0:
                raise ValueError("hand counts must be non-negative")
            self.remaining[kind] = count
            if count > 0:
                self.card_total += count
                if count + 1 > self.depth_cap:
                    self.depth_cap = count + 1
                if place > C_INT64_MAX // (count + 1):
                    raise OverflowError("hand too large for the int64 memo key")
                self.place_of[kind] = place
                place *= count + 1
        self.state_total = place
        # decision order: kernels.params.decision_order (read once at import)
        self.order.resize(KIND_COUNT)
        for position in range(KIND_COUNT):
            self.order[position] = _ORDER[position]
        for position in range(KIND_COUNT):
            position_of[self.order[position]] = position
        # the widest meld sizes the sparse rows
        self.width = 1
        for m in range(meld_total):
            width = 0
            for kind in range(KIND_COUNT):
                if melds[m, kind] > 0:
                    width += 1
            if width == 0:
                raise ValueError(f"meld {m} holds no cards")
            if width > self.width:
                self.width = width
        self.widths.assign(meld_total, 0)
        self.kinds.assign(meld_total * self.width, 0)
        self.mults.assign(meld_total * self.width, 0)
        self.deltas.assign(meld_total, 0)
        cdef vector[int64_t] first
        first.assign(meld_total, 0)
        for m in range(meld_total):
            best_position = KIND_COUNT
            width = 0
            delta = 0
            within = True
            for kind in range(KIND_COUNT):
                count = melds[m, kind]
                if count > 0:
                    self.kinds[m * self.width + width] = kind
                    self.mults[m * self.width + width] = count
                    width += 1
                    if position_of[kind] < best_position:
                        best_position = position_of[kind]
                    if count > hand_view[kind]:
                        within = False   # never fits, so never applied
                    else:
                        delta += count * self.place_of[kind]
            self.widths[m] = width
            self.deltas[m] = delta if within else 0
            first[m] = self.order[best_position]
        self.group_start.assign(KIND_COUNT + 1, 0)
        for m in range(meld_total):
            self.group_start[first[m] + 1] += 1
        for kind in range(KIND_COUNT):
            self.group_start[kind + 1] += self.group_start[kind]
        cdef vector[int64_t] fill
        fill.assign(KIND_COUNT, 0)
        for kind in range(KIND_COUNT):
            fill[kind] = self.group_start[kind]
        self.grouped.assign(meld_total, 0)
        for m in range(meld_total):
            slot = fill[first[m]]
            self.grouped[slot] = m
            fill[first[m]] = slot + 1
        # melds sharing their first card c: each holds >= 1 copy of c, so <= hand[c] of them
        self.stacks.assign(KIND_COUNT * self.depth_cap, 0)
        # bit masks (see above)
        level_count = self.depth_cap - 1
        if level_count < 1:
            level_count = 1
        self.level_count = level_count
        self.bit_of.assign(KIND_COUNT, 0)
        for kind in range(KIND_COUNT):
            self.bit_of[kind] = (<uint64_t>1) << position_of[kind]
        self.levels.assign(level_count, 0)
        for kind in range(KIND_COUNT):
            for t in range(hand_view[kind]):
                self.levels[t] |= self.bit_of[kind]
        self.needs.assign(meld_total * level_count, 0)
        self.reach.assign(meld_total, 0)
        for m in range(meld_total):
            for kind in range(KIND_COUNT):
                count = melds[m, kind]
                if count > hand_view[kind]:
                    self.reach[m] = -1
                    break
                if count > self.reach[m]:
                    self.reach[m] = count
            if self.reach[m] < 0:
                continue
            for kind in range(KIND_COUNT):
                for t in range(melds[m, kind]):
                    self.needs[m * level_count + t] |= self.bit_of[kind]
        return 0

    cdef int fill(self, Ctx* ctx) except -1:
        ctx.remaining = self.remaining.data()
        ctx.state = self.state_total - 1     # every held card still in hand
        ctx.place_of = self.place_of.data()
        ctx.order = self.order.data()
        ctx.widths = self.widths.data()
        ctx.kinds = self.kinds.data()
        ctx.mults = self.mults.data()
        ctx.width = self.width
        ctx.deltas = self.deltas.data()
        ctx.levels = self.levels.data()
        ctx.bit_of = self.bit_of.data()
        ctx.needs = self.needs.data()
        ctx.reach = self.reach.data()
        ctx.level_count = self.level_count
        ctx.group_start = self.group_start.data()
        ctx.grouped = self.grouped.data()
        ctx.points = self.points.data()
        ctx.stacks = self.stacks.data()
        ctx.depth_cap = self.depth_cap
        ctx.keep = 0
        ctx.overflow = 0
        _memo_init(&ctx.memo, &self.memo_slots)
        return 0


cdef inline bint _fits(const Ctx* c, int64_t m) noexcept nogil:
    cdef const uint64_t* need = c.needs + m * c.level_count
    cdef int64_t t
    for t in range(c.reach[m]):     # no pass when the meld exceeds the hand (reach -1)
        if need[t] & ~c.levels[t]:
            return False
    return c.reach[m] >= 0


cdef inline void _take(Ctx* c, int64_t m) noexcept nogil:
    """Take fitting meld m out of the remaining hand."""
    cdef const int64_t* kinds = c.kinds + m * c.width
    cdef const int64_t* mults = c.mults + m * c.width
    cdef int64_t j, kind, left, t
    cdef uint64_t keep_mask
    for j in range(c.widths[m]):
        kind = kinds[j]
        left = c.remaining[kind] - mults[j]
        keep_mask = ~c.bit_of[kind]
        for t in range(left, c.remaining[kind]):
            c.levels[t] &= keep_mask
        c.remaining[kind] = left
    c.state -= c.deltas[m]


cdef inline void _give(Ctx* c, int64_t m) noexcept nogil:
    """Put meld m back (undoes _take)."""
    cdef const int64_t* kinds = c.kinds + m * c.width
    cdef const int64_t* mults = c.mults + m * c.width
    cdef int64_t j, kind, held, t
    cdef uint64_t bit
    for j in range(c.widths[m]):
        kind = kinds[j]
        held = c.remaining[kind] + mults[j]
        bit = c.bit_of[kind]
        for t in range(c.remaining[kind], held):
            c.levels[t] |= bit
        c.remaining[kind] = held
    c.state += c.deltas[m]


cdef inline int64_t _set_aside(Ctx* c, int64_t kind) noexcept nogil:
    """Set every copy of kind aside; returns how many there were."""
    cdef int64_t saved = c.remaining[kind]
    cdef uint64_t keep_mask = ~c.bit_of[kind]
    cdef int64_t t
    for t in range(saved):
        c.levels[t] &= keep_mask
    c.remaining[kind] = 0
    c.state -= saved * c.place_of[kind]
    return saved


cdef inline void _restore(Ctx* c, int64_t kind, int64_t saved) noexcept nogil:
    cdef uint64_t bit = c.bit_of[kind]
    cdef int64_t t
    for t in range(saved):
        c.levels[t] |= bit
    c.remaining[kind] = saved
    c.state += saved * c.place_of[kind]


cdef inline int64_t _first_position(const Ctx* c, int64_t position) noexcept nogil:
    """First decision position >= position whose kind is still held; KIND_COUNT if none."""
    cdef uint64_t left
    if position >= KIND_COUNT:
        return KIND_COUNT
    left = c.levels[0] & (~(<uint64_t>0) << position)
    if left == 0:
        return KIND_COUNT
    return partition_ctz64(left)


cdef inline int64_t _next_fit(const Ctx* c, int64_t slot, int64_t high) noexcept nogil:
    """First slot in [slot, high) whose meld fits the remaining hand; -1 if none."""
    while slot < high:
        if _fits(c, c.grouped[slot]):
            return slot
        slot += 1
    return -1


cdef int64_t _count_rec(Ctx* c, int64_t start) except -1 nogil:
    cdef int64_t position = _first_position(c, start)
    if position == KIND_COUNT:
        return 1
    cdef int64_t key = c.state
    cdef int64_t total = 0
    if _memo_find(&c.memo, key, &total):
        return total
    cdef int64_t kind = c.order[position]
    cdef int64_t high = c.group_start[kind + 1]
    cdef int64_t* stack = c.stacks + position * c.depth_cap
    cdef int64_t depth = 0
    cdef int64_t slot = c.group_start[kind]
    cdef int64_t saved, sub, found
    cdef bint visit = True
    while True:
        if visit:
            saved = _set_aside(c, kind)
            sub = _count_rec(c, position + 1)
            _restore(c, kind, saved)
            if sub > C_INT64_MAX - total:
                c.overflow = 1
                total = C_INT64_MAX
            else:
                total += sub
        found = _next_fit(c, slot, high)
        if found >= 0:
            _take(c, c.grouped[found])
            stack[depth] = found
            depth += 1
            slot = found
            visit = True
        else:
            if depth == 0:
                break
            depth -= 1
            _give(c, c.grouped[stack[depth]])
            slot = stack[depth] + 1
            visit = False
    _memo_put(&c.memo, key, total)
    return total


def count(hand, meld_counts):
    """(number of lay-downs, overflow flag)."""
    cdef _Tables tables = _Tables()
    tables.build(hand, meld_counts)
    cdef Ctx ctx
    tables.fill(&ctx)
    cdef int64_t total
    with nogil:
        total = _count_rec(&ctx, 0)
    return int(total), int(ctx.overflow)


# NEG_INF - 1: below every value _best_rec returns, so it can flag a C++ exception
cdef int64_t _best_rec(Ctx* c, int64_t start, int64_t kept) except? -1152921504606846977 nogil:
    cdef int64_t position = _first_position(c, start)
    if position == KIND_COUNT:
        return 0 if kept >= c.keep else C_NEG_INF
    cdef int64_t key = c.state * (c.keep + 1) + kept
    cdef int64_t best = C_NEG_INF
    if _memo_find(&c.memo, key, &best):
        return best
    cdef int64_t kind = c.order[position]
    cdef int64_t high = c.group_start[kind + 1]
    cdef int64_t* stack = c.stacks + position * c.depth_cap
    cdef int64_t depth = 0
    cdef int64_t slot = c.group_start[kind]
    cdef int64_t gained = 0
    cdef int64_t saved, next_kept, sub, found, m
    cdef bint visit = True
    while True:
        if visit:
            saved = _set_aside(c, kind)
            next_kept = kept + saved
            if next_kept > c.keep:
                next_kept = c.keep
            sub = _best_rec(c, position + 1, next_kept)
            _restore(c, kind, saved)
            if sub > C_NEG_INF and sub + gained > best:
                best = sub + gained
        found = _next_fit(c, slot, high)
        if found >= 0:
            m = c.grouped[found]
            _take(c, m)
            gained += c.points[m]
            stack[depth] = found
            depth += 1
            slot = found
            visit = True
        else:
            if depth == 0:
                break
            depth -= 1
            m = c.grouped[stack[depth]]
            _give(c, m)
            gained -= c.points[m]
            slot = stack[depth] + 1
            visit = False
    _memo_put(&c.memo, key, best)
    return best


cdef int _reconstruct(Ctx* c, int64_t target, vector[int64_t]* picked) except -1 nogil:
    """Walk the memo down from the root; 1 when a lay-down worth target was rebuilt, else 0."""
    cdef int64_t start = 0
    cdef int64_t kept = 0
    cdef int64_t position, kind, high, depth, slot, gained, saved, next_kept, sub
    cdef int64_t found, m, j
    cdef int64_t* stack
    cdef bint visit, matched
    while True:
        position = _first_position(c, start)
        if position == KIND_COUNT:
            return 1
        kind = c.order[position]
        high = c.group_start[kind + 1]
        # levels > position are the only ones _best_rec touches from here
        stack = c.stacks + position * c.depth_cap
        depth = 0
        slot = c.group_start[kind]
        gained = 0
        visit = True
        matched = False
        while True:
            if visit:
                saved = _set_aside(c, kind)
                next_kept = kept + saved
                if next_kept > c.keep:
                    next_kept = c.keep
                sub = _best_rec(c, position + 1, next_kept)
                if sub > C_NEG_INF and sub + gained == target:
                    matched = True
                    kept = next_kept
                    target = sub
                    break
                _restore(c, kind, saved)
            found = _next_fit(c, slot, high)
            if found >= 0:
                m = c.grouped[found]
                _take(c, m)
                gained += c.points[m]
                stack[depth] = found
                depth += 1
                slot = found
                visit = True
            else:
                if depth == 0:
                    break
                depth -= 1
                m = c.grouped[stack[depth]]
                _give(c, m)
                gained -= c.points[m]
                slot = stack[depth] + 1
                visit = False
        if not matched:
            return 0
        for j in range(depth):
            picked.push_back(c.grouped[stack[j]])
        start = position + 1


def best(hand, meld_counts, points, keep):
    """(best points, chosen meld indices sorted); NEG_INF and none when keep is impossible."""
    cdef _Tables tables = _Tables()
    tables.build(hand, meld_counts)
    cdef const int64_t[:] point_view = np.asarray(points, dtype=np.int64)
    if point_view.shape[0] != tables.meld_total:
        raise ValueError("points must have one entry per meld")
    cdef int64_t m
    tables.points.assign(tables.meld_total, 0)
    for m in range(tables.meld_total):
        tables.points[m] = point_view[m]
    # kept is min(keep, cards set aside): any keep <= 0 acts as 0 and any keep beyond the
    # hand as hand + 1 (never reached), which keeps the memo key small and injective
    cdef object keep_value = int(keep)
    cdef int64_t keep_c
    if keep_value <= 0:
        keep_c = 0
    elif keep_value > tables.card_total:
        keep_c = tables.card_total + 1
    else:
        keep_c = keep_value
    if tables.state_total > C_INT64_MAX // (keep_c + 1):
        raise OverflowError("hand too large for the int64 memo key")
    cdef Ctx ctx
    tables.fill(&ctx)
    ctx.keep = keep_c
    cdef int64_t target
    cdef int matched = 0
    cdef vector[int64_t] picked
    with nogil:
        target = _best_rec(&ctx, 0, 0)
        if target != C_NEG_INF:
            matched = _reconstruct(&ctx, target, &picked)
    if target == C_NEG_INF:
        return NEG_INF, np.empty(0, dtype=np.int64)
    if not matched:  # the memo guarantees a match
        raise RuntimeError("best lay-down reconstruction failed")
    out = np.empty(picked.size(), dtype=np.int64)
    cdef int64_t[::1] out_view = out
    cdef size_t i
    with nogil:
        sort(picked.begin(), picked.end())
        for i in range(picked.size()):
            out_view[i] = picked[i]
    return int(target), out
