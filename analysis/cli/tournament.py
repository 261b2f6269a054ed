"""``biriba tournament A B C ...``: players on the same duplicate deals, rated."""

from __future__ import annotations

import functools
import os
import sys

from analysis import sprt
from analysis import tournament as T
from analysis.charts import pyplot
from analysis.cli.common import add_rules_arguments, emit, progress_bar, stop_on_sigterm
from analysis.specs import parse_spec
from analysis.warm import ensure_compiled
from solver.errors import BiribaError


def add(commands) -> None:
    parser = commands.add_parser(
        "tournament", help="several players on the same duplicate deals: ratings with intervals")
    parser.add_argument("entrants", nargs="*", metavar="PLAYER",
                        help="players: random, greedy, expert, ismcts:iterations=400, ...")
    parser.add_argument("--format", dest="pairing", default="round-robin", choices=T.FORMATS,
                        help="every two players, or the first against each other "
                             "(default round-robin)")
    parser.add_argument("--deals", type=int, default=20,
                        help="deals per pairing, each played twice (default 20)")
    parser.add_argument("--players", type=int, default=2, choices=(2, 4))
    add_rules_arguments(parser)
    parser.add_argument("--seed", type=int, default=0, help="first deal seed (default 0)")
    parser.add_argument("--match", action="store_true",
                        help="play whole matches, not rounds")
    parser.add_argument("--engine", default="local", choices=T.ENGINES,
                        help="local processes (default), or Ray tasks (pip install -e "
                             "\".[cluster]\")")
    parser.add_argument("--address", metavar="ADDR",
                        help="with --engine ray: the cluster (ray.init's address); none: a "
                             "local Ray of --workers processors")
    parser.add_argument("--workers", type=int, default=1, help="processes playing pairs (1)")
    parser.add_argument("--sprt", metavar="ELO0,ELO1",
                        help="two players: stop once a sequential test settles whether A gains "
                             "at least ELO1 or at most ELO0 (alpha = beta = 0.05); --deals "
                             "is the most it plays")
    parser.add_argument("--anchor", metavar="PLAYER",
                        help="the player rated 0 (default: the first)")
    parser.add_argument("--log", metavar="FILE",
                        help="write the settings and each deal pair as a JSON line as soon "
                             "as it is played")
    parser.add_argument("--resume", metavar="FILE",
                        help="go on with the tournament of this log (its settings)")
    parser.add_argument("--plot", metavar="FILE.png",
                        help="draw the ratings with their intervals (needs matplotlib)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.set_defaults(handler=run)


def run(args) -> int:
    T.check_workers(args.workers)                   # every check before any compiling
    if args.address and args.engine != "ray":
        raise BiribaError("--address names a Ray cluster: add --engine ray")
    if args.resume:
        if args.log and args.log != args.resume:
            raise BiribaError("--resume appends to its own log: leave out --log")
        config, done = T.read_log(args.resume, make=False)
        to_play = len(done) < len(T.tasks(config))
        if to_play:                                   # the players made, or refused
            T.read_log(args.resume)
        if args.entrants and args.entrants != config["entrants"]:
            raise BiribaError(f"--resume {args.resume!r} plays {' '.join(config['entrants'])}, "
                              f"not {' '.join(args.entrants)}")
        path = args.resume
    else:
        config = T.settings(args.entrants, args.pairing, args.deals, args.players, args.rules,
                            tuple(args.option), args.seed, args.match,
                            sprt.parse(args.sprt) if args.sprt else None)
        path = args.log
        to_play = True
    anchor = 0
    if args.anchor is not None:
        if args.anchor not in config["entrants"]:
            raise BiribaError(f"--anchor {args.anchor!r} is not one of the players")
        anchor = config["entrants"].index(args.anchor)
    if args.plot:
        pyplot()                        # refused before the games, not after them
        if not os.path.isdir(os.path.dirname(os.path.abspath(args.plot))):
            raise BiribaError(f"cannot write {args.plot!r}: no such folder")
    if to_play:
        parts = sum((parse_spec(e, make=False).parts for e in config["entrants"]), ())
        ensure_compiled("simulate", also=parts)
    progress = None if (args.quiet or args.json) else functools.partial(progress_bar,
                                                                        noun="deal pairs")
    stop_on_sigterm()                         # a killed tournament still reports its standings
    result = T.run(config, path, resume=bool(args.resume), workers=args.workers,
                   progress=progress, anchor=anchor, engine=args.engine, address=args.address)
    if args.plot:
        T.plot(result, args.plot)
    if result["interrupted"]:
        print(f"\ninterrupted: {result['pairs']} of {result['pairs_planned']} deal pairs "
              "played", file=sys.stderr)
    code = emit(args, result, [] if args.json else T.lines(result))
    return 130 if result["interrupted"] else code

