"""Players: anything with ``choose(state) -> action``; random, greedy and expert computer players.

The computer players call the numba policies of :mod:`solver.engine.policies` and
:mod:`solver.engine.expert`,
the same functions the playout kernel runs, so a game played through the API
and the same game played by the kernel end in the same state.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from solver.engine import core
from solver.engine import expert, policies
from solver.engine.api import MAX_SEED
from solver.errors import BiribaError


class Player(Protocol):
    def choose(self, state) -> int:
        """The action to play in ``state`` (one of ``state.legal_actions()``)."""


class RandomPlayer:
    """Uniform over the legal actions. ``generator`` (int64[1]) may be shared between
    players, as the playout kernel shares one."""

    name = "random"

    def __init__(self, seed: int = 0, generator: np.ndarray | None = None):
        self.generator = (generator if generator is not None
                          else np.array([core.seed_rng(int(seed) & MAX_SEED)], dtype=np.int64))

    def choose(self, state) -> int:
        legal = state.legal_actions_array()
        return int(legal[core.rng_below(self.generator, len(legal))])


class GreedyPlayer:
    """Takes the pile when it gains points, lays the optimizer's best lay-down, discards
    the card least useful to its team and to the next opponent (:mod:`solver.engine.policies`)."""

    name = "greedy"

    def __init__(self, seed: int = 0):
        """``seed`` is accepted so every player is made alike (``make_player(name, seed)``);
        the greedy player is deterministic and does not use it."""

    def choose(self, state) -> int:
        return int(policies.greedy_action(state.array, state.game.engine,
                                          state.game.action_buffer))


class ExpertPlayer:
    """The greedy player's search with wild discipline, safe discards, a pile rule and going
    out for the packet (:mod:`solver.engine.expert`); ``params``: its weights (default: the
    tuned ones)."""

    name = "expert"

    def __init__(self, seed: int = 0, params=None):
        """``seed`` is accepted so every player is made alike; the expert is deterministic."""
        self.params = expert.default_params() if params is None else np.ascontiguousarray(
            params, dtype=np.float64)
        if self.params.shape != (expert.PARAMS,):
            raise BiribaError(f"expert params must be {expert.PARAMS} numbers, got "
                              f"{self.params.shape}")

    def choose(self, state) -> int:
        return int(expert.expert_action(state.array, state.game.engine,
                                        state.game.action_buffer, self.params))


PLAYERS = {"random": RandomPlayer, "greedy": GreedyPlayer, "expert": ExpertPlayer}
POLICY_CODES = {"random": policies.RANDOM, "greedy": policies.GREEDY,
                "expert": policies.EXPERT}


def make_player(name: str, seed: int = 0):
    if name not in PLAYERS:
        raise BiribaError(f"unknown player {name!r} (known: {', '.join(PLAYERS)})")
    return PLAYERS[name](seed)


def play(state, players, max_actions: int = 100_000):
    """Play ``state`` to its end through the API (checked actions); returns it."""
    count = 0
    while not state.is_terminal() and count < max_actions:
        state.apply_action(players[state.current_player()].choose(state))
        count += 1
    return state
