"""A yardstick for search: fixed decision positions with the decision a long search prefers.

    python -m benchmarks.yardstick build [--positions 100] [--long 10000]   # writes the JSON
    python -m benchmarks.yardstick curve [--budgets 50,100,...,3200] [--png FILE] [--markdown]

``build`` makes seeded 4-player ``classic`` positions (greedy play from a seeded deal for
a seeded number of actions, kept when the player to move has a real decision), searches each
with ``--long`` iterations, and stores the position (rules, players, deal seed, the actions
that lead to it) with the preferred decision, its visit share and its lead in points over
the runner-up in ``benchmarks/yardstick.json``. ``curve`` searches every position at each
budget and reports how often the search agrees with the stored decision and how fast it
runs, as a table and (``--png``) a chart. Another search goes on the same curve through
``agreement(decide)`` with its own ``decide(state, budget) -> decision name``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from benchmarks.search_report import midround
from solver.engine.api import Game
from solver.search import search

PATH = Path(__file__).with_name("yardstick.json")
BUDGETS = (50, 100, 200, 400, 800, 1600, 3200)


def build(count: int, long: int, players: int = 4, preset: str = "classic") -> list[dict]:
    game = Game(players, preset)
    found = []
    seed = 0
    while len(found) < count:
        state, deciding = midround(game, seed, first=10, spread=120, step=37)
        seed += 1
        if not deciding:
            continue
        result = search(state, iterations=long, seed=seed)
        first, second = result.decisions[0], result.decisions[1]
        found.append({
            "rules": preset, "players": players, "deal_seed": state.seed,
            "actions": list(state.history), "decision": first.name,
            "visit_share": first.visits / result.iterations,
            "lead_points": first.mean_points - second.mean_points,
            "runner_up": second.name, "long_iterations": long,
        })
        print(f"{len(found)}/{count}: {first.name!r} ({first.visits / result.iterations:.0%})",
              flush=True)
    return found


def load_positions(path: Path = PATH) -> list:
    entries = json.loads(path.read_text())
    states = []
    for entry in entries:
        state = Game(entry["players"], entry["rules"]).new_initial_state(entry["deal_seed"])
        for action in entry["actions"]:
            state.apply_action(action)
        states.append((state, entry))
    return states


def agreement(positions, decide, budgets=BUDGETS) -> list[dict]:
    rows = []
    for budget in budgets:
        agree = 0
        started = time.perf_counter()
        for state, entry in positions:
            agree += decide(state, budget) == entry["decision"]
        seconds = time.perf_counter() - started
        rows.append({"budget": budget, "agreement": agree / len(positions),
                     "seconds_per_decision": seconds / len(positions)})
    return rows


def _ours(state, budget, cutoff=0):
    return search(state, iterations=budget, seed=1, cutoff=cutoff).best.name


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("build", "curve"))
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--long", type=int, default=10_000)
    parser.add_argument("--budgets", default=",".join(map(str, BUDGETS)))
    parser.add_argument("--png", help="write the agreement curve here")
    parser.add_argument("--cutoff", type=int, default=0,
                        help="the search's rollout cut-off (0: to the end of the round)")
    parser.add_argument("--markdown", action="store_true",
                        help="print the curve as a Markdown table (benchmarks/tables.py)")
    args = parser.parse_args(argv)
    if args.command == "build":
        PATH.write_text(json.dumps(build(args.positions, args.long), indent=1) + "\n")
        return
    positions = load_positions()
    budgets = [int(b) for b in args.budgets.split(",")]
    rows = agreement(positions, lambda state, budget: _ours(state, budget, args.cutoff),
                     budgets)
    print(f"{len(positions)} positions of {PATH.name} (long search "
          f"{positions[0][1]['long_iterations']} iterations)")
    if args.markdown:
        print()
        print("| iterations | " + " | ".join(f"{r['budget']:,}" for r in rows) + " |")
        print("|---|" + "---|" * len(rows))
        print("| agreement | " + " | ".join(f"{r['agreement']:.0%}" for r in rows) + " |")
        print("| seconds per decision | "
              + " | ".join(f"{r['seconds_per_decision']:.3f}" for r in rows) + " |")
    else:
        print(f"{'budget':>7} {'agreement':>10} {'s/decision':>11}")
        for row in rows:
            print(f"{row['budget']:>7} {row['agreement']:>10.1%} "
                  f"{row['seconds_per_decision']:>11.3f}")
    if args.png:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        figure, axis = plt.subplots(figsize=(6, 4))
        axis.semilogx([r["budget"] for r in rows], [r["agreement"] for r in rows], "o-",
                      label="solver.search (SO-ISMCTS, greedy rollouts)")
        axis.set_xlabel("iterations per decision")
        axis.set_ylabel("agreement with the long search")
        axis.set_ylim(0, 1)
        axis.grid(True, alpha=0.3)
        axis.legend()
        figure.tight_layout()
        figure.savefig(args.png, dpi=120)


if __name__ == "__main__":
    main()
