# Part of kernels/_partition.pyx, which includes it: the parts compile into one extension.

# --- the workspace: a call's slots, steps, memo-key places and bit masks -----------


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
        """The context of a search over the built workspace: every field not set here
        is 0 or NULL (no limit, budget or prices yet; the callers set theirs)."""
        memset(ctx, 0, sizeof(Ctx))
        ctx.state = self.state_total - 1     # every card in play still in hand
        ctx.place_at = self.place_at.data()
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
        ctx.slot_meld = self.slot_meld.data()
        ctx.scale = 1
        ctx.move_limit = C_INT64_MAX
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


