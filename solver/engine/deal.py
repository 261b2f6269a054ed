"""The deal (rules §4): shuffling with the state's generator, hands, packets, the turned card."""

from __future__ import annotations

import numpy as np
from kernels.jit import njit

from kernels.encoding import RANK_COUNT
from solver.engine import layout as L
from solver.engine.basics import (
    LCG_ADD,
    LCG_MASK,
    LCG_MUL,
    is_red_three,
    is_wild,
    minimum_for,
    reset_turn,
    seed_rng,
    set_aside_red_threes,
)


@njit(cache=True)
def _deal_next(S):
    S[L.RNG] = (int(S[L.RNG]) * LCG_MUL + LCG_ADD) & LCG_MASK
    return S[L.RNG] >> 17


@njit(cache=True, inline="always")
def _cut(S, R, dealer):
    """venezuelan (000): the dealer cuts for the hands and the turned card, aiming at the
    exact count, and misses by up to ``R_CUT_ERROR`` cards, uniformly (docs/rules.md D34):
    100 for an exact cut, 50 for one card off, to the dealer's team."""
    error = R[L.R_CUT_ERROR]
    off = ((_deal_next(S) * (2 * error + 1)) >> 31) - error
    S[L.CUT] = off
    team = S[L.TEAM_OF + dealer]
    if off == 0:
        S[L.CUT_BONUS + team] = R[L.R_CUT_EXACT]
    elif off == 1 or off == -1:
        S[L.CUT_BONUS + team] = R[L.R_CUT_NEAR]


@njit(cache=True, inline="always")
def _bottom_wilds(S, R, deck, total, dealer):
    """venezuelan (000): the dealer looks at the bottom three cards of the deck and takes
    every wild among them, until the bottom three hold none; they count towards the dealer's
    hand. Returns the deck's new size and the wilds taken. (The bottom is the deck's end.)"""
    kept = np.empty(3, dtype=np.int64)
    seen = 0
    taken = 0
    j = total - 1
    while j >= 0 and seen < 3:
        card = deck[j]
        if is_wild(R, card):
            S[L.HANDS + dealer * L.KINDS + card] += 1
            taken += 1
        else:
            kept[seen] = card
            seen += 1
        j -= 1
    for i in range(seen):           # the cards looked at go back to the bottom, in order
        deck[j + 1 + i] = kept[seen - 1 - i]
    return j + 1 + seen, taken


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
    S[L.CUT] = 0
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
    dealer = S[L.DEALER]
    if R[L.R_CUT_ERROR] > 0 or R[L.R_CUT_EXACT] > 0:
        _cut(S, R, dealer)
    dealt = 0
    if R[L.R_DEALER_WILDS]:
        total, dealt = _bottom_wilds(S, R, deck, total, dealer)
    position = 0
    start = (dealer + 1) % players
    S[L.CURRENT] = start
    for i in range(players):
        seat = (start + i) % players
        size = R[L.R_HAND_SIZE] - (dealt if seat == dealer else 0)
        for _ in range(max(size, 0)):
            S[L.HANDS + seat * L.KINDS + deck[position]] += 1
            position += 1
    # 3 players: the 18- and the 11-card packet (venezuelan: one each)
    packets = 2 if players == 3 and not R[L.R_THREE_ALONE] else teams
    S[L.PACKET_N] = packets
    for p in range(packets):
        size = R[L.R_PACKET_SIZE]
        if players == 3 and p == 0 and not R[L.R_THREE_ALONE]:
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
            if (R[L.R_BURY] and is_wild(R, card)) or is_red_three(R, card):
                buried[buried_n] = card       # RULES.md §4, D30: into the stock
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
    for team in range(teams):
        S[L.NEEDS_BIRIBA + team] = int(0 <= R[L.R_BIRIBA_BEFORE] <= S[L.MATCH + team])
    if R[L.R_RED_THREES]:
        for i in range(players):     # threes (003): face up at once, a card drawn for each
            set_aside_red_threes(S, (start + i) % players, True)


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
