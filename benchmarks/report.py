"""Per-hand latency table of the partition kernels, for benchmarks/README.md.

    python -m benchmarks.report [--sizes 11 16 22 30] [--repeat 5]

For every hand set (benchmarks/hands.py) and backend it times, per hand, the
catalogue, the count and the best lay-down (best of ``--repeat`` runs), and
prints medians and the ratio of the reference's time to each backend's; then the count
through the public API (solver.laydown.count_laydowns_timed) on the 16-card set. It
also times the first kernel call in a fresh process with a warm numba cache.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from benchmarks.hands import hand_set
from kernels import partition
from kernels.params import PYTHON_MAX_CARDS
from solver.cards import Hand
from solver.laydown import count_laydowns_timed, rule_params
from solver.rules import get_rules

BACKENDS = ("python", "numba", "cython")
FIRST_CALL = """
import time
import numpy as np
started = time.perf_counter()
from kernels import partition
from solver.laydown import rule_params
from solver.rules import get_rules
params = rule_params(get_rules("classic"), None)
hand = np.zeros(53, dtype=np.int64); hand[[2, 3, 4, 15, 16, 52]] = 1
import numba  # noqa: F401  (import time reported apart from the first call)
from kernels import partition_numba  # noqa: F401
imported = time.perf_counter()
table = partition.catalogue(hand, params, "numba")
partition.best(hand, table, 1, "numba")
done = time.perf_counter()
print(f"{imported - started:.4f} {done - imported:.4f}")
"""


def _time(function, repeat):
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - started)
    return best


def measure(size, backend, repeat, with_count, with_best=True):
    params = rule_params(get_rules("classic"), None)
    rows = {"catalogue": [], "count": [], "best": []}
    for hand in hand_set(size):
        table = partition.catalogue(hand, params, backend)
        if with_best:
            partition.best(hand, table, 1, backend)  # warm up (numba load)
        rows["catalogue"].append(_time(lambda: partition.catalogue(hand, params, backend), repeat))
        if with_count:
            rows["count"].append(_time(lambda: partition.count(hand, table, backend), repeat))
        if with_best:
            rows["best"].append(_time(lambda: partition.best(hand, table, 1, backend), repeat))
    return {name: statistics.median(values) if values else None for name, values in rows.items()}


def public_count(size, repeat):
    """Median per hand of :func:`solver.laydown.count_laydowns_timed` (catalogue + count,
    warm; the kernels' own time) for each backend, in seconds."""
    hands = [Hand(tuple(int(count) for count in counts)) for counts in hand_set(size)]
    medians = {}
    for backend in BACKENDS:
        times = []
        for hand in hands:
            count_laydowns_timed(hand, backend=backend)
            times.append(min(count_laydowns_timed(hand, backend=backend)[1]
                             for _ in range(max(1, repeat // 10) if backend == "python"
                                            else repeat)))
        medians[backend] = statistics.median(times)
    return medians


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[11, 16, 22, 30])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    print("| cards | task | python (ms) | numba (ms) | cython (ms) | numba x | cython x |")
    print("|---|---|---|---|---|---|---|")
    for size in args.sizes:
        results = {}
        for backend in BACKENDS:
            repeat = 1 if backend == "python" else args.repeat
            # the reference searches only hands it can finish (PYTHON_MAX_CARDS)
            searches = not (backend == "python" and size > PYTHON_MAX_CARDS)
            results[backend] = measure(size, backend, repeat, searches, searches)
            print(f"  measured {size} cards on {backend}", file=sys.stderr, flush=True)
        for task in ("catalogue", "count", "best"):
            cells = []
            for backend in BACKENDS:
                value = results[backend][task]
                cells.append("-" if value is None else f"{value * 1000:.3f}")
            reference = results["python"][task]
            ratios = [
                "-" if reference is None or results[b][task] is None
                else f"{reference / results[b][task]:.0f}"
                for b in ("numba", "cython")
            ]
            print(f"| {size} | {task} | " + " | ".join(cells + ratios) + " |")
    public = public_count(16, 10 * args.repeat)
    print(f"\npublic API, 16 cards (count_laydowns_timed: catalogue + count, warm, median per "
          f"hand): python {public['python'] * 1e6:.0f} µs, numba {public['numba'] * 1e6:.1f} µs "
          f"({public['python'] / public['numba']:.0f}×), cython {public['cython'] * 1e6:.1f} µs "
          f"({public['python'] / public['cython']:.0f}×)")
    firsts = []
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", FIRST_CALL], capture_output=True,
                             text=True, check=True).stdout.split()
        firsts.append((float(out[0]), float(out[1])))
    imports = statistics.median(first[0] for first in firsts)
    calls = statistics.median(first[1] for first in firsts)
    print(f"\nfresh process, warm numba cache: imports (numba included) {imports:.3f} s, "
          f"first numba catalogue + best call {calls:.3f} s")


if __name__ == "__main__":
    main()
