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


def test_best_json_contract(capsys):
    code, out, err = run(capsys, "best", "4H 5H 6H 7H 8H 9H 10H KS KD", "--trump", "H", "--json",
                         "--backend", "python")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert isinstance(data.pop("seconds"), float)
    assert data == {
        "points": 650, "melds": [["4H", "5H", "6H", "7H", "8H", "9H", "10H"]],
        "extensions": [], "left": ["KS", "KD"], "optimal": True, "feasible": True,
        "goes_out": False, "solver": "kernel", "backend": "python",
    }


def test_best_readable_lists_melds(capsys):
    code, out, _ = run(capsys, "best", "AS 2S 3S 7H 7D 7C KC", "--keep", "1")
    assert code == 0
    assert "run of S, clean" in out and "set of 7, clean" in out and "left in hand: KC" in out


def test_best_keep_zero_empties_the_hand(capsys):
    _, out, _ = run(capsys, "best", "AS 2S 3S 7H 7D 7C", "--keep", "0", "--json")
    data = json.loads(out)
    assert data["left"] == [] and data["points"] == 30 + 15


@pytest.mark.parametrize("backend", ["python", "numba", "cython"])
def test_partitions_json_every_backend(capsys, backend):
    code, out, _ = run(capsys, "partitions", "AS 2S 3S 4S 5S JK 5H 5D 5C", "--json",
                       "--backend", backend)
    data = json.loads(out)
    assert code == 0 and data["count"] == 254 and data["backend"] == backend
    assert data["seconds"] >= 0


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["best", "AS 2S 3S", "--keep", "4"], "cannot keep 4"),
        (["best", "AS 2S QQ"], "'QQ' at position 3"),
        (["best", "AS 2S 3S", "--backend", "gpu"], "invalid choice: 'gpu'"),
        (["partitions", "AS AS AS AS"], "more copies"),
        (["best", "AS 2S 3S", "--keep", "x"], "invalid int value: 'x'"),
        (["best", "8H 9H", "--table", "5H 6H"], "table meld 0 '5H 6H' is not a legal meld"),
        (["best", "8H 9H", "--table", "5H 6H 7H", "--table", "KS QD JC"],
         "table meld 1 'KS QD JC' is not a legal meld"),
        (["best", "8H 9H 7C", "--table", "7C 7C 7D"], "3 copies of 7C"),
        (["best", "8H 9H", "--must-use", "9C"], "must-use card(s) '9C'"),
        (["best", "8H 9H", "--solver", "glpk"], "invalid choice: 'glpk'"),
    ],
)
def test_laydown_bad_input_is_one_line_exit_2(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and needle in err and err.count("\n") == 1


# --- best with the team's table melds (optimizer) -------------------------------------


def test_best_with_table_json_gives_extensions(capsys):
    argv = ["best", "8H 9H KS 3C 3D 3S", "--table", "5H 6H 7H", "--table", "QC QD QS",
            "--json"]
    code, out, err = run(capsys, *argv)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["extensions"] == [{"table_index": 0, "cards": ["8H", "9H"], "points": 20}]
    assert data["melds"] == [["3S", "3D", "3C"]] or sorted(data["melds"][0]) == ["3C", "3D", "3S"]
    assert data["points"] == 35 and data["solver"] == "kernel" and data["left"] == ["KS"]
    code, out, _ = run(capsys, *argv, "--solver", "cpsat")
    cpsat = json.loads(out)
    assert cpsat["points"] == 35 and cpsat["solver"] == "cpsat" and cpsat["optimal"] is True


def test_best_readable_names_the_table_meld_extended(capsys):
    code, out, _ = run(capsys, "best", "8H 9H KS", "--table", "5H 6H 7H")
    assert code == 0
    assert "+ 8H 9H" in out and "onto table meld 0 (5H 6H 7H)" in out and "left in hand: KS" in out


def test_best_score_makes_the_team_vulnerable(capsys):
    # RULES.md §6: classic 1000-1499 needs 75; 4H 5H 6H is worth 15.
    code, out, _ = run(capsys, "best", "4H 5H 6H KS", "--score", "1200")
    assert code == 0 and "at least 75" in out and "nothing to lay down" in out
    code, out, _ = run(capsys, "best", "4H 5H 6H KS", "--score", "1200", "--opened", "--json")
    assert json.loads(out)["points"] == 15


def test_best_must_use_that_fits_nowhere_is_reported(capsys):
    code, out, _ = run(capsys, "best", "4H 5H 6H 9C", "--must-use", "9C", "--json")
    data = json.loads(out)
    assert code == 0 and data["feasible"] is False and data["melds"] == []
    code, out, _ = run(capsys, "best", "4H 5H 6H 9C", "--must-use", "9C")
    assert "no lay-down meets the constraints (must use 9C)" in out


def test_best_objective_out(capsys):
    code, out, _ = run(capsys, "best", "3H 4H 5H KS KD KC 9C", "--objective", "out")
    assert code == 0 and "goes out: yes" in out
    code, out, _ = run(capsys, "best", "3H 4H 5H KS KD 9C", "--objective", "out", "--json")
    assert json.loads(out)["goes_out"] is False


def test_best_cpsat_time_limit_without_a_solution_is_reported(capsys):
    from solver.instances import random_instance

    hand = str(random_instance(2, hand_size=45, table_melds=10).hand)
    code, out, _ = run(capsys, "best", hand, "--solver", "cpsat", "--time-limit", "0.0001",
                       "--json")
    data = json.loads(out)
    assert code == 0 and data["feasible"] is False and data["optimal"] is False
    code, out, _ = run(capsys, "best", hand, "--solver", "cpsat", "--time-limit", "0.0001")
    assert "no lay-down within the time limit" in out
