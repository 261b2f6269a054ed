"""Compiling the engine ahead of its first use, and knowing whether that is still to do.

numba compiles the engine's rule functions at their first call (about 4
minutes on this project's 2-core machine, measured 2026-12-02) and caches the machine code. :func:`compile_engine`
makes those first calls on a small deal, part by part, and leaves a stamp;
:func:`is_compiled` reads the stamp, so a command can say on stderr that a
first run compiles instead of sitting silent. ``biriba compile`` runs it at
install time.
"""

from __future__ import annotations

import os
import time

import numba
import numpy as np

from solver.engine import layout as L
from solver.engine import sources_digest

# What each command needs compiled: the terminal game, and the playout kernel too.
PARTS = {
    "kernels": "the numba lay-down kernels (catalogue, count, best)",
    "rules": "the rules (legal moves, applying a move)",
    "greedy": "the greedy player",
    "playout": "the playout kernel (simulate)",
    "search": "the ISMCTS search (analyze, hint, ismcts players)",
}
NEEDS = {"play": ("rules", "greedy", "search"),
         "simulate": ("rules", "greedy", "playout", "search"),
         "replay": ("rules",), "numba backend": ("kernels",)}


def _stamp(part: str) -> str | None:
    digest = sources_digest()
    if digest is None:
        return None
    cache = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
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
        os.makedirs(os.path.dirname(stamp), exist_ok=True)
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


def compile_engine(parts=tuple(PARTS), report=None) -> dict[str, float]:
    """Compile ``parts`` (those not compiled yet); ``report(text)`` hears each step.
    Returns the seconds each part took."""
    seconds = {}
    for part in parts:
        if is_compiled(part):
            continue
        if report:
            report(f"compiling {PARTS[part]} ...")
        started = time.perf_counter()
        _compile(part)
        seconds[part] = time.perf_counter() - started
        _mark(part)
        if report:
            report(f"  done in {seconds[part]:.0f} s")
    return seconds


def ensure_compiled(command: str, report) -> None:
    """Before ``command`` (play, simulate, replay) uses the engine: compile what is
    missing, saying so through ``report``; silent when everything is compiled."""
    missing = [part for part in NEEDS[command] if not is_compiled(part)]
    if not missing:
        return
    what, seconds = (("the lay-down kernels", "70 s") if command == "numba backend"
                     else ("the game engine", "4 minutes"))
    report(f"first run: numba compiles {what} once (about {seconds} on 2 cores; "
           "`biriba compile` does it ahead of time)")
    compile_engine(missing, report)
