"""``biriba analyze``: the best play in a position, with numbers (analysis.analyzer)."""

from __future__ import annotations

import json
import sys
import time

from analysis.analyzer import (
    DEFAULT_WORKERS,
    Position,
    analyze,
    build_state,
    load_position,
    position_of_record,
)
from solver.engine import records
from solver.errors import BiribaError, OutOfRangeError
from solver.search.plans import PLANS_ALL, PLANS_DEFAULT


def add_analyze_command(commands, add_rules_arguments) -> None:
    parser = commands.add_parser("analyze", help="the best decision in a position, in points")
    parser.add_argument("file", nargs="?", metavar="POSITION.json|RECORD.json",
                        help="a position file (examples/), or a record with --at N")
    parser.add_argument("--at", type=int, help="with a record: the position before action N")
    parser.add_argument("--hand", help="your hand")
    parser.add_argument("--table", action="append", default=[], metavar="TEAM:CARDS",
                        help="a table meld of team TEAM, repeatable (0:\"5H 6H 7H\")")
    parser.add_argument("--pile", default="", help="the discard pile, the top card last")
    add_rules_arguments(parser)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 6))
    parser.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    parser.add_argument("--phase", default="draw", choices=("draw", "play"))
    parser.add_argument("--trump", help="the trump suit (S, H, D, C)")
    parser.add_argument("--opened", action="append", type=int, default=[], metavar="TEAM",
                        help="a team that has laid down this round, repeatable")
    parser.add_argument("--scores", help="match scores per team, comma-separated")
    parser.add_argument("--hand-sizes", help="cards per seat, comma-separated")
    parser.add_argument("--stock", type=int, help="cards in the stock")
    parser.add_argument("--packets-taken", action="append", type=int, default=[],
                        metavar="TEAM", help="a team that took its packet, repeatable")
    parser.add_argument("--seconds", type=float,
                        help="seconds for the whole analysis (default 2; the search gets "
                             "what is left after the position is set up)")
    parser.add_argument("--iterations", type=int, help="search iterations instead of time")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=DEFAULT_WORKERS,
                        help=f"search processes (default {DEFAULT_WORKERS}; the same "
                             "number on every machine, so --iterations with --seed gives "
                             "the same answer everywhere)")
    parser.add_argument("--plans", type=int, default=PLANS_DEFAULT,
                        help=f"the lay-down plans weighed, a mask (default {PLANS_DEFAULT}: "
                             f"the best and nothing; {PLANS_ALL}: also extend only, hold "
                             "cards, go out)")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.set_defaults(handler=cmd_analyze)


def _ints(text, name):
    if text is None:
        return None
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise OutOfRangeError(f"--{name} must be integers separated by commas, "
                              f"got {text!r}") from None


def _position_from_args(args) -> Position:
    if args.hand is None:
        raise BiribaError("give a position: a POSITION.json file, a RECORD.json with --at N, "
                          "or --hand CARDS (and the other flags)")
    table: dict[int, list[str]] = {}
    for item in args.table:
        team, colon, cards = item.partition(":")
        if not colon or not team.strip().isdigit():
            raise BiribaError(f"--table {item!r}: write TEAM:CARDS, e.g. 0:\"5H 6H 7H\"")
        table.setdefault(int(team), []).append(cards)
    return Position(hand=args.hand, rules=args.rules, options=tuple(args.option),
                    players=args.players, seat=args.seat, phase=args.phase, table=table,
                    pile=args.pile, trump=args.trump, opened=tuple(args.opened),
                    scores=_ints(args.scores, "scores"),
                    hand_sizes=_ints(args.hand_sizes, "hand-sizes"), stock=args.stock,
                    packets_taken=tuple(args.packets_taken))


def _target(args):
    if args.file is None:
        return _position_from_args(args)
    if args.at is not None:
        record = records.read(args.file)
        _compile_engine()               # the record replays in the engine
        return position_of_record(record, args.at)
    return load_position(args.file)


def _bar(share: float) -> None:
    width = 30
    filled = int(width * share)
    sys.stderr.write(f"\rsearching [{'#' * filled}{'.' * (width - filled)}] {share:4.0%}")
    sys.stderr.flush()


def _compile_engine() -> None:
    from solver.engine.warm import ensure_compiled

    ensure_compiled("play", lambda text: print(text, file=sys.stderr, flush=True))


def cmd_analyze(args) -> int:
    from solver.search.search import check_budget, check_plans

    started = time.perf_counter()               # the budget is the command's
    target = _target(args)
    check_budget(args.iterations, args.seconds, args.workers)
    check_plans(args.plans)
    # compiled first: building the state runs the engine, which would compile on its own,
    # one part after another on one core
    _compile_engine()
    if isinstance(target, Position):
        target = build_state(target, args.seed)      # refuses an impossible position
    bar = None if args.json else _bar
    result = analyze(target, iterations=args.iterations, seconds=args.seconds,
                     seed=args.seed, workers=args.workers, started=started, progress=bar,
                     plans=args.plans)
    if bar is not None:
        sys.stderr.write("\n")
    if args.json:
        print(json.dumps(result.to_dict()))
        return 0
    laydown = result.best_laydown
    print(f"seat {result.seat} to {result.phase}; {result.iterations} iterations in "
          f"{result.seconds:.1f} s")
    melds = [" ".join(meld) for meld in laydown["melds"]]
    extensions = [f"table meld {e['table_index']} +{' '.join(e['cards'])}"
                  for e in laydown["extensions"]]
    print(f"best lay-down now: {laydown['points']} points"
          + (": " + ", ".join(melds + extensions) if melds or extensions else " (nothing)"))
    print(f"{'decision':<44} {'mean':>7} {'95% interval':>17} {'win':>5} {'loss':>6}")
    best = result.decisions[0]
    for index, row in enumerate(result.decisions):
        low, high = row["ci95"]
        interval = f"[{low:+.0f}, {high:+.0f}]" if row["visits"] > 1 else "(forced)"
        near = "" if index == 0 or row["mean"] < best["ci95"][0] else "  ~"
        mark = "* " if index == 0 else "  "
        name = row["decision"] if len(row["decision"]) <= 42 else row["decision"][:39] + "..."
        print(f"{mark}{name:<42} {row['mean']:>+7.0f} {interval:>17} {row['win']:>5.0%} "
              f"{row['loss']:>6.0f}{near}")
    print(f"why: {result.reason}")
    print("(* best; ~ within the best's 95% interval)")
    return 0
