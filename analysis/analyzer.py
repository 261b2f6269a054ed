"""The hand analyzer: what to do in a position, with numbers.

A :class:`Position` is what a player knows: their hand, the table, the pile, the scores,
the sizes of the hands they cannot see, and the phase. :func:`analyze` rebuilds a full
state from it (the unseen cards dealt at random: the search deals them again at every
iteration anyway), gives the best lay-down now (the turn optimizer) and ranks every
decision of the phase with :func:`solver.search.evaluate.evaluate`: the expected
round-score difference for the player's team, its 95% interval, the chance of winning
the round and the loss against the best decision, each from the decision's own forced
samples, with what the decision does at the table in words (:mod:`analysis.reasons`).

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
from solver.search.evaluate import CONTINUATION_DEFAULT, MIN_SAMPLES, evaluate
from solver.search.plans import PLANS_ALL

from analysis.reasons import best_laydown, facts, sentence
from solver.limits import ANALYZE_SECONDS as DEFAULT_SECONDS  # noqa: F401
from solver.limits import MAX_DECK_CARDS as MAX_HAND
from solver.limits import MAX_SCORE, NAMING_SECONDS
from solver.limits import WORKERS as DEFAULT_WORKERS

PLANS_ANALYZE = PLANS_ALL   # every lay-down plan a player would weigh
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


def _check_ints(name, values, low, high) -> None:
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ImpossiblePositionError(f"{name}: {value!r} is not an integer in "
                                          f"{low}..{high}")


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
    _check_ints("hand_sizes", sizes, 0, MAX_HAND)
    if position.scores is not None:
        if len(position.scores) != game.entities:
            raise ImpossiblePositionError(
                f"scores has {len(position.scores)} entries: this table scores "
                f"{game.entities} (one per team; three players score alone)")
        _check_ints("scores", position.scores, -MAX_SCORE, MAX_SCORE)
    if position.stock is not None:
        _check_ints("stock", [position.stock], 0, MAX_HAND)
    if not isinstance(position.hand, str):
        raise ImpossiblePositionError(f"the hand must be cards as text, got {position.hand!r}")
    hand = Hand.parse(position.hand)
    if not hand:
        raise ImpossiblePositionError(f"the hand {position.hand!r} holds no card: the player "
                                      "to move holds at least one")
    if position.hand_sizes is not None and sizes[position.seat] != len(hand):
        raise ImpossiblePositionError(
            f"hand_sizes gives seat {position.seat} {sizes[position.seat]} cards, but the "
            f"hand {position.hand!r} holds {len(hand)}")
    sizes[position.seat] = len(hand)
    base = make_position(game, hands={position.seat: hand}, table=position.table,
                         pile=position.pile, trump=position.trump, opened=position.opened,
                         packet_taken=position.packets_taken, match_scores=position.scores,
                         current=position.seat, phase=position.phase, seed=seed,
                         empty_hands=True)
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
    decisions: list[dict]         # ranked by mean, best first, then those without figures
    verdict: str                  # "separated", "too close to call", "forced"
    reason: str
    iterations: int
    seconds: float

    def to_dict(self) -> dict:
        return self._asdict()


def analyze(target, iterations: int | None = None, seconds: float | None = None,
            seed: int = 0, workers: int = DEFAULT_WORKERS,
            started: float | None = None, progress=None,
            plans: int = PLANS_ANALYZE,
            continuation: str = CONTINUATION_DEFAULT) -> Analysis:
    """Analyze a :class:`Position` (or an engine State): the best lay-down now and every
    decision of the phase (in the play phase, whole turns: a lay-down and its discard),
    ranked by :func:`solver.search.evaluate.evaluate`, which samples until the best is
    separated or the cap is spent: ``seconds`` (default
    ``DEFAULT_SECONDS``, the whole analysis counted from ``started``, a
    ``time.perf_counter()`` reading; default now) or ``iterations`` in total over the
    ``workers``. ``progress`` (a function of the share of the cap spent) is told how far
    it is; ``plans``: the lay-down plans weighed (a mask, :mod:`solver.search.plans`);
    ``continuation``: who plays after the decision (``greedy``, ``expert``)."""
    started = time.perf_counter() if started is None else started
    if iterations is None and seconds is None:
        seconds = DEFAULT_SECONDS
    state = build_state(target, seed) if isinstance(target, Position) else target
    if state.is_terminal():
        raise ImpossiblePositionError("the round is over: there is nothing to decide")
    seat = state.current_player()
    if seconds is not None:     # kept back for naming the decisions and the reasons
        seconds = max(seconds - NAMING_SECONDS - (time.perf_counter() - started),
                      seconds * MIN_SEARCH_SHARE)
    prepared = {}

    def meanwhile():            # while the workers search: the lay-down
        prepared["laydown"] = best_laydown(state)

    result = evaluate(state, iterations=iterations, seconds=seconds, seed=seed,
                      workers=workers, plans=plans, progress=progress, meanwhile=meanwhile,
                      continuation=continuation)
    decisions = [_row(state, figure) for figure in result.decisions]
    return Analysis(state.phase, seat, prepared["laydown"], decisions, result.verdict,
                    reason(state, result), result.iterations, time.perf_counter() - started)


def _row(state, figure) -> dict:
    plan = []
    trial = state.clone()
    for action in figure.actions:
        plan.append(trial.action_to_string(action))
        trial.apply_trusted(action)
    return {"decision": label(figure), "mean": figure.mean,
            "ci95": None if figure.ci95 is None else list(figure.ci95), "win": figure.win,
            "loss": figure.loss, "visits": figure.visits, "separated": figure.separated,
            "plan": plan, "why": facts(state, figure.code, figure.actions)
            if figure.mean is not None else []}


def label(decision) -> str:
    """A decision's name for people: a lay-down plan says so."""
    from solver.search import decisions as D

    return "lay down: " + decision.name if decision.code == D.LAY_BEST else decision.name


