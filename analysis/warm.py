"""Compiling the engine ahead of its first use (``biriba compile``).

numba compiles a function at its first call and caches the machine code on
disk. :func:`compile_engine` makes those first calls on a small deal, part by
part, and leaves a stamp per part (:mod:`solver.engine.compiled` reads the
stamps, so a command can say on stderr that a first run compiles);
:func:`ensure_compiled` runs it before a command that needs the engine.

A part first compiles its own functions without calling into the other parts
(the parts meet at linked functions, :mod:`kernels.link`, or are compiled for
their argument types without running), then runs the calls that do reach
other parts once those are compiled (:data:`AFTER`), so that no function is
compiled twice. With ``workers`` above 1 the parts compile in separate
processes at the same time, in :data:`PARTS`' order, each filling the same
on-disk cache; every part's prerequisites come before it in that order, so a
part waiting for them never waits on one not started.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numba
import numpy as np

from solver.engine import layout as L
from solver.engine.compiled import (AFTER, DEFAULT_PARTS, NEEDS, PARTS, WAIT_SECONDS, estimate,
                                     is_compiled, mark_compiled, with_prerequisites)


def _compile(part: str, wait: bool = False) -> None:
    """Compile ``part``: its functions, then the calls that reach the parts of
    ``AFTER[part]`` (with ``wait``, once their stamps say they are compiled)."""
    if part not in PARTS:
        raise KeyError(part)
    _build(part)
    if AFTER[part]:
        if wait:
            _wait_for(AFTER[part])
        _run(part)


def _wait_for(parts) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not all(is_compiled(p) for p in parts) and time.monotonic() < deadline:
        time.sleep(0.1)


def _compile_for(function, *arguments) -> None:
    """Compile ``function`` (a numba dispatcher) for the types of ``arguments``, without
    calling it."""
    if hasattr(function, "compile"):
        function.compile(tuple(numba.typeof(a) for a in arguments))


def _build(part: str) -> None:
    from kernels.link import prepare
    from solver.engine import core, policies
    from solver.engine.api import Game

    game = Game(4, "classic")
    tables = game.engine
    state = np.zeros(L.SIZE, dtype=np.int64)
    buffer = np.empty(L.MAX_ACTIONS, dtype=np.int64)
    if part == "kernels":
        from kernels import partition_numba as P

        prepare(P.catalogue, P.best, P.best_priced, P.beats, P.additions)
    elif part == "priced":
        from kernels import lp_bound

        prepare(lp_bound.priced)
    elif part == "rules":
        game.new_initial_state(0)                       # the deal
        prepare(core.legal_actions, core.apply_action)
    elif part == "greedy":
        prepare(policies.greedy_action)
    elif part == "expert":
        from solver.engine import expert

        prepare(expert.expert_action)
    elif part == "count":
        from kernels import partition_numba

        _compile_for(partition_numba.count, np.zeros(L.KINDS, dtype=np.int64),
                     np.zeros((1, L.KINDS), dtype=np.int64), np.int64(1 << 20))
    elif part == "playout":
        from solver.engine.playout import play_many

        _compile_for(play_many, tables, np.zeros(4, dtype=np.int64), 0, 1, 0, 1,
                     np.zeros((1, game.entities), dtype=np.int64), np.zeros(1, dtype=np.int64))
    elif part == "search":
        from solver.search import decisions
        from solver.search.loop import OPTIONS, iterate
        from solver.search.search import NO_TABLE
        from solver.search.tree import new_tree

        _compile_for(iterate, state, tables, 0, 0, new_tree(2), 0, np.zeros(1, dtype=np.int64),
                     np.zeros(OPTIONS, dtype=np.float64), NO_TABLE)
        out = np.empty(64, dtype=np.int64)
        _compile_for(decisions.available, state, tables, 0, buffer, out, np.int64(0))
        _compile_for(decisions.apply_decision, state, tables, 0, buffer, out, 0)
        from solver.search.flat import PAIRS, SUMS, flat_samples

        _compile_for(flat_samples, state, tables, 0, np.zeros((1, 1), dtype=np.int64),
                     np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.bool_), 0,
                     np.zeros(1, dtype=np.int64), np.zeros((1, SUMS)),
                     np.zeros((1, 1, PAIRS)), 0, np.zeros(1, dtype=np.float64))


def _run(part: str) -> None:
    if part == "priced":
        _compile_priced()
    elif part == "search":
        from solver.engine.api import Game
        from solver.search import search

        from solver.search.evaluate import evaluate

        state = Game(4, "classic").new_initial_state(0)
        search(state, iterations=2, seed=0)
        evaluate(state, iterations=4, seed=0)


def _compile_priced() -> None:
    """The bounded search of big hands (kernels.lp_bound and the priced programme): a hand
    of PRICED_CARDS cards or more with table melds, through the optimizer's kernel path as
    `biriba best` calls it, on each compiled backend, so its first big hand does not compile."""
    from kernels.partition import resolve_backend
    from solver.instances import random_instance
    from solver.optimizer import Config, optimize_laydown

    instance = random_instance(515000, hand_size=45, table_melds=10, opened=True)
    backends = ["numba"] + (["cython"] if resolve_backend(None) == "cython" else [])
    for backend in backends:
        optimize_laydown(instance, Config(solver="kernel", backend=backend))


def compile_engine(parts=DEFAULT_PARTS, report=None, workers: int | None = None
                   ) -> dict[str, float]:
    """Compile ``parts`` (default :data:`DEFAULT_PARTS`; those not compiled yet, and the
    parts they need first) and
    return the seconds each took; ``report(text)`` hears a line as each part starts and
    ends. ``workers``: parts compiled at once, each in a process of its own (default: one
    per core); 1 compiles in this process, one part after another."""
    wanted = with_prerequisites(parts)
    todo = [part for part in PARTS if part in wanted and not is_compiled(part)]
    if not todo:
        return {}
    workers = workers or min(os.cpu_count() or 1, len(todo))
    if workers <= 1:
        return _compile_here(todo, report)
    return _compile_parallel(todo, report, workers)


def _compile_here(todo, report) -> dict[str, float]:
    seconds = {}
    for part in todo:
        if report:
            report(f"compiling {PARTS[part]} ...")
        started = time.perf_counter()
        _compile(part)
        seconds[part] = time.perf_counter() - started
        mark_compiled(part)
        if report:
            report(f"  {part}: done in {seconds[part]:.0f} s")
    return seconds


def schedule(todo, workers: int, done=(), started=()):
    """The parts of ``todo`` to start now, at most ``workers``, in :data:`PARTS`' order (a
    part's run step waits in its worker for the parts it needs, which come before it)."""
    return [part for part in todo if part not in done and part not in started][:workers]


