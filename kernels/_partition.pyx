# distutils: language = c++
# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""Cython backend of the meld-partition kernels.

Same algorithms and results as :mod:`kernels.partition_ref` and
:mod:`kernels.partition_numba` (read the reference's docstring first); the
structure follows the numba port: for one-wild rules without sets of wilds the
catalogue lists the readings by position masks (:mod:`kernels.catalogue_numba`'s
algorithm) and builds rows only for the melds kept; otherwise it enumerates every
(meld, reading) candidate, sorts them stably by key and keeps each key's best
reading; ``count`` and ``best`` run the memoised programme over remaining
hands (C recursion, one level per step: at most 53 deep without groups, one
per decided kind, each kind with its multiset S of melds as a small stack),
deciding kinds in :func:`kernels.params.decision_order` and trying the
multisets S in the reference's order, so ``best``'s reconstructed lay-down is the reference's and
the numba backend's. ``best`` takes the optimizer's constraints too (``groups``:
at most one meld per group; ``max_left``: checked when a kind is set aside).
With groups ``best`` walks the reference's fixed sequence of *steps* (per
decision position, a step per group anchored there, then the kind's step; the
memo state then holds the step index); without them the steps are the
positions, and the plain first-card programme runs.
The memo is an open-addressing table in a C++ vector.

Array shapes: ``hand`` int64[53]; ``scalars`` int64[6] (RuleParams switches);
``values`` int64[53]; ``run_bonus`` int64[4, 2, 14]; ``set_bonus``
int64[14, 2, S]; ``meld_counts`` int64[M, 53]; ``points``, ``groups`` int64[M];
``max_left`` int64[53].

