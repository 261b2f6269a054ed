"""``biriba review``: every decision of a saved game re-analyzed and graded."""

from __future__ import annotations

import os
import sys

from analysis.charts import pyplot
from solver.search.evaluate import CONTINUATION_DEFAULT
from solver.search.search import ROLLOUTS
from analysis.cli.common import emit
from analysis.reviewer import (ACCURACY_SCALE, BLUNDER, INACCURACY, ITERATIONS, MISTAKE, WORKERS,
                             Review, plot, review)
from solver.errors import BiribaError, OutOfRangeError
from solver.search.search import check_budget, check_seed


def add(commands) -> None:
    parser = commands.add_parser("review", help="re-analyze every decision of a saved game")
    parser.add_argument("record", help="a saved game (biriba play --save)")
    parser.add_argument("--seat", type=int, action="append", help="review this seat only")
    parser.add_argument("--seconds", type=float,
                        help="the cap per decision, in seconds (a graded decision's "
                             "confirmation may take as long again)")
    parser.add_argument("--iterations", type=int,
                        help=f"the cap per decision, in iterations over all workers (default "
                             f"{ITERATIONS} when --seconds is not given)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=WORKERS)
    parser.add_argument("--plot", metavar="FILE.png", help="write an equity chart")
    parser.add_argument("--html", metavar="FILE.html",
                        help="write a self-contained report (chart, moves, mistakes)")
    parser.add_argument("--continuation", default=CONTINUATION_DEFAULT, choices=tuple(ROLLOUTS),
                        help="who plays after each decision in the samples (default greedy; "
                             "the rating band is calibrated for greedy)")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from solver.engine import records
    from analysis.warm import ensure_compiled

    check_budget(args.iterations if args.iterations is not None or args.seconds is not None
                 else ITERATIONS, args.seconds, args.workers)
    check_seed(args.seed)
    if args.plot:
        pyplot()                        # refused before the review, not after it
    for path in (args.plot, args.html):
        if path and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            raise OutOfRangeError(f"cannot write {path!r}: no such folder")
    data = records.read(args.record)
    players = data["players"]
    for seat in args.seat or []:                # before compiling, as every check
        if not 0 <= seat < players:
            raise BiribaError(f"--seat {seat}: the game has seats 0..{players - 1}")
    # compiled before the replay, which would compile the engine on one core
    ensure_compiled("play", also=("expert",) if args.continuation == "expert" else ())
    state = records.from_record(data)

    def progress(done, total):
        if not args.json:
            sys.stderr.write(f"\rreviewing: action {done}/{total}")
            sys.stderr.flush()

    result = review(state, args.seat, args.iterations, args.seconds, args.seed, args.workers,
                    progress, continuation=args.continuation)
    if not args.json:
        sys.stderr.write("\n")
    one = args.seat[0] if args.seat and len(args.seat) == 1 else None
    if args.plot:
        plot(result, args.plot, one)
    if args.html:
        from analysis.report import write_html

        write_html(result, args.html, state, one)
    return emit(args, result.to_dict(), [] if args.json else review_lines(result))


def review_lines(result: Review) -> list[str]:
    lines = [f"{'action':>6} {'seat':>4}  {'played':<30} {'best':<30} {'loss':>6}  grade"]
    for d in result.decisions:
        if d.grade:
            lines.append(f"{d.index:>6} {d.seat:>4}  {d.played[:30]:<30} {d.best[:30]:<30} "
                         f"{d.loss:>6.0f}  {d.grade}")
    lines.append("")
    lines.append(f"{'seat':>4} {'decisions':>9} {'counted':>7} {'mean loss':>9} "
                 f"{'95% interval':>14} {'accuracy':>8} {'inacc.':>6} {'mist.':>5} "
                 f"{'blund.':>6} {'luck':>7}  rating")
    for seat, row in result.summary.items():
        interval = row["mean_loss_ci95"]
        shown = f"[{interval[0]:.1f}, {interval[1]:.1f}]" if interval else "-"
        luck = f"{row['luck']:+.0f}" if row["luck"] is not None else "-"
        lines.append(f"{seat:>4} {row['decisions']:>9} {row['counted']:>7} "
                     f"{row['mean_loss']:>9.1f} {shown:>14} {row['accuracy']:>7.0f}% "
                     f"{row['inaccuracy']:>6} {row['mistake']:>5} {row['blunder']:>6} "
                     f"{luck:>7}  {row['rating'] or '-'}")
    lines.append(f"(grades: inaccuracy >= {INACCURACY}, mistake >= {MISTAKE}, blunder >= "
                 f"{BLUNDER} points lost, counted only where the turn separates from the best; "
                 f"accuracy = 100 exp(-mean loss / {ACCURACY_SCALE:.0f}); luck: what the "
                 "cards and the others' play brought)")
    return lines
