"""``biriba duel A B``: two players on duplicate deals (seats swapped)."""

from __future__ import annotations

import functools
import json
import sys

from analysis.cli.common import add_rules_arguments, progress_bar, stop_on_sigterm
from analysis.duels import MAX_DEALS, check_workers, duel
from analysis.specs import parse_spec
from solver.engine.api import Game, check_seed
from solver.errors import OutOfRangeError


def add(commands) -> None:
    duel = commands.add_parser("duel", help="two players on duplicate deals (seats swapped)")
    duel.add_argument("a", metavar="A", help="a player: random, greedy, expert, ismcts:iterations=400")
    duel.add_argument("b", metavar="B", help="the other player")
    duel.add_argument("--deals", type=int, default=20, help="deals, each played twice (20)")
    duel.add_argument("--players", type=int, default=2, choices=(2, 4))
    add_rules_arguments(duel)
    duel.add_argument("--seed", type=int, default=0, help="first deal seed (default 0)")
    duel.add_argument("--workers", type=int, default=1, help="processes playing deals (1)")
    duel.add_argument("--match", action="store_true",
                      help="play whole matches (rounds until the target), not rounds")
    duel.add_argument("--quiet", action="store_true", help="no progress bar")
    duel.add_argument("--json", action="store_true", help="one JSON object")
    duel.add_argument("--log", metavar="FILE", help="append each deal pair as a JSON line "
                      "as soon as it is played (long duels)")
    duel.set_defaults(handler=run)


def run(args) -> int:
    from analysis.warm import ensure_compiled

    game = Game(args.players, args.rules, *args.option, match=args.match)
    specs = parse_spec(args.a, game), parse_spec(args.b, game)
    if not 1 <= args.deals <= MAX_DEALS:
        raise OutOfRangeError(f"--deals must be 1..{MAX_DEALS}, got {args.deals}")
    check_workers(args.workers)                  # every check before any compiling
    check_seed(args.seed, args.deals)
    ensure_compiled("simulate", also=specs[0].parts + specs[1].parts)
    progress = None if (args.quiet or args.json) else functools.partial(progress_bar,
                                                                        noun="deals")
    stop_on_sigterm()                         # a killed duel still reports what it played
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    try:
        result = duel(args.a, args.b, args.deals, args.players, args.rules,
                      tuple(args.option), args.seed, args.workers, progress, log, args.match)
    finally:
        if log is not None:
            log.close()
    if result["interrupted"]:
        print(f"\ninterrupted: {result['deals']} of {args.deals} deals played", file=sys.stderr)
    if args.json:
        print(json.dumps(result))
        return 130 if result["interrupted"] else 0
    low, high = result["ci95"]
    one, many = ("match", "matches") if args.match else ("round", "rounds")
    print(f"{result['deals']} deals x 2 {many} of {args.rules}, {args.players} players: "
          f"A = {args.a}, B = {args.b}")
    scores = " (final match scores)" if args.match else ""
    print(f"A - B per {one}{scores}: {result['mean_diff']:+.1f} points, 95% interval "
          f"[{low:+.1f}, {high:+.1f}]")
    rounds = result["rounds"]
    print(f"{many} won: A {result['wins'][0]} ({result['wins'][0] / rounds:.1%}), "
          f"B {result['wins'][1]} ({result['wins'][1] / rounds:.1%}), ties {result['ties']}")
    spa, spb = result["seconds_per_decision"]
    print(f"seconds per decision: A {spa:.4f}, B {spb:.4f}; {result['seconds']:.1f} s in all")
    return 130 if result["interrupted"] else 0