def reason(state, result) -> str:
    """The verdict in words: the best decision, what it does at the table, and how sure
    the figures are (separated from the rest, or too close to call with the runner-up)."""
    best = result.decisions[0]
    if result.verdict == "forced":
        return f"{label(best)}: the only legal decision"
    what = sentence(state, best.code, best.actions)
    if best.mean is None:
        return f"no decision got the {MIN_SAMPLES} samples a figure needs within the cap: " \
               "give more --seconds or --iterations"
    text = f"{label(best)}: {best.mean:+.0f} points expected for your team"
    if what:
        text += f"; {what}"
    ranked = result.ranked
    if len(ranked) > 1:
        second = ranked[1]
        if result.verdict == "separated":
            text += f"; {second.loss:.0f} points better than {label(second)}, the next best, " \
                    "on the same deals"
        else:
            text += f"; too close to call against {label(second)} ({second.mean:+.0f})"
    return text


def check_at(actions: int, at: int) -> None:
    """Refuse ``--at`` outside a record of ``actions`` actions (0..actions)."""
    if not 0 <= at <= actions:
        raise ImpossiblePositionError(f"--at {at}: the record has {actions} actions")


def position_of_record(record, at: int):
    """The state of a saved game before its action ``at`` (0: the deal); ``record`` is its
    path or its data as :func:`solver.engine.records.read` gives it."""
    from solver.engine import records

    final = records.from_record(record) if isinstance(record, dict) else records.load(record)
    check_at(len(final.history), at)
    state = final.game.new_initial_state(final.seed, final.dealer)
    for action in final.history[:at]:
        state.apply_trusted(action)
    if state.is_terminal():
        raise ImpossiblePositionError(f"--at {at}: the round is over there")
    return state


def position_of_state(state, rules: str | None = None, options=()) -> Position:
    """What the player to move knows in ``state``, as a :class:`Position` (the rules by
    their preset name and options, given, else the state's rule set's name). The cards the
    others took from the pile are not kept: a position's other hands are unseen."""
    if state.is_terminal():
        raise ImpossiblePositionError("the round is over: there is nothing to decide")
    game = state.game
    array = state.array
    seat = state.current_player()
    if state.phase not in ("draw", "play"):
        raise ImpossiblePositionError(f"a position is a draw or a play, not {state.phase!r}")
    table = {team: [str(meld) for meld in state.table(team)] for team in range(game.teams)
             if state.table(team)}
    pile = " ".join(str(Hand.from_kinds([kind])) for kind in state.pile())
    return Position(hand=str(state.hand(seat)), rules=rules or game.rules.name,
                    options=tuple(options), players=game.players, seat=seat,
                    phase=state.phase, table=table, pile=pile, trump=state.trump,
                    opened=tuple(t for t in range(game.teams) if array[L.OPENED + t]),
                    scores=tuple(state.match_scores()),
                    hand_sizes=tuple(len(state.hand(s)) for s in range(game.players)),
                    stock=int(array[L.STOCK_N]),
                    packets_taken=tuple(t for t in range(game.teams)
                                        if array[L.PACKET_TAKEN + t]))


__all__ = ["Analysis", "Position", "analyze", "build_state", "load_position",
           "position_of_record", "position_of_state"]
