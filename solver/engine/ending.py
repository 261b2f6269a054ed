"""The end of a turn and of a round (rules §7): scoring, the next deal in a match."""

from __future__ import annotations

from kernels.jit import njit

from solver.engine import layout as L
from solver.engine.basics import hand_of, info_of, meld_of, red_threes_of, reset_turn
from solver.engine.deal import deal_round
from solver.engine.melding import take_packet
from solver.engine.pile import take_pile_ok


@njit(cache=True, inline="always")
def best_biriba_bonus(S, R, vals, team):
    """The largest bonus of the team's table biribas (points less card values), or -1."""
    best = -1
    for m in range(S[L.MELD_N + team]):
        info = info_of(S, team, m)
        if info[L.INFO_SIZE] < R[L.R_BIRIBA_SIZE]:
            continue
        meld = meld_of(S, team, m)
        cards = 0
        for kind in range(L.KINDS):
            cards += meld[kind] * vals[kind]
        best = max(best, info[L.INFO_POINTS] - cards)
    return best


@njit(cache=True)
def red_three_points(S, R, vals, team):
    """threes (003): each red three counts as the team's best biriba and its card value;
    without a biriba, minus the penalty each (docs/rules.md D32)."""
    count = red_threes_of(S, team)
    if count == 0:
        return 0
    best = best_biriba_bonus(S, R, vals, team)
    if best < 0:
        return -count * R[L.R_RED_PENALTY]
    each = R[L.R_RED_BONUS] if R[L.R_RED_BONUS] > 0 else best
    cards = 0
    for i in range(2):
        cards += S[L.RED_THREES + 2 * team + i] * vals[L.RED_THREE_KINDS[i]]
    return count * each + cards


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
            total += info_of(S, team, m)[L.INFO_POINTS]
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
        S[L.ROUND_SCORE + team] = (total + red_three_points(S, R, vals, team)
                                   + S[L.CUT_BONUS + team])
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
def end_turn(S, T, seat, team):
    R, vals = T.array, T.values
    if S[L.PENDING + seat] > 0:                # 001: the packet joins the hand at turn end
        take_packet(S, R, seat, S[L.PENDING + seat] - 1)
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
    if S[L.STOCK_N] == 0 and not take_pile_ok(S, T):
        end_round(S, R, vals, L.NO_DRAW)
