"""The hand analyzer: what to do in a position, with numbers.

A :class:`Position` is what a player knows: their hand, the table, the pile, the scores,
the sizes of the hands they cannot see, and the phase. :func:`analyze` rebuilds a full
state from it (the unseen cards dealt at random: the search deals them again at every
iteration anyway), gives the best lay-down now (the turn optimizer) and ranks every
decision of the phase by the ISMCTS search: the expected round-score difference for the
player's team, its 95% interval, the chance of winning the round, and the loss against
the best decision.

Position files are JSON objects with the keys of :class:`Position` (``examples/``); a
record's position before action N comes from :func:`position_of_record`.
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np

from solver.cards import Hand
from solver.engine import layout as L
from solver.engine.api import Game
from solver.engine.positions import position as make_position
from solver.errors import ImpossiblePositionError
from solver.optimizer import Config, Instance, optimize_laydown
from solver.search import search
from solver.search.plans import PLANS_DEFAULT
from solver.search.search import decision_name, expansion

DEFAULT_SECONDS = 2.0
DEFAULT_WORKERS = 2     # root parallelism: two processes (fixed, not the machine's cores)
REFINE = 0.5        # the budget's share that narrows the top two decisions' intervals
NAMING_SECONDS = 0.05   # kept back from a time budget for naming the decisions
MIN_SEARCH_SHARE = 0.25  # of a time budget, the search gets at least this much
POSITION_KEYS = ("rules", "options", "players", "seat", "phase", "hand", "table", "pile",
                 "trump", "opened", "scores", "hand_sizes", "stock", "packets_taken")


@dataclasses.dataclass(frozen=True)
class Position:
    """What the player to move knows (cards as text, last pile card on top)."""

    hand: str
    rules: str = "classic"
    options: tuple[str, ...] = ()
    players: int = 4
    seat: int = 0
    phase: str = "draw"                         # "draw" or "play"
    table: dict = dataclasses.field(default_factory=dict)   # {team: [meld, ...]}
    pile: str = ""
    trump: str | None = None
    opened: tuple[int, ...] = ()                # teams that have laid down this round
    scores: tuple[int, ...] | None = None       # match scores per team (entity)
    hand_sizes: tuple[int, ...] | None = None   # per seat; default 11 for the others
    stock: int | None = None                    # cards in the stock (default: the rest)
    packets_taken: tuple[int, ...] = ()         # teams that took their packet

    @classmethod
    def from_dict(cls, data) -> Position:
        if not isinstance(data, dict):
            raise ImpossiblePositionError(f"a position must be a JSON object, got {data!r:.60}")
        unknown = sorted(set(data) - set(POSITION_KEYS))
        if unknown:
            raise ImpossiblePositionError(f"unknown position key(s) {', '.join(unknown)} "
                                          f"(known: {', '.join(POSITION_KEYS)})")
        if "hand" not in data:
            raise ImpossiblePositionError("a position needs its 'hand'")
        values = dict(data)
        values["table"] = {int(team): list(melds)
                           for team, melds in (data.get("table") or {}).items()}
        for key in ("options", "opened", "scores", "hand_sizes", "packets_taken"):
            if values.get(key) is not None:
                values[key] = tuple(values[key])
        return cls(**values)

    def to_dict(self) -> dict:
        data = dataclasses.asdict(self)
        data["table"] = {str(team): melds for team, melds in self.table.items()}
        for key in ("options", "opened", "scores", "hand_sizes", "packets_taken"):
            if data[key] is not None:
                data[key] = list(data[key])
        return data


def load_position(path) -> Position:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ImpossiblePositionError(f"cannot read position file {str(path)!r}: {error}") \
            from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ImpossiblePositionError(f"position file {str(path)!r} is not JSON: {error}") \
            from None
    return Position.from_dict(data)


def build_state(position: Position, seed: int = 0):
    """A full state for ``position``: the cards the player cannot see dealt at random to
    the other hands (their sizes kept), the packets not taken and the stock. Refuses an
    impossible position with the reason (ImpossiblePositionError)."""
    game = Game(position.players, position.rules, *position.options)
    players = game.players
    if not 0 <= position.seat < players:
        raise ImpossiblePositionError(f"seat {position.seat} is not at a {players}-player table")
    if position.phase not in ("draw", "play"):
        raise ImpossiblePositionError(f"phase must be 'draw' or 'play', got {position.phase!r}")
    for team in list(position.table) + list(position.opened) + list(position.packets_taken):
        if not 0 <= int(team) < game.teams:
            raise ImpossiblePositionError(f"team {team} is not at this table "
                                          f"(teams 0..{game.teams - 1})")
    sizes = list(position.hand_sizes or [11] * players)
    if len(sizes) != players:
        raise ImpossiblePositionError(f"hand_sizes has {len(sizes)} entries for {players} "
                                      "players")
    hand = Hand.parse(position.hand)
    if sizes[position.seat] != len(hand):
        sizes[position.seat] = len(hand)
    if position.phase == "play" and not hand:
        raise ImpossiblePositionError("a player in the play phase holds at least one card")
    base = make_position(game, hands={position.seat: hand}, table=position.table,
                         pile=position.pile, trump=position.trump, opened=position.opened,
                         packet_taken=position.packets_taken, match_scores=position.scores,
                         current=position.seat, phase=position.phase, seed=seed)
    array = base.array
    # the unseen cards: what position() put in the untaken packets and the stock
    unseen = list(array[L.STOCK:L.STOCK + int(array[L.STOCK_N])])
    for packet in range(int(array[L.PACKET_N])):
        if not array[L.PACKET_USED + packet]:
            counts = array[L.PACKETS + packet * L.KINDS:L.PACKETS + (packet + 1) * L.KINDS]
            unseen += list(np.repeat(np.arange(L.KINDS), counts))
    if game.rules.red_threes_out:
        hidden_red = [card for card in unseen if card in L.RED_THREE_KINDS]
        unseen = [card for card in unseen if card not in L.RED_THREE_KINDS]
    else:
        hidden_red = []
    rng = random.Random(seed)
    rng.shuffle(unseen)
    others = sum(size for seat, size in enumerate(sizes) if seat != position.seat)
    packets = [int(array[L.PACKET_SIZE + p]) for p in range(int(array[L.PACKET_N]))
               if not array[L.PACKET_USED + p]]
    total = len(unseen) + len(hidden_red)
    stock = total - others - sum(packets) if position.stock is None else position.stock
    if others + sum(packets) + stock != total or stock < 0 or others > len(unseen):
        raise ImpossiblePositionError(
            f"the sizes do not add up: {total} cards unseen by seat {position.seat}, but the "
            f"other hands hold {others}, the packets not taken {sum(packets)} and the stock "
            f"{stock}")
    hands = {position.seat: hand}
    at = 0
    for seat in range(players):
        if seat != position.seat:
            hands[seat] = Hand.from_kinds(unseen[at:at + sizes[seat]])
            at += sizes[seat]
    rest = unseen[at:] + hidden_red
    rng.shuffle(rest)
    packet_cards = []
    for size in packets:
        packet_cards.append(Hand.from_kinds(rest[:size]))
        rest = rest[size:]
    full_packets = None
    if packets:
        full_packets, queue = [], iter(packet_cards)
        for p in range(int(array[L.PACKET_N])):
            full_packets.append(Hand.empty() if array[L.PACKET_USED + p] else next(queue))
    state = make_position(game, hands=hands, table=position.table, pile=position.pile,
                          stock=rest, packets=full_packets, trump=position.trump,
                          opened=position.opened, packet_taken=position.packets_taken,
                          match_scores=position.scores, current=position.seat,
                          phase=position.phase, seed=seed)
    if position.phase == "draw" and not state.legal_actions():
        raise ImpossiblePositionError("no legal draw: the stock is empty and the pile cannot "
                                      "be taken")
    return state


class Analysis(NamedTuple):
    phase: str
    seat: int
    best_laydown: dict            # as ``biriba best --json``
    decisions: list[dict]         # best first: decision, mean, ci95, win, loss, plan
    reason: str
    iterations: int
    seconds: float

    def to_dict(self) -> dict:
        return self._asdict()


def analyze(target, iterations: int | None = None, seconds: float | None = None,
            seed: int = 0, workers: int = DEFAULT_WORKERS,
            started: float | None = None, progress=None,
            plans: int = PLANS_DEFAULT) -> Analysis:
    """Analyze a :class:`Position` (or an engine State): the best lay-down now and every
    decision of the phase, ranked. A time budget (default 2 seconds) is the whole
    analysis: the search gets what is left after the position is set up (at least a
    quarter of it), counted from ``started`` (a ``time.perf_counter()`` reading; default:
    now); half the search refines the top two decisions (``REFINE``). Two worker
    processes by default; ``progress`` (a function of the share done) is told how far the
    search is; ``plans``: the lay-down plans weighed (a mask, :mod:`solver.search.plans`)."""
    started = time.perf_counter() if started is None else started
    if iterations is None and seconds is None:
        seconds = DEFAULT_SECONDS
    state = build_state(target, seed) if isinstance(target, Position) else target
    if state.is_terminal():
        raise ImpossiblePositionError("the round is over: there is nothing to decide")
    seat = state.current_player()
    if seconds is not None:     # the whole analysis takes ``seconds``: the search the rest
        spent = time.perf_counter() - started
        seconds = max(seconds - spent - NAMING_SECONDS, seconds * MIN_SEARCH_SHARE)
    prepared = {}

    def meanwhile():            # while the workers search: the lay-down, and the naming's
        prepared["laydown"] = best_laydown(state)        # compiled code loaded
        from solver.search.search import available_decisions

        first = available_decisions(state, None, plans)[0]
        decision_name(state, first, expansion(state, first))

    result = search(state, iterations=iterations, seconds=seconds, seed=seed, workers=workers,
                    refine=REFINE, meanwhile=meanwhile, progress=progress, plans=plans)
    laydown = prepared["laydown"]
    best = result.decisions[0]
    decisions = []
    for decision in result.decisions:
        plan = []
        trial = state.clone()
        for action in decision.actions:
            plan.append(trial.action_to_string(action))
            trial.apply_trusted(action)
        decisions.append({
            "decision": label(decision), "mean": decision.mean_points,
            "ci95": list(decision.ci95), "win": decision.win,
            "loss": best.mean_points - decision.mean_points, "visits": decision.visits,
            "plan": plan,
        })
    return Analysis(state.phase, seat, laydown, decisions, reason(state, result),
                    result.iterations, time.perf_counter() - started)


def label(decision) -> str:
    """A decision's name for people: a lay-down plan says so."""
    from solver.search import decisions as D

    return "lay down: " + decision.name if decision.code == D.LAY_BEST else decision.name


