"""``evaluate(state, ...)``: the decisions at a point, ranked, with figures sized until sure.

``biriba analyze``, the hint, the coach and the review all rank decisions with this one
function. What it ranks are *turns* (:func:`turns_of`): in the play phase before the
lay-down, a lay-down plan together with the discard that ends the turn (every plan of the
``plans`` mask, every legal discard after it); otherwise the decisions themselves (a pickup,
a discard). A turn is valued by flat Monte Carlo with common random numbers
(:mod:`solver.search.flat`): a sample deals the unseen cards once and plays every active
turn on that deal, then the continuation policy for every seat to the end of the round
(``continuation``: the greedy player by default, or the expert with its tuned weights). A
figure is the mean round-score difference for the player's team over the turn's samples,
with its 95% interval and the share of rounds won, all from those samples.

The steps:

1. **Screening**, when there are more turns than ``CONTENDERS``: ``SCREEN`` samples of
   every turn; the ``CONTENDERS`` best (and the turn played, in a review) go on, the others
   keep their few samples and no figures.
2. **The minimum**: every contender gets ``MIN_SAMPLES`` samples (the same deals for all).
3. **Sized until sure**: rounds of about ``ROUND_GROWTH`` of the best's samples, on the
   contenders still *open*. A contender is *separated* from the best when the mean of
   their paired difference (the same deals) exceeds ``Z_SEPARATE`` standard errors (a 95%
   test widened for looking after every round); a separated one leaves the rounds with the
   figures it has. The rounds stop when every other contender is separated (the best is
   *separated*), or when the cap is spent (*too close to call*). With ``played`` (a
   review) the rounds stop once the played turn is separated from the best (a clear
   loss), is separated as the best, or surely loses less than ``margin`` points.

The budget is a cap: ``iterations`` (rollouts, one turn on one deal) in total over all
workers (deterministic with a seed), or ``seconds`` of wall time from ``started``. A turn
below ``MIN_SAMPLES`` samples is listed after the ranked ones, with no mean, no interval
and no loss.

A figure answers "this turn, then everyone plays the continuation policy" (the greedy
player by default). The ISMCTS player (:mod:`solver.search.search`) plays deeper; the
figures here are the ones that are the same from one seed to the next.
"""

from __future__ import annotations

import math
import time
from typing import NamedTuple

import numpy as np

from solver.engine import layout as L
from solver.engine.basics import search_rng
from solver.engine.expert import WEIGHTS
from solver.errors import OutOfRangeError
from solver.search import decisions as D
from solver.search.flat import PAIRS, SUMS, flat_samples
from solver.search.plans import PLANS_DEFAULT, is_lay
from solver.search.search import (ROLLOUTS, SearchError, _available, check_budget, check_plans,
                                  check_rollout, check_seed, decision_name, default_stage,
                                  expansion)
from solver.limits import (CHUNK_SECONDS, CONTENDERS, MIN_SAMPLES, ROUND_GROWTH, ROUND_MIN,  # noqa: F401
                           SCREEN, Z_SEPARATE)

Z95 = 1.96
CONTINUATION_DEFAULT = "greedy"     # the policy after the turn (one of search.ROLLOUTS)


class Figure(NamedTuple):
    """One turn's figures, all from its ``visits`` samples."""

    name: str
    code: int                   # the decision: an engine action, or a lay-down plan
    discard: int | None         # the discard that ends a whole turn (play phase), or None
    actions: tuple[int, ...]    # the engine actions of the turn in the real state
    visits: int
    mean: float | None          # the expected round-score difference for the team, points
    ci95: tuple[float, float] | None
    win: float | None           # the share of its samples whose round the team won
    loss: float | None          # the best's mean less this one's (>= 0)
    separated: bool             # apart from the best on their paired difference (for the
                                # best: apart from every other ranked turn)

    @property
    def half(self) -> float:
        return math.inf if self.ci95 is None else (self.ci95[1] - self.ci95[0]) / 2

    def to_dict(self) -> dict:
        data = self._asdict()
        data["actions"] = list(self.actions)
        data["ci95"] = None if self.ci95 is None else list(self.ci95)
        return data


