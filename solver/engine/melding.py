"""Melding and extending (rules §2, §5.2, §5.4, §6): which lays are legal, laying them, the
packet.

A meld or an extension is legal only when the rest of the turn can still end
legally (the engine's decisions in the README): the pile's top card still to
meld, the last card discardable, the vulnerability minimum reachable.
"""

from __future__ import annotations

import numpy as np
from kernels.jit import njit

from kernels.params import SHAPE_RUN
from kernels.partition_numba import best, catalogue, meld_key, meld_reading
from solver.engine import layout as L
from solver.engine.basics import (
    Mover,
    Play,
    at_once_extra,
    close_ready,
    encode,
    forget_known,
    hand_of,
    holds_wild,
    info_of,
    key_counts,
    meld_of,
    packet_after,
    packet_for,
    set_aside_red_threes,
    team_additions,
    team_stats,
    trump_bonus,
    vulnerable_minimum,
    wild_bar,
)
from solver.engine.discard import discard_ok
from solver.limits import RULE_BUDGET   # past it a vulnerable team's meld it cannot show
                                        # reaching the minimum is refused


@njit(cache=True, inline="always")
def _rest_value(hand_after, keys_counts, points, vals):
    """Best lay-down points of a hand from the catalogue rows inside it (keep 0, bounded)."""
    n = keys_counts.shape[0]
    inside = np.zeros(n, dtype=np.bool_)
    count = 0
    for i in range(n):
        ok = True
        for kind in range(L.KINDS):
            if keys_counts[i, kind] > hand_after[kind]:
                ok = False
                break
        inside[i] = ok
        if ok:
            count += 1
    if count == 0:
        return 0
    rows = np.empty((count, L.KINDS), dtype=np.int64)
    row_points = np.empty(count, dtype=np.int64)
    j = 0
    for i in range(n):
        if inside[i]:
            rows[j] = keys_counts[i]
            row_points[j] = points[i]
            j += 1
    groups = np.full(count, -1, dtype=np.int64)
    value, _, _ = best(hand_after.copy(), rows, row_points, np.int64(0), groups,
                       hand_after.copy(), np.int64(RULE_BUDGET))
    return max(value, 0)


@njit(cache=True)
def play_ok(S, R, vals, who, play, catalogue_counts, catalogue_points):
    """May ``who`` (a Mover) make ``play`` (a Play: a new meld, or an addition to a table
    meld) now? ``catalogue_counts``/``catalogue_points``: the hand's melds (for the
    vulnerability minimum reachable with the rest). Checks, in order: the pile's top card
    still to meld (RULES.md §5.1), the cards left (an emptied hand takes the
    packet at once, RULES.md §5.4; a last card must be discardable: closing or
    taking the packet, RULES.md §7), the vulnerability minimum (RULES.md §6,
    reachable with the rest of the hand).
    """
    seat, team, hand, held, stats = who
    used, size, points, grows_biriba, clean_change, is_run, is_new = play
    must = S[L.MUST]
    if must >= 0 and used[must] == 0:
        return False
    biribas, clean, runs, sets = stats
    if grows_biriba:
        biribas += 1
    clean += clean_change
    if is_new:
        if is_run:
            runs += 1
        else:
            sets += 1
    first_biriba = R[L.R_FIRST_BIRIBA] != 0
    left = held - size
    last = -1
    banned = S[L.BANNED]
    other = banned < 0
    if left == 1 or not other:
        for kind in range(L.KINDS):
            if hand[kind] - used[kind] > 0:
                last = kind
                if kind != banned:
                    other = True
    packet = packet_after(S, R, team, biribas)    # threes: a biriba may open the packet
    if left == 0:
        if first_biriba:
            return False
        if packet < 0 and not (R[L.R_CLOSE_NO_DISCARD]                  # venezuelan: out
                               and close_ready(S, R, team, biribas, clean, runs, sets)
                               and S[L.TOOK_PILE] != L.TOOK_LAST_CARD_PILE):
            return False
    elif left == 1:
        if last == banned:
            return False
        pending = S[L.PENDING + seat] > 0 or (
            first_biriba and grows_biriba and stats[0] == 0 and packet >= 0)
        if not ((close_ready(S, R, team, biribas, clean, runs, sets)
                 and S[L.TOOK_PILE] != L.TOOK_LAST_CARD_PILE)
                or (not first_biriba and packet >= 0)
                or (first_biriba and pending)):
            return False
    elif not other:
        return False
    minimum = vulnerable_minimum(S, team)
    if minimum > 0 and S[L.TURN_POINTS] + points < minimum:
        hand_after = hand - used
        if S[L.TURN_POINTS] + points + _rest_value(
                hand_after, catalogue_counts, catalogue_points, vals) < minimum:
            return False
    return True


