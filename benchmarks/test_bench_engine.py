"""The game engine: the numba playout kernel, the Python API, and plain Python.

Each benchmark plays seeded 4-player ``classic`` rounds. The table in
benchmarks/README.md comes from ``python -m benchmarks.engine_report``.
"""

import os
import subprocess
import sys

import numpy as np
import pytest

from solver.engine.api import Game
from solver.engine.players import GreedyPlayer, RandomPlayer, play
from solver.engine.playout import play_many
from solver.engine.policies import GREEDY, RANDOM

GAME = Game(4, "classic")


@pytest.mark.parametrize("policy, rounds", [(RANDOM, 40), (GREEDY, 10)], ids=["random", "greedy"])
def test_kernel_rounds(benchmark, policy, rounds):
    policies = np.full(4, policy, dtype=np.int64)
    scores = np.zeros((rounds, 2), dtype=np.int64)
    wins = np.zeros(rounds, dtype=np.int64)
    play_many(GAME.engine, policies, 0, 1, 0, 100_000, scores, wins)
    benchmark.group = "engine: 4-player classic rounds"
    actions = benchmark(play_many, GAME.engine, policies, 0, rounds, 0, 100_000, scores, wins)
    assert actions > rounds * 20


@pytest.mark.parametrize("player", [RandomPlayer, GreedyPlayer], ids=["random", "greedy"])
def test_api_rounds(benchmark, player):
    benchmark.group = "engine: 4-player classic rounds"

    def rounds():
        return sum(len(play(GAME.new_initial_state(seed), [player(s) for s in range(4)]).history)
                   for seed in range(2))

    rounds()
    assert benchmark(rounds) > 40


def test_plain_python_round(benchmark):
    """The same rules with numba off (the reference), one round in a subprocess."""
    code = ("from solver.engine.api import Game\n"
            "from solver.engine.players import RandomPlayer, play\n"
            "play(Game(4).new_initial_state(0), [RandomPlayer(s) for s in range(4)])\n")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    benchmark.group = "engine: plain Python"
    benchmark.pedantic(subprocess.run, args=([sys.executable, "-W", "ignore", "-c", code],),
                       kwargs={"env": env, "check": True}, rounds=1, iterations=1)


def test_greedy_pickup_with_a_big_pile(benchmark):
    """The greedy player's pickup decision with 14 cards, a 30-card pile and five team melds
    (bounded by its plan budget; it once took 20 minutes)."""
    from solver.instances import pile_position

    state = pile_position(0)[0]
    player = GreedyPlayer()
    player.choose(state)
    benchmark.group = "engine: greedy pickup, big pile"
    assert state.action_to_string(benchmark(player.choose, state)) == "pile"
