"""``biriba compile``: compile the numba engine ahead of its first use."""

from __future__ import annotations

import time

from analysis.warm import compile_engine, to_stderr
from solver.engine.compiled import DEFAULT_PARTS, PARTS, is_compiled
from solver.errors import BiribaError, OutOfRangeError


class UnknownPartError(BiribaError):
    """A part name `biriba compile` does not know."""


def add(commands) -> None:
    compile_ = commands.add_parser(
        "compile", help="compile the numba game engine now (once; play and simulate need it)")
    compile_.add_argument("parts", nargs="*", metavar="PART",
                          help=f"the parts to compile (default: {' '.join(DEFAULT_PARTS)}; "
                               f"also: {' '.join(p for p in PARTS if p not in DEFAULT_PARTS)})")
    compile_.add_argument("--all", action="store_true",
                          help="every part, the options no default runs too")
    compile_.add_argument("--workers", type=int, default=None,
                          help="parts compiled at once, each in its own process "
                               "(default: one per core; 1: in this process)")
    compile_.set_defaults(handler=run)


def run(args) -> int:
    if args.workers is not None and not 1 <= args.workers <= 64:
        raise OutOfRangeError(f"--workers must be 1..64, got {args.workers}")
    unknown = [p for p in args.parts if p not in PARTS]
    if unknown:
        raise UnknownPartError(f"no part {unknown[0]!r} to compile (parts: {' '.join(PARTS)})")
    parts = tuple(PARTS) if args.all else tuple(args.parts) or DEFAULT_PARTS
    started = time.perf_counter()
    seconds = compile_engine(parts, report=to_stderr, workers=args.workers)
    total = time.perf_counter() - started
    print(f"engine compiled ({', '.join(f'{p} {s:.0f} s' for p, s in seconds.items())}; "
          f"{total:.0f} s)" if seconds else "engine already compiled")
    left = [p for p in PARTS if p not in parts and not is_compiled(p)]
    if left and not args.parts:
        to_stderr(f"left to their first use: {', '.join(left)} "
                  "(`biriba compile --all` compiles them too)")
    return 0
