"""The hand analyzer's targets, for benchmarks/README.md.

    python -m benchmarks.analyzer_report [--positions 50] [--seconds 2] [--rounds 3]

- the 95% half-width of the top two decisions at the default budget (2 s, 2 workers) on
  the example positions, three seeds each (target: at most 30 points);
- stability: seeded 2-player mid-round positions analyzed twice with different seeds;
  where the top two differ by more than their intervals, how often both analyses agree on
  the top (target: at least 95% of those positions);
- the wall time of a review of whole 2-player greedy rounds with 2 workers at the default
  budget (target: at most 90 s a round).

The wall time of ``biriba analyze`` as a whole process is timed with farm-bench (see
benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from analysis.analyzer import analyze, load_position
from analysis.review import review
from benchmarks.search_report import positions
from solver.engine.api import Game
from solver.engine.players import GreedyPlayer, play

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def half(row) -> float:
    low, high = row["ci95"]
    return (high - low) / 2


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"half-widths of the top two decisions at {args.seconds:g} s:")
    widest = 0.0
    for path in sorted(EXAMPLES.glob("*.json")):
        for seed in range(3):
            result = analyze(load_position(path), seconds=args.seconds, seed=seed)
            top = result.decisions[:2]
            widest = max([widest] + [half(row) for row in top])
            print(f"  {path.name} seed {seed}: "
                  + ", ".join(f"{row['decision']} ±{half(row):.0f} ({row['visits']})"
                              for row in top)
                  + f" ({result.iterations} iterations)")
    print(f"  widest: ±{widest:.0f}")
    for seed in range(args.rounds):
        final = play(Game(2).new_initial_state(100 + seed), [GreedyPlayer(), GreedyPlayer()])
        started = time.perf_counter()
        found = review(final, iterations=200, workers=2).decisions
        print(f"review of a 2-player round (seed {100 + seed}, {len(final.history)} actions, "
              f"{len(found)} decisions), 200 iterations x 2 workers: "
              f"{time.perf_counter() - started:.1f} s", flush=True)
    separated = agreeing = both = both_agreeing = 0
    for state in positions(args.positions, players=2):
        first = analyze(state, seconds=args.seconds, seed=1)
        second = analyze(state, seconds=args.seconds, seed=2)
        apart = [apart_(result) for result in (first, second)]
        same = first.decisions[0]["decision"] == second.decisions[0]["decision"]
        print(f"  {first.decisions[0]['decision']} / {second.decisions[0]['decision']}"
              f" (apart: {apart[0]}, {apart[1]})", flush=True)
        if apart[0]:
            separated += 1
            agreeing += same
        if all(apart):
            both += 1
            both_agreeing += same
    share = agreeing / separated if separated else 0.0
    print(f"stability: {agreeing} of {separated} positions whose top two are apart in the "
          f"first analysis agree on the top with another seed ({share:.0%}), of "
          f"{args.positions} positions; apart in both: {both_agreeing} of {both}")


def apart_(result) -> bool:
    """The top two decisions' 95% intervals do not overlap."""
    if len(result.decisions) < 2:
        return False
    a, b = result.decisions[:2]
    return a["ci95"][0] > b["ci95"][1]


if __name__ == "__main__":
    main()
