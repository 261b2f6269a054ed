"""``biriba meld``: is this a legal meld, and what is it worth."""

from __future__ import annotations

from analysis.cli.common import add_rules_arguments, print_json, rules_from
from solver.errors import IllegalMeldError
from solver.melds import analyze_meld, check_trump
from solver.values import check_copies


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
    trump = check_trump(args.trump, rules)
    check_copies([args.cards], rules, args.players, "in the meld")
    try:
        info = analyze_meld(args.cards, rules, trump)
    except IllegalMeldError as error:
        reason = str(error).split(": ", 1)[-1]
        if args.json:
            print_json({"valid": False, "reason": reason})
        else:
            print(f"not a legal meld under {rules.name!r}: {reason}")
        return 0
    if args.json:
        print_json(info.to_dict())
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


def describe_meld(cards, rules, trump):
    info = analyze_meld(cards, rules, trump)
    what = f"run of {info.suit}" if info.kind == "run" else (
        f"set of {info.rank}" if info.rank else "set of wild cards")
    state = "clean" if info.clean else "dirty"
    label = f", {info.biriba}" if info.biriba else ""
    return info, f"{what}, {state}{label}"
