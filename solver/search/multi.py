"""MO-ISMCTS: one tree per player (Cowling, Powley & Whitehouse 2012, the multiple-observer
variant), the ``multi`` option.

Every seat has a tree of its own in the shared arrays of :mod:`solver.search.tree`: the
searcher's root is node 0 (so the root statistics stay in row 0), the other seats' roots
are nodes 1..P-1 (:func:`root_of`). At a decision point the player to move chooses with
its own tree (UCB1 with availability, :func:`solver.search.select.select`); every other
tree follows the same decision without statistics (:func:`follow`), as the decisions are
public (the pickup, the discard, a lay-down plan's melds on the table).

What only the mover sees is what a decision brings into its hand: the card drawn, a
packet. It becomes a *chance slot* in the mover's tree alone, keyed by those cards
(:func:`gained`, codes from ``OBSERVED`` up, apart from every decision code), so the
mover's later decisions are kept apart by what it drew, and the others' trees are not.
In the single tree (SO-ISMCTS) the searcher's later decisions are fused over every card
it might draw.

The descent stops when the mover's tree makes a node (the new leaf, as in SO-ISMCTS);
a tree that makes a node for someone else's decision stops following (it has left its
tree), and the descent stops when that tree's player is next to choose. Each iteration
makes at most one node per tree and one more for a chance slot.
"""

from __future__ import annotations

from kernels.jit import njit

from solver.engine import layout as L
from solver.search.decisions import apply_decision, available
from solver.search.select import expand, row_of, select
from solver.search.tree import MAX_DEPTH, NO_NODE, NO_ROW

OBSERVED = 1 << 57          # chance-slot codes: above every decision code (LAY_BASE = 2^56)
OBSERVED_MASK = (1 << 50) - 1
CHANCE = -2                 # tree.player of a node reached through a chance slot's parent
NODES_PER_ITERATION = 2     # per player, and one more: the tree's capacity factor


@njit(cache=True, inline="always")
def root_of(player, searcher):
    """The root node of ``player``'s tree: 0 for the searcher, else 1..P-1 in seat order."""
    if player == searcher:
        return 0
    return player + 1 if player < searcher else player


@njit(cache=True)
def prepare(tree, players, searcher):
    """Reserve the roots of the other players' trees (once per tree)."""
    if tree.size[0] < players:
        tree.size[0] = players
        for player in range(players):
            tree.player[root_of(player, searcher)] = player


@njit(cache=True)
def gained(S, seat, before):
    """The chance-slot code of the cards ``seat`` holds beyond ``before`` (its hand's counts
    before a decision); 0 when it gained none."""
    code = 0
    for kind in range(L.KINDS):
        extra = S[L.HANDS + seat * L.KINDS + kind] - before[kind]
        for _ in range(extra):
            code = (code * 131 + kind + 1) & OBSERVED_MASK
    return OBSERVED + code if code else 0


@njit(cache=True)
def follow(tree, node, code, player):
    """(the child of ``node`` for ``code``, whether it was made now); a slot is added when
    missing, with no statistics. NO_NODE when the rows, the slots or the nodes are used up;
    ``player``: the seat to act at a node made now."""
    row = row_of(tree, node)
    if row == NO_ROW:
        return NO_NODE, False
    j = -1
    for k in range(tree.used[row]):
        if tree.decision[row, k] == code:
            j = k
            break
    if j < 0:
        if tree.used[row] >= tree.decision.shape[1]:
            return NO_NODE, False
        j = tree.used[row]
        tree.used[row] += 1
        tree.decision[row, j] = code
    child = tree.child[row, j]
    if child != NO_NODE:
        return child, False
    return expand(tree, row, j, player), True


@njit(cache=True)
def hand_copy(S, seat, out):
    for kind in range(L.KINDS):
        out[kind] = S[L.HANDS + seat * L.KINDS + kind]


@njit(cache=True)
def descend(S, T, seat, stage, tree, exploration, force, plans, buffer, decisions, log,
            played, path_rows, path_slots, path_seats, cur, live, before):
    """One iteration's descent through the players' trees from the determinized ``S``;
    returns (the decisions on the path, the engine actions logged). ``cur``/``live``/
    ``before``: int64[players], bool[players], int64[KINDS] of workspace; ``force``: the
    root slot every iteration must take (< 0: the bandit chooses)."""
    R = T[0]
    players = R[L.R_PLAYERS]
    prepare(tree, players, seat)
    for player in range(players):
        cur[player] = root_of(player, seat)
        live[player] = True
    here = stage
    depth = 0
    while S[L.PHASE] != L.ROUND_OVER and S[L.PHASE] != L.MATCH_OVER and depth < MAX_DEPTH:
        n = available(S, T, here, buffer, decisions, plans)
        mover = S[L.CURRENT]
        if n == 1:                             # forced: no node, but what it brings is seen
            hand_copy(S, mover, before)
            here, played = apply_decision(S, T, decisions[0], buffer, log, played)
            if live[mover] and depth > 0:     # (before the first decision: as the root)
                code = gained(S, mover, before)
                if code:
                    node, made = follow(tree, cur[mover], code, S[L.CURRENT])
                    if node == NO_NODE or made:
                        break
                    cur[mover] = node
            continue
        if not live[mover]:
            break                              # its tree was left: roll out from here
        row = row_of(tree, cur[mover])
        slot = select(tree, row, decisions, n, exploration) if row != NO_ROW else -1
        if depth == 0 and force >= 0:
            slot = force                       # availability counted by select
        if slot < 0:
            break
        path_rows[depth] = row
        path_slots[depth] = slot
        path_seats[depth] = mover
        depth += 1
        decision = tree.decision[row, slot]
        hand_copy(S, mover, before)
        here, played = apply_decision(S, T, decision, buffer, log, played)
        after = S[L.CURRENT]
        stop = False
        for player in range(players):
            if not live[player]:
                continue
            if player == mover:
                node = tree.child[row, slot]
                if node == NO_NODE:
                    expand(tree, row, slot, after)
                    stop = True
                    continue
                code = gained(S, mover, before)
                if code:
                    node, made = follow(tree, node, code, after)
                    if node == NO_NODE or made:
                        stop = True
                        continue
                cur[player] = node
            else:
                node, made = follow(tree, cur[player], decision, after)
                if node == NO_NODE or made:
                    live[player] = False
                else:
                    cur[player] = node
        if stop:
            break
    return depth, played
