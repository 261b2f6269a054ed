"""Drawing and the discard pile (rules §5.1): the stock, taking the pile and its conditions."""

from __future__ import annotations

import kernels  # noqa: F401  (sets the numba cache location first)
import numpy as np
from numba import njit

from kernels.partition_numba import additions, catalogue
from solver.engine import layout as L
from solver.engine.basics import hand_of, is_wild, team_melds, trump_bonus
from solver.engine.melding import play_actions


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
        return play_actions(trial, R, sc, vals, runb, setb, buffer, 0, True) > 0
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


@njit(cache=True)
def draw(S, R, seat):
    n = S[L.STOCK_N] - 1
    card = S[L.STOCK + n]
    S[L.STOCK_N] = n
    S[L.HANDS + seat * L.KINDS + card] += 1
    if n == 0 and R[L.R_STOCK_MODE] == L.STOCK_END_AFTER_TURN:
        S[L.STOCK_OUT_BY] = seat
    S[L.LAST_DRAWN] = card
    return card
