"""Rounds and matches as JSON records: the rules, the seed, every action.

A record replays: :func:`load` rebuilds the game, deals with the seed and
applies every action through the checked API, then compares the result with
the record's ``final`` block. Records are validated strictly: anything
malformed or inconsistent raises :class:`~solver.errors.RecordError` quoting
what is wrong (shortened), never another exception.

Format (version 1)::

    {"format": "biriba-record", "version": 1, "match": false, "players": 4,
     "rules": {...every RuleSet field...}, "seed": 7, "dealer": 0,
     "actions": [281474976710656, ...], "moves": ["draw", ...],
     "final": {"round_scores": [...], "match_scores": [...], "end_reason": "closed",
               "terminal": true}}

What a record must hold:

* The file: UTF-8 text (a UTF-8 byte-order mark is allowed; NUL bytes, UTF-16
  and other encodings are not), at most :data:`MAX_RECORD_BYTES`, one JSON
  object whose keys appear once each and are exactly ``format``, ``version``,
  ``match``, ``players``, ``rules``, ``seed``, ``dealer``, ``actions``, ``moves``
  and ``final``. JSON nested deeper than the parser allows is refused.
* ``format`` the string ``"biriba-record"``; ``version`` the integer 1.
* ``match`` a boolean; ``players`` an integer in 2, 3, 4, 6; ``dealer`` an
  integer with ``0 <= dealer < players``; ``seed`` an integer with
  ``0 <= seed < 2**63`` (the engine seeds an int64). Integers are never booleans.
* ``rules`` an object with every :class:`~solver.rules.RuleSet` field, and no
  other, each of its field's type: ``int`` an integer (``-2**63 <= v < 2**63``),
  ``str`` a string, ``bool`` a boolean, ``X | None`` an X or ``null``, tuples
  lists (of lists) of their element types. ``name`` is a preset name
  (:data:`~solver.rules.PRESETS`); the fields may differ from the preset's (options
  and overrides). The values must then pass :class:`RuleSet`'s own checks and the
  engine must support the rules with that many players.
* ``actions`` a list of integers ``0 <= a < 2**63``, each legal when replayed.
* ``moves`` a list of strings as long as ``actions``: ``moves[i]`` is the text of
  ``actions[i]`` (``State.action_to_string``) just before it is applied.
* ``final`` an object with exactly ``round_scores`` and ``match_scores`` (lists of
  integers), ``end_reason`` (a string, ``""`` while not over; ``null`` reads as
  ``""``) and ``terminal`` (a boolean), all equal to the replay's.

:func:`save` writes a record atomically (a temporary file in the same folder,
then ``os.replace``); :func:`check_writable` tells before a game whether a path
can take a record.
"""

from __future__ import annotations

import dataclasses
import json
import os
import secrets
import stat
from pathlib import Path

from kernels.params import KEY_VERSION
from solver.engine.api import Game, State
from solver.errors import BiribaError, RecordError, quote_value
from solver.rules import PRESETS, RuleSet, is_int
from solver.limits import MAX_RECORD_BYTES

FORMAT = "biriba-record"
VERSION = KEY_VERSION    # actions embed meld keys: a new key layout is a new record version
KEYS = ("format", "version", "match", "players", "rules", "seed", "dealer", "actions",
        "moves", "final")
RULE_FIELDS = tuple(item.name for item in dataclasses.fields(RuleSet))
# Rule fields added after records of this version were first written: a record without
# them takes the field's default (which is what those games played by)
ADDED_RULE_FIELDS = ("extend_needs_own_meld", "wild_set_bars_wilds", "close_without_discard",
                     "three_players_alone", "cut_exact_bonus", "cut_near_bonus", "cut_error",
                     "dealer_bottom_wilds")
FINAL_KEYS = ("round_scores", "match_scores", "end_reason", "terminal")
PLAYER_COUNTS = (2, 3, 4, 6)
INT64 = 1 << 63

# Exceptions that bad values may raise inside RuleSet, Game and the engine set-up.
_BAD_VALUE = (BiribaError, ValueError, TypeError, ArithmeticError, LookupError,
              RecursionError)


# --- quoting ---------------------------------------------------------------------------


def _quote_path(path, limit: int = 160) -> str:
    """A path quoted for a message; a long one keeps its end (the file's name)."""
    text = str(path)
    if len(text) > limit:
        text = "..." + text[-(limit - 3):]
    return repr(text)


def _names(keys) -> str:
    return ", ".join(sorted(quote_value(key, 40) for key in keys))


def _error_text(error: BaseException, limit: int = 300) -> str:
    text = str(error)
    return text if len(text) <= limit else text[:limit - 3] + "..."


# --- writing ---------------------------------------------------------------------------


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


