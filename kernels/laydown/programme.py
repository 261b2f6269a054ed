"""The programme both lay-down searches walk, and the per-call tables it needs.

``count`` and ``best`` walk the reference's fixed sequence of steps
(partition_ref._Problem.steps): for each decision-order position, one *group step* per
group anchored there (groups in ascending number), then the position's *kind step*. A
kind step lays a multiset of the ungrouped melds whose first card is its kind and sets
the kind aside; a group step lays at most one of the group's melds (catalogue order).
Without groups the steps are the kind steps alone: the first-card programme. Steps are
numbered over the kinds the hand holds only (the others are never held), which keeps
the order and so the values and the lay-down reported. The memo key is (remaining hand,
kept, step). On entry a state skips the steps with no choice (a kind not held, a group
none of whose melds fits) and sets aside a held kind none of whose step's melds fits
(its only move: the empty multiset), so keys differ from the reference's but values and
reconstruction do not.

Here: the step table (:func:`programme`, with the packed form of the hand and its melds
when they fit one int64), the sparse melds and moves of the counts search
(:func:`prepare`, :func:`next_fit`, :func:`next_move`), the per-card bounds
(:func:`card_shares`) and the clique cuts' slack (:func:`cut_tail`, :func:`open_cuts`,
:func:`close_cuts`).
"""

from __future__ import annotations

import numpy as np
from kernels.jit import njit

from kernels.encoding import JOKER, KIND_COUNT
from kernels.laydown.layout import (MAX_WIDTH, MODE_BEST, PACK_BITS, PK_FIELD, PK_LOW, PK_ROWS,
                                    PK_SHARE, PK_SHIFT, PS_MELD, PS_PACKED, PS_POINTS, PS_ROWS,
                                    PS_SHARE, SHARE_SCALE, ST_FIELD, ST_HI, ST_KIND, ST_LO, ST_LOW,
                                    ST_MAXLEFT, ST_ROWS, ST_SHARE, ST_SHIFT, ST_SINGLE, Cuts,
                                    Prepared, Programme)
from kernels.params import decision_order as _decision_order

DECISION_ORDER = tuple(_decision_order())


@njit(cache=True)
def decision_order():
    """kernels.params.decision_order as an array (its one definition, read as a constant)."""
    order = np.empty(KIND_COUNT, dtype=np.int64)
    for position in range(KIND_COUNT):
        order[position] = DECISION_ORDER[position]
    return order


@njit(cache=True)
def prepare(hand, meld_counts):
    """Sparse melds, their layer masks and memo-key deltas, the memo-key places (Prepared).

    A meld's layer ``j`` mask has bit ``k`` (suited kind k < 52) when the meld
    holds more than ``j`` copies of k; it fits a remaining hand when each of
    its masks is inside the hand's and it needs no more jokers than are left.
    """
    meld_total = meld_counts.shape[0]
    places = np.zeros(KIND_COUNT, dtype=np.int64)
    place = 1
    for kind in range(KIND_COUNT):
        if hand[kind] > 0:
            places[kind] = place
            place *= hand[kind] + 1
    widths = np.zeros(meld_total, dtype=np.int64)
    kinds = np.zeros((meld_total, MAX_WIDTH), dtype=np.int64)
    mults = np.zeros((meld_total, MAX_WIDTH), dtype=np.int64)
    layers = np.zeros((meld_total, 3), dtype=np.int64)
    jokers = np.zeros(meld_total, dtype=np.int64)
    key_deltas = np.zeros(meld_total, dtype=np.int64)
    present = np.empty(KIND_COUNT, dtype=np.int64)  # a meld only holds kinds of the hand
    present_count = 0
    for kind in range(KIND_COUNT):
        if hand[kind] > 0:
            present[present_count] = kind
            present_count += 1
    for m in range(meld_total):
        for p in range(present_count):
            kind = present[p]
            count = meld_counts[m, kind]
            if count > 0:
                kinds[m, widths[m]] = kind
                mults[m, widths[m]] = count
                widths[m] += 1
                key_deltas[m] += count * places[kind]
                if kind == JOKER:
                    jokers[m] = count
                else:
                    for j in range(min(count, 3)):
                        layers[m, j] |= np.int64(1) << kind
    return Prepared(widths, kinds, mults, layers, jokers, key_deltas, places)


