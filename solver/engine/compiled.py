"""Which parts of the engine numba has compiled, and what a first call will cost.

numba compiles a function at its first call and caches the machine code on
disk. ``biriba compile`` (:mod:`analysis.warm`) compiles the engine part by part
and leaves a stamp per part; :func:`is_compiled` reads the stamp, so a command
can say on stderr that a first run compiles instead of sitting silent, and
:func:`first_use_note` is the warning a Python caller sees at a first
compiling call (:mod:`kernels.jit`).
"""

from __future__ import annotations

import os

import numba

from kernels import numba_cache

PARTS = {
    "kernels": "the numba lay-down kernels (catalogue, best, additions)",
    "rules": "the rules (legal moves, applying a move)",
    "greedy": "the greedy player",
    "priced": "the bounded lay-down search of big hands (linear-programme bound)",
    "search": "the ISMCTS search and the evaluation (analyze, hint, review, ismcts players)",
    "playout": "the playout kernel (simulate)",
    "count": "the lay-down counter (partitions on the numba backend)",
    "expert": "the expert player",
}
# What `biriba compile` compiles without being asked for more: what the default players,
# the search and the evaluation run. The lay-down counter and the expert player are options
# that no default runs; they compile at their first use or with `biriba compile --all`.
DEFAULT_PARTS = ("kernels", "rules", "greedy", "priced", "search", "playout")
# A part compiles its functions first (:func:`analysis.warm._build`), calling none of the other parts'
# code: the parts reach each other through linked functions (kernels.link) or compile
# without running. Then it runs the calls that reach into other parts (:func:`analysis.warm._run`), once
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
    "expert": (),
}
# Seconds each part took to compile cold, two parts at a time, on the project's 2-core
# machine (benchmarks/README.md, "Compiling"): what a first run announces.
SECONDS = {"kernels": 70, "rules": 45, "greedy": 17, "priced": 23, "search": 31, "playout": 2,
           "count": 8, "expert": 17}
# What each command needs compiled: the terminal game, and the playout kernel too (the
# expert player compiles where a command's players or continuation use it, and at its
# first call elsewhere).
NEEDS = {"play": ("kernels", "priced", "rules", "greedy", "search"),
         "simulate": ("kernels", "priced", "rules", "greedy", "playout", "search"),
         "replay": ("kernels", "rules"), "numba backend": ("kernels", "priced")}
RUN_SECONDS = 5        # about what a run step takes, its prerequisites loaded from the cache
WAIT_SECONDS = 1800.0   # a worker waits this long at most for the parts its run step needs


def stamp_path(part: str) -> str | None:
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
    stamp = stamp_path(part)
    return stamp is not None and os.path.exists(stamp)


def mark_compiled(part: str) -> None:
    stamp = stamp_path(part)
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


def with_prerequisites(parts) -> set[str]:
    wanted, stack = set(), list(parts)
    while stack:
        part = stack.pop()
        if part not in PARTS:
            raise KeyError(part)
        if part not in wanted:
            wanted.add(part)
            stack.extend(AFTER[part])
    return wanted


def estimate(parts, workers: int) -> float:
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
            ("solver.engine.policies", "greedy"), ("solver.engine.expert", "expert"),
            ("solver.engine.playout", "playout"),
            ("solver.search.", "search"), ("solver.engine.", "rules"))


def first_use_note(module: str, function: str) -> str | None:
    """The first-compile warning's text for ``module.function`` (see kernels.jit)."""
    part = next((p for prefix, p in _PART_OF if module.startswith(prefix)), None)
    if part is None:
        return None
    parts = [p for p in with_prerequisites([part]) if not is_compiled(p)] or [part]
    seconds = estimate(parts, 1)
    ahead = "biriba compile" if part in DEFAULT_PARTS else f"biriba compile {part}"
    return (f"numba compiles {module}.{function} and what it calls at this first call: "
            f"{', '.join(p for p in PARTS if p in parts)}, about {seconds:.0f} s on one core "
            f"(cached on disk afterwards; `{ahead}` compiles it ahead, on every core)")