def check_writable(path) -> None:
    """Raise :class:`RecordError` unless a record can be written at ``path``.

    For the CLI before a game starts: the folder must exist, the path must not
    be a folder, and the file must open for appending (an existing file is not
    truncated; a file created by the check is removed again).
    """
    target = _path(path)
    name = _quote_path(target)
    if _is_dir(target):
        raise RecordError(f"cannot write record {name}: it is a directory")
    folder = target.parent
    if not _is_dir(folder):
        raise RecordError(f"cannot write record {name}: the directory "
                          f"{_quote_path(folder)} does not exist")
    existed = os.path.lexists(target)
    try:
        with open(target, "a", encoding="utf-8"):
            pass
    except (OSError, ValueError) as error:
        raise RecordError(f"cannot write record {name}: {_why(error)}") from None
    if not existed:
        try:
            target.unlink()
        except OSError:
            pass


def save(state: State, path) -> None:
    """Write ``state``'s record to ``path`` atomically; :class:`RecordError` on failure."""
    target = _path(path)
    name = _quote_path(target)
    text = json.dumps(to_record(state), indent=1) + "\n"
    if _is_dir(target):
        raise RecordError(f"cannot write record {name}: it is a directory")
    temporary = target.parent / f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except (OSError, ValueError) as error:
        raise RecordError(f"cannot write record {name}: {_why(error)}") from None
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.chmod(temporary, stat.S_IMODE(os.stat(target).st_mode))
        except OSError:
            pass                              # no old file: keep the umask's mode
        os.replace(temporary, target)
    except (OSError, ValueError) as error:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise RecordError(f"cannot write record {name}: {_why(error)}") from None


# --- reading ---------------------------------------------------------------------------


def _path(path) -> Path:
    try:
        return Path(path)
    except TypeError:
        raise RecordError(f"a record path must be a string or a path, got {quote_value(path)}") \
            from None


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def _why(error: Exception) -> str:
    return _error_text(getattr(error, "strerror", None) or error, 200)


def _unique_keys(pairs):
    data = {}
    for key, value in pairs:
        if key in data:
            raise RecordError(f"the key {quote_value(key)} appears twice in one object")
        data[key] = value
    return data


def load(path) -> State:
    """Read, validate and replay the record at ``path``; returns the final state."""
    return from_record(read(path))


def read(path) -> dict:
    """The record at ``path`` as JSON data, not yet validated or replayed (a command reads
    it before it compiles the engine that replays it, so a bad file is refused at once)."""
    target = _path(path)
    name = _quote_path(target)
    if _is_dir(target):
        raise RecordError(f"cannot read record {name}: it is a directory")
    try:
        with open(target, "rb") as handle:
            raw = handle.read(MAX_RECORD_BYTES + 1)
    except (OSError, ValueError) as error:
        raise RecordError(f"cannot read record {name}: {_why(error)}") from None
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError(f"record {name} is larger than {MAX_RECORD_BYTES} bytes")
    nul = raw.find(b"\0")
    if nul >= 0:
        raise RecordError(f"record {name} is not UTF-8 text: it holds NUL bytes "
                          f"(UTF-16 or binary?), the first at offset {nul}")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise RecordError(f"record {name} is not UTF-8 text: byte "
                          f"0x{raw[error.start]:02x} at offset {error.start}") from None
    try:
        data = json.loads(text, object_pairs_hook=_unique_keys)
    except RecordError as error:
        raise RecordError(f"record {name} is not valid: {error}") from None
    except RecursionError:
        raise RecordError(f"record {name} is not valid JSON: nested too deeply") from None
    except ValueError as error:                # JSONDecodeError, too many digits
        raise RecordError(f"record {name} is not valid JSON: {_error_text(error)}") from None
    return data


def _keys(data: dict, known, what: str, noun: str = "key") -> None:
    missing = [key for key in known if key not in data]
    if missing:
        raise RecordError(f"{what} lacks the {noun}(s) {_names(missing)}")
    unknown = [key for key in data if key not in known]
    if unknown:
        raise RecordError(f"unknown {noun}(s) in {what}: {_names(unknown)}")


def _int_field(data: dict, name: str, low: int, high: int, what: str = "record field") -> int:
    value = data[name]
    if not is_int(value):
        raise RecordError(f"{what} {name!r} must be int, got {quote_value(value)}")
    if not low <= value < high:
        shown = "2**63" if high == INT64 else str(high)
        raise RecordError(f"{what} {name!r} must be at least {low} and below {shown}, "
                          f"got {quote_value(value)}")
    return value


def _tuples(value):
    """JSON lists as the tuples RuleSet fields hold (RuleSet checks every type itself)."""
    return tuple(_tuples(item) for item in value) if isinstance(value, list) else value


