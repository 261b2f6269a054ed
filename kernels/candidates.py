"""The rows a lay-down search chooses from, defined once for the optimizer and the engine.

A lay-down search (``best`` in every backend) takes one table of rows: first the new melds
of the hand (its catalogue), then the additions to the team's table melds, each addition
in the *group* of the table meld it extends (at most one row per group may be used); a new
meld's group is -1. A card that must be laid (the top of a taken pile) is not allowed to
stay in hand: ``max_left`` is the hand less those cards. The turn optimizer
(:func:`solver.extensions.build_candidates`) and the engine's greedy plan
(``solver.engine.policies``) both build their rows here: one source, run as plain numpy
by the optimizer (``rows_python``; a numba call there would cost a command like ``biriba
best`` about 0.4 s of loading) and compiled for the engine (``candidate_rows``).
"""

from __future__ import annotations

import numpy as np
from kernels.jit import njit


def rows_python(new_counts, new_points, add_counts, add_points, add_groups):
    """(counts, points, groups) of every row: the new melds, then the additions."""
    new = new_counts.shape[0]
    total = new + add_counts.shape[0]
    counts = np.empty((total, new_counts.shape[1]), dtype=np.int64)
    points = np.empty(total, dtype=np.int64)
    groups = np.full(total, -1, dtype=np.int64)
    counts[:new] = new_counts
    points[:new] = new_points
    counts[new:] = add_counts
    points[new:] = add_points
    groups[new:] = add_groups
    return counts, points, groups


def max_left_python(hand, must):
    """The most of each kind that may stay in hand: ``hand`` less the ``must`` counts."""
    return hand - must


candidate_rows = njit(cache=True)(rows_python)
max_left = njit(cache=True)(max_left_python)
