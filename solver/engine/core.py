"""The rules of play, written once, as numba functions over the state array.

Every function here reads and writes the flat ``int64`` state of
:mod:`solver.engine.layout` (``S``) and the rule numbers of
:mod:`solver.engine.rules` (``R`` and the kernels' scoring tables ``sc``,
``vals``, ``runb``, ``setb``). The Python :class:`solver.engine.api.State`
and the playout kernel (:mod:`solver.engine.playout`) call the same
functions; with ``NUMBA_DISABLE_JIT=1`` they run as plain Python.

Actions are int64: ``type << 48 | target << 42 | key``. The key of a new meld
(``ACTION_LAY``) is its :func:`kernels.partition_numba.meld_key`; an extension
(``ACTION_EXTEND``) names the table meld in ``target`` and the key of the meld
it becomes; a discard names the card kind; a trump choice the suit (4: none).
The same meld has the same action in every state, which search needs.

Randomness: a 48-bit linear congruential generator whose state is an int64
(the dealing one lives in the state array; policies get theirs as an
``int64[1]`` array), exact both compiled and in plain Python.
"""

from __future__ import annotations

import kernels  # noqa: F401  (sets the numba cache location first)
import numpy as np
from numba import njit

from kernels.partition_numba import additions, best, catalogue, meld_key
from solver.engine import layout as L

LCG_MUL = 0x5DEECE66D
LCG_ADD = 0xB
LCG_MASK = (1 << 48) - 1
RANK_COUNT = 13
NEG_INF = -(1 << 60)
KIND_RUN = 0


# --- random numbers -------------------------------------------------------------------


@njit(cache=True)
def seed_rng(seed):
    """Generator state for ``seed`` (any int)."""
    return (seed ^ LCG_MUL) & LCG_MASK


@njit(cache=True)
def rng_below(rng, n):
    """Uniform int in [0, n) from the generator ``rng`` (int64[1], advanced)."""
    rng[0] = (int(rng[0]) * LCG_MUL + LCG_ADD) & LCG_MASK
    return ((rng[0] >> 17) * n) >> 31


# --- small helpers ----------------------------------------------------------------------


@njit(cache=True)
def encode(kind_of_action, target, key):
    return (kind_of_action << L.TYPE_SHIFT) | (target << L.TARGET_SHIFT) | key


@njit(cache=True)
def key_counts(key, out):
    """The 53 counts of the meld whose meld_key is ``key``."""
    for kind in range(L.KINDS):
        out[kind] = 0
    out[L.JOKER] = key & 7
    for suit in range(4):
        out[suit * RANK_COUNT + 1] = (key >> (3 + 2 * suit)) & 3
    tag = (key >> 40) & 3
    payload = (key >> 11) & ((1 << 29) - 1)
    if tag == 1:
        suit = payload & 3
        mask = payload >> 2
        for rank in range(RANK_COUNT):
            if rank == 1:
                continue
            bit = 0 if rank == 0 else rank - 1
            if (mask >> bit) & 1:
                out[suit * RANK_COUNT + rank] += 1
    elif tag == 2:
        rank = payload & 15
        if rank >= RANK_COUNT:      # no meld has this key: an action made up by hand
            return
        for suit in range(4):
            out[suit * RANK_COUNT + rank] += (payload >> (4 + 2 * suit)) & 3


@njit(cache=True)
def hand_of(S, seat):
    return S[L.HANDS + seat * L.KINDS:L.HANDS + (seat + 1) * L.KINDS]


@njit(cache=True)
def meld_of(S, team, m):
    start = L.MELDS + (team * L.MAX_MELDS + m) * L.KINDS
    return S[start:start + L.KINDS]


@njit(cache=True)
def info_of(S, team, m):
    start = L.MELD_INFO + (team * L.MAX_MELDS + m) * L.INFO
    return S[start:start + L.INFO]