def _rules_from(data) -> RuleSet:
    if not isinstance(data, dict):
        raise RecordError(f"'rules' must be an object, got {quote_value(data)}")
    _keys({**{name: None for name in ADDED_RULE_FIELDS}, **data}, RULE_FIELDS,
          "the record's rules", "field")
    try:
        rules = RuleSet(**{name: _tuples(value) for name, value in data.items()})
    except _BAD_VALUE as error:
        raise RecordError(f"the record's rules are not valid: {_error_text(error)}") from None
    if rules.name not in PRESETS:
        raise RecordError(f"unknown preset {quote_value(rules.name)} in the record's rules "
                          f"(known: {', '.join(PRESETS)})")
    return rules


def _check_final(final) -> None:
    if not isinstance(final, dict):
        raise RecordError(f"record field 'final' must be an object, got {quote_value(final)}")
    _keys(final, FINAL_KEYS, "the record's 'final'")
    for name in ("round_scores", "match_scores"):
        value = final[name]
        if not isinstance(value, list) or not all(is_int(item) for item in value):
            raise RecordError(f"'final' field {name!r} must be a list of int, "
                              f"got {quote_value(value)}")
    if not (final["end_reason"] is None or isinstance(final["end_reason"], str)):
        raise RecordError(f"'final' field 'end_reason' must be a string or null, "
                          f"got {quote_value(final['end_reason'])}")
    if not isinstance(final["terminal"], bool):
        raise RecordError(f"'final' field 'terminal' must be a boolean, "
                          f"got {quote_value(final['terminal'])}")


def _check_shape(data) -> None:
    """Everything a record must hold that needs no replay (the module docstring)."""
    if not isinstance(data, dict):
        raise RecordError(f"not a {FORMAT} object: {quote_value(data)}")
    if data.get("format") != FORMAT or not isinstance(data.get("format"), str):
        raise RecordError(f"not a {FORMAT} object: its 'format' is "
                          f"{quote_value(data.get('format'))}")
    version = data.get("version")
    if not is_int(version) or version != VERSION:
        raise RecordError(f"record version {quote_value(version)} is not {VERSION}")
    _keys(data, KEYS, "the record")
    if not isinstance(data["match"], bool):
        raise RecordError(f"record field 'match' must be a boolean, got {quote_value(data['match'])}")
    players = data["players"]
    if not is_int(players):
        raise RecordError(f"record field 'players' must be int, got {quote_value(players)}")
    if players not in PLAYER_COUNTS:
        raise RecordError(f"record field 'players' must be 2, 3, 4 or 6, got {quote_value(players)}")
    _int_field(data, "seed", 0, INT64)
    _int_field(data, "dealer", 0, players)
    actions, moves = data["actions"], data["moves"]
    if not isinstance(actions, list):
        raise RecordError(f"record field 'actions' must be a list, got {quote_value(actions)}")
    for index, action in enumerate(actions):
        if not is_int(action):
            raise RecordError(f"action {index} is not an integer: {quote_value(action)}")
        if not 0 <= action < INT64:
            raise RecordError(f"action {index} must be at least 0 and below 2**63, "
                              f"got {quote_value(action)}")
    if not isinstance(moves, list):
        raise RecordError(f"record field 'moves' must be a list, got {quote_value(moves)}")
    for index, move in enumerate(moves):
        if not isinstance(move, str):
            raise RecordError(f"move {index} is not a string: {quote_value(move)}")
    if len(moves) != len(actions):
        raise RecordError(f"the record has {len(moves)} moves for {len(actions)} actions")
    _check_final(data["final"])


def from_record(data) -> State:
    """Validate and replay a record (a dict); returns the final state."""
    _check_shape(data)
    rules = _rules_from(data["rules"])
    try:
        game = Game(data["players"], rules, match=data["match"])
        state = game.new_initial_state(data["seed"], data["dealer"])
    except _BAD_VALUE as error:
        raise RecordError(f"the record's game cannot be played: {_error_text(error)}") from None
    moves = data["moves"]
    for index, action in enumerate(data["actions"]):
        if not state.can_apply(action):
            raise RecordError(f"action {index} ({action}) cannot be replayed: "
                              f"{_error_text(state._reason(action))}")
        text = state.action_to_string(action)
        if moves[index] != text:
            raise RecordError(f"move {index} reads {quote_value(moves[index])} but action {index} "
                              f"is {quote_value(text)}")
        state.apply_trusted(action)
    got = _final(state)
    final = data["final"]
    for key in FINAL_KEYS:
        said = final[key]
        if got[key] != ("" if key == "end_reason" and said is None else said):
            raise RecordError(f"the replay ends with {key} {quote_value(got[key])}, "
                              f"the record says {quote_value(said)}")
    return state
