"""Reliability: no traceback on any input, nothing played lost, a terminal game that helps.

Clause numbers are those of docs/rules.md (the same as RULES.md).
"""

import json
import subprocess
import sys

import pytest
from pathlib import Path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analysis import moves, play
from analysis.cli import main
from analysis import warm
from solver.engine.api import Game
from solver.engine.positions import position
from solver.engine.scoring import round_breakdown
from solver.engine.players import GreedyPlayer, play as play_out


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def answers(monkeypatch, *texts, then=EOFError):
    queue = list(texts)

    def ask(prompt=""):
        if queue:
            return queue.pop(0)
        raise then

    monkeypatch.setattr("builtins.input", ask)


@pytest.mark.parametrize("argv, needle", [
    (["best", "AS 2S 3S", "--solver", "cpsat", "--time-limit", "nan"], "time limit nan"),
    (["best", "AS 2S 3S", "--solver", "cpsat", "--time-limit", "inf"], "time limit inf"),
    (["simulate", "--seed", "99999999999999999999999"], "seed 99999999999999999999999"),
    (["simulate", "--seed", "9223372036854775807", "--games", "2"], "2 games use seeds"),
    (["simulate", "--seed", "-1"], "seed -1 must be"),
    (["play", "--seed", "99999999999999999999999"], "seed 99999999999999999999999"),
    (["play", "--seed", "9223372036854775808"], "seed 9223372036854775808"),
    (["simulate", "--max-actions", "0"], "--max-actions must be 1.."),
    (["simulate", "--max-actions", "-5"], "--max-actions must be 1.."),
    (["simulate", "--p4", "greedy"], "--p4 names seat 4, but 4 players"),
    (["rules", "classic", "--option", "individual"], "belongs to partnership"),
    (["meld", "AS AS AS AS"], "4 copies of AS"),
    (["meld", " ".join(["5H"] * 10)], "10 copies of 5H"),
    (["meld", "AS AS AS AS", "--players", "6"], "6 players play with 3"),
    (["play", "--save", "/nonexistent/dir/x.json"], "does not exist"),
    (["simulate", "--players", "5"], "invalid choice"),
])
def test_bad_input_is_one_line_on_stderr_and_exit_2(capsys, monkeypatch, argv, needle):
    answers(monkeypatch)
    code, out, err = run(capsys, *argv)
    assert code == 2 and needle in err and err.count("\n") == 1, err


def test_play_save_to_a_directory_is_refused_before_the_game(capsys, monkeypatch, tmp_path):
    answers(monkeypatch, then=AssertionError("the game must not start"))
    code, out, err = run(capsys, "play", "--save", str(tmp_path))
    assert code == 2 and "is a directory" in err and out == ""


def test_meld_takes_three_decks_with_six_players(capsys):
    code, out, _ = run(capsys, "meld", "AS AS AS", "--players", "6", "--json")
    assert code == 0 and json.loads(out)["valid"] is not False


def test_ctrl_c_at_the_prompt_leaves_cleanly_and_saves(capsys, monkeypatch, tmp_path):
    path = tmp_path / "g.json"
    answers(monkeypatch, "draw", then=KeyboardInterrupt)
    code, out, err = run(capsys, "play", "--seed", "2", "--seat", "1", "--save", str(path))
    assert code == 130 and "interrupted" in err and "Traceback" not in err
    record = json.loads(path.read_text())
    assert record["moves"][-1] == "draw" and record["final"]["terminal"] is False
    # and the saved game resumes where it stopped: seat 1 to play after its draw
    answers(monkeypatch, "q")
    code, out, _ = run(capsys, "play", "--resume", str(path), "--seat", "1")
    assert code == 0 and "phase play" in out and "your hand (seat 1)" in out


def test_ctrl_c_during_simulate_reports_the_games_played(capsys, monkeypatch):
    from solver.engine import playout

    real = playout.play_many
    calls = []

    def interrupted(*args):
        if calls:
            raise KeyboardInterrupt
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(playout, "play_many", interrupted)
    monkeypatch.setattr(warm, "is_compiled", lambda part: True)    # no warm-up call first
    code, out, err = run(capsys, "simulate", "--games", "100", "--quiet", "--json")
    data = json.loads(out)
    assert code == 130 and data["interrupted"] and 0 < data["games"] < 100
    assert "interrupted" in err


def test_simulate_counts_games_cut_off_apart_from_ties(capsys):
    code, out, _ = run(capsys, "simulate", "--games", "4", "--max-actions", "5", "--json")
    data = json.loads(out)
    assert data["cut_off"] == 4 and data["ties"] == 0 and data["finished"] == 0
    code, out, _ = run(capsys, "simulate", "--games", "4", "--max-actions", "5")
    assert "stopped at --max-actions 5" in out


