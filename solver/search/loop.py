"""The search loop: determinize, descend, expand, roll out, back up; all in numba.

One call runs a number of iterations on a tree it is handed, so a time budget is a series
of short calls (the tree carries over) and an iteration budget with a seed always builds
the same tree.
"""

from __future__ import annotations

import numpy as np
from kernels.jit import njit

from solver.engine import layout as L
from solver.engine.basics import rng_unit
from solver.engine.core import apply_action, end_round
from solver.engine.expert import WEIGHTS, expert_action
from solver.engine.policies import EXPERT, greedy_action, random_action
from solver.search.decisions import apply_decision, available
from solver.search.match import match_rewards
from solver.engine.determinize import determinize
from solver.search import multi
from solver.search.infer import MAX_TRIES, weight
from solver.search.select import backup, expand, row_of, select
from solver.search.tree import MAX_CHILDREN, MAX_DEPTH, NO_NODE, NO_ROW
from solver.search.value import VALUE_WEIGHTS, end_valued, weights_row

MAX_ROLLOUT = 20_000        # engine actions of one rollout (a round has a few hundred)
# options (float64[OPTIONS]): the exploration constant, the rollout's random share, the
# points that scale a round-score difference into a reward, the root slot every
# iteration must take (NO_FORCE: the bandit chooses; the evaluation's forced samples set it),
# the rollout's cut-off (engine actions, 0: to the end of the round), the mask of
# lay-down plans (solver.search.plans), the match-aware reward (1: on, with the match's
# target; solver.search.match), one tree per player (1: MO-ISMCTS, solver.search.multi),
# the inference's trust in the greedy model (0: off; solver.search.infer), and the rollout
# policy (solver.engine.policies: GREEDY or EXPERT), and the learned value at the cut-off
# (1: on; solver.search.value)
EXPLORATION = 0
EPSILON = 1
SCALE = 2
FORCE_SLOT = 3
CUTOFF = 4
PLANS = 5
MATCH = 6
TARGET = 7
MULTI = 8
INFER = 9
ROLLOUT = 10
VALUE = 11
OPTIONS = 12
NO_FORCE = -1.0


@njit(cache=True, inline="always")
def round_result(S, R, team_of, rewards, diffs, scale):
    """Per team: its round score less the best other team's, in points and scaled."""
    teams = R[L.R_TEAMS]
    players = R[L.R_PLAYERS]
    for team in range(teams):
        best_other = -1 << 60
        for other in range(teams):
            members = 0
            for seat in range(players):
                if team_of[seat] == other:
                    members += 1
            if other != team and members > 0 and S[L.ROUND_SCORE + other] > best_other:
                best_other = S[L.ROUND_SCORE + other]
        if best_other == -1 << 60:
            best_other = 0
        diffs[team] = S[L.ROUND_SCORE + team] - best_other
        rewards[team] = diffs[team] / scale


@njit(cache=True, inline="always")
def rollout(S, T, buffer, rng, epsilon, cutoff, policy, weights, value):
    """Play to the end of the round: ``policy`` (GREEDY, or EXPERT with ``weights``), a random
    action with probability
    ``epsilon``. With a ``cutoff`` (> 0) the rollout stops after that many actions and the
    round is scored as it stands (the static evaluation: the melds, less the cards in
    hand and the packets not taken, no closing bonus), plus each team's learned
    correction where ``value`` (the row of VALUE_WEIGHTS, or -1: none)."""
    R, vals = T.array, T.values
    for step in range(MAX_ROLLOUT):
        if S[L.PHASE] == L.ROUND_OVER or S[L.PHASE] == L.MATCH_OVER:
            return
        if cutoff > 0 and step >= cutoff:
            if value >= 0:
                end_valued(S, R, vals, VALUE_WEIGHTS[value])
            else:
                end_round(S, R, vals, L.IDLE_OUT)
            return
        if epsilon > 0.0 and np.float64(rng_unit(rng)) < epsilon:
            action = random_action(S, T, buffer, rng)
        elif policy == EXPERT:
            action = expert_action(S, T, buffer, weights)
        else:
            action = greedy_action(S, T, buffer)
        apply_action(S, T, action)
    end_round(S, R, vals, L.IDLE_OUT)          # never met: a round ends long before


