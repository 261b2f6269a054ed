"""``evaluate(state, ...)``: the decisions at a point, ranked, with figures sized until sure.

``biriba analyze``, the hint, the coach and the review all rank decisions with this one
function. It runs the ISMCTS search (:mod:`solver.search.search`'s worker) in three steps:

1. **The bandit** for ``BANDIT_SHARE`` of the budget (at most ``BANDIT_SECONDS`` of a time
   budget): it grows the tree and names the *contenders*, the ``CONTENDERS`` most visited
   root decisions, and the decision played when a review asks about one.
2. **Forced samples**: each contender's root slot is forced until it has ``MIN_SAMPLES``
   iterations of its own. The figures count the forced iterations only, so every mean,
   interval and win rate comes from the same samples, none rests on a handful of
   rollouts, and none on the bandit's preference for what looked good early.
3. **Sized until sure**: rounds that force the best and the contender closest to it, each
   round about ``ROUND_GROWTH`` of their samples so far (shared to narrow their
   difference fastest), until the best's 95% interval no longer overlaps any other
   contender's (*separated*), or the budget, the cap, is spent: then the best is *too close
   to call*. With ``played`` (a review) the question is that decision's loss instead: the
   rounds refine it against its closest rival (the best, or the runner-up when it is the
   best) and stop once the two are separated or it surely loses less than ``margin``
   points to the rival.

The budget is a cap: ``iterations`` in total over all workers (deterministic with a seed),
or ``seconds`` of wall time from the call. A decision below ``MIN_SAMPLES`` forced samples
(not a contender, or a budget too small) is listed after the ranked ones, with no mean,
no interval and no loss.

In the play phase at the lay-down (the *lay stage*), the search's tree also holds the
discards that end each lay-down plan: :attr:`Evaluation.turns` ranks those whole turns
(a plan and its discard) from their own samples.
"""

from __future__ import annotations

import math
import time
from typing import NamedTuple

import numpy as np

from solver.engine import layout as L
from solver.errors import OutOfRangeError
from solver.search import decisions as D
from solver.search.loop import EPSILON, EXPLORATION, FORCE_SLOT, NO_FORCE, OPTIONS, PLANS, \
    SCALE, iterate
from solver.search.plans import PLANS_DEFAULT, is_lay
from solver.search.search import (CHUNK, EXPLORATION_DEFAULT, SCALE_DEFAULT, NO_TABLE,
                                  SearchError, _Worker, _available, check_budget,
                                  check_plans, decision_name, default_stage, expansion)
from solver.search.tree import NO_NODE, NO_ROW, new_tree

MIN_SAMPLES = 32        # forced samples a decision needs before it gets figures
CONTENDERS = 16         # root decisions that get them (a hand's discards fit)
BANDIT_SHARE = 0.3      # of the budget: the bandit's step
BANDIT_SECONDS = 0.8    # and of a time budget at most this
ROUND_GROWTH = 0.3      # a round adds this share of the refined pair's samples
ROUND_MIN = 32          # iterations per round at least (over all workers)
Z95 = 1.96
TURNS = 6               # whole turns reported (plan and discard)
BANDIT = -1             # an allocation's code for the bandit's own choice
HUGE = 1 << 40


class Figure(NamedTuple):
    """One decision's figures, all from its ``visits`` forced samples."""

    name: str
    code: int
    actions: tuple[int, ...]    # the engine actions it stands for in the real state
    visits: int
    mean: float | None          # the expected round-score difference for the team, points
    ci95: tuple[float, float] | None
    win: float | None           # the share of its samples whose round the team won
    loss: float | None          # the best's mean less this one's (>= 0)
    separated: bool             # its interval and the best's do not overlap (for the
                                # best: from every other ranked decision)

    @property
    def half(self) -> float:
        return math.inf if self.ci95 is None else (self.ci95[1] - self.ci95[0]) / 2

    def to_dict(self) -> dict:
        data = self._asdict()
        data["actions"] = list(self.actions)
        data["ci95"] = None if self.ci95 is None else list(self.ci95)
        return data


