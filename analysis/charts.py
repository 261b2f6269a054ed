"""matplotlib for the charts (the ``[plot]`` extra), refused in one line when missing."""

from __future__ import annotations

from solver.errors import BiribaError


def pyplot():
    """matplotlib.pyplot on the file-only Agg backend; a BiribaError without matplotlib."""
    try:
        import matplotlib
    except ImportError:
        raise BiribaError("--plot needs matplotlib: pip install -e \".[plot]\"") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt
