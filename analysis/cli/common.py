"""What the commands share: the parser that fails in one line, rule-set flags, JSON, progress."""

from __future__ import annotations

import argparse
import json
import signal
import sys

from solver.errors import BiribaError
from solver.rules import OPTIONS, PRESETS, get_rules

EXIT_BAD_INPUT = 2


class Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line and exit code 2."""

    def error(self, message):
        raise BiribaError(f"{self.prog}: {message}")


def add_rules_arguments(parser):
    parser.add_argument("--rules", default="classic", help=f"rule preset ({', '.join(PRESETS)})")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME",
        help=f"rule option, repeatable ({', '.join(OPTIONS)})",
    )


def rules_from(args):
    return get_rules(args.rules, *args.option)


def emit(args, data: dict, lines) -> int:
    """The command's answer: one JSON object with ``--json``, else the readable lines."""
    if args.json:
        print_json(data)
    else:
        for line in lines:
            print(line)
    return 0


def print_json(data):
    print(json.dumps(data, ensure_ascii=True))


def announce_numba(backend, cards: int = 0, also=()) -> None:
    """Say on stderr when numba code is about to compile (its first run): the numba
    backend, or Cython's bounded search from PRICED_CARDS cards (numba's programme), and
    the parts ``also`` names (the lay-down counter, for ``partitions``)."""
    from kernels.partition import needs_numba

    if needs_numba(backend, cards):
        from analysis.warm import ensure_compiled

        ensure_compiled("numba backend", also=also)


def default_backend():
    from kernels.partition import resolve_backend

    return resolve_backend(None)


def stop_on_sigterm() -> None:
    """SIGTERM ends a long command as Ctrl-C does: with what it has played so far."""
    def interrupt(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)


def progress_bar(done, total, noun="games"):
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {noun}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()