@njit(cache=True)
def hand_layers(remaining):
    layers = np.zeros(3, dtype=np.int64)
    for kind in range(JOKER):
        for j in range(min(remaining[kind], 3)):
            layers[j] |= np.int64(1) << kind
    return layers


@njit(cache=True)
def set_count(remaining, held, kind, value):
    """Set one kind's remaining count, keeping the layer masks in step."""
    remaining[kind] = value
    if kind != JOKER:
        bit = np.int64(1) << kind
        for j in range(3):
            if value > j:
                held[j] |= bit
            else:
                held[j] &= ~bit


@njit(cache=True)
def apply_meld(remaining, held, m, widths, kinds, mults, sign):
    for j in range(widths[m]):
        kind = kinds[m, j]
        set_count(remaining, held, kind, remaining[kind] - sign * mults[m, j])


@njit(cache=True)
def next_fit(remaining, held, slot, high, slotted, layers, jokers):
    """First slot in [slot, high) whose meld (``slotted[slot]``) fits; -1 if none."""
    layer0 = held[0]
    layer1 = held[1]
    layer2 = held[2]
    joker_count = remaining[JOKER]
    for s in range(slot, high):
        m = slotted[s]
        if ((layers[m, 0] & ~layer0) == 0 and (layers[m, 1] & ~layer1) == 0
                and (layers[m, 2] & ~layer2) == 0 and jokers[m] <= joker_count):
            return s
    return -1


@njit(cache=True)
def next_move(remaining, held, slot, high, single, depth, gained, stack, slotted, points,
              prepared):
    """A reconstruction's next non-empty move at one stop: (advanced, slot, depth, gained).

    Walks the stop's multisets of ``slotted[slot:high]`` depth-first (the
    melds laid are ``stack[:depth]``, applied to ``remaining``); ``single``
    1 allows one meld at most (a group step), 0 repeats as the hand allows.
    """
    widths, kinds, mults = prepared.widths, prepared.kinds, prepared.mults
    while True:
        found = -1
        if single == 0 or depth == 0:
            found = next_fit(remaining, held, slot, high, slotted, prepared.layers,
                             prepared.jokers)
        if found >= 0:
            m = slotted[found]
            apply_meld(remaining, held, m, widths, kinds, mults, 1)
            stack[depth] = found
            return True, found + single, depth + 1, gained + points[m]
        if depth == 0:
            return False, slot, depth, gained
        depth -= 1
        found = stack[depth]
        m = slotted[found]
        apply_meld(remaining, held, m, widths, kinds, mults, -1)
        gained -= points[m]
        slot = found + 1