def test_typed_meld_in_any_order_and_refusals_with_reasons(capsys, monkeypatch):
    state = position(Game(4), empty_hands=True, hands={0: "QS KS AS 4H 9D"}, table={0: ["9C 10C JC"]},
                     phase="play")
    listed = moves.describe(state)
    lay = moves.parse_move(state, "lay AS KS QS", listed)
    assert lay.text == "lay AS QS KS" and lay.points == 35      # typed in another order
    extend = [m for m in listed if m.group == "extend"]
    assert all(m.points is not None for m in extend)
    with pytest.raises(moves.Refusal, match="seat 0 holds no 7H"):
        moves.parse_move(state, "lay 7H 8H 9H", listed)
    with pytest.raises(moves.Refusal, match="not a legal meld"):
        moves.parse_move(state, "lay 4H 9D QS", listed)
    with pytest.raises(moves.Refusal, match="no table meld 5"):
        moves.parse_move(state, "extend 5 QS", listed)
    with pytest.raises(moves.Refusal, match="does not fit table meld 0"):
        moves.parse_move(state, "extend 0 4H", listed)


def test_typed_frozen_pile_pickups_and_black_three_refusals():
    """threes (D31): 'pile with CARDS' in any order; a plain 'pile' says why it cannot be."""
    game = Game(4, "threes")
    state = position(game, empty_hands=True, hands={0: "QS QD JK 9S 10C JC"}, pile="5C 3C 6C QC", phase="draw")
    listed = moves.describe(state)
    assert moves.parse_move(state, "pile QD QC QS", listed).text == "pile with QS QD QC"
    assert [m.points for m in listed if m.text.startswith("pile with")] == [30, 30]
    with pytest.raises(moves.Refusal, match="pile with CARDS"):
        moves.parse_move(state, "pile", listed)
    with pytest.raises(moves.Refusal, match="only with 'pile with"):
        moves.parse_move(state, "pile with 9S 10S JS", listed)
    top = position(game, empty_hands=True, hands={0: "QS QD 9S"}, pile="5C 6C QC 3S", phase="draw")
    with pytest.raises(moves.Refusal, match="black three .3S. was just discarded"):
        moves.parse_move(top, "pile", moves.describe(top))


def test_venezuelan_lays_show_the_in_the_hand_value():
    state = position(Game(4, "venezuelan"), empty_hands=True, hands={0: "4H 5H 6H 7H 8H 9H 10H KS"},
                     phase="play")
    whole = [m for m in moves.describe(state) if m.text == "lay 4H 5H 6H 7H 8H 9H 10H"]
    assert whole[0].points == 50 + 300 and whole[0].biriba.endswith("+300")


def test_a_move_making_a_biriba_is_marked_with_its_bonus():
    state = position(Game(4), empty_hands=True, hands={0: "10H JH QH KS 4D"}, table={0: ["6H 7H 8H 9H"]},
                     phase="play")
    extend = [m for m in moves.describe(state) if m.text == "extend 0 +10H JH QH"]
    assert extend and extend[0].biriba == "clean run biriba +200"
    assert "[clean run biriba +200]" not in str(state)


def test_table_labels_biribas_and_the_header_names_the_trump_choice():
    state = position(Game(4), empty_hands=True, hands={0: "4D 5S"}, table={0: ["6H 7H 8H 9H 10H JH QH"]},
                     phase="play", trump="S")
    assert "[clean run biriba +200]" in str(state)
    choosing = Game(4).new_initial_state(0)
    while choosing.phase != "choose_trump" and choosing.legal_actions() != []:
        break
    from solver.engine.render import _trump_text

    class Choosing:
        phase = "choose_trump"
        game = choosing.game
        trump = None

    assert _trump_text(Choosing()) == "being chosen"


def test_the_drawn_card_is_shown(capsys, monkeypatch):
    answers(monkeypatch, "draw", "q")
    code, out, _ = run(capsys, "play", "--seed", "2", "--seat", "1")
    assert code == 0 and "you drew: " in out


def test_hint_names_the_evaluations_best_with_its_reason_and_the_best_lay_down(capsys,
                                                                              monkeypatch):
    answers(monkeypatch, "draw", "hint", "q")
    code, out, _ = run(capsys, "play", "--seed", "2", "--seat", "1")
    assert "hint: " in out and "the best lay-down now is worth" in out
    assert "the evaluation (" in out and " ± " in out and "points, wins" in out


def test_the_hint_never_leads_with_the_discard_that_feeds_the_opponent():
    """examples/discard_feeds_the_opponent.json: JC completes the opponents' six-card club
    run; the hint is the evaluation's best, and says what it feeds."""
    from analysis.analyzer import build_state, load_position
    from analysis.play import _hint

    state = build_state(load_position(EXAMPLES / "discard_feeds_the_opponent.json"))
    first = _hint(state).splitlines()[0]
    assert first.startswith("  hint: discard") and "JC" not in first.split("(")[0]


