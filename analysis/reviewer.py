"""``biriba review``: every decision of a saved game re-analyzed, graded, summed up.

Each decision point of the reviewed seats with more than one choice is evaluated from what
that player knew, by the same function as ``biriba analyze`` and the coach
(:func:`solver.search.evaluate.evaluate`), with the turn played among the contenders: a
pickup, or in the play phase the whole turn (the lay-down, any one the rules allow, and
the discard that ends it). Its loss is the best's mean less the played one's, counted
only when the two are separated on their paired difference (the same deals); below that
the budget cannot tell them apart, the decision is *too close to call* and loses nothing.
A loss worth a grade is *confirmed*: the best and the played turn alone are evaluated
again on fresh deals (another seed, the same budget), and the grade is the loss those
samples separate, or none. The best was chosen as the highest of many noisy means on the
first deals, so its lead there is biased upward (the winner's curse); fresh deals measure
it without that bias. A decision below the minimum of samples is never graded. Grades,
by the loss:

- *inaccuracy*: INACCURACY (20) points or more;
- *mistake*: MISTAKE (50) or more;
- *blunder*: BLUNDER (100) or more.

The summary, per seat (:func:`summary`): the decisions with a choice; those that count
(not *obvious*: an obvious decision is one where every ranked alternative is within
INACCURACY points of the best, so nothing could be got wrong); the mean loss per counted
decision with its 95% interval; the accuracy, ``100 * exp(-mean loss / ACCURACY_SCALE)``
(100% for no loss, 37% at ACCURACY_SCALE points a decision); the counts per grade; and
the luck: the change in the seat's expected result between one of its decisions and its
next, summed: what the cards drawn and the others' play brought. A played turn's figure
assumes the greedy player's play afterwards, so it is compared with the figure of the
greedy player's turn at the seat's next decision (or with the round's result after the
last): the same model on both sides.
"""

from __future__ import annotations

import math
import os
from typing import NamedTuple

from solver.engine import layout as L
from solver.search import decisions as D
from solver.search.evaluate import CONTINUATION_DEFAULT, evaluate, turns_of
from solver.search.plans import PLANS_ALL
from solver.search.search import check_budget, check_rollout, check_seed, default_stage

from analysis.charts import pyplot
from analysis.reasons import sentence
from solver.limits import REVIEW_ITERATIONS as ITERATIONS
from solver.limits import WORKERS

INACCURACY = 20
MISTAKE = 50
CONFIRM_SEED = 1 << 32      # a loss's confirmation: decision N's seed + N + this
BLUNDER = 100
GRADES = ("", "inaccuracy", "mistake", "blunder")
ACCURACY_SCALE = 100.0


class Reviewed(NamedTuple):
    index: int              # the action index in the record where the decision starts
    seat: int
    played: str
    best: str
    played_mean: float | None
    best_mean: float | None
    loss: float
    grade: str
    verdict: str            # "best" (the best mean), "separated" (a clear loss), "too
                            # close to call"
    samples: int            # the played decision's samples
    obvious: bool           # every ranked alternative within INACCURACY of the best
    why: str                # what the best does; for a graded decision, what was played
    moves: str              # the record's actions of the decision, as text
    greedy_mean: float | None   # the figure of the turn the greedy player would play

    def to_dict(self) -> dict:
        return self._asdict()


class Review(NamedTuple):
    decisions: list[Reviewed]
    summary: dict           # per seat: see summary()
    result: list[int]       # the round's score difference per seat's team at the end

    def to_dict(self) -> dict:
        return {"decisions": [d.to_dict() for d in self.decisions], "summary": self.summary,
                "result": self.result}


def grade(loss: float) -> str:
    return ("blunder" if loss >= BLUNDER else "mistake" if loss >= MISTAKE
            else "inaccuracy" if loss >= INACCURACY else "")