The kernels are called once per hand, so the fixed cost of a call is kept
small (a 16-card hand meets only 20-200 states): the arrays are read through
the buffer protocol, each meld row is scanned once into sparse form, the
remaining hand is nothing but bit masks (see "the shared dynamic programme"),
and the buffers live in a module-level workspace reused across calls (a call
made while another holds it, from another thread, gets a fresh one). Buffers
are sized from the inputs, never fixed: the melds sharing a first card from
the largest count in the hand (each such meld holds at least one copy of that
card), the wild-index odometer from the number of cards in the hand.
"""

import numpy as np

from kernels.params import COUNT_BUDGET, STATE_BUDGET
from kernels.params import decision_order as _decision_order

from cpython.buffer cimport PyBUF_C_CONTIGUOUS, PyBUF_FORMAT, PyBuffer_Release, PyObject_GetBuffer
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
    SHAPE_RUN = 0
    SHAPE_SET = 1
    SHAPE_WILD_SET = 2
    KEY_TWO_SHIFT = 3
    KEY_BODY_SHIFT = 11
    KEY_TAG_SHIFT = 40
    KEY_TAG_RUN = 1
    KEY_TAG_SET = 2

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

# The enum above repeats constants Cython must know at compile time; their one definition is
# in kernels.encoding and kernels.params, and the import refuses a module that drifted.
from kernels import encoding as _encoding, params as _params

if ((KIND_COUNT, JOKER, RANK_COUNT, ACE_HIGH) != (_encoding.KIND_COUNT, _encoding.JOKER,
        _encoding.RANK_COUNT, _encoding.ACE_HIGH_POSITION)
        or (SHAPE_RUN, SHAPE_SET, SHAPE_WILD_SET) != (_params.SHAPE_RUN, _params.SHAPE_SET,
                                                      _params.SHAPE_WILD_SET)
        or (KEY_TWO_SHIFT, KEY_BODY_SHIFT, KEY_TAG_SHIFT, KEY_TAG_RUN, KEY_TAG_SET) != (
            _params.KEY_TWO_SHIFT, _params.KEY_BODY_SHIFT, _params.KEY_TAG_SHIFT,
            _params.KEY_TAG_RUN, _params.KEY_TAG_SET)
        or C_NEG_INF != _params.NEG_INF):
    raise ImportError("kernels._partition was built with constants that differ from "
                      "kernels.encoding / kernels.params: rebuild it (pip install -e .)")

COMPILED = True
NEG_INF = _params.NEG_INF



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
        wild |= counts[suit * RANK_COUNT + 1] << (KEY_TWO_SHIFT + 2 * suit)
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
        return (((<int64_t>KEY_TAG_RUN) << KEY_TAG_SHIFT)
                | ((suit | (mask << 2)) << KEY_BODY_SHIFT) | wild)
    rank = 0
    for r in range(RANK_COUNT):
        if (ranks_seen >> r) & 1:
            rank = r
    payload = rank
    for suit in range(4):
        payload |= counts[suit * RANK_COUNT + rank] << (4 + 2 * suit)
    return ((<int64_t>KEY_TAG_SET) << KEY_TAG_SHIFT) | (payload << KEY_BODY_SHIFT) | wild


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
    const int64_t* required    # every candidate holds these cards
    bint prune                 # required is not all zeros


cdef int _emit_wilds(const int64_t* hand, const int64_t* base, const int64_t* wild_kinds,
                     int64_t wild_kind_count, int64_t wild_count, int64_t shape, int64_t home,
                     int64_t clean, Candidates* out) except -1 nogil:
    """Append base + every fitting multiset of wild_count wilds that holds out.required."""
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
        if ok and out.prune:
            for kind in range(KIND_COUNT):
                if meld[kind] < out.required[kind]:
                    ok = False
                    break
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
    """Every (meld, reading) candidate holding out.required, duplicates included (numba's
    _generate: the required naturals fix the run's suit and window, or the set's rank)."""
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
    cdef int64_t need_suits = 0
    cdef int64_t need_low = ACE_HIGH + 1
    cdef int64_t need_high = -1
    cdef int64_t need_ace = 0
    cdef int64_t need_ranks = 0
    cdef int64_t need_naturals = 0
    for kind in range(JOKER):
        rank = kind % RANK_COUNT
        if out.required[kind] == 0 or (wild_twos and rank == 1):
            continue
        need_naturals += out.required[kind]
        need_suits |= (<int64_t>1) << (kind // RANK_COUNT)
        need_ranks |= (<int64_t>1) << rank
        if rank == 0:
            need_ace = 1
        else:
            need_low = min(need_low, rank)
            need_high = max(need_high, rank)
    run_wilds[0] = JOKER
    if wild_twos:
        for suit in range(4):
            run_wilds[run_wild_count] = suit * RANK_COUNT + 1
            run_wild_count += 1
    # runs
    for suit in range(4):
        if need_suits and need_suits != ((<int64_t>1) << suit):
            continue
        for low in range(min(<int64_t>ACE_HIGH, need_low) + 1):
            for high in range(max(low + min_size - 1, need_high), ACE_HIGH + 1):
                length = high - low + 1
                if length > RANK_COUNT or (need_ace and low != 0 and high != ACE_HIGH):
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
                        _emit_wilds(hand, base, run_wilds, run_wild_count, wild_count, SHAPE_RUN,
                                    suit, 1 if wild_count == 0 else 0, out)
                        if extra == 0 or not _next_combination(chosen, extra, optional_count):
                            break
    # sets of one rank
    for rank in range(RANK_COUNT):
        if not ((scalars[4] >> rank) & 1) or (need_ranks and need_ranks != ((<int64_t>1) << rank)):
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
                    _emit_wilds(hand, base, set_wilds, set_wild_count, wild_count, SHAPE_SET, rank,
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
    if scalars[5] and need_naturals == 0:
        total = 0
        for j in range(run_wild_count):
            total += hand[run_wilds[j]]
        for size in range(min_size, total + 1):
            memset(base, 0, sizeof(base))
            _emit_wilds(hand, base, run_wilds, run_wild_count, size, SHAPE_WILD_SET, RANK_COUNT,
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
    if shape == SHAPE_RUN:
        return value + scoring.run_bonus[(home * 2 + clean) * scoring.run_width + size]
    if size > scoring.set_width - 1:
        size = scoring.set_width - 1
    return value + scoring.set_bonus[(home * 2 + clean) * scoring.set_width + size]


cdef struct Found:
    vector[int64_t]* keys      # one per distinct meld, ascending
    vector[int64_t]* rows      # KIND_COUNT per generated candidate
    vector[int64_t]* picks     # per distinct meld: its candidate (row) index
    vector[int64_t]* info      # shape, home, clean, points per distinct meld


cdef int64_t _NOTHING[KIND_COUNT]
memset(_NOTHING, 0, sizeof(_NOTHING))


cdef int _catalogue_into(const int64_t* hand, const int64_t* scalars, const Scoring* scoring,
                         const int64_t* required, Found* found) except -1 nogil:
    """Clear ``found`` and fill it with the hand's catalogue melds holding ``required``
    (best reading per meld)."""
    cdef vector[int64_t] keys, info
    cdef vector[int64_t] index
    cdef vector[pair[int64_t, int64_t]] order
    cdef vector[int64_t]* rows = found.rows
    cdef Candidates out
    cdef int64_t card_total = 0
    cdef int64_t n, i, j, t, c, best, best_points, p, clean, kind
    cdef const int64_t* row
    cdef size_t offset
    for kind in range(KIND_COUNT):
        card_total += hand[kind]
    index.resize(card_total + ACE_HIGH + 1)
    rows.clear()
    out.keys = &keys
    out.rows = rows
    out.info = &info
    out.index = index.data()
    out.required = required
    out.prune = False
    for kind in range(KIND_COUNT):
        if required[kind]:
            out.prune = True
    _generate(hand, scalars, &out)
    n = <int64_t>keys.size()
    order.resize(n)
    for i in range(n):
        order[i] = pair[int64_t, int64_t](keys[i], i)
    # (key, index) order == a stable sort by key
    sort(order.begin(), order.end())
    found.keys.clear()
    found.picks.clear()
    found.info.clear()
    found.keys.reserve(n)
    found.picks.reserve(n)
    found.info.reserve(4 * n)
    i = 0
    while i < n:
        j = i
        while j < n and order[j].first == order[i].first:
            j += 1
        # best reading: most points, then clean, then the lower shape code
        best = order[i].second
        best_points = _points(rows.data() + best * KIND_COUNT, info[3 * best],
                              info[3 * best + 1], info[3 * best + 2], scoring)
        for t in range(i + 1, j):
            c = order[t].second
            p = _points(rows.data() + c * KIND_COUNT, info[3 * c], info[3 * c + 1],
                        info[3 * c + 2], scoring)
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
        found.keys.push_back(keys[best])
        found.picks.push_back(best)
        found.info.push_back(info[3 * best])
        found.info.push_back(info[3 * best + 1])
        found.info.push_back(clean)
        found.info.push_back(_points(row, info[3 * best], info[3 * best + 1], clean, scoring))
        i = j
    return 0


# --- the catalogue by position masks: kernels.catalogue_numba's algorithm ------------
#
# For one-wild rules without sets of wilds (every preset but partnership and venezuelan) a
# meld's readings are few and have one shape: the readings are listed as small integers (a
# run's natural positions, a set's naturals 2 bits a suit, the wild's kind) and the 53-count
# rows are built only for the melds kept. Same melds, rows and order as the general path.

cdef int64_t NO_WILD = -1


cdef struct Reading:
    int64_t key
    int64_t shape
    int64_t home
    int64_t cells      # a run's natural positions (bit p: position p); a set's naturals
    int64_t wild       # the wild card's kind, or NO_WILD
    int64_t clean


cdef inline bint _window_rules(const int64_t* scalars) noexcept nogil:
    """2s wild, one wild a meld, no ratio rule, no sets of wilds."""
    return scalars[0] == 1 and scalars[1] == 1 and scalars[2] == 0 and scalars[5] == 0


cdef inline int64_t _kind_at(int64_t suit, int64_t position) noexcept nogil:
    if position == ACE_HIGH:
        return suit * RANK_COUNT
    return suit * RANK_COUNT + position


cdef inline int64_t _wild_slot(int64_t slot) noexcept nogil:
    """The wild kinds in a fixed order: slot 0 the joker, 1..4 the 2s of S H D C."""
    if slot == 0:
        return JOKER
    return (slot - 1) * RANK_COUNT + 1


cdef inline int64_t _wild_bits(int64_t wild) noexcept nogil:
    """The key's wild field of one wild card of kind ``wild`` (NO_WILD: none)."""
    if wild == JOKER:
        return 1
    if wild == NO_WILD:
        return 0
    return (<int64_t>1) << (KEY_TWO_SHIFT + 2 * (wild // RANK_COUNT))


cdef int64_t _run_key(int64_t suit, int64_t cells, int64_t wild) noexcept nogil:
    """The meld key of the run of ``suit`` with naturals in ``cells`` and the wild ``wild``
    (a 2 of the suit at its place and a 2 of the suit as the wild add up in one field)."""
    cdef int64_t rank_mask = 0
    cdef int64_t position
    if cells & (1 | ((<int64_t>1) << ACE_HIGH)):
        rank_mask = 1
    for position in range(2, ACE_HIGH):
        if (cells >> position) & 1:
            rank_mask |= (<int64_t>1) << (position - 1)
    return (((<int64_t>KEY_TAG_RUN) << KEY_TAG_SHIFT)
            | ((suit | (rank_mask << 2)) << KEY_BODY_SHIFT)
            | (_wild_bits(wild) + (((cells >> 1) & 1) << (KEY_TWO_SHIFT + 2 * suit))))


cdef inline int _push_reading(vector[Reading]* found, int64_t key, int64_t shape,
                              int64_t home, int64_t cells, int64_t wild,
                              int64_t clean) except -1 nogil:
    cdef Reading reading
    reading.key = key
    reading.shape = shape
    reading.home = home
    reading.cells = cells
    reading.wild = wild
    reading.clean = clean
    found.push_back(reading)
    return 0


cdef int _window_readings(const int64_t* hand, const int64_t* scalars,
                          vector[Reading]* found) except -1 nogil:
    """Every reading of every meld of the hand (catalogue_numba.catalogue's loops)."""
    cdef int64_t min_size = scalars[3]
    cdef int64_t foreign_of[5]
    cdef int64_t one = 1
    cdef int64_t suit, own_two, available, position, foreign, slot, kind, low, high, top
    cdef int64_t missing, window, naturals, hole, cells, twos_left, w, wild
    cdef int64_t rank, limit, held, count, set_wild_count, slots, key, payload
    for suit in range(4):
        own_two = suit * RANK_COUNT + 1
        available = 0
        for position in range(ACE_HIGH + 1):
            if hand[_kind_at(suit, position)] > 0:
                available |= one << position
        if available & ~(<int64_t>2) == 0:
            continue                          # no natural of the suit but its 2s
        foreign = 0
        for slot in range(5):
            kind = _wild_slot(slot)
            if kind != own_two and hand[kind] > 0:
                foreign_of[foreign] = kind
                foreign += 1
        for low in range(ACE_HIGH + 1):
            missing = 0
            top = low + RANK_COUNT
            if top > ACE_HIGH + 1:
                top = ACE_HIGH + 1
            for high in range(low, top):
                if not ((available >> high) & 1):
                    missing += 1
                    if missing > 1:
                        break
                if high - low + 1 < min_size:
                    continue
                window = ((one << (high + 1)) - 1) ^ ((one << low) - 1)
                naturals = window & available
                for hole in range(low - 1, high + 1):
                    # hole: the cell the wild takes (low - 1: none); a missing cell must be it
                    if hole < low:
                        if missing:
                            continue
                        cells = naturals
                    else:
                        if missing and ((available >> hole) & 1):
                            continue
                        cells = naturals & ~(one << hole)
                    if cells & ~(<int64_t>2) == 0:
                        continue              # every natural would be the suit's 2
                    if hole < low:
                        _push_reading(found, _run_key(suit, cells, NO_WILD), SHAPE_RUN, suit,
                                      cells, NO_WILD, 1)
                        continue
                    twos_left = hand[own_two] - ((cells >> 1) & 1)
                    for w in range(foreign + 1):      # the foreign wilds, then a 2 of the suit
                        if w == foreign:
                            if twos_left <= 0:
                                continue
                            wild = own_two
                        else:
                            wild = foreign_of[w]
                        _push_reading(found, _run_key(suit, cells, wild), SHAPE_RUN, suit,
                                      cells, wild, 0)
    for rank in range(RANK_COUNT):
        if not ((scalars[4] >> rank) & 1):
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
        slots = 5 if rank != 1 else 1
        for slot in range(slots):
            if hand[_wild_slot(slot)] > 0:
                foreign_of[set_wild_count] = _wild_slot(slot)
                set_wild_count += 1
        if held + (1 if set_wild_count > 0 else 0) < min_size:
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
                        key = ((((<int64_t>KEY_TAG_SET) << KEY_TAG_SHIFT)
                                | (payload << KEY_BODY_SHIFT)) | _wild_bits(wild))
                    _push_reading(found, key, SHAPE_SET, rank, naturals, wild,
                                  1 if wild == NO_WILD else 0)
            suit = 0
            while suit < 4:
                if ((naturals >> (2 * suit)) & 3) < ((limit >> (2 * suit)) & 3):
                    naturals += one << (2 * suit)
                    break
                naturals &= ~(3 << (2 * suit))
                suit += 1
            if suit == 4:
                break
    return 0


cdef int _window_catalogue(const int64_t* hand, const int64_t* scalars, const Scoring* scoring,
                           Found* found) except -1 nogil:
    """Clear ``found`` and fill it with the hand's catalogue (call when _window_rules):
    one row per meld (picks[i] == i), its readings' first, clean when one reading is."""
    cdef vector[Reading] readings
    cdef vector[pair[int64_t, int64_t]] order
    cdef int64_t n, i, j, c, slot, position, suit, clean, cells
    cdef size_t offset
    cdef int64_t* row
    readings.reserve(64)
    _window_readings(hand, scalars, &readings)
    n = <int64_t>readings.size()
    order.resize(n)
    for i in range(n):
        order[i] = pair[int64_t, int64_t](readings[i].key, i)
    sort(order.begin(), order.end())
    found.keys.clear()
    found.picks.clear()
    found.info.clear()
    found.rows.clear()
    i = 0
    while i < n:
        c = order[i].second
        slot = <int64_t>found.keys.size()
        offset = found.rows.size()
        found.rows.resize(offset + KIND_COUNT)
        row = found.rows.data() + offset
        cells = readings[c].cells
        if readings[c].shape == SHAPE_RUN:
            for position in range(ACE_HIGH + 1):
                if (cells >> position) & 1:
                    row[_kind_at(readings[c].home, position)] += 1
        else:
            for suit in range(4):
                row[suit * RANK_COUNT + readings[c].home] = (cells >> (2 * suit)) & 3
        if readings[c].wild != NO_WILD:
            row[readings[c].wild] += 1
        clean = 0
        j = i
        while j < n and order[j].first == order[i].first:
            if readings[order[j].second].clean:
                clean = 1
            j += 1
        found.keys.push_back(readings[c].key)
        found.picks.push_back(slot)
        found.info.push_back(readings[c].shape)
        found.info.push_back(readings[c].home)
        found.info.push_back(clean)
        found.info.push_back(_points(row, readings[c].shape, readings[c].home, clean, scoring))
        i = j
    return 0


cdef class _Held:
    """The int64 buffers one call reads (released when the call drops this object)."""
    cdef Py_buffer views[8]
    cdef int count

    cdef const int64_t* take(self, object obj, int ndim, str name) except NULL:
        """obj's data as C-contiguous int64 of ndim dimensions (see _get_int64)."""
        if self.count == 8:
            raise RuntimeError("_Held holds at most 8 buffers")
        _get_int64(obj, &self.views[self.count], ndim, name)
        self.count += 1
        return <const int64_t*>self.views[self.count - 1].buf

    cdef Py_ssize_t extent(self, int index, int axis):
        """The shape along ``axis`` of the buffer taken ``index``-th."""
        return self.views[index].shape[axis]

    def __dealloc__(self):
        cdef int i
        for i in range(self.count):
            PyBuffer_Release(&self.views[i])


cdef const int64_t* _take_rules(_Held held, object scalars, object values, object run_bonus,
                                object set_bonus, Scoring* scoring) except NULL:
    """Read and check the rule arrays into ``held``; fill ``scoring``; return the scalars."""
    cdef int first = held.count
    cdef const int64_t* scalar_data = held.take(scalars, 1, "scalars")
    scoring.values = held.take(values, 1, "values")
    scoring.run_bonus = held.take(run_bonus, 3, "run_bonus")
    scoring.set_bonus = held.take(set_bonus, 3, "set_bonus")
    if held.extent(first + 1, 0) != KIND_COUNT:
        raise ValueError(f"values must have {KIND_COUNT} entries")
    if held.extent(first, 0) != 6:
        raise ValueError("scalars must have 6 entries")
    if (held.extent(first + 2, 0) != 4 or held.extent(first + 2, 1) != 2
            or held.extent(first + 2, 2) < RANK_COUNT + 1):
        raise ValueError("run_bonus must have shape (4, 2, >= 14)")
    if (held.extent(first + 3, 0) != RANK_COUNT + 1 or held.extent(first + 3, 1) != 2
            or held.extent(first + 3, 2) < 1):
        raise ValueError("set_bonus must have shape (14, 2, >= 1)")
    scoring.run_width = held.extent(first + 2, 2)
    scoring.set_width = held.extent(first + 3, 2)
    return scalar_data


cdef object _int64_array(const int64_t* data, int64_t n):
    """A new int64 numpy array of the n values at data."""
    out = np.empty(n, dtype=np.int64)
    cdef Py_buffer view
    if n:
        PyObject_GetBuffer(out, &view, PyBUF_C_CONTIGUOUS)
        memcpy(view.buf, data, n * sizeof(int64_t))
        PyBuffer_Release(&view)
    return out


def catalogue(hand, scalars, values, run_bonus, set_bonus):
    """Returns (keys, counts, shapes, homes, cleans, points), ascending key."""
    cdef _Held held = _Held.__new__(_Held)
    cdef Scoring scoring
    cdef const int64_t* hand_data = held.take(hand, 1, "hand")
    if held.extent(0, 0) != KIND_COUNT:
        raise ValueError(f"hand must have {KIND_COUNT} entries")
    cdef const int64_t* scalar_data = _take_rules(held, scalars, values, run_bonus, set_bonus,
                                                  &scoring)
    cdef int64_t kind
    for kind in range(KIND_COUNT):
        if hand_data[kind] < 0:
            raise ValueError("hand counts must be non-negative")
    cdef vector[int64_t] keys, rows, picks, info, columns
    cdef Found found
    found.keys = &keys
    found.rows = &rows
    found.picks = &picks
    found.info = &info
    cdef int64_t unique, slot, field
    cdef bint direct
    with nogil:
        direct = _window_rules(scalar_data)
        if direct:         # one row per meld, in order
            _window_catalogue(hand_data, scalar_data, &scoring, &found)
        else:
            _catalogue_into(hand_data, scalar_data, &scoring, _NOTHING, &found)
        unique = <int64_t>keys.size()
        if not direct:
            columns.resize(unique * KIND_COUNT)
            for slot in range(unique):
                memcpy(columns.data() + slot * KIND_COUNT,
                       rows.data() + picks[slot] * KIND_COUNT, KIND_COUNT * sizeof(int64_t))
            rows.swap(columns)
        columns.resize(4 * unique)        # info's four fields, field by field
        for slot in range(unique):
            for field in range(4):
                columns[field * unique + slot] = info[4 * slot + field]
    out_counts = _int64_array(rows.data(), unique * KIND_COUNT).reshape(unique, KIND_COUNT)
    return (_int64_array(keys.data(), unique), out_counts,
            _int64_array(columns.data(), unique),
            _int64_array(columns.data() + unique, unique),
            _int64_array(columns.data() + 2 * unique, unique),
            _int64_array(columns.data() + 3 * unique, unique))


def additions(hand, melds, shapes, homes, before, scalars, values, run_bonus, set_bonus):
    """Returns (counts int64[n, 53], points int64[n], groups int64[n]): each table
    meld's additions (``partition_ref.additions``), by meld then key."""
    cdef const int64_t[::1] hand_view = np.ascontiguousarray(hand, dtype=np.int64)
    cdef const int64_t[:, ::1] meld_view = np.ascontiguousarray(melds, dtype=np.int64)
    cdef const int64_t[::1] shape_view = np.ascontiguousarray(shapes, dtype=np.int64)
    cdef const int64_t[::1] home_view = np.ascontiguousarray(homes, dtype=np.int64)
    cdef const int64_t[::1] before_view = np.ascontiguousarray(before, dtype=np.int64)
    cdef _Held held = _Held.__new__(_Held)
    cdef Scoring scoring
    cdef const int64_t* scalar_data = _take_rules(held, scalars, values, run_bonus, set_bonus,
                                                  &scoring)
    cdef int64_t m = meld_view.shape[0]
    if hand_view.shape[0] != KIND_COUNT or (m and meld_view.shape[1] != KIND_COUNT):
        raise ValueError(f"hand and melds must have {KIND_COUNT} counts")
    if shape_view.shape[0] != m or home_view.shape[0] != m or before_view.shape[0] != m:
        raise ValueError("shapes, homes and before must have one entry per meld")
    cdef int64_t kind, index, row, total, size, shape, home, suit, rank
    for kind in range(KIND_COUNT):
        if hand_view[kind] < 0:
            raise ValueError("hand counts must be non-negative")
    cdef vector[int64_t] keys, rows, picks, info, out_rows, out_points, out_groups
    cdef Found found
    found.keys = &keys
    found.rows = &rows
    found.picks = &picks
    found.info = &info
    cdef int64_t pool[KIND_COUNT]
    cdef int64_t mask[KIND_COUNT]
    cdef const int64_t* base
    cdef const int64_t* counts
    cdef bint inside
    cdef size_t offset
    with nogil:
        for index in range(m):
            base = &meld_view[index, 0]
            shape = shape_view[index]
            home = home_view[index]
            memset(mask, 0, sizeof(mask))
            mask[JOKER] = 1
            if scalar_data[0]:
                for suit in range(4):
                    mask[suit * RANK_COUNT + 1] = 1
            if shape == SHAPE_RUN:
                for rank in range(RANK_COUNT):
                    mask[home * RANK_COUNT + rank] = 1
            elif shape == SHAPE_SET:
                for suit in range(4):
                    mask[suit * RANK_COUNT + home] = 1
            size = 0
            for kind in range(KIND_COUNT):
                pool[kind] = base[kind] + hand_view[kind] * mask[kind]
                size += base[kind]
            _catalogue_into(pool, scalar_data, &scoring, base, &found)
            for row in range(<int64_t>keys.size()):
                if info[4 * row] != shape or info[4 * row + 1] != home:
                    continue
                counts = rows.data() + picks[row] * KIND_COUNT
                total = 0
                inside = True
                for kind in range(KIND_COUNT):
                    total += counts[kind]
                    if counts[kind] < base[kind]:
                        inside = False
                if not inside or total <= size:
                    continue
                offset = out_rows.size()
                out_rows.resize(offset + KIND_COUNT)
                for kind in range(KIND_COUNT):
                    out_rows[offset + kind] = counts[kind] - base[kind]
                out_points.push_back(info[4 * row + 3] - before_view[index])
                out_groups.push_back(index)
    cdef int64_t n = <int64_t>out_points.size()
    result_counts = np.zeros((n, KIND_COUNT), dtype=np.int64)
    result_points = np.empty(n, dtype=np.int64)
    result_groups = np.empty(n, dtype=np.int64)
    cdef int64_t[:, ::1] rc = result_counts
    cdef int64_t[::1] rp = result_points
    cdef int64_t[::1] rg = result_groups
    if n:
        memcpy(&rc[0, 0], out_rows.data(), n * KIND_COUNT * sizeof(int64_t))
        memcpy(&rp[0], out_points.data(), n * sizeof(int64_t))
        memcpy(&rg[0], out_groups.data(), n * sizeof(int64_t))
    return result_counts, result_points, result_groups


# --- inputs: int64 buffers without memoryview objects ------------------------------
#
# The kernels are called per hand, so the fixed cost of a call matters: the arrays are read
# through the buffer protocol (no numpy call when they already are C-contiguous int64).

cdef inline bint _int64_format(const char* fmt) noexcept:
    if fmt == NULL:
        return False
    if fmt[0] == b'@' or fmt[0] == b'=' or fmt[0] == b'<':
        fmt += 1
    return (fmt[0] == b'l' or fmt[0] == b'q') and fmt[1] == 0


cdef int _try_int64(object obj, Py_buffer* view, int ndim) except -1:
    """Fill view from obj when obj is C-contiguous int64 with ndim dimensions (1), else 0."""
    try:
        PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)
    except (TypeError, ValueError, BufferError):
        return 0
    if view.ndim == ndim and view.itemsize == 8 and _int64_format(view.format):
        return 1
    PyBuffer_Release(view)
    return 0


cdef int _get_int64(object obj, Py_buffer* view, int ndim, str name) except -1:
    """Fill view with obj as C-contiguous int64 (converting when needed); release it after."""
    if _try_int64(obj, view, ndim):
        return 0
    if _try_int64(np.ascontiguousarray(obj, dtype=np.int64), view, ndim):
        return 0
    raise ValueError(f"{name} must be a {ndim}-dimensional array of integers")


# --- the memo: open addressing over (key, aux) pairs, keys >= 0 ---------------------
#
# Memo keys are the remaining hand in mixed radix (times keep + 1, plus kept, for best),
# so they are >= 0 and -1 can mark a free slot; aux is best's step index with groups
# (0 when counting or without groups). Linear probing over a power-of-two table kept at most
# half full, entries of three int64 (key, aux, value) in a vector that the module reuses
# across calls; the table starts small (a 16-card hand meets 20-200 states) and grows.

cdef uint64_t _GOLDEN = 0x9E3779B97F4A7C15
cdef uint64_t _MIX = 0xC2B2AE3D27D4EB4F
cdef int64_t _INITIAL_BITS = 8
cdef size_t _KEEP_WORDS = 3 << 18   # a larger memo is freed after the call


cdef struct Memo:
    vector[int64_t]* slots     # [3 * capacity]: key, aux, value
    vector[int64_t]* spare     # the other buffer, for growing
    int64_t* data
    uint64_t mask
    int64_t shift
    int64_t size


cdef int _memo_init(Memo* memo, vector[int64_t]* slots, vector[int64_t]* spare,
                    int64_t bits) except -1:
    memo.slots = slots
    memo.spare = spare
    slots.assign(3 << bits, -1)
    memo.data = slots.data()
    memo.mask = ((<uint64_t>1) << bits) - 1
    memo.shift = 64 - bits
    memo.size = 0
    return 0


cdef inline uint64_t _memo_hash(const Memo* memo, int64_t key, uint64_t aux) noexcept nogil:
    return (((<uint64_t>key) ^ (aux * _MIX)) * _GOLDEN) >> memo.shift


cdef inline bint _memo_find(const Memo* memo, int64_t key, uint64_t aux,
                            int64_t* value) noexcept nogil:
    cdef uint64_t i = _memo_hash(memo, key, aux)
    cdef const int64_t* entry
    while True:
        entry = memo.data + 3 * i
        if entry[0] == key and <uint64_t>entry[1] == aux:
            value[0] = entry[2]
            return True
        if entry[0] == -1:
            return False
        i = (i + 1) & memo.mask


cdef inline void _memo_place(Memo* memo, int64_t key, uint64_t aux, int64_t value) noexcept nogil:
    cdef uint64_t i = _memo_hash(memo, key, aux)
    cdef int64_t* entry = memo.data + 3 * i
    while entry[0] != -1 and not (entry[0] == key and <uint64_t>entry[1] == aux):
        i = (i + 1) & memo.mask
        entry = memo.data + 3 * i
    if entry[0] == -1:
        memo.size += 1
    entry[0] = key
    entry[1] = <int64_t>aux
    entry[2] = value


cdef int _memo_put(Memo* memo, int64_t key, uint64_t aux, int64_t value) except -1 nogil:
    cdef int64_t* old
    cdef uint64_t old_capacity, j
    if (memo.size + 1) * 2 > <int64_t>(memo.mask + 1):
        old_capacity = memo.mask + 1
        memo.spare.assign(12 * old_capacity, -1)     # four times the slots
        memo.slots.swap(memo.spare[0])
        old = memo.spare.data()
        memo.data = memo.slots.data()
        memo.mask = 4 * old_capacity - 1
        memo.shift -= 2
        memo.size = 0
        for j in range(old_capacity):
            if old[3 * j] != -1:
                _memo_place(memo, old[3 * j], <uint64_t>old[3 * j + 1], old[3 * j + 2])
    _memo_place(memo, key, aux, value)
    return 0


# --- the shared dynamic programme ---------------------------------------------------
#
# Besides the remaining counts, the programme keeps them as bit masks: bit p of
# levels[t] is set when the kind decided at position p has more than t copies left.
# A meld fits when, for each t below its largest multiplicity, its kinds needing more
# than t copies are all in levels[t]; the first kind left is the lowest set bit of
# levels[0].
#
# The levels are the whole remaining hand: a kind's count is the number of levels holding
# its bit (a thermometer code), so taking one copy of each kind of a bit set K moves K's
# bits down one level, L word operations with no loop over the meld's kinds; a meld is
# the sum of its needs[t] sets.
#
# The melds are stored sparse and grouped by the step that decides them (CSR over
# steps), in "slots": an ungrouped meld at its first card's kind step, a grouped meld at
# its group's step (the reference's attached and members lists, so a step's candidates
# are one slot range); a meld that exceeds the hand never fits and gets no slot. The
# steps are the reference's: for each decision position, one step per group anchored
# there (a group with a slot; ascending group number), then the kind step of the
# position. Without groups the steps are the positions (step p is position p). A
# kind that no meld with a slot holds can only stay in hand: it is set aside before the
# programme starts (it counts towards kept, and must respect max_left), so it takes no
# place in the memo key.

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static inline int partition_ctz64(unsigned long long x) {
        unsigned long i; _BitScanForward64(&i, x); return (int)i;
    }
    static inline int partition_popcount64(unsigned long long x) { return (int)__popcnt64(x); }
    #else
    static inline int partition_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int partition_popcount64(unsigned long long x) { return __builtin_popcountll(x); }
    #endif
    """
    int partition_ctz64(unsigned long long x) noexcept nogil
    int partition_popcount64(unsigned long long x) noexcept nogil


cdef int64_t _POSITION_OF[KIND_COUNT]
cdef uint64_t _BIT_OF[KIND_COUNT]
for _position in range(KIND_COUNT):
    _POSITION_OF[_ORDER[_position]] = _position
    _BIT_OF[_ORDER[_position]] = (<uint64_t>1) << _position
del _position


cdef struct Ctx:
    int64_t state              # the remaining hand in mixed radix, kept up to date
    const int64_t* place_at    # [KIND_COUNT], mixed-radix place per position (0: not in play)
    const int64_t* limit       # [KIND_COUNT], max_left (best only), by kind
    const int64_t* start       # [step_total + 1], CSR over steps
    const int64_t* step_pos    # [step_total], the position of each step
    const int64_t* kstep       # [KIND_COUNT], the kind step of each position
    const int64_t* first_step  # [KIND_COUNT], the first step of each position
    int64_t step_total
    const int64_t* deltas      # [slots], what a meld takes off the state
    const int64_t* reach       # [slots], largest multiplicity
    const int64_t* points      # [slots] (best only)
    const uint64_t* groups     # [slots], 1 << group, 0 for none (best only)
    const uint64_t* needs      # [slots, L]: needs[s, t]: kinds of s with multiplicity > t
    uint64_t* levels           # [L]: bit position_of[k] of levels[t] iff remaining[k] > t
    int64_t level_count        # L: the largest count in play (at least 1)
    int64_t* stacks            # [KIND_COUNT, depth_cap], one stack per decision level
    int64_t depth_cap
    int64_t keep
    int64_t overflow
    Memo memo
    uint64_t anchors           # bit p: some group with a slot is anchored at position p
    int64_t budget             # most memo entries (best only); past it the search stops
    bint exhausted             # the budget stopped the search: the best may be higher
    # the priced search (best_priced only; see there)
    const int64_t* price_at    # [KIND_COUNT], the price of the kind at each position
    const int64_t* shares      # [slots], the prices of a slot's meld
    const int64_t* tail        # [step_total + 1], the slack of the groups and cuts open
    int64_t bound              # the prices of the remaining hand in play
    int64_t scale              # the prices' fixed point
    int64_t leave              # the least price of a kind the hand holds
    int64_t moves              # moves tried
    int64_t move_limit         # ... past this many the search stops
    bint stopped
    const int64_t* slot_meld   # [slots], the meld of each slot
    const int64_t* slot_step   # [slots], the step of each slot
    const int64_t* cuts_start  # [slots + 1], CSR: the cuts (with slack) holding a slot's meld
    const int64_t* cuts_of     # ... their numbers
    const int64_t* cut_last    # [C], the last step with a meld of the cut
    const int64_t* cut_value   # [C], the cut's slack
    int64_t* cut_laid          # [C], melds of the cut laid on the path
    int64_t* closed            # [step_total + 1], slack of the closed cuts counted in tail
    void* node_bound           # a sub-problem's programme (a Python callable; see there)
    int64_t node_left          # ... at most this many more of them
    int64_t node_cards         # ... for sub-problems of at least this many cards
    int64_t node_moves         # ... once this many moves are tried


cdef class _Workspace:
    """Buffers of one call, kept by the module between calls (no allocation per call)."""

    cdef bint busy
    cdef vector[int64_t] place_of, place_at, start, deltas, reach, step_pos, kstep, first_step
    cdef vector[int64_t] points, slot_meld, stacks
    cdef vector[int64_t] tmp_kinds, tmp_mults, tmp_width, tmp_first, memo_slots, memo_spare
    cdef vector[uint64_t] groups, needs, levels
    cdef int64_t depth_cap, level_count, meld_total, slot_total, card_total
    cdef int64_t state_total, aside_cards, step_total
    cdef uint64_t anchors

    cdef int build(self, const int64_t* hand, const int64_t* melds, int64_t meld_total,
                   const int64_t* points, const int64_t* groups,
                   const int64_t* allowed=NULL) except -1:
        """Sparse slots, CSR over steps, memo-key places, bit masks.

        A meld's slot sits at its step: its first card's kind step for an ungrouped
        meld, its group's step for a grouped one (placed at the group's anchor: the
        smallest first card among all the group's melds, those without a slot included,
        as the reference); within a step, in catalogue order. With ``allowed`` (a flag per
        meld), a meld flagged 0 gets no slot either."""
        cdef int64_t anchor[63]
        cdef uint64_t slotted_groups = 0
        cdef int64_t group_count = 0
        cdef int64_t full_first
        cdef int64_t absent[KIND_COUNT]
        cdef int64_t present[KIND_COUNT]
        cdef int64_t per_step[KIND_COUNT + 64]
        cdef int64_t fill[KIND_COUNT + 64]
        cdef int64_t group_step[63]
        cdef int64_t present_count = 0
        cdef int64_t kind, count, m, j, t, width, first, place, slot, level_count, delta
        cdef int64_t reach, group, bad, W
        cdef uint64_t live = 0
        cdef uint64_t bit, mask
        cdef bint over
        cdef const int64_t* row
        cdef int64_t* tk
        cdef int64_t* tm
        cdef uint64_t* need
        self.meld_total = meld_total
        self.card_total = 0
        for kind in range(KIND_COUNT):
            count = hand[kind]
            if count < 0:
                raise ValueError("hand counts must be non-negative")
            if count > 0:
                absent[kind] = 0
                present[present_count] = kind
                present_count += 1
                self.card_total += count
            else:
                absent[kind] = -1
        W = present_count if present_count > 0 else 1
        self.tmp_kinds.resize(meld_total * W)
        self.tmp_mults.resize(meld_total * W)
        self.tmp_width.resize(meld_total)
        self.tmp_first.resize(meld_total)
        tk = self.tmp_kinds.data()
        tm = self.tmp_mults.data()
        memset(per_step, 0, sizeof(per_step))
        for j in range(63):
            anchor[j] = KIND_COUNT
        for m in range(meld_total):
            group = -1
            if groups != NULL:
                group = groups[m]
                if group < -1 or group > 62:
                    raise ValueError("groups must be ints in -1..62")
            row = melds + m * KIND_COUNT
            bad = 0
            for kind in range(KIND_COUNT):     # any card outside the hand (vectorised)
                bad |= row[kind] & absent[kind]
            width = 0
            first = KIND_COUNT
            over = False
            for j in range(present_count):
                kind = present[j]
                count = row[kind]
                if count != 0:
                    if count < 0:
                        raise ValueError("meld counts must be non-negative")
                    if count > hand[kind]:
                        over = True
                    tk[m * W + width] = kind
                    tm[m * W + width] = count
                    width += 1
                    if _POSITION_OF[kind] < first:
                        first = _POSITION_OF[kind]
            if width == 0 and bad == 0:
                raise ValueError(f"meld {m} holds no cards")
            if group >= 0:
                full_first = first
                if bad != 0:
                    for kind in range(KIND_COUNT):
                        if row[kind] != 0 and _POSITION_OF[kind] < full_first:
                            full_first = _POSITION_OF[kind]
                if full_first < anchor[group]:
                    anchor[group] = full_first
            if bad != 0 or over or (allowed != NULL and allowed[m] == 0):
                self.tmp_first[m] = -1     # never fits (or may not be laid): no slot
                continue
            self.tmp_width[m] = width
            self.tmp_first[m] = first
            if group >= 0:
                slotted_groups |= (<uint64_t>1) << group
            for j in range(width):
                live |= (<uint64_t>1) << tk[m * W + j]
        # the steps: per position, the groups (with a slot) anchored there, then its kind
        self.anchors = 0
        for j in range(63):
            if (slotted_groups >> j) & 1:
                group_count += 1
                self.anchors |= (<uint64_t>1) << anchor[j]
        self.step_pos.resize(KIND_COUNT + group_count)
        self.kstep.resize(KIND_COUNT)
        self.first_step.resize(KIND_COUNT)
        slot = 0
        for t in range(KIND_COUNT):
            self.first_step[t] = slot
            if (self.anchors >> t) & 1:
                for j in range(63):
                    if (slotted_groups >> j) & 1 and anchor[j] == t:
                        group_step[j] = slot
                        self.step_pos[slot] = t
                        slot += 1
            self.kstep[t] = slot
            self.step_pos[slot] = t
            slot += 1
        self.step_total = slot
        # tmp_first from here on: the step of each meld with a slot
        for m in range(meld_total):
            first = self.tmp_first[m]
            if first < 0:
                continue
            if groups != NULL and groups[m] >= 0:
                first = group_step[groups[m]]
            else:
                first = self.kstep[first]
            self.tmp_first[m] = first
            per_step[first] += 1
        # the memo key: the remaining hand in play in mixed radix (hand[kind] + 1 per kind)
        self.place_of.assign(KIND_COUNT, 0)
        self.place_at.assign(KIND_COUNT, 0)
        self.aside_cards = 0
        level_count = 1
        place = 1
        for j in range(present_count):
            kind = present[j]
            count = hand[kind]
            if not ((live >> kind) & 1):
                self.aside_cards += count
                continue
            if count > level_count:
                level_count = count
            if place > C_INT64_MAX // (count + 1):
                raise OverflowError("hand too large for the int64 memo key")
            self.place_of[kind] = place
            self.place_at[_POSITION_OF[kind]] = place
            place *= count + 1
        self.state_total = place
        self.level_count = level_count
        # a kind step's split: at most level_count melds holding the step's kind
        self.depth_cap = level_count + 1
        # CSR over steps
        self.start.resize(self.step_total + 1)
        self.start[0] = 0
        for j in range(self.step_total):
            self.start[j + 1] = self.start[j] + per_step[j]
            fill[j] = self.start[j]
        self.slot_total = self.start[self.step_total]
        cdef int64_t slots = self.slot_total
        self.deltas.resize(slots)
        self.reach.resize(slots)
        self.points.resize(slots)
        self.slot_meld.resize(slots)
        self.groups.resize(slots)
        self.needs.assign(slots * level_count, 0)
        for m in range(meld_total):
            first = self.tmp_first[m]
            if first < 0:
                continue
            slot = fill[first]
            fill[first] = slot + 1
            width = self.tmp_width[m]
            self.slot_meld[slot] = m
            need = self.needs.data() + slot * level_count
            delta = 0
            reach = 0
            for j in range(width):
                kind = tk[m * W + j]
                count = tm[m * W + j]
                delta += count * self.place_of[kind]
                if count > reach:
                    reach = count
                bit = _BIT_OF[kind]
                for t in range(count):
                    need[t] |= bit
            self.deltas[slot] = delta
            self.reach[slot] = reach
            self.points[slot] = points[m] if points != NULL else 0
            if groups != NULL and groups[m] >= 0:
                self.groups[slot] = (<uint64_t>1) << groups[m]
            else:
                self.groups[slot] = 0
        self.levels.assign(level_count, 0)
        for j in range(present_count):
            kind = present[j]
            if self.place_of[kind]:
                bit = _BIT_OF[kind]
                for t in range(hand[kind]):
                    self.levels[t] |= bit
        self.stacks.resize(KIND_COUNT * self.depth_cap)
        return 0

    cdef int fill(self, Ctx* ctx) except -1:
        ctx.state = self.state_total - 1     # every card in play still in hand
        ctx.place_at = self.place_at.data()
        ctx.limit = NULL
        ctx.start = self.start.data()
        ctx.deltas = self.deltas.data()
        ctx.reach = self.reach.data()
        ctx.points = self.points.data()
        ctx.groups = self.groups.data()
        ctx.step_pos = self.step_pos.data()
        ctx.kstep = self.kstep.data()
        ctx.first_step = self.first_step.data()
        ctx.step_total = self.step_total
        ctx.anchors = self.anchors
        ctx.needs = self.needs.data()
        ctx.levels = self.levels.data()
        ctx.level_count = self.level_count
        ctx.stacks = self.stacks.data()
        ctx.depth_cap = self.depth_cap
        ctx.keep = 0
        ctx.overflow = 0
        ctx.price_at = NULL
        ctx.shares = NULL
        ctx.tail = NULL
        ctx.bound = 0
        ctx.scale = 1
        ctx.leave = 0
        ctx.moves = 0
        ctx.move_limit = C_INT64_MAX
        ctx.stopped = False
        ctx.slot_meld = self.slot_meld.data()
        ctx.slot_step = NULL
        ctx.cuts_start = NULL
        ctx.node_bound = NULL
        ctx.node_left = 0
        ctx.node_cards = 0
        ctx.node_moves = 0
        cdef int64_t bits = _INITIAL_BITS
        if self.card_total > 24:      # 10^3 states and up
            bits = 12
        _memo_init(&ctx.memo, &self.memo_slots, &self.memo_spare, bits)
        return 0

    cdef void release(self):
        if self.memo_slots.size() > _KEEP_WORDS:
            vector[int64_t]().swap(self.memo_slots)
        if self.memo_spare.size() > _KEEP_WORDS:
            vector[int64_t]().swap(self.memo_spare)
        self.busy = False


cdef _Workspace _SHARED = _Workspace()


cdef _Workspace _acquire():
    """The module's workspace, or a fresh one while another call (another thread) holds it."""
    cdef _Workspace workspace = _SHARED
    if workspace.busy:
        workspace = _Workspace()
    workspace.busy = True
    return workspace