@njit(cache=True)
def team_melds(S, team):
    """(counts int64[n, 53], shapes, homes, points) of a team's table melds (copies)."""
    n = S[L.MELD_N + team]
    start = L.MELDS + team * L.MAX_MELDS * L.KINDS
    counts = S[start:start + n * L.KINDS].copy().reshape(n, L.KINDS)
    shapes = np.empty(n, dtype=np.int64)
    homes = np.empty(n, dtype=np.int64)
    points = np.empty(n, dtype=np.int64)
    for m in range(n):
        info = info_of(S, team, m)
        shapes[m] = info[0]
        homes[m] = info[1]
        points[m] = info[3]
    return counts, shapes, homes, points


@njit(cache=True)
def trump_bonus(S, runb):
    trump = S[L.TRUMP]
    return runb[trump if trump >= 0 else 4]


@njit(cache=True)
def identify(counts, sc, vals, run_bonus, setb):
    """(shape, home, clean, points) of a legal meld's best reading (-1 shape if illegal)."""
    keys, rows, shapes, homes, cleans, points = catalogue(counts, sc, vals, run_bonus, setb)
    key = meld_key(counts)
    for i in range(keys.shape[0]):
        if keys[i] == key:
            return shapes[i], homes[i], cleans[i], points[i]
    return -1, -1, 0, 0


@njit(cache=True)
def is_wild(R, kind):
    return kind == L.JOKER or (R[L.R_WILD_TWOS] != 0 and kind % RANK_COUNT == 1)


@njit(cache=True)
def minimum_for(R, score):
    """Vulnerability (RULES.md §6): least first lay-down for a match score."""
    minimum = 0
    for i in range(R[L.R_VULN_N]):
        if score >= R[L.R_VULN + 2 * i]:
            minimum = R[L.R_VULN + 2 * i + 1]
    return minimum


@njit(cache=True)
def team_stats(S, R, team):
    """(biribas, clean biribas, runs, sets) of a team's table melds."""
    biribas = 0
    clean = 0
    runs = 0
    sets = 0
    for m in range(S[L.MELD_N + team]):
        info = info_of(S, team, m)
        if info[4] >= R[L.R_BIRIBA_SIZE]:
            biribas += 1
            if info[2]:
                clean += 1
        if info[0] == KIND_RUN:
            runs += 1
        else:
            sets += 1
    return biribas, clean, runs, sets


@njit(cache=True)
def close_ready(S, R, team, biribas, clean, runs, sets):
    """The team may close (RULES.md §7): packet taken, enough biribas, preset extras."""
    if S[L.PACKET_TAKEN + team] == 0 or biribas < R[L.R_CLOSE_BIRIBAS]:
        return False
    if R[L.R_CLOSE_CLEAN] and clean == 0:
        return False
    if R[L.R_CLOSE_RUN_SET] and (runs == 0 or sets == 0):
        return False
    return True


@njit(cache=True)
def packet_for(S, R, team):
    """The packet the team would take now, or -1 (RULES.md §5.4, 7.1)."""
    if S[L.PACKET_TAKEN + team]:
        return -1
    if R[L.R_PLAYERS] == 3:
        for p in range(2):
            if S[L.PACKET_USED + p] == 0:
                return p
        return -1
    return team if S[L.PACKET_USED + team] == 0 else -1


@njit(cache=True)
def vulnerable_minimum(S, team):
    """The minimum the team's lay-down this turn must reach (0: none)."""
    if S[L.OPENED + team]:
        return 0
    return S[L.MINIMUM + team]


# --- dealing --------------------------------------------------------------------------------


@njit(cache=True)
def _deal_next(S):
    S[L.RNG] = (int(S[L.RNG]) * LCG_MUL + LCG_ADD) & LCG_MASK
    return S[L.RNG] >> 17


@njit(cache=True)
def reset_turn(S):
    """Clear what one turn remembers (pile taken, banned and owed cards, points laid)."""
    S[L.TOOK_PILE] = 0
    S[L.BANNED] = -1
    S[L.MUST] = -1
    S[L.LAST_DRAWN] = -1
    S[L.REDRAW_OK] = 0
    S[L.TURN_POINTS] = 0
    S[L.TURN_LAID] = 0