@njit(cache=True)
def card_shares(meld_counts, points, prepared, prices):
    """Per-kind upper bound on the points one card can bring, scaled by SHARE_SCALE, and
    each meld's sum of its cards' bounds: (shares int64[53], meld_shares int64[M]).

    A lay-down's points are the sum over its cards of ``points[m] / size(m)``
    of the meld ``m`` holding the card, so the largest such share over the
    melds that hold a kind bounds that card's contribution. Summed over the
    remaining cards it bounds any lay-down of them (0 for cards in no meld).
    ``prices`` (int64[53], or empty) replaces the shares by a linear programme's
    dual prices (kernels.lp_bound).
    """
    widths, kinds, mults = prepared.widths, prepared.kinds, prepared.mults
    if prices.shape[0] == KIND_COUNT:
        shares = prices.copy()
    else:
        shares = np.zeros(KIND_COUNT, dtype=np.int64)
        for m in range(meld_counts.shape[0]):
            size = 0
            for j in range(widths[m]):
                size += mults[m, j]
            share = -((-points[m] * SHARE_SCALE) // size)  # ceiling
            for j in range(widths[m]):
                if share > shares[kinds[m, j]]:
                    shares[kinds[m, j]] = share
    meld_shares = np.zeros(meld_counts.shape[0], dtype=np.int64)
    for m in range(meld_counts.shape[0]):
        for j in range(widths[m]):
            meld_shares[m] += mults[m, j] * shares[kinds[m, j]]
    return shares, meld_shares


@njit(cache=True, specialize=True)  # its mode folds into the search
def programme(hand, meld_counts, points, groups, max_left, mode, prices, slack, live):
    """The steps of the programme and, when the hand fits one int64, their packed form.

    Returns a Programme (table int64[ST_ROWS, S], step_melds int64[M'], kinds, melds,
    jump, guards, state, tail). ``step_melds[table[ST_LO, s]:table[ST_HI, s]]`` are step
    s's melds in catalogue order; ST_KIND is -1 for a group step; ST_MAXLEFT is
    its kind's limit (a large number for a group step). ``live`` (int64[M], or
    empty: every meld) leaves out the melds marked 0; the steps and their order
    stay those of all the melds (a group's step is anchored by all its melds),
    so a search over the live melds meets them in the same order. Steps, anchors and
    first cards are counted over the kinds the hand holds, in decision order
    (their *local* numbers): kind step of local kind p after the group steps
    anchored at p.

    Packed (``kinds`` has columns; none when the hand needs more than
    PACK_BITS bits): ``kinds`` int64[PK_ROWS, L + 1] the local kinds' fields,
    ``melds`` int64[PS_ROWS, M'] the step melds' packed forms in step order,
    ``table``'s packed rows filled in, and ``jump`` to reach a state's next
    step at once: ``jump[:64]`` the kind step of each state bit's kind (the
    lowest set bit is the first kind still held), ``jump[64 + s]`` the first
    group step at or after step s. One pass over the melds serves both, as
    small hands pay this on every call.
    """
    meld_total = meld_counts.shape[0]
    order = decision_order()
    best_mode = mode == MODE_BEST
    present = np.empty(KIND_COUNT, dtype=np.int64)  # local kind -> kind
    local = 0
    bits = 0
    for position in range(KIND_COUNT):
        count = hand[order[position]]
        if count > 0:
            present[local] = order[position]
            local += 1
            width = 1
            while (count >> width) > 0:
                width += 1
            bits += width + 1
    packed = bits <= PACK_BITS
    kinds = np.zeros((PK_ROWS, local + 1 if packed else 0), dtype=np.int64)
    guards = 0
    state = 0
    if packed:
        shift = 0
        for p in range(local):
            count = hand[present[p]]
            width = 1
            while (count >> width) > 0:
                width += 1
            kinds[PK_SHIFT, p] = shift
            kinds[PK_LOW, p] = (np.int64(1) << width) - 1
            kinds[PK_FIELD, p] = ((np.int64(1) << (width + 1)) - 1) << shift
            guards |= np.int64(1) << (shift + width)
            state |= count << shift
            shift += width + 1
    # one pass over the melds: first local kind, packed form, size and (kind, count) pairs
    group_total = 0
    for m in range(meld_total):
        if groups[m] + 1 > group_total:
            group_total = groups[m] + 1
    shares = best_mode and packed
    work = np.zeros(4 * meld_total + 1 + (2 * meld_total * MAX_WIDTH if shares else 0)
                    + 2 * group_total, dtype=np.int64)
    first = work[:meld_total]
    form = work[meld_total:2 * meld_total]
    sizes = work[2 * meld_total:3 * meld_total]
    starts = work[3 * meld_total:4 * meld_total + 1]
    pair_end = 4 * meld_total + 1 + (meld_total * MAX_WIDTH if shares else 0)
    pair_kind = work[4 * meld_total + 1:pair_end]
    pair_count = work[pair_end:pair_end + (meld_total * MAX_WIDTH if shares else 0)]
    anchors = work[work.shape[0] - 2 * group_total:work.shape[0] - group_total]
    group_step = work[work.shape[0] - group_total:]
    anchors[:] = local
    pairs = 0
    for m in range(meld_total):
        first[m] = local  # an empty meld: never laid
        for p in range(local):
            count = meld_counts[m, present[p]]
            if count > 0:
                if first[m] == local:
                    first[m] = p
                    if not packed:
                        break
                form[m] += count << kinds[PK_SHIFT, p]
                if shares:
                    sizes[m] += count
                    pair_kind[pairs] = p
                    pair_count[pairs] = count
                    pairs += 1
        starts[m + 1] = pairs
        group = groups[m]
        if group >= 0 and first[m] < anchors[group]:
            anchors[group] = first[m]
    # step numbers: per local kind, the groups anchored there, then its kind step
    kind_step = np.empty(local + 1, dtype=np.int64)
    step_total = 0
    for p in range(local):
        for group in range(group_total):
            if anchors[group] == p:
                group_step[group] = step_total
                step_total += 1
        kind_step[p] = step_total
        step_total += 1
    table = np.zeros((ST_ROWS, step_total), dtype=np.int64)
    for group in range(group_total):
        if anchors[group] < local:
            s = group_step[group]
            table[ST_KIND, s] = -1
            table[ST_SINGLE, s] = 1
            table[ST_MAXLEFT, s] = 1 << 40
    for p in range(local):
        table[ST_KIND, kind_step[p]] = present[p]
        table[ST_MAXLEFT, kind_step[p]] = max_left[present[p]]
    for m in range(meld_total):  # step of each meld, in ``first``'s place
        if first[m] < local and (live.shape[0] == 0 or live[m] != 0):
            first[m] = group_step[groups[m]] if groups[m] >= 0 else kind_step[first[m]]
            table[ST_HI, first[m]] += 1
        else:
            first[m] = -1
    total = 0
    for s in range(step_total):
        size = table[ST_HI, s]
        table[ST_LO, s] = total
        table[ST_HI, s] = total
        total += size
    step_melds = np.empty(total, dtype=np.int64)
    for m in range(meld_total):
        s = first[m]
        if s >= 0:
            step_melds[table[ST_HI, s]] = m
            table[ST_HI, s] += 1
    jump = np.full(64 + step_total + 1, step_total, dtype=np.int64)
    melds = np.zeros((PS_ROWS, total if packed else 0), dtype=np.int64)
    # the group steps' slack of a priced bound: tail[s] sums it over the groups decided at s
    # or later
    tail = np.zeros(step_total + 1, dtype=np.int64)
    if best_mode and slack.shape[0] > 0:
        for group in range(group_total):
            if anchors[group] < local:
                for s in range(group_step[group] + 1):
                    tail[s] += slack[group]
    if not packed:
        return Programme(table, step_melds, kinds, melds, jump, guards, state, tail)
    for j in range(total):
        m = step_melds[j]
        melds[PS_MELD, j] = m
        melds[PS_PACKED, j] = form[m]
        melds[PS_POINTS, j] = points[m]
    if shares:
        # per-card point shares (see card_shares), over local kinds; or the caller's prices
        if prices.shape[0] == KIND_COUNT:
            for p in range(local):
                kinds[PK_SHARE, p] = prices[present[p]]
        for j in range(total if prices.shape[0] != KIND_COUNT else 0):
            m = step_melds[j]
            share = -((-points[m] * SHARE_SCALE) // sizes[m])  # ceiling
            for i in range(starts[m], starts[m + 1]):
                if share > kinds[PK_SHARE, pair_kind[i]]:
                    kinds[PK_SHARE, pair_kind[i]] = share
        for j in range(total):
            m = step_melds[j]
            value = 0
            for i in range(starts[m], starts[m + 1]):
                value += pair_count[i] * kinds[PK_SHARE, pair_kind[i]]
            melds[PS_SHARE, j] = value
    for p in range(local):
        s = kind_step[p]
        table[ST_FIELD, s] = kinds[PK_FIELD, p]
        table[ST_SHIFT, s] = kinds[PK_SHIFT, p]
        table[ST_LOW, s] = kinds[PK_LOW, p]
        table[ST_SHARE, s] = kinds[PK_SHARE, p]
        b = kinds[PK_SHIFT, p]
        while (kinds[PK_FIELD, p] >> b) & 1:
            jump[b] = s
            b += 1
    for s in range(step_total - 1, -1, -1):
        jump[64 + s] = s if table[ST_KIND, s] < 0 else jump[64 + s + 1]
    return Programme(table, step_melds, kinds, melds, jump, guards, state, tail)


@njit(cache=True)
def _step_of(steps, meld_total):
    """Each meld's step (-1: in none)."""
    step_of = np.full(meld_total, -1, dtype=np.int64)
    table = steps.table
    for s in range(table.shape[1]):
        for j in range(table[ST_LO, s], table[ST_HI, s]):
            step_of[steps.step_melds[j]] = s
    return step_of


@njit(cache=True)
def cut_tail(steps, meld_total, cut_starts, cut_melds, slack, group_total):
    """Add to ``steps.tail[s]`` each cut's slack while a step at or after s holds one of
    its melds."""
    if cut_starts.shape[0] < 2:
        return
    step_of = _step_of(steps, meld_total)
    for c in range(cut_starts.shape[0] - 1):
        last = -1
        for i in range(cut_starts[c], cut_starts[c + 1]):
            last = max(last, step_of[cut_melds[i]])
        for s in range(last + 1):
            steps.tail[s] += slack[group_total + c]


@njit(cache=True)
def open_cuts(steps, meld_total, cut_starts, cut_melds, slack, group_total):
    """What the search needs to drop a cut's slack from its bound once a meld of the cut
    is laid (Cuts); see :func:`close_cuts`. Only the cuts with slack are listed."""
    cut_total = cut_starts.shape[0] - 1
    step_of = _step_of(steps, meld_total)
    cut_last = np.full(max(cut_total, 0), -1, dtype=np.int64)
    cut_value = np.zeros(max(cut_total, 0), dtype=np.int64)
    per_meld = np.zeros(meld_total + 1, dtype=np.int64)
    for c in range(cut_total):
        cut_value[c] = slack[group_total + c]
        for i in range(cut_starts[c], cut_starts[c + 1]):
            cut_last[c] = max(cut_last[c], step_of[cut_melds[i]])
            if cut_value[c] > 0:
                per_meld[cut_melds[i] + 1] += 1
    for m in range(meld_total):
        per_meld[m + 1] += per_meld[m]
    meld_cuts = np.empty(per_meld[meld_total], dtype=np.int64)
    fill = per_meld[:meld_total].copy()
    for c in range(cut_total):
        if cut_value[c] > 0:
            for i in range(cut_starts[c], cut_starts[c + 1]):
                meld_cuts[fill[cut_melds[i]]] = c
                fill[cut_melds[i]] += 1
    return Cuts(np.zeros(steps.table.shape[1] + 2, dtype=np.int64), per_meld, meld_cuts,
                cut_last, cut_value, np.zeros(max(cut_total, 0), dtype=np.int64))


@njit(cache=True)
def close_cuts(cuts, m, here, sign):
    """Meld ``m`` laid (``sign`` 1) or taken back (-1) at step ``here``: a cut holding it is
    closed (no other meld of the clique fits what is left, and the meld cannot be laid
    again), so the slack that ``tail[s]`` counts for it is dropped for the steps s after
    ``here`` (``closed[s]``, to subtract from ``tail[s]``). Without this, a laid meld's
    points, which its cuts' slack helps cover, and the tail would count that slack twice.
    Only the entries after ``here`` change: the search reads them only while ``m`` is
    laid (deeper steps), and takes ``m`` back at the same step."""
    for i in range(cuts.starts[m], cuts.starts[m + 1]):
        c = cuts.cuts[i]
        cuts.laid[c] += sign
        if cuts.laid[c] != (1 if sign > 0 else 0):
            continue  # already closed on this path (or still is)
        for s in range(here + 1, cuts.last[c] + 1):
            cuts.closed[s] += sign * cuts.value[c]

