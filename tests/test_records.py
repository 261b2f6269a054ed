"""JSON game records (solver.engine.records): strict validation of files and records.

One short seeded round (4 players, greedy, 46 actions) is played once and every test
works on copies of its record.
"""

import functools
import json
import os
import random
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.engine import records
from solver.engine.api import Game, State
from solver.engine.players import GreedyPlayer, play
from solver.errors import RecordError
from solver.rules import PRESETS


@functools.lru_cache(maxsize=None)
def _played():
    state = play(Game(4).new_initial_state(2), [GreedyPlayer() for _ in range(4)])
    return state, json.dumps(records.to_record(state))


def _state():
    return _played()[0]


def _record():
    """A fresh JSON copy of the short round's record."""
    return json.loads(_played()[1])


def _refused(record, needle):
    with pytest.raises(RecordError, match=needle) as caught:
        records.from_record(record)
    assert len(str(caught.value)) < 600
    return caught.value


# --- valid records ---------------------------------------------------------------------


def test_a_valid_record_round_trips_through_a_file(tmp_path):
    state = _state()
    path = tmp_path / "round.json"
    records.save(state, path)
    assert os.listdir(tmp_path) == ["round.json"]          # no temporary file left
    again = records.load(path)
    assert isinstance(again, State)
    assert np.array_equal(again.array, state.array)
    assert again.history == state.history
    assert json.loads(path.read_text(encoding="utf-8")) == json.loads(
        json.dumps(records.to_record(again)))


def test_a_record_with_a_utf8_byte_order_mark_loads(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + _played()[1].encode("utf-8"))
    assert records.load(path).history == _state().history


def test_an_unfinished_round_round_trips_and_null_end_reason_reads_as_not_over():
    state = Game(4).new_initial_state(2)
    for action in _state().history[:5]:
        state.apply_action(action)
    record = json.loads(json.dumps(records.to_record(state)))
    assert record["final"]["end_reason"] == "" and record["final"]["terminal"] is False
    assert records.from_record(record).history == state.history
    record["final"]["end_reason"] = None
    assert records.from_record(record).history == state.history


def test_from_record_takes_to_record_without_a_json_round_trip():
    again = records.from_record(records.to_record(_state()))
    assert np.array_equal(again.array, _state().array)


# --- files -----------------------------------------------------------------------------


@pytest.mark.parametrize("content", [
    random.Random(0).randbytes(4096),
    b'{"format": "biriba-record"}\x00',
    json.dumps({"format": "biriba-record"}).encode("utf-16"),        # with a BOM
    json.dumps({"format": "biriba-record"}).encode("utf-16-le"),     # without one
    json.dumps({"format": "biriba-record"}).encode("utf-16-be"),
    '{"format": "biriba-récord"}'.encode("latin-1"),
], ids=["random-bytes", "nul", "utf-16", "utf-16-le", "utf-16-be", "latin-1"])
def test_a_file_that_is_not_utf8_text_is_refused(tmp_path, content):
    path = tmp_path / "record.json"
    path.write_bytes(content)
    with pytest.raises(RecordError, match=r"record '.*record\.json' is not UTF-8 text"):
        records.load(path)


