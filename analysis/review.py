"""``biriba review``: every decision of a saved game re-analyzed, graded, summed up.

For each decision point of the reviewed seats (a point with more than one decision, as the
search sees them) the search ranks the decisions from what that player knew; the move
played is compared with the best: its loss in points (the best's mean less the played one's,
counted only when that gap is larger than the two 95% half-widths combined, sqrt(a² + b²):
below it the search cannot tell them apart at the budget), and a grade:

- *inaccuracy*: a loss of INACCURACY (20) points or more;
- *mistake*: MISTAKE (50) or more;
- *blunder*: BLUNDER (100) or more.

A lay-down that is none of the search's plans (``LAY_BEST`` and the others of
:mod:`solver.search.plans`) or holding everything (``LAY_NONE``) is valued by a search
from the position after it (the best discard there).
"""

from __future__ import annotations

import json
import math
import os
import sys
from typing import NamedTuple

from solver.engine import layout as L
from solver.errors import BiribaError
from solver.search import decisions as D
from solver.search import search
from solver.search.plans import is_lay
from solver.search.search import available_decisions, expansion

INACCURACY = 20
MISTAKE = 50
BLUNDER = 100
GRADES = ("", "inaccuracy", "mistake", "blunder")


class Reviewed(NamedTuple):
    index: int              # the action index in the record where the decision starts
    seat: int
    played: str
    best: str
    played_mean: float
    best_mean: float
    loss: float
    grade: str

    def to_dict(self) -> dict:
        return self._asdict()


class Review(NamedTuple):
    decisions: list[Reviewed]
    summary: dict           # per seat: decisions, total and mean loss, counts per grade

    def to_dict(self) -> dict:
        return {"decisions": [d.to_dict() for d in self.decisions], "summary": self.summary}


def grade(loss: float) -> str:
    return ("blunder" if loss >= BLUNDER else "mistake" if loss >= MISTAKE
            else "inaccuracy" if loss >= INACCURACY else "")


def review(state, seats=None, iterations: int | None = None, seconds: float | None = None,
           seed: int = 0, workers: int = 1, progress=None, between=None) -> Review:
    """Review the game whose final state (with its history) is ``state``, or the saved
    record at that path; ``between`` (first, last) limits it to the decisions starting at
    those action indices."""
    if isinstance(state, (str, os.PathLike)):
        from solver.engine import records

        state = records.load(state)
    game = state.game
    seats = list(range(game.players)) if seats is None else list(seats)
    history = list(state.history)
    current = game.new_initial_state(state.seed, state.dealer)
    found: list[Reviewed] = []
    index = 0
    stage = D.STAGE_LAY
    turn = None
    while index < len(history) and not current.is_terminal():
        seat = current.current_player()
        key = (int(current.array[L.ROUND]), int(current.array[L.TURNS]), seat)
        if key != turn or int(current.array[L.PHASE]) != L.PLAY:
            stage = D.STAGE_LAY if key != turn else stage
        turn = key
        options = available_decisions(current, stage)
        played, step, after_stage = _played(current, history, index, stage, options)
        inside = between is None or between[0] <= index <= between[1]
        if seat in seats and len(options) > 1 and inside:
            result = search(current, iterations=iterations, seconds=seconds,
                            seed=seed + index, workers=workers, stage=stage)
            means = {d.code: d for d in result.decisions}
            best = result.decisions[0]
            if played in means:
                played_mean = means[played].mean_points
                played_name = means[played].name
                played_half = _half(means[played])
            else:
                played_mean, played_name, played_half = _value_after(
                    current, history, index, step, seed, iterations, seconds, workers)
            # a loss counts only when the difference is clear of the noise (both means'
            # 95% intervals): below that the search cannot tell the two apart
            gap = best.mean_points - played_mean
            loss = gap if gap > math.hypot(_half(best), played_half) else 0.0
            found.append(Reviewed(index, seat, played_name, best.name, played_mean,
                                  best.mean_points, loss, grade(loss)))
            if progress:
                progress(index, len(history))
        for action in history[index:index + step]:
            current.apply_trusted(action)
        index += step
        stage = after_stage
    return Review(found, _summary(found, seats))


