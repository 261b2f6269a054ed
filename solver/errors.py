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


def quote_value(value, limit: int = 60) -> str:
    """A short repr of any value for an error message: bounded in length and depth, and
    safe on huge ints (which have no decimal repr past 4,300 digits)."""
    parts: list[str] = []
    budget = [limit + 1]

    def put(text: str) -> bool:
        parts.append(text[:budget[0]])
        budget[0] -= len(text)
        return budget[0] > 0

    def walk(item, depth: int) -> bool:
        if depth > 8:
            return put("...")
        if isinstance(item, bool) or item is None:
            return put(repr(item))
        if isinstance(item, int):
            if item.bit_length() > 160:
                return put(f"<{'-' if item < 0 else ''}integer of {item.bit_length()} bits>")
            return put(repr(item))
        if isinstance(item, str):
            return put(repr(item[:limit + 1]))
        if isinstance(item, (list, tuple)):
            opening, closing = ("[", "]") if isinstance(item, list) else ("(", ")")
            if not put(opening):
                return False
            for index, element in enumerate(item):
                if (index and not put(", ")) or not walk(element, depth + 1):
                    return False
            return put("," + closing if len(item) == 1 and closing == ")" else closing)
        if isinstance(item, dict):
            if not put("{"):
                return False
            for index, (key, element) in enumerate(item.items()):
                if index and not put(", "):
                    return False
                if not walk(key, depth + 1) or not put(": ") or not walk(element, depth + 1):
                    return False
            return put("}")
        try:
            text = repr(item)
        except Exception:                     # noqa: BLE001 - a repr may fail in any way
            text = f"<{type(item).__name__}>"
        return put(text[:limit + 1])

    walk(value, 0)
    text = "".join(parts)
    return text if len(text) <= limit else text[:limit - 3] + "..."
