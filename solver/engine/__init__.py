"""The game engine: state arrays, the rules of play in numba, the API, players, records.

The numba cache of the engine's compiled functions is kept fresh module by
module by :mod:`kernels.numba_cache` (run when :mod:`kernels` is imported): an
edit of one rule module recompiles that module and the modules that import it.
"""

from kernels import jit as _jit  # noqa: E402
from solver.engine.compiled import first_use_note as _first_use_note  # noqa: E402

_jit.set_first_compile_note(_first_use_note)
