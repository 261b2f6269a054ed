# Part of kernels/_partition.pyx, which includes it: the parts compile into one extension.

# --- best(): the search, then the lay-down rebuilt from the memo --------------------


cdef int _reconstruct(Ctx* c, int64_t target, int64_t kept, bint stepped,
                      vector[int64_t]* picked) except -1 nogil:
    """Walk the memo down from the root in the reference's order (at each step the first
    move whose value matches); 1 when a lay-down worth target was rebuilt, else 0. picked
    receives slots.

    The reference also stops at the held kinds that no meld holds (set aside here before
    the programme starts, counted in kept): their one move is to set the kind aside, so
    skipping them changes no choice."""
    cdef int64_t step = 0
    cdef int64_t position, kind, high, saved, next_kept, sub, s, j
    cdef Split split
    cdef bint matched
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
        _split_open(c, &split, step, position)
        while True:
            if not _over(c, position, c.limit[kind]):
                saved = _set_aside(c, position)
                next_kept = _kept_after(c, kept, saved)
                sub = _best_child(c, step + 1, next_kept, stepped)
                if sub > C_NEG_INF and sub + split.gained == target:
                    matched = True
                    kept = next_kept
                    target = sub
                    break
                _restore(c, position, saved)
            if not _next_split(c, &split, False):
                break
        if not matched:
            return 0
        for j in range(split.depth):
            picked.push_back(split.stack[j])
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
    cdef object keep_value = int(keep)
    cdef _Held held = _Held.__new__(_Held)
    cdef const int64_t* hand_data = held.take(hand, 1, "hand")
    cdef const int64_t* meld_data = held.take(meld_counts, 2, "meld_counts")
    cdef const int64_t* point_data = held.take(points, 1, "points")
    cdef const int64_t* group_data = NULL
    cdef const int64_t* limit_data
    cdef int64_t meld_total = held.extent(1, 0)
    cdef int64_t kind, target, kept
    cdef int matched = 0
    cdef bint feasible = True
    cdef bint stepped = False
    cdef Ctx ctx
    cdef vector[int64_t] picked
    cdef int64_t no_limit[KIND_COUNT]
    cdef _Workspace workspace
    if groups is not None:
        group_data = held.take(groups, 1, "groups")
    if max_left is not None:
        limit_data = held.take(max_left, 1, "max_left")
    else:
        for kind in range(KIND_COUNT):
            no_limit[kind] = C_INT64_MAX
        limit_data = no_limit
    _check_shapes(held)
    if held.extent(2, 0) != meld_total:
        raise ValueError("points must have one entry per meld")
    if groups is not None and held.extent(3, 0) != meld_total:
        raise ValueError("groups must have one entry per meld")
    if max_left is not None and held.extent(held.count - 1, 0) != KIND_COUNT:
        raise ValueError(f"max_left must have {KIND_COUNT} entries")
    workspace = _acquire()
    try:
        workspace.build(hand_data, meld_data, meld_total, point_data, group_data)
        kept = _begin(workspace, &ctx, keep_value, hand_data, limit_data, budget)
        feasible = kept >= 0
        # some group has a meld that fits: the steps
        stepped = workspace.anchors != 0
        target = C_NEG_INF
        if feasible:
            with nogil:
                target = _best_child(&ctx, 0, kept, stepped)
                if target != C_NEG_INF:
                    matched = _reconstruct(&ctx, target, kept, stepped, &picked)
        if target == C_NEG_INF:
            return NEG_INF, np.empty(0, dtype=np.int64), not ctx.exhausted
        if not matched:  # the memo guarantees a match
            raise RuntimeError("best lay-down reconstruction failed")
        return target, _chosen(workspace, &picked), not ctx.exhausted
    finally:
        workspace.release()


cdef object _chosen(_Workspace workspace, vector[int64_t]* picked):
    """The melds of the picked slots, ascending, as a new int64 array."""
    cdef size_t i
    for i in range(picked.size()):
        picked[0][i] = workspace.slot_meld[picked[0][i]]
    sort(picked.begin(), picked.end())
    return _int64_array(picked.data(), <int64_t>picked.size())
