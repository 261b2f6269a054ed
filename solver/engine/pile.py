"""Drawing and the discard pile (rules §5.1): the stock, taking the pile and its conditions."""

from __future__ import annotations

import numpy as np
from kernels.jit import njit

from kernels.params import SHAPE_RUN
from kernels.partition_numba import catalogue
from solver.engine import layout as L
from solver.engine.basics import (
    Mover,
    Play,
    encode,
    hand_of,
    is_black_three,
    is_red_three,
    is_wild,
    pile_counts,
    team_additions,
    team_stats,
    trump_bonus,
)
from solver.engine.melding import lay, play_actions, play_ok


@njit(cache=True, inline="always")
def _pile_condition(S, T, seat, team):
    """Partnership (001): the top card extends a team meld or makes a meld with two naturals."""
    R, sc, vals, runb, setb = T.array, T.scalars, T.values, T.run_bonus_by_trump, T.set_bonus
    top = S[L.PILE + S[L.PILE_N] - 1]
    single = np.zeros(L.KINDS, dtype=np.int64)
    single[top] = 1
    run_bonus = trump_bonus(S, runb)
    if S[L.MELD_N + team] > 0:
        _, found, _, _ = team_additions(S, T, team, single, run_bonus)
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
def frozen(S, R):
    """threes (003): a black three lies in the pile under its top card."""
    if not R[L.R_BLACK_FREEZE]:
        return False
    for i in range(S[L.PILE_N] - 1):
        if is_black_three(R, S[L.PILE + i]):
            return True
    return False


@njit(cache=True)
def frozen_pickups(S, T, out, n):
    """threes (003): append the ways to take a frozen pile: the top card alone makes a new
    clean meld with cards of the hand (an own-suit 2 in place is natural, no wild), then the
    rest of the pile is taken. Action: ``ACTION_PILE`` with target 1 and that meld's key.

    The meld must be legal as laid then (the cards left; docs/rules.md D31: the vulnerability
    minimum reachable with it and the melds of the hand and the top card).
    """
    R, sc, vals, runb, setb = T.array, T.scalars, T.values, T.run_bonus_by_trump, T.set_bonus
    seat = S[L.CURRENT]
    team = S[L.TEAM_OF + seat]
    top = S[L.PILE + S[L.PILE_N] - 1]
    hand = hand_of(S, seat)
    pool = hand.copy()
    pool[top] += 1
    keys, counts, shapes, _, cleans, points = catalogue(pool, sc, vals, trump_bonus(S, runb),
                                                       setb)
    after = hand + pile_counts(S)
    who = Mover(seat, team, after, after.sum(), team_stats(S, R, team))
    biriba = R[L.R_BIRIBA_SIZE]
    for i in range(keys.shape[0]):
        if n >= out.shape[0]:
            break
        if counts[i, top] == 0 or cleans[i] == 0:
            continue
        size = counts[i].sum()
        play = Play(counts[i], size, points[i], size >= biriba, 1 if size >= biriba else 0,
                    shapes[i] == SHAPE_RUN, True)
        if play_ok(S, R, vals, who, play, counts, points):
            out[n] = encode(L.ACTION_PILE, 1, keys[i])
            n += 1
    return n


@njit(cache=True)
def pile_actions(S, T, out, n):
    """Append the ways to take the discard pile now (RULES.md §5.1, §7; threes' freeze)."""
    R = T.array
    if not take_pile_ok(S, T):
        return n
    if frozen(S, R):
        return frozen_pickups(S, T, out, n)
    out[n] = encode(L.ACTION_PILE, 0, 0)
    return n + 1


@njit(cache=True)
def take_pile_ok(S, T):
    """May the current player take the discard pile (RULES.md §5.1, §7; threes' freeze)?"""
    R = T.array
    n = S[L.PILE_N]
    if n == 0:
        return False
    if R[L.R_BLACK_FREEZE]:
        if is_black_three(R, S[L.PILE + n - 1]):
            return False          # threes (003): the next player may not take it at all
        if frozen(S, R):
            buffer = np.empty(L.MAX_ACTIONS, dtype=np.int64)
            return frozen_pickups(S, T, buffer, 0) > 0
    seat = S[L.CURRENT]
    team = S[L.TEAM_OF + seat]
    hand = hand_of(S, seat)
    held = hand.sum()
    top = S[L.PILE + n - 1]
    if n == 1 and R[L.R_ONE_CARD] and held == hand[top]:
        return False                # every card would be of the banned kind: nothing to discard
    if R[L.R_RESTRICTED] and not _pile_condition(S, T, seat, team):
        return False
    if R[L.R_MUST_MELD]:
        trial = S.copy()
        take_pile(trial, R)
        buffer = np.empty(L.MAX_ACTIONS, dtype=np.int64)
        return play_actions(trial, T, buffer, 0, True) > 0
    return True


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


@njit(cache=True, inline="always")
def take_frozen_pile(S, T, seat, team, key):
    """threes (003): the top card's new clean meld ``key``, and the rest of the pile."""
    R = T.array
    take_pile(S, R)
    lay(S, T, seat, team, 0, key, False)


@njit(cache=True)
def draw(S, R, seat):
    """The stock's top card to ``seat`` (threes: a red three goes face up and the player
    draws again, 003); returns it, -1 when the stock ran out on red threes."""
    team = S[L.TEAM_OF + seat]
    card = -1
    while S[L.STOCK_N] > 0:
        n = S[L.STOCK_N] - 1
        card = S[L.STOCK + n]
        S[L.STOCK_N] = n
        if n == 0 and R[L.R_STOCK_MODE] == L.STOCK_END_AFTER_TURN:
            S[L.STOCK_OUT_BY] = seat
        if not is_red_three(R, card):
            S[L.HANDS + seat * L.KINDS + card] += 1
            break
        S[L.RED_THREES + 2 * team + (0 if card == L.RED_THREE_KINDS[0] else 1)] += 1
        card = -1
    S[L.LAST_DRAWN] = card
    return card