@njit(cache=True)
def new_meld_ok(S, R, vals, who, counts, shapes, cleans, points, i):
    """May ``who`` lay catalogue meld ``i`` of its hand (``counts``/``points``: the catalogue)?"""
    if holds_wild(R, counts[i]) and wild_bar(S, R, who.team) >= 0:
        return False              # venezuelan (000): the wild-card set comes first
    size = counts[i].sum()
    biriba = size >= R[L.R_BIRIBA_SIZE]
    play = Play(counts[i], size, points[i], biriba, 1 if biriba and cleans[i] != 0 else 0,
                shapes[i] == SHAPE_RUN, True)
    return play_ok(S, R, vals, who, play, counts, points)


@njit(cache=True)
def addition_ok(S, T, run_bonus, who, table, row, gain, m, counts, points):
    """(legal, action) of ``who`` adding ``row`` to the team's table meld ``m`` (``table``:
    the team's melds; ``counts``/``points``: the hand's catalogue)."""
    R, sc, vals, setb = T.array, T.scalars, T.values, T.set_bonus
    seat, team, _, held, _ = who
    if R[L.R_OWN_MELD_FIRST] and S[L.OWN_MELD + seat] == 0:
        return False, 0           # threes (003): a meld of one's own before extending
    if holds_wild(R, row):
        bar = wild_bar(S, R, team)
        if bar >= 0 and bar != m:
            return False, 0       # venezuelan (000): the wild-card set comes first
    biriba = R[L.R_BIRIBA_SIZE]
    info = info_of(S, team, m)
    added = row.sum()
    grows = info[L.INFO_SIZE] < biriba and info[L.INFO_SIZE] + added >= biriba
    merged = table[m] + row
    change = 0
    if info[L.INFO_SIZE] + added >= biriba and held - added == 1:
        # a biriba's cleanness may change: a wild added, or an own-suit 2 falling into place
        # (it matters only for closing, which play_ok weighs when one card is left)
        _, _, merged_clean, _ = meld_reading(merged, sc, vals, run_bonus, setb)
        before = 1 if info[L.INFO_SIZE] >= biriba and info[L.INFO_CLEAN] != 0 else 0
        change = (1 if merged_clean != 0 else 0) - before
    play = Play(row, added, gain, grows, change, info[L.INFO_SHAPE] == SHAPE_RUN, False)
    if play_ok(S, R, vals, who, play, counts, points):
        return True, encode(L.ACTION_EXTEND, m, meld_key(merged))
    return False, 0


@njit(cache=True)
def play_actions(S, T, out, n, melds_only):
    """Append the legal new melds and extensions (and discards unless ``melds_only``)."""
    R, sc, vals, runb, setb = T.array, T.scalars, T.values, T.run_bonus_by_trump, T.set_bonus
    seat = S[L.CURRENT]
    team = S[L.TEAM_OF + seat]
    hand = hand_of(S, seat).copy()
    held = hand.sum()
    who = Mover(seat, team, hand, held, team_stats(S, R, team))
    run_bonus = trump_bonus(S, runb)
    keys, counts, shapes, homes, cleans, points = catalogue(hand, sc, vals, run_bonus, setb)
    for i in range(keys.shape[0]):
        if n < out.shape[0] and new_meld_ok(S, R, vals, who, counts, shapes, cleans, points, i):
            out[n] = encode(L.ACTION_LAY, 0, keys[i])
            n += 1
    if S[L.MELD_N + team] > 0:
        table, rows, gains, groups = team_additions(S, T, team, hand, run_bonus)
        for i in range(rows.shape[0]):
            if n >= out.shape[0]:
                break
            ok, action = addition_ok(S, T, run_bonus, who, table, rows[i], gains[i], groups[i],
                                     counts, points)
            if ok:
                out[n] = action
                n += 1
    if melds_only:
        return n
    for kind in range(L.KINDS):
        if hand[kind] > 0 and n < out.shape[0] and discard_ok(S, R, who, kind):
            out[n] = encode(L.ACTION_DISCARD, 0, kind)
            n += 1
    return n