def test_json_nested_too_deeply_is_refused(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(RecordError, match="nested too deeply"):
        records.load(path)


def test_a_directory_is_refused(tmp_path):
    with pytest.raises(RecordError, match="is a directory"):
        records.load(tmp_path)


def test_a_missing_file_is_refused(tmp_path):
    with pytest.raises(RecordError, match="cannot read record .*No such file"):
        records.load(tmp_path / "missing.json")


def test_a_file_over_the_size_limit_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "big.json"
    path.write_text(_played()[1])
    monkeypatch.setattr(records, "MAX_RECORD_BYTES", 1000)
    with pytest.raises(RecordError, match="larger than 1000 bytes"):
        records.load(path)


@pytest.mark.parametrize("text, needle", [
    ("{not json", "not valid JSON"),
    ('{"seed": 1, "seed": 2}', "the key 'seed' appears twice"),
    ('{"seed": 1' + "0" * 5000 + "}", "not valid JSON"),
    ("[1, 2]", r"not a biriba-record object: \[1, 2\]"),
    ('"' + "x" * 10_000 + '"', r"not a biriba-record object: 'xxx.*\.\.\.$"),
])
def test_text_that_is_not_a_record_object_is_refused(tmp_path, text, needle):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(RecordError, match=needle) as caught:
        records.load(path)
    assert len(str(caught.value)) < 600


# --- the top level ---------------------------------------------------------------------


def _set(key, value):
    return lambda record: record.__setitem__(key, value)


def _delete(*keys):
    def change(record):
        for key in keys:
            del record[key]
    return change


def _set_in(key, index, value):
    return lambda record: record[key].__setitem__(index, value)


@pytest.mark.parametrize("change, needle", [
    (_set("format", "chess"), "not a biriba-record object: its 'format' is 'chess'"),
    (_delete("format"), "its 'format' is None"),
    (_set("version", 9), "record version 9 is not 1"),
    (_set("version", True), "record version True is not 1"),
    (_delete("moves", "final"), r"the record lacks the key\(s\) 'final', 'moves'"),
    (_set("colour", "red"), r"unknown key\(s\) in the record: 'colour'"),
    (_set("match", 0), "'match' must be a boolean, got 0"),
    (_set("players", "four"), "'players' must be int, got 'four'"),
    (_set("players", True), "'players' must be int, got True"),
    (_set("players", 5), "'players' must be 2, 3, 4 or 6, got 5"),
    (_set("players", 4.0), "'players' must be int, got 4.0"),
    (_set("seed", -1), r"'seed' must be at least 0 and below 2\*\*63, got -1"),
    (_set("seed", 2 ** 63),
     r"'seed' must be at least 0 and below 2\*\*63, got 9223372036854775808"),
    (_set("seed", 10 ** 5000), "'seed' must be at least 0 and below 2\\*\\*63, got <integer of"),
    (_set("seed", "7"), "'seed' must be int, got '7'"),
    (_set("dealer", 4), "'dealer' must be at least 0 and below 4, got 4"),
    (_set("dealer", -1), "'dealer' must be at least 0 and below 4, got -1"),
    (_set("dealer", False), "'dealer' must be int, got False"),
    (_set("actions", {"0": 1}), "'actions' must be a list, got {'0': 1}"),
    (_set_in("actions", 2, "draw"), "action 2 is not an integer: 'draw'"),
    (_set_in("actions", 0, True), "action 0 is not an integer: True"),
    (_set_in("actions", 0, 1.5), "action 0 is not an integer: 1.5"),
    (_set_in("actions", 0, -1), r"action 0 must be at least 0 and below 2\*\*63, got -1"),
    (_set_in("actions", 0, 2 ** 63), r"action 0 must be at least 0 and below 2\*\*63"),
    (_set_in("actions", 3, 12345), r"action 3 \(12345\) cannot be replayed: .*not an action"),
    (_set_in("actions", 0, 845524457488384), r"action 0 \(845524457488384\) cannot be replayed"),
    (_set("actions", list(range(3 << 48, (3 << 48) + 1))), "cannot be replayed|moves for"),
    (_set("moves", "draw"), "'moves' must be a list, got 'draw'"),
    (_set_in("moves", 0, 5), "move 0 is not a string: 5"),
    (lambda r: r["moves"].pop(), "the record has 45 moves for 46 actions"),
    (lambda r: r["actions"].append(1 << 48), "the record has 46 moves for 47 actions"),
])
def test_bad_top_level_fields_are_refused(change, needle):
    record = _record()
    change(record)
    _refused(record, needle)


def test_an_action_past_the_end_of_the_round_is_refused():
    record = _record()
    record["actions"].append(1 << 48)
    record["moves"].append("draw")
    _refused(record, r"action 46 \(281474976710656\) cannot be replayed: .*the round is over")


def test_a_long_or_deep_value_is_quoted_short():
    record = _record()
    record["players"] = "x" * 100_000
    error = _refused(record, r"'players' must be int, got 'xxx")
    assert str(error).endswith("...") and len(str(error)) < 120
    deep = []
    for _ in range(500):
        deep = [deep]
    record["players"] = deep
    _refused(record, r"'players' must be int, got \[\[\[")
    record["players"] = 4
    record["seed"] = {"a" * 1000: list(range(10_000))}
    _refused(record, "'seed' must be int, got {'aaa")


def test_a_record_that_is_not_an_object_is_refused():
    _refused([1, 2, 3], r"not a biriba-record object: \[1, 2, 3\]")
    _refused(None, "not a biriba-record object: None")


# --- moves -------------------------------------------------------------------------------


def test_a_move_that_does_not_read_as_its_action_is_refused():
    record = _record()
    record["moves"][1] = "draw"
    _refused(record, re.escape("move 1 reads 'draw' but action 1 is 'lay 9S 10S JS QS'"))


def test_swapped_moves_are_refused():
    record = _record()
    record["moves"][0], record["moves"][2] = record["moves"][2], record["moves"][0]
    _refused(record, re.escape("move 0 reads 'discard AC' but action 0 is 'draw'"))


# --- final -------------------------------------------------------------------------------


def _set_final(key, value):
    return lambda record: record["final"].__setitem__(key, value)


@pytest.mark.parametrize("change, needle", [
    (_set("final", None), "'final' must be an object, got None"),
    (_set("final", [610, -60]), r"'final' must be an object, got \[610, -60\]"),
    (lambda r: r["final"].pop("terminal"), r"the record's 'final' lacks the key\(s\) 'terminal'"),
    (_set_final("winner", 0), r"unknown key\(s\) in the record's 'final': 'winner'"),
    (_set_final("round_scores", ["610", -60]), "'round_scores' must be a list of int"),
    (_set_final("match_scores", [True, 0]), "'match_scores' must be a list of int"),
    (_set_final("match_scores", 610), "'match_scores' must be a list of int, got 610"),
    (_set_final("end_reason", 5), "'end_reason' must be a string or null, got 5"),
    (_set_final("terminal", 1), "'terminal' must be a boolean, got 1"),
    (_set_final("round_scores", [1, 2]),
     r"the replay ends with round_scores \[610, -60\], the record says \[1, 2\]"),
    (_set_final("match_scores", [610, -61]),
     r"the replay ends with match_scores \[610, -60\], the record says \[610, -61\]"),
    (_set_final("end_reason", "stock exhausted"),
     "the replay ends with end_reason 'closed', the record says 'stock exhausted'"),
    (_set_final("end_reason", None),
     "the replay ends with end_reason 'closed', the record says None"),
    (_set_final("terminal", False), "the replay ends with terminal True, the record says False"),
])
def test_a_final_block_that_is_malformed_or_disagrees_is_refused(change, needle):
    record = _record()
    change(record)
    _refused(record, needle)


def test_a_round_record_replayed_as_a_match_disagrees():
    record = _record()
    record["match"] = True
    _refused(record, "the replay ends with")


# --- rules -------------------------------------------------------------------------------


def _set_rule(key, value):
    return lambda record: record["rules"].__setitem__(key, value)


@pytest.mark.parametrize("change, needle", [
    (_set("rules", "classic"), "'rules' must be an object, got 'classic'"),
    (lambda r: r["rules"].pop("hand_size"), r"the record's rules lacks the field\(s\) 'hand_size'"),
    (lambda r: [r["rules"].pop(k) for k in ("decks", "individual")],
     r"lacks the field\(s\) 'decks', 'individual'"),
    (_set_rule("colour", "red"), r"unknown field\(s\) in the record's rules: 'colour'"),
    (_set_rule("name", "nosuch"), "unknown preset 'nosuch' in the record's rules"),
    (_set_rule("name", 3), "name=3 must be a str"),
    (_set_rule("hand_size", True), "hand_size=True must be an int"),
    (_set_rule("hand_size", "11"), "hand_size='11' must be an int"),
    (_set_rule("hand_size", 11.0), "hand_size=11.0 must be an int"),
    (_set_rule("hand_size", 2 ** 63),
     r"hand_size=9223372036854775808 must be 1..162"),
    (_set_rule("wild_twos", 1), "wild_twos=1 must be a bool"),
    (_set_rule("turned_wild", None), "turned_wild=None must be a str"),
    (_set_rule("max_wilds_per_meld", "1"), r"max_wilds_per_meld='1' must be an int \(or None\)"),
    (_set_rule("max_wilds_per_meld", False), r"max_wilds_per_meld=False must be an int \(or None\)"),
    (_set_rule("set_excluded_ranks", "A"), "set_excluded_ranks='A' must be a tuple of str"),
    (_set_rule("set_excluded_ranks", [1]),
     r"set_excluded_ranks=\(1,\) must be a tuple of str"),
    (_set_rule("set_biriba_ranks", [None]), r"set_biriba_ranks=\(None,\) must be a tuple of str \(or None\)"),
    (_set_rule("three_player_biribaki_sizes", [18]),
     r"three_player_biribaki_sizes=\(18,\) must be a tuple of 2 ints"),
    (_set_rule("three_player_biribaki_sizes", [18, 11, 4]), r"three_player_biribaki_sizes=\(18, 11, 4\) must be a tuple of 2 ints"),
    (_set_rule("vulnerability", [[1000, 75, 1]]),
     r"vulnerability=.* must be a tuple of \(int, int\) pairs"),
    (_set_rule("vulnerability", [[1000, True]]), r"vulnerability=.* must be a tuple of \(int, int\) pairs"),
    (_set_rule("vulnerability", [1000, 75]), r"vulnerability=.* must be a tuple of \(int, int\) pairs"),
    (_set_rule("min_meld_size", 1), "the record's rules are not valid: .*min_meld_size"),
    (_set_rule("hand_size", -3), "the record's rules are not valid: .*hand_size"),
    (_set_rule("max_wilds_per_meld", None), "the record.s rules are not valid"),
    (_set_rule("set_excluded_ranks", ["Z"]), "the record's rules are not valid: .*'Z'"),
    (_set_rule("hand_size", 60), "the record's game cannot be played: .*hand"),
])
def test_bad_rules_are_refused(change, needle):
    record = _record()
    change(record)
    _refused(record, needle)


def test_rules_may_differ_from_their_preset():
    """A preset with options or overrides keeps the preset's name."""
    state = play(Game(4, "classic", close_min_biribas=2).new_initial_state(2),
                 [GreedyPlayer() for _ in range(4)])
    record = json.loads(json.dumps(records.to_record(state)))
    assert record["rules"]["close_min_biribas"] == 2 and record["rules"]["name"] == "classic"
    assert records.from_record(record).history == state.history


def test_a_record_written_before_the_threes_and_venezuelan_fields_still_loads():
    """Rule fields added later (records.ADDED_RULE_FIELDS) take their defaults when a record
    lacks them, as the games of that record were played by them."""
    record = _record()
    for name in records.ADDED_RULE_FIELDS:
        del record["rules"][name]
    assert records.from_record(record).history == _state().history
    record["rules"]["red_threes_out"] = "yes"
    _refused(record, "red_threes_out")


@pytest.mark.parametrize("preset, players", [("threes", 4), ("venezuelan", 3)])
def test_threes_and_venezuelan_records_replay(preset, players):
    state = play(Game(players, preset).new_initial_state(4), [GreedyPlayer()] * players)
    record = json.loads(json.dumps(records.to_record(state)))
    again = records.from_record(record)
    assert np.array_equal(again.array, state.array)


# --- writing -----------------------------------------------------------------------------


def test_save_replaces_an_existing_file_and_leaves_no_temporary_file(tmp_path):
    path = tmp_path / "round.json"
    path.write_text("old")
    records.save(_state(), path)
    assert json.loads(path.read_text()) == _record()
    assert os.listdir(tmp_path) == ["round.json"]


def test_save_into_a_missing_directory_or_onto_a_directory_is_refused(tmp_path):
    with pytest.raises(RecordError, match="cannot write record .*No such file"):
        records.save(_state(), tmp_path / "nowhere" / "round.json")
    with pytest.raises(RecordError, match="cannot write record .*is a directory"):
        records.save(_state(), tmp_path)


def test_a_failed_save_keeps_the_old_file_and_removes_the_temporary_one(tmp_path, monkeypatch):
    path = tmp_path / "round.json"
    path.write_text("old")

    def fail(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(RecordError, match="cannot write record .*No space left on device"):
        records.save(_state(), path)
    assert path.read_text() == "old"
    assert os.listdir(tmp_path) == ["round.json"]


def test_check_writable_accepts_a_new_or_existing_file_and_leaves_it_as_it_was(tmp_path):
    new = tmp_path / "new.json"
    records.check_writable(new)
    assert not new.exists()
    old = tmp_path / "old.json"
    old.write_text("keep me")
    records.check_writable(old)
    assert old.read_text() == "keep me"


def test_check_writable_refuses_a_missing_directory_or_a_directory(tmp_path):
    with pytest.raises(RecordError, match="the directory '.*nowhere' does not exist"):
        records.check_writable(tmp_path / "nowhere" / "round.json")
    (tmp_path / "file").write_text("")
    with pytest.raises(RecordError, match="the directory '.*file' does not exist"):
        records.check_writable(tmp_path / "file" / "round.json")
    with pytest.raises(RecordError, match="cannot write record .*: it is a directory"):
        records.check_writable(tmp_path)


@pytest.mark.skipif(not os.path.exists("/proc/version"), reason="needs Linux /proc")
def test_check_writable_refuses_a_file_that_cannot_be_written():
    with pytest.raises(RecordError, match="cannot write record '/proc/version'"):
        records.check_writable("/proc/version")


# --- mangled records: RecordError or a state, nothing else ---------------------------------


_BIG = st.sampled_from([2 ** 63, 2 ** 63 - 1, -(2 ** 63) - 1, 10 ** 30, -1]) | st.just(5000).map(
    lambda digits: 10 ** digits)              # past str(int)'s digit limit
_LEAVES = (st.none() | st.booleans() | st.integers() | _BIG | st.floats()
           | st.text(max_size=8))
JSON = st.recursive(_LEAVES, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=8)
# Inside the rules also small in-range numbers, rank lists and threshold pairs: RuleSet's
# ranges and the engine's capacity checks must refuse what the numba deal cannot hold.
RULE_JSON = (JSON | st.integers(0, 400)
             | st.lists(st.lists(st.integers(-5, 5000), max_size=3), max_size=6)
             | st.lists(st.sampled_from(["A", "2", "3", "K", "Z"]), max_size=4))


def _mangle(record, data):
    operation = data.draw(st.sampled_from(
        ["delete", "replace", "add", "truncate", "swap", "action", "rule"]))
    if operation == "rule":
        rules = record.get("rules")
        if isinstance(rules, dict) and rules:
            key = data.draw(st.sampled_from(sorted(rules)))
            choice = data.draw(st.sampled_from(["delete", "replace", "truncate"]))
            if choice == "delete":
                del rules[key]
            elif choice == "replace":
                rules[key] = data.draw(RULE_JSON)
            elif isinstance(rules[key], list):
                rules[key] = rules[key][:data.draw(st.integers(0, len(rules[key])))]
        return
    containers = [record]
    if isinstance(record.get("final"), dict):
        containers.append(record["final"])
    target = data.draw(st.sampled_from(containers))
    if operation == "add":
        target[data.draw(st.text(max_size=6))] = data.draw(JSON)
        return
    if not target:
        return
    key = data.draw(st.sampled_from(sorted(target)))
    if key == "rules":
        return
    if operation == "delete":
        del target[key]
    elif operation == "replace":
        target[key] = data.draw(JSON)
    lists = [value for value in (record.get("actions"), record.get("moves"),
                                 target.get(key)) if isinstance(value, list) and value]
    if not lists:
        return
    chosen = data.draw(st.sampled_from(lists))
    if operation == "truncate":
        del chosen[data.draw(st.integers(0, len(chosen) - 1)):]
    elif operation == "swap":
        i = data.draw(st.integers(0, len(chosen) - 1))
        j = data.draw(st.integers(0, len(chosen) - 1))
        chosen[i], chosen[j] = chosen[j], chosen[i]
    elif operation == "action":
        i = data.draw(st.integers(0, len(chosen) - 1))
        chosen[i] = data.draw(JSON | st.integers(0, 2 ** 63 - 1)
                              | st.sampled_from(_record()["actions"]))


@settings(derandomize=True, max_examples=200, deadline=None)
@given(st.data())
def test_a_mangled_record_is_a_state_or_a_record_error(data):
    record = _record()
    for _ in range(data.draw(st.integers(1, 3))):
        _mangle(record, data)
    try:
        state = records.from_record(record)
    except RecordError as error:
        assert len(str(error)) < 600
    else:
        assert isinstance(state, State)
