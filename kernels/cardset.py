"""Card-set operations, compiled when available.

The Cython module :mod:`kernels._cardset` (built by ``setup.py``) is used
when it imports; otherwise the pure-Python reference
:mod:`kernels.cardset_ref`.  Set ``BIRIBA_PURE_PYTHON=1`` to force the
reference (the test suite runs against both).  ``BACKEND`` names the one in
use.
"""

import os

if os.environ.get("BIRIBA_PURE_PYTHON", "") not in ("", "0"):
    from kernels import cardset_ref as _impl

    BACKEND = "python"
else:
    try:
        from kernels import _cardset as _impl

        BACKEND = "cython"
    except ImportError:  # not built: an sdist without a compiler, say
        from kernels import cardset_ref as _impl

        BACKEND = "python"

counts_to_masks = _impl.counts_to_masks
masks_to_counts = _impl.masks_to_counts
counts_add = _impl.counts_add
counts_subtract = _impl.counts_subtract
counts_subset = _impl.counts_subset
masks_subset = _impl.masks_subset
natural_run_starts = _impl.natural_run_starts
card_total = _impl.card_total
