"""Test-side views of the engine's invariants: where every card lies, and an independent
recount of a round's scores (RULES.md §7)."""

from __future__ import annotations

import numpy as np

from solver.engine import core
from solver.engine import layout as L


def card_locations(state) -> np.ndarray:
    """Counts of every card wherever it lies: hands, packets not taken, stock, pile, table."""
    array = state.array
    total = np.zeros(L.KINDS, dtype=np.int64)
    for seat in range(state.game.players):
        total += array[L.HANDS + seat * L.KINDS:L.HANDS + (seat + 1) * L.KINDS]
    for packet in range(int(array[L.PACKET_N])):
        if not array[L.PACKET_USED + packet]:
            total += array[L.PACKETS + packet * L.KINDS:L.PACKETS + (packet + 1) * L.KINDS]
    np.add.at(total, array[L.STOCK:L.STOCK + int(array[L.STOCK_N])], 1)
    np.add.at(total, array[L.PILE:L.PILE + int(array[L.PILE_N])], 1)
    for team in range(L.MAX_TEAMS):
        for m in range(int(array[L.MELD_N + team])):
            total += core.meld_of(array, team, m)
        for i, kind in enumerate(L.RED_THREE_KINDS):
            total[kind] += array[L.RED_THREES + 2 * team + i]
    return total


def check(state) -> None:
    """Raise AssertionError naming the first broken invariant.

    The invariants themselves are :func:`solver.engine.checks.check_state` (one
    definition, also run after every action of the random rounds); a finished
    round's scores are also compared with :func:`recount`, written apart from the
    engine's scoring on purpose.
    """
    from solver.engine.checks import PROBLEMS, check_state

    array = state.array
    code = check_state(array, state.game.engine, np.zeros_like(array))
    assert code == 0, PROBLEMS[code]
    assert int(card_locations(state).sum()) in (108, 162)
    if int(array[L.PHASE]) in (L.ROUND_OVER, L.MATCH_OVER) and not array[L.MATCH_MODE]:
        assert recount(state) == state.round_scores()[:state.game.teams]


def recount(state) -> list[int]:
    """The round's score per team, recounted from the final position (RULES.md §7)."""
    array = state.array
    rules = state.game.rules
    values = state.game.engine.values
    scores = []
    closer = int(array[L.CLOSER])
    for team in range(state.game.teams):
        seats = [s for s in range(state.game.players) if state.team_of(s) == team]
        if not seats:
            scores.append(0)
            continue
        total = sum(state.meld_points(team))
        if closer >= 0 and state.team_of(closer) == team:
            total += rules.closing_bonus
        for seat in seats:
            if array[L.FRESH + seat]:
                total -= rules.untouched_biribaki_penalty
            else:
                total -= int(np.dot(state.hand(seat).counts, values))
        if not array[L.PACKET_TAKEN + team]:
            total -= rules.no_biribaki_penalty
        if (rules.cut_error or rules.cut_exact_bonus) and state.team_of(state.dealer_seat) == team:
            off = abs(int(array[L.CUT]))          # venezuelan (000): the dealer's cut
            total += {0: rules.cut_exact_bonus, 1: rules.cut_near_bonus}.get(off, 0)
        reds = [int(array[L.RED_THREES + 2 * team + i]) for i in range(2)]
        if sum(reds):           # threes (003): as the best biriba each, or a penalty each
            bonuses = [points - int(np.dot(meld.counts, values))
                       for meld, points in zip(state.table(team), state.meld_points(team))
                       if len(meld) >= rules.biriba_size]
            if bonuses:
                each = rules.red_three_bonus or max(bonuses)
                total += sum(count * (each + int(values[kind]))
                             for count, kind in zip(reds, L.RED_THREE_KINDS))
            else:
                total -= sum(reds) * rules.red_three_penalty
        scores.append(total)
    return scores