cdef inline bint _fits(const Ctx* c, int64_t s, uint64_t used) noexcept nogil:
    cdef const uint64_t* need
    cdef int64_t t
    if c.groups[s] & used:
        return False
    need = c.needs + s * c.level_count
    if need[0] & ~c.levels[0]:
        return False
    for t in range(1, c.reach[s]):
        if need[t] & ~c.levels[t]:
            return False
    return True


cdef inline void _take(Ctx* c, int64_t s) noexcept nogil:
    """Take fitting meld s out of the remaining hand."""
    cdef const uint64_t* need = c.needs + s * c.level_count
    cdef uint64_t* levels = c.levels
    cdef int64_t last = c.level_count - 1
    cdef int64_t j, t
    cdef uint64_t taken
    for j in range(c.reach[s]):
        taken = need[j]            # one copy of each of these kinds
        for t in range(last):
            levels[t] = (levels[t] & ~taken) | (levels[t + 1] & taken)
        levels[last] &= ~taken
    c.state -= c.deltas[s]


cdef inline void _give(Ctx* c, int64_t s) noexcept nogil:
    """Put meld s back (undoes _take)."""
    cdef const uint64_t* need = c.needs + s * c.level_count
    cdef uint64_t* levels = c.levels
    cdef int64_t j, t
    cdef uint64_t given
    for j in range(c.reach[s]):
        given = need[j]
        t = c.level_count - 1
        while t > 0:
            levels[t] = (levels[t] & ~given) | (levels[t - 1] & given)
            t -= 1
        levels[0] |= given
    c.state += c.deltas[s]


