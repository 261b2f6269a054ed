"""The hand analyzer's targets, for benchmarks/README.md.

    python -m benchmarks.analyzer_report [--positions 50] [--seconds 2]

- the 95% half-width of the top two decisions at the default budget on the example
  positions (target: at most 30 points);
- stability: seeded mid-round positions analyzed twice with different seeds; where the top
  two differ by more than their intervals, how often both analyses agree on the top (target:
  at least 95% of those positions).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from analysis.analyzer import analyze, load_position
from benchmarks.search_report import positions

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def half(row) -> float:
    low, high = row["ci95"]
    return (high - low) / 2


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args(argv)
    print(f"half-widths of the top two decisions at {args.seconds:g} s:")
    for path in sorted(EXAMPLES.glob("*.json")):
        result = analyze(load_position(path), seconds=args.seconds, seed=0)
        top = result.decisions[:2]
        print(f"  {path.name}: " + ", ".join(f"{row['decision']} ±{half(row):.0f}"
                                             for row in top)
              + f" ({result.iterations} iterations)")
    separated = agreeing = 0
    for state in positions(args.positions, players=2):
        first = analyze(state, seconds=args.seconds, seed=1)
        second = analyze(state, seconds=args.seconds, seed=2)
        a, b = first.decisions[0], first.decisions[1] if len(first.decisions) > 1 else None
        if b is None or a["ci95"][0] <= b["ci95"][1]:
            continue
        separated += 1
        agreeing += a["decision"] == second.decisions[0]["decision"]
    share = agreeing / separated if separated else 0.0
    print(f"stability: {agreeing} of {separated} positions whose top two are apart agree "
          f"on the top with another seed ({share:.0%}), of {args.positions} positions")


if __name__ == "__main__":
    main()
