"""The game engine: state arrays, the rules of play in numba, the API, players, records.

numba's on-disk cache (``cache=True``) is invalidated when a function's own
source file changes, but not when a function it calls, in another file,
changes: a cached ``playout`` would keep an old ``legal_actions`` compiled in.
So on import the engine fingerprints the sources its compiled functions
depend on and drops its cached machine code when they changed (only for the
default cache next to the sources; a user's ``NUMBA_CACHE_DIR`` is left alone).
"""

import hashlib
import os

_DEPENDENCIES = ("core.py", "basics.py", "deal.py", "pile.py", "melding.py", "discard.py",
                 "ending.py", "turn.py", "policies.py", "playout.py", "layout.py", "checks.py",
                 "determinize.py",
                 os.path.join("..", "..", "kernels", "partition_numba.py"),
                 os.path.join("..", "..", "kernels", "additions_numba.py"),
                 os.path.join("..", "..", "kernels", "catalogue_numba.py"),
                 os.path.join("..", "..", "kernels", "candidates.py"),
                 os.path.join("..", "..", "kernels", "lp_bound.py"),
                 *(os.path.join("..", "search", name) for name in
                   ("decisions.py", "plans.py", "select.py", "loop.py", "tree.py",
                    "multi.py", "match.py", "infer.py")))
# the compiled search calls the engine, and partition_numba calls additions_numba and
# catalogue_numba: numba checks only a function's own file, so these caches go stale with
# any of the sources above
_CACHES = ("__pycache__", os.path.join("..", "search", "__pycache__"),
           os.path.join("..", "..", "kernels", "__pycache__"))


def sources_digest() -> str | None:
    """A fingerprint of the sources the compiled engine depends on (None: unreadable)."""
    here = os.path.dirname(os.path.abspath(__file__))
    digest = hashlib.blake2b(digest_size=16)
    for name in _DEPENDENCIES:
        try:
            with open(os.path.join(here, name), "rb") as source:
                digest.update(source.read())
        except OSError:
            return None
    return digest.hexdigest()


def _refresh_numba_cache() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    here = os.path.dirname(os.path.abspath(__file__))
    cache = os.path.join(here, "__pycache__")
    digest = sources_digest()
    if digest is None:
        return
    stamp = os.path.join(cache, "numba-sources.stamp")
    try:
        with open(stamp) as handle:
            if handle.read() == digest:
                return
    except OSError:
        pass
    try:
        os.makedirs(cache, exist_ok=True)
        for folder in (os.path.join(here, name) for name in _CACHES):
            for name in os.listdir(folder) if os.path.isdir(folder) else ():
                if name.endswith((".nbi", ".nbc")):
                    os.remove(os.path.join(folder, name))
        with open(stamp, "w") as handle:
            handle.write(digest)
    except OSError:
        return   # a read-only install: numba uses its own cache directory there


_refresh_numba_cache()
