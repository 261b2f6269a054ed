"""The error family, rooted here so the kernels' errors belong to it too.

Every error caused by bad input derives from :class:`BiribaError` (a
``ValueError``); :mod:`solver.errors` adds the game's own and re-exports this
one. The kernels sit below the game in the layers, so the root lives here.
"""


class BiribaError(ValueError):
    """Base class of every error caused by bad input."""


class KernelInputError(BiribaError):
    """Arrays a kernel cannot take: a meld outside the hand, a bad group, a negative keep."""


class BackendError(BiribaError):
    """An unknown kernel backend (the ``backend`` argument or ``BIRIBA_BACKEND``)."""


class CountBudgetError(BiribaError):
    """A lay-down count that needs more memo entries than its budget (minutes of work)."""


class CountOverflowError(BiribaError, OverflowError):
    """A compiled backend's int64 lay-down counter overflowed; the python backend is exact."""
