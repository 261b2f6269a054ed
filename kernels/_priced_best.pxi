# Part of kernels/_partition.pyx, which includes it: the parts compile into one extension.

# --- best_priced(): the priced search's setup and its rebuild ----------------------


cdef int _rebuild_kind_move(Ctx* c, int64_t step, int64_t position, int64_t gained,
                            int64_t* kept, int64_t* target) except -1 nogil:
    """The rebuild's current move at a kind step (``gained`` points of melds taken): the
    kind set aside and, when its bound leaves room, the child re-searched against the
    target less one. 1 when the child gives the target (the kind stays aside; ``kept``
    and ``target`` become the child's), else 0 (the kind restored)."""
    cdef int64_t saved = _price_aside(c, position)
    cdef int64_t next_kept = _kept_after(c, kept[0], saved)
    cdef int64_t sub
    if _reaches(c, step + 1, gained, next_kept, target[0]):
        sub = _priced_step(c, step + 1, next_kept, target[0] - gained - 1)
        if sub > C_NEG_INF and sub + gained == target[0]:
            kept[0] = next_kept
            target[0] = sub
            return 1
    _price_restore(c, position, saved)
    return 0


cdef int _priced_rebuild(Ctx* c, int64_t target, int64_t kept,
                         vector[int64_t]* picked) except -1 nogil:
    """The lay-down worth ``target`` that the priced search found: at each step the first
    move (in the search's order) whose child, searched against target less one, gives
    it. 1 when rebuilt; 0 when a re-search stopped at its limits (the caller then answers
    the floor)."""
    cdef int64_t step = 0
    cdef int64_t position, kind, high, sub, s, j
    cdef Split split
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
        _split_open(c, &split, step, position)
        while _next_split(c, &split, True):
            if (not _over(c, position, c.limit[kind])
                    and _rebuild_kind_move(c, step, position, split.gained, &kept, &target)):
                matched = True
                break
        if not matched and not _over(c, position, c.limit[kind]):
            # the empty move, last (no meld taken unless the search stopped)
            matched = _rebuild_kind_move(c, step, position, 0, &kept, &target)
        if not matched:
            return 0
        for j in range(split.depth):
            picked.push_back(split.stack[j])
        step += 1


def best_priced(hand, meld_counts, points, keep, groups, max_left, budget, prices, slack,
                floor, live, cut_starts, cut_melds, scale, move_limit, node_bound=None,
                node_programmes=0, node_cards=0, node_moves=0):
    """best() bounded by a dual-feasible price vector; the contract of
    kernels.laydown.search.best_priced (kernels.lp_bound.priced makes the arguments).

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
        return True, target, _chosen(workspace, &picked), True
    finally:
        workspace.release()