cdef inline bint _over(const Ctx* c, int64_t position, int64_t limit) noexcept nogil:
    """Whether the kind at position has more than limit copies left."""
    return limit < 0 or (limit < c.level_count and (c.levels[limit] >> position) & 1)


cdef inline int64_t _set_aside(Ctx* c, int64_t position) noexcept nogil:
    """Set every copy of the kind at position aside; returns how many there were."""
    cdef uint64_t bit = (<uint64_t>1) << position
    cdef int64_t saved = 0
    while saved < c.level_count and c.levels[saved] & bit:
        c.levels[saved] &= ~bit
        saved += 1
    c.state -= saved * c.place_at[position]
    return saved


cdef inline void _restore(Ctx* c, int64_t position, int64_t saved) noexcept nogil:
    cdef uint64_t bit = (<uint64_t>1) << position
    cdef int64_t t
    for t in range(saved):
        c.levels[t] |= bit
    c.state += saved * c.place_at[position]


cdef inline int64_t _first_position(const Ctx* c, int64_t position) noexcept nogil:
    """First decision position >= position whose kind is still held; KIND_COUNT if none."""
    cdef uint64_t left
    if position >= KIND_COUNT:
        return KIND_COUNT
    left = c.levels[0] & (~(<uint64_t>0) << position)
    if left == 0:
        return KIND_COUNT
    return partition_ctz64(left)