def _start(part: str) -> subprocess.Popen:
    """A worker process compiling ``part`` into the cache this process reads (numba's
    cache directory as this process resolved it, whatever the environment says now)."""
    env = dict(os.environ)
    if numba.config.CACHE_DIR:
        env["NUMBA_CACHE_DIR"] = numba.config.CACHE_DIR
    else:
        env.pop("NUMBA_CACHE_DIR", None)
    command = f"from analysis.warm import main; main([{part!r}], wait=True)"
    return subprocess.Popen([sys.executable, "-c", command], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def _compile_parallel(todo, report, workers) -> dict[str, float]:
    seconds, running, finished, started = {}, {}, set(), set()
    while len(finished) < len(todo):
        free = workers - len(running)
        ready = schedule(todo, free, finished, started) if free > 0 else []
        for part in ready:
            started.add(part)
            if report:
                report(f"compiling {PARTS[part]} ...")
            running[part] = (_start(part), time.perf_counter())
        time.sleep(0.05)
        for part, (process, began) in list(running.items()):
            if process.poll() is None:
                continue
            del running[part]
            errors = process.stderr.read()
            process.stderr.close()
            if process.returncode != 0:
                for other, _ in running.values():
                    other.kill()
                raise RuntimeError(f"compiling {part} failed: {errors.strip()[-2000:]}")
            seconds[part] = time.perf_counter() - began
            finished.add(part)
            if report:
                report(f"  {part}: done in {seconds[part]:.0f} s")
    return seconds


def to_stderr(text: str) -> None:
    """The compile's progress, a line on stderr (standard output stays the answer's)."""
    print(text, file=sys.stderr, flush=True)


def ensure_compiled(command: str, report=to_stderr, also=()) -> None:
    """Before ``command`` (play, simulate, replay) uses the engine: compile what is
    missing, and the parts ``also`` names (the expert player's where the players or the
    continuation use it), saying so through ``report``; silent when everything is
    compiled."""
    wanted = list(NEEDS[command]) + [p for p in also if p not in NEEDS[command]]
    missing = [part for part in wanted if not is_compiled(part)]
    if not missing:
        return
    what = "the lay-down kernels" if command == "numba backend" else "the game engine"
    seconds = estimate([p for p in with_prerequisites(missing) if not is_compiled(p)],
                       os.cpu_count() or 1)
    report(f"first run: numba compiles {what} once (about {seconds:.0f} s on this "
           f"machine's {os.cpu_count() or 1} core(s), {', '.join(missing)}; "
           "`biriba compile` does it ahead of time)")
    compile_engine(missing, report)


def main(argv=None, wait: bool = False) -> int:
    """Compile the parts named in ``argv`` in this process (what :func:`compile_engine`'s
    worker processes run, with ``wait``)."""
    args = sys.argv[1:] if argv is None else argv
    for part in args:
        _compile(part, wait)
        mark_compiled(part)
    return 0

