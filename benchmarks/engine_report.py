"""Throughput table of the game engine, for benchmarks/README.md.

    python -m benchmarks.engine_report [--rounds 400] [--repeat 3]

Seeded 4-player ``classic`` rounds (one core), best of ``--repeat`` runs:

- the numba playout kernel (:func:`solver.engine.playout.play_many`) with
  random and with greedy players: actions and full rounds per second;
- the Python API (``State.apply_action``, which checks legality, with the
  random or greedy players of :mod:`solver.engine.players`);
- the same rule code in plain Python (``NUMBA_DISABLE_JIT=1``, in a
  subprocess): the reference the kernel is measured against.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

from solver.engine.api import Game
from solver.engine.players import GreedyPlayer, RandomPlayer, play
from solver.engine.playout import play_many
from solver.engine.policies import GREEDY, RANDOM

PLAIN = """
import json, time
from solver.engine.api import Game
from solver.engine.players import RandomPlayer, play
game = Game(4, "classic")
actions = 0
started = time.perf_counter()
for seed in range({rounds}):
    state = play(game.new_initial_state(seed), [RandomPlayer(seed + s) for s in range(4)])
    actions += len(state.history)
print(json.dumps({{"actions": actions, "seconds": time.perf_counter() - started}}))
"""


def kernel(policy: int, rounds: int, repeat: int):
    game = Game(4, "classic")
    policies = np.full(4, policy, dtype=np.int64)
    scores = np.zeros((rounds, 2), dtype=np.int64)
    wins = np.zeros(rounds, dtype=np.int64)
    play_many(game.engine, policies, 0, 2, 0, 100_000, scores[:2], wins[:2])
    best = None
    for _ in range(repeat):
        started = time.perf_counter()
        actions = play_many(game.engine, policies, 0, rounds, 0, 100_000, scores, wins)
        seconds = time.perf_counter() - started
        if best is None or seconds < best[1]:
            best = (actions, seconds)
    return best[0] / best[1], rounds / best[1]


def api(make_player, rounds: int, repeat: int):
    game = Game(4, "classic")
    best = None
    play(game.new_initial_state(0), [make_player(s) for s in range(4)])
    for _ in range(repeat):
        actions = 0
        started = time.perf_counter()
        for seed in range(rounds):
            state = play(game.new_initial_state(seed), [make_player(seed + s) for s in range(4)])
            actions += len(state.history)
        seconds = time.perf_counter() - started
        if best is None or seconds < best[1]:
            best = (actions, seconds)
    return best[0] / best[1], rounds / best[1]


def plain_python(rounds: int):
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    output = subprocess.run([sys.executable, "-W", "ignore", "-c", PLAIN.format(rounds=rounds)],
                            env=env, capture_output=True, text=True, check=True).stdout
    data = json.loads(output)
    return data["actions"] / data["seconds"], rounds / data["seconds"]


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    rows = [
        ("numba kernel, random", *kernel(RANDOM, args.rounds, args.repeat)),
        ("numba kernel, greedy", *kernel(GREEDY, args.rounds // 2, args.repeat)),
        ("Python API, random", *api(lambda seed: RandomPlayer(seed), args.rounds // 10,
                                    args.repeat)),
        ("Python API, greedy", *api(lambda seed: GreedyPlayer(), args.rounds // 20,
                                    args.repeat)),
        ("plain Python (NUMBA_DISABLE_JIT=1), random", *plain_python(4)),
    ]
    reference = rows[-1][1]
    print("| engine, 4-player classic | actions/s | rounds/s | × plain Python |")
    print("|---|---|---|---|")
    for name, actions, rounds in rows:
        print(f"| {name} | {actions:,.0f} | {rounds:,.1f} | {actions / reference:,.0f} |")


if __name__ == "__main__":
    main()