cdef inline int64_t _next_fit(const Ctx* c, int64_t slot, int64_t high,
                              uint64_t used) noexcept nogil:
    """First slot in [slot, high) whose meld fits the remaining hand; -1 if none."""
    while slot < high:
        if _fits(c, slot, used):
            return slot
        slot += 1
    return -1


cdef int64_t _count_frame(Ctx* c, int64_t position) except -1 nogil:
    """Lay-downs of the remaining hand, whose first kind (at position) has a fitting meld."""
    cdef int64_t high = c.start[position + 1]
    cdef int64_t* stack = c.stacks + position * c.depth_cap
    cdef int64_t depth = 0
    cdef int64_t slot = c.start[position]
    cdef int64_t total = 0
    cdef int64_t saved, sub, found
    cdef bint visit = True
    while True:
        if visit:
            saved = _set_aside(c, position)
            sub = _count_rec(c, position + 1)
            _restore(c, position, saved)
            if sub > C_INT64_MAX - total:
                c.overflow = 1
                total = C_INT64_MAX
            else:
                total += sub
        found = _next_fit(c, slot, high, 0)
        if found >= 0:
            _take(c, found)
            stack[depth] = found
            depth += 1
            slot = found
            visit = True
        else:
            if depth == 0:
                break
            depth -= 1
            _give(c, stack[depth])
            slot = stack[depth] + 1
            visit = False
    return total


cdef int64_t _count_rec(Ctx* c, int64_t start) except -1 nogil:
    cdef int64_t position = _first_position(c, start)
    cdef int64_t key
    cdef int64_t total = 0
    if position == KIND_COUNT:
        return 1
    key = c.state
    if not _memo_find(&c.memo, key, 0, &total):
        if c.memo.size >= c.budget:
            c.exhausted = True  # over budget: not searched, and count() refuses the number
            return 0
        total = _count_frame(c, position)
        _memo_put(&c.memo, key, 0, total)
    return total


cdef int _check_shapes(const Py_buffer* hand_view, const Py_buffer* meld_view) except -1:
    """The hand is 53 counts and each meld row 53 counts (count and best share this)."""
    if hand_view.shape[0] != KIND_COUNT:
        raise ValueError(f"hand must have {KIND_COUNT} entries")
    if meld_view.shape[1] != KIND_COUNT:
        raise ValueError(f"meld_counts must have shape (M, {KIND_COUNT})")
    return 0


def count(hand, meld_counts, budget=COUNT_BUDGET):
    """(number of lay-downs, overflow flag, exhausted flag: the budget stopped it)."""
    cdef Py_buffer hand_view
    cdef Py_buffer meld_view
    cdef Ctx ctx
    cdef int64_t total
    cdef _Workspace workspace
    _get_int64(hand, &hand_view, 1, "hand")
    try:
        _get_int64(meld_counts, &meld_view, 2, "meld_counts")
        try:
            _check_shapes(&hand_view, &meld_view)
            workspace = _acquire()
            try:
                workspace.build(<const int64_t*>hand_view.buf, <const int64_t*>meld_view.buf,
                                meld_view.shape[0], NULL, NULL)
                workspace.fill(&ctx)
                ctx.budget = budget
                ctx.exhausted = False
                with nogil:
                    total = _count_rec(&ctx, 0)
            finally:
                workspace.release()
        finally:
            PyBuffer_Release(&meld_view)
    finally:
        PyBuffer_Release(&hand_view)
    return total, ctx.overflow, ctx.exhausted


# best without groups (or none with a slot): the first-card programme, one stop per
# held kind; step p is position p. With groups: the reference's steps (see Ctx), the
# memo state holding the advanced step index.

# NEG_INF - 1: below every value _best_rec returns, so it can flag a C++ exception
cdef int64_t _kind_frame(Ctx* c, int64_t step, int64_t position, int64_t kept,
                         bint stepped) except? -1152921504606846977 nogil:
    """Most points of the remaining hand from the kind step of position (its kind held):
    each multiset of the step's melds (slots start[step] .. start[step + 1]), then the
    kind set aside."""
    cdef int64_t limit = c.limit[_ORDER[position]]
    cdef int64_t high = c.start[step + 1]
    cdef int64_t* stack = c.stacks + position * c.depth_cap
    cdef int64_t depth = 0
    cdef int64_t slot = c.start[step]
    cdef int64_t gained = 0
    cdef int64_t best = C_NEG_INF
    cdef int64_t saved, next_kept, sub, found, s
    cdef bint visit = True
    while True:
        if visit and not _over(c, position, limit):
            saved = _set_aside(c, position)
            next_kept = kept + saved
            if next_kept > c.keep:
                next_kept = c.keep
            if stepped:
                sub = _best_step(c, step + 1, next_kept)
            else:
                sub = _best_rec(c, step + 1, next_kept)
            _restore(c, position, saved)
            if sub > C_NEG_INF and sub + gained > best:
                best = sub + gained
        found = _next_fit(c, slot, high, 0)
        if found >= 0:
            _take(c, found)
            gained += c.points[found]
            stack[depth] = found
            depth += 1
            slot = found
            visit = True
        else:
            if depth == 0:
                break
            depth -= 1
            s = stack[depth]
            _give(c, s)
            gained -= c.points[s]
            slot = s + 1
            visit = False
    return best


