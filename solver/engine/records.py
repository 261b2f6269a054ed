"""Rounds and matches as JSON records: the rules, the seed, every action.

A record replays: :func:`load` rebuilds the game, deals with the seed and
applies every action through the checked API, then compares the result with
the record's ``final`` block. A malformed or inconsistent record raises
:class:`~solver.errors.RecordError` quoting what is wrong.

Format (version 1)::

    {"format": "biriba-record", "version": 1, "match": false, "players": 4,
     "rules": {...every RuleSet field...}, "seed": 7, "dealer": 0,
     "actions": [281474976710656, ...], "moves": ["draw", ...],
     "final": {"round_scores": [...], "match_scores": [...], "end_reason": "closed",
               "terminal": true}}

``moves`` is the readable form of ``actions`` and is not read back.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from solver.engine.api import Game, State
from solver.errors import BiribaError, IllegalMoveError, RecordError
from solver.rules import RuleSet

FORMAT = "biriba-record"
VERSION = 1


def to_record(state: State) -> dict:
    replay = state.game.new_initial_state(state.seed, state.dealer)
    moves = []
    for action in state.history:
        moves.append(replay.action_to_string(action))
        replay.apply_trusted(action)
    return {
        "format": FORMAT,
        "version": VERSION,
        "match": state.game.match,
        "players": state.game.players,
        "rules": state.game.rules.to_dict(),
        "seed": state.seed,
        "dealer": state.dealer,
        "actions": list(state.history),
        "moves": moves,
        "final": _final(state),
    }


def _final(state: State) -> dict:
    return {
        "round_scores": state.round_scores(),
        "match_scores": state.match_scores(),
        "end_reason": state.end_reason,
        "terminal": state.is_terminal(),
    }


def _rules_from(data) -> RuleSet:
    if not isinstance(data, dict):
        raise RecordError(f"'rules' must be an object, got {data!r:.80}")
    fields = {item.name: item for item in dataclasses.fields(RuleSet)}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise RecordError(f"unknown rule field(s) in the record: {', '.join(unknown)}")
    values = {}
    for name, value in data.items():
        if isinstance(value, list):
            value = tuple(tuple(item) if isinstance(item, list) else item for item in value)
        values[name] = value
    try:
        return RuleSet(**values)
    except (BiribaError, TypeError) as error:
        raise RecordError(f"the record's rules are not valid: {error}") from None


def from_record(data) -> State:
    """Replay a record (a dict); returns the final state."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"not a {FORMAT} object: {str(data)[:80]!r}")
    if data.get("version") != VERSION:
        raise RecordError(f"record version {data.get('version')!r} is not {VERSION}")
    for name, kind in (("players", int), ("seed", int), ("dealer", int), ("actions", list)):
        if not isinstance(data.get(name), kind) or isinstance(data.get(name), bool):
            raise RecordError(f"record field {name!r} must be {kind.__name__}, "
                              f"got {data.get(name)!r:.60}")
    try:
        game = Game(data["players"], _rules_from(data.get("rules")), match=bool(data.get("match")))
    except RecordError:
        raise
    except BiribaError as error:
        raise RecordError(f"the record's game cannot be played: {error}") from None
    state = game.new_initial_state(data["seed"], data["dealer"])
    for index, action in enumerate(data["actions"]):
        if not isinstance(action, int) or isinstance(action, bool):
            raise RecordError(f"action {index} is not an integer: {action!r:.60}")
        try:
            state.apply_action(action)
        except IllegalMoveError as error:
            raise RecordError(f"action {index} ({action}) cannot be replayed: {error}") from None
    final = data.get("final")
    if final is not None:
        got = _final(state)
        for key, value in final.items():
            if key in got and got[key] != value:
                raise RecordError(
                    f"the replay ends with {key} {got[key]!r}, the record says {value!r}")
    return state


def save(state: State, path) -> None:
    Path(path).write_text(json.dumps(to_record(state), indent=1) + "\n")


def load(path) -> State:
    try:
        text = Path(path).read_text()
    except OSError as error:
        raise RecordError(f"cannot read record {str(path)!r}: {error.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"record {str(path)!r} is not valid JSON: {error}") from None
    return from_record(data)
