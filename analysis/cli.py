"""The ``biriba`` command line.

Every sub-command prints a readable table by default and exactly one JSON
object with ``--json``. Bad input (an unparsable card, an unknown preset, an
illegal table meld, ...) prints one line on stderr and exits with code 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from analysis.analyze_cmd import add_analyze_command
from analysis.duel import add_duel_command
from analysis.review import add_review_command
from analysis.games import add_game_commands
from kernels.partition import BACKENDS
from solver.errors import BiribaError, IllegalMeldError
from solver.laydown import count_laydowns_timed
from solver.melds import analyze_meld, check_trump
from solver.optimizer import OBJECTIVES, SOLVERS, Config, Instance, optimize_laydown
from solver.rules import OPTIONS, PRESETS, get_rules
from solver.values import check_copies, checked_hand

EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line and exit code 2."""

    def error(self, message):
        raise BiribaError(f"{self.prog}: {message}")


def _add_rules_arguments(parser):
    parser.add_argument("--rules", default="classic", help=f"rule preset ({', '.join(PRESETS)})")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME",
        help=f"rule option, repeatable ({', '.join(OPTIONS)})",
    )


def _rules_from(args):
    return get_rules(args.rules, *args.option)


def _print_json(data):
    print(json.dumps(data, ensure_ascii=True))


def _cmd_meld(args):
    rules = _rules_from(args)
    trump = check_trump(args.trump, rules)
    check_copies([args.cards], rules, args.players, "in the meld")
    try:
        info = analyze_meld(args.cards, rules, trump)
    except IllegalMeldError as error:
        reason = str(error).split(": ", 1)[-1]
        if args.json:
            _print_json({"valid": False, "reason": reason})
        else:
            print(f"not a legal meld under {rules.name!r}: {reason}")
        return 0
    if args.json:
        _print_json(info.to_dict())
        return 0
    what = f"run of {info.suit}" if info.kind == "run" else (
        f"set of {info.rank}" if info.rank else "set of wild cards")
    rows = [
        ("cards", " ".join(info.ordered_cards())),
        ("meld", f"{what}, {'clean' if info.clean else 'dirty'} ({info.wilds} wild)"),
    ]
    if info.wild_ranks:
        rows.append(("wild may stand for", " or ".join(info.wild_ranks)))
    rows += [
        ("biriba", info.biriba or "-"),
        ("card values", str(info.value)),
        ("bonus", str(info.bonus)),
        ("points", str(info.points)),
    ]
    width = max(len(name) for name, _ in rows)
    print(f"legal meld under {rules.name!r}" + (f" (trump {args.trump.upper()})" if trump is not None else ""))
    for name, value in rows:
        print(f"  {name:<{width}}  {value}")
    return 0


def _describe_meld(cards, rules, trump):
    info = analyze_meld(cards, rules, trump)
    what = f"run of {info.suit}" if info.kind == "run" else (
        f"set of {info.rank}" if info.rank else "set of wild cards")
    state = "clean" if info.clean else "dirty"
    label = f", {info.biriba}" if info.biriba else ""
    return info, f"{what}, {state}{label}"


def _announce_numba(backend, cards: int = 0) -> None:
    """Say on stderr when numba code is about to compile (its first run): the numba
    backend, or Cython's bounded search from PRICED_CARDS cards (numba's programme)."""
    from kernels.partition import needs_numba

    if needs_numba(backend, cards):
        from solver.engine.warm import ensure_compiled

        ensure_compiled("numba backend", lambda text: print(text, file=sys.stderr, flush=True))


def _cmd_partitions(args):
    rules = _rules_from(args)
    checked_hand(args.hand)                 # a bad card is refused before any compiling
    _announce_numba(args.backend)
    total, seconds = count_laydowns_timed(args.hand, rules, args.backend)
    backend = args.backend or _default_backend()
    if args.json:
        _print_json({"count": total, "backend": backend, "seconds": round(seconds, 6)})
    else:
        print(f"{total} lay-down(s) of {args.hand!r} under {rules.name!r} "
              f"({backend}, {seconds * 1000:.2f} ms)")
    return 0


def _default_backend():
    from kernels.partition import resolve_backend

    return resolve_backend(None)


