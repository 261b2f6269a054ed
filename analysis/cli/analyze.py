"""``biriba analyze``: the best decision in a position, in points (analysis.analyzer)."""

from __future__ import annotations

import sys
import time

from analysis.analyzer import (
    DEFAULT_WORKERS,
    PLANS_ANALYZE,
    Position,
    analyze,
    build_state,
    check_at,
    load_position,
    position_of_record,
)
from solver.search.evaluate import CONTINUATION_DEFAULT
from solver.search.search import ROLLOUTS
from analysis.cli.common import add_rules_arguments, emit
from solver.engine import records
from solver.errors import BiribaError, OutOfRangeError
from solver.search.plans import PLANS_BASIC


def add(commands) -> None:
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
    lists = "; comma-separated, or the flag repeated"
    parser.add_argument("--opened", action="append", metavar="TEAM",
                        help="the teams that have laid down this round" + lists)
    parser.add_argument("--scores", action="append", metavar="N,N",
                        help="match scores per team" + lists)
    parser.add_argument("--hand-sizes", action="append", metavar="N,N",
                        help="cards per seat" + lists)
    parser.add_argument("--stock", type=int, help="cards in the stock")
    parser.add_argument("--packets-taken", action="append", metavar="TEAM",
                        help="the teams that took their packet" + lists)
    parser.add_argument("--seconds", type=float,
                        help="the cap on the whole analysis in seconds (default 10; it "
                             "stops sooner once the best is separated)")
    parser.add_argument("--iterations", type=int,
                        help="the cap in rollouts over all workers, instead of time "
                             "(with --seed: the same answer every time)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=DEFAULT_WORKERS,
                        help=f"search processes (default {DEFAULT_WORKERS}; the same "
                             "number on every machine, so --iterations with --seed gives "
                             "the same answer everywhere)")
    parser.add_argument("--plans", type=int, default=PLANS_ANALYZE,
                        help=f"the lay-down plans weighed, a mask (default {PLANS_ANALYZE}: "
                             "the best, nothing, extend only, hold cards, go out; "
                             f"{PLANS_BASIC}: the best and nothing)")
    parser.add_argument("--continuation", default=CONTINUATION_DEFAULT, choices=tuple(ROLLOUTS),
                        help="who plays after the decision, every seat, in the samples "
                             "(default greedy)")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.set_defaults(handler=run)


def _ints(texts, name):
    """A list flag's integers: each use comma-separated, the uses in order."""
    if texts is None:
        return None
    text = ",".join(texts)
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
                    pile=args.pile, trump=args.trump,
                    opened=_ints(args.opened, "opened") or (),
                    scores=_ints(args.scores, "scores"),
                    hand_sizes=_ints(args.hand_sizes, "hand-sizes"), stock=args.stock,
                    packets_taken=_ints(args.packets_taken, "packets-taken") or ())


def _target(args):
    if args.file is None:
        return _position_from_args(args)
    if args.at is not None:
        record = records.read(args.file)
        check_at(len(record["actions"]), args.at)      # before compiling, as every check
        _compile_engine(args.continuation)      # the record replays in the engine
        return position_of_record(record, args.at)
    return load_position(args.file)


def _bar(share: float) -> None:
    width = 30
    filled = int(width * share)
    sys.stderr.write(f"\rsearching [{'#' * filled}{'.' * (width - filled)}] {share:4.0%}")
    sys.stderr.flush()


def _compile_engine(continuation: str = CONTINUATION_DEFAULT) -> None:
    from analysis.warm import ensure_compiled

    ensure_compiled("play", also=("expert",) if continuation == "expert" else ())


def run(args) -> int:
    from solver.search.search import check_budget, check_plans, check_seed

    started = time.perf_counter()               # the budget is the command's
    check_budget(args.iterations, args.seconds, args.workers)
    check_plans(args.plans)
    check_seed(args.seed)
    target = _target(args)
    # compiled first: building the state runs the engine, which would compile on its own,
    # one part after another on one core
    _compile_engine(args.continuation)
    if isinstance(target, Position):
        target = build_state(target, args.seed)      # refuses an impossible position
    bar = None if args.json else _bar
    result = analyze(target, iterations=args.iterations, seconds=args.seconds,
                     seed=args.seed, workers=args.workers, started=started, progress=bar,
                     plans=args.plans, continuation=args.continuation)
    if bar is not None:
        sys.stderr.write("\n")
    return emit(args, result.to_dict(), [] if args.json else table_lines(result))


def table_lines(result) -> list[str]:
    """The analysis for people: the lay-down, the ranked decisions, the verdict, why."""
    laydown = result.best_laydown
    lines = [f"seat {result.seat} to {result.phase}; {result.iterations} iterations in "
             f"{result.seconds:.1f} s"]
    melds = [" ".join(meld) for meld in laydown["melds"]]
    extensions = [f"table meld {e['table_index']} +{' '.join(e['cards'])}"
                  for e in laydown["extensions"]]
    lines.append(f"best lay-down now: {laydown['points']} points"
                 + (": " + ", ".join(melds + extensions) if melds or extensions
                    else " (nothing)"))
    width = max([len(row["decision"]) for row in result.decisions] + [20])
    width = min(width, 60)
    lines.append(f"  {'decision':<{width}} {'mean':>6} {'95% interval':>14} {'win':>4} "
                 f"{'loss':>5} {'samples':>7}")
    for index, row in enumerate(result.decisions):
        mark = "* " if index == 0 and row["mean"] is not None else "  "
        name = row["decision"] if len(row["decision"]) <= width else \
            row["decision"][:width - 3] + "..."
        if row["mean"] is None:
            lines.append(f"{mark}{name:<{width}} {'-':>6} {'(too few)':>14} {'-':>4} "
                         f"{'-':>5} {row['visits']:>7}")
            continue
        low, high = row["ci95"]
        near = "" if index == 0 or row["separated"] else "  ~"
        lines.append(f"{mark}{name:<{width}} {row['mean']:>+6.0f} "
                     f"{f'[{low:+.0f}, {high:+.0f}]':>14} {row['win']:>4.0%} "
                     f"{row['loss']:>5.0f} {row['visits']:>7}{near}")
    verdict = {"separated": "the best is separated from every other decision",
               "too close to call": "too close to call: the cap was spent before the "
                                    "best separated from the decisions marked ~",
               "forced": "forced: one legal decision"}[result.verdict]
    lines.append(f"verdict: {verdict}")
    lines.append(f"why: {result.reason}")
    worse = [row for row in result.decisions[1:]
             if row["mean"] is not None and row["separated"] and row["loss"] >= 20]
    for row in sorted(worse, key=lambda row: -row["loss"])[:3]:
        lines.append(f"why not {row['decision']} ({row['loss']:.0f} behind): "
                     + "; ".join(row["why"]))
    lines.append("(* best; ~ not separated from the best on the same deals; loss: points "
                 "behind the best)")
    return lines
