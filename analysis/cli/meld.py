"""``biriba meld``: is this a legal meld, and what is it worth."""

from __future__ import annotations

from analysis.answers import meld_answer
from analysis.cli.common import add_rules_arguments, print_json, rules_from
from solver.melds import analyze_meld, check_trump


def add(commands) -> None:
    meld = commands.add_parser("meld", help="is this a legal meld, and what is it worth")
    meld.add_argument("cards", help='cards, e.g. "4H 5H 2C 7H"')
    add_rules_arguments(meld)
    meld.add_argument("--trump", help="trump suit S, H, D or C")
    meld.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 6),
                      help="players at the table: 6 play with three decks (default 4)")
    meld.add_argument("--json", action="store_true", help="one JSON object")
    meld.set_defaults(handler=run)


def run(args):
    rules = rules_from(args)
    answer = meld_answer(args.cards, rules, trump=args.trump, players=args.players)
    if args.json:
        print_json(answer)
        return 0
    if not answer["valid"]:
        print(f"not a legal meld under {rules.name!r}: {answer['reason']}")
        return 0
    trump = check_trump(args.trump, rules)
    info = analyze_meld(args.cards, rules, trump)
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

