# Part of kernels/_partition.pyx, which includes it: the parts compile into one extension.

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
    return (scalars[RULE_WILD_TWOS] == 1 and scalars[RULE_MAX_WILDS] == 1
            and scalars[RULE_NATURALS_PER_WILD] == 0 and scalars[RULE_WILD_SETS] == 0)


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
    cdef int64_t min_size = scalars[RULE_MIN_SIZE]
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
        if not ((scalars[RULE_SET_RANKS] >> rank) & 1):
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
        _push_meld(found, readings[c].key, slot, readings[c].shape, readings[c].home, clean,
                   _points(row, readings[c].shape, readings[c].home, clean, scoring))
        i = j
    return 0