def review(state, seats=None, iterations: int | None = None, seconds: float | None = None,
           seed: int = 0, workers: int = WORKERS, progress=None, between=None,
           plans: int = PLANS_ALL, continuation: str = CONTINUATION_DEFAULT) -> Review:
    """Review the game whose final state (with its history) is ``state``, or the saved
    record at that path; ``between`` (first, last) limits it to the decisions starting at
    those action indices. The budget caps each decision's evaluation (default ITERATIONS
    rollouts in total); decision N's seed is ``seed + N``; ``continuation``: the policy
    after each turn (:func:`solver.search.evaluate.evaluate`)."""
    if isinstance(state, (str, os.PathLike)):
        from solver.engine import records

        state = records.load(state)
    if iterations is None and seconds is None:
        iterations = ITERATIONS
    check_budget(iterations, seconds, workers)
    seats = list(range(state.game.players)) if seats is None else list(seats)
    check_seed(seed)
    check_seed(seed + len(state.history) + CONFIRM_SEED)  # decision N's: seed + N, and
    # its confirmation's seed + N + CONFIRM_SEED
    check_rollout(continuation, "the continuation")
    found: list[Reviewed] = []
    for current, index, actions, stage in decision_points(state, seats, between, plans):
        found.append(_judge(current, index, actions, stage, iterations, seconds,
                            seed + index, workers, plans, continuation))
        if progress:
            progress(index, len(state.history))
    outcome = _outcome(state if state.is_terminal() else None, state.game.players)
    calibrated = iterations == ITERATIONS and seconds is None and plans == PLANS_ALL and \
        continuation == CONTINUATION_DEFAULT
    return Review(found, summary(found, seats, outcome, calibrated), outcome)


def decision_points(state, seats, between=None, plans: int = PLANS_ALL):
    """Each decision of ``seats`` in the game of ``state`` with a choice, as
    (the state before it, its action index, its actions, its stage), the game replayed as
    it goes (the state yielded is the replay's: use it before asking for the next)."""
    history = list(state.history)
    current = state.game.new_initial_state(state.seed, state.dealer)
    index = 0
    while index < len(history) and not current.is_terminal():
        stage = default_stage(current)
        step = turn_length(current, history, index, stage)
        inside = between is None or between[0] <= index <= between[1]
        if current.current_player() in seats and inside and \
                len(turns_of(current, stage, plans)) > 1:
            yield current, index, history[index:index + step], stage
        for action in history[index:index + step]:
            current.apply_trusted(action)
        index += step


def turn_length(state, history, index, stage) -> int:
    """How many of the record's actions from ``index`` make one turn as the evaluation
    sees it: in the play phase before the lay-down, the lay-down and the discard that ends
    it; else one action."""
    if int(state.array[L.PHASE]) != L.PLAY or stage != D.STAGE_LAY:
        return 1
    seat = state.current_player()
    trial = state.clone()
    step = 0
    while index + step < len(history):
        action = history[index + step]
        kind_of_action = action >> L.TYPE_SHIFT
        if kind_of_action not in (L.ACTION_LAY, L.ACTION_EXTEND, L.ACTION_DISCARD):
            break
        trial.apply_trusted(action)
        step += 1
        if kind_of_action == L.ACTION_DISCARD or trial.is_terminal() or \
                trial.current_player() != seat:
            break
    return max(step, 1)


def _judge(state, index, actions, stage, iterations, seconds, seed, workers,
           plans, continuation=CONTINUATION_DEFAULT) -> Reviewed:
    """One decision's evaluation and grade."""
    seat = state.current_player()
    result = evaluate(state, stage, iterations=iterations, seconds=seconds, seed=seed,
                      workers=workers, plans=plans, played=actions, margin=MISTAKE,
                      continuation=continuation)
    mine, best = result.played, result.best
    ranked = result.ranked
    known = mine.mean is not None and best.mean is not None
    gap = best.mean - mine.mean if known else 0.0
    loss = max(0.0, gap) if known and mine.separated else 0.0
    if grade(loss):
        mine, best, loss = _confirm(state, stage, actions, best, iterations, seconds,
                                    seed + CONFIRM_SEED, workers, plans, continuation)
    obvious = len(ranked) > 1 and all(f.loss < INACCURACY for f in ranked) and \
        all(f.mean is not None for f in result.decisions)
    why = sentence(state, best.code, best.actions)
    if grade(loss):
        why = f"{mine.name}: {sentence(state, mine.code, mine.actions)}; better: " \
              f"{best.name}: {why}"
    verdict = ("best" if known and mine.actions == best.actions
               else "separated" if loss > 0 else "too close to call")
    greedy = greedy_turn(state, stage)
    model = next((f.mean for f in result.decisions if f.actions == greedy), None)
    return Reviewed(index, seat, mine.name, best.name, mine.mean, best.mean, loss,
                    grade(loss), verdict, mine.visits, obvious, why,
                    _moves_text(state, actions), model)


