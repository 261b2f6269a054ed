# Part of kernels/_partition.pyx, which includes it: the parts compile into one extension.

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
    cdef int64_t ratio = scalars[RULE_NATURALS_PER_WILD]
    if wilds > scalars[RULE_MAX_WILDS]:
        return False
    if ratio > 0 and wilds * ratio > naturals:
        return False
    return True


cdef inline int64_t _wild_cap(const int64_t* scalars, int64_t size) noexcept nogil:
    cdef int64_t cap = scalars[RULE_MAX_WILDS]
    cdef int64_t alt
    if scalars[RULE_NATURALS_PER_WILD] > 0:
        alt = _floordiv(size, scalars[RULE_NATURALS_PER_WILD] + 1)
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


# The fields of a candidate's info (CANDIDATE_FIELDS a candidate) and of a catalogue
# meld's (FOUND_FIELDS a meld: the same, then its points).
cdef enum:
    INFO_SHAPE = 0
    INFO_HOME = 1
    INFO_CLEAN = 2
    INFO_POINTS = 3
    CANDIDATE_FIELDS = 3
    FOUND_FIELDS = 4


cdef struct Candidates:
    vector[int64_t]* keys      # one per candidate
    vector[int64_t]* rows      # KIND_COUNT per candidate
    vector[int64_t]* info      # CANDIDATE_FIELDS per candidate: shape, home, clean
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
    cdef int64_t wild_twos = scalars[RULE_WILD_TWOS]
    cdef int64_t min_size = scalars[RULE_MIN_SIZE]
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
        if (not ((scalars[RULE_SET_RANKS] >> rank) & 1)
                or (need_ranks and need_ranks != ((<int64_t>1) << rank))):
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
    if scalars[RULE_WILD_SETS] and need_naturals == 0:
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
    vector[int64_t]* info      # FOUND_FIELDS per distinct meld: shape, home, clean, points


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
    cdef const int64_t* chosen
    cdef const int64_t* other
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
    found.info.reserve(FOUND_FIELDS * n)
    i = 0
    while i < n:
        j = i
        while j < n and order[j].first == order[i].first:
            j += 1
        # best reading: most points, then clean, then the lower shape code
        best = order[i].second
        chosen = info.data() + CANDIDATE_FIELDS * best
        best_points = _candidate_points(rows, chosen, best, chosen[INFO_CLEAN], scoring)
        for t in range(i + 1, j):
            c = order[t].second
            other = info.data() + CANDIDATE_FIELDS * c
            p = _candidate_points(rows, other, c, other[INFO_CLEAN], scoring)
            if (p > best_points
                    or (p == best_points and other[INFO_CLEAN] > chosen[INFO_CLEAN])
                    or (p == best_points and other[INFO_CLEAN] == chosen[INFO_CLEAN]
                        and other[INFO_SHAPE] < chosen[INFO_SHAPE])):
                best = c
                chosen = other
                best_points = p
        clean = 0
        for t in range(i, j):
            other = info.data() + CANDIDATE_FIELDS * order[t].second
            if (other[INFO_SHAPE] == chosen[INFO_SHAPE] and other[INFO_HOME] == chosen[INFO_HOME]
                    and other[INFO_CLEAN] == 1):
                clean = 1
        _push_meld(found, keys[best], best, chosen[INFO_SHAPE], chosen[INFO_HOME], clean,
                   _candidate_points(rows, chosen, best, clean, scoring))
        i = j
    return 0


cdef inline int64_t _candidate_points(const vector[int64_t]* rows, const int64_t* fields,
                                      int64_t c, int64_t clean,
                                      const Scoring* scoring) noexcept nogil:
    """The points of candidate ``c`` (its info ``fields``) read as clean or not."""
    return _points(rows.data() + c * KIND_COUNT, fields[INFO_SHAPE], fields[INFO_HOME], clean,
                   scoring)


cdef inline int _push_meld(Found* found, int64_t key, int64_t pick, int64_t shape, int64_t home,
                           int64_t clean, int64_t points) except -1 nogil:
    """Append a catalogue meld to ``found``."""
    found.keys.push_back(key)
    found.picks.push_back(pick)
    found.info.push_back(shape)
    found.info.push_back(home)
    found.info.push_back(clean)
    found.info.push_back(points)
    return 0


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
    if held.extent(first, 0) != RULE_COUNT:
        raise ValueError(f"scalars must have {RULE_COUNT} entries")
    if (held.extent(first + 2, 0) != 4 or held.extent(first + 2, 1) != 2
            or held.extent(first + 2, 2) < RANK_COUNT + 1):
        raise ValueError("run_bonus must have shape (4, 2, >= 14)")
    if (held.extent(first + 3, 0) != RANK_COUNT + 1 or held.extent(first + 3, 1) != 2
            or held.extent(first + 3, 2) < 1):
        raise ValueError("set_bonus must have shape (14, 2, >= 1)")
    scoring.run_width = held.extent(first + 2, 2)
    scoring.set_width = held.extent(first + 3, 2)
    return scalar_data


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
        columns.resize(FOUND_FIELDS * unique)        # info's fields, field by field
        for slot in range(unique):
            for field in range(FOUND_FIELDS):
                columns[field * unique + slot] = info[FOUND_FIELDS * slot + field]
    out_counts = _int64_array(rows.data(), unique * KIND_COUNT).reshape(unique, KIND_COUNT)
    return (_int64_array(keys.data(), unique), out_counts,
            _int64_array(columns.data() + INFO_SHAPE * unique, unique),
            _int64_array(columns.data() + INFO_HOME * unique, unique),
            _int64_array(columns.data() + INFO_CLEAN * unique, unique),
            _int64_array(columns.data() + INFO_POINTS * unique, unique))


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
            if scalar_data[RULE_WILD_TWOS]:
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
                if (info[FOUND_FIELDS * row + INFO_SHAPE] != shape
                        or info[FOUND_FIELDS * row + INFO_HOME] != home):
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
                out_points.push_back(info[FOUND_FIELDS * row + INFO_POINTS]
                                     - before_view[index])
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


