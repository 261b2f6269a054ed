"""Compiling the engine ahead of its first use, and knowing whether that is still to do.

numba compiles a function at its first call and caches the machine code on
disk. :func:`compile_engine` makes those first calls on a small deal, part by
part, and leaves a stamp per part; :func:`is_compiled` reads the stamp, so a
command can say on stderr that a first run compiles instead of sitting silent.
``biriba compile`` runs it at install time.

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

from kernels import numba_cache
from solver.engine import layout as L

PARTS = {
    "kernels": "the numba lay-down kernels (catalogue, best, additions)",
    "rules": "the rules (legal moves, applying a move)",
    "greedy": "the greedy player",
    "priced": "the bounded lay-down search of big hands (linear-programme bound)",
    "search": "the ISMCTS search and the evaluation (analyze, hint, review, ismcts players)",
    "playout": "the playout kernel (simulate)",
    "count": "the lay-down counter (partitions on the numba backend)",
}
# A part compiles its functions first (:func:`_build`), calling none of the other parts'
# code: the parts reach each other through linked functions (kernels.link) or compile
# without running. Then it runs the calls that reach into other parts (:func:`_run`), once
# the parts named here are compiled, so that those load from the cache instead of
# compiling twice.
AFTER = {
    "kernels": (),
    "rules": (),
    "greedy": (),
    "priced": ("kernels",),
    "search": ("kernels", "priced", "rules", "greedy"),
    "playout": (),
    "count": (),
}
# Seconds each part took to compile cold, two parts at a time, on the project's 2-core
# machine (benchmarks/README.md, "Compiling"): what a first run announces.
SECONDS = {"kernels": 70, "rules": 45, "greedy": 17, "priced": 23, "search": 31, "playout": 2,
           "count": 8}
# What each command needs compiled: the terminal game, and the playout kernel too.
NEEDS = {"play": ("kernels", "priced", "rules", "greedy", "search"),
         "simulate": ("kernels", "priced", "rules", "greedy", "playout", "search"),
         "replay": ("kernels", "rules"), "numba backend": ("kernels", "priced", "count")}
RUN_SECONDS = 5        # about what a run step takes, its prerequisites loaded from the cache
WAIT_SECONDS = 1800.0   # a worker waits this long at most for the parts its run step needs


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
                     np.zeros((1, 1, PAIRS)))


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
    command = f"from solver.engine.warm import main; main([{part!r}], wait=True)"
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
    the total shared out, or the latest part's end (a run step ends RUN_SECONDS after the
    last of its prerequisites in ``parts``), whichever is longer."""
    parts = set(parts)
    end: dict[str, float] = {}
    for part in PARTS:
        if part in parts:
            after = [end[p] + RUN_SECONDS for p in AFTER[part] if p in parts]
            end[part] = max([SECONDS[part]] + after)
    total = sum(SECONDS[p] for p in parts)
    return max(total / max(workers, 1), max(end.values(), default=0.0))


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


def main(argv=None, wait: bool = False) -> int:
    """Compile the parts named in ``argv`` in this process (what :func:`compile_engine`'s
    worker processes run, with ``wait``)."""
    args = sys.argv[1:] if argv is None else argv
    for part in args:
        _compile(part, wait)
        _mark(part)
    return 0