def _cmd_best(args):
    rules = _rules_from(args)
    trump = check_trump(args.trump, rules)
    instance = Instance.build(
        args.hand, table=args.table, rules=rules, trump=trump, opened=args.opened,
        score=args.score, keep=args.keep, must_use=" ".join(args.must_use), players=args.players,
    )
    config = Config(solver=args.solver, objective=args.objective, backend=args.backend,
                    time_limit=args.time_limit)
    if args.solver != "cpsat":
        _announce_numba(args.backend, len(instance.hand))
    result = optimize_laydown(instance, config)
    described = [_describe_meld(meld.cards, rules, trump) for meld in result.melds]
    if args.json:
        data = result.to_dict()
        data["melds"] = [info.ordered_cards() for info, _ in described]
        data["seconds"] = round(result.seconds, 6)
        _print_json(data)
        return 0
    goal = {"points": "the most points", "cards": "the most cards",
            "out": "going out"}[args.objective]
    print(f"best lay-down under {rules.name!r}"
          + (f" (trump {args.trump.upper()})" if trump is not None else "")
          + f" for {goal}, keeping at least {args.keep} card(s): {result.points} points"
          + ("" if result.optimal else
             " (not proven optimal: " + ("time limit" if result.solver == "cpsat"
                                         else "the kernel's search budget") + ")"))
    if instance.minimum:
        print(f"  vulnerable: a first lay-down must be worth at least {instance.minimum}")
    if not result.feasible and not result.optimal:
        print("  CP-SAT found no lay-down within the time limit (raise --time-limit)"
              if result.solver == "cpsat" else
              "  the kernel found no lay-down within its search budget (try --solver cpsat)")
        return 0
    if not result.feasible:
        print("  no lay-down meets the constraints"
              + (f" (must use {instance.must_use})" if instance.must_use else ""))
        return 0
    if not described and not result.extensions:
        print("  nothing to lay down")
    rows = [(" ".join(info.ordered_cards()), text, info.points) for info, text in described]
    for extension in result.extensions:
        before = instance.table[extension.table_index]
        rows.append((f"+ {extension.cards}",
                     f"onto table meld {extension.table_index} ({before})", extension.points))
    width = max([len(cards) for cards, _, _ in rows] + [5])
    kind_width = max([len(text) for _, text, _ in rows] + [4])
    for cards, text, points in rows:
        print(f"  {cards:<{width}}  {text:<{kind_width}}  {points:>5}")
    print(f"  left in hand: {result.left or '-'}")
    if args.objective == "out":
        print("  goes out: " + ("yes" if result.goes_out else "no"))
    print(f"  solver: {result.solver} ({result.seconds * 1000:.2f} ms)")
    return 0


def _cmd_rules(args):
    if args.preset is None:
        if args.json:
            _print_json({name: rules.to_dict() for name, rules in PRESETS.items()})
        else:
            for name, rules in PRESETS.items():
                print(f"{name:<12} source {rules.source}")
        return 0
    rules = get_rules(args.preset, *args.option)
    data = rules.to_dict()
    if args.json:
        _print_json(data)
        return 0
    width = max(len(key) for key in data)
    for key, value in data.items():
        print(f"{key:<{width}}  {value}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="biriba", description="Biriba solver: melds, lay-downs, play.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    meld = commands.add_parser("meld", help="is this a legal meld, and what is it worth")
    meld.add_argument("cards", help='cards, e.g. "4H 5H 2C 7H"')
    _add_rules_arguments(meld)
    meld.add_argument("--trump", help="trump suit S, H, D or C")
    meld.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 6),
                      help="players at the table: 6 play with three decks (default 4)")
    meld.add_argument("--json", action="store_true", help="one JSON object")
    meld.set_defaults(handler=_cmd_meld)

    partitions = commands.add_parser("partitions", help="count every lay-down of a hand")
    partitions.add_argument("hand", help="the hand's cards")
    _add_rules_arguments(partitions)
    partitions.add_argument("--backend", choices=BACKENDS, help="kernel backend (default: fastest)")
    partitions.add_argument("--json", action="store_true", help="one JSON object")
    partitions.set_defaults(handler=_cmd_partitions)

    best = commands.add_parser(
        "best", help="the lay-down worth the most points, with the team's table melds")
    best.add_argument("hand", help="the hand's cards")
    _add_rules_arguments(best)
    best.add_argument("--trump", help="trump suit S, H, D or C")
    best.add_argument("--keep", type=int, default=1, help="cards to keep in hand (default 1)")
    best.add_argument("--table", action="append", default=[], metavar="CARDS",
                      help="a meld of the team on the table, repeatable")
    best.add_argument("--opened", action="store_true",
                      help="the team has laid down this round already")
    best.add_argument("--score", type=int, default=0,
                      help="the team's match score (vulnerability minimum)")
    best.add_argument("--must-use", action="append", default=[], metavar="CARD",
                      help="a card that must be laid (the top of a taken pile), repeatable")
    best.add_argument("--objective", choices=OBJECTIVES, default="points",
                      help="most points (default), most cards, or going out")
    best.add_argument("--solver", choices=SOLVERS, default="auto",
                      help="exact partition kernel, OR-Tools CP-SAT, or auto (default: the "
                           "kernel up to 60 cards, CP-SAT above and where the kernel "
                           "stops at its budget)")
    best.add_argument("--time-limit", type=float, default=10.0,
                      help="CP-SAT limit in deterministic time (default 10)")
    best.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 6),
                      help="players at the table: 6 play with three decks (default 4)")
    best.add_argument("--backend", choices=BACKENDS, help="kernel backend (default: fastest)")
    best.add_argument("--json", action="store_true", help="one JSON object")
    best.set_defaults(handler=_cmd_best)

    rules = commands.add_parser("rules", help="a preset's fields (all presets without a name)")
    rules.add_argument("preset", nargs="?")
    rules.add_argument("--option", action="append", default=[], metavar="NAME")
    rules.add_argument("--json", action="store_true")
    rules.set_defaults(handler=_cmd_rules)

    add_game_commands(commands, _add_rules_arguments)
    add_duel_command(commands, _add_rules_arguments)
    add_analyze_command(commands, _add_rules_arguments)
    add_review_command(commands)
    return parser


def main(argv=None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return args.handler(args)
    except BiribaError as error:
        print(f"biriba: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # output piped into head and the like
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
