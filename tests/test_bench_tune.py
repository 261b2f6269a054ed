"""benchmarks/tune_expert.py on a tiny budget: the command runs, keeps the weights in their
ranges and writes what the README says it writes."""

import json

import numpy as np

from benchmarks import tune_expert
from solver.engine import expert
from solver.engine.api import Game
from solver.engine.policies import EXPERT, GREEDY


def test_a_tiny_tuning_run_writes_its_weights_and_history(tmp_path, capsys):
    out = tmp_path / "tuning.json"
    assert tune_expert.main(["--iterations", "2", "--pairs", "3", "--check", "1",
                             "--check-pairs", "3", "--against", "greedy",
                             "--json", str(out)]) == 0
    saved = json.loads(out.read_text())
    assert set(saved) >= {"command", "seconds", "start", "weights", "history"}
    assert saved["command"].startswith("python -m benchmarks.tune_expert --iterations 2")
    assert [h["iteration"] for h in saved["history"]] == [1, 2]
    weights = np.array([saved["weights"][name] for name in expert.NAMES])
    assert (weights >= np.array(expert.LOWER)).all() and (weights <= np.array(expert.UPPER)).all()
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1]) == saved["weights"]


def test_duplicate_deals_are_antisymmetric():
    """A against B on duplicate deals is minus B against A (the same deals, seats swapped)."""
    game = Game(2, "classic")
    w = expert.default_params()
    ab = tune_expert.duplicate(game, EXPERT, w, GREEDY, w, 40, 5)
    ba = tune_expert.duplicate(game, GREEDY, w, EXPERT, w, 40, 5)
    assert np.allclose(ab, -ba)
