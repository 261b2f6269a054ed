"""The hand analyzer (analysis.analyzer, ``biriba analyze``): positions in, ranked
decisions out, impossible positions refused."""

import json
from pathlib import Path

import pytest

from analysis.analyzer import Position, analyze, build_state, load_position
from analysis.cli import main
from solver.errors import BiribaError, ImpossiblePositionError
from solver.search.evaluate import MIN_SAMPLES

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_pile_whose_top_completes_the_teams_clean_biriba_is_taken():
    result = analyze(load_position(EXAMPLES / "pile_completes_a_biriba.json"),
                     iterations=300, seed=1)
    assert result.phase == "draw"
    assert result.decisions[0]["decision"] == "pile"
    assert "JH" in result.reason and "takes the pile" in result.reason
    assert "clean run biriba" in result.reason


def test_a_discard_that_gives_the_next_opponent_a_biriba_ranks_below_a_safe_one():
    result = analyze(load_position(EXAMPLES / "discard_feeds_the_opponent.json"),
                     iterations=8000, seed=1)
    rows = {row["decision"]: row for row in result.decisions}
    assert rows["discard JC"]["mean"] < rows["discard 4D"]["mean"]
    assert result.decisions[-1]["decision"] == "discard JC" or rows["discard JC"]["separated"]
    assert any("completes their run" in fact for fact in rows["discard JC"]["why"])


def test_the_table_says_why_not_for_the_clear_losses(capsys):
    code, out, _ = _run(capsys, "analyze", str(EXAMPLES / "discard_feeds_the_opponent.json"),
                        "--iterations", "8000", "--seed", "1")
    assert code == 0 and "verdict: the best is separated" in out
    [line] = [line for line in out.splitlines() if line.startswith("why not discard JC")]
    assert "JC completes their run 5C 6C 7C 8C 9C 10C into a clean run biriba" in line


def test_with_one_card_left_and_the_close_available_closing_is_best():
    position = Position(hand="KS KH KD QS", players=2, phase="play", opened=(0,),
                        table={0: ["3C 4C 5C 6C 7C 8C 9C"]}, packets_taken=(0,),
                        hand_sizes=(4, 9))
    result = analyze(position, iterations=200, seed=1)
    top = result.decisions[0]
    assert top["decision"].startswith("lay down") and top["plan"] == ["lay KS KH KD",
                                                                       "discard QS"]
    assert top["win"] > 0.9


def test_a_vulnerable_teams_laydown_below_the_minimum_is_never_offered():
    position = Position(hand="3S 4S 5S KD QD JD 9C", players=2, phase="play",
                        scores=(1000, 0), hand_sizes=(7, 11))
    result = analyze(position, iterations=60, seed=1)
    assert all(row["decision"].startswith("discard") for row in result.decisions)


def test_the_example_files_load_and_a_position_round_trips_through_json():
    for path in sorted(EXAMPLES.glob("*.json")):
        position = load_position(path)
        again = Position.from_dict(json.loads(json.dumps(position.to_dict())))
        assert again == position
        state = build_state(position)
        assert state.current_player() == position.seat


@pytest.mark.parametrize("change, needle", [
    (dict(hand="AS AS AS"), "more copies than the decks hold"),
    (dict(stock=5), "do not add up"),
    (dict(table={0: ["4H 9D QS"]}), "not a legal meld"),
    (dict(phase="discard"), "phase must be"),
    (dict(seat=3), "seat 3 is not at a 2-player table"),
    (dict(hand_sizes=(3,)), "hand_sizes has 1 entries"),
    (dict(opened=(4,)), "team 4 is not at this table"),
])
def test_impossible_positions_are_refused_with_the_reason(change, needle):
    base = dict(hand="AS 4H 5H", players=2, phase="play", pile="AS")
    with pytest.raises(ImpossiblePositionError, match=needle):
        build_state(Position(**(base | change)))