class Turn(NamedTuple):
    """A whole turn of the play phase: a lay-down plan and the discard that ends it."""

    plan: str
    discard: str
    plan_code: int
    discard_code: int
    visits: int
    mean: float
    ci95: tuple[float, float]
    win: float

    def to_dict(self) -> dict:
        return self._asdict() | {"ci95": list(self.ci95)}


class Evaluation(NamedTuple):
    decisions: list[Figure]     # ranked by mean, best first; then those without figures
    verdict: str                # "separated", "too close to call", "forced"
    turns: list[Turn]           # play phase, lay stage: the best whole turns
    played: Figure | None       # the decision asked about (a review), else None
    iterations: int
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
                "turns": [t.to_dict() for t in self.turns],
                "played": None if self.played is None else self.played.to_dict(),
                "iterations": self.iterations, "seconds": self.seconds}


def evaluate(state, stage: int | None = None, *, iterations: int | None = None,
             seconds: float | None = None, seed: int = 0, workers: int = 1,
             plans: int = PLANS_DEFAULT, played: int | None = None, margin: float = 0.0,
             min_samples: int = MIN_SAMPLES, progress=None, meanwhile=None,
             exploration: float = EXPLORATION_DEFAULT, scale: float = SCALE_DEFAULT,
             started: float | None = None) -> Evaluation:
    """Rank the decisions of the player to move in ``state`` at ``stage`` (module doc).

    ``iterations`` (in total, over the ``workers``) or ``seconds`` (wall time from
    ``started``, a ``time.perf_counter()`` reading, default now) cap the budget; neither:
    the search's default iterations. ``played``: a decision code whose loss a review
    asks; ``margin``: the loss below which it does not matter (the rounds stop once the
    played decision surely loses less). ``progress`` is told the share of the cap spent
    after each round; ``meanwhile`` runs once while the workers search."""
    started = time.perf_counter() if started is None else started
    iterations, seconds, workers = check_budget(iterations, seconds, workers)
    check_plans(plans)
    if isinstance(min_samples, bool) or not isinstance(min_samples, int) or \
            not 2 <= min_samples <= 100_000:
        raise OutOfRangeError(f"min_samples must be an int in 2..100000, got {min_samples!r}")
    if state.is_terminal():
        raise SearchError("the round is over: there is no decision to evaluate")
    stage = default_stage(state) if stage is None else stage
    codes = _available(state, stage, plans)
    if played is not None and played not in codes:
        raise SearchError(f"decision {played} is not available here")
    if len(codes) == 1:
        if meanwhile is not None:
            meanwhile()
        figure = _figure(state, stage, codes[0], None, None, False)
        return Evaluation([figure], "forced", [], figure if played is not None else None, 0,
                          time.perf_counter() - started, stage)
    deadline = None if seconds is None else started + seconds
    turns_wanted = int(state.array[L.PHASE]) == L.PLAY and stage == D.STAGE_LAY
    run = _Run(state, stage, iterations, seconds, seed, workers, plans, exploration, scale,
               turns_wanted)
    try:
        run.bandit(deadline, meanwhile)
        base = run.totals()                     # the figures count what comes after
        order = sorted(codes, key=lambda c: -base.get((c,), _ZERO)[0])
        contenders = order[:CONTENDERS]
        if played is not None and played not in contenders:
            contenders.append(played)
        while True:
            stats = _minus(run.totals(), base)
            if progress is not None:
                progress(run.share(deadline))
            if run.spent(deadline):
                break
            allocation = _needed(stats, contenders, min_samples)
            if not allocation:
                pair = _pair(stats, contenders, min_samples, played, margin)
                if pair is None:
                    break
                allocation = _split(stats, pair, run.workers)
            before = run.done
            run.play(allocation, deadline)
            if run.done == before:
                break                           # nothing could run: the cap or the tree
        stats = _minus(run.totals(), base)
    finally:
        run.close()
    return _evaluation(state, stage, codes, stats, min_samples, played, run.done,
                       time.perf_counter() - started)


