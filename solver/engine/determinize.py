"""Determinization: a full state the searching player cannot tell from the real one.

The hidden cards (the other hands beyond what is known of them, the packets not taken,
the stock) are pooled and dealt again uniformly, every size kept, the known cards left
with their holders; the dealing generator is drawn anew. The result depends only on what
``seat`` sees (and the generator), never on where the hidden cards really lie: the search
cannot leak (tested).
"""

from __future__ import annotations

import numpy as np
from kernels.jit import njit

from solver.engine import layout as L
from solver.engine.basics import LCG_MASK, rng_below


@njit(cache=True)
def determinize(S, R, seat, rng):
    """Deal ``S``'s hidden cards again in place, as ``seat`` cannot see them (rng: int64[1])."""
    players = R[L.R_PLAYERS]
    pool = np.zeros(L.KINDS, dtype=np.int64)
    hidden = 0
    for other in range(players):
        if other == seat:
            continue
        for kind in range(L.KINDS):
            unknown = S[L.HANDS + other * L.KINDS + kind] - S[L.KNOWN + other * L.KINDS + kind]
            pool[kind] += unknown
            hidden += unknown
    for packet in range(S[L.PACKET_N]):
        if S[L.PACKET_USED + packet] == 0:
            for kind in range(L.KINDS):
                pool[kind] += S[L.PACKETS + packet * L.KINDS + kind]
    for i in range(S[L.STOCK_N]):
        pool[S[L.STOCK + i]] += 1
    total = pool.sum()
    cards = np.empty(total, dtype=np.int64)
    n = 0
    for kind in range(L.KINDS):         # in kind order: the real positions never enter
        for _ in range(pool[kind]):
            cards[n] = kind
            n += 1
    for i in range(total - 1, 0, -1):   # Fisher-Yates
        j = rng_below(rng, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    if R[L.R_RED_THREES]:
        _red_threes_last(cards, hidden)
    position = 0
    for other in range(players):
        if other == seat:
            continue
        unknown = 0
        for kind in range(L.KINDS):
            unknown += S[L.HANDS + other * L.KINDS + kind] - S[L.KNOWN + other * L.KINDS + kind]
            S[L.HANDS + other * L.KINDS + kind] = S[L.KNOWN + other * L.KINDS + kind]
        for _ in range(unknown):
            S[L.HANDS + other * L.KINDS + cards[position]] += 1
            position += 1
    for packet in range(S[L.PACKET_N]):
        if S[L.PACKET_USED + packet]:
            continue
        start = L.PACKETS + packet * L.KINDS
        size = 0
        for kind in range(L.KINDS):
            size += S[start + kind]
            S[start + kind] = 0
        for _ in range(size):
            S[start + cards[position]] += 1
            position += 1
    for i in range(S[L.STOCK_N]):
        S[L.STOCK + i] = cards[position]
        position += 1
    rng_below(rng, 2)
    S[L.RNG] = rng[0] & LCG_MASK        # the next deals (a match) are hidden too


@njit(cache=True, inline="always")
def _red_threes_last(cards, hands):
    """threes (D30): no red three in a hand; the first ``hands`` cards (the hands' share)
    take red threes' places from later cards, keeping the rest's order random."""
    j = hands
    for i in range(hands):
        if cards[i] == L.RED_THREE_KINDS[0] or cards[i] == L.RED_THREE_KINDS[1]:
            while j < cards.shape[0] and (cards[j] == L.RED_THREE_KINDS[0]
                                          or cards[j] == L.RED_THREE_KINDS[1]):
                j += 1
            if j < cards.shape[0]:
                cards[i], cards[j] = cards[j], cards[i]
                j += 1
