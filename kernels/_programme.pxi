# Part of kernels/_partition.pyx, which includes it: the parts compile into one extension.

# --- the memo: open addressing over (key, aux) pairs, keys >= 0 ---------------------
#
# Memo keys are the remaining hand in mixed radix (times keep + 1, plus kept, for best),
# so they are >= 0 and MEMO_FREE (-1) marks a free slot; aux is best's step index with
# groups (0 when counting or without groups). Linear probing over a power-of-two table kept
# at most half full, entries of MEMO_WIDTH int64 (key, aux, value) in a vector that the
# module reuses across calls; the table starts small (a 16-card hand meets 20-200 states)
# and grows.

# An entry's words, by name.
cdef enum:
    MEMO_KEY = 0          # the key, MEMO_FREE in a free slot
    MEMO_AUX = 1
    MEMO_VALUE = 2
    MEMO_WIDTH = 3        # int64 words an entry
    MEMO_FREE = -1
    MEMO_GROWTH_BITS = 2  # a full table grows to four times its slots

cdef uint64_t _GOLDEN = 0x9E3779B97F4A7C15
cdef uint64_t _MIX = 0xC2B2AE3D27D4EB4F
cdef int64_t _INITIAL_BITS = 8
cdef size_t _KEEP_WORDS = MEMO_WIDTH << 18   # a larger memo is freed after the call


cdef struct Memo:
    vector[int64_t]* slots     # [MEMO_WIDTH * capacity]: key, aux, value
    vector[int64_t]* spare     # the other buffer, for growing
    int64_t* data
    uint64_t mask
    int64_t shift
    int64_t size


cdef int _memo_init(Memo* memo, vector[int64_t]* slots, vector[int64_t]* spare,
                    int64_t bits) except -1:
    memo.slots = slots
    memo.spare = spare
    slots.assign(MEMO_WIDTH << bits, MEMO_FREE)
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
        entry = memo.data + MEMO_WIDTH * i
        if entry[MEMO_KEY] == key and <uint64_t>entry[MEMO_AUX] == aux:
            value[0] = entry[MEMO_VALUE]
            return True
        if entry[MEMO_KEY] == MEMO_FREE:
            return False
        i = (i + 1) & memo.mask


cdef inline void _memo_place(Memo* memo, int64_t key, uint64_t aux, int64_t value) noexcept nogil:
    cdef uint64_t i = _memo_hash(memo, key, aux)
    cdef int64_t* entry = memo.data + MEMO_WIDTH * i
    while (entry[MEMO_KEY] != MEMO_FREE
           and not (entry[MEMO_KEY] == key and <uint64_t>entry[MEMO_AUX] == aux)):
        i = (i + 1) & memo.mask
        entry = memo.data + MEMO_WIDTH * i
    if entry[MEMO_KEY] == MEMO_FREE:
        memo.size += 1
    entry[MEMO_KEY] = key
    entry[MEMO_AUX] = <int64_t>aux
    entry[MEMO_VALUE] = value


cdef int _memo_put(Memo* memo, int64_t key, uint64_t aux, int64_t value) except -1 nogil:
    cdef const int64_t* old_data
    cdef const int64_t* old
    cdef uint64_t old_capacity, j
    if (memo.size + 1) * 2 > <int64_t>(memo.mask + 1):
        old_capacity = memo.mask + 1
        memo.spare.assign((MEMO_WIDTH * old_capacity) << MEMO_GROWTH_BITS, MEMO_FREE)
        memo.slots.swap(memo.spare[0])
        old_data = memo.spare.data()
        memo.data = memo.slots.data()
        memo.mask = (old_capacity << MEMO_GROWTH_BITS) - 1
        memo.shift -= MEMO_GROWTH_BITS
        memo.size = 0
        for j in range(old_capacity):
            old = old_data + MEMO_WIDTH * j
            if old[MEMO_KEY] != MEMO_FREE:
                _memo_place(memo, old[MEMO_KEY], <uint64_t>old[MEMO_AUX], old[MEMO_VALUE])
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