class Evaluation(NamedTuple):
    decisions: list[Figure]     # ranked by mean, best first; then those without figures
    verdict: str                # "separated", "too close to call", "forced"
    played: Figure | None       # the turn asked about (a review), else None
    iterations: int             # rollouts, over all workers
    samples: int                # deals
    seconds: float
    stage: int

    @property
    def best(self) -> Figure:
        return self.decisions[0]

    @property
    def ranked(self) -> list[Figure]:
        return [f for f in self.decisions if f.mean is not None]

    def to_dict(self) -> dict:
        return {"decisions": [f.to_dict() for f in self.decisions], "verdict": self.verdict,
                "played": None if self.played is None else self.played.to_dict(),
                "iterations": self.iterations, "samples": self.samples,
                "seconds": self.seconds}


class Turn(NamedTuple):
    name: str
    code: int
    discard: int | None
    actions: tuple[int, ...]


def turns_of(state, stage: int | None = None, plans: int = PLANS_DEFAULT) -> list[Turn]:
    """The turns the player to move chooses among at ``stage`` (module doc), each once."""
    stage = default_stage(state) if stage is None else stage
    seat = state.current_player()
    whole = int(state.array[L.PHASE]) == L.PLAY and stage == D.STAGE_LAY
    found: list[Turn] = []
    seen: set[tuple[int, ...]] = set()

    def add(name, code, discard, actions):
        if tuple(actions) not in seen:
            seen.add(tuple(actions))
            found.append(Turn(name, code, discard, tuple(actions)))

    for code in _available(state, stage, plans):
        actions = expansion(state, code, stage)
        name = decision_name(state, code, actions)
        if whole and is_lay(code):
            trial = state.clone()
            for action in actions:
                trial.apply_trusted(action)
            if not trial.is_terminal() and trial.current_player() == seat:
                discards = [a for a in trial.legal_actions()
                            if a >> L.TYPE_SHIFT == L.ACTION_DISCARD]
                for discard in discards:
                    text = trial.action_to_string(discard)
                    add(text if code == D.LAY_NONE else f"{name}, then {text}", code,
                        discard, actions + [discard])
                if discards:
                    continue
        add(name, code, None, actions)
    return found


def evaluate(state, stage: int | None = None, *, iterations: int | None = None,
             seconds: float | None = None, seed: int = 0, workers: int = 1,
             plans: int = PLANS_DEFAULT, played=None, margin: float = 0.0,
             min_samples: int = MIN_SAMPLES, progress=None, meanwhile=None,
             started: float | None = None,
             continuation: str = CONTINUATION_DEFAULT, only=None) -> Evaluation:
    """Rank the turns of the player to move in ``state`` at ``stage`` (module doc).

    ``iterations`` (rollouts in total, over the ``workers``) or ``seconds`` (wall time
    from ``started``, a ``time.perf_counter()`` reading, default now) cap the budget;
    neither: the search's default iterations. ``played``: the engine actions of a turn a
    review asks about (one of :func:`turns_of`, or any legal sequence the player could
    have played); ``margin``: the loss below which it does not matter. ``progress`` is
    told the share of the cap spent after each round; ``meanwhile`` runs once while the
    workers sample; ``continuation``: who plays after the turn, every seat (``greedy``,
    ``expert``); ``only``: the turns to rank (engine actions each, legal), not every turn
    of :func:`turns_of` (a review's confirmation of a loss on fresh deals)."""
    started = time.perf_counter() if started is None else started
    iterations, seconds, workers = check_budget(iterations, seconds, workers)
    check_seed(seed)
    check_plans(plans)
    check_rollout(continuation, "the continuation")
    if isinstance(min_samples, bool) or not isinstance(min_samples, int) or \
            not 2 <= min_samples <= 100_000:
        raise OutOfRangeError(f"min_samples must be an int in 2..100000, got {min_samples!r}")
    if state.is_terminal():
        raise SearchError("the round is over: there is no decision to evaluate")
    stage = default_stage(state) if stage is None else stage
    turns = turns_of(state, stage, plans)
    if only is not None:
        listed = {turn.actions: turn for turn in turns}
        wanted = list(dict.fromkeys(tuple(int(a) for a in actions) for actions in only))
        turns = [listed.get(actions) or _custom_turn(state, actions) for actions in wanted]
        if not turns:
            raise SearchError("only= names no turn to rank")
    mine = None
    if played is not None:
        played = tuple(int(a) for a in played)
        mine = next((k for k, t in enumerate(turns) if t.actions == played), None)
        if mine is None:
            turns.append(_custom_turn(state, played))
            mine = len(turns) - 1
    if len(turns) == 1:
        if meanwhile is not None:
            meanwhile()
        figure = _figure(turns[0], None, None, False, min_samples)
        return Evaluation([figure], "forced", figure if played is not None else None, 0, 0,
                          time.perf_counter() - started, stage)
    deadline = None if seconds is None else started + seconds
    ran = []

    def once():                 # run once: in the first round, or after them if none ran
        if meanwhile is not None and not ran:
            ran.append(True)
            meanwhile()

    run = _Run(state, turns, iterations, seed, workers, continuation)
    try:
        _rounds(run, len(turns), mine, margin, min_samples, deadline, progress, once,
                seconds)
    finally:
        run.close()
    once()
    return _evaluation(turns, run.sums, run.pairs, min_samples, mine, run.rollouts,
                       run.samples, time.perf_counter() - started, stage)