@njit(cache=True, inline="always")
def _merge_three_player_teams(S, R, solo):
    """RULES.md 7.1: the other two players become one team for the rest of the round."""
    S[L.SOLO] = solo
    first = -1
    second = -1
    for seat in range(3):
        if seat != solo:
            if first < 0:
                first = seat
            else:
                second = seat
    for m in range(S[L.MELD_N + second]):
        n = S[L.MELD_N + first]
        meld_of(S, first, n)[:] = meld_of(S, second, m)
        info_of(S, first, n)[:] = info_of(S, second, m)
        S[L.MELD_N + first] = n + 1
    S[L.MELD_N + second] = 0
    if S[L.OPENED + second]:
        S[L.OPENED + first] = 1
    S[L.MINIMUM + first] = max(S[L.MINIMUM + first], S[L.MINIMUM + second])
    S[L.NEEDS_BIRIBA + first] = max(S[L.NEEDS_BIRIBA + first], S[L.NEEDS_BIRIBA + second])
    S[L.NEEDS_BIRIBA + second] = 0
    for i in range(2):
        S[L.RED_THREES + 2 * first + i] += S[L.RED_THREES + 2 * second + i]
        S[L.RED_THREES + 2 * second + i] = 0
    S[L.TEAM_OF + second] = first


@njit(cache=True)
def take_packet(S, R, seat, packet):
    team = S[L.TEAM_OF + seat]
    for kind in range(L.KINDS):
        S[L.HANDS + seat * L.KINDS + kind] += S[L.PACKETS + packet * L.KINDS + kind]
    S[L.PACKET_USED + packet] = 1
    S[L.PACKET_TAKEN + team] = 1
    S[L.FRESH + seat] = 1
    S[L.LAST_DISCARD + seat] = 0               # its hand is another now (the search's inference)
    if R[L.R_PLAYERS] == 3 and S[L.SOLO] < 0 and not R[L.R_THREE_ALONE]:
        _merge_three_player_teams(S, R, seat)
    if R[L.R_RED_THREES]:
        set_aside_red_threes(S, seat, False)   # threes: face up at once (docs/rules.md D30)


@njit(cache=True)
def lay(S, T, seat, team, target, key, extend):
    R, sc, vals, runb, setb = T.array, T.scalars, T.values, T.run_bonus_by_trump, T.set_bonus
    run_bonus = trump_bonus(S, runb)
    merged = np.empty(L.KINDS, dtype=np.int64)
    key_counts(key, merged)
    biriba = R[L.R_BIRIBA_SIZE]
    had_biriba = team_stats(S, R, team)[0] > 0
    if extend:
        m = target
        old = meld_of(S, team, m)
        before = info_of(S, team, m)[L.INFO_POINTS]
        old_size = info_of(S, team, m)[L.INFO_SIZE]
    else:
        m = S[L.MELD_N + team]
        S[L.MELD_N + team] = m + 1
        old = meld_of(S, team, m)
        old[:] = 0
        before = 0
        old_size = 0
        S[L.OWN_MELD + seat] = 1
    size = 0
    for kind in range(L.KINDS):
        added = merged[kind] - old[kind]
        S[L.HANDS + seat * L.KINDS + kind] -= added
        size += merged[kind]
        if added > 0 and kind == S[L.MUST]:
            S[L.MUST] = -1                         # the pile's top card is melded
    old[:] = merged
    shape, home, clean, points = meld_reading(merged, sc, vals, run_bonus, setb)
    info = info_of(S, team, m)
    if not extend:                # venezuelan (000): a biriba laid whole in one move
        info[L.INFO_AT_ONCE] = at_once_extra(R, shape, size)
    points += info[L.INFO_AT_ONCE]
    info[L.INFO_SHAPE] = shape
    info[L.INFO_HOME] = home
    info[L.INFO_CLEAN] = clean
    info[L.INFO_POINTS] = points
    info[L.INFO_SIZE] = size
    S[L.TURN_POINTS] += points - before
    S[L.TURN_LAID] += size - old_size
    S[L.FRESH + seat] = 0
    S[L.REDRAW_OK] = 0
    forget_known(S, seat)
    if (R[L.R_FIRST_BIRIBA] and not had_biriba and old_size < biriba <= size
            and S[L.PENDING + seat] == 0):
        packet = packet_for(S, R, team)
        if packet >= 0:
            S[L.PENDING + seat] = packet + 1
    if hand_of(S, seat).sum() == 0 and not R[L.R_FIRST_BIRIBA]:
        packet = packet_for(S, R, team)
        if packet >= 0:
            take_packet(S, R, seat, packet)   # RULES.md §5.4: at once, and play on
