"""Checks that hold after every action: the tests run them on thousands of random rounds."""

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
    return total


def check(state) -> None:
    """Raise AssertionError naming the first broken invariant."""
    array = state.array
    engine = state.game.engine
    rules = engine.array
    decks = int(rules[L.R_DECKS])
    full = np.full(L.KINDS, decks, dtype=np.int64)
    full[L.JOKER] = rules[L.R_JOKERS]
    where = card_locations(state)
    assert (where == full).all(), f"cards not accounted for: {np.nonzero(where != full)[0]}"
    assert int(full.sum()) in (108, 162)
    hands = array[L.HANDS:L.HANDS + L.MAX_PLAYERS * L.KINDS]
    assert (hands >= 0).all(), "a negative count in a hand"
    known = array[L.KNOWN:L.KNOWN + L.MAX_PLAYERS * L.KINDS]
    assert (known >= 0).all() and (known <= hands).all(), "known cards not in the hand"
    assert 0 <= array[L.STOCK_N] <= L.MAX_CARDS and 0 <= array[L.PILE_N] <= L.MAX_CARDS
    trump = int(array[L.TRUMP])
    run_bonus = engine.run_bonus[trump if trump >= 0 else 4]
    for team in range(L.MAX_TEAMS):
        count = int(array[L.MELD_N + team])
        assert 0 <= count <= L.MAX_MELDS
        for m in range(count):
            meld = core.meld_of(array, team, m)
            shape, home, clean, points = core.identify(meld.copy(), engine.scalars, engine.values,
                                                       run_bonus, engine.set_bonus)
            assert shape >= 0, f"team {team} meld {m} is not a legal meld: {meld.tolist()}"
            info = core.info_of(array, team, m)
            assert info[4] == meld.sum()
            assert info[3] == points, f"team {team} meld {m}: points {info[3]} != {points}"
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
        scores.append(total)
    return scores
