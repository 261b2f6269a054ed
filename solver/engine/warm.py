"""Compiling the engine ahead of its first use, and knowing whether that is still to do.

numba compiles a function at its first call and caches the machine code on
disk. :func:`compile_engine` makes those first calls on a small deal, part by
part, and leaves a stamp per part; :func:`is_compiled` reads the stamp, so a
command can say on stderr that a first run compiles instead of sitting silent.
``biriba compile`` runs it at install time.

The parts form a graph (:data:`AFTER`): a part starts once the parts whose
functions it calls are cached, so that no function is compiled twice. With
``workers`` above 1, independent parts compile in separate processes at the
same time, each filling the same on-disk cache.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numba
import numpy as np

from kernels import numba_cache
from solver.engine import layout as L

PARTS = {
    "kernels": "the numba lay-down kernels (catalogue, count, best)",
    "priced": "the bounded lay-down search of big hands (linear-programme bound)",
    "rules": "the rules (legal moves, applying a move)",
    "greedy": "the greedy player",
    "playout": "the playout kernel (simulate)",
    "search": "the ISMCTS search (analyze, hint, ismcts players)",
}
# A part starts after the parts whose compiled functions it calls (they load from the cache).
AFTER = {
    "kernels": (),
    "priced": ("kernels",),
    "rules": ("kernels",),
    "greedy": ("rules", "priced"),
    "playout": ("greedy",),
    "search": ("greedy",),
}
# Seconds each part took to compile cold, one process per part, on the project's 2-core
# machine (benchmarks/README.md, "Compiling"): what a first run announces.
SECONDS = {"kernels": 86, "priced": 20, "rules": 91, "greedy": 31, "playout": 19,
           "search": 80}
# What each command needs compiled: the terminal game, and the playout kernel too.
NEEDS = {"play": ("kernels", "priced", "rules", "greedy", "search"),
         "simulate": ("kernels", "priced", "rules", "greedy", "playout", "search"),
         "replay": ("kernels", "rules"), "numba backend": ("kernels", "priced")}


def _stamp(part: str) -> str | None:
    """The file that says ``part`` is compiled for these sources: named by the closure
    digests and the files' stats (numba recompiles a function whose file was touched, so a
    touched file makes the part compile again, its untouched callees loading from disk)."""
    digest = numba_cache.project_digest()[:16] + numba_cache.source_key()[:16]
    cache = numba.config.CACHE_DIR or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "__pycache__")
    return os.path.join(cache, f"biriba-compiled-{part}-{digest}-{numba.__version__}")


def is_compiled(part: str) -> bool:
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return True
    stamp = _stamp(part)
    return stamp is not None and os.path.exists(stamp)


def _mark(part: str) -> None:
    stamp = _stamp(part)
    if stamp is None:
        return
    try:
        folder = os.path.dirname(stamp)
        os.makedirs(folder, exist_ok=True)
        for name in os.listdir(folder):      # the part's stamps of other sources go
            if name.startswith(f"biriba-compiled-{part}-"):
                os.remove(os.path.join(folder, name))
        with open(stamp, "w") as handle:
            handle.write("compiled\n")
    except OSError:
        pass   # a read-only cache: numba will have said so; the next run just checks again


def _compile(part: str) -> None:
    from solver.engine import core, policies
    from solver.engine.api import Game

    game = Game(4, "classic")
    state = game.new_initial_state(0)
    tables = state.game.engine
    buffer = np.empty(L.MAX_ACTIONS, dtype=np.int64)
    if part == "kernels":
        from kernels import partition_numba
        from solver.rules import get_rules
        from solver.values import rule_params

        params = rule_params(get_rules("classic"), None)
        hand = np.zeros(L.KINDS, dtype=np.int64)
        hand[[2, 3, 4, 15]] = 1
        keys, rows, shapes, homes, _, points = partition_numba.catalogue(
            hand, params.scalars(), params.values, params.run_bonus, params.set_bonus)
        partition_numba.count(hand.copy(), rows, np.int64(1 << 20))
        partition_numba.best(hand.copy(), rows, points, 1, np.full(len(keys), -1), hand.copy())
        partition_numba.additions(hand, rows[:1], shapes[:1], homes[:1], points[:1],
                                  params.scalars(), params.values, params.run_bonus,
                                  params.set_bonus)
        return
    if part == "priced":
        _compile_priced()
        return
    if part == "rules":
        n = core.legal_actions(state.array, tables, buffer)
        core.apply_action(state.array, tables, int(buffer[0]) if n else 0)
    elif part == "greedy":
        policies.greedy_action(state.array, tables, buffer)
    elif part == "playout":
        from solver.engine.playout import play_many

        codes = np.zeros(4, dtype=np.int64)
        scores = np.zeros((1, game.entities), dtype=np.int64)
        wins = np.zeros(1, dtype=np.int64)
        play_many(game.engine, codes, 0, 1, 0, 1, scores, wins)
    elif part == "search":
        from solver.search import search

        search(state, iterations=2, seed=0)
    else:
        raise KeyError(part)


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


def compile_engine(parts=tuple(PARTS), report=None, workers: int | None = None
                   ) -> dict[str, float]:
    """Compile ``parts`` (those not compiled yet, and the parts they need first) and
    return the seconds each took; ``report(text)`` hears a line as each part starts and
    ends. ``workers``: parts compiled at once, each in a process of its own (default: one
    per core); 1 compiles in this process, one part after another."""
    wanted = _with_prerequisites(parts)
    todo = [part for part in PARTS if part in wanted and not is_compiled(part)]
    if not todo:
        return {}
    workers = workers or min(os.cpu_count() or 1, len(todo))
    if workers <= 1:
        return _compile_here(todo, report)
    return _compile_parallel(todo, report, workers)


def _with_prerequisites(parts) -> set[str]:
    wanted, stack = set(), list(parts)
    while stack:
        part = stack.pop()
        if part not in PARTS:
            raise KeyError(part)
        if part not in wanted:
            wanted.add(part)
            stack.extend(AFTER[part])
    return wanted


def _compile_here(todo, report) -> dict[str, float]:
    seconds = {}
    for part in todo:
        if report:
            report(f"compiling {PARTS[part]} ...")
        started = time.perf_counter()
        _compile(part)
        seconds[part] = time.perf_counter() - started
        _mark(part)
        if report:
            report(f"  {part}: done in {seconds[part]:.0f} s")
    return seconds


def schedule(todo, workers: int, done=(), started=()):
    """The parts of ``todo`` that may start now, at most ``workers``: not started yet, and
    every prerequisite of theirs that is in ``todo`` is ``done``."""
    return [part for part in todo
            if part not in done and part not in started
            and all(p in done or p not in todo for p in AFTER[part])][:workers]


def _start(part: str) -> subprocess.Popen:
    """A worker process compiling ``part`` into the cache this process reads (numba's
    cache directory as this process resolved it, whatever the environment says now)."""
    env = dict(os.environ)
    if numba.config.CACHE_DIR:
        env["NUMBA_CACHE_DIR"] = numba.config.CACHE_DIR
    else:
        env.pop("NUMBA_CACHE_DIR", None)
    command = f"from solver.engine.warm import main; main([{part!r}])"
    return subprocess.Popen([sys.executable, "-c", command], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def _compile_parallel(todo, report, workers) -> dict[str, float]:
    seconds, running, finished, started = {}, {}, set(), set()
    while len(finished) < len(todo):
        free = workers - len(running)
        ready = schedule(todo, free, finished, started) if free > 0 else []
        if not ready and not running:
            raise RuntimeError(f"compile parts wait on each other: {sorted(set(todo) - finished)}")
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


def ensure_compiled(command: str, report) -> None:
    """Before ``command`` (play, simulate, replay) uses the engine: compile what is
    missing, saying so through ``report``; silent when everything is compiled."""
    missing = [part for part in NEEDS[command] if not is_compiled(part)]
    if not missing:
        return
    what = "the lay-down kernels" if command == "numba backend" else "the game engine"
    estimate = _estimate([p for p in _with_prerequisites(missing) if not is_compiled(p)],
                         os.cpu_count() or 1)
    report(f"first run: numba compiles {what} once (about {estimate:.0f} s on this "
           f"machine's {os.cpu_count() or 1} core(s), {', '.join(missing)}; "
           "`biriba compile` does it ahead of time)")
    compile_engine(missing, report)


def _estimate(parts, workers: int) -> float:
    """Wall seconds to compile ``parts`` with ``workers`` processes, from :data:`SECONDS`:
    the longer of the critical path and the total shared out."""
    parts = set(parts)
    longest: dict[str, float] = {}
    for part in PARTS:
        if part in parts:
            longest[part] = SECONDS[part] + max(
                (longest.get(p, 0.0) for p in AFTER[part] if p in parts), default=0.0)
    total = sum(SECONDS[p] for p in parts)
    return max(max(longest.values(), default=0.0), total / max(workers, 1))


# The part whose compile a function's first call starts (its module's first match).
_PART_OF = (("kernels.lp_bound", "priced"), ("kernels.", "kernels"),
            ("solver.engine.policies", "greedy"), ("solver.engine.playout", "playout"),
            ("solver.search.", "search"), ("solver.engine.", "rules"))


def first_use_note(module: str, function: str) -> str | None:
    """The first-compile warning's text for ``module.function`` (see kernels.jit)."""
    part = next((p for prefix, p in _PART_OF if module.startswith(prefix)), None)
    if part is None:
        return None
    parts = [p for p in _with_prerequisites([part]) if not is_compiled(p)] or [part]
    seconds = _estimate(parts, 1)
    return (f"numba compiles {module}.{function} and what it calls at this first call: "
            f"{', '.join(p for p in PARTS if p in parts)}, about {seconds:.0f} s on one core "
            "(cached on disk afterwards; `biriba compile` compiles everything ahead, "
            "on every core)")


def main(argv=None) -> int:
    """Compile the parts named in ``argv`` in this process (what :func:`compile_engine`'s
    worker processes run)."""
    args = sys.argv[1:] if argv is None else argv
    for part in args:
        _compile(part)
        _mark(part)
    return 0