def _custom_turn(state, actions) -> Turn:
    """A turn given as engine actions (a lay-down the plans do not make), checked legal."""
    trial = state.clone()
    names = []
    seat = state.current_player()
    for action in actions:
        if trial.is_terminal() or trial.current_player() != seat or \
                not trial.can_apply(action):
            raise SearchError(f"the turn {list(actions)} is not legal here")
        names.append(trial.action_to_string(action))
        trial.apply_trusted(action)
    code = actions[0] if len(actions) == 1 else D.LAY_BEST
    discard = actions[-1] if actions and actions[-1] >> L.TYPE_SHIFT == L.ACTION_DISCARD \
        and len(actions) > 1 else None
    return Turn("; ".join(names), code, discard, tuple(actions))


def _rounds(run, count, played, margin, min_samples, deadline, progress, meanwhile,
            seconds):
    """The screening, the minimum and the rounds until sure (module doc)."""
    open_ = np.ones(count, dtype=np.bool_)
    if count > CONTENDERS:
        run.play(open_, SCREEN, deadline, meanwhile)
        meanwhile = None
        means = _means(run.sums)
        keep = set(np.argsort(-means, kind="stable")[:CONTENDERS].tolist())
        if played is not None:
            keep.add(played)
        open_[:] = [k in keep for k in range(count)]
    while not run.spent(deadline):
        if progress is not None:
            progress(run.share(deadline, seconds))
        lacking = min_samples - int(run.sums[open_, 0].min())
        if lacking > 0:
            samples = lacking
        else:
            best = _best(run.sums, open_, min_samples)
            for k in np.flatnonzero(open_):
                if k != best and k != played and _apart(run.pairs, best, k):
                    open_[k] = False            # clearly behind: its figures are final
            if played is None:
                if open_.sum() <= 1:
                    break
            elif _settled(run, best, played, open_, margin):
                break
            samples = max(ROUND_MIN, int(ROUND_GROWTH * run.sums[best, 0]))
        before = run.rollouts
        run.play(open_, samples, deadline, meanwhile)
        meanwhile = None
        if run.rollouts == before:
            break                               # the cap leaves no room for one deal
    if progress is not None:
        progress(run.share(deadline, seconds))


def _means(sums) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(sums[:, 0] > 0, sums[:, 1] / np.maximum(sums[:, 0], 1), -np.inf)


def _best(sums, mask, min_samples) -> int:
    means = np.where(mask & (sums[:, 0] >= min_samples), _means(sums), -np.inf)
    return int(np.argmax(means))