def _played(state, history, index, stage, options):
    """(the decision the record's next actions stand for, how many actions, the stage after)."""
    action = history[index]
    kind_of_action = action >> L.TYPE_SHIFT
    if int(state.array[L.PHASE]) != L.PLAY or kind_of_action in (L.ACTION_DISCARD,
                                                                  L.ACTION_REDRAW):
        if kind_of_action == L.ACTION_DISCARD and stage == D.STAGE_LAY and \
                D.LAY_NONE in options:
            return D.LAY_NONE, 0, D.STAGE_DISCARD
        return action, 1, D.STAGE_LAY
    seat = state.current_player()
    step = 0
    while (index + step < len(history)
           and history[index + step] >> L.TYPE_SHIFT in (L.ACTION_LAY, L.ACTION_EXTEND)):
        step += 1
    trial = state.clone()
    for a in history[index:index + step]:
        trial.apply_trusted(a)
        if trial.is_terminal() or trial.current_player() != seat:
            break
    code = -1
    for option in options:                 # the plan the search offered that was played
        if is_lay(option) and option != D.LAY_NONE and \
                expansion(state, option, stage) == history[index:index + step]:
            code = option
            break
    return code, step, D.STAGE_DISCARD


def _half(decision) -> float:
    low, high = decision.ci95
    return (high - low) / 2 if math.isfinite(high - low) else math.inf


def _value_after(state, history, index, step, seed, iterations, seconds, workers):
    """The value of a lay-down the search did not offer: the best discard after it."""
    trial = state.clone()
    names = []
    for action in history[index:index + step]:
        names.append(trial.action_to_string(action))
        trial.apply_trusted(action)
    if trial.is_terminal():
        scores = trial.round_scores()
        team = trial.team_of(state.current_player())
        others = [s for t, s in enumerate(scores) if t != team]
        return float(scores[team] - max(others, default=0)), "; ".join(names), 0.0
    result = search(trial, iterations=iterations, seconds=seconds, seed=seed + index,
                    workers=workers, stage=D.STAGE_DISCARD)
    best = result.decisions[0]
    return best.mean_points, "; ".join(names), _half(best)


def _summary(found, seats) -> dict:
    summary = {}
    for seat in seats:
        mine = [d for d in found if d.seat == seat]
        total = sum(d.loss for d in mine)
        summary[str(seat)] = {
            "decisions": len(mine), "total_loss": total,
            "mean_loss": total / len(mine) if mine else 0.0,
            **{name: sum(d.grade == name for d in mine) for name in GRADES[1:]},
        }
    return summary


COACH_ITERATIONS = 300


def coach(state, seat: int, first: int, last: int, iterations: int = COACH_ITERATIONS,
          seed: int = 0) -> list[str]:
    """The coach's words on ``seat``'s decisions that start at the action indices
    ``first``..``last`` of ``state.history`` (the game so far): one line per decision with
    a choice, saying whether it lost points and what was better (a short search each)."""
    found = review(state, [seat], iterations=iterations, seed=seed,
                   between=(first, last)).decisions
    lines = []
    for d in found:
        if d.grade:
            lines.append(f"  coach: {d.played} was {_article(d.grade)} {d.grade}, "
                         f"{d.loss:.0f} points lost: {d.best} was better "
                         f"({d.best_mean:+.0f} points expected, yours {d.played_mean:+.0f})")
        elif d.loss > 0:
            lines.append(f"  coach: {d.played}: {d.best} was a little better "
                         f"({d.loss:.0f} points)")
        else:
            lines.append(f"  coach: {d.played}: good" + (
                "" if d.played == d.best else f" (as good as {d.best} within the noise)"))
    return lines


