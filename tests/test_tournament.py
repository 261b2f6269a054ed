"""Tournaments: pairings on the same duplicate deals, ratings with intervals, a log that
loses nothing and a resume that ends where a straight run ends."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from analysis import ratings as R
from analysis import tournament as T
from analysis.cli import main
from solver.errors import BiribaError

ENTRANTS = ["random", "greedy", "ismcts:iterations=3"]


def _untimed(result):
    """The results without the clock's figures."""
    return ([{k: v for k, v in row.items() if k != "seconds_per_decision"}
             for row in result["pairings"]], result["ratings"], result["pairs"])


def test_pairings_of_each_format():
    assert T.pairings(3, "round-robin") == [(0, 1), (0, 2), (1, 2)]
    assert T.pairings(3, "gauntlet") == [(0, 1), (0, 2)]
    with pytest.raises(BiribaError):
        T.pairings(3, "swiss")


def test_bradley_terry_orders_players_and_keeps_a_sweep_finite():
    games = ([(0, 1, 1.0)] * 8 + [(0, 1, 0.0)] * 2 + [(1, 2, 1.0)] * 8 + [(1, 2, 0.0)] * 2)
    ratings = R.fit(3, games)
    assert ratings[0] > ratings[1] > ratings[2]
    assert abs(ratings.sum()) < 1e-9
    # 8 of 10: about 400 log10(4) = 241 Elo points between neighbours, less the prior's pull
    assert 150 < ratings[0] - ratings[1] < 241
    assert np.allclose(R.fit(2, [(0, 1, 1.0), (0, 1, 0.0)]), 0.0)
    swept = R.fit(2, [(0, 1, 1.0)] * 20)
    assert np.all(np.isfinite(swept)) and swept[0] > swept[1]


def test_the_bootstrap_interval_holds_the_fit_and_shrinks_with_more_deals():
    def games(deals):
        rng = np.random.default_rng(1)
        return {d: [(0, 1, float(rng.random() < 0.7))] for d in range(deals)}

    few = R.bootstrap(2, games(20), 0, 200, 0)
    many = R.bootstrap(2, games(400), 0, 200, 0)
    for rated, low, high in (few, many):
        assert rated[0] == 0.0 and low[1] <= rated[1] <= high[1]
    assert many[2][1] - many[1][1] < few[2][1] - few[1][1]


def test_bad_settings_are_refused_before_any_game():
    with pytest.raises(BiribaError, match="2..16 players"):
        T.settings(["greedy"])
    with pytest.raises(BiribaError, match="named twice"):
        T.settings(["greedy", "greedy"])
    with pytest.raises(BiribaError, match="iters"):
        T.settings(["greedy", "ismcts:iters=3"])
    with pytest.raises(BiribaError, match="--deals"):
        T.settings(["greedy", "random"], deals=0)


def test_a_tournament_stopped_and_resumed_ends_as_one_run_straight_through(tmp_path):
    config = T.settings(ENTRANTS, deals=2, seed=40)
    straight_log = tmp_path / "straight.jsonl"
    straight = T.run(config, str(straight_log))
    assert straight["pairs"] == straight["pairs_planned"] == 6
    lines = straight_log.read_text().splitlines()
    assert json.loads(lines[0])["entrants"] == ENTRANTS and len(lines) == 7
    stopped = tmp_path / "stopped.jsonl"
    stopped.write_text("\n".join(lines[:3]) + "\n")       # the settings and two pairs
    resumed = T.run(config, str(stopped), resume=True)
    assert _untimed(resumed) == _untimed(straight)
    assert len(stopped.read_text().splitlines()) == 7
    # two workers play the same pairs
    parallel = T.run(config, None, workers=2)
    assert _untimed(parallel) == _untimed(straight)


def test_the_log_is_never_overwritten_and_a_foreign_log_is_refused(tmp_path):
    log = tmp_path / "t.jsonl"
    log.write_text("something\n")
    config = T.settings(["greedy", "random"], deals=1)
    with pytest.raises(BiribaError, match="exists"):
        T.run(config, str(log))
    with pytest.raises(BiribaError, match="not JSON lines"):
        T.read_log(str(log))
    log.write_text(json.dumps(config) + "\n" + json.dumps({"a": 0, "b": 1, "seed": 999,
                                                           "diffs": [1, 2]}) + "\n")
    with pytest.raises(BiribaError, match="does not play"):
        T.read_log(str(log))