_ZERO = np.zeros(4)


def _moments(entry):
    """(visits, mean, 95% half-width, win share) of a stats entry."""
    visits, points, squares, wins = entry
    n = int(visits)
    if n < 2:
        return n, (points / n if n else 0.0), math.inf, (wins / n if n else 0.0)
    mean = points / n
    variance = max(squares / n - mean * mean, 0.0) * n / (n - 1)
    return n, mean, Z95 * math.sqrt(variance / n), wins / n


def _ranked(stats, contenders, min_samples):
    """[(code, mean, half)] of the contenders with enough samples, best mean first."""
    rows = []
    for code in contenders:
        n, mean, half, _ = _moments(stats.get((code,), _ZERO))
        if n >= min_samples:
            rows.append((code, mean, half))
    rows.sort(key=lambda row: -row[1])
    return rows


def _needed(stats, contenders, min_samples):
    """The forced samples the contenders still lack: [(code, iterations)]."""
    return [(code, min_samples - int(stats.get((code,), _ZERO)[0])) for code in contenders
            if stats.get((code,), _ZERO)[0] < min_samples]


def _pair(stats, contenders, min_samples, played, margin):
    """The two decisions the next round refines, or None when the question is settled."""
    rows = _ranked(stats, contenders, min_samples)
    if len(rows) < 2:
        return None
    best = rows[0]
    if played is not None:
        mine = next((row for row in rows if row[0] == played), None)
        if mine is None:
            return None
        # its closest rival: the best, or (when it is the best) the runner-up
        rival = best if mine is not best else rows[1]
        gap = rival[1] - mine[1]
        halves = rival[2] + mine[2]
        if abs(gap) > halves or gap + halves < margin:
            return None                         # separated, or surely a small loss
        return rival, mine
    # the other whose interval reaches furthest into the best's, relative to their widths
    closest = min(rows[1:], key=lambda row: (best[1] - row[1]) / (best[2] + row[2]))
    if best[1] - closest[1] > best[2] + closest[2]:
        return None                             # separated from every other contender
    return best, closest


def _split(stats, pair, workers):
    """A round's forced samples for the pair: about ROUND_GROWTH of their samples, shared
    in proportion to their spreads (which narrows their difference fastest)."""
    (a, _, half_a), (b, _, half_b) = pair
    n_a = int(stats[(a,)][0])
    n_b = int(stats[(b,)][0])
    size = max(ROUND_MIN, workers * CHUNK, int(ROUND_GROWTH * (n_a + n_b)))
    sd_a = half_a * math.sqrt(n_a)
    sd_b = half_b * math.sqrt(n_b)
    share = 0.5 if sd_a + sd_b <= 0 else sd_a / (sd_a + sd_b)
    add_a = min(size, max(0, round((n_a + n_b + size) * share) - n_a))
    return [(a, add_a), (b, size - add_a)]


def _minus(stats, base):
    return {key: value - base.get(key, _ZERO) for key, value in stats.items()}


