"""``search(state, ...)``: SO-ISMCTS (or MO-ISMCTS, ``multi``) for the player to move, with
statistics per decision.

The numba loop (:mod:`solver.search.loop`) does every iteration; this module checks the
budget, runs the loop in short calls for a time budget, merges the root statistics of
several worker processes (root parallelism) and names the decisions.
"""

from __future__ import annotations

import math
import time
from typing import NamedTuple

import numpy as np

from solver.engine import core
from solver.engine import layout as L
from solver.engine.api import MAX_SEED
from solver.engine.basics import search_rng
from solver.errors import BiribaError, OutOfRangeError
from solver.engine.policies import EXPERT, GREEDY
from solver.search import decisions as D
from solver.search.loop import (CUTOFF, EPSILON, EXPLORATION, FORCE_SLOT, MATCH, MAX_ROLLOUT,
                                INFER, MULTI, NO_FORCE, OPTIONS, PLANS, ROLLOUT, SCALE, TARGET,
                                VALUE, iterate)
from solver.search.match import check_flag
from solver.search.multi import NODES_PER_ITERATION
from solver.search.plans import LAY_EXPERT, LAY_EXTEND, LAY_HOLD, LAY_OUT, PLANS_ALL, \
    PLANS_DEFAULT, is_lay
from solver.search.tree import new_tree
from solver.search.value import check_value, value_unfit
from solver.limits import (CHUNK, CHUNK_SECONDS, DEFAULT_ITERATIONS, MAX_ITERATIONS, MAX_NODES,  # noqa: F401
                           MAX_SECONDS, MAX_WORKERS)

EXPLORATION_DEFAULT = 0.7       # on rewards of a round-score difference / SCALE_DEFAULT
SCALE_DEFAULT = 500.0


class SearchError(BiribaError):
    """A search asked for what it cannot do (a finished round, a bad budget)."""


class Decision(NamedTuple):
    """One root decision: its statistics over the iterations that took it."""

    name: str                   # "draw", "pile", "discard KS", "lay 4H 5H 6H, extend 0 +7H"
    code: int                   # the decision (an engine action or decisions.LAY_*)
    visits: int
    availability: int
    mean_reward: float
    mean_points: float          # the mean round-score difference for the player's team
    ci95: tuple[float, float]
    win: float                  # the share of its iterations whose round the team won
    actions: tuple[int, ...]    # the engine actions it stands for in the real state

    def to_dict(self) -> dict:
        return self._asdict() | {"ci95": list(self.ci95), "actions": list(self.actions)}


class SearchResult(NamedTuple):
    decisions: list[Decision]   # most visited first
    iterations: int
    seconds: float
    actions: int                # engine actions played (search and rollouts)
    stage: int

    @property
    def best(self) -> Decision:
        return self.decisions[0]

    def to_dict(self) -> dict:
        return {"decisions": [d.to_dict() for d in self.decisions],
                "iterations": self.iterations, "seconds": self.seconds,
                "actions": self.actions, "best": self.best.name}


def check_budget(iterations, seconds, workers) -> tuple[int | None, float | None, int]:
    """Validate a budget (OutOfRangeError); no budget at all is DEFAULT_ITERATIONS."""
    if iterations is None and seconds is None:
        iterations = DEFAULT_ITERATIONS
    if iterations is not None:
        if isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) \
                or not 1 <= iterations <= MAX_ITERATIONS:
            raise OutOfRangeError(f"iterations must be an int in 1..{MAX_ITERATIONS}, "
                                  f"got {iterations!r}")
        iterations = int(iterations)
    if seconds is not None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
                or not math.isfinite(seconds) or not 0 < seconds <= MAX_SECONDS:
            raise OutOfRangeError(f"seconds must be a number in (0, {MAX_SECONDS:g}], "
                                  f"got {seconds!r}")
        seconds = float(seconds)
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) \
            or not 1 <= workers <= MAX_WORKERS:
        raise OutOfRangeError(f"workers must be an int in 1..{MAX_WORKERS}, got {workers!r}")
    return iterations, seconds, int(workers)