def _difference(pairs, a, b):
    """(mean, standard error) of turn a's result less turn b's on their shared deals."""
    n, total, squares = pairs[a, b]
    if n < 2:
        return 0.0, math.inf
    mean = total / n
    variance = max(squares / n - mean * mean, 0.0) * n / (n - 1)
    return mean, math.sqrt(variance / n)


def _apart(pairs, best, other) -> bool:
    """Whether ``other`` is separated below ``best`` (module doc)."""
    mean, error = _difference(pairs, best, other)
    return mean > Z_SEPARATE * error


def _settled(run, best, played, open_, margin) -> bool:
    """Whether a review's question is answered: the played turn against its closest rival
    (the best, or the best of the others when it is the best)."""
    if played != best:
        rival = best
    else:
        others = open_.copy()
        others[played] = False
        if not others.any():
            return True                         # every other is separated below it
        rival = _best(run.sums, others, 1)
    mean, error = _difference(run.pairs, rival, played)
    return abs(mean) > Z_SEPARATE * error or mean + Z_SEPARATE * error < margin


class _Sampler:
    """One worker's sums and random state (its seed: the evaluation's + the worker's)."""

    def __init__(self, array, tables, seat, turns, lengths, seed, continuation):
        self.array, self.tables, self.seat = array, tables, seat
        self.policy = np.int64(ROLLOUTS[continuation])
        self.weights = WEIGHTS.copy()           # the expert's (a constant is read-only)
        self.turns, self.lengths = turns, lengths
        count = turns.shape[0]
        self.sums = np.zeros((count, SUMS), dtype=np.float64)
        self.pairs = np.zeros((count, count, PAIRS), dtype=np.float64)
        self.rng = search_rng(seed)
        self.rollouts = 0
        self.samples = 0
        self.timed = 0.0

    def play(self, active, samples, deadline):
        width = int(active.sum())
        left = samples
        while left > 0 and width:
            step = left if deadline is None else self._step(left, deadline, width)
            began = time.perf_counter()
            flat_samples(self.array, self.tables, self.seat, self.turns, self.lengths,
                         active, step, self.rng, self.sums, self.pairs, self.policy,
                         self.weights)
            self.timed += time.perf_counter() - began
            self.rollouts += step * width
            self.samples += step
            left -= step
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return self.sums, self.pairs, self.rollouts, self.samples

    def _step(self, left, deadline, width):
        """Under a time budget: the deals that fit in CHUNK_SECONDS by the pace so far."""
        if self.rollouts == 0:
            return 1
        per = self.timed / self.rollouts * width
        room = min(CHUNK_SECONDS, deadline - time.perf_counter())
        return max(1, min(left, int(room / per) if per > 0 else left))