def test_analyze_json_holds_every_figure(capsys):
    code, out, _ = _run(capsys, "analyze", str(EXAMPLES / "pile_completes_a_biriba.json"),
                        "--iterations", "80", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["phase"] == "draw" and "points" in data["best_laydown"]
    for row in data["decisions"]:
        assert set(row) >= {"decision", "mean", "ci95", "win", "loss", "plan"}
    assert data["decisions"][0]["loss"] == 0


def test_analyze_and_review_take_the_expert_as_the_continuation(capsys, tmp_path):
    """--continuation expert: the samples play the expert after the decision; the same
    seed gives other figures than the greedy continuation, and the review's rating band,
    measured with greedy, is not given."""
    argv = ["analyze", str(EXAMPLES / "discard_feeds_the_opponent.json"), "--iterations",
            "300", "--json"]
    greedy = json.loads(_run(capsys, *argv)[1])
    code, out, _ = _run(capsys, *argv, "--continuation", "expert")
    expert = json.loads(out)
    assert code == 0 and expert["decisions"][0]["loss"] == 0
    assert [r["mean"] for r in expert["decisions"]] != [r["mean"] for r in greedy["decisions"]]
    from analysis.reviewer import UNCALIBRATED, review
    from solver.engine.api import Game
    from solver.engine.players import GreedyPlayer, play

    final = play(Game(2).new_initial_state(5), [GreedyPlayer(), GreedyPlayer()])
    found = review(final, [0], iterations=120, continuation="expert", between=(0, 40))
    assert found.decisions and found.summary["0"]["rating"] in (UNCALIBRATED, None)
    with pytest.raises(BiribaError, match="'random'"):
        review(final, [0], continuation="random")


def test_analyze_from_flags_prints_a_table(capsys):
    code, out, err = _run(capsys, "analyze", "--hand", "8H 9H 10H JH KS KD 4C", "--table",
                          "0:5H 6H 7H", "--pile", "3D 7S QS", "--players", "2",
                          "--hand-sizes", "7,11", "--opened", "0", "--iterations", "60")
    assert code == 0 and "decision" in out and "why:" in out and "*" in out
    assert "searching [" in err and "100%" in err          # the progress bar, on stderr
    # --iterations is the total over the two workers, and a cap: never more
    done = int(out.split(" iterations")[0].split()[-1])
    assert 0 < done <= 60


def test_analyze_weighs_every_lay_down_plan_a_player_would(capsys):
    """By default the play phase offers every plan (solver.search.plans): besides the best
    lay-down and nothing, extending the table meld alone; --plans 3 only the first two."""
    argv = ["analyze", "--hand", "8H 9H KS KD KC 4C 7D", "--table", "0:5H 6H 7H",
            "--players", "2", "--phase", "play", "--hand-sizes", "7,11", "--opened", "0",
            "--iterations", "400", "--json"]
    code, out, _ = _run(capsys, *argv)
    names = [row["decision"] for row in json.loads(out)["decisions"]]
    assert code == 0 and "extend only: extend 0 +8H 9H, then discard 4C" in names
    assert "discard 4C" in names                        # lay nothing, discard 4C
    code, out, _ = _run(capsys, *argv, "--plans", "3")
    assert code == 0 and not [n for n in json.loads(out)["decisions"]
                              if n["decision"].startswith("extend only")]


@pytest.mark.parametrize("argv, needle", [
    (["analyze"], "give a position"),
    (["analyze", "--hand", "AS 4H 5H", "--plans", "2"], "plans"),
    (["analyze", "--hand", "AS 4H", "--table", "5H 6H 7H"], "TEAM:CARDS"),
    (["analyze", "--hand", "AS 4Z"], "4Z"),
    (["analyze", "--hand", "AS 4H 5H", "--scores", "a,b"], "--scores"),
    (["analyze", "--hand", "AS 4H 5H", "--iterations", "0"], "iterations"),
    (["analyze", "/nonexistent/position.json"], "cannot read"),
    (["analyze", "--hand", "AS KS", "--hand-sizes", "5,11", "--players", "2"],
     "hand_sizes gives seat 0 5 cards, but the hand 'AS KS' holds 2"),
    (["analyze", "--hand", ""], "holds no card"),
    (["analyze", "--hand", "AS KS", "--players", "2", "--scores=-5,99999999999999999999"],
     "99999999999999999999 is not an integer"),
    (["analyze", "--hand", "AS KS", "--players", "2", "--scores", "1,2,3"],
     "scores has 3 entries"),
    (["analyze", "--hand", "AS KS", "--opened", "0,x"], "--opened"),
    (["analyze", "--hand", "AS KS", "--seed", "-3"], "seed must be"),
    (["analyze", "--hand", "AS KS", "--continuation", "random"], "'random'"),
])
def test_bad_analyze_input_is_one_line_and_exit_2(capsys, argv, needle):
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and needle in err


def test_a_record_position_is_analyzed_at_an_action(capsys, tmp_path):
    from solver.engine import records
    from solver.engine.api import Game
    from solver.engine.players import GreedyPlayer, play

    state = play(Game(2).new_initial_state(3), [GreedyPlayer(), GreedyPlayer()])
    path = tmp_path / "round.json"
    records.save(state, path)
    code, out, _ = _run(capsys, "analyze", str(path), "--at", "4", "--iterations", "30",
                        "--json")
    assert code == 0 and json.loads(out)["decisions"]
    code, _, err = _run(capsys, "analyze", str(path), "--at", "100000")
    assert code == 2 and "--at 100000" in err
    assert issubclass(ImpossiblePositionError, BiribaError)


# --- review -------------------------------------------------------------------------------------


def _joker_thrown_away():
    """A 2-player greedy round (seed 2) where seat 0 throws its joker away at action 95."""
    from solver.engine import layout as L
    from solver.engine.api import Game
    from solver.engine.players import GreedyPlayer

    state = Game(2).new_initial_state(2)
    greedy = GreedyPlayer()
    thrown = None
    while not state.is_terminal():
        action = greedy.choose(state)
        joker = (L.ACTION_DISCARD << L.TYPE_SHIFT) | L.JOKER
        if (thrown is None and state.current_player() == 0
                and action >> L.TYPE_SHIFT == L.ACTION_DISCARD
                and joker in state.legal_actions()):
            action, thrown = joker, len(state.history)
        state.apply_action(action)
    return state, thrown


def test_review_grades_a_joker_thrown_away_as_a_clear_loss():
    from analysis.reviewer import review

    state, thrown = _joker_thrown_away()
    assert thrown == 95
    result = review(state, seats=[0], seed=0, between=(thrown, thrown))
    [decision] = result.decisions
    assert decision.played == "discard JK" and decision.grade
    assert decision.loss >= 20 and decision.best != "discard JK"
    assert decision.verdict == "separated" and decision.samples >= MIN_SAMPLES
    assert result.summary["0"][decision.grade] == 1


def test_a_graded_loss_is_the_one_fresh_deals_confirm():
    """The grade's loss comes from the confirmation: the best and the played turn alone,
    evaluated on the deals of the seed seed + N + CONFIRM_SEED."""
    from analysis.reviewer import CONFIRM_SEED, MISTAKE, decision_points, review
    from solver.search.evaluate import evaluate

    state, thrown = _joker_thrown_away()
    [decision] = review(state, seats=[0], seed=4, between=(thrown, thrown)).decisions
    before, index, actions, stage = next(decision_points(state, [0], (thrown, thrown)))
    first = evaluate(before, stage, iterations=3000, seed=4 + index, workers=2,
                     played=actions, margin=MISTAKE)
    check = evaluate(before, stage, iterations=3000, seed=4 + index + CONFIRM_SEED, workers=2,
                     played=actions, margin=MISTAKE, only=(first.best.actions, actions))
    assert [f.actions for f in check.decisions] == sorted(
        [first.best.actions, tuple(actions)], key=lambda a: a != check.best.actions)
    assert decision.grade and check.played.separated
    assert decision.loss == pytest.approx(check.best.mean - check.played.mean)
    assert decision.samples == check.played.visits


def test_the_coach_grades_a_joker_thrown_away_as_the_review_does():
    from analysis.reviewer import coach
    from solver.engine.api import Game

    final, thrown = _joker_thrown_away()
    state = Game(2).new_initial_state(2)
    for action in final.history[:thrown + 1]:        # the game as it stood after the throw
        state.apply_action(action)
    [line] = coach(state, 0, thrown, thrown)
    assert "discard JK was a" in line and "points lost: discard" in line
    # graded exactly as the review grades it at the same budget and seed
    from analysis.reviewer import coach_line, review

    [same] = review(final, seats=[0], seed=0, between=(thrown, thrown)).decisions
    assert coach_line(same) == line


def test_biriba_review_prints_json_and_writes_a_png_chart(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    from solver.engine import records

    state, _ = _joker_thrown_away()
    path = tmp_path / "game.json"
    records.save(state, path)
    chart = tmp_path / "chart.png"
    code, out, _ = _run(capsys, "review", str(path), "--seat", "1", "--iterations", "8",
                        "--plot", str(chart), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["summary"]["1"]["decisions"] == len(data["decisions"]) > 10
    from analysis.reviewer import review       # the Python API takes the record's path too
    assert review(path, seats=[1], iterations=8).to_dict() == data
    header = chart.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(header[16:20], "big") == 800      # 8 x 4 inches at 100 dpi
    code, _, err = _run(capsys, "review", str(path), "--seat", "5")
    assert code == 2 and "--seat 5" in err


def test_list_flags_take_a_comma_list_the_flag_repeated_or_both(capsys):
    from analysis.cli.analyze import _position_from_args
    from analysis.cli import build_parser

    base = ["analyze", "--hand", "AS 4H 5H", "--players", "2"]
    forms = [["--opened", "0,1", "--scores", "10,20", "--hand-sizes", "3,11",
              "--packets-taken", "1"],
             ["--opened", "0", "--opened", "1", "--scores", "10", "--scores", "20",
              "--hand-sizes", "3", "--hand-sizes", "11", "--packets-taken", "1"]]
    parser = build_parser()
    made = [_position_from_args(parser.parse_args(base + form)) for form in forms]
    assert made[0] == made[1]
    assert made[0].opened == (0, 1) and made[0].scores == (10, 20)
    assert made[0].hand_sizes == (3, 11) and made[0].packets_taken == (1,)


def test_a_position_by_hand_names_the_seats_left_without_cards():
    from solver.engine.api import Game
    from solver.engine.positions import position

    with pytest.raises(ImpossiblePositionError, match="no hand for seats 1, 2, 3"):
        position(Game(4), hands={0: "4H 5H 6H"})
    assert len(position(Game(4), hands={0: "4H 5H 6H"}, empty_hands=True).hand(1)) == 0


def test_the_reasons_say_what_a_discard_feeds_and_what_the_pile_brings():
    from analysis.reasons import facts
    from solver.engine import layout as L

    state = build_state(load_position(EXAMPLES / "discard_feeds_the_opponent.json"))
    jc = next(a for a in state.legal_actions() if state.action_to_string(a) == "discard JC")
    said = facts(state, jc, [jc])
    assert any("JC completes their run 5C 6C 7C 8C 9C 10C into a clean" in s for s in said)
    assert any("the next player holds 8 cards" in s for s in said)
    four = next(a for a in state.legal_actions() if state.action_to_string(a) == "discard 4D")
    assert facts(state, four, [four])[0] == "4D fits none of the other teams' melds"
    pile = build_state(load_position(EXAMPLES / "pile_completes_a_biriba.json"))
    take = next(a for a in pile.legal_actions() if a >> L.TYPE_SHIFT == L.ACTION_PILE)
    said = facts(pile, take, [take])
    assert said[0].startswith("takes the pile (3 cards") and "clean run biriba" in said[1]


def test_a_laydown_below_the_minimum_says_what_is_missing():
    from analysis.reasons import facts
    from solver.search import decisions as D

    position = Position(hand="3S 4S 5S KD QD JD 9C", players=2, phase="play",
                        scores=(1000, 0), hand_sizes=(7, 11))
    said = facts(build_state(position), D.LAY_NONE, [])
    assert said[0] == "keeps all 7 cards" and "needed to open" in said[1]


def test_review_refuses_a_zero_budget_and_a_missing_matplotlib_before_it_starts(
        capsys, tmp_path, monkeypatch):
    import builtins

    from solver.engine import records

    state, _ = _joker_thrown_away()
    path = tmp_path / "game.json"
    records.save(state, path)
    code, _, err = _run(capsys, "review", str(path), "--iterations", "0")
    assert code == 2 and "iterations must be" in err
    code, _, err = _run(capsys, "review", str(path), "--seed", "-1")
    assert code == 2 and "seed must be" in err
    real = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    code, out, err = _run(capsys, "review", str(path), "--plot", str(tmp_path / "c.png"))
    assert code == 2 and "--plot needs matplotlib" in err and "reviewing" not in err


def test_review_writes_a_self_contained_html_report(capsys, tmp_path):
    from solver.engine import records

    state, thrown = _joker_thrown_away()
    path = tmp_path / "game.json"
    records.save(state, path)
    report = tmp_path / "review.html"
    code, out, _ = _run(capsys, "review", str(path), "--seat", "0", "--iterations", "400",
                        "--html", str(report))
    assert code == 0 and "accuracy" in out
    page = report.read_text()
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page and "<script" not in page
    assert "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert f'value="{thrown}">seat 0: discard JK' in page


def test_the_reasons_say_when_the_last_card_closes_or_brings_the_packet():
    from analysis.reasons import facts
    from solver.search.evaluate import turns_of

    base = dict(hand="KS KH KD QS", players=2, phase="play", opened=(0,),
                table={0: ["3C 4C 5C 6C 7C 8C 9C"]}, hand_sizes=(4, 9))
    for taken, last in (((), "the last card: the team's packet comes next"),
                        ((0,), "the last card: it closes the round")):
        state = build_state(Position(**base, packets_taken=taken))
        turn = next(t for t in turns_of(state) if t.name == "lay KS KH KD, then discard QS")
        said = facts(state, turn.code, turn.actions)
        assert said[0] == "lays KS KH KD: +30 points on the table" and said[-1] == last


def test_the_rating_band_names_the_calibrated_players_the_interval_reaches():
    from analysis.reviewer import CALIBRATION, rating

    assert [name for name, _ in CALIBRATION] == ["ISMCTS 0.5 s", "greedy", "random"]
    assert rating(27.0, 5.0) == "like greedy"
    assert rating(17.0, 3.0) == "between greedy and ISMCTS 0.5 s"
    assert rating(2.0, 1.0) == "stronger than ISMCTS 0.5 s"
    assert rating(120.0, 10.0) == "weaker than random"
    assert rating(17.0, 12.0) == "like ISMCTS 0.5 s or greedy"


def test_a_review_at_another_budget_gives_no_rating_band():
    """The bands are measured at the review's default budget; fewer samples separate fewer
    losses, so a thin review would call a seat stronger than it is."""
    from analysis.reviewer import UNCALIBRATED, Reviewed, summary

    found = [Reviewed(i, 0, "discard 4D", "discard 4D", -10.0, -10.0, 0.0, "", "best", 40,
                      False, "", [], None) for i in range(25)]
    assert summary(found, [0])["0"]["rating"] == "stronger than ISMCTS 0.5 s"
    assert summary(found, [0], calibrated=False)["0"]["rating"] == UNCALIBRATED
    assert summary(found[:5], [0], calibrated=False)["0"]["rating"] is None
