"""Ratings from pairwise results: Bradley–Terry strengths on an Elo scale, with bootstrap
intervals over deal pairs.

A *game* here is one deal pair of a tournament (a deal played twice, seats swapped): it is
won by the player whose mean lead over the two rounds is positive, halved when it is 0.
Bradley–Terry gives each player a strength ``p`` with ``P(i beats j) = p_i / (p_i + p_j)``,
fitted by the minorization–maximization iteration of Hunter (2004, "MM algorithms for
generalized Bradley–Terry models", Annals of Statistics 32(1)). Every pairing carries one
virtual game, split half and half, so that a player who wins every game keeps a finite
strength. A rating is ``400 log10(p_i / p_anchor)``: Elo points against the anchor.
"""

from __future__ import annotations

import math

import numpy as np

ELO = 400.0 / math.log(10.0)
MAX_ITERATIONS = 10_000
TOLERANCE = 1e-10
PRIOR_GAMES = 1.0        # the virtual game of every pairing, split half and half


def fit(count: int, games) -> np.ndarray:
    """Ratings (Elo points, mean 0) of ``count`` players from ``games``: (i, j, score of i)
    with the score 1, 0.5 or 0."""
    wins = np.zeros((count, count))
    for i, j, score in games:
        wins[i, j] += score
        wins[j, i] += 1.0 - score
    played = wins + wins.T
    met = played > 0
    wins = wins + met * (PRIOR_GAMES / 2)
    played = played + met * PRIOR_GAMES
    total = wins.sum(axis=1)
    strength = np.ones(count)
    for _ in range(MAX_ITERATIONS):
        ratio = played / (strength[:, None] + strength[None, :])
        new = np.where(total > 0, total / np.maximum(ratio.sum(axis=1), 1e-300), strength)
        new /= math.exp(np.log(new).mean())
        if np.max(np.abs(new - strength)) < TOLERANCE:
            strength = new
            break
        strength = new
    ratings = ELO * np.log(strength)
    return ratings - ratings.mean()


def anchored(ratings: np.ndarray, anchor: int) -> np.ndarray:
    return ratings - ratings[anchor]


def bootstrap(count: int, games_by_deal: dict, anchor: int, samples: int, seed: int):
    """(ratings, low, high): the fit on every game and the 2.5 and 97.5 percentiles of the
    fits on ``samples`` resamples of the deals (a resampled deal brings its games of every
    pairing, so the duplicate structure stays). ``games_by_deal``: {deal: [(i, j, score)]}."""
    deals = sorted(games_by_deal)
    every = [game for deal in deals for game in games_by_deal[deal]]
    ratings = anchored(fit(count, every), anchor)
    if len(deals) < 2 or samples < 1:
        return ratings, np.full(count, -math.inf), np.full(count, math.inf)
    rng = np.random.default_rng(seed)
    fits = np.empty((samples, count))
    for s in range(samples):
        drawn = rng.integers(0, len(deals), size=len(deals))
        games = [game for d in drawn for game in games_by_deal[deals[d]]]
        fits[s] = anchored(fit(count, games), anchor)
    low, high = np.percentile(fits, [2.5, 97.5], axis=0)
    return ratings, low, high
