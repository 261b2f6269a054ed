"""The ``biriba`` command line: one module per command, each with ``add`` and ``run``.

Every command prints a readable table by default and exactly one JSON object
with ``--json``. Bad input (an unparsable card, an unknown preset, an illegal
table meld, ...) prints one line on stderr and exits with code 2.
"""

from __future__ import annotations

import argparse
import sys

from analysis.cli import (analyze, best, compile, duel, meld, partitions, play, replay, review,
                          rules, serve, simulate, tournament)
from analysis.cli.common import EXIT_BAD_INPUT, Parser
from solver.errors import BiribaError

COMMANDS = (meld, partitions, best, rules, play, simulate, replay, compile, duel, tournament,
            analyze, review, serve)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="biriba", description="Biriba solver: melds, lay-downs, play.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for command in COMMANDS:
        command.add(commands)
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
