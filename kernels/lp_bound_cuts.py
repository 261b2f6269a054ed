"""Clique cuts of the lay-down programme: melds of which at most one is laid (numba).

A clique is a set of melds every two of which (and each with itself) cannot
be laid together, so the programme of :mod:`kernels.lp_bound_simplex` may add
``sum of y over it <= 1``. :func:`separate` finds the cliques a solution
violates; the conflict tests work on bit masks of the kinds' copies.
"""

from __future__ import annotations

import numpy as np

from kernels.encoding import KIND_COUNT
from kernels.jit import njit
from kernels.lp_bound_simplex import group_count


@njit(cache=True)
def _exceeds(meld_counts, hand, groups, subset):
    """Conflict masks of the melds ``subset`` (by position j in it): bit k of
    ``above[j, t - 1]`` is set when meld subset[j] holds t or more copies of kind k,
    of ``needs[j, t - 1]`` when it holds more than hand[k] - t; melds at positions
    a and b (a may be b) cannot both be laid when they share a group (``sub_groups``)
    or some ``above[a, t] & needs[b, t]`` (their copies of a kind exceed the hand's).
    ``alone[j]``: the meld at j conflicts with itself (it cannot be laid twice)."""
    total = subset.shape[0]
    most = 1
    for j in range(total):
        for k in range(KIND_COUNT):
            if meld_counts[subset[j], k] > most:
                most = meld_counts[subset[j], k]
    above = np.zeros((total, most), dtype=np.int64)
    needs = np.zeros((total, most), dtype=np.int64)
    sub_groups = np.empty(total, dtype=np.int64)
    alone = np.zeros(total, dtype=np.bool_)
    for j in range(total):
        m = subset[j]
        sub_groups[j] = groups[m]
        for k in range(KIND_COUNT):
            c = meld_counts[m, k]
            if c == 0:
                continue
            for t in range(1, most + 1):
                if c >= t:
                    above[j, t - 1] |= np.int64(1) << k
                if c > hand[k] - t:
                    needs[j, t - 1] |= np.int64(1) << k
        alone[j] = _conflict(j, j, above, needs, sub_groups)
    return above, needs, sub_groups, alone


@njit(cache=True)
def _thresholds(meld_counts, hand, subset, above):
    """Per meld of ``subset`` (position j), the kinds it holds with the least count a
    member must hold of each to conflict with it: kind ``kinds[i]`` and count
    ``least[i]`` (hand[k] less its count, plus 1) for i in starts[j]:starts[j + 1],
    only where that count is at most ``above.shape[1]`` (no meld holds more)."""
    total = subset.shape[0]
    starts = np.zeros(total + 1, dtype=np.int64)
    for j in range(total):
        held = above[j, 0]  # the kinds the meld holds
        while held != 0:
            held &= held - 1
            starts[j + 1] += 1
        starts[j + 1] += starts[j]
    kinds = np.empty(starts[total], dtype=np.int64)
    least = np.empty(starts[total], dtype=np.int64)
    for j in range(total):
        used = starts[j]
        held = above[j, 0]
        k = 0
        while held != 0:
            if held & 1 and hand[k] - meld_counts[subset[j], k] < above.shape[1]:
                kinds[used] = k
                least[used] = hand[k] - meld_counts[subset[j], k] + 1
                used += 1
            held >>= 1
            k += 1
        starts[j + 1] = used  # the kinds that no meld's count reaches are left out
    return starts, kinds, least


@njit(cache=True)
def _first_free(holders, kind_starts, kinds, least, group_bits, j, group, size):
    """The first member (position in the clique) that meld ``j`` does not conflict with,
    or -1: bit q of ``holders[k, t - 1]`` is set when member q holds t or more copies of
    kind k, of ``group_bits`` when member q is of ``group``."""
    for w in range(((size - 1) >> 6) + 1):
        cover = group_bits[w] if group >= 0 else np.int64(0)
        for i in range(kind_starts[j], kind_starts[j + 1]):
            cover |= holders[kinds[i], least[i] - 1, w]
        width = min(size - (w << 6), 64)
        full = np.int64(-1) if width == 64 else (np.int64(1) << width) - 1
        if cover & full != full:
            free = ~cover & full
            q = 0
            while not (free >> q) & 1:
                q += 1
            return (w << 6) + q
    return -1


@njit(cache=True)
def _conflict(a, b, above, needs, groups):
    if groups[a] >= 0 and groups[a] == groups[b]:
        return True
    for t in range(above.shape[1]):
        if above[a, t] & needs[b, t]:
            return True
    return False


@njit(cache=True)
def _hold(holders, group_holders, meld_counts, m, group, q):
    """Member q of the clique is meld m (of ``group``, or -1): set its bits."""
    w = q >> 6
    bit = np.int64(1) << (q & 63)
    for k in range(KIND_COUNT):
        for t in range(min(meld_counts[m, k], holders.shape[1])):
            holders[k, t, w] |= bit
    if group >= 0:
        group_holders[group, w] |= bit


