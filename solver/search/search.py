"""``search(state, ...)``: SO-ISMCTS for the player to move, with statistics per decision.

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
from solver.errors import BiribaError, OutOfRangeError
from solver.search import decisions as D
from solver.search.loop import EPSILON, EXPLORATION, OPTIONS, SCALE, iterate
from solver.search.tree import new_tree

DEFAULT_ITERATIONS = 400
MAX_ITERATIONS = 1_000_000
MAX_SECONDS = 3600.0
MAX_WORKERS = 64
CHUNK = 16                      # iterations per numba call under a time budget
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


def check_options(exploration, epsilon, scale) -> None:
    """The search's options in range (OutOfRangeError)."""
    for name, value, low, high in (("exploration", exploration, 0.0, 100.0),
                                   ("epsilon", epsilon, 0.0, 1.0),
                                   ("scale", scale, 1e-9, 1e9)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not low <= value <= high:
            raise OutOfRangeError(f"{name} must be in [{low:g}, {high:g}], got {value!r}")


def default_stage(state) -> int:
    """The stage of the player to move: the lay-down is decided once something is laid."""
    return D.STAGE_DISCARD if state.array[L.TURN_LAID] > 0 else D.STAGE_LAY


def search(state, seat: int | None = None, iterations: int | None = None,
           seconds: float | None = None, seed: int = 0, workers: int = 1,
           exploration: float = EXPLORATION_DEFAULT, epsilon: float = 0.0,
           scale: float = SCALE_DEFAULT, stage: int | None = None) -> SearchResult:
    """SO-ISMCTS for ``seat`` (the player to move) from ``state``.

    Reads only what ``seat`` sees of ``state``. ``iterations`` (default 400 when neither
    budget is given) and ``seconds`` bound the search, each per worker; with both, the
    first reached stops it. ``workers`` processes search apart (seeds ``seed + w``) and
    their root statistics are merged. Deterministic for an iteration budget and a seed.
    """
    iterations, seconds, workers = check_budget(iterations, seconds, workers)
    if state.is_terminal():
        raise SearchError("the round is over: there is no decision to search")
    current = state.current_player()
    if seat is None:
        seat = current
    if seat != current:
        raise SearchError(f"seat {seat} is not to move (seat {current} is)")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) \
            or not 0 <= seed <= MAX_SEED:
        raise OutOfRangeError(f"seed must be an int in 0..{MAX_SEED}, got {seed!r}")
    check_options(exploration, epsilon, scale)
    stage = default_stage(state) if stage is None else stage
    options = np.zeros(OPTIONS, dtype=np.float64)
    options[EXPLORATION], options[EPSILON], options[SCALE] = exploration, epsilon, scale
    started = time.perf_counter()
    if workers == 1:
        rows = [_run(state.array, state._args(), seat, stage, iterations, seconds, seed,
                     options)]
    else:
        rows = _run_workers(state, seat, stage, iterations, seconds, seed, options, workers)
    return _result(state, stage, rows, time.perf_counter() - started)


def _run(array, args, seat, stage, iterations, seconds, seed, options):
    """One worker's search: (decision, visits, avail, reward, points, squares, iterations,
    actions) of the root row."""
    capacity = iterations if iterations is not None else int(min(seconds * 5000, 200_000))
    tree = new_tree(capacity + 1)
    rng = np.array([core.seed_rng(int(seed) * 0x9E3779B1 + 12345)], dtype=np.int64)
    done = 0
    actions = 0
    deadline = None if seconds is None else time.perf_counter() + seconds
    target = iterations if iterations is not None else capacity
    while done < target:
        step = target - done if deadline is None else min(CHUNK, target - done)
        actions += iterate(array, *args, seat, stage, tree, step, rng, options)
        done += step
        if deadline is not None and time.perf_counter() >= deadline:
            break
    used = int(tree.used[0])
    return (tree.decision[0, :used].copy(), tree.visits[0, :used].copy(),
            tree.avail[0, :used].copy(), tree.reward[0, :used].copy(),
            tree.points[0, :used].copy(), tree.squares[0, :used].copy(),
            tree.wins[0, :used].copy(), done, int(actions))


def _run_workers(state, seat, stage, iterations, seconds, seed, options, workers):
    import multiprocessing

    global _FORKED_ARGS
    _FORKED_ARGS = state._args()              # the rule arrays, inherited by the workers
    jobs = [(state.array, seat, stage, iterations, seconds, seed + w, options)
            for w in range(workers)]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return pool.map(_forked, jobs)


_FORKED_ARGS = None


def _forked(job):
    array, seat, stage, iterations, seconds, seed, options = job
    return _run(array, _FORKED_ARGS, seat, stage, iterations, seconds, seed, options)


def _result(state, stage, rows, seconds) -> SearchResult:
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
        legal = _available(state, stage)
        code = legal[0]
        actions = expansion(state, code, stage)
        found = [Decision(decision_name(state, code, actions), code, 0, 0, 0.0, 0.0,
                          (-math.inf, math.inf), 0.0, tuple(actions))]
    return SearchResult(found, total_iterations, seconds, total_actions, stage)


def _available(state, stage) -> list[int]:
    buffer = state.game.action_buffer
    out = np.empty(64, dtype=np.int64)
    n = D.available(state.array, *state._args(), stage, buffer, out)
    return out[:n].tolist()


def available_decisions(state, stage: int | None = None) -> list[int]:
    """The decisions available to the player to move (the codes the search chooses among)."""
    return _available(state, default_stage(state) if stage is None else stage)


def expansion(state, code: int, stage: int | None = None) -> list[int]:
    """The engine actions ``code`` stands for in ``state`` (played on a copy)."""
    trial = state.array.copy()
    log = np.zeros(D.MAX_PLAN_ACTIONS + 1, dtype=np.int64)
    buffer = np.empty(L.MAX_ACTIONS, dtype=np.int64)
    _, logged = D.apply_decision(trial, *state._args(), int(code), buffer, log, 0)
    return log[:logged].tolist()


def decision_name(state, code: int, actions=None) -> str:
    if code == D.LAY_NONE:
        return "lay nothing"
    if code == D.LAY_BEST:
        actions = expansion(state, code) if actions is None else actions
        if not actions:
            return "lay best (nothing)"
        trial = state.clone()
        texts = []
        for action in actions:
            texts.append(trial.action_to_string(action))
            trial.apply_trusted(action)
        return "; ".join(texts)
    return state.action_to_string(code)


__all__ = ["Decision", "SearchError", "SearchResult", "available_decisions",
           "expansion", "search"]