@njit(cache=True)
def descend(S, T, stage, tree, exploration, force, plans, buffer, decisions, log, played,
            path_rows, path_slots, path_seats):
    """One iteration's descent through the single tree from the determinized ``S``;
    returns (the decisions on the path, the engine actions logged). ``force``: the root
    slot every iteration must take (< 0: the bandit chooses)."""
    node = 0
    here = stage
    depth = 0
    while S[L.PHASE] != L.ROUND_OVER and S[L.PHASE] != L.MATCH_OVER and depth < MAX_DEPTH:
        n = available(S, T, here, buffer, decisions, plans)
        if n == 1:                             # forced: played without a node
            here, played = apply_decision(S, T, decisions[0], buffer, log, played)
            continue
        row = row_of(tree, node)
        slot = select(tree, row, decisions, n, exploration) if row != NO_ROW else -1
        if depth == 0 and force >= 0:
            slot = force                       # availability counted by select
        if slot < 0:
            break                              # no room: roll out from here
        path_rows[depth] = row
        path_slots[depth] = slot
        path_seats[depth] = S[L.CURRENT]
        depth += 1
        child = tree.child[row, slot]
        here, played = apply_decision(S, T, tree.decision[row, slot], buffer, log, played)
        if child == NO_NODE:                   # the new leaf (none when the tree is full)
            expand(tree, row, slot, S[L.CURRENT])
            break
        node = child
    return depth, played


@njit(cache=True)
def iterate(root, T, seat, stage, tree, iterations, rng, options, chance):
    """Run ``iterations`` iterations of SO-ISMCTS (MO-ISMCTS with the ``MULTI`` option)
    from ``root`` for ``seat`` at ``stage``.

    ``root`` is never changed and only what ``seat`` sees of it is read (determinize).
    ``chance``: the match win chances (solver.search.match.WinTable) the match-aware
    reward reads (any float64[n, n] when it is off). Returns the engine actions played in
    all (search and rollouts).
    """
    R = T.array
    S = root.copy()
    S[L.MATCH_MODE] = 0                        # a rollout ends with the round
    buffer = np.empty(L.MAX_ACTIONS, dtype=np.int64)
    decisions = np.empty(MAX_CHILDREN, dtype=np.int64)
    log = np.empty(0, dtype=np.int64)
    path_rows = np.empty(MAX_DEPTH, dtype=np.int64)
    path_slots = np.empty(MAX_DEPTH, dtype=np.int64)
    path_seats = np.empty(MAX_DEPTH, dtype=np.int64)
    teams = R[L.R_TEAMS]
    rewards = np.zeros(teams, dtype=np.float64)
    diffs = np.zeros(teams, dtype=np.float64)
    team_of = np.empty(R[L.R_PLAYERS], dtype=np.int64)
    tree.player[0] = seat
    plans = np.int64(options[PLANS])
    match = options[MATCH] > 0.0
    target = np.int64(options[TARGET])
    several = options[MULTI] > 0.0
    trust = options[INFER]
    cur = np.empty(R[L.R_PLAYERS], dtype=np.int64)
    live = np.empty(R[L.R_PLAYERS], dtype=np.bool_)
    hand_before = np.empty(L.KINDS, dtype=np.int64)
    weights = WEIGHTS.copy()                   # the expert's (a constant is read-only)
    value = weights_row(R) if options[VALUE] > 0.0 else np.int64(-1)
    played = 0
    for _ in range(iterations):
        S[:] = root
        S[L.MATCH_MODE] = 0
        determinize(S, R, seat, rng)
        if trust > 0.0:                        # rejection sampling by the greedy model
            for _ in range(MAX_TRIES - 1):
                if rng_unit(rng) < weight(S, T, seat, trust):
                    break
                S[:] = root
                S[L.MATCH_MODE] = 0
                determinize(S, R, seat, rng)
        if several:
            depth, played = multi.descend(S, T, seat, stage, tree, options[EXPLORATION],
                                          np.int64(options[FORCE_SLOT]), plans, buffer,
                                          decisions, log, played, path_rows, path_slots,
                                          path_seats, cur, live, hand_before)
        else:
            depth, played = descend(S, T, stage, tree, options[EXPLORATION],
                                    np.int64(options[FORCE_SLOT]), plans, buffer, decisions,
                                    log, played, path_rows, path_slots, path_seats)
        for seat_index in range(R[L.R_PLAYERS]):
            team_of[seat_index] = S[L.TEAM_OF + seat_index]
        before = S[L.ACTIONS]
        rollout(S, T, buffer, rng, options[EPSILON], np.int64(options[CUTOFF]),
                np.int64(options[ROLLOUT]), weights, value)
        played += S[L.ACTIONS] - before
        round_result(S, R, team_of, rewards, diffs, options[SCALE])
        if match:
            match_rewards(S, chance, target, rewards)
        backup(tree, path_rows, path_slots, path_seats, team_of, depth, rewards, diffs)
    return played
