"""A finished round's score, item by item (RULES.md §7), for people to read.

:func:`round_breakdown` recounts what :func:`solver.engine.core.end_round`
scored, from a state whose round is over (before a match deals the next one),
and says where each point came from. The totals equal ``round_scores()``
(tested).
"""

from __future__ import annotations

from typing import NamedTuple

from solver.cards import Hand
from solver.engine import core
from solver.engine import layout as L


class TeamScore(NamedTuple):
    """One team's round: every item is signed as it counts."""

    seats: tuple[int, ...]
    melds: int            # card values of the team's table melds
    bonuses: int          # biriba (and full run, trump) bonuses of those melds
    closing: int          # the closing bonus, or 0
    hands: int            # minus the card values left in its players' hands
    packet: int           # minus the untouched-packet and no-packet penalties
    red_threes: int       # threes: the red threes laid face up (docs/rules.md D32)
    total: int

    def to_dict(self) -> dict:
        return self._asdict() | {"seats": list(self.seats)}


def round_breakdown(state) -> list[TeamScore]:
    """Per team (slot order, teams with players only) the items of the round's score."""
    game = state.game
    array = state.array
    rules = game.rules
    values = rules.card_values()
    closer = int(array[L.CLOSER])
    closer_team = state.team_of(closer) if closer >= 0 else -1
    rows = []
    for team in range(game.teams):
        seats = tuple(s for s in range(game.players) if state.team_of(s) == team)
        if not seats:
            continue
        points = sum(state.meld_points(team))
        melds = sum(_value(meld, values) for meld in state.table(team))
        closing = rules.closing_bonus if team == closer_team else 0
        hands = 0
        packet = 0
        for seat in seats:
            if array[L.FRESH + seat]:
                packet -= rules.untouched_biribaki_penalty
            else:
                hands -= _value(state.hand(seat), values)
        if array[L.PACKET_TAKEN + team] == 0:
            packet -= rules.no_biribaki_penalty
        reds = int(core.red_three_points(array, game.engine.array, game.engine.values, team))
        total = points + closing + hands + packet + reds
        rows.append(TeamScore(seats, melds, points - melds, closing, hands, packet, reds,
                              total))
    return rows


def _value(cards: Hand, values) -> int:
    return sum(count * values[kind] for kind, count in enumerate(cards.counts))


def ending_clone(state, action: int):
    """The state after ``action`` with the round left on the table (a match deals the
    next round at once): the state to break down when ``action`` (a discard: the only
    action that ends a round) ends one."""
    trial = state.clone()
    trial.array[L.MATCH_MODE] = 0
    core.apply_action(trial.array, trial.game.engine, int(action))
    return trial
