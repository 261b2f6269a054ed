# Part of kernels/_partition.pyx, which includes it: the parts compile into one extension.

# --- the priced search ----------------------------------------------------------------
#
# best() with the bound of a dual-feasible price vector, as kernels.laydown.search.best_priced:
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


# A memo word of the priced search: the value times 2, plus WORD_UPPER when the value is
# only an upper bound.
cdef enum:
    WORD_UPPER = 1


cdef inline bint _count_move(Ctx* c) noexcept nogil:
    """One more move; True once the search is past its move limit (it then stops)."""
    c.moves += 1
    if c.moves > c.move_limit:
        c.stopped = True
    return c.stopped


cdef inline void _close_cuts(Ctx* c, int64_t s, int64_t sign) noexcept nogil:
    """Slot s laid (``sign`` 1) or taken back (-1): a cut holding its meld is closed once
    one of its melds is laid (no other can be), so its slack leaves the bound of the steps
    after the slot's (kernels.laydown.programme.close_cuts)."""
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


cdef inline int64_t _price_aside(Ctx* c, int64_t position) noexcept nogil:
    """_set_aside in the priced search: the copies' prices leave the bound."""
    cdef int64_t saved = _set_aside(c, position)
    c.bound -= saved * c.price_at[position]
    return saved


cdef inline void _price_restore(Ctx* c, int64_t position, int64_t saved) noexcept nogil:
    """Undoes _price_aside."""
    c.bound += saved * c.price_at[position]
    _restore(c, position, saved)


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
    cdef int64_t saved = _price_aside(c, position)
    cdef int64_t next_kept = _kept_after(c, kept, saved)
    cdef int64_t bar = best if best > alpha else alpha
    cdef int64_t sub
    if bar <= C_NEG_INF or _ceiling(c, step + 1, gained, next_kept) > bar * c.scale:
        sub = _priced_step(c, step + 1, next_kept, bar - gained)
        if sub > C_NEG_INF and sub + gained > best:
            best = sub + gained
    _price_restore(c, position, saved)
    return best


cdef int64_t _priced_frame(Ctx* c, int64_t step, int64_t position, int64_t kept,
                           int64_t alpha) except? -1152921504606846977 nogil:
    """_kind_frame with the bound: the multisets of the step's melds in depth-first
    order, then the empty one."""
    cdef int64_t limit = c.limit[_ORDER[position]]
    cdef int64_t best = C_NEG_INF
    cdef Split split
    _split_open(c, &split, step, position)
    while _next_split(c, &split, True):
        if not _over(c, position, limit):
            best = _priced_child(c, step, position, kept, split.gained, alpha, best)
    if c.stopped:
        while split.depth > 0:
            split.depth -= 1
            _pgive(c, split.stack[split.depth])
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
        counts[aside] = _price_aside(c, position)
        kept = _kept_after(c, kept, counts[aside])
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
        _price_restore(c, positions[aside], counts[aside])
    return value


cdef int64_t _priced_body(Ctx* c, int64_t step, int64_t kept,
                          int64_t alpha) except? -1152921504606846977 nogil:
    """_priced_step from a step with a choice."""
    cdef int64_t best = C_NEG_INF
    cdef int64_t key, word, position, sub, s, high, bar
    key = c.state * (c.keep + 1) + kept
    if _memo_find(&c.memo, key, <uint64_t>step, &word):
        if (word & WORD_UPPER) == 0 or (word >> 1) <= alpha:
            return word >> 1  # exact, or an upper bound that cannot beat alpha
    elif c.memo.size >= c.budget:
        c.exhausted = True  # over budget: this sub-problem is not searched
        return C_NEG_INF
    if (c.node_left > 0 and alpha > C_NEG_INF and c.moves >= c.node_moves
            and _cards_left(c) >= c.node_cards):
        # a large sub-problem: its own linear programme may rule it out
        c.node_left -= 1
        if _node_bound(c, step, kept) <= alpha * c.scale:
            _memo_put(&c.memo, key, <uint64_t>step, alpha * 2 + WORD_UPPER)
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
    _memo_put(&c.memo, key, <uint64_t>step, alpha * 2 + WORD_UPPER)
    return alpha


cdef inline bint _reaches(const Ctx* c, int64_t step, int64_t gained, int64_t kept,
                          int64_t target) noexcept nogil:
    """Whether the child's bound leaves room for ``target`` points."""
    return _ceiling(c, step, gained, kept) >= target * c.scale


