"""``biriba simulate``, ``biriba play`` and ``biriba replay``."""

import json

import pytest

from analysis.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_simulate_json_contract(capsys):
    code, out, err = run(capsys, "simulate", "--players", "4", "--rules", "classic", "--games",
                         "30", "--seed", "3", "--p0", "greedy", "--p2", "greedy", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 30
    assert len(data["wins"]) == len(data["mean_scores"]) == len(data["ci95"]) == 2
    assert sum(data["wins"]) + data["ties"] == 30
    assert data["wins"][0] > data["wins"][1]          # greedy beats random
    assert data["mean_scores"][0] > data["mean_scores"][1]
    again = json.loads(run(capsys, "simulate", "--games", "30", "--seed", "3", "--p0", "greedy",
                           "--p2", "greedy", "--json")[1])
    assert again["wins"] == data["wins"] and again["mean_scores"] == data["mean_scores"]


def test_simulate_readable_table_with_progress(capsys):
    code, out, err = run(capsys, "simulate", "--players", "3", "--games", "6", "--rules", "greek")
    assert code == 0
    assert "win rate" in out and "seat 2" in out and "actions/s" in out
    assert "6/6 games" in err


@pytest.mark.parametrize("preset", ["classic", "cyprus", "partnership", "greek", "barimba",
                                    "threes", "venezuelan"])
def test_simulate_plays_every_preset(capsys, preset):
    """RULES.md §8: every preset is playable (no preset is left to the meld rules only)."""
    code, out, err = run(capsys, "simulate", "--rules", preset, "--games", "3", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 3 and sum(data["wins"]) + data.get("ties", 0) == 3


def test_play_in_the_terminal_then_replay(capsys, monkeypatch, tmp_path):
    answers = iter(["draw", "999", "nonsense", "0", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    path = tmp_path / "game.json"
    code, out, _ = run(capsys, "play", "--seed", "2", "--seat", "1", "--save", str(path))
    assert code == 0
    assert "your hand (seat 1)" in out and "seat 0:" in out
    assert "'nonsense' is not a move" in out
    assert "choose a number from 0 to" in out
    assert "record written" in out
    code, out, _ = run(capsys, "replay", str(path), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["actions"] >= 2 and data["terminal"] is False


def test_play_with_the_coach_judges_each_decision(capsys, monkeypatch):
    # a pickup, then a discard: the coach speaks after the pickup and after the turn's
    # last decision (the discard), never about the computer's moves
    answers = iter(["draw", "0", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    code, out, _ = run(capsys, "play", "--players", "2", "--seed", "3", "--coach")
    assert code == 0
    lines = [line for line in out.splitlines() if "coach:" in line]
    assert len(lines) == 2
    assert lines[0].strip().startswith("coach: draw")
    # seat 1 takes the pile and lays the ace: the coach saw it coming
    assert "discard AS was a blunder" in lines[1] and "was better" in lines[1]


def test_play_ends_quietly_at_end_of_input(capsys, monkeypatch):
    def no_more(prompt=""):
        raise EOFError

    monkeypatch.setattr("builtins.input", no_more)
    code, out, _ = run(capsys, "play", "--players", "2", "--seat", "0")
    assert code == 0 and "game left" in out


@pytest.mark.parametrize("argv, needle", [
    (["play", "--seat", "7"], "--seat must be 0..3"),
    (["replay", "/nonexistent/record.json"], "cannot read record"),
    (["simulate", "--games", "0"], "--games must be 1..10000000"),
])
def test_game_commands_bad_input_is_one_line_and_exit_2(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2 and needle in err and err.count("\n") == 1
