"""Exceptions. Every bad input raises a subclass of :class:`BiribaError`.

``BiribaError`` derives from ``ValueError`` so callers that only know the
standard library still catch it; the CLI turns any of them into one line on
stderr and exit code 2.
"""


from kernels.errors import BackendError, BiribaError, CountOverflowError, KernelInputError  # noqa: F401


class InvalidCardError(BiribaError):
    """A card token that is not in the notation of RULES.md §1."""


class InvalidRulesError(BiribaError):
    """An unknown preset or an inconsistent rule-set override."""


class IllegalMeldError(BiribaError):
    """Cards that do not form a legal meld (or a legal extension)."""


class IllegalMoveError(BiribaError):
    """An action that the rules do not allow in the current state."""


class ImpossiblePositionError(BiribaError):
    """A position that cannot arise, e.g. more copies of a card than the decks hold."""


class RecordError(BiribaError):
    """A malformed or inconsistent JSON record."""


class OutOfRangeError(BiribaError):
    """A number outside the range it must lie in (a seed, a count, a time limit)."""