def test_a_long_move_list_is_grouped_and_filtered():
    hand = "AS 2S 3S 4S 5S 6S 7S 8S 9S AH 2H 3H 4H 5H 6H 7H 8H 9H 4D 4C 5D 5C JK 9C 9D"
    state = position(Game(4), empty_hands=True, hands={0: hand}, phase="play")
    listed = moves.describe(state)
    assert len(listed) > 100
    lines = moves.listing(listed)
    assert len(lines) < 60 and any("more: type 'lay'" in line for line in lines)
    assert len(moves.listing(listed, "lay")) > 60


@pytest.mark.parametrize("preset", ["classic", "threes"])
def test_7_round_breakdown_adds_up_to_the_round_scores(preset):
    reds = 0
    for seed in range(4):
        state = Game(4, preset).new_initial_state(seed)
        play_out(state, [GreedyPlayer() for _ in range(4)])
        rows = round_breakdown(state)
        assert [row.total for row in rows] == state.round_scores()
        for row in rows:
            assert row.total == (row.melds + row.bonuses + row.closing + row.hands
                                 + row.packet + row.red_threes)
            reds += abs(row.red_threes)
    assert (reds > 0) == (preset == "threes")


def test_the_round_summary_is_printed_at_the_end_of_a_round(capsys, monkeypatch):
    # the human at seat 0 draws and discards its first card every turn
    def ask(prompt=""):
        return "0"

    monkeypatch.setattr("builtins.input", ask)
    code, out, _ = run(capsys, "play", "--seed", "4", "--players", "2", "--opponents",
                       "greedy")
    assert code == 0 and "round over" in out and "in hand" in out and "packet" in out


def test_replay_moves_lists_who_played(capsys, tmp_path, monkeypatch):
    path = tmp_path / "g.json"
    answers(monkeypatch, "draw", "q")
    run(capsys, "play", "--seed", "2", "--seat", "1", "--save", str(path))
    code, out, _ = run(capsys, "replay", str(path), "--moves")
    assert code == 0 and "seat 0: " in out and "seat 1: draw" in out


def _idle_worker(part):
    """A compile worker that compiles nothing (the parallel path without the minutes)."""
    return subprocess.Popen([sys.executable, "-c", ""], stderr=subprocess.PIPE, text=True)


def test_a_first_run_says_on_stderr_that_it_compiles(monkeypatch):
    said = []
    monkeypatch.setattr(warm, "is_compiled", lambda part: False)
    monkeypatch.setattr(warm, "_compile", lambda part: None)
    monkeypatch.setattr(warm, "mark_compiled", lambda part: None)
    monkeypatch.setattr(warm, "_start", _idle_worker)
    warm.ensure_compiled("play", said.append)
    assert "numba compiles the game engine" in said[0]
    assert any("the greedy player" in text for text in said)

def test_the_kernels_warm_up_compiles_what_a_big_hand_with_table_melds_needs(capsys):
    """`biriba compile` marked the kernels compiled after a 4-card warm-up, so the first
    45-card hand with table melds compiled the linear-programme bound silently (13 s after
    `biriba compile`): the warm-up now runs that search, and the CLI compiles nothing more."""
    import numba

    import sys

    from kernels import lp_bound, partition_numba  # noqa: F401  (loads every kernel module)
    from solver.instances import random_instance

    def compiled():
        """Per kernel function, the signatures numba compiled in this process (not those
        it loaded from the disk cache, which a process does at a function's first call)."""
        kernels = [module for name, module in sorted(sys.modules.items())
                   if name.startswith("kernels.") and module is not None]
        return {(module.__name__, name): sum(value.stats.cache_misses.values())
                for module in kernels
                for name, value in vars(module).items()
                if isinstance(value, numba.core.registry.CPUDispatcher)}

    if not compiled():
        pytest.skip("numba's JIT is off")
    warm._compile_priced()
    before = compiled()
    instance = random_instance(515001, hand_size=45, table_melds=10, opened=True)
    argv = ["best", str(instance.hand), "--opened", "--solver", "kernel"]
    for meld in instance.table:
        argv += ["--table", str(meld)]
    for backend in ("numba", "cython"):
        code, _, err = run(capsys, *argv, "--backend", backend)
        assert code == 0, err
    assert compiled() == before



