"""The search tree as flat arrays.

A node is a decision point of the searching player's tree (SO-ISMCTS: one tree from the
searcher's point of view; the other players' decisions are nodes of the same tree). A
node gets a *row* of child slots the first time an iteration passes through it (a leaf
that is never visited again costs no row); each slot holds one decision seen available
there in some determinization, in the order first seen.

Shapes (``N`` nodes, ``W`` rows, ``C = MAX_CHILDREN`` slots per row)::

    row       int64[N]       the node's row (NO_ROW: not visited since it was made)
    player    int64[N]       the seat to act at the node
    size      int64[2]       nodes and rows in use (node 0, row 0: the root)
    decision  int64[W, C]    the decision code of the slot (EMPTY: unused)
    child     int64[W, C]    the node it leads to (NO_NODE: not expanded yet)
    visits    int64[W, C]    iterations that took this decision here
    avail     int64[W, C]    iterations that passed with this decision available
    reward    float64[W, C]  sum of the scaled rewards of the deciding player's team
    points    float64[W, C]  sum of its round-score differences, in points
    squares   float64[W, C]  sum of their squares (the 95% interval)
    wins      int64[W, C]    iterations whose round the deciding player's team won
    used      int64[W]       slots in use
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

EMPTY = -1             # a slot no decision has taken
NO_NODE = -1           # a slot whose decision has not been expanded into a node
NO_ROW = -1            # a node not visited since it was made
MAX_CHILDREN = 64      # decisions kept per node (a hand holds at most 53 discard kinds)
MAX_DEPTH = 4096       # decision points on one path (a round has a few hundred)


class Tree(NamedTuple):
    row: np.ndarray
    player: np.ndarray
    size: np.ndarray
    decision: np.ndarray
    child: np.ndarray
    visits: np.ndarray
    avail: np.ndarray
    reward: np.ndarray
    points: np.ndarray
    squares: np.ndarray
    wins: np.ndarray
    used: np.ndarray


def new_tree(nodes: int, rows: int | None = None) -> Tree:
    """An empty tree with room for ``nodes`` nodes (an iteration adds at most one in the
    single tree) and ``rows`` rows (default half as many)."""
    nodes = max(int(nodes), 2)
    rows = nodes // 2 + 1 if rows is None else max(int(rows), 1)
    shape = (rows, MAX_CHILDREN)
    row = np.full(nodes, NO_ROW, dtype=np.int64)
    row[0] = 0
    return Tree(
        row=row,
        player=np.full(nodes, -1, dtype=np.int64),
        size=np.ones(2, dtype=np.int64),
        decision=np.full(shape, EMPTY, dtype=np.int64),
        child=np.full(shape, NO_NODE, dtype=np.int64),
        visits=np.zeros(shape, dtype=np.int64),
        avail=np.zeros(shape, dtype=np.int64),
        reward=np.zeros(shape, dtype=np.float64),
        points=np.zeros(shape, dtype=np.float64),
        squares=np.zeros(shape, dtype=np.float64),
        wins=np.zeros(shape, dtype=np.int64),
        used=np.zeros(rows, dtype=np.int64),
    )