def best_laydown(state) -> dict:
    """The optimizer's best lay-down of the hand now, with the team's table melds."""
    seat = state.current_player()
    team = state.team_of(seat)
    rules = state.game.rules
    hand = state.hand(seat)
    opened = bool(state.array[L.OPENED + team])
    instance = Instance.build(hand, table=state.table(team), rules=rules, trump=state.trump,
                              opened=opened,
                              score=int(state.array[L.MATCH + state.entity_of(seat)]),
                              keep=min(1, len(hand)), players=state.game.players)
    result = optimize_laydown(instance, Config())
    return result.to_dict()


def reason(state, result) -> str:
    """A plain-words reason for the top decision, from what the search saw."""
    best = result.decisions[0]
    second = result.decisions[1] if len(result.decisions) > 1 else None
    margin = ""
    if second is not None:
        lead = best.mean_points - second.mean_points
        close = best.ci95[0] <= second.mean_points
        margin = (f"; {lead:+.0f} points on the next best ({label(second)})"
                  + (", within the noise" if close else ""))
    text = f"{label(best)}: {best.mean_points:+.0f} points expected for your team"
    if best.name == "pile":
        trial = state.clone()
        trial.apply_trusted(best.actions[0])
        from solver.search import decisions as D

        lays = expansion(trial, D.LAY_BEST, D.STAGE_LAY)
        texts = []
        for action in lays:
            texts.append(trial.action_to_string(action))
            trial.apply_trusted(action)
        if texts:
            text += "; taking the pile lets you " + ", ".join(texts)
    return text + margin


def position_of_record(record, at: int):
    """The state of a saved game before its action ``at`` (0: the deal); ``record`` is its
    path or its data as :func:`solver.engine.records.read` gives it."""
    from solver.engine import records

    final = records.from_record(record) if isinstance(record, dict) else records.load(record)
    if not 0 <= at <= len(final.history):
        raise ImpossiblePositionError(f"--at {at}: the record has {len(final.history)} actions")
    state = final.game.new_initial_state(final.seed, final.dealer)
    for action in final.history[:at]:
        state.apply_trusted(action)
    if state.is_terminal():
        raise ImpossiblePositionError(f"--at {at}: the round is over there")
    return state


__all__ = ["Analysis", "Position", "analyze", "build_state", "load_position",
           "position_of_record"]
