"""Tune the expert player's weights by self-play on duplicate deals (SPSA).

    python -m benchmarks.tune_expert --iterations 300 --pairs 200 --seed 1 [--players 2]
                                     [--against self|greedy] [--json FILE]

SPSA (Spall 1998): each iteration draws a random sign per weight, plays the weights moved
up by that step (``θ+``) against the weights moved down (``θ-``) on ``--pairs`` duplicate
deals (every deal twice, seats swapped; the deals of iteration k are seeds ``seed + k *
pairs`` on), and moves every weight along its sign by the mean round-score difference.
With ``--against greedy`` each of ``θ+`` and ``θ-`` plays the greedy player on the same
deals instead, and the difference of their two results moves the weights.
The weights are scaled to [0, 1] between ``expert.LOWER`` and ``expert.UPPER``. Every
``--check`` iterations, and at the end, the current weights play the greedy player on
``--check-pairs`` fixed deals (seeds from 900,000), the figure it prints with its 95%
interval. ``--json`` writes the tuned weights and the history.

The kernel plays every round in numba (:func:`solver.engine.playout.play_weighted`), so an
iteration of 200 pairs takes about a second on one core.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time

import numpy as np

from solver.engine import expert
from solver.engine.api import Game
from solver.engine.playout import play_weighted
from solver.engine.policies import EXPERT, GREEDY

CHECK_SEED = 900_000


def duplicate(game, kind_a, weights_a, kind_b, weights_b, seed, pairs):
    """Per deal pair: the round-score difference of A's team over B's, the mean of the two
    seatings (A in the even seats, then in the odd ones; seeds ``seed`` on)."""
    players = game.players
    result = np.zeros(pairs)
    for order in (0, 1):
        ours = [seat % 2 == order for seat in range(players)]
        kinds = np.array([kind_a if mine else kind_b for mine in ours], dtype=np.int64)
        weights = np.array([weights_a if mine else weights_b for mine in ours],
                           dtype=np.float64)
        scores = np.zeros((pairs, game.entities), dtype=np.int64)
        wins = np.zeros(pairs, dtype=np.int64)
        play_weighted(game.engine, kinds, weights, seed, pairs, 0, 100_000, scores, wins)
        result += (scores[:, order] - scores[:, 1 - order]) / 2.0
    return result


def interval(values) -> tuple[float, float]:
    """(mean, half-width of its 95% interval)."""
    return float(values.mean()), float(1.96 * values.std(ddof=1) / math.sqrt(len(values)))


def against_greedy(game, weights, pairs, seed=CHECK_SEED):
    return interval(duplicate(game, EXPERT, weights, GREEDY, weights, seed, pairs))


def spsa(game, start, iterations, pairs, seed, a=0.01, c=0.05, check=50, check_pairs=2000,
         against="self", out=sys.stderr):
    lower, upper = np.array(expert.LOWER), np.array(expert.UPPER)
    span = upper - lower
    x = (np.asarray(start) - lower) / span
    rng = np.random.default_rng(seed)
    history = []
    stability = iterations / 10
    for k in range(iterations):
        ak = a / (k + 1 + stability) ** 0.602
        ck = c / (k + 1) ** 0.101
        delta = rng.choice((-1.0, 1.0), size=x.shape[0])
        plus = lower + np.clip(x + ck * delta, 0, 1) * span
        minus = lower + np.clip(x - ck * delta, 0, 1) * span
        began = time.perf_counter()
        deals = seed + k * pairs
        if against == "self":
            diff = duplicate(game, EXPERT, plus, EXPERT, minus, deals, pairs).mean()
        else:
            diff = (duplicate(game, EXPERT, plus, GREEDY, plus, deals, pairs).mean()
                    - duplicate(game, EXPERT, minus, GREEDY, minus, deals, pairs).mean())
        x = np.clip(x + ak * (diff / 100.0) / (2 * ck) * delta, 0, 1)
        print(f"  {k + 1}: {diff:+.1f} ({time.perf_counter() - began:.1f} s)", file=out,
              flush=True)
        if (k + 1) % check == 0 or k + 1 == iterations:
            mean, half = against_greedy(game, lower + x * span, check_pairs)
            history.append({"iteration": k + 1, "vs_greedy": mean, "ci95": half,
                            "weights": (lower + x * span).round(3).tolist()})
            print(f"iteration {k + 1}: against greedy {mean:+.1f} ± {half:.1f} "
                  f"({check_pairs} pairs)", file=out, flush=True)
    return lower + x * span, history


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2, choices=(2, 4, 6))
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--against", choices=("self", "greedy"), default="self")
    parser.add_argument("--check", type=int, default=50)
    parser.add_argument("--check-pairs", type=int, default=2000)
    parser.add_argument("--json", help="write the tuned weights and the history here")
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser.parse_args(argv)
    game = Game(args.players, args.rules)
    start = expert.default_params()
    started = time.perf_counter()
    mean, half = against_greedy(game, start, args.check_pairs)
    print(f"start: against greedy {mean:+.1f} ± {half:.1f} ({args.check_pairs} pairs)",
          file=sys.stderr, flush=True)
    tuned, history = spsa(game, start, args.iterations, args.pairs, args.seed,
                          check=args.check, check_pairs=args.check_pairs,
                          against=args.against)
    seconds = time.perf_counter() - started
    weights = {name: round(float(v), 3) for name, v in zip(expert.NAMES, tuned)}
    print(json.dumps(weights))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"command": "python -m benchmarks.tune_expert " + " ".join(argv),
                       "seconds": round(seconds, 1),
                       "start": dict(zip(expert.NAMES, start.tolist())),
                       "start_vs_greedy": [mean, half], "weights": weights,
                       "history": history}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
