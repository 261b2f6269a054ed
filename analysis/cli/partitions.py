"""``biriba partitions``: count every lay-down of a hand."""

from __future__ import annotations

from analysis.cli.common import add_rules_arguments, announce_numba, default_backend, print_json, rules_from
from kernels.partition import BACKENDS
from solver.laydown import count_laydowns_timed
from solver.values import checked_hand


def add(commands) -> None:
    partitions = commands.add_parser("partitions", help="count every lay-down of a hand")
    partitions.add_argument("hand", help="the hand's cards")
    add_rules_arguments(partitions)
    partitions.add_argument("--backend", choices=BACKENDS, help="kernel backend (default: fastest)")
    partitions.add_argument("--json", action="store_true", help="one JSON object")
    partitions.set_defaults(handler=run)


def run(args):
    rules = rules_from(args)
    checked_hand(args.hand)                 # a bad card is refused before any compiling
    announce_numba(args.backend, also=("count",))
    total, seconds = count_laydowns_timed(args.hand, rules, args.backend)
    backend = args.backend or default_backend()
    if args.json:
        print_json({"count": total, "backend": backend, "seconds": round(seconds, 6)})
    else:
        print(f"{total} lay-down(s) of {args.hand!r} under {rules.name!r} "
              f"({backend}, {seconds * 1000:.2f} ms)")
    return 0
