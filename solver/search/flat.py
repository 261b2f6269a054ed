"""Flat Monte Carlo with common random numbers: the samples of the evaluation
(:mod:`solver.search.evaluate`).

A *turn* is a short sequence of engine actions of the player to move: a pickup, a lay-down
and the discard that ends it, a discard. It is the same in every deal the player cannot
tell apart (it depends only on the player's hand, the table and the pile). One *sample*
deals the cards the player cannot see once (:func:`solver.engine.determinize.determinize`)
and plays every active turn on that deal, then the continuation policy (the greedy player,
or the expert, for every seat) to the end of the round. Every turn meets the same hidden cards and the same
stock, so the difference between two turns is measured on the same deals (common random
numbers), which cancels most of the luck of the deal from it.
"""

from __future__ import annotations

import numpy as np
from kernels.jit import njit

from solver.engine import layout as L
from solver.engine.core import apply_action
from solver.engine.determinize import determinize
from solver.search.loop import rollout, round_result

SUMS = 4        # per turn: samples, total, squares, wins (its team's round won)
PAIRS = 3       # per pair of turns: samples, the sum and the squares of their difference


@njit(cache=True)
def flat_samples(root, T, seat, turns, lengths, active, samples, rng, sums, pairs, policy,
                 weights):
    """Add ``samples`` samples to ``sums`` (float64[K, SUMS]: each active turn's result,
    the round-score difference for ``seat``'s team) and ``pairs`` (float64[K, K, PAIRS]:
    each pair of active turns' difference, row less column). ``turns``: int64[K, M] engine
    actions, the first ``lengths[k]`` of row k; ``active``: bool[K]; ``rng``: int64[1].
    ``policy``: the continuation (GREEDY, or EXPERT with ``weights``, float64[W]). Returns
    the engine actions played. ``root`` is never changed, and only what ``seat`` sees of it
    is read."""
    R = T[0]
    count = turns.shape[0]
    players = R[L.R_PLAYERS]
    deal = root.copy()
    S = root.copy()
    buffer = np.empty(L.MAX_ACTIONS, dtype=np.int64)
    results = np.zeros(count, dtype=np.float64)
    rewards = np.zeros(R[L.R_TEAMS], dtype=np.float64)
    diffs = np.zeros(R[L.R_TEAMS], dtype=np.float64)
    team_of = np.empty(players, dtype=np.int64)
    played = 0
    for _ in range(samples):
        deal[:] = root
        deal[L.MATCH_MODE] = 0                 # a rollout ends with the round
        determinize(deal, R, seat, rng)
        for k in range(count):
            if not active[k]:
                continue
            S[:] = deal
            for j in range(lengths[k]):
                apply_action(S, T, turns[k, j])
            for p in range(players):
                team_of[p] = S[L.TEAM_OF + p]
            before = S[L.ACTIONS]
            rollout(S, T, buffer, rng, 0.0, 0, policy, weights, -1)  # no randomness
            played += S[L.ACTIONS] - before + lengths[k]
            round_result(S, R, team_of, rewards, diffs, 1.0)
            result = diffs[team_of[seat]]
            results[k] = result
            sums[k, 0] += 1.0
            sums[k, 1] += result
            sums[k, 2] += result * result
            if result > 0:
                sums[k, 3] += 1.0
        for k in range(count):
            if not active[k]:
                continue
            for m in range(count):
                if m != k and active[m]:
                    difference = results[k] - results[m]
                    pairs[k, m, 0] += 1.0
                    pairs[k, m, 1] += difference
                    pairs[k, m, 2] += difference * difference
    return played