def _article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def plot(result: Review, path: str, seat: int | None = None) -> None:
    """An equity chart: the reviewed player's expected round-score difference after each
    decision, errors marked by grade."""
    try:
        import matplotlib
    except ImportError:
        raise BiribaError("--plot needs matplotlib: pip install -e \".[plot]\"") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(8, 4))
    seats = sorted({d.seat for d in result.decisions}) if seat is None else [seat]
    for one in seats:
        mine = [d for d in result.decisions if d.seat == one]
        axis.plot(range(len(mine)), [d.played_mean for d in mine], "-", label=f"seat {one}")
        for marker, name in (("o", "inaccuracy"), ("s", "mistake"), ("X", "blunder")):
            marked = [(i, d.played_mean) for i, d in enumerate(mine) if d.grade == name]
            if marked:
                axis.scatter(*zip(*marked), marker=marker, s=40, label=f"seat {one} {name}")
    axis.axhline(0, color="grey", linewidth=0.5)
    axis.set_xlabel("decision")
    axis.set_ylabel("expected round-score difference (points)")
    axis.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def add_review_command(commands) -> None:
    parser = commands.add_parser("review", help="re-analyze every decision of a saved game")
    parser.add_argument("record", help="a saved game (biriba play --save)")
    parser.add_argument("--seat", type=int, action="append", help="review this seat only")
    parser.add_argument("--seconds", type=float, help="search time per decision")
    parser.add_argument("--iterations", type=int, help="search iterations per decision "
                        "(default 200 when --seconds is not given)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--plot", metavar="FILE.png", help="write an equity chart")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(handler=cmd_review)


def cmd_review(args) -> int:
    from solver.engine import records
    from solver.engine.warm import ensure_compiled
    from solver.search.search import check_budget

    iterations = args.iterations if (args.iterations or args.seconds) else 200
    check_budget(iterations, args.seconds, args.workers)
    data = records.read(args.record)
    # compiled before the replay, which would compile the engine on one core
    ensure_compiled("play", lambda text: print(text, file=sys.stderr, flush=True))
    state = records.from_record(data)
    for seat in args.seat or []:
        if not 0 <= seat < state.game.players:
            raise BiribaError(f"--seat {seat}: the game has seats 0..{state.game.players - 1}")

    def progress(done, total):
        if not args.json:
            sys.stderr.write(f"\rreviewing: action {done}/{total}")
            sys.stderr.flush()

    result = review(state, args.seat, iterations, args.seconds, args.seed, args.workers,
                    progress)
    if not args.json:
        sys.stderr.write("\n")
    if args.plot:
        plot(result, args.plot, args.seat[0] if args.seat and len(args.seat) == 1 else None)
    if args.json:
        print(json.dumps(result.to_dict()))
        return 0
    print(f"{'action':>6} {'seat':>4}  {'played':<30} {'best':<30} {'loss':>6}  grade")
    for d in result.decisions:
        if d.grade or d.loss >= INACCURACY / 2:
            print(f"{d.index:>6} {d.seat:>4}  {d.played[:30]:<30} {d.best[:30]:<30} "
                  f"{d.loss:>6.0f}  {d.grade}")
    print(f"\n{'seat':>4} {'decisions':>9} {'total loss':>10} {'mean loss':>9} "
          f"{'inaccuracies':>12} {'mistakes':>8} {'blunders':>8}")
    for seat, row in result.summary.items():
        print(f"{seat:>4} {row['decisions']:>9} {row['total_loss']:>10.0f} "
              f"{row['mean_loss']:>9.1f} {row['inaccuracy']:>12} {row['mistake']:>8} "
              f"{row['blunder']:>8}")
    print(f"(grades: inaccuracy >= {INACCURACY}, mistake >= {MISTAKE}, blunder >= {BLUNDER} "
          "points lost against the best decision)")
    return 0
