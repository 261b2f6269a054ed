"""The ``biriba`` command line: JSON contract, readable output, exit codes."""

import json
import subprocess
import sys

import pytest

from analysis.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_meld_json_valid(capsys):
    code, out, err = run(capsys, "meld", "4H 5H 6H 7H 8H 9H 10H", "--trump", "H", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data == {
        "valid": True, "kind": "run", "suit": "H", "rank": None, "clean": True, "wilds": 0,
        "biriba": "trump", "bonus": 600, "points": 650,
        "cards": ["4H", "5H", "6H", "7H", "8H", "9H", "10H"],
    }


def test_meld_json_invalid_is_exit_zero(capsys):
    code, out, _ = run(capsys, "meld", "5H 6H JK JK", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["valid"] is False and "at most 1" in data["reason"]
    assert set(data) == {"valid", "reason"}


def test_meld_readable(capsys):
    code, out, _ = run(capsys, "meld", "4h 5h 2c 7h")
    assert code == 0
    assert "run of H, dirty" in out and "wild may stand for  6" in out and "points" in out


def test_meld_set_of_twos_json(capsys):
    _, out, _ = run(capsys, "meld", "2S 2H 2D JK", "--json")
    data = json.loads(out)
    assert (data["kind"], data["rank"], data["suit"], data["wilds"]) == ("set", "2", None, 1)


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["meld", "4H 5X 6H"], "'5X' at position 2"),
        (["meld", "4H 5H 6H", "--rules", "nope"], "unknown rule preset 'nope'"),
        (["meld", "4H 5H 6H", "--trump", "X"], "invalid trump suit 'X'"),
        (["meld", "4H 5H 6H", "--rules", "partnership", "--trump", "H"], "no trump"),
        (["meld"], "arguments are required"),
        (["rules", "nope"], "unknown rule preset"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert needle in err and err.count("\n") == 1 and "Traceback" not in err


def test_rules_json(capsys):
    code, out, _ = run(capsys, "rules", "greek", "--json")
    data = json.loads(out)
    assert code == 0 and data["name"] == "greek" and data["trump_full_clean"] == 2000
    assert data["sets_allowed"] is False


def test_rules_lists_presets(capsys):
    _, out, _ = run(capsys, "rules")
    for name in ("classic", "cyprus", "partnership", "greek", "barimba", "threes", "venezuelan"):
        assert name in out


def test_console_script_entry_point():
    completed = subprocess.run(
        [sys.executable, "-m", "analysis", "meld", "AS 2S 3S", "--json"],
        capture_output=True, text=True, check=False,
    )
    assert completed.returncode == 0
    assert json.loads(completed.stdout)["clean"] is True
