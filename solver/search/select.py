"""Selection with availability (the subset-armed bandit of Cowling, Powley & Whitehouse
2012), expansion, and the backup of one iteration's result. Slots are addressed as
(row, slot); :mod:`solver.search.tree` has the arrays."""

from __future__ import annotations

import math

from kernels.jit import njit

from solver.search.tree import NO_NODE, NO_ROW


@njit(cache=True)
def row_of(tree, node):
    """The node's row, made on its first visit; NO_ROW when the rows are used up."""
    row = tree.row[node]
    if row == NO_ROW:
        row = tree.size[1]
        if row >= tree.used.shape[0]:
            return NO_ROW
        tree.size[1] = row + 1
        tree.row[node] = row
    return row


@njit(cache=True, inline="always")
def select(tree, row, decisions, n, exploration):
    """The slot to follow in ``row`` among the ``n`` available ``decisions``.

    Every available decision gets a slot (first seen, first placed) and one more
    availability; an untried one is taken first (in the order given), else the best UCB1
    score ``mean + c * sqrt(ln(availability) / visits)``. Returns -1 when the row is full
    and no available decision has a slot.
    """
    best = -1
    best_score = -math.inf
    untried = -1
    width = tree.decision.shape[1]
    for i in range(n):
        j = -1
        for k in range(tree.used[row]):
            if tree.decision[row, k] == decisions[i]:
                j = k
                break
        if j < 0:
            if tree.used[row] >= width:
                continue
            j = tree.used[row]
            tree.used[row] += 1
            tree.decision[row, j] = decisions[i]
        tree.avail[row, j] += 1
        visits = tree.visits[row, j]
        if visits == 0:
            if untried < 0:
                untried = j
            continue
        score = (tree.reward[row, j] / visits
                 + exploration * math.sqrt(math.log(tree.avail[row, j]) / visits))
        if score > best_score:
            best_score = score
            best = j
    return untried if untried >= 0 else best


@njit(cache=True)
def expand(tree, row, slot, player):
    """Give the slot a new child node for ``player`` (nothing when the nodes are used up)."""
    size = tree.size[0]
    if size >= tree.row.shape[0]:
        return NO_NODE
    tree.size[0] = size + 1
    tree.player[size] = player
    tree.child[row, slot] = size
    return size


@njit(cache=True, inline="always")
def backup(tree, path_rows, path_slots, path_seats, team_of, depth, rewards, diffs):
    """Add one iteration's result along its path: each decision is credited with the result
    of the team its seat ends the round in (``team_of``; ``rewards``/``diffs`` per team:
    three players' pairs form during a round)."""
    for k in range(depth):
        row = path_rows[k]
        slot = path_slots[k]
        team = team_of[path_seats[k]]
        tree.visits[row, slot] += 1
        tree.reward[row, slot] += rewards[team]
        tree.points[row, slot] += diffs[team]
        tree.squares[row, slot] += diffs[team] * diffs[team]
        if diffs[team] > 0:
            tree.wins[row, slot] += 1