cdef int64_t _best_rec(Ctx* c, int64_t start,
                       int64_t kept) except? -1152921504606846977 nogil:
    cdef int64_t position = _first_position(c, start)
    cdef int64_t best = C_NEG_INF
    cdef int64_t key
    if position == KIND_COUNT:
        return 0 if kept >= c.keep else C_NEG_INF
    key = c.state * (c.keep + 1) + kept
    if not _memo_find(&c.memo, key, 0, &best):
        if c.memo.size >= c.budget:
            c.exhausted = True  # over budget: this sub-problem is not searched
            return C_NEG_INF
        best = _kind_frame(c, position, position, kept, False)
        _memo_put(&c.memo, key, 0, best)
    return best


cdef inline int64_t _advance(const Ctx* c, int64_t step) noexcept nogil:
    """The first step from step on with a choice (a group step with a meld that fits, the
    kind step of a held kind); step_total if none: the reference's advance."""
    cdef int64_t position, kind_step
    cdef uint64_t left
    while step < c.step_total:
        position = c.step_pos[step]
        kind_step = c.kstep[position]
        while step < kind_step:
            if _next_fit(c, c.start[step], c.start[step + 1], 0) >= 0:
                return step
            step += 1
        if (c.levels[0] >> position) & 1:
            return kind_step
        # on to the next position holding a kind or a group's anchor
        left = (c.levels[0] | c.anchors) & (~(<uint64_t>0) << (position + 1))
        if left == 0:
            return c.step_total
        step = c.first_step[partition_ctz64(left)]
    return c.step_total


cdef int64_t _best_step(Ctx* c, int64_t step,
                        int64_t kept) except? -1152921504606846977 nogil:
    cdef int64_t best = C_NEG_INF
    cdef int64_t key, position, sub, s, high
    step = _advance(c, step)
    if step == c.step_total:
        return 0 if kept >= c.keep else C_NEG_INF
    key = c.state * (c.keep + 1) + kept
    if _memo_find(&c.memo, key, <uint64_t>step, &best):
        return best
    if c.memo.size >= c.budget:
        c.exhausted = True  # over budget: this sub-problem is not searched
        return C_NEG_INF
    position = c.step_pos[step]
    if step == c.kstep[position]:
        best = _kind_frame(c, step, position, kept, True)
    else:
        # a group step: nothing, or one of the group's melds that fits
        best = _best_step(c, step + 1, kept)
        high = c.start[step + 1]
        for s in range(c.start[step], high):
            if _fits(c, s, 0):
                _take(c, s)
                sub = _best_step(c, step + 1, kept)
                _give(c, s)
                if sub > C_NEG_INF and sub + c.points[s] > best:
                    best = sub + c.points[s]
    _memo_put(&c.memo, key, <uint64_t>step, best)
    return best


cdef int _reconstruct(Ctx* c, int64_t target, int64_t kept, bint stepped,
                      vector[int64_t]* picked) except -1 nogil:
    """Walk the memo down from the root in the reference's order (at each step the first
    move whose value matches); 1 when a lay-down worth target was rebuilt, else 0. picked
    receives slots.

    The reference also stops at the held kinds that no meld holds (set aside here before
    the programme starts, counted in kept): their one move is to set the kind aside, so
    skipping them changes no choice."""
    cdef int64_t step = 0
    cdef int64_t position, kind, high, depth, slot, gained, saved, next_kept, sub
    cdef int64_t found, s, j
    cdef int64_t* stack
    cdef bint visit, matched
    while True:
        if stepped:
            step = _advance(c, step)
        else:
            step = _first_position(c, step)
        if step >= c.step_total:
            return 1
        position = c.step_pos[step]
        high = c.start[step + 1]
        matched = False
        if step != c.kstep[position]:
            # a group step: nothing first, then each fitting meld in catalogue order
            sub = _best_step(c, step + 1, kept)
            if sub > C_NEG_INF and sub == target:
                matched = True
            else:
                for s in range(c.start[step], high):
                    if _fits(c, s, 0):
                        _take(c, s)
                        sub = _best_step(c, step + 1, kept)
                        if sub > C_NEG_INF and sub + c.points[s] == target:
                            matched = True
                            picked.push_back(s)
                            break
                        _give(c, s)
            if not matched:
                return 0
            target = sub
            step += 1
            continue
        kind = _ORDER[position]
        # levels > position are the only ones the programme touches from here
        stack = c.stacks + position * c.depth_cap
        depth = 0
        slot = c.start[step]
        gained = 0
        visit = True
        while True:
            if visit and not _over(c, position, c.limit[kind]):
                saved = _set_aside(c, position)
                next_kept = kept + saved
                if next_kept > c.keep:
                    next_kept = c.keep
                if stepped:
                    sub = _best_step(c, step + 1, next_kept)
                else:
                    sub = _best_rec(c, step + 1, next_kept)
                if sub > C_NEG_INF and sub + gained == target:
                    matched = True
                    kept = next_kept
                    target = sub
                    break
                _restore(c, position, saved)
            found = _next_fit(c, slot, high, 0)
            if found >= 0:
                _take(c, found)
                gained += c.points[found]
                stack[depth] = found
                depth += 1
                slot = found
                visit = True
            else:
                if depth == 0:
                    break
                depth -= 1
                s = stack[depth]
                _give(c, s)
                gained -= c.points[s]
                slot = s + 1
                visit = False
        if not matched:
            return 0
        for j in range(depth):
            picked.push_back(stack[j])
        step += 1


cdef int64_t _begin(_Workspace workspace, Ctx* ctx, object keep_value,
                    const int64_t* hand, const int64_t* limit, int64_t budget) except -2:
    """A best() search's context over a built workspace; the cards kept from the start
    (the kinds no meld holds stay in hand), or -1 when those kinds leave more copies
    than ``limit`` allows (nothing is feasible).

    kept is min(keep, cards set aside): any keep <= 0 acts as 0 and any keep beyond
    the hand as hand + 1 (never reached), which keeps the memo key small and injective."""
    cdef int64_t keep_c, kind, kept
    if keep_value <= 0:
        keep_c = 0
    elif keep_value > workspace.card_total:
        keep_c = workspace.card_total + 1
    else:
        keep_c = keep_value
    if workspace.state_total > C_INT64_MAX // (keep_c + 1):
        raise OverflowError("hand too large for the int64 memo key")
    workspace.fill(ctx)
    ctx.keep = keep_c
    ctx.limit = limit
    ctx.budget = budget
    ctx.exhausted = False
    for kind in range(KIND_COUNT):
        if hand[kind] > 0 and workspace.place_of[kind] == 0 and hand[kind] > limit[kind]:
            return -1
    kept = workspace.aside_cards
    return keep_c if kept > keep_c else kept


def best(hand, meld_counts, points, keep, groups=None, max_left=None, budget=STATE_BUDGET):
    """(best points, chosen meld indices sorted, exact); NEG_INF and none when nothing is
    feasible.

    ``groups`` (int64[M], -1 none, else 0..62): at most one meld per group; ``max_left``
    (int64[53]): at most that many copies of each kind stay in hand. Both optional. At
    most ``budget`` sub-problems are memoised; past that a sub-problem not yet solved
    counts as infeasible, so the lay-down is legal but may fall short of the best, and
    ``exact`` is False.
    """
    cdef Py_buffer hand_view
    cdef Py_buffer meld_view
    cdef Py_buffer point_view
    cdef Py_buffer group_view
    cdef Py_buffer limit_view
    cdef bint has_groups = groups is not None
    cdef bint has_limit = max_left is not None
    cdef const int64_t* hand_data
    cdef const int64_t* limit_data
    cdef const int64_t* group_data = NULL
    cdef int64_t meld_total, kind, target, kept
    cdef int matched = 0
    cdef bint feasible = True
    cdef bint stepped = False
    cdef Ctx ctx
    cdef vector[int64_t] picked
    cdef int64_t no_limit[KIND_COUNT]
    cdef _Workspace workspace
    cdef size_t i
    cdef object keep_value = int(keep)
    _get_int64(hand, &hand_view, 1, "hand")
    try:
        _get_int64(meld_counts, &meld_view, 2, "meld_counts")
        try:
            _get_int64(points, &point_view, 1, "points")
            try:
                if has_groups:
                    _get_int64(groups, &group_view, 1, "groups")
                try:
                    if has_limit:
                        _get_int64(max_left, &limit_view, 1, "max_left")
                    try:
                        _check_shapes(&hand_view, &meld_view)
                        meld_total = meld_view.shape[0]
                        if point_view.shape[0] != meld_total:
                            raise ValueError("points must have one entry per meld")
                        if has_groups:
                            if group_view.shape[0] != meld_total:
                                raise ValueError("groups must have one entry per meld")
                            group_data = <const int64_t*>group_view.buf
                        hand_data = <const int64_t*>hand_view.buf
                        if has_limit:
                            if limit_view.shape[0] != KIND_COUNT:
                                raise ValueError(f"max_left must have {KIND_COUNT} entries")
                            limit_data = <const int64_t*>limit_view.buf
                        else:
                            for kind in range(KIND_COUNT):
                                no_limit[kind] = C_INT64_MAX
                            limit_data = no_limit
                        workspace = _acquire()
                        try:
                            workspace.build(hand_data, <const int64_t*>meld_view.buf, meld_total,
                                            <const int64_t*>point_view.buf, group_data)
                            kept = _begin(workspace, &ctx, keep_value, hand_data, limit_data,
                                          budget)
                            feasible = kept >= 0
                            # some group has a meld that fits: the steps
                            stepped = workspace.anchors != 0
                            target = C_NEG_INF
                            if feasible:
                                with nogil:
                                    if stepped:
                                        target = _best_step(&ctx, 0, kept)
                                    else:
                                        target = _best_rec(&ctx, 0, kept)
                                    if target != C_NEG_INF:
                                        matched = _reconstruct(&ctx, target, kept, stepped,
                                                               &picked)
                            if target == C_NEG_INF:
                                return NEG_INF, np.empty(0, dtype=np.int64), not ctx.exhausted
                            if not matched:  # the memo guarantees a match
                                raise RuntimeError("best lay-down reconstruction failed")
                            for i in range(picked.size()):
                                picked[i] = workspace.slot_meld[picked[i]]
                        finally:
                            workspace.release()
                    finally:
                        if has_limit:
                            PyBuffer_Release(&limit_view)
                finally:
                    if has_groups:
                        PyBuffer_Release(&group_view)
            finally:
                PyBuffer_Release(&point_view)
        finally:
            PyBuffer_Release(&meld_view)
    finally:
        PyBuffer_Release(&hand_view)
    sort(picked.begin(), picked.end())
    out = np.empty(picked.size(), dtype=np.int64)
    cdef int64_t[::1] out_view = out
    for i in range(picked.size()):
        out_view[i] = picked[i]
    return target, out, not ctx.exhausted


# --- the priced search ----------------------------------------------------------------
#
# best() with the bound of a dual-feasible price vector, as partition_numba.best_priced:
# the sub-problem of a remaining hand r at step s, with k cards kept so far, is worth at
# most prices . r + tail[s] - (keep - k) * leave (fixed point, ``scale``), where tail[s]
# is the slack of the groups and cuts that still have a meld at step s or later. The
# search looks only for lay-downs worth more than a threshold (fail-hard: a sub-problem
# that cannot beat its threshold alpha answers alpha, and its memo word marks it an upper
# bound: value * 2 + 1; an exact value is value * 2), tries the empty move of a step last,
# and stops after ``move_limit`` moves. A laid meld closes the cuts that hold it (their
# slack leaves the tail of the later steps), and a large new sub-problem may be ruled out
# by its own linear programme, a callable the caller passes (numba's
# kernels.lp_bound.subset_bound): the search holds the GIL only for those calls.


