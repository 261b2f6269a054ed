"""Speed of the ISMCTS search, for benchmarks/README.md.

    python -m benchmarks.search_report [--positions 20] [--iterations 400] [--players 4]
                                       [--openspiel SIMULATIONS] [--cutoffs 40,20,10]
                                       [--workers-iterations 1600]
                                       [--multi] [--infer TRUST] [--markdown]

Seeded mid-round positions (greedy play from the deal for 20..80 actions), one core:
iterations per second with greedy rollouts to the end of the round, with the expert player's rollouts and with random
rollouts (``epsilon=1``: every rollout action uniform, as OpenSpiel's random-rollout
evaluator), engine actions per iteration, and root parallelism (``workers=2`` against
``workers=1``, iterations per second of wall time, at ``--iterations`` and at the longer
``--workers-iterations`` budget, where the forks' start weighs less); with ``--cutoffs``, the greedy
rollouts' speed with each rollout cut-off too; with ``--multi``, MO-ISMCTS's; with ``--infer``, the inference option's.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from solver.engine.api import Game
from solver.engine.players import GreedyPlayer
from solver.search import search


def midround(game, seed: int, first: int = 20, spread: int = 60, step: int = 13):
    """The deal ``seed`` after ``first + (seed * step) % spread`` greedy actions (or its
    end), with whether the player to move then has a real decision."""
    from solver.search.search import available_decisions

    state = game.new_initial_state(seed)
    greedy = GreedyPlayer()
    for _ in range(first + (seed * step) % spread):
        if state.is_terminal():
            break
        state.apply_action(greedy.choose(state))
    return state, not state.is_terminal() and len(available_decisions(state)) > 1


def positions(count: int, players: int = 4, preset: str = "classic") -> list:
    """``count`` seeded mid-round states with a real decision for the player to move."""
    game = Game(players, preset)
    found = []
    seed = 0
    while len(found) < count:
        state, deciding = midround(game, seed)
        seed += 1
        if deciding:
            found.append(state)
    return found


def rate(states, iterations: int, **options) -> tuple[float, float]:
    """(iterations per second, engine actions per iteration) over ``states``."""
    done = actions = 0
    started = time.perf_counter()
    for index, state in enumerate(states):
        result = search(state, iterations=iterations, seed=index, **options)
        done += result.iterations
        actions += result.actions
    seconds = time.perf_counter() - started
    return done / seconds, actions / done


def openspiel_rate(states, simulations: int) -> float:
    """Simulations per second of OpenSpiel's ISMCTSBot (Python, random rollouts) on
    ``states`` through the pyspiel wrapper (solver/openspiel_game.py)."""
    from solver.openspiel_game import BiribaGame, ismcts_bot

    game = BiribaGame({"players": states[0].game.players})
    bot = ismcts_bot(game, simulations, seed=0)
    started = time.perf_counter()
    done = 0
    for state in states:
        bot.run_search(game.new_initial_state(state.clone()))
        done += simulations
    return done / (time.perf_counter() - started)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=400)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--openspiel", type=int, default=0, metavar="SIMULATIONS",
                        help="also time OpenSpiel's ISMCTSBot (the optional extra)")
    parser.add_argument("--cutoffs", default="", metavar="N,N,...",
                        help="also time greedy rollouts cut off after N engine actions")
    parser.add_argument("--multi", action="store_true",
                        help="also time MO-ISMCTS (one tree per player, multi=1)")
    parser.add_argument("--infer", type=float, default=0.0, metavar="TRUST",
                        help="also time the inference option (infer=TRUST)")
    parser.add_argument("--workers-iterations", type=int, default=0, metavar="N",
                        help="the longer budget of the workers line (default 4x --iterations)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--markdown", action="store_true",
                        help="print the figures as a Markdown table (benchmarks/tables.py)")
    args = parser.parse_args(argv)
    cutoffs = [int(n) for n in args.cutoffs.split(",") if n.strip()]
    states = positions(args.positions, args.players)
    search(states[0], iterations=20, seed=0)              # compile and warm
    search(states[0], iterations=4, seed=0, epsilon=1.0)
    greedy, greedy_actions = rate(states, args.iterations)
    search(states[0], iterations=20, seed=0, rollout="expert")
    expert_rate, expert_actions = rate(states, args.iterations, rollout="expert")
    random_rate, random_actions = rate(states, args.iterations, epsilon=1.0)
    half = states[: max(1, len(states) // 2)]
    one, _ = rate(half, args.iterations)
    two, _ = rate(half, args.iterations, workers=2)
    long_budget = args.workers_iterations or 4 * args.iterations
    long_one, _ = rate(half, long_budget)
    long_two, _ = rate(half, long_budget, workers=2)
    figures = {
        "positions": len(states), "players": args.players, "iterations": args.iterations,
        "greedy_rollouts_per_s": greedy, "greedy_actions_per_iteration": greedy_actions,
        "expert_rollouts_per_s": expert_rate, "expert_actions_per_iteration": expert_actions,
        "expert_vs_greedy": expert_rate / greedy,
        "random_rollouts_per_s": random_rate, "random_actions_per_iteration": random_actions,
        "workers_1_per_s": one, "workers_2_per_s": two, "workers_speedup": two / one,
        "workers_iterations": long_budget, "workers_long_1_per_s": long_one,
        "workers_long_2_per_s": long_two, "workers_long_speedup": long_two / long_one,
    }
    for cutoff in cutoffs:
        figures[f"cutoff_{cutoff}"] = rate(states, args.iterations, cutoff=cutoff)
    if args.multi:
        search(states[0], iterations=20, seed=0, multi=True)
        figures["multi_per_s"], figures["multi_actions_per_iteration"] = rate(
            states, args.iterations, multi=True)
    if args.infer:
        search(states[0], iterations=20, seed=0, infer=args.infer)
        figures["infer_per_s"], figures["infer_actions_per_iteration"] = rate(
            states, args.iterations, infer=args.infer)
    if args.openspiel:
        figures["openspiel_per_s"] = openspiel_rate(states, args.openspiel)
        figures["random_rollouts_vs_openspiel"] = random_rate / figures["openspiel_per_s"]
    if args.json:
        print(json.dumps(figures))
        return
    if args.markdown:
        print(_markdown(figures, cutoffs, args))
        return
    print(f"{len(states)} seeded {args.players}-player classic mid-round positions, "
          f"{args.iterations} iterations each, one core")
    print(f"greedy rollouts: {greedy:,.0f} iterations/s ({greedy_actions:.0f} engine actions "
          f"per iteration)")
    print(f"expert rollouts: {expert_rate:,.0f} iterations/s ({expert_actions:.0f} engine "
          f"actions per iteration; {expert_rate / greedy:.0%} of the greedy rollouts' rate)")
    print(f"random rollouts: {random_rate:,.0f} iterations/s ({random_actions:.0f} engine "
          f"actions per iteration)")
    print(f"workers=2: {two:,.0f} iterations/s against {one:,.0f} with workers=1 "
          f"({two / one:.2f}x); at {long_budget} iterations a decision {long_two:,.0f} "
          f"against {long_one:,.0f} ({long_two / long_one:.2f}x)")
    for cutoff in cutoffs:
        per_s, actions = figures[f"cutoff_{cutoff}"]
        print(f"greedy rollouts cut off after {cutoff} actions: {per_s:,.0f} iterations/s "
              f"({actions:.0f} engine actions per iteration)")
    if args.multi:
        print(f"MO-ISMCTS (multi=1), greedy rollouts: {figures['multi_per_s']:,.0f} "
              f"iterations/s ({figures['multi_actions_per_iteration']:.0f} engine actions "
              f"per iteration)")
    if args.infer:
        print(f"inference (infer={args.infer:g}), greedy rollouts: "
              f"{figures['infer_per_s']:,.0f} iterations/s")
    if args.openspiel:
        print(f"OpenSpiel's ISMCTSBot (random rollouts, through the pyspiel wrapper): "
              f"{figures['openspiel_per_s']:,.0f} simulations/s; ours with random rollouts "
              f"{figures['random_rollouts_vs_openspiel']:.1f}x that")


def _markdown(figures, cutoffs, args) -> str:
    """The figures as the Markdown table of benchmarks/README.md."""
    f = figures
    rows = [
        ("greedy rollouts to the end of the round",
         f"{f['greedy_rollouts_per_s']:,.0f} iterations/s "
         f"({f['greedy_actions_per_iteration']:.0f} engine actions each)"),
        ("expert rollouts (`rollout=expert`)",
         f"{f['expert_rollouts_per_s']:,.0f} iterations/s "
         f"({f['expert_actions_per_iteration']:.0f} engine actions each; "
         f"{f['expert_vs_greedy']:.0%} of the greedy rollouts' rate)"),
        ("random rollouts (`epsilon=1`)",
         f"{f['random_rollouts_per_s']:,.0f} iterations/s "
         f"({f['random_actions_per_iteration']:.0f} engine actions each)"),
        (f"`workers=2` against `workers=1`, {f['iterations']:,} iterations a decision",
         f"{f['workers_speedup']:.2f}× ({f['workers_2_per_s']:,.0f} against "
         f"{f['workers_1_per_s']:,.0f} iterations/s)"),
        (f"the same at {f['workers_iterations']:,} iterations a decision",
         f"{f['workers_long_speedup']:.2f}× ({f['workers_long_2_per_s']:,.0f} against "
         f"{f['workers_long_1_per_s']:,.0f} iterations/s)"),
    ]
    for cutoff in cutoffs:
        per_s, actions = f[f"cutoff_{cutoff}"]
        rows.append((f"greedy rollouts cut off after {cutoff} actions (`cutoff={cutoff}`)",
                     f"{per_s:,.0f} iterations/s ({actions:.0f} engine actions each)"))
    if args.multi:
        rows.append(("one tree per player (`multi=1`), greedy rollouts",
                     f"{f['multi_per_s']:,.0f} iterations/s"))
    if args.infer:
        rows.append((f"inference (`infer={args.infer:g}`), greedy rollouts",
                     f"{f['infer_per_s']:,.0f} iterations/s "
                     f"({f['infer_per_s'] / f['greedy_rollouts_per_s'] - 1:+.0%})"))
    if args.openspiel:
        rows.append(("OpenSpiel's ISMCTSBot, random rollouts (pyspiel wrapper)",
                     f"{f['openspiel_per_s']:,.0f} simulations/s"))
        rows.append(("ours with random rollouts against OpenSpiel's",
                     f"{f['random_rollouts_vs_openspiel']:.1f}×"))
    head = (f"| {f['positions']} seeded {f['players']}-player classic positions, "
            f"{f['iterations']:,} iterations each, one core | figure |")
    return "\n".join([head, "|---|---|"] + [f"| {what} | {figure} |" for what, figure in rows])


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