@njit(cache=True, inline="always")
def separate(hand, meld_counts, groups, subset, solution, cut_starts, cut_melds, max_new):
    """Clique cuts that the programme's ``solution`` (over ``subset``) violates.

    A clique is a set of melds every two of which (and each with itself: it
    cannot be laid twice) cannot be laid together, so at most one of them is
    laid: ``sum of y over it <= 1``. From each meld of the solution, in
    decreasing order of its value, a clique is grown greedily over the
    solution's melds (largest value first), and if it holds more than 1 it is
    extended by every other meld of ``subset`` that conflicts with all its
    members (a stronger cut) and kept unless it is already a cut. Returns the
    cuts given and at most ``max_new`` new ones, as (cut_starts, cut_melds).
    """
    above, needs, sub_groups, alone = _exceeds(meld_counts, hand, groups, subset)
    most = above.shape[1]
    kind_starts, kinds_of, least = _thresholds(meld_counts, hand, subset, above)
    words = (subset.shape[0] + 63) >> 6
    holders = np.zeros((KIND_COUNT, most, words), dtype=np.int64)  # bit q: member q's copies
    group_holders = np.zeros((group_count(groups) + 1, words), dtype=np.int64)
    order = np.argsort(-solution)
    support = 0
    while support < order.shape[0] and solution[order[support]] > 1e-6:
        support += 1
    members = np.empty(subset.shape[0], dtype=np.int64)
    in_clique = np.zeros(subset.shape[0], dtype=np.bool_)
    new_starts = np.zeros(max_new + 1, dtype=np.int64)
    new_melds = np.empty(max_new * subset.shape[0], dtype=np.int64)
    found = 0
    # the cliques grown over the solution's melds so far (a basic solution holds at most
    # one meld per row of the programme: support <= 53 + groups + cuts + 1)
    grown_starts = np.zeros(support + 1, dtype=np.int64)
    grown_melds = np.empty(support * support, dtype=np.int64)
    grown_total = 0
    size_last = 0  # the last clique's size: the words of ``holders`` to clear
    for s in range(support):
        if found >= max_new:
            break
        seed = order[s]
        if not alone[seed]:
            continue
        for w in range(((size_last - 1) >> 6) + 1 if size_last > 0 else 0):
            holders[:, :, w] = 0
            group_holders[:, w] = 0
        size = 1
        members[0] = seed
        _hold(holders, group_holders, meld_counts, subset[seed], sub_groups[seed], 0)
        in_clique[:] = False
        in_clique[seed] = True
        weight = solution[seed]
        rejecter = 0  # the member that last kept a meld out: it is tested first
        # the kinds every member holds t or more copies of (bit k of common[t - 1]), and
        # the members' one group (-2: none shared): a meld that needs more of such a kind
        # than the hand leaves, or is of that group, conflicts with every member at once
        common = above[seed].copy()
        common_group = sub_groups[seed] if sub_groups[seed] >= 0 else -2
        for pass_ in range(2):  # the solution's melds, then (a violated clique) the others
            for i in range(support if pass_ == 0 else subset.shape[0]):
                j = order[i] if pass_ == 0 else i
                if in_clique[j] or (pass_ == 1 and solution[j] > 1e-6):
                    continue
                if not alone[j]:
                    continue
                joins = sub_groups[j] == common_group
                for t in range(common.shape[0]):
                    if common[t] & needs[j, t]:
                        joins = True
                if not joins:
                    if not _conflict(j, members[rejecter], above, needs, sub_groups):
                        continue
                    free = _first_free(holders, kind_starts, kinds_of, least,
                                       group_holders[max(sub_groups[j], 0)], j,
                                       sub_groups[j], size)
                    joins = free < 0
                    if not joins:
                        rejecter = free
                if joins:
                    members[size] = j
                    _hold(holders, group_holders, meld_counts, subset[j], sub_groups[j], size)
                    size += 1
                    in_clique[j] = True
                    weight += solution[j]
                    for t in range(common.shape[0]):
                        common[t] &= above[j, t]
                    if sub_groups[j] != common_group:
                        common_group = -2
            if pass_ == 0:
                if weight <= 1.0 + 1e-6:
                    break
                # the same melds from another seed grow the same cut: skip them
                grown = np.sort(members[:size])
                repeat = False
                for c in range(grown_total):
                    if grown_starts[c + 1] - grown_starts[c] == size and (
                            grown_melds[grown_starts[c]:grown_starts[c + 1]] == grown).all():
                        repeat = True
                        break
                if repeat:
                    weight = 0.0
                    break
                grown_melds[grown_starts[grown_total]:grown_starts[grown_total] + size] = grown
                grown_starts[grown_total + 1] = grown_starts[grown_total] + size
                grown_total += 1
        size_last = size
        if weight <= 1.0 + 1e-6:
            continue
        clique = np.sort(subset[members[:size]])
        known = False
        for c in range(cut_starts.shape[0] - 1):
            if cut_starts[c + 1] - cut_starts[c] == size and (
                    cut_melds[cut_starts[c]:cut_starts[c + 1]] == clique).all():
                known = True
        for c in range(found):
            if new_starts[c + 1] - new_starts[c] == size and (
                    new_melds[new_starts[c]:new_starts[c + 1]] == clique).all():
                known = True
        if known:
            continue
        new_melds[new_starts[found]:new_starts[found] + size] = clique
        new_starts[found + 1] = new_starts[found] + size
        found += 1
    old = cut_starts.shape[0] - 1
    starts = np.empty(old + found + 1, dtype=np.int64)
    starts[:old + 1] = cut_starts
    starts[old + 1:] = cut_starts[old] + new_starts[1:found + 1]
    melds = np.empty(starts[old + found], dtype=np.int64)
    melds[:cut_starts[old]] = cut_melds
    melds[cut_starts[old]:] = new_melds[:new_starts[found]]
    return starts, melds
