# Part of kernels/_partition.pyx, which includes it: the parts compile into one extension.

# --- count() and best()'s programme -------------------------------------------------
#
# A kind step splits the step's melds into each multiset S that fits (a Split: one stack
# of slots per decision level, in _next_split's depth-first order); each S's child sets
# the kind's copies left aside and goes on at the next step.
#
# best without groups (or none with a slot): the first-card programme, one stop per
# held kind; step p is position p. With groups: the reference's steps (see Ctx), the
# memo state holding the advanced step index.
#
# The search functions of best return NEG_INF - 1 (-1152921504606846977, below every
# value they return) to flag a Python or C++ exception.


cdef inline int64_t _kept_after(const Ctx* c, int64_t kept, int64_t saved) noexcept nogil:
    """Cards kept once ``saved`` more stay in hand: never past keep (the memo key's range)."""
    kept += saved
    return c.keep if kept > c.keep else kept


cdef struct Split:
    int64_t* stack     # the slots taken, in order (the decision level's stack)
    int64_t depth      # how many
    int64_t slot       # the next meld is looked for from this slot on ...
    int64_t high       # ... below this one (the step's slots end here)
    int64_t gained     # the points of the melds taken


cdef inline void _split_open(const Ctx* c, Split* split, int64_t step,
                             int64_t position) noexcept nogil:
    """Start the kind step's split: no meld taken."""
    split.stack = c.stacks + position * c.depth_cap
    split.depth = 0
    split.slot = c.start[step]
    split.high = c.start[step + 1]
    split.gained = 0


cdef inline bint _next_split(Ctx* c, Split* split, bint priced) noexcept nogil:
    """The kind step's next multiset of melds in depth-first order: one more meld from
    ``split.slot`` on, else the last one taken back and the next one after it. True when
    a move is taken; False when none is left. ``priced``: the priced search's moves
    (counted, keeping its bound; False too once a move is past the move limit, with the
    melds still taken: the caller gives them back)."""
    cdef int64_t found, s
    while True:
        found = _next_fit(c, split.slot, split.high, 0)
        if found >= 0:
            if priced:
                if _count_move(c):
                    return False
                _ptake(c, found)
            else:
                _take(c, found)
            split.gained += c.points[found]
            split.stack[split.depth] = found
            split.depth += 1
            split.slot = found
            return True
        if split.depth == 0:
            return False
        split.depth -= 1
        s = split.stack[split.depth]
        if priced:
            _pgive(c, s)
        else:
            _give(c, s)
        split.gained -= c.points[s]
        split.slot = s + 1


cdef int64_t _count_frame(Ctx* c, int64_t position) except -1 nogil:
    """Lay-downs of the remaining hand, whose first kind (at position) has a fitting meld."""
    cdef Split split
    cdef int64_t total = 0
    cdef int64_t saved, sub
    _split_open(c, &split, position, position)
    while True:
        saved = _set_aside(c, position)
        sub = _count_rec(c, position + 1)
        _restore(c, position, saved)
        if sub > C_INT64_MAX - total:
            c.overflow = 1
            total = C_INT64_MAX
        else:
            total += sub
        if not _next_split(c, &split, False):
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


cdef int _check_shapes(_Held held) except -1:
    """The hand (taken first) is 53 counts and each meld row (taken second) 53 counts."""
    if held.extent(0, 0) != KIND_COUNT:
        raise ValueError(f"hand must have {KIND_COUNT} entries")
    if held.extent(1, 1) != KIND_COUNT:
        raise ValueError(f"meld_counts must have shape (M, {KIND_COUNT})")
    return 0


def count(hand, meld_counts, budget=COUNT_BUDGET):
    """(number of lay-downs, overflow flag, exhausted flag: the budget stopped it)."""
    cdef _Held held = _Held.__new__(_Held)
    cdef const int64_t* hand_data = held.take(hand, 1, "hand")
    cdef const int64_t* meld_data = held.take(meld_counts, 2, "meld_counts")
    cdef Ctx ctx
    cdef int64_t total
    cdef _Workspace workspace
    _check_shapes(held)
    workspace = _acquire()
    try:
        workspace.build(hand_data, meld_data, held.extent(1, 0), NULL, NULL)
        workspace.fill(&ctx)
        ctx.budget = budget
        ctx.exhausted = False
        with nogil:
            total = _count_rec(&ctx, 0)
    finally:
        workspace.release()
    return total, ctx.overflow, ctx.exhausted


cdef inline int64_t _best_child(Ctx* c, int64_t step, int64_t kept,
                                bint stepped) except? -1152921504606846977 nogil:
    """The most points of the remaining hand from ``step`` on, ``kept`` cards kept."""
    if stepped:
        return _best_step(c, step, kept)
    return _best_rec(c, step, kept)


cdef int64_t _kind_frame(Ctx* c, int64_t step, int64_t position, int64_t kept,
                         bint stepped) except? -1152921504606846977 nogil:
    """Most points of the remaining hand from the kind step of position (its kind held):
    each multiset of the step's melds (slots start[step] .. start[step + 1]), then the
    kind set aside."""
    cdef int64_t limit = c.limit[_ORDER[position]]
    cdef int64_t best = C_NEG_INF
    cdef int64_t saved, sub
    cdef Split split
    _split_open(c, &split, step, position)
    while True:
        if not _over(c, position, limit):
            saved = _set_aside(c, position)
            sub = _best_child(c, step + 1, _kept_after(c, kept, saved), stepped)
            _restore(c, position, saved)
            if sub > C_NEG_INF and sub + split.gained > best:
                best = sub + split.gained
        if not _next_split(c, &split, False):
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
