"""Latency table of the turn optimizer's two solvers, for benchmarks/README.md.

    python -m benchmarks.optimizer_report [--sizes 11 20 30 45] [--tables 0 5 10] [--count 12]

For each (hand size, table melds) it draws ``--count`` seeded instances
(:func:`solver.instances.random_instance`, rules ``classic``) and times:

- *end to end*: :func:`solver.optimizer.optimize_laydown` with the kernel path
  and with CP-SAT (candidates built inside, as a user calls it);
- *solve*: the solver's own step on the same candidates: the kernel's best
  search, or building and solving the CP-SAT model.

It prints medians (and the slowest instance) per solver and the ratio of
CP-SAT's median to the kernel's, how many kernel answers are proven best (the
compiled search stops at its budget, kernels.params.STATE_BUDGET), and checks
that every proven answer equals CP-SAT's optimum.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

from kernels import partition
from solver.cpsat import LayDownModel
from solver.extensions import build_candidates
from solver.instances import random_instance
from solver.optimizer import Config, optimize_laydown

KERNEL = Config(solver="kernel")
CPSAT = Config(solver="cpsat")


def instances(size, tables, count):
    return [random_instance(seed, hand_size=size, table_melds=tables) for seed in range(count)]


def timed(function, repeat=1):
    """(best of ``repeat`` wall times, the last result)."""
    best = float("inf")
    result = None
    for _ in range(repeat):
        started = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - started)
    return best, result


def _kernel_solve(instance, candidates):
    hand = np.array(instance.hand.counts, dtype=np.int64)
    return partition.best(hand, candidates.rows, instance.keep, None, candidates.groups, hand)


def measure(size, tables, count, repeat):
    rows = {"kernel": [], "cpsat": [], "kernel_solve": [], "cpsat_solve": [], "exact": []}
    for instance in instances(size, tables, count):
        seconds, cpsat = timed(lambda: optimize_laydown(instance, CPSAT), repeat)
        rows["cpsat"].append(seconds)
        candidates = build_candidates(instance)
        rows["cpsat_solve"].append(timed(
            lambda: LayDownModel(instance, candidates, candidates.points, CPSAT).solve(),
            repeat)[0])
        optimize_laydown(instance, KERNEL)  # warm up
        seconds, kernel = timed(lambda: optimize_laydown(instance, KERNEL), repeat)
        rows["kernel"].append(seconds)
        rows["exact"].append(int(kernel.optimal))
        if kernel.optimal and kernel.points != cpsat.points:
            raise AssertionError(f"solvers disagree on {instance}: {kernel} {cpsat}")
        rows["kernel_solve"].append(timed(lambda: _kernel_solve(instance, candidates), repeat)[0])
    exact = rows.pop("exact")
    result = {name: (statistics.median(values), max(values)) if values else None
              for name, values in rows.items()}
    result["exact"] = f"{sum(exact)}/{len(exact)}" if exact else "-"
    return result


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[11, 20, 30, 45])
    parser.add_argument("--tables", type=int, nargs="+", default=[0, 5, 10])
    parser.add_argument("--count", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args(argv)
    print("| cards | table melds | kernel (ms) | CP-SAT (ms) | CP-SAT / kernel "
          "| kernel solve (ms) | CP-SAT solve (ms) | solve ratio | kernel proven |")
    print("|---|---|---|---|---|---|---|---|---|")
    for size in args.sizes:
        for tables in args.tables:
            repeat = 1 if size >= 45 else args.repeat
            result = measure(size, tables, args.count, repeat)
            print(f"  measured {size} cards, {tables} table melds", file=sys.stderr, flush=True)

            def cell(name):
                if result[name] is None:
                    return "-"
                median, worst = result[name]
                return f"{median * 1e3:.2f} (max {worst * 1e3:.1f})"

            def ratio(numerator, denominator):
                if result[denominator] is None:
                    return "-"
                return f"{result[numerator][0] / result[denominator][0]:.1f}"

            print(f"| {size} | {tables} | {cell('kernel')} | {cell('cpsat')} "
                  f"| {ratio('cpsat', 'kernel')} | {cell('kernel_solve')} | {cell('cpsat_solve')} "
                  f"| {ratio('cpsat_solve', 'kernel_solve')} | {result['exact']} |", flush=True)


if __name__ == "__main__":
    main()