@njit(cache=True)
def deal_round(S, R):
    """Shuffle and deal a round (RULES.md §4) with the state's own generator."""
    players = R[L.R_PLAYERS]
    teams = R[L.R_TEAMS]
    S[L.TEAM_OF:L.ENTITY] = 0
    S[L.HANDS:L.ROUND_SCORE] = 0       # the last round's scores stay readable
    S[L.MELD_N:L.MATCH] = 0
    S[L.PACKET_N:] = 0
    S[L.PHASE] = L.DRAW
    S[L.TRUMP] = -1
    S[L.TURNS] = 0
    reset_turn(S)
    S[L.REDRAW_USED] = 0
    S[L.CLOSER] = -1
    S[L.IDLE] = 0
    S[L.SOLO] = -1
    S[L.STOCK_OUT_BY] = -1
    S[L.END_REASON] = L.NOT_OVER
    for seat in range(players):
        S[L.TEAM_OF + seat] = seat % teams
    for team in range(teams):
        S[L.MINIMUM + team] = minimum_for(R, S[L.MATCH + team])
    decks = R[L.R_DECKS]
    total = 52 * decks + R[L.R_JOKERS]
    deck = np.empty(total, dtype=np.int64)
    n = 0
    for kind in range(52):
        for _ in range(decks):
            deck[n] = kind
            n += 1
    for _ in range(R[L.R_JOKERS]):
        deck[n] = L.JOKER
        n += 1
    for i in range(total - 1, 0, -1):       # Fisher-Yates
        j = (_deal_next(S) * (i + 1)) >> 31
        deck[i], deck[j] = deck[j], deck[i]
    position = 0
    start = (S[L.DEALER] + 1) % players
    S[L.CURRENT] = start
    for i in range(players):
        seat = (start + i) % players
        for _ in range(R[L.R_HAND_SIZE]):
            S[L.HANDS + seat * L.KINDS + deck[position]] += 1
            position += 1
    packets = 3 if players == 6 else 2
    S[L.PACKET_N] = packets
    for p in range(packets):
        size = R[L.R_PACKET_SIZE]
        if players == 3 and p == 0:
            size = R[L.R_PACKET_BIG]
        S[L.PACKET_SIZE + p] = size
        for _ in range(size):
            S[L.PACKETS + p * L.KINDS + deck[position]] += 1
            position += 1
    buried = np.empty(total, dtype=np.int64)
    buried_n = 0
    if R[L.R_TURN_UP]:
        while position < total:
            card = deck[position]
            position += 1
            if R[L.R_BURY] and is_wild(R, card):
                buried[buried_n] = card       # RULES.md §4: buried in the stock
                buried_n += 1
                continue
            S[L.PILE] = card
            S[L.PILE_N] = 1
            if R[L.R_HAS_TRUMP]:
                if card == L.JOKER:
                    S[L.PHASE] = L.CHOOSE_TRUMP
                else:
                    S[L.TRUMP] = card // RANK_COUNT
            break
    n = 0
    for i in range(buried_n):
        S[L.STOCK + n] = buried[i]
        n += 1
    for i in range(position, total):
        S[L.STOCK + n] = deck[i]
        n += 1
    S[L.STOCK_N] = n


@njit(cache=True)
def new_game(S, R, seed, dealer, match_mode):
    """Start a round (``match_mode`` 0) or a match (1) from ``seed``."""
    S[:] = 0
    players = R[L.R_PLAYERS]
    S[L.PLAYERS] = players
    S[L.TEAMS] = R[L.R_TEAMS]
    S[L.RNG] = seed_rng(seed)
    S[L.DEALER] = dealer % players
    S[L.MATCH_MODE] = match_mode
    S[L.WINNER] = -1
    for seat in range(players):
        S[L.ENTITY + seat] = seat % R[L.R_TEAMS]
    deal_round(S, R)


# --- legality -----------------------------------------------------------------------------


# Memo entries of the lay-down search behind one legality check. Past it the search
# answers with the best lay-down it found, a lower bound: a vulnerable team's meld
# whose minimum it cannot show reachable is refused (README, "Engine decisions").
RULE_BUDGET = 1 << 17


