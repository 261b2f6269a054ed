"""Bounded-time figures of the lay-down search, for benchmarks/README.md.

    python -m benchmarks.bounded_report [--count 10]

- the greedy player's pickup decision in the large pickup position
  (4-player classic, seat 0 draws with 14 cards, a 30-card pile, five team
  melds; the other cards dealt from ``--count`` seeds): median and slowest;
- the kernel path (Cython and numba) on the 45-card + 10-table-meld instances
  that aborted out of memory (seeds 515000, 515001): time, points against
  CP-SAT's optimum, whether proven, and the process's peak memory;
- the priced search (kernels.lp_bound's bound; numba's search and Cython's) on
  seeded instances of 30, 45 and 60 cards (60: six players, three decks) with 10
  table melds: the kernel's solve and the optimizer end to end, median and
  slowest, proven answers, points against CP-SAT's optimum;
- with ``--sweep``, the states of the rank-sweep reference (kernels.sweep_ref)
  per layer, largest and summed, for seeded instances of several sizes (slow:
  pure Python).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

import numpy as np

from benchmarks.optimizer_report import timed
from kernels import partition, sweep_ref
from kernels.candidates import max_left_python
from solver.engine.players import GreedyPlayer
from solver.extensions import build_candidates, table_identity
from solver.instances import pile_position, random_instance
from solver.laydown import rule_params
from solver.optimizer import Config, optimize_laydown


def pickup(count):
    player = GreedyPlayer()
    player.choose(pile_position(0)[0])  # compile / load
    times = []
    for seed in range(count):
        state = pile_position(seed)[0]
        started = time.perf_counter()
        player.choose(state)
        times.append(time.perf_counter() - started)
    return statistics.median(times), max(times)


def huge():
    rows = []
    for seed in (515000, 515001):
        instance = random_instance(seed, 45, 10, "classic")
        optimum = optimize_laydown(instance, Config(solver="cpsat")).points
        for backend in ("cython", "numba"):
            optimize_laydown(instance, Config(solver="kernel", backend=backend))
            started = time.perf_counter()
            result = optimize_laydown(instance, Config(solver="kernel", backend=backend))
            rows.append((seed, backend, time.perf_counter() - started, result.points, optimum,
                         result.optimal))
    return rows, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def priced(size, tables, count, players, backends=("numba", "cython"), repeat=3):
    """The kernel path of each compiled backend and CP-SAT on seeded instances: per backend
    (solve median, slowest, end to end median, slowest, proven, largest shortfall), and
    CP-SAT's (median, slowest).

    *end to end*: :func:`optimize_laydown` (candidates, search, answer); *solve*: the
    kernel's ``best`` alone on the same candidates (what the issue's targets time); best
    of ``repeat`` each, after a warm-up."""
    kernel = {b: [] for b in backends}
    solve = {b: [] for b in backends}
    proven = {b: 0 for b in backends}
    shortfall = {b: [] for b in backends}
    cpsat = []
    for seed in range(count):
        instance = random_instance(seed, size, tables, "classic", players=players)
        started = time.perf_counter()
        optimum = optimize_laydown(instance, Config(solver="cpsat")).points
        cpsat.append(time.perf_counter() - started)
        candidates = build_candidates(instance, "numba")
        hand = np.array(instance.hand.counts, dtype=np.int64)
        left = max_left_python(hand, np.array(instance.must_use.counts, dtype=np.int64))
        for backend in backends:
            config = Config(solver="kernel", backend=backend)
            optimize_laydown(instance, config)  # warm
            seconds, found = timed(lambda: optimize_laydown(instance, config), repeat)
            kernel[backend].append(seconds)
            solve[backend].append(timed(lambda: partition.best(
                hand, candidates.rows, instance.keep, backend, candidates.groups, left),
                repeat)[0])
            if found.optimal:
                if found.points != optimum:
                    raise AssertionError(f"seed {seed}, {backend}: proven {found.points}, "
                                         f"CP-SAT {optimum}")
                proven[backend] += 1
            shortfall[backend].append(1 - found.points / optimum if optimum else 0.0)
    rows = {b: (statistics.median(solve[b]), max(solve[b]), statistics.median(kernel[b]),
                max(kernel[b]), proven[b], max(shortfall[b])) for b in backends}
    return rows, (statistics.median(cpsat), max(cpsat))


def sweep_states(size, tables, seeds, prune=False):
    largest, total = [], []
    for seed in range(seeds):
        instance = random_instance(seed, size, tables, "classic")
        params = rule_params(instance.rules, instance.trump)
        melds = [(list(m.counts),) + table_identity(m, instance.rules, instance.trump, i)
                 for i, m in enumerate(instance.table)]
        counts = sweep_ref.state_counts(list(instance.hand.counts), melds, params, 1,
                                        prune=prune)
        largest.append(max(counts))
        total.append(sum(counts))
    return statistics.median(largest), max(largest), statistics.median(total)


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--priced-count", type=int, default=12)
    parser.add_argument("--sweep", action="store_true", help="also the rank sweep's states")
    args = parser.parse_args(argv)
    median, worst = pickup(args.count)
    print(f"greedy pickup decision, big pile: median {median * 1e3:.1f} ms, "
          f"slowest {worst * 1e3:.1f} ms ({args.count} positions)")
    rows, peak = huge()
    print("| seed | backend | ms | points | CP-SAT optimum | proven |")
    print("|---|---|---|---|---|---|")
    for seed, backend, seconds, points, optimum, proven in rows:
        print(f"| {seed} | {backend} | {seconds * 1e3:.0f} | {points} | {optimum} | {proven} |")
    print(f"peak memory of the process: {peak:.0f} MB")
    print("| cards | table melds | players | backend | kernel solve median, slowest ms "
          "| end to end median, slowest ms | CP-SAT median, slowest ms | proven "
          "| largest shortfall |")
    print("|---|---|---|---|---|---|---|---|---|")
    for size, tables, players in ((30, 10, 4), (45, 10, 4), (60, 10, 6)):
        rows, (c_med, c_max) = priced(size, tables, args.priced_count, players)
        for backend, (s_med, s_max, k_med, k_max, proven, short) in rows.items():
            print(f"| {size} | {tables} | {players} | {backend} "
                  f"| {s_med * 1e3:.1f}, {s_max * 1e3:.0f} "
                  f"| {k_med * 1e3:.1f}, {k_max * 1e3:.0f} "
                  f"| {c_med * 1e3:.1f}, {c_max * 1e3:.0f} | {proven}/{args.priced_count} "
                  f"| {short:.1%} |", flush=True)
    if not args.sweep:
        return
    print("| cards | table melds | largest layer (median, max) | states in all (median) "
          "| pruned: largest layer (median, max) | pruned: states in all (median) |")
    print("|---|---|---|---|---|---|")
    for size, tables, seeds in ((11, 0, 8), (11, 5, 8), (16, 6, 6), (20, 5, 4)):
        plain = sweep_states(size, tables, seeds)
        pruned = sweep_states(size, tables, seeds, prune=True)
        print(f"| {size} | {tables} | {plain[0]:.0f}, {plain[1]} | {plain[2]:.0f} "
              f"| {pruned[0]:.0f}, {pruned[1]} | {pruned[2]:.0f} |", flush=True)


if __name__ == "__main__":
    main()