cdef inline bint _count_move(Ctx* c) noexcept nogil:
    """One more move; True once the search is past its move limit (it then stops)."""
    c.moves += 1
    if c.moves > c.move_limit:
        c.stopped = True
    return c.stopped


cdef inline void _close_cuts(Ctx* c, int64_t s, int64_t sign) noexcept nogil:
    """Slot s laid (``sign`` 1) or taken back (-1): a cut holding its meld is closed once
    one of its melds is laid (no other can be), so its slack leaves the bound of the steps
    after the slot's (partition_numba._close_cuts)."""
    cdef int64_t i, cut, t
    for i in range(c.cuts_start[s], c.cuts_start[s + 1]):
        cut = c.cuts_of[i]
        c.cut_laid[cut] += sign
        if c.cut_laid[cut] != (1 if sign > 0 else 0):
            continue  # already closed on this path (or still is)
        for t in range(c.slot_step[s] + 1, c.cut_last[cut] + 1):
            c.closed[t] += sign * c.cut_value[cut]


cdef inline void _ptake(Ctx* c, int64_t s) noexcept nogil:
    _take(c, s)
    c.bound -= c.shares[s]
    if c.cuts_start != NULL:
        _close_cuts(c, s, 1)


cdef inline void _pgive(Ctx* c, int64_t s) noexcept nogil:
    _give(c, s)
    c.bound += c.shares[s]
    if c.cuts_start != NULL:
        _close_cuts(c, s, -1)


cdef inline bint _next_split(Ctx* c, int64_t* slot, int64_t high, int64_t* stack,
                             int64_t* depth, int64_t* gained) noexcept nogil:
    """The kind step's next multiset of melds (slots below ``high``) in depth-first order:
    one more meld from ``slot`` on, else the last one taken back and the next one after
    it. True when a move is taken; False when none is left or the search stopped (a move
    past the limit: the caller takes the stack back)."""
    cdef int64_t found, s
    while True:
        found = _next_fit(c, slot[0], high, 0)
        if found >= 0:
            if _count_move(c):
                return False
            _ptake(c, found)
            gained[0] += c.points[found]
            stack[depth[0]] = found
            depth[0] += 1
            slot[0] = found
            return True
        if depth[0] == 0:
            return False
        depth[0] -= 1
        s = stack[depth[0]]
        _pgive(c, s)
        gained[0] -= c.points[s]
        slot[0] = s + 1


cdef inline int64_t _ceiling(const Ctx* c, int64_t step, int64_t gained,
                             int64_t kept) noexcept nogil:
    """The bound (fixed point) of a child at ``step``, ``gained`` points on the way, with
    ``kept`` cards kept: the remaining hand is the child's (its kind set aside)."""
    cdef int64_t closed = c.closed[step] if c.cuts_start != NULL else 0
    return gained * c.scale + c.bound + c.tail[step] - closed - (c.keep - kept) * c.leave


cdef int64_t _priced_child(Ctx* c, int64_t step, int64_t position, int64_t kept,
                           int64_t gained, int64_t alpha,
                           int64_t best) except? -1152921504606846977 nogil:
    """The kind step's current move: the kind's copies left set aside, the child searched
    unless its bound cannot beat the frame's bar; the frame's best after it."""
    cdef int64_t saved = _set_aside(c, position)
    cdef int64_t price = saved * c.price_at[position]
    cdef int64_t next_kept = kept + saved
    cdef int64_t bar = best if best > alpha else alpha
    cdef int64_t sub
    if next_kept > c.keep:
        next_kept = c.keep
    c.bound -= price
    if bar <= C_NEG_INF or _ceiling(c, step + 1, gained, next_kept) > bar * c.scale:
        sub = _priced_step(c, step + 1, next_kept, bar - gained)
        if sub > C_NEG_INF and sub + gained > best:
            best = sub + gained
    c.bound += price
    _restore(c, position, saved)
    return best


cdef int64_t _priced_frame(Ctx* c, int64_t step, int64_t position, int64_t kept,
                           int64_t alpha) except? -1152921504606846977 nogil:
    """_kind_frame with the bound: the multisets of the step's melds in depth-first
    order, then the empty one."""
    cdef int64_t limit = c.limit[_ORDER[position]]
    cdef int64_t high = c.start[step + 1]
    cdef int64_t* stack = c.stacks + position * c.depth_cap
    cdef int64_t depth = 0
    cdef int64_t slot = c.start[step]
    cdef int64_t gained = 0
    cdef int64_t best = C_NEG_INF
    while _next_split(c, &slot, high, stack, &depth, &gained):
        if not _over(c, position, limit):
            best = _priced_child(c, step, position, kept, gained, alpha, best)
    if c.stopped:
        while depth > 0:
            depth -= 1
            _pgive(c, stack[depth])
        return C_NEG_INF
    if not _over(c, position, limit):
        best = _priced_child(c, step, position, kept, 0, alpha, best)
    return best


cdef int64_t _node_bound(Ctx* c, int64_t step, int64_t kept) except? -1 with gil:
    """The bound (fixed point) of the sub-problem's own linear programme: the remaining
    hand, over the melds of this step and later ones that fit (their groups all open),
    ``keep - kept`` cards still to keep."""
    cdef int64_t[::1] remaining
    cdef int64_t[::1] subset
    cdef int64_t position, t, s, n = 0
    cdef int64_t high = c.start[c.step_total]
    remaining_array = np.zeros(KIND_COUNT, dtype=np.int64)
    subset_array = np.empty(high - c.start[step], dtype=np.int64)
    remaining = remaining_array
    subset = subset_array
    for position in range(KIND_COUNT):
        for t in range(c.level_count):
            remaining[_ORDER[position]] += (c.levels[t] >> position) & 1
    for s in range(c.start[step], high):
        if _fits(c, s, 0):
            subset[n] = c.slot_meld[s]
            n += 1
    return (<object>c.node_bound)(remaining_array, subset_array[:n], c.keep - kept)


cdef inline int64_t _cards_left(const Ctx* c) noexcept nogil:
    cdef int64_t t, total = 0
    for t in range(c.level_count):
        total += partition_popcount64(c.levels[t])
    return total


cdef int64_t _priced_step(Ctx* c, int64_t step, int64_t kept,
                          int64_t alpha) except? -1152921504606846977 nogil:
    """The most points of the remaining hand from ``step`` on when that is more than
    ``alpha``; else ``alpha`` (then an upper bound); NEG_INF once the search stopped.

    On entry the held kinds none of whose step's melds fits are set aside (as numba's
    search: such a state and the one without those kinds are one memo entry), and
    restored on return."""
    cdef int64_t positions[KIND_COUNT]
    cdef int64_t counts[KIND_COUNT]
    cdef int64_t aside = 0
    cdef int64_t value, position, kind
    if c.stopped:
        return C_NEG_INF
    while True:
        step = _advance(c, step)
        if step == c.step_total:
            break
        position = c.step_pos[step]
        if step != c.kstep[position] or _next_fit(c, c.start[step], c.start[step + 1], 0) >= 0:
            break
        kind = _ORDER[position]
        if _over(c, position, c.limit[kind]):
            step = -1  # too many copies would stay: infeasible
            break
        positions[aside] = position
        counts[aside] = _set_aside(c, position)
        c.bound -= counts[aside] * c.price_at[position]
        kept += counts[aside]
        if kept > c.keep:
            kept = c.keep
        aside += 1
        step += 1
    if step < 0:
        value = C_NEG_INF
    elif step == c.step_total:
        value = 0 if kept >= c.keep else C_NEG_INF
    else:
        value = _priced_body(c, step, kept, alpha)
    while aside > 0:
        aside -= 1
        c.bound += counts[aside] * c.price_at[positions[aside]]
        _restore(c, positions[aside], counts[aside])
    return value


cdef int64_t _priced_body(Ctx* c, int64_t step, int64_t kept,
                          int64_t alpha) except? -1152921504606846977 nogil:
    """_priced_step from a step with a choice."""
    cdef int64_t best = C_NEG_INF
    cdef int64_t key, word, position, sub, s, high, bar
    key = c.state * (c.keep + 1) + kept
    if _memo_find(&c.memo, key, <uint64_t>step, &word):
        if (word & 1) == 0 or (word >> 1) <= alpha:
            return word >> 1  # exact, or an upper bound that cannot beat alpha
    elif c.memo.size >= c.budget:
        c.exhausted = True  # over budget: this sub-problem is not searched
        return C_NEG_INF
    if (c.node_left > 0 and alpha > C_NEG_INF and c.moves >= c.node_moves
            and _cards_left(c) >= c.node_cards):
        # a large sub-problem: its own linear programme may rule it out
        c.node_left -= 1
        if _node_bound(c, step, kept) <= alpha * c.scale:
            _memo_put(&c.memo, key, <uint64_t>step, alpha * 2 + 1)
            return alpha
    position = c.step_pos[step]
    if step == c.kstep[position]:
        best = _priced_frame(c, step, position, kept, alpha)
    else:
        # a group step: each of the group's melds that fits, then nothing
        high = c.start[step + 1]
        for s in range(c.start[step], high):
            if _fits(c, s, 0):
                if _count_move(c):
                    break
                _ptake(c, s)
                bar = best if best > alpha else alpha
                if bar <= C_NEG_INF or _ceiling(c, step + 1, c.points[s], kept) > bar * c.scale:
                    sub = _priced_step(c, step + 1, kept, bar - c.points[s])
                    if sub > C_NEG_INF and sub + c.points[s] > best:
                        best = sub + c.points[s]
                _pgive(c, s)
        if not c.stopped:
            bar = best if best > alpha else alpha
            if bar <= C_NEG_INF or _ceiling(c, step + 1, 0, kept) > bar * c.scale:
                sub = _priced_step(c, step + 1, kept, bar)
                if sub > best:
                    best = sub
    if c.stopped:
        return C_NEG_INF
    if best > alpha:
        _memo_put(&c.memo, key, <uint64_t>step, best * 2)
        return best
    _memo_put(&c.memo, key, <uint64_t>step, alpha * 2 + 1)
    return alpha


cdef inline bint _reaches(const Ctx* c, int64_t step, int64_t gained, int64_t kept,
                          int64_t target) noexcept nogil:
    """Whether the child's bound leaves room for ``target`` points."""
    return _ceiling(c, step, gained, kept) >= target * c.scale