@pytest.mark.parametrize("hand, announced", [
    ("4H 5H 6H KS KD KC AS", False),  # below PRICED_CARDS: the default backend answers
    ("4H 5H 2C 7H 8H 9H 10H KS KD KC AS 3S JK QS 6D 7D 8D 9D 10D JD QD KD AH AH 2S", True),
])
def test_best_says_numba_compiles_when_the_dispatcher_routes_to_it(capsys, monkeypatch, hand,
                                                                 announced):
    # from PRICED_CARDS cards both compiled backends bound their search by numba's
    # linear programme: its first run must be announced even where Cython is the default
    monkeypatch.delenv("BIRIBA_BACKEND", raising=False)
    monkeypatch.setattr(warm, "is_compiled", lambda part: False)
    monkeypatch.setattr(warm, "compile_engine", lambda parts, report: None)
    code, _, err = run(capsys, "best", hand, "--solver", "kernel")
    assert code == 0
    assert ("numba compiles the lay-down kernels" in err) == (
        announced or _default_is_numba())


def _default_is_numba():
    from kernels.partition import resolve_backend

    return resolve_backend(None) == "numba"


def test_compile_command_reports(capsys):
    code, out, err = run(capsys, "compile")
    assert code == 0 and "compiled" in out
    code, out, err = run(capsys, "compile", "kernel")
    assert code == 2 and out == ""
    assert err.strip().splitlines() == ["biriba: error: no part 'kernel' to compile (parts: "
                                        "kernels rules greedy priced search playout count "
                                        "expert)"]


# --- the fuzz test: random command lines end cleanly --------------------------------------

CARDS = st.lists(st.sampled_from(["AS", "2S", "KH", "JK", "10D", "5Z", "QC", "2H", "*", "T9",
                                  "", "3S", "4S", "♠A", "aS"]), max_size=14).map(" ".join)
VALUES = st.sampled_from(["0", "-1", "1", "2", "3", "7", "nan", "inf", "1e400", "abc", "",
                          "99999999999999999999999", "9223372036854775807", "greedy",
                          "classic", "threes", "partnership", "individual", "H", "Z"])
FLAGS = st.sampled_from(["--rules", "--option", "--trump", "--keep", "--table", "--score",
                         "--must-use", "--players", "--solver", "--time-limit", "--objective",
                         "--backend", "--seed", "--games", "--max-actions", "--p0", "--p5",
                         "--seat", "--opponents", "--json", "--opened", "--match", "--quiet"])


@st.composite
def command_lines(draw):
    command = draw(st.sampled_from(["meld", "partitions", "best", "rules", "simulate", "play",
                                    "replay", "nosuch"]))
    argv = [command]
    if command in ("meld", "partitions", "best"):
        argv.append(draw(CARDS))
    elif command == "rules":
        argv.append(draw(VALUES))
    elif command == "replay":
        argv.append(draw(st.sampled_from(["/dev/null", "/nonexistent", "/etc/hostname"])))
    for _ in range(draw(st.integers(0, 4))):
        argv.append(draw(FLAGS))
        if draw(st.booleans()):
            argv.append(draw(VALUES))
    return argv


@settings(derandomize=True, max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(argv=command_lines())
def test_random_command_lines_end_in_a_result_or_one_error_line(capsys, monkeypatch, argv):
    if "simulate" in argv[:1]:
        argv += ["--games", "2", "--max-actions", "400"]
    answers(monkeypatch)        # play: the input ends at once
    code = main(argv)
    err = capsys.readouterr().err
    assert code in (0, 2)
    if code == 2:
        assert err.startswith("biriba: error: ") and err.count("\n") == 1, err


def test_a_bad_backend_in_the_environment_is_one_error_line(capsys, monkeypatch):
    monkeypatch.setenv("BIRIBA_BACKEND", "nonsense")
    code, out, err = run(capsys, "best", "AS 2S 3S")
    assert code == 2 and "unknown BIRIBA_BACKEND 'nonsense'" in err and err.count("\n") == 1


def test_the_kernels_errors_belong_to_the_family():
    from kernels import errors as kernel_errors
    from kernels.sweep_plan import NotSweepable
    from solver.errors import BiribaError

    assert BiribaError is kernel_errors.BiribaError
    for error in (kernel_errors.KernelInputError, kernel_errors.BackendError,
                  kernel_errors.CountOverflowError, NotSweepable):
        assert issubclass(error, BiribaError) and issubclass(error, ValueError)
    assert issubclass(kernel_errors.CountOverflowError, OverflowError)


def test_the_numba_backend_says_when_it_compiles(capsys, monkeypatch):
    monkeypatch.setattr(warm, "is_compiled", lambda part: False)
    monkeypatch.setattr(warm, "_compile", lambda part: None)
    monkeypatch.setattr(warm, "mark_compiled", lambda part: None)
    monkeypatch.setattr(warm, "_start", _idle_worker)
    code, out, err = run(capsys, "partitions", "AS 2S 3S", "--backend", "numba")
    assert code == 0 and "numba compiles the lay-down kernels" in err
    code, out, err = run(capsys, "partitions", "AS 2S 3S", "--backend", "cython")
    assert code == 0 and err == ""
