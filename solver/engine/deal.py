"""The deal (rules §4): shuffling with the state's generator, hands, packets, the turned card."""

from __future__ import annotations

import kernels  # noqa: F401  (sets the numba cache location first)
import numpy as np
from numba import njit

from kernels.encoding import RANK_COUNT
from solver.engine import layout as L
from solver.engine.basics import (
    LCG_ADD,
    LCG_MASK,
    LCG_MUL,
    is_wild,
    minimum_for,
    reset_turn,
    seed_rng,
)


@njit(cache=True)
def _deal_next(S):
    S[L.RNG] = (int(S[L.RNG]) * LCG_MUL + LCG_ADD) & LCG_MASK
    return S[L.RNG] >> 17


@njit(cache=True)
def deal_round(S, R):
    """Shuffle and deal a round (RULES.md §4) with the state's own generator."""
    players = R[L.R_PLAYERS]
    teams = R[L.R_TEAMS]
    for start, end in L.ROUND_RESET:
        S[start:end] = 0
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
    packets = 2 if players == 3 else teams      # 3 players: the 18- and the 11-card packet
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