def _confirm(state, stage, actions, best, iterations, seconds, seed, workers, plans,
             continuation):
    """A loss worth a grade, measured again: the best against the played turn alone, on
    fresh deals (another seed), so that the loss is not the winner's curse of having
    chosen the best among many noisy means on the same deals. Returns (the played turn's
    figure, the best's, the loss): a loss only where these samples separate the two."""
    check = evaluate(state, stage, iterations=iterations, seconds=seconds, seed=seed,
                     workers=workers, plans=plans, played=actions, margin=MISTAKE,
                     continuation=continuation, only=(best.actions, actions))
    mine = check.played
    again = next(f for f in check.decisions if f.actions == best.actions)
    if mine.mean is None or again.mean is None or check.best.actions == mine.actions \
            or not mine.separated:
        return mine, again, 0.0
    return mine, again, max(0.0, again.mean - mine.mean)


def greedy_turn(state, stage) -> tuple[int, ...]:
    """The turn the greedy player plays from ``state``, cut as :func:`turn_length` cuts
    the record's."""
    from solver.engine.players import GreedyPlayer

    greedy = GreedyPlayer()
    whole = int(state.array[L.PHASE]) == L.PLAY and stage == D.STAGE_LAY
    seat = state.current_player()
    trial = state.clone()
    actions: list[int] = []
    while not trial.is_terminal() and trial.current_player() == seat:
        action = int(greedy.choose(trial))
        actions.append(action)
        trial.apply_trusted(action)
        if not whole or action >> L.TYPE_SHIFT not in (L.ACTION_LAY, L.ACTION_EXTEND):
            break
    return tuple(actions)


def _moves_text(state, actions) -> str:
    trial = state.clone()
    names = []
    for action in actions:
        names.append(trial.action_to_string(action))
        trial.apply_trusted(action)
    return "; ".join(names)


def _outcome(final, players) -> list[int]:
    if final is None:
        return []
    scores = final.round_scores()
    out = []
    for seat in range(players):
        team = final.team_of(seat)
        others = [s for t, s in enumerate(scores) if t != team]
        out.append(int(scores[team] - max(others, default=0)))
    return out


def summary(found, seats, outcome=(), calibrated: bool = True) -> dict:
    """Per seat: the figures of the module doc. The rating band holds only for a review at
    the budget CALIBRATION was measured at (``calibrated``): with fewer samples fewer losses
    separate, and a seat would look stronger than it is."""
    table = {}
    for seat in seats:
        mine = [d for d in found if d.seat == seat]
        counted = [d for d in mine if not d.obvious]
        losses = [d.loss for d in counted]
        n = len(losses)
        mean = sum(losses) / n if n else 0.0
        if n > 1:
            sd = math.sqrt(sum((x - mean) ** 2 for x in losses) / (n - 1))
            half = 1.96 * sd / math.sqrt(n)
        else:
            half = math.inf if n else 0.0
        table[str(seat)] = {
            "decisions": len(mine), "counted": n, "total_loss": sum(losses),
            "mean_loss": mean,
            "mean_loss_ci95": [max(0.0, mean - half), mean + half] if n > 1 else None,
            "accuracy": accuracy(mean),
            "accuracy_ci95": [accuracy(mean + half), accuracy(max(0.0, mean - half))]
            if n > 1 else None,
            "rating": (rating(mean, half) if calibrated else UNCALIBRATED)
            if n >= RATING_MIN else None,
            **{name: sum(d.grade == name for d in mine) for name in GRADES[1:]},
            "luck": _luck(mine, outcome[seat] if seat < len(outcome) else None),
        }
    return table


# The mean loss per counted decision of computer players of known strength, both seats of
# three 2-player rounds each, reviewed at the default settings (python -m benchmarks.trust
# calibration; benchmarks/README.md "Trust"; "ISMCTS 0.5 s" is the search at 800
# iterations, about 0.5 s a decision), the strongest first: the rating band names the
# reference players whose figure a seat's 95% interval holds.
CALIBRATION = (("ISMCTS 0.5 s", 7.8), ("greedy", 26.9), ("random", 77.7))
RATING_MIN = 20             # counted decisions a seat needs for a rating band
UNCALIBRATED = "none at this budget"    # the band of a review at another budget


