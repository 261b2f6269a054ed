"""The discard (rules §5.3): which card may end the turn, and when the last card may go
(§6, §7)."""

from __future__ import annotations

from kernels.jit import njit

from solver.engine import layout as L
from solver.engine.basics import close_ready, packet_for, vulnerable_minimum


@njit(cache=True)
def discard_ok(S, R, who, kind):
    """May ``who`` (a Mover) end the turn discarding ``kind`` (RULES.md §5.3, §6, §7)?"""
    seat, team, hand, held, stats = who
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
