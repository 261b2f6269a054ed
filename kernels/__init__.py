"""Numbers in, numbers out: card encodings and compiled kernels.

Nothing in this package knows about Python card objects or rule-set objects;
it works on small ints and numpy arrays (see :mod:`kernels.encoding`).

numba caches compiled kernels next to their source (``cache=True``). In a
read-only install that is impossible, so before numba is imported we point
``NUMBA_CACHE_DIR`` at a writable user cache directory unless the user chose
one. Then :func:`kernels.numba_cache.refresh` drops the cached functions of
every module whose code, or the code of a module it imports, changed.
"""

import os
import tempfile


def _ensure_numba_cache_dir() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    package_dir = os.path.dirname(os.path.abspath(__file__))
    pycache = os.path.join(package_dir, "__pycache__")
    probe = pycache if os.path.isdir(pycache) else package_dir
    if os.access(probe, os.W_OK):
        return
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    for candidate in (os.path.join(base, "biriba", "numba"),
                      os.path.join(tempfile.gettempdir(), "biriba-numba-cache")):
        try:
            os.makedirs(candidate, exist_ok=True)
        except OSError:
            continue
        if os.access(candidate, os.W_OK):
            os.environ["NUMBA_CACHE_DIR"] = candidate
            return


_ensure_numba_cache_dir()

from kernels import numba_cache  # noqa: E402  (after the cache location is set)

numba_cache.refresh()