def test_a_finished_log_reports_without_its_players_extra(tmp_path, capsys, monkeypatch):
    """A log whose player cannot be made here (its extra missing) still gives its standings;
    a log with pairs left to play refuses it in one line."""
    from analysis import specs

    def missing(seed=0, **options):
        raise specs.PlayerSpecError("player 'openspiel' needs OpenSpiel")

    monkeypatch.setitem(specs.MAKERS, "openspiel", missing)
    config = T.settings(["greedy", "random"], deals=1)
    config["entrants"] = ["greedy", "openspiel:simulations=5"]
    row = {"a": 0, "b": 1, "seed": 0, "diffs": [300, 100], "seconds": [0.0, 0.0],
           "calls": [1, 1]}
    log = tmp_path / "done.jsonl"
    log.write_text(json.dumps(config) + "\n" + json.dumps(row) + "\n")
    assert T.read_log(str(log), make=False)[1] == [row]
    with pytest.raises(BiribaError, match="needs OpenSpiel"):
        T.read_log(str(log))
    assert main(["tournament", "--resume", str(log), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["pairs"] == 1 and result["pairings"][0]["mean_diff"] == 200
    config["deals"] = 2                                   # one pair left: the player is needed
    log.write_text(json.dumps(config) + "\n" + json.dumps(row) + "\n")
    assert main(["tournament", "--resume", str(log)]) == 2
    assert "needs OpenSpiel" in capsys.readouterr().err


def test_the_command_prints_ratings_and_refuses_bad_input_in_one_line(tmp_path, capsys):
    log = tmp_path / "t.jsonl"
    code = main(["tournament", "greedy", "random", "--deals", "2", "--log", str(log),
                 "--json", "--anchor", "random"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["anchor"] == "random" and data["pairs"] == 2
    assert [row["player"] for row in data["ratings"]][-1] in ("random", "greedy")
    assert next(r for r in data["ratings"] if r["player"] == "random")["rating"] == 0.0
    code = main(["tournament", "--resume", str(log)])
    out = capsys.readouterr().out
    assert code == 0 and "2 of 2 deal pairs" in out and "greedy" in out
    for argv, said in ((["tournament", "greedy"], "2..16 players"),
                       (["tournament", "greedy", "ismcts:bogus=1"], "bogus"),
                       (["tournament", "--resume", str(tmp_path / "none.jsonl")], "cannot read"),
                       (["tournament", "random", "--resume", str(log)], "plays greedy random"),
                       (["tournament", "greedy", "random", "--anchor", "x"], "--anchor"),
                       (["tournament", "greedy", "random", "--workers", "0"], "--workers")):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert said in err and len(err.strip().splitlines()) == 1, (argv, err)


def test_the_sequential_test_accepts_the_hypothesis_the_pairs_support():
    from analysis import sprt

    lower, upper = sprt.bounds()
    assert lower == pytest.approx(-2.944, abs=1e-3) and upper == pytest.approx(2.944, abs=1e-3)
    strong = [1.0] * 30 + [0.0] * 5          # A wins 86%: far above +50 Elo
    assert sprt.verdict(strong, 0, 50)["verdict"] == "H1"
    even = [1.0, 0.0] * 200                  # 50%: not +50
    assert sprt.verdict(even, 0, 50)["verdict"] == "H0"
    assert sprt.verdict([1.0, 0.0], 0, 50)["verdict"] == "continue"
    sweep = sprt.llr([1.0] * 10, 0, 50)                     # a sweep still has a variance
    assert 0 < sweep < math.inf
    for bad in ("5", "a,b", "10,0", "0,inf"):
        with pytest.raises(BiribaError):
            sprt.parse(bad)


def test_a_tournament_under_sprt_stops_once_settled_and_says_so(capsys):
    code = main(["tournament", "greedy", "random", "--deals", "60", "--sprt", "0,200",
                 "--json"])
    data = json.loads(capsys.readouterr().out)
    test = data["sprt"]
    assert code == 0 and test["verdict"] == "H1" and data["pairs"] == test["pairs"] < 60
    assert test["llr"] >= test["upper"]
    assert main(["tournament", "greedy", "random", "ismcts", "--sprt", "0,50"]) == 2
    assert "tests two players" in capsys.readouterr().err


def test_the_chart_is_drawn_or_refused_before_any_game(tmp_path, capsys):
    path = tmp_path / "ratings.png"
    argv = ["tournament", "greedy", "random", "--deals", "2", "--plot", str(path), "--quiet"]
    try:
        import matplotlib  # noqa: F401  (present: the chart is drawn)
    except ImportError:
        assert main(argv) == 2
        assert "needs matplotlib" in capsys.readouterr().err and not path.exists()
        return
    assert main(argv) == 0 and path.stat().st_size > 1000
    assert main(argv[:-4] + ["--plot", str(tmp_path / "no" / "x.png")]) == 2


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray")
    from analysis import cluster

    cluster.connect(None, 2)
    yield ray
    ray.shutdown()


def test_ray_plays_the_same_pairs_as_the_local_engine(local_ray, tmp_path):
    config = T.settings(["random", "greedy"], deals=3, seed=70)
    local = T.run(config, None)
    log = tmp_path / "ray.jsonl"
    on_ray = T.run(config, str(log), engine="ray", workers=2)
    assert _untimed(on_ray) == _untimed(local)
    assert len(log.read_text().splitlines()) == 1 + 3
    stopped = tmp_path / "stopped.jsonl"
    stopped.write_text("\n".join(log.read_text().splitlines()[:2]) + "\n")
    resumed = T.run(config, str(stopped), resume=True, engine="ray", workers=2)
    assert _untimed(resumed) == _untimed(local)


def test_a_pair_whose_ray_worker_dies_is_played_again_and_counted_once(local_ray, tmp_path):
    """A worker process killed in the middle of a pair (``os._exit``, as a machine lost
    mid-task): Ray runs the task again on another worker, and the pair is counted once, with
    the result the local engine gives for its seed."""
    from analysis import cluster

    config = T.settings(["random", "greedy"], deals=3, seed=70)
    local = T.run(config, None)
    jobs = [(config, a, b, seed) for a, b, seed in T.tasks(config)]
    victim, marker, play = jobs[1][3], str(tmp_path / "killed"), T._play

    def killed_once(job):
        import os

        if job[3] == victim and not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(1)                 # the worker dies without an answer
        return play(job)

    pairs = []
    assert cluster.play_all(local_ray, killed_once, jobs, pairs) is False
    assert (tmp_path / "killed").exists()
    assert sorted(p["seed"] for p in pairs) == sorted(job[3] for job in jobs)
    assert _untimed(T.standings(config, pairs)) == _untimed(local)

    def always_killed(job):
        import os

        os._exit(1)

    with pytest.raises(cluster.ClusterError, match="failed on Ray 4 times.*--resume"):
        cluster.play_all(local_ray, always_killed, jobs[:1], [])


def test_a_bad_engine_or_address_is_one_line_before_any_game(capsys, tmp_path):
    for argv, said in ((["--engine", "cuda"], "invalid choice"),
                       (["--address", "10.0.0.1:1"], "add --engine ray")):
        assert main(["tournament", "greedy", "random", *argv]) == 2
        err = capsys.readouterr().err
        assert said in err and len(err.strip().splitlines()) == 1, err
    pytest.importorskip("ray")
    code = main(["tournament", "greedy", "random", "--engine", "ray", "--address",
                 "127.0.0.1:1"])
    err = capsys.readouterr().err
    assert code == 2 and "cannot reach the Ray cluster at '127.0.0.1:1'" in err
    with pytest.raises(BiribaError, match="unknown engine"):
        T.run(T.settings(["greedy", "random"], deals=1), None, engine="cuda")


@pytest.mark.parametrize("signum", ["SIGTERM", "SIGINT"])
def test_a_signal_to_the_whole_group_prints_the_standings_without_a_traceback(tmp_path, signum):
    """Ctrl-C (SIGINT to the process group) or ``pkill -f`` (SIGTERM to the parent and its
    pool workers alike) in the middle of a tournament: the standings so far, the log kept,
    no traceback from the workers."""
    import os
    import signal
    import subprocess
    import sys
    import time

    log = tmp_path / "stopped.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "analysis", "tournament", "greedy", "ismcts:iterations=40",
         "--deals", "30", "--workers", "2", "--log", str(log), "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None and \
            (not log.exists() or len(log.read_text().splitlines()) < 2):
        time.sleep(0.2)
    os.killpg(process.pid, getattr(signal, signum))
    out, err = process.communicate(timeout=60)
    assert "Traceback" not in err, err
    assert "interrupted" in out + err and "greedy" in out
    assert len(log.read_text().splitlines()) >= 2