class _Run:
    """The workers of one evaluation: this process and ``workers - 1`` forked ones, each
    with its own tree and seed (``seed + w``), their statistics summed."""

    def __init__(self, state, stage, iterations, seconds, seed, workers, plans, exploration,
                 scale, turns):
        self.cap = iterations
        self.seconds = seconds
        self.turns = turns
        self.workers = workers if iterations is None else max(1, min(workers,
                                                                      iterations // CHUNK))
        options = np.zeros(OPTIONS, dtype=np.float64)
        options[EXPLORATION], options[EPSILON], options[SCALE] = exploration, 0.0, scale
        options[FORCE_SLOT] = NO_FORCE
        options[PLANS] = plans
        array, tables = state.array, state.game.engine
        seat = state.current_player()
        per = None if iterations is None else -(-iterations // self.workers)

        def make(w):
            return _Worker(array, tables, seat, stage, per, seconds, seed + w, options,
                           NO_TABLE, time.perf_counter())

        self.own = make(0)
        self.links, self.processes = [], []
        self.done = 0
        self.latest = [{} for _ in range(self.workers)]
        if self.workers > 1:
            import multiprocessing

            # the compiled loop loaded once, before forking (else in every worker)
            iterate(array, tables, seat, stage, new_tree(2), 0,
                    np.zeros(1, dtype=np.int64), options, NO_TABLE)
            context = multiprocessing.get_context("fork")
            for w in range(1, self.workers):
                mine, theirs = context.Pipe()
                process = context.Process(target=_serve, args=(theirs, make, w, turns),
                                          daemon=True)
                process.start()
                theirs.close()
                self.links.append(mine)
                self.processes.append(process)

    def bandit(self, deadline, meanwhile=None):
        if self.cap is not None:
            total = max(self.workers, int(self.cap * BANDIT_SHARE))
        else:
            total = HUGE
            limit = time.perf_counter() + min(BANDIT_SECONDS, BANDIT_SHARE * self.seconds)
            deadline = limit if deadline is None else min(deadline, limit)
        self.play([(BANDIT, total)], deadline, meanwhile)

    def spent(self, deadline) -> bool:
        if self.cap is not None and self.done >= self.cap:
            return True
        return deadline is not None and time.perf_counter() >= deadline

    def share(self, deadline) -> float:
        if self.cap is not None:
            return min(1.0, self.done / self.cap)
        left = deadline - time.perf_counter()
        return min(1.0, max(0.0, 1.0 - left / self.seconds))

    def play(self, allocation, deadline, meanwhile=None):
        """Run ``allocation`` ([(code, iterations)] in total) split over the workers;
        ``meanwhile`` runs here while the others search."""
        if self.cap is not None:                # never past the cap
            room = self.cap - self.done
            trimmed = []
            for code, count in allocation:
                count = min(count, room)
                room -= count
                trimmed.append((code, count))
            allocation = trimmed
        parts = [[(code, count // self.workers + (w < count % self.workers))
                  for code, count in allocation] for w in range(self.workers)]
        for link, part in zip(self.links, parts[1:]):
            link.send((part, deadline))
        if meanwhile is not None:
            meanwhile()
        self.latest[0] = _play(self.own, parts[0], deadline, self.turns)
        try:
            for w, link in enumerate(self.links, start=1):
                self.latest[w] = link.recv()
        except EOFError:
            raise SearchError("a search worker stopped without an answer") from None
        self.done = sum(int(stats.get("done", 0)) for stats in self.latest)

    def totals(self) -> dict:
        merged: dict = {}
        for stats in self.latest:
            for key, value in stats.items():
                if key != "done":
                    merged[key] = merged.get(key, _ZERO) + value
        return merged

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


def _serve(link, make, w, turns):
    worker = make(w)
    while True:
        message = link.recv()
        if message is None:
            break
        allocation, deadline = message
        link.send(_play(worker, allocation, deadline, turns))
    link.close()


def _play(worker, allocation, deadline, turns) -> dict:
    """Run ``allocation`` on one worker, round robin in CHUNK pieces (all of a bandit's
    iterations in one call when nothing needs the clock); its statistics after."""
    left = [[code, count] for code, count in allocation if count > 0]
    slots = _slots(worker)
    while left:
        for item in list(left):
            code, count = item
            if code == BANDIT:
                options = worker.options
            elif code in slots:
                options = worker.options.copy()
                options[FORCE_SLOT] = float(slots[code])
            else:                               # not in this worker's tree: nothing to force
                left.remove(item)
                continue
            step = count if deadline is None and code == BANDIT else min(CHUNK, count)
            if deadline is not None:
                step = worker._timed_step(step, deadline)
            worker.call(step, options)
            if code == BANDIT and not slots:
                slots = _slots(worker)
            item[1] -= step
            if item[1] <= 0:
                left.remove(item)
            if deadline is not None and time.perf_counter() >= deadline:
                left = []
                break
    return _stats(worker, turns)


def _slots(worker) -> dict[int, int]:
    tree = worker.tree
    return {int(tree.decision[0, j]): j for j in range(int(tree.used[0]))}


def _stats(worker, turns) -> dict:
    """The root slots' sums {(code,): [visits, points, squares, wins]}, and with ``turns``
    the discards after each lay-down plan {(plan, discard): ...}; "done": iterations."""
    tree = worker.tree
    out: dict = {"done": worker.done}
    for j in range(int(tree.used[0])):
        code = int(tree.decision[0, j])
        out[(code,)] = _entry(tree, 0, j)
        if not turns or not is_lay(code):
            continue
        node = int(tree.child[0, j])
        if node == NO_NODE or tree.row[node] == NO_ROW:
            continue
        row = int(tree.row[node])
        for k in range(int(tree.used[row])):
            discard = int(tree.decision[row, k])
            if discard >> L.TYPE_SHIFT == L.ACTION_DISCARD:
                out[(code, discard)] = _entry(tree, row, k)
    return out


def _entry(tree, row, slot):
    return np.array([tree.visits[row, slot], tree.points[row, slot],
                     tree.squares[row, slot], tree.wins[row, slot]], dtype=np.float64)


def _figure(state, stage, code, entry, best_mean, separated, min_samples=MIN_SAMPLES):
    actions = tuple(expansion(state, code, stage))
    name = decision_name(state, code, list(actions))
    if entry is None or entry[0] < min_samples:
        visits = 0 if entry is None else int(entry[0])
        return Figure(name, code, actions, visits, None, None, None, None, False)
    n, mean, half, win = _moments(entry)
    loss = None if best_mean is None else max(0.0, best_mean - mean)
    return Figure(name, code, actions, n, mean, (mean - half, mean + half), win, loss,
                  separated)


def _evaluation(state, stage, codes, stats, min_samples, played, done, seconds):
    rows = _ranked(stats, codes, min_samples)
    figures = []
    if rows:
        best_code, best_mean, best_half = rows[0]
        clear = all(best_mean - mean > best_half + half for _, mean, half in rows[1:])
        for code, mean, half in rows:
            separated = clear if code == best_code else best_mean - mean > best_half + half
            figures.append(_figure(state, stage, code, stats[(code,)], best_mean, separated,
                                   min_samples))
        verdict = "separated" if clear and len(rows) > 1 else "too close to call"
    else:
        verdict = "too close to call"
    ranked = {f.code for f in figures}
    rest = sorted((c for c in codes if c not in ranked),
                  key=lambda c: -stats.get((c,), _ZERO)[0])
    figures += [_figure(state, stage, c, stats.get((c,)), None, False, min_samples)
                for c in rest]
    mine = None if played is None else next(f for f in figures if f.code == played)
    return Evaluation(figures, verdict, _turns(state, stats, min_samples), mine, done,
                      seconds, stage)


def _turns(state, stats, min_samples) -> list[Turn]:
    found = []
    for key, entry in stats.items():
        if len(key) != 2 or entry[0] < min_samples:
            continue
        plan, discard = key
        n, mean, half, win = _moments(entry)
        found.append((mean, plan, discard, n, half, win))
    found.sort(key=lambda row: -row[0])
    turns = []
    for mean, plan, discard, n, half, win in found[:TURNS]:
        actions = expansion(state, plan, D.STAGE_LAY)
        trial = state.clone()
        for action in actions:
            trial.apply_trusted(action)
        turns.append(Turn(decision_name(state, plan, actions), trial.action_to_string(discard),
                          plan, discard, n, mean, (mean - half, mean + half), win))
    return turns


__all__ = ["BANDIT_SECONDS", "CONTENDERS", "Evaluation", "Figure", "MIN_SAMPLES", "Turn",
           "evaluate"]