def rating(mean_loss: float, half: float) -> str:
    """The band of computer players a mean loss (with its 95% half-width) is like:
    CALIBRATION holds (player, mean loss), the strongest (least loss) first."""
    if not CALIBRATION:
        return "uncalibrated"
    low, high = mean_loss - half, mean_loss + half
    like = [name for name, reference in CALIBRATION if low <= reference <= high]
    if like:
        return "like " + " or ".join(like)
    better = [name for name, reference in CALIBRATION if reference < low]
    worse = [name for name, reference in CALIBRATION if reference > high]
    if not better:
        return f"stronger than {worse[0]}"
    if not worse:
        return f"weaker than {better[-1]}"
    return f"between {worse[0]} and {better[-1]}"


def accuracy(mean_loss: float) -> float:
    """The accuracy percentage of a mean loss per decision (module doc)."""
    return 100.0 * math.exp(-mean_loss / ACCURACY_SCALE)


def _luck(mine, result) -> float | None:
    """What the seat's result moved by between its decisions, beyond its own choices: the
    played turn's figure assumes the greedy player's play afterwards, so it is compared with
    the figure of the greedy player's turn at the seat's next decision (or the round's
    result), the same model on both sides."""
    total = 0.0
    known = False
    for this, following in zip(mine, mine[1:] + [None]):
        if this.played_mean is None:
            continue
        after = result if following is None else following.greedy_mean
        if after is None:
            continue
        total += after - this.played_mean
        known = True
    return total if known else None


def coach(state, seat: int, first: int, last: int, iterations: int | None = None,
          seconds: float | None = None, seed: int = 0,
          workers: int = WORKERS) -> list[str]:
    """The coach's words on ``seat``'s decisions that start at the action indices
    ``first``..``last`` of ``state.history`` (the game so far): one line per decision with
    a choice, graded exactly as :func:`review` grades it at the same budget and seed."""
    found = review(state, [seat], iterations=iterations, seconds=seconds, seed=seed,
                   workers=workers, between=(first, last)).decisions
    return [coach_line(d) for d in found]


def coach_line(d: Reviewed) -> str:
    if d.grade:
        return (f"  coach: {d.played} was {_article(d.grade)} {d.grade}, {d.loss:.0f} "
                f"points lost: {d.best} was better ({d.best_mean:+.0f} points expected, "
                f"yours {d.played_mean:+.0f}). {d.why}")
    if d.loss > 0:
        return f"  coach: {d.played}: {d.best} was a little better ({d.loss:.0f} points)"
    if d.played_mean is None:
        return f"  coach: {d.played}: no verdict (too few samples in the budget)"
    if d.verdict == "best":
        return f"  coach: {d.played}: good, the best"
    return f"  coach: {d.played}: good" + (
        f" (too close to call against {d.best})" if d.verdict != "separated"
        else f" (within {INACCURACY} points of {d.best})")


def _article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def plot(result: Review, path: str, seat: int | None = None) -> None:
    """An equity chart (PNG, matplotlib): each reviewed seat's expected round-score
    difference after its decisions, on the game's action index, errors marked by grade."""
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(8, 4))
    for one, points in _series(result, seat).items():
        axis.plot([p[0] for p in points], [p[1] for p in points], "-", label=f"seat {one}")
        for marker, name in (("o", "inaccuracy"), ("s", "mistake"), ("X", "blunder")):
            marked = [(p[0], p[1]) for p in points if p[2].grade == name]
            if marked:
                axis.scatter(*zip(*marked), marker=marker, s=40, label=f"seat {one} {name}")
                for x, y, d in (p for p in points if p[2].grade == name):
                    axis.annotate(d.played[:18], (x, y), fontsize=6, xytext=(3, 3),
                                  textcoords="offset points")
    axis.axhline(0, color="grey", linewidth=0.5)
    axis.set_xlabel("action in the record")
    axis.set_ylabel("expected round-score difference (points)")
    axis.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def _series(result: Review, seat=None) -> dict:
    """{seat: [(action index, played mean, Reviewed)]} of the decisions with figures."""
    seats = sorted({d.seat for d in result.decisions}) if seat is None else [seat]
    return {one: [(d.index, d.played_mean, d) for d in result.decisions
                  if d.seat == one and d.played_mean is not None] for one in seats}


