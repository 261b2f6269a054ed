"""The match-aware reward: the chance of winning the match from the scores after a round.

In match play a round's points matter through what they do to the match: 300 points ahead
at 2,400 of 2,500 is worth more than 300 points at the start. With ``match=True`` the search
rewards a rollout with ``2 W - 1``, where ``W`` is the searching team's chance of winning the
match from the match scores after the round (the best other team's chance taken away, so
the reward lies in [-1, 1] like a round-score difference over the default scale).

``W`` is estimated once per game kind from simulated rounds: greedy rounds (the playout
kernel) give the distribution of the two teams' round scores, made symmetric (either team
may have had either score), and value iteration over a grid of match scores gives the
chance that a team with ``a`` points wins against one with ``b``, as the rounds go on
until one reaches the target (the higher total wins; an equal total counts half).

Two teams only (two or four players, or six in two teams): with three players the match is
every player for themselves, which the table does not model.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np
from kernels.jit import njit

from solver.engine import layout as L

STEP = 50                   # points per grid cell
LOW = -2000                 # scores below count as this (a team that far down rarely wins)
ROUNDS = 2000               # greedy rounds that estimate the round-score distribution (~4 s)
SWEEPS = 200                # most value-iteration sweeps (a sweep is a round more)
TOLERANCE = 1e-6


class WinTable(NamedTuple):
    """``chance[i, j]``: the chance that a team with ``LOW + i * STEP`` points wins the match
    against one with ``LOW + j * STEP``, both below ``target``, at the start of a round."""

    chance: np.ndarray      # float64[n, n]
    target: int
    rounds: int             # the simulated rounds it was estimated from


def round_outcomes(game, rounds: int = ROUNDS, seed: int = 0) -> np.ndarray:
    """int64[rounds, 2]: the two teams' scores in ``rounds`` seeded greedy rounds."""
    from solver.engine.playout import play_many

    if game.entities != 2:
        raise ValueError("the match-aware reward models two teams")
    greedy = np.ones(game.players, dtype=np.int64)
    scores = np.zeros((rounds, 2), dtype=np.int64)
    wins = np.zeros(rounds, dtype=np.int64)
    play_many(game.engine, greedy, seed, rounds, 0, 100_000, scores, wins)
    return scores


@njit(cache=True)
def _iterate(moves, weights, n, target_cell, sweeps, tolerance):
    """Value iteration: chance[i, j] = sum_k w_k * V(i + dx_k, j + dy_k)."""
    chance = np.full((n, n), 0.5)
    fresh = np.empty((n, n))
    for _ in range(sweeps):
        change = 0.0
        for i in range(n):
            for j in range(n):
                total = 0.0
                for k in range(moves.shape[0]):
                    a = i + moves[k, 0]
                    b = j + moves[k, 1]
                    if a >= target_cell or b >= target_cell:
                        value = 1.0 if a > b else (0.5 if a == b else 0.0)
                    else:
                        value = chance[max(a, 0), max(b, 0)]
                    total += weights[k] * value
                fresh[i, j] = total
                change = max(change, abs(total - chance[i, j]))
        chance, fresh = fresh, chance
        if change < tolerance:
            break
    return chance


@functools.lru_cache(maxsize=8)
def _table(players: int, rules, rounds: int, seed: int) -> WinTable:
    from solver.engine.api import Game

    game = Game(players, rules)
    target = int(rules.target(players))
    scores = round_outcomes(game, rounds, seed)
    both = np.concatenate([scores, scores[:, ::-1]])          # symmetric in the two teams
    cells = np.round(both / STEP).astype(np.int64)
    moves, counts = np.unique(cells, axis=0, return_counts=True)
    weights = counts / counts.sum()
    target_cell = (target - LOW + STEP - 1) // STEP            # the first cell at the target
    chance = _iterate(moves, weights, target_cell, target_cell, SWEEPS, TOLERANCE)
    return WinTable(chance, target, rounds)


def unfit(game) -> str | None:
    """Why ``game`` cannot take the match-aware reward (None: it can): it needs a match of
    two teams."""
    if game.match and game.entities == 2:
        return None
    return (f"the match-aware reward needs a match of two teams (--match), not "
            f"{'a match' if game.match else 'a single round'} of {game.players} players")


def check_flag(value, name: str = "match") -> bool:
    """A flag option (``match``, ``multi``) as a bool: True, False, 1 or 0 (OutOfRangeError
    otherwise)."""
    from solver.errors import OutOfRangeError

    if isinstance(value, (bool, np.bool_, int, np.integer)) and value in (0, 1):
        return bool(value)
    raise OutOfRangeError(f"{name} must be 0 or 1 (True or False), got {value!r}")


def win_table(game, rounds: int = ROUNDS, seed: int = 0) -> WinTable:
    """The match win chances of ``game`` (a two-team match), estimated once per process."""
    if game.entities != 2:
        raise ValueError(unfit(game))
    return _table(game.players, game.rules, rounds, seed)


@njit(cache=True, inline="always")
def chance_of(chance, target, mine, theirs):
    """The chance that a team with ``mine`` points wins against ``theirs`` (a WinTable's
    ``chance`` and ``target``; scores at or past the target end the match)."""
    if mine >= target or theirs >= target:
        return 1.0 if mine > theirs else (0.5 if mine == theirs else 0.0)
    n = chance.shape[0]
    i = min(max((mine - LOW) // STEP, 0), n - 1)
    j = min(max((theirs - LOW) // STEP, 0), n - 1)
    return chance[i, j]


@njit(cache=True, inline="always")
def match_rewards(S, chance, target, rewards):
    """Per team: ``2 W - 1`` from the match scores in ``S`` (after the round)."""
    for team in range(2):
        mine = S[L.MATCH + team]
        theirs = S[L.MATCH + 1 - team]
        rewards[team] = 2.0 * chance_of(chance, target, mine, theirs) - 1.0
