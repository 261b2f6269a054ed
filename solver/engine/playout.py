"""The playout kernel: a round (or a match) played to its end inside numba.

It loops over the same rule functions as the Python API
(:func:`solver.engine.core.legal_actions`, :func:`~solver.engine.core.apply_action`)
with one policy per seat (:data:`~solver.engine.policies.RANDOM`,
:data:`~solver.engine.policies.GREEDY` or :data:`~solver.engine.policies.EXPERT`), all
drawing from one generator ``rng`` (int64[1]). The API played with the same policies and the same
generator reaches the same state (tested).
"""

from __future__ import annotations

import numpy as np
from kernels.jit import njit

from solver.engine import layout as L
from solver.engine.core import apply_action, new_game
from solver.engine.expert import WEIGHTS, expert_action
from solver.engine.policies import EXPERT, GREEDY, greedy_action, random_action

CUT_OFF = -2    # play_many's ``wins`` code of a game stopped before its end


@njit(cache=True, inline="always")
def policy_action(S, T, buffer, rng, policy, weights):
    """The action of the policy ``policy`` (RANDOM, GREEDY, or EXPERT with ``weights``)."""
    if policy == GREEDY:
        return greedy_action(S, T, buffer)
    if policy == EXPERT:
        return expert_action(S, T, buffer, weights)
    return random_action(S, T, buffer, rng)


@njit(cache=True, inline="always")
def playout(S, T, policies, rng, max_actions, log):
    """Play from ``S`` until the round (or the match, in match mode) ends.

    ``policies``: int64[players]; ``log``: int64 buffer that receives the
    actions while it has room. Returns the number of actions played (at most
    ``max_actions``). The expert plays with its tuned weights.
    """
    return playout_weighted(S, T, policies, default_weights(policies.shape[0]), rng,
                            max_actions, log)


@njit(cache=True, inline="always")
def default_weights(players):
    weights = np.empty((players, WEIGHTS.shape[0]), dtype=np.float64)
    for seat in range(players):
        weights[seat] = WEIGHTS
    return weights


@njit(cache=True, inline="always")
def playout_weighted(S, T, policies, weights, rng, max_actions, log):
    """:func:`playout` with the expert's weights per seat (``weights`` float64[players,
    PARAMS]: a tuning run's)."""
    buffer = np.empty(L.MAX_ACTIONS, dtype=np.int64)
    count = 0
    while S[L.PHASE] != L.ROUND_OVER and S[L.PHASE] != L.MATCH_OVER and count < max_actions:
        seat = S[L.CURRENT]
        action = policy_action(S, T, buffer, rng, policies[seat], weights[seat])
        apply_action(S, T, action)
        if count < log.shape[0]:
            log[count] = action
        count += 1
    return count


@njit(cache=True)
def play_many(T, policies, first_seed, games, match_mode, max_actions, scores, wins):
    """Play ``games`` seeded games (seed ``first_seed + g``, deal rotating with ``g``).

    ``scores`` int64[games, entities] receives each game's round scores (round
    mode) or final match scores; ``wins`` int64[games] the winning entity
    (highest score; -1 on a tie; CUT_OFF when it stopped at ``max_actions``
    before its end). Returns the total number of actions.
    """
    return play_weighted(T, policies, default_weights(policies.shape[0]), first_seed, games,
                         match_mode, max_actions, scores, wins)


@njit(cache=True)
def play_weighted(T, policies, weights, first_seed, games, match_mode, max_actions, scores,
                  wins):
    """:func:`play_many` with the expert's weights per seat (float64[players, PARAMS])."""
    R = T.array
    S = np.zeros(L.SIZE, dtype=np.int64)
    log = np.empty(0, dtype=np.int64)
    rng = np.zeros(1, dtype=np.int64)
    total = 0
    entities = scores.shape[1]
    for g in range(games):
        new_game(S, R, first_seed + g, g, match_mode)
        rng[0] = (first_seed + g) * 7919 + 17
        total += playout_weighted(S, T, policies, weights, rng, max_actions, log)
        top = -1
        tie = False
        for entity in range(entities):
            scores[g, entity] = S[L.MATCH + entity]   # a round's scores, or the match's
        for entity in range(entities):
            if top < 0 or scores[g, entity] > scores[g, top]:
                top = entity
                tie = False
            elif scores[g, entity] == scores[g, top]:
                tie = True
        wins[g] = -1 if tie else top
        if S[L.PHASE] != L.ROUND_OVER and S[L.PHASE] != L.MATCH_OVER:
            wins[g] = CUT_OFF                          # stopped at max_actions
    return total
