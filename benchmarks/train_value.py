"""Fit the learned value of a cut rollout (solver.search.value) on greedy self-play.

    python -m benchmarks.train_value --games 4000 --seed 1 --json benchmarks/value_training.json --write

For each player count the value has weights for (2 and 4, classic rules), ``--games``
seeded greedy rounds (seeds ``seed``, ``seed + 1``, ...); from each round one state in
``--every`` (a random offset) gives a row: team 0's features less team 1's, and the final
round difference less the difference as the state stood. The last fifth of the rounds is
held out: the fit's error on it, against no correction, is the measure. A ridge fit on
standardized features (``--ridge``). ``--write`` writes the weights into
solver/search/value_weights.py.
"""

from __future__ import annotations

import argparse
import json
import textwrap
import time
from pathlib import Path

import numpy as np

from solver.engine import layout as L
from solver.engine.api import Game
from solver.search.value import FEATURES, VALUE_PLAYERS, trajectory

WEIGHTS_FILE = Path(__file__).resolve().parent.parent / "solver" / "search" / "value_weights.py"
MAX_ROWS = 4000          # states of one round at most


def rows(players: int, games: int, seed: int, every: int):
    """(features, targets, round index) of the kept states."""
    game = Game(players, "classic")
    buffer = np.empty(L.MAX_ACTIONS, dtype=np.int64)
    features = np.empty((MAX_ROWS, FEATURES), dtype=np.float64)
    targets = np.empty(MAX_ROWS, dtype=np.float64)
    rng = np.random.default_rng(seed)
    xs, ys, rounds = [], [], []
    for g in range(games):
        S = game.new_initial_state(seed + g).array.copy()
        n = trajectory(S, game.engine, buffer, features, targets)
        keep = np.arange(int(rng.integers(every)), n, every)
        xs.append(features[keep].copy())
        ys.append(targets[keep].copy())
        rounds.append(np.full(len(keep), g))
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(rounds)


def fit(x, y, ridge: float):
    """Ridge weights (no intercept: a team's constant cancels in the difference)."""
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    z = x / scale
    gram = z.T @ z + ridge * len(z) * np.eye(x.shape[1])
    return np.linalg.solve(gram, z.T @ y) / scale


def rmse(values) -> float:
    return float(np.sqrt(np.mean(np.square(values))))


def train(games: int, seed: int, every: int, ridge: float) -> dict:
    out = {}
    for players in VALUE_PLAYERS:
        started = time.perf_counter()
        x, y, rounds = rows(players, games, seed, every)
        train_part = rounds < int(games * 0.8)
        w = fit(x[train_part], y[train_part], ridge)
        held_x, held_y = x[~train_part], y[~train_part]
        out[str(players)] = {
            "rows": int(len(y)), "held_out_rows": int(len(held_y)),
            "rmse_without": rmse(held_y), "rmse_with": rmse(held_y - held_x @ w),
            "mean_target": float(y.mean()),
            "weights": [round(float(v), 6) for v in w],
            "seconds": round(time.perf_counter() - started, 1)}
        print(players, {k: v for k, v in out[str(players)].items() if k != "weights"},
              flush=True)
    return out


def write_weights(result: dict, command: str) -> None:
    lines = ['"""The learned value\'s weights (solver.search.value), one row per player count: '
             'written by', f"``{command}``", '(benchmarks/value_training.json holds the fit)."""',
             ""]
    for players in VALUE_PLAYERS:
        numbers = ", ".join(repr(v) for v in result[str(players)]["weights"])
        lines.append(f"WEIGHTS_{players} = (")
        lines.extend(textwrap.wrap(numbers, 88, initial_indent="    ",
                                   subsequent_indent="    "))
        lines.append(")")
    WEIGHTS_FILE.write_text("\n".join(lines) + "\n")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--ridge", type=float, default=1e-3)
    parser.add_argument("--json", help="write the fit and its command here")
    parser.add_argument("--write", action="store_true",
                        help="write the weights into solver/search/value_weights.py")
    args = parser.parse_args(argv)
    command = (f"python -m benchmarks.train_value --games {args.games} --seed {args.seed} "
               f"--every {args.every} --ridge {args.ridge}")
    result = {"command": command, "fits": train(args.games, args.seed, args.every, args.ridge)}
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
    if args.write:
        write_weights(result["fits"], command)


if __name__ == "__main__":
    main()