@njit(cache=True)
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
def play_ok(S, R, seat, team, hand, held, used, size, points, grows_biriba, clean_change,
            is_run, is_new, catalogue_counts, catalogue_points, vals, stats):
    """May ``seat`` lay ``used`` (a new meld, or an addition to a table meld) now?

    ``held``: cards in ``hand``; ``grows_biriba``: the play makes a meld reach the biriba size;
    ``clean_change``: how the team's clean biribas change (+1 a new clean biriba, -1 a clean
    biriba that a wild makes dirty). Checks, in order: the pile's top card
    still to meld (RULES.md §5.1), the cards left (an emptied hand takes the
    packet at once, RULES.md §5.4; a last card must be discardable: closing or
    taking the packet, RULES.md §7), the vulnerability minimum (RULES.md §6,
    reachable with the rest of the hand).
    """
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
    if left == 0:
        if first_biriba or packet_for(S, R, team) < 0:
            return False
    elif left == 1:
        if last == banned:
            return False
        pending = S[L.PENDING + seat] > 0 or (
            first_biriba and grows_biriba and stats[0] == 0 and packet_for(S, R, team) >= 0)
        if not ((close_ready(S, R, team, biribas, clean, runs, sets)
                 and S[L.TOOK_PILE] != L.TOOK_LAST_CARD_PILE)
                or (not first_biriba and packet_for(S, R, team) >= 0)
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
def discard_ok(S, R, seat, team, hand, held, kind, stats):
    """May ``seat`` end the turn discarding ``kind`` (RULES.md §5.3, §6, §7)?"""
    if hand[kind] == 0 or kind == S[L.BANNED] or S[L.MUST] >= 0:
        return False
    minimum = vulnerable_minimum(S, team)
    if minimum > 0 and 0 < S[L.TURN_POINTS] < minimum:
        return False
    if held == 1:
        biribas, clean, runs, sets = stats
        if close_ready(S, R, team, biribas, clean, runs, sets):
            # 000 (RULES.md §7): no closing after taking a one-card pile with one card in hand
            return S[L.TOOK_PILE] != L.TOOK_LAST_CARD_PILE
        if R[L.R_FIRST_BIRIBA]:
            return S[L.PENDING + seat] > 0
        return packet_for(S, R, team) >= 0
    return True


@njit(cache=True)
def pile_counts(S):
    counts = np.zeros(L.KINDS, dtype=np.int64)
    for i in range(S[L.PILE_N]):
        counts[S[L.PILE + i]] += 1
    return counts


@njit(cache=True)
def _pile_condition(S, R, sc, vals, runb, setb, seat, team):
    """Partnership (001): the top card extends a team meld or makes a meld with two naturals."""
    top = S[L.PILE + S[L.PILE_N] - 1]
    single = np.zeros(L.KINDS, dtype=np.int64)
    single[top] = 1
    run_bonus = trump_bonus(S, runb)
    if S[L.MELD_N + team] > 0:
        counts, shapes, homes, points = team_melds(S, team)
        found, _, _ = additions(single, counts, shapes, homes, points, sc, vals, run_bonus, setb)
        if found.shape[0] > 0:
            return True
    hand = hand_of(S, seat)
    pool = np.zeros(L.KINDS, dtype=np.int64)
    for kind in range(L.KINDS):
        if not is_wild(R, kind):
            pool[kind] = hand[kind]
    pool[top] += 1
    _, rows, _, _, _, _ = catalogue(pool, sc, vals, run_bonus, setb)
    for i in range(rows.shape[0]):
        if rows[i, top] > 0 and rows[i].sum() == 3:
            return True
    return False


@njit(cache=True)
def take_pile_ok(S, R, sc, vals, runb, setb):
    """May the current player take the discard pile (RULES.md §5.1, §7)?"""
    n = S[L.PILE_N]
    if n == 0:
        return False
    seat = S[L.CURRENT]
    team = S[L.TEAM_OF + seat]
    hand = hand_of(S, seat)
    held = hand.sum()
    top = S[L.PILE + n - 1]
    if n == 1 and R[L.R_ONE_CARD] and held == hand[top]:
        return False                # every card would be of the banned kind: nothing to discard
    if R[L.R_RESTRICTED] and not _pile_condition(S, R, sc, vals, runb, setb, seat, team):
        return False
    if R[L.R_MUST_MELD]:
        trial = S.copy()
        take_pile(trial, R)
        buffer = np.empty(L.MAX_ACTIONS, dtype=np.int64)
        return _play_actions(trial, R, sc, vals, runb, setb, buffer, 0, True) > 0
    return True


# --- legal actions ----------------------------------------------------------------------------


@njit(cache=True)
def new_meld_ok(S, R, seat, team, hand, held, counts, shapes, cleans, points, i, vals, stats):
    """May ``seat`` lay catalogue meld ``i`` of its hand (``counts``/``points``: the catalogue)?"""
    size = counts[i].sum()
    biriba = size >= R[L.R_BIRIBA_SIZE]
    return play_ok(S, R, seat, team, hand, held, counts[i], size, points[i], biriba,
                   1 if biriba and cleans[i] != 0 else 0, shapes[i] == KIND_RUN, True,
                   counts, points, vals, stats)


@njit(cache=True)
def addition_ok(S, R, sc, vals, run_bonus, setb, seat, team, hand, held, table, row, gain, m,
                counts, points, stats):
    """(legal, action) of adding ``row`` to the team's table meld ``m``."""
    biriba = R[L.R_BIRIBA_SIZE]
    info = info_of(S, team, m)
    added = row.sum()
    grows = info[4] < biriba and info[4] + added >= biriba
    merged = table[m] + row
    change = 0
    if info[4] + added >= biriba and held - added == 1:
        # a biriba's cleanness may change: a wild added, or an own-suit 2 falling into place
        # (it matters only for closing, which play_ok weighs when one card is left)
        _, _, merged_clean, _ = identify(merged, sc, vals, run_bonus, setb)
        before = 1 if info[4] >= biriba and info[2] != 0 else 0
        change = (1 if merged_clean != 0 else 0) - before
    if play_ok(S, R, seat, team, hand, held, row, added, gain, grows, change,
               info[0] == KIND_RUN, False, counts, points, vals, stats):
        return True, encode(L.ACTION_EXTEND, m, meld_key(merged))
    return False, 0


@njit(cache=True)
def _play_actions(S, R, sc, vals, runb, setb, out, n, melds_only):
    """Append the legal new melds and extensions (and discards unless ``melds_only``)."""
    seat = S[L.CURRENT]
    team = S[L.TEAM_OF + seat]
    hand = hand_of(S, seat).copy()
    held = hand.sum()
    stats = team_stats(S, R, team)
    run_bonus = trump_bonus(S, runb)
    keys, counts, shapes, homes, cleans, points = catalogue(hand, sc, vals, run_bonus, setb)
    for i in range(keys.shape[0]):
        if n < out.shape[0] and new_meld_ok(S, R, seat, team, hand, held, counts, shapes, cleans,
                                            points, i, vals, stats):
            out[n] = encode(L.ACTION_LAY, 0, keys[i])
            n += 1
    if S[L.MELD_N + team] > 0:
        table, table_shapes, table_homes, before = team_melds(S, team)
        rows, gains, groups = additions(hand, table, table_shapes, table_homes, before, sc, vals,
                                        run_bonus, setb)
        for i in range(rows.shape[0]):
            if n >= out.shape[0]:
                break
            ok, action = addition_ok(S, R, sc, vals, run_bonus, setb, seat, team, hand, held,
                                     table, rows[i], gains[i], groups[i], counts, points, stats)
            if ok:
                out[n] = action
                n += 1
    if melds_only:
        return n
    for kind in range(L.KINDS):
        if hand[kind] > 0 and n < out.shape[0] and discard_ok(S, R, seat, team, hand, held,
                                                              kind, stats):
            out[n] = encode(L.ACTION_DISCARD, 0, kind)
            n += 1
    return n


@njit(cache=True)
def legal_actions(S, R, sc, vals, runb, setb, out):
    """Write the legal actions into ``out`` (int64[MAX_ACTIONS]); returns how many.

    A buffer too small for every meld keeps the first ones in this order (a
    hand needs dozens of cards to come near MAX_ACTIONS).

    Order: trump choices; or draw, pile; or redraw, new melds (catalogue order),
    extensions (by table meld, then key), discards (by kind). When the rules
    leave a player no legal action (which the checks above are meant to rule
    out) every held card may be discarded, marked with target 1 (the safety
    valve, counted in ``VALVE``).
    """
    phase = S[L.PHASE]
    n = 0
    if phase == L.CHOOSE_TRUMP:
        for suit in range(5):
            out[n] = encode(L.ACTION_TRUMP, 0, suit)
            n += 1
        return n
    if phase == L.DRAW:
        if S[L.STOCK_N] > 0:
            out[n] = encode(L.ACTION_DRAW, 0, 0)
            n += 1
        if take_pile_ok(S, R, sc, vals, runb, setb):
            out[n] = encode(L.ACTION_PILE, 0, 0)
            n += 1
        return n
    if phase != L.PLAY:
        return 0
    if S[L.REDRAW_OK] and S[L.STOCK_N] > 0:
        out[n] = encode(L.ACTION_REDRAW, 0, 0)
        n += 1
    n = _play_actions(S, R, sc, vals, runb, setb, out, n, False)
    if n == 0:
        hand = hand_of(S, S[L.CURRENT])
        for kind in range(L.KINDS):
            if hand[kind] > 0:
                out[n] = encode(L.ACTION_DISCARD, 1, kind)
                n += 1
    return n


# --- transitions -------------------------------------------------------------------------------


@njit(cache=True)
def take_pile(S, R):
    seat = S[L.CURRENT]
    n = S[L.PILE_N]
    top = S[L.PILE + n - 1]
    for i in range(n):
        kind = S[L.PILE + i]
        S[L.HANDS + seat * L.KINDS + kind] += 1
        S[L.KNOWN + seat * L.KINDS + kind] += 1
    held = 0
    for kind in range(L.KINDS):
        held += S[L.HANDS + seat * L.KINDS + kind]
    S[L.PILE_N] = 0
    S[L.TOOK_PILE] = 1
    if n == 1 and R[L.R_ONE_CARD]:
        S[L.BANNED] = top
        if held == 2:
            S[L.TOOK_PILE] = L.TOOK_LAST_CARD_PILE   # 000: this turn may not close (§7)
    if R[L.R_MUST_MELD]:
        S[L.MUST] = top
    S[L.REDRAW_OK] = 0
    S[L.PHASE] = L.PLAY


@njit(cache=True)
def _draw(S, R, seat):
    n = S[L.STOCK_N] - 1
    card = S[L.STOCK + n]
    S[L.STOCK_N] = n
    S[L.HANDS + seat * L.KINDS + card] += 1
    if n == 0 and R[L.R_STOCK_MODE] == 0:
        S[L.STOCK_OUT_BY] = seat
    S[L.LAST_DRAWN] = card
    return card


@njit(cache=True)
def _forget(S, seat):
    """Cards that left a hand are no longer known to be there."""
    for kind in range(L.KINDS):
        known = L.KNOWN + seat * L.KINDS + kind
        held = S[L.HANDS + seat * L.KINDS + kind]
        if S[known] > held:
            S[known] = held


@njit(cache=True)
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
    S[L.TEAM_OF + second] = first


@njit(cache=True)
def _take_packet(S, R, seat, packet):
    team = S[L.TEAM_OF + seat]
    for kind in range(L.KINDS):
        S[L.HANDS + seat * L.KINDS + kind] += S[L.PACKETS + packet * L.KINDS + kind]
    S[L.PACKET_USED + packet] = 1
    S[L.PACKET_TAKEN + team] = 1
    S[L.FRESH + seat] = 1
    if R[L.R_PLAYERS] == 3 and S[L.SOLO] < 0:
        _merge_three_player_teams(S, R, seat)


@njit(cache=True)
def _lay(S, R, sc, vals, runb, setb, seat, team, target, key, extend):
    run_bonus = trump_bonus(S, runb)
    merged = np.empty(L.KINDS, dtype=np.int64)
    key_counts(key, merged)
    biriba = R[L.R_BIRIBA_SIZE]
    had_biriba = team_stats(S, R, team)[0] > 0
    if extend:
        m = target
        old = meld_of(S, team, m)
        before = info_of(S, team, m)[3]
        old_size = info_of(S, team, m)[4]
    else:
        m = S[L.MELD_N + team]
        S[L.MELD_N + team] = m + 1
        old = meld_of(S, team, m)
        old[:] = 0
        before = 0
        old_size = 0
    size = 0
    for kind in range(L.KINDS):
        added = merged[kind] - old[kind]
        S[L.HANDS + seat * L.KINDS + kind] -= added
        size += merged[kind]
        if added > 0 and kind == S[L.MUST]:
            S[L.MUST] = -1                         # the pile's top card is melded
    old[:] = merged
    shape, home, clean, points = identify(merged, sc, vals, run_bonus, setb)
    info = info_of(S, team, m)
    info[0] = shape
    info[1] = home
    info[2] = clean
    info[3] = points
    info[4] = size
    S[L.TURN_POINTS] += points - before
    S[L.TURN_LAID] += size - old_size
    S[L.FRESH + seat] = 0
    S[L.REDRAW_OK] = 0
    _forget(S, seat)
    if (R[L.R_FIRST_BIRIBA] and not had_biriba and old_size < biriba <= size
            and S[L.PENDING + seat] == 0):
        packet = packet_for(S, R, team)
        if packet >= 0:
            S[L.PENDING + seat] = packet + 1
    if hand_of(S, seat).sum() == 0 and not R[L.R_FIRST_BIRIBA]:
        packet = packet_for(S, R, team)
        if packet >= 0:
            _take_packet(S, R, seat, packet)   # RULES.md §5.4: at once, and play on


@njit(cache=True)
def end_round(S, R, vals, reason):
    """Score the round (RULES.md §7) and start the next one in a match."""
    S[L.END_REASON] = reason
    players = R[L.R_PLAYERS]
    teams = R[L.R_TEAMS]
    closer_team = S[L.TEAM_OF + S[L.CLOSER]] if S[L.CLOSER] >= 0 else -1
    for team in range(teams):
        members = 0
        for seat in range(players):
            if S[L.TEAM_OF + seat] == team:
                members += 1
        if members == 0:
            S[L.ROUND_SCORE + team] = 0
            continue
        total = 0
        for m in range(S[L.MELD_N + team]):
            total += info_of(S, team, m)[3]
        if team == closer_team:
            total += R[L.R_CLOSING_BONUS]
        for seat in range(players):
            if S[L.TEAM_OF + seat] != team:
                continue
            if S[L.FRESH + seat]:
                total -= R[L.R_UNTOUCHED_PENALTY]
            else:
                hand = hand_of(S, seat)
                for kind in range(L.KINDS):
                    total -= hand[kind] * vals[kind]
        if S[L.PACKET_TAKEN + team] == 0:
            total -= R[L.R_NO_PACKET_PENALTY]
        S[L.ROUND_SCORE + team] = total
    if players == 3:
        for seat in range(3):
            team = S[L.TEAM_OF + seat]
            members = 0
            for other in range(3):
                if S[L.TEAM_OF + other] == team:
                    members += 1
            S[L.MATCH + seat] += S[L.ROUND_SCORE + team] // members
    else:
        for team in range(teams):
            S[L.MATCH + team] += S[L.ROUND_SCORE + team]
    S[L.PHASE] = L.ROUND_OVER
    if not S[L.MATCH_MODE]:
        return
    entities = 3 if players == 3 else teams
    winner = -1
    for entity in range(entities):
        if S[L.MATCH + entity] >= R[L.R_TARGET]:
            if winner < 0 or S[L.MATCH + entity] > S[L.MATCH + winner]:
                winner = entity
    if winner >= 0:
        S[L.WINNER] = winner
        S[L.PHASE] = L.MATCH_OVER
        return
    S[L.ROUND] += 1
    S[L.DEALER] = (S[L.DEALER] + 1) % players
    deal_round(S, R)


@njit(cache=True)
def _end_turn(S, R, sc, vals, runb, setb, seat, team):
    if S[L.PENDING + seat] > 0:                # 001: the packet joins the hand at turn end
        _take_packet(S, R, seat, S[L.PENDING + seat] - 1)
        S[L.PENDING + seat] = 0
    if S[L.TURN_LAID] > 0:
        S[L.OPENED + team] = 1
    if S[L.STOCK_OUT_BY] >= 0:
        end_round(S, R, vals, L.STOCK_OUT)    # classic: after the last stock card's turn
        return
    players = R[L.R_PLAYERS]
    if S[L.STOCK_N] == 0:
        S[L.IDLE] = S[L.IDLE] + 1 if S[L.TURN_LAID] == 0 else 0
        if S[L.IDLE] >= players:
            end_round(S, R, vals, L.IDLE_OUT)
            return
    S[L.TURNS] += 1
    S[L.CURRENT] = (seat + 1) % players
    reset_turn(S)
    S[L.PHASE] = L.DRAW
    if S[L.STOCK_N] == 0 and not take_pile_ok(S, R, sc, vals, runb, setb):
        end_round(S, R, vals, L.NO_DRAW)


@njit(cache=True)
def apply_action(S, R, sc, vals, runb, setb, action):
    """Apply a legal action (the caller checks legality; the API's ``verify`` does)."""
    kind_of_action = action >> L.TYPE_SHIFT
    target = (action >> L.TARGET_SHIFT) & L.TARGET_MASK
    key = action & L.KEY_MASK
    seat = S[L.CURRENT]
    team = S[L.TEAM_OF + seat]
    S[L.ACTIONS] += 1
    if kind_of_action == L.ACTION_TRUMP:
        S[L.TRUMP] = key if key < 4 else -1
        S[L.PHASE] = L.DRAW
    elif kind_of_action == L.ACTION_DRAW:
        _draw(S, R, seat)
        # barimba: the round's first drawer may throw the card back and draw again
        S[L.REDRAW_OK] = 1 if (R[L.R_REDRAW] and S[L.TURNS] == 0
                               and S[L.REDRAW_USED] == 0) else 0
        S[L.PHASE] = L.PLAY
    elif kind_of_action == L.ACTION_REDRAW:
        card = S[L.LAST_DRAWN]
        S[L.HANDS + seat * L.KINDS + card] -= 1
        S[L.PILE + S[L.PILE_N]] = card
        S[L.PILE_N] += 1
        S[L.REDRAW_USED] = 1
        S[L.REDRAW_OK] = 0
        _draw(S, R, seat)
    elif kind_of_action == L.ACTION_PILE:
        take_pile(S, R)
    elif kind_of_action == L.ACTION_LAY or kind_of_action == L.ACTION_EXTEND:
        _lay(S, R, sc, vals, runb, setb, seat, team, target, key,
             kind_of_action == L.ACTION_EXTEND)
    elif kind_of_action == L.ACTION_DISCARD:
        S[L.HANDS + seat * L.KINDS + key] -= 1
        S[L.PILE + S[L.PILE_N]] = key
        S[L.PILE_N] += 1
        S[L.FRESH + seat] = 0
        if target == 1:
            S[L.VALVE] += 1
        _forget(S, seat)
        if hand_of(S, seat).sum() == 0:
            biribas, clean, runs, sets = team_stats(S, R, team)
            if close_ready(S, R, team, biribas, clean, runs, sets):
                S[L.CLOSER] = seat                   # RULES.md §7: the round ends
                if S[L.TURN_LAID] > 0:
                    S[L.OPENED + team] = 1
                end_round(S, R, vals, L.CLOSED)
                return
            if not R[L.R_FIRST_BIRIBA]:
                packet = packet_for(S, R, team)
                if packet >= 0:
                    _take_packet(S, R, seat, packet)  # RULES.md §5.4: and the turn ends
        _end_turn(S, R, sc, vals, runb, setb, seat, team)
