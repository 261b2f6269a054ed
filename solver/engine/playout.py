"""The playout kernel: a round (or a match) played to its end inside numba.

It loops over the same rule functions as the Python API
(:func:`solver.engine.core.legal_actions`, :func:`~solver.engine.core.apply_action`)
with one policy per seat (:data:`~solver.engine.policies.RANDOM` or
:data:`~solver.engine.policies.GREEDY`), all drawing from one generator
``rng`` (int64[1]). The API played with the same policies and the same
generator reaches the same state (tested).
"""

from __future__ import annotations

import numpy as np
from kernels.jit import njit

from solver.engine import layout as L
from solver.engine.core import apply_action, new_game
from solver.engine.policies import policy_action

CUT_OFF = -2    # play_many's ``wins`` code of a game stopped before its end


@njit(cache=True, inline="always")
def playout(S, T, policies, rng, max_actions, log):
    """Play from ``S`` until the round (or the match, in match mode) ends.

    ``policies``: int64[players]; ``log``: int64 buffer that receives the
    actions while it has room. Returns the number of actions played (at most
    ``max_actions``).
    """
    buffer = np.empty(L.MAX_ACTIONS, dtype=np.int64)
    count = 0
    while S[L.PHASE] != L.ROUND_OVER and S[L.PHASE] != L.MATCH_OVER and count < max_actions:
        action = policy_action(S, T, buffer, rng, policies[S[L.CURRENT]])
        apply_action(S, T, action)
        if count < log.shape[0]:
            log[count] = action
        count += 1
    return count


@njit(cache=True)
def play_many(T, policies, first_seed, games, match_mode, max_actions,
              scores, wins):
    """Play ``games`` seeded games (seed ``first_seed + g``, deal rotating with ``g``).

    ``scores`` int64[games, entities] receives each game's round scores (round
    mode) or final match scores; ``wins`` int64[games] the winning entity
    (highest score; -1 on a tie; CUT_OFF when it stopped at ``max_actions``
    before its end). Returns the total number of actions.
    """
    R = T.array
    S = np.zeros(L.SIZE, dtype=np.int64)
    log = np.empty(0, dtype=np.int64)
    rng = np.zeros(1, dtype=np.int64)
    total = 0
    entities = scores.shape[1]
    for g in range(games):
        new_game(S, R, first_seed + g, g, match_mode)
        rng[0] = (first_seed + g) * 7919 + 17
        total += playout(S, T, policies, rng, max_actions, log)
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