def check_seed(seed) -> None:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) \
            or not 0 <= seed <= MAX_SEED:
        raise OutOfRangeError(f"seed must be an int in 0..{MAX_SEED}, got {seed!r}")


ROLLOUTS = {"greedy": GREEDY, "expert": EXPERT}     # the rollout policies
ROLLOUT_DEFAULT = "greedy"


def check_rollout(policy, what: str = "rollout") -> None:
    """``policy`` names a rollout policy of ROLLOUTS (the search's rollouts, the
    evaluation's continuation), else OutOfRangeError naming ``what``."""
    if policy not in ROLLOUTS:
        raise OutOfRangeError(f"{what} must be one of {', '.join(ROLLOUTS)}, got {policy!r}")


def check_options(exploration, epsilon, scale, cutoff=0, plans=PLANS_DEFAULT,
                  infer=0.0, rollout=ROLLOUT_DEFAULT) -> None:
    """The search's options in range (OutOfRangeError)."""
    check_rollout(rollout)
    for name, value, low, high in (("exploration", exploration, 0.0, 100.0),
                                   ("epsilon", epsilon, 0.0, 1.0),
                                   ("infer", infer, 0.0, 1.0),
                                   ("scale", scale, 1e-9, 1e9)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not low <= value <= high:
            raise OutOfRangeError(f"{name} must be in [{low:g}, {high:g}], got {value!r}")
    if isinstance(cutoff, bool) or not isinstance(cutoff, (int, np.integer)) \
            or not 0 <= cutoff <= MAX_ROLLOUT:
        raise OutOfRangeError(f"cutoff must be an int in 0..{MAX_ROLLOUT} (0: roll out to "
                              f"the end of the round), got {cutoff!r}")
    check_plans(plans)


def check_plans(plans) -> None:
    """A mask of lay-down plans (solver.search.plans) that holds the best one
    (OutOfRangeError)."""
    if isinstance(plans, bool) or not isinstance(plans, (int, np.integer)) \
            or not 0 <= plans <= PLANS_ALL or not plans & 1:
        raise OutOfRangeError(f"plans must be a mask in 1..{PLANS_ALL} that holds 1 (the "
                              f"best lay-down; see solver.search.plans), got {plans!r}")


NO_TABLE = np.zeros((1, 1), dtype=np.float64)   # the match table when the reward is points


def _match_table(state, match, options) -> np.ndarray:
    """The win chances the match-aware reward reads (NO_TABLE when it is off)."""
    from solver.search.match import unfit, win_table

    if not check_flag(match):
        return NO_TABLE
    problem = unfit(state.game)
    if problem:
        raise SearchError(problem)
    table = win_table(state.game)
    options[MATCH], options[TARGET] = 1.0, table.target
    return table.chance


def default_stage(state) -> int:
    """The stage of the player to move: the lay-down is decided once something is laid."""
    return D.STAGE_DISCARD if state.array[L.TURN_LAID] > 0 else D.STAGE_LAY


def search(state, seat: int | None = None, iterations: int | None = None,
           seconds: float | None = None, seed: int = 0, workers: int = 1,
           exploration: float = EXPLORATION_DEFAULT, epsilon: float = 0.0,
           scale: float = SCALE_DEFAULT, stage: int | None = None,
           meanwhile=None, progress=None,
           cutoff: int = 0, plans: int = PLANS_DEFAULT, match: bool = False,
           multi: bool = False, infer: float = 0.0,
           rollout: str = ROLLOUT_DEFAULT, value: int = 0) -> SearchResult:
    """SO-ISMCTS for ``seat`` (the player to move) from ``state``; with ``multi``, MO-ISMCTS
    (one tree per player, :mod:`solver.search.multi`); with ``infer`` (0..1, the trust in
    the greedy model), determinizations weighted by the others' last discards
    (:mod:`solver.search.infer`); ``rollout``: the rollout policy (``greedy``, ``expert``).

    Reads only what ``seat`` sees of ``state``. ``iterations`` (default 400 when neither
    budget is given) and ``seconds`` bound the search, each per worker; with both, the
    first reached stops it. ``seconds`` counts from this call (its setup and ``meanwhile``
    count) and is kept within about CHUNK_SECONDS: each numba call is sized by the pace
    measured so far; every worker runs at least one iteration. ``workers`` processes search apart (seeds ``seed + w``) and
    their root statistics are merged. Deterministic for an iteration budget and a seed.
    ``plans``: the lay-down plans weighed (a mask, :mod:`solver.search.plans`).
    ``match``: reward the chance of winning the match, not the round's points (a match of
    two teams; :mod:`solver.search.match`). ``value``: 1 adds the learned value to a
    rollout cut at ``cutoff`` (:mod:`solver.search.value`; two teams of 2 or 4 players).

    This is the search as a player uses it (the most visited decision is its choice);
    figures for people come from :func:`solver.search.evaluate.evaluate`.
    """
    entered = time.perf_counter()
    iterations, seconds, workers = check_budget(iterations, seconds, workers)
    if state.is_terminal():
        raise SearchError("the round is over: there is no decision to search")
    current = state.current_player()
    if seat is None:
        seat = current
    if seat != current:
        raise SearchError(f"seat {seat} is not to move (seat {current} is)")
    check_seed(seed)
    check_options(exploration, epsilon, scale, cutoff, plans, infer, rollout)
    check_value(value, cutoff)
    if value and value_unfit(state.game):
        raise SearchError(value_unfit(state.game))
    multi = check_flag(multi, "multi")
    stage = default_stage(state) if stage is None else stage
    if multi and len(_available(state, stage, plans)) < 2:
        multi = False                           # a forced move: no tree of its own to root
    options = np.zeros(OPTIONS, dtype=np.float64)
    options[EXPLORATION], options[EPSILON], options[SCALE] = exploration, epsilon, scale
    options[FORCE_SLOT] = NO_FORCE
    options[CUTOFF] = cutoff
    options[PLANS] = plans
    options[MULTI] = 1.0 if multi else 0.0
    options[INFER] = infer
    options[ROLLOUT] = ROLLOUTS[rollout]
    options[VALUE] = value
    chance = _match_table(state, match, options)
    started = time.perf_counter()
    if workers == 1:
        if meanwhile is not None:
            meanwhile()
        rows = [_run(state.array, state.game.engine, seat, stage, iterations, seconds, seed,
                     options, progress, chance, entered)]
    else:
        rows = _run_workers(state, seat, stage, iterations, seconds, seed, options, workers,
                            meanwhile, progress, chance, entered)
    if progress is not None:
        progress(1.0)
    return _result(state, stage, rows, time.perf_counter() - started, plans)


class _Worker:
    """One worker's tree, random state and counters."""

    def __init__(self, array, tables, seat, stage, iterations, seconds, seed, options,
                 chance, started=None):
        self.array, self.tables, self.seat, self.stage = array, tables, seat, stage
        self.chance = chance
        self.options = options
        self.seconds = seconds
        capacity = iterations if iterations is not None else int(min(seconds * 5000,
                                                                     200_000))
        if options[MULTI] > 0.0:                # nodes per iteration: two per tree, one more
            players = int(tables[0][L.R_PLAYERS])
            nodes = min((capacity + 1) * (NODES_PER_ITERATION * players + 1) + players,
                        max(capacity + 1, MAX_NODES))
            self.tree = new_tree(nodes)
        else:
            self.tree = new_tree(capacity + 1)
        self.rng = search_rng(seed)
        self.done = 0
        self.actions = 0
        # the clock of a time budget: from the search's entry (``started``, a
        # time.perf_counter() reading, the same in forked workers), so its setup and the
        # caller's work meanwhile count
        self.started = time.perf_counter() if started is None else started
        self.timed = 0.0                       # seconds spent in the numba calls
        self.target = iterations if iterations is not None else capacity
        self.progress = None                   # a function of the share done (0..1)
        self.reported = self.started

    def tick(self):
        """Tell ``progress`` the share done, at most ten times a second."""
        if self.progress is None:
            return
        now = time.perf_counter()
        if now - self.reported >= 0.1:
            self.reported = now
            share = self.done / self.target
            if self.seconds is not None:
                share = max(share, (now - self.started) / self.seconds)
            self.progress(min(share, 1.0))

    def bandit(self):
        """The whole budget: one call when nothing needs the clock, else short calls sized
        so that none runs far past the deadline."""
        deadline = None if self.seconds is None else self.started + self.seconds
        one_call = deadline is None and self.progress is None
        while self.done < self.target:
            step = self.target - self.done if one_call else min(CHUNK, self.target - self.done)
            if deadline is not None:
                step = self._timed_step(step, deadline)
            began = time.perf_counter()
            self.actions += iterate(self.array, self.tables, self.seat, self.stage,
                                    self.tree, step, self.rng, self.options, self.chance)
            self.timed += time.perf_counter() - began
            self.done += step
            self.tick()
            if deadline is not None and time.perf_counter() >= deadline:
                break

    def _timed_step(self, step, deadline):
        """Under a time budget: at most ``step`` iterations, as many as the seconds per
        iteration measured so far fit in ``CHUNK_SECONDS`` and before ``deadline``; one
        while nothing is measured. (A playout with big hands takes 25 ms: 16 of them
        overran a budget by 0.4 s.) Only the chunking depends on the clock, and an
        iteration budget without a clock never comes here."""
        if self.done == 0:
            return 1
        per = self.timed / self.done
        left = min(CHUNK_SECONDS, deadline - time.perf_counter())
        return max(1, min(step, int(left / per) if per > 0 else step))

    def root(self):
        """(decision, visits, avail, reward, points, squares, wins, iterations, actions) of
        the root row."""
        tree = self.tree
        used = int(tree.used[0])
        return (tree.decision[0, :used].copy(), tree.visits[0, :used].copy(),
                tree.avail[0, :used].copy(), tree.reward[0, :used].copy(),
                tree.points[0, :used].copy(), tree.squares[0, :used].copy(),
                tree.wins[0, :used].copy(), self.done, int(self.actions))


def _run(array, tables, seat, stage, iterations, seconds, seed, options, progress=None,
         chance=None, started=None):
    """One worker's whole search: its root row (see ``_Worker.root``)."""
    chance = NO_TABLE if chance is None else chance
    worker = _Worker(array, tables, seat, stage, iterations, seconds, seed, options, chance,
                     started)
    worker.progress = progress
    worker.bandit()
    return worker.root()


def _run_workers(state, seat, stage, iterations, seconds, seed, options, workers,
                 meanwhile=None, progress=None, chance=None, started=None):
    """Root parallelism: this process searches as worker 0 and forks the others."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    tables = state.game.engine
    # load the compiled loop here, once, before forking: else every worker loads it on
    # its own clock (about 0.3 s of a first search's budget)
    chance = NO_TABLE if chance is None else chance
    iterate(state.array, tables, seat, stage, new_tree(2), 0,
            np.zeros(1, dtype=np.int64), options, chance)
    links, processes = [], []
    for w in range(1, workers):
        mine, theirs = context.Pipe()
        process = context.Process(target=_worker_main, daemon=True, args=(
            theirs, state.array, tables, seat, stage, iterations, seconds, seed + w, options,
            chance, started))
        process.start()
        theirs.close()
        links.append(mine)
        processes.append(process)

    try:
        if meanwhile is not None:
            meanwhile()
        own = _run(state.array, tables, seat, stage, iterations, seconds, seed, options,
                   progress, chance, started)
        return [own] + [link.recv() for link in links]
    except EOFError:
        raise SearchError("a search worker stopped without an answer") from None
    finally:
        for process in processes:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()


def _worker_main(link, array, tables, seat, stage, iterations, seconds, seed, options, chance,
                 started=None):
    link.send(_run(array, tables, seat, stage, iterations, seconds, seed, options, None,
                   chance, started))
    link.close()


def _result(state, stage, rows, seconds, plans=PLANS_DEFAULT) -> SearchResult:
    merged: dict[int, list] = {}
    order: list[int] = []
    total_iterations = 0
    total_actions = 0
    for decision, visits, avail, reward, points, squares, wins, done, actions in rows:
        total_iterations += done
        total_actions += actions
        for j, code in enumerate(decision.tolist()):
            if code not in merged:
                merged[code] = [0, 0, 0.0, 0.0, 0.0, 0]
                order.append(code)
            entry = merged[code]
            entry[0] += int(visits[j])
            entry[1] += int(avail[j])
            entry[2] += float(reward[j])
            entry[3] += float(points[j])
            entry[4] += float(squares[j])
            entry[5] += int(wins[j])
    found = []
    for code in order:
        visits, avail, reward, points, squares, wins = merged[code]
        mean = points / visits if visits else 0.0
        if visits > 1:
            variance = max(squares / visits - mean * mean, 0.0) * visits / (visits - 1)
            half = 1.96 * math.sqrt(variance / visits)
        else:
            half = math.inf
        actions = expansion(state, code, stage)
        found.append(Decision(decision_name(state, code, actions), code, visits, avail,
                              reward / visits if visits else 0.0, mean,
                              (mean - half, mean + half), wins / visits if visits else 0.0,
                              tuple(actions)))
    found.sort(key=lambda d: (-d.visits, -d.mean_points))
    if not found:                               # a forced move: nothing was searched
        legal = _available(state, stage, plans)
        code = legal[0]
        actions = expansion(state, code, stage)
        found = [Decision(decision_name(state, code, actions), code, 0, 0, 0.0, 0.0,
                          (-math.inf, math.inf), 0.0, tuple(actions))]
    return SearchResult(found, total_iterations, seconds, total_actions, stage)


def _available(state, stage, plans=PLANS_DEFAULT) -> list[int]:
    buffer = state.game.action_buffer
    out = np.empty(64, dtype=np.int64)
    n = D.available(state.array, state.game.engine, stage, buffer, out, np.int64(plans))
    return out[:n].tolist()


def available_decisions(state, stage: int | None = None,
                        plans: int = PLANS_DEFAULT) -> list[int]:
    """The decisions available to the player to move (the codes the search chooses among)."""
    return _available(state, default_stage(state) if stage is None else stage, plans)


def expansion(state, code: int, stage: int | None = None) -> list[int]:
    """The engine actions ``code`` stands for in ``state`` (played on a copy)."""
    trial = state.array.copy()
    log = np.zeros(D.MAX_PLAN_ACTIONS + 1, dtype=np.int64)
    buffer = np.empty(L.MAX_ACTIONS, dtype=np.int64)
    _, logged = D.apply_decision(trial, state.game.engine, int(code), buffer, log, 0)
    return log[:logged].tolist()


PLAN_LABELS = {LAY_EXTEND: "extend only", LAY_HOLD: "hold cards", LAY_OUT: "go out",
               LAY_EXPERT: "as the expert"}


def decision_name(state, code: int, actions=None) -> str:
    if code == D.LAY_NONE:
        return "lay nothing"
    if is_lay(code):
        actions = expansion(state, code) if actions is None else actions
        label = PLAN_LABELS.get(code)
        if not actions:
            return f"{label or 'lay best'} (nothing)"
        trial = state.clone()
        texts = []
        for action in actions:
            texts.append(trial.action_to_string(action))
            trial.apply_trusted(action)
        return (f"{label}: " if label else "") + "; ".join(texts)
    return state.action_to_string(code)


__all__ = ["Decision", "SearchError", "SearchResult", "available_decisions",
           "expansion", "search"]
