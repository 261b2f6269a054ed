"""``biriba best``: the lay-down worth the most points, with the team's table melds."""

from __future__ import annotations

from analysis.answers import best_answer, best_instance
from analysis.cli.common import add_rules_arguments, announce_numba, print_json
from kernels.partition import BACKENDS
from solver.optimizer import OBJECTIVES, SOLVERS, Config


def add(commands) -> None:
    best = commands.add_parser(
        "best", help="the lay-down worth the most points, with the team's table melds")
    best.add_argument("hand", help="the hand's cards")
    add_rules_arguments(best)
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
    best.set_defaults(handler=run)


def run(args):
    rules, trump, instance = best_instance(
        args.hand, table=args.table, rules=args.rules, options=args.option, trump=args.trump,
        opened=args.opened, score=args.score, keep=args.keep, must_use=args.must_use,
        players=args.players)
    config = Config(solver=args.solver, objective=args.objective, backend=args.backend,
                    time_limit=args.time_limit)
    if args.solver != "cpsat":
        announce_numba(args.backend, len(instance.hand))
    result, described, data = best_answer(instance, rules, trump, config)
    if args.json:
        print_json(data)
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
