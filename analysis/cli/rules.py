"""``biriba rules``: a preset's fields, or every preset."""

from __future__ import annotations

from analysis.cli.common import print_json
from solver.rules import PRESETS, get_rules


def add(commands) -> None:
    rules = commands.add_parser("rules", help="a preset's fields (all presets without a name)")
    rules.add_argument("preset", nargs="?")
    rules.add_argument("--option", action="append", default=[], metavar="NAME")
    rules.add_argument("--json", action="store_true")
    rules.set_defaults(handler=run)


def run(args):
    if args.preset is None:
        if args.json:
            print_json({name: rules.to_dict() for name, rules in PRESETS.items()})
        else:
            for name, rules in PRESETS.items():
                print(f"{name:<12} source {rules.source}")
        return 0
    rules = get_rules(args.preset, *args.option)
    data = rules.to_dict()
    if args.json:
        print_json(data)
        return 0
    width = max(len(key) for key in data)
    for key, value in data.items():
        print(f"{key:<{width}}  {value}")
    return 0
