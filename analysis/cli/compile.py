"""``biriba compile``: compile the numba engine ahead of its first use."""

from __future__ import annotations

import time

from analysis.warm import compile_engine, to_stderr
from solver.errors import OutOfRangeError


def add(commands) -> None:
    compile_ = commands.add_parser(
        "compile", help="compile the numba game engine now (once; play and simulate need it)")
    compile_.add_argument("--workers", type=int, default=None,
                          help="parts compiled at once, each in its own process "
                               "(default: one per core; 1: in this process)")
    compile_.set_defaults(handler=run)


def run(args) -> int:
    if args.workers is not None and not 1 <= args.workers <= 64:
        raise OutOfRangeError(f"--workers must be 1..64, got {args.workers}")
    started = time.perf_counter()
    seconds = compile_engine(report=to_stderr, workers=args.workers)
    total = time.perf_counter() - started
    print(f"engine compiled ({', '.join(f'{p} {s:.0f} s' for p, s in seconds.items())}; "
          f"{total:.0f} s)" if seconds else "engine already compiled")
    return 0