cdef int _priced_rebuild(Ctx* c, int64_t target, int64_t kept,
                         vector[int64_t]* picked) except -1 nogil:
    """The lay-down worth ``target`` that the priced search found: at each step the first
    move (in the search's order) whose child, searched against target less one, gives
    it. 1 when rebuilt; 0 when a re-search stopped at its limits (the caller then answers
    the floor)."""
    cdef int64_t step = 0
    cdef int64_t position, kind, high, depth, slot, gained, saved, price, next_kept, sub
    cdef int64_t found, s, j
    cdef int64_t* stack
    cdef bint matched
    while True:
        step = _advance(c, step)
        if step >= c.step_total:
            return 1
        position = c.step_pos[step]
        high = c.start[step + 1]
        matched = False
        if step != c.kstep[position]:
            for s in range(c.start[step], high):
                if _fits(c, s, 0):
                    _ptake(c, s)
                    if _reaches(c, step + 1, c.points[s], kept, target):
                        sub = _priced_step(c, step + 1, kept, target - c.points[s] - 1)
                        if sub > C_NEG_INF and sub + c.points[s] == target:
                            matched = True
                            picked.push_back(s)
                            target = sub
                            break
                    _pgive(c, s)
            if not matched and _reaches(c, step + 1, 0, kept, target):
                sub = _priced_step(c, step + 1, kept, target - 1)
                matched = sub > C_NEG_INF and sub == target
            if not matched:
                return 0
            step += 1
            continue
        kind = _ORDER[position]
        stack = c.stacks + position * c.depth_cap
        depth = 0
        slot = c.start[step]
        gained = 0
        while _next_split(c, &slot, high, stack, &depth, &gained):
            if _over(c, position, c.limit[kind]):
                continue
            saved = _set_aside(c, position)
            price = saved * c.price_at[position]
            next_kept = kept + saved
            if next_kept > c.keep:
                next_kept = c.keep
            c.bound -= price
            if _reaches(c, step + 1, gained, next_kept, target):
                sub = _priced_step(c, step + 1, next_kept, target - gained - 1)
                if sub > C_NEG_INF and sub + gained == target:
                    matched = True
                    kept = next_kept
                    target = sub
                    break
            c.bound += price
            _restore(c, position, saved)
        if not matched and not _over(c, position, c.limit[kind]):
            # the empty move, last (depth is 0 here)
            saved = _set_aside(c, position)
            price = saved * c.price_at[position]
            next_kept = kept + saved
            if next_kept > c.keep:
                next_kept = c.keep
            c.bound -= price
            if _reaches(c, step + 1, 0, next_kept, target):
                sub = _priced_step(c, step + 1, next_kept, target - 1)
                if sub > C_NEG_INF and sub == target:
                    matched = True
                    kept = next_kept
                    target = sub
            if not matched:
                c.bound += price
                _restore(c, position, saved)
        if not matched:
            return 0
        for j in range(depth):
            picked.push_back(stack[j])
        step += 1


def best_priced(hand, meld_counts, points, keep, groups, max_left, budget, prices, slack,
                floor, live, cut_starts, cut_melds, scale, move_limit, node_bound=None,
                node_programmes=0, node_cards=0, node_moves=0):
    """best() bounded by a dual-feasible price vector; the contract of
    partition_numba.best_priced (kernels.lp_bound.priced makes the arguments).

    ``prices`` int64[53] and ``slack`` int64[G + C] (the groups' and the cuts' dual
    values; cut c holds the melds cut_melds[cut_starts[c]:cut_starts[c + 1]]) must
    bound every live meld: prices . counts[m] + slack[group of m] + sum(slack[cuts of m])
    >= points[m] * scale. ``floor``: only lay-downs worth more are looked for (NEG_INF:
    any); ``live`` (int64[M] of 1 and 0, or empty: all) the melds that may be laid.
    Returns (found, points, chosen meld indices sorted, exact): found False when no
    lay-down is worth more than the floor (``exact`` True: proven) or when the search
    stopped at its budget or its ``move_limit`` moves (``exact`` False).

    ``node_bound(remaining int64[53], melds int64[n], keep)``, when given, is a
    sub-problem's own programme (its bound, fixed point): once ``node_moves`` moves are
    tried, at most ``node_programmes`` new sub-problems of ``node_cards`` cards or more
    that it rules out fail low at once.
    """
    cdef const int64_t[::1] hv = np.ascontiguousarray(hand, dtype=np.int64)
    cdef const int64_t[:, ::1] mv = np.ascontiguousarray(meld_counts, dtype=np.int64)
    cdef const int64_t[::1] pv = np.ascontiguousarray(points, dtype=np.int64)
    cdef const int64_t[::1] gv = np.ascontiguousarray(groups, dtype=np.int64)
    cdef const int64_t[::1] lv = np.ascontiguousarray(max_left, dtype=np.int64)
    cdef const int64_t[::1] price_v = np.ascontiguousarray(prices, dtype=np.int64)
    cdef const int64_t[::1] slack_v = np.ascontiguousarray(slack, dtype=np.int64)
    cdef const int64_t[::1] live_v = np.ascontiguousarray(live, dtype=np.int64)
    cdef const int64_t[::1] cs_v = np.ascontiguousarray(cut_starts, dtype=np.int64)
    cdef const int64_t[::1] cm_v = np.ascontiguousarray(cut_melds, dtype=np.int64)
    cdef int64_t meld_total = mv.shape[0]
    cdef int64_t cut_total = cs_v.shape[0] - 1
    cdef int64_t group_total = slack_v.shape[0] - cut_total
    cdef int64_t kind, target, kept, position, m, s, j, c, last
    cdef int64_t floor_c = floor
    cdef int64_t budget_c
    cdef bint feasible = True
    cdef int matched = 0
    cdef Ctx ctx
    cdef vector[int64_t] picked, price_at, shares, tail, meld_step, group_step
    cdef vector[int64_t] slot_step, cuts_start, cuts_of, cut_last, cut_value, cut_laid, closed
    cdef vector[int64_t] meld_slot, cut_fill
    cdef _Workspace workspace
    cdef size_t i
    cdef object keep_value = int(keep)
    if (hv.shape[0] != KIND_COUNT or mv.shape[1] != KIND_COUNT or pv.shape[0] != meld_total
            or gv.shape[0] != meld_total or lv.shape[0] != KIND_COUNT
            or price_v.shape[0] != KIND_COUNT or cut_total < 0 or group_total < 0
            or (live_v.shape[0] != 0 and live_v.shape[0] != meld_total)):
        raise ValueError("best_priced: arrays of the wrong shape")
    workspace = _acquire()
    try:
        workspace.build(&hv[0], &mv[0, 0] if meld_total else NULL, meld_total,
                        &pv[0] if meld_total else NULL, &gv[0] if meld_total else NULL,
                        &live_v[0] if live_v.shape[0] else NULL)
        budget_c = budget
        kept = _begin(workspace, &ctx, keep_value, &hv[0], &lv[0], budget_c)
        feasible = kept >= 0
        ctx.scale = scale
        ctx.move_limit = move_limit
        if node_bound is not None:
            ctx.node_bound = <void*>node_bound
            ctx.node_left = node_programmes
            ctx.node_cards = node_cards
            ctx.node_moves = node_moves
        # the prices by position and by slot, the bound of the hand in play
        price_at.assign(KIND_COUNT, 0)
        ctx.leave = -1
        for position in range(KIND_COUNT):
            kind = _ORDER[position]
            price_at[position] = price_v[kind]
            if hv[kind] > 0 and (ctx.leave < 0 or price_v[kind] < ctx.leave):
                ctx.leave = price_v[kind]
            if workspace.place_of[kind] != 0:
                ctx.bound += hv[kind] * price_v[kind]
        if ctx.leave < 0:
            ctx.leave = 0
        # per slot its prices and step, per meld its slot and step (-1: none)
        shares.assign(workspace.slot_total, 0)
        slot_step.assign(workspace.slot_total, 0)
        meld_step.assign(meld_total, -1)
        meld_slot.assign(meld_total, -1)
        for j in range(workspace.step_total):
            for s in range(workspace.start[j], workspace.start[j + 1]):
                m = workspace.slot_meld[s]
                slot_step[s] = j
                meld_step[m] = j
                meld_slot[m] = s
                for kind in range(KIND_COUNT):
                    shares[s] += mv[m, kind] * price_v[kind]
        # tail[s]: the slack of the groups and cuts with a meld at step s or later
        tail.assign(workspace.step_total + 1, 0)
        group_step.assign(group_total, -1)
        for m in range(meld_total):
            if meld_step[m] >= 0 and 0 <= gv[m] < group_total:
                group_step[gv[m]] = meld_step[m]  # a group's melds share one step
        for j in range(group_total):
            if group_step[j] >= 0:
                tail[group_step[j]] += slack_v[j]
        # the cuts: their last steps, and per slot the cuts (with slack) holding its meld
        cut_last.assign(cut_total + 1, -1)
        cut_value.assign(cut_total + 1, 0)
        cut_laid.assign(cut_total + 1, 0)
        closed.assign(workspace.step_total + 1, 0)
        cuts_start.assign(workspace.slot_total + 1, 0)
        for c in range(cut_total):
            cut_value[c] = slack_v[group_total + c]
            for j in range(cs_v[c], cs_v[c + 1]):
                if meld_step[cm_v[j]] > cut_last[c]:
                    cut_last[c] = meld_step[cm_v[j]]
                if cut_value[c] > 0 and meld_slot[cm_v[j]] >= 0:
                    cuts_start[meld_slot[cm_v[j]] + 1] += 1
            if cut_last[c] >= 0:
                tail[cut_last[c]] += cut_value[c]
        for s in range(workspace.slot_total):
            cuts_start[s + 1] += cuts_start[s]
        cuts_of.assign(cuts_start[workspace.slot_total] + 1, 0)
        cut_fill.assign(cuts_start.begin(), cuts_start.end())
        for c in range(cut_total):
            if cut_value[c] > 0:
                for j in range(cs_v[c], cs_v[c + 1]):
                    s = meld_slot[cm_v[j]]
                    if s >= 0:
                        cuts_of[cut_fill[s]] = c
                        cut_fill[s] += 1
        if cut_total > 0:
            ctx.slot_step = slot_step.data()
            ctx.cuts_start = cuts_start.data()
            ctx.cuts_of = cuts_of.data()
            ctx.cut_last = cut_last.data()
            ctx.cut_value = cut_value.data()
            ctx.cut_laid = cut_laid.data()
            ctx.closed = closed.data()
        j = workspace.step_total - 1
        while j >= 0:
            tail[j] += tail[j + 1]
            j -= 1
        ctx.price_at = price_at.data()
        ctx.shares = shares.data()
        ctx.tail = tail.data()
        target = C_NEG_INF
        if feasible:
            with nogil:
                target = _priced_step(&ctx, 0, kept, floor_c)
                if target > floor_c and not ctx.stopped and not ctx.exhausted:
                    # the rebuild's re-searches get a fresh allowance
                    ctx.moves = 0
                    ctx.budget += budget_c
                    matched = _priced_rebuild(&ctx, target, kept, &picked)
        nothing = np.empty(0, dtype=np.int64)
        if ctx.stopped or ctx.exhausted:
            return False, NEG_INF, nothing, False  # stopped: the caller answers the floor
        if target <= floor_c:
            if floor_c > C_NEG_INF:
                return False, NEG_INF, nothing, True  # proven: nothing beats the floor
            return True, NEG_INF, nothing, True  # nothing is feasible
        if not matched:
            return False, NEG_INF, nothing, False
        for i in range(picked.size()):
            picked[i] = workspace.slot_meld[picked[i]]
    finally:
        workspace.release()
    sort(picked.begin(), picked.end())
    out = np.empty(picked.size(), dtype=np.int64)
    cdef int64_t[::1] out_view = out
    for i in range(picked.size()):
        out_view[i] = picked[i]
    return True, target, out, True
