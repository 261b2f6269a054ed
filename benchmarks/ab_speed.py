"""A/B timing of one source tree against another: playouts, the search, the lay-down search.

    python benchmarks/ab_speed.py /path/to/other/checkout    # or . for this one

Puts the tree first on ``sys.path`` (numba compiles it on first use, into that tree's
own cache), then prints the best of three 300-round greedy and 400-round random playout
batches, the median of 30 passes of numba ``best`` over the 16- and 22-card benchmark
hand sets, the ISMCTS search's iterations per second (400 iterations on each of 8 seeded
4-player positions, best of three) and the median of numba's bounded search on twelve
45-card hands with ten table melds (best of three each). Run it for both trees in turn,
twice, on an idle machine, and compare like with like.
"""

import sys
import time

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else ".")

import numpy as np  # noqa: E402

from benchmarks.hands import hand_set  # noqa: E402
from kernels import partition_numba  # noqa: E402
from solver.engine.api import Game  # noqa: E402
from solver.engine.playout import play_many  # noqa: E402
from solver.rules import get_rules  # noqa: E402
from solver.values import rule_params  # noqa: E402


def playouts(rounds: int = 300, seed: int = 1000, policy: int = 1):
    game = Game(4, "classic")
    greedy = np.full(4, policy, dtype=np.int64)
    scores = np.zeros((rounds, game.entities), dtype=np.int64)
    wins = np.zeros(rounds, dtype=np.int64)
    import inspect

    # trees before the rule tables were bundled take the five arrays one by one
    plain = getattr(play_many, "py_func", play_many)
    spread = list(inspect.signature(plain).parameters)[0] == "R"
    tables = tuple(game.engine) if spread else (game.engine,)
    started = time.perf_counter()
    actions = play_many(*tables, greedy, seed, rounds, 0, 100_000, scores, wins)
    return time.perf_counter() - started, int(actions), int(scores.sum())


def best_pass(size: int):
    params = rule_params(get_rules("classic"), None)
    pairs = []
    for hand in hand_set(size):
        counts = np.ascontiguousarray(hand, dtype=np.int64)
        keys, rows, _, _, _, points = partition_numba.catalogue(
            counts, params.scalars(), params.values, params.run_bonus, params.set_bonus)
        pairs.append((counts, rows, points, np.full(len(keys), -1, dtype=np.int64)))

    def run():
        for counts, rows, points, groups in pairs:
            partition_numba.best(counts.copy(), rows, points, 1, groups, counts.copy())

    run()
    times = []
    for _ in range(30):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return float(np.median(times))


def search_rate(iterations: int = 400, count: int = 8):
    from benchmarks.search_report import positions
    from solver.search import search

    states = positions(count)
    search(states[0], iterations=20, seed=0)
    best = 0.0
    for _ in range(3):
        done = 0
        started = time.perf_counter()
        for index, state in enumerate(states):
            done += search(state, iterations=iterations, seed=index).iterations
        best = max(best, done / (time.perf_counter() - started))
    return best


def priced_median(count: int = 12):
    from solver.instances import random_instance
    from solver.optimizer import Config, optimize_laydown

    config = Config(solver="kernel", backend="numba")
    times = []
    for seed in range(count):
        instance = random_instance(seed, 45, 10, "classic")
        optimize_laydown(instance, config)
        runs = []
        for _ in range(3):
            started = time.perf_counter()
            optimize_laydown(instance, config)
            runs.append(time.perf_counter() - started)
        times.append(min(runs))
    return float(np.median(times))


if __name__ == "__main__":
    playouts(2)
    runs = [playouts() for _ in range(3)]
    seconds = min(run[0] for run in runs)
    print(f"300 greedy rounds: {seconds:.3f} s ({300 / seconds:.0f} rounds/s), "
          f"{runs[0][1]} actions, score sum {runs[0][2]}")
    playouts(2, policy=0)
    runs = [playouts(400, policy=0) for _ in range(3)]
    seconds = min(run[0] for run in runs)
    print(f"400 random rounds: {seconds:.3f} s ({runs[0][1] / seconds:,.0f} actions/s), "
          f"{runs[0][1]} actions, score sum {runs[0][2]}")
    for size in (16, 22):
        print(f"numba best, {size}-card set: {best_pass(size) * 1e6:.1f} us")
    print(f"ISMCTS, 400 iterations x 8 positions: {search_rate():.0f} iterations/s")
    print(f"numba bounded search, 45 cards + 10 table melds: {priced_median() * 1e3:.2f} ms median")