class _Run:
    """The workers of one evaluation: this process and ``workers - 1`` forked ones, their
    sums added up."""

    def __init__(self, state, turns, iterations, seed, workers, continuation):
        self.cap = iterations
        longest = max(len(t.actions) for t in turns)
        table = np.zeros((len(turns), max(longest, 1)), dtype=np.int64)
        lengths = np.zeros(len(turns), dtype=np.int64)
        for k, turn in enumerate(turns):
            table[k, :len(turn.actions)] = turn.actions
            lengths[k] = len(turn.actions)
        array, tables = state.array, state.game.engine
        seat = state.current_player()
        self.workers = workers
        self.own = _Sampler(array, tables, seat, table, lengths, seed, continuation)
        self.links, self.processes = [], []
        self.latest = [None] * workers
        self.sums = self.own.sums.copy()
        self.pairs = self.own.pairs.copy()
        self.rollouts = self.samples = 0
        if workers > 1:
            import multiprocessing

            # the compiled sampler loaded once, before forking (else in every worker)
            flat_samples(array, tables, seat, table, lengths,
                         np.zeros(len(turns), dtype=np.bool_), 0, self.own.rng.copy(),
                         self.own.sums.copy(), self.own.pairs.copy(), self.own.policy,
                         self.own.weights)
            context = multiprocessing.get_context("fork")
            for w in range(1, workers):
                mine, theirs = context.Pipe()
                process = context.Process(target=_serve, daemon=True, args=(
                    theirs, array, tables, seat, table, lengths, seed + w, continuation))
                process.start()
                theirs.close()
                self.links.append(mine)
                self.processes.append(process)

    def spent(self, deadline) -> bool:
        if self.cap is not None and self.rollouts >= self.cap:
            return True
        return deadline is not None and time.perf_counter() >= deadline

    def share(self, deadline, seconds) -> float:
        if self.cap is not None:
            return min(1.0, self.rollouts / self.cap)
        return min(1.0, max(0.0, 1.0 - (deadline - time.perf_counter()) / seconds))

    def play(self, active, samples, deadline, meanwhile=None):
        """``samples`` deals of the active turns, split over the workers, never past the
        cap; ``meanwhile`` runs here while the others sample."""
        width = int(active.sum())
        if self.cap is not None:
            samples = min(samples, (self.cap - self.rollouts) // max(width, 1))
        parts = [samples // self.workers + (w < samples % self.workers)
                 for w in range(self.workers)]
        for link, part in zip(self.links, parts[1:]):
            link.send((active, part, deadline))
        if meanwhile is not None:
            meanwhile()
        self.latest[0] = self.own.play(active, parts[0], deadline)
        try:
            for w, link in enumerate(self.links, start=1):
                self.latest[w] = link.recv()
        except EOFError:
            raise SearchError("an evaluation worker stopped without an answer") from None
        self.sums = sum(part[0] for part in self.latest)
        self.pairs = sum(part[1] for part in self.latest)
        self.rollouts = sum(part[2] for part in self.latest)
        self.samples = sum(part[3] for part in self.latest)

    def close(self):
        for link in self.links:
            try:
                link.send(None)
            except (BrokenPipeError, OSError):
                pass
        for process in self.processes:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()


def _serve(link, array, tables, seat, table, lengths, seed, continuation):
    sampler = _Sampler(array, tables, seat, table, lengths, seed, continuation)
    while True:
        message = link.recv()
        if message is None:
            break
        link.send(sampler.play(*message))
    link.close()


def _figure(turn, entry, best_mean, separated, min_samples) -> Figure:
    if entry is None or entry[0] < min_samples:
        visits = 0 if entry is None else int(entry[0])
        return Figure(turn.name, turn.code, turn.discard, turn.actions, visits, None, None,
                      None, None, False)
    n, total, squares, wins = entry
    n = int(n)
    mean = total / n
    variance = max(squares / n - mean * mean, 0.0) * n / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    loss = None if best_mean is None else max(0.0, float(best_mean - mean))
    return Figure(turn.name, turn.code, turn.discard, turn.actions, n, float(mean),
                  (float(mean - half), float(mean + half)), float(wins / n), loss,
                  bool(separated))


def _evaluation(turns, sums, pairs, min_samples, played, rollouts, samples, seconds,
                stage) -> Evaluation:
    ranked = [k for k in np.argsort(-_means(sums), kind="stable").tolist()
              if sums[k, 0] >= min_samples]
    figures = []
    verdict = "too close to call"
    if ranked:
        best = ranked[0]
        apart = {k: _apart(pairs, best, k) for k in ranked[1:]}
        clear = bool(apart) and all(apart.values())
        verdict = "separated" if clear else verdict
        best_mean = sums[best, 1] / sums[best, 0]
        for k in ranked:
            figures.append(_figure(turns[k], sums[k], best_mean,
                                   clear if k == best else apart[k], min_samples))
    rest = sorted((k for k in range(len(turns)) if k not in set(ranked)),
                  key=lambda k: -sums[k, 0])
    figures += [_figure(turns[k], sums[k], None, False, min_samples) for k in rest]
    mine = None
    if played is not None:
        mine = next(f for f in figures if f.actions == turns[played].actions)
    return Evaluation(figures, verdict, mine, int(rollouts), int(samples), seconds, stage)


__all__ = ["CONTENDERS", "CONTINUATION_DEFAULT", "Evaluation", "Figure", "MIN_SAMPLES", "Turn",
           "evaluate", "turns_of"]
