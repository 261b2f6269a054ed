"""Computer games in bulk: seeded games in the playout kernel, summed up per team."""

from __future__ import annotations

import math
import time

import numpy as np

from solver.engine.api import Game, check_seed
from analysis.specs import parse_spec
from solver.engine.players import POLICY_CODES
from solver.errors import OutOfRangeError
from solver.limits import MAX_ACTIONS, MAX_GAMES



def check_counts(games: int, seed: int, max_actions: int) -> None:
    """Refuse a game count, first seed or action limit out of range (OutOfRangeError)."""
    if not 1 <= games <= MAX_GAMES:
        raise OutOfRangeError(f"--games must be 1..{MAX_GAMES}, got {games}")
    if not 1 <= max_actions <= MAX_ACTIONS:
        raise OutOfRangeError(f"--max-actions must be 1..{MAX_ACTIONS}, got {max_actions}")
    check_seed(seed, games)


def simulate(game: Game, policies, games: int, seed: int = 0, max_actions: int = 100_000,
             progress=None) -> dict:
    """Play ``games`` seeded games in the playout kernel; the summary per team (entity).

    Games stopped at ``max_actions`` before their end are counted as ``cut_off``
    and left out of the wins, ties and scores. Ctrl-C stops between chunks of
    games: the summary covers the games played, with ``interrupted`` set.
    """
    from solver.engine.playout import CUT_OFF, play_many

    check_counts(games, seed, max_actions)
    specs = [parse_spec(name) for name in policies[:game.players]]
    in_kernel = all(spec.in_kernel for spec in specs)
    if in_kernel:
        codes = np.array([POLICY_CODES[spec.name] for spec in specs], dtype=np.int64)
    entities = game.entities
    scores = np.zeros((games, entities), dtype=np.int64)
    wins = np.zeros(games, dtype=np.int64)
    chunk = max(1, min(games // 50, 200))
    actions = 0
    played = 0
    interrupted = False
    started = time.perf_counter()
    try:
        for first in range(0, games, chunk):
            count = min(chunk, games - first) if in_kernel else 1
            if in_kernel:
                actions += play_many(game.engine, codes, seed + first, count,
                                     int(game.match), max_actions, scores[first:first + count],
                                     wins[first:first + count])
            else:                  # a searching player: the API, one game at a time
                actions += _play_one(game, specs, seed + first, first, max_actions,
                                     scores[first], wins[first:first + 1])
            played = first + count
            if progress:
                progress(played, games)
    except KeyboardInterrupt:
        interrupted = True
    seconds = time.perf_counter() - started
    finished = wins[:played] != CUT_OFF
    done = int(finished.sum())
    kept_scores = scores[:played][finished]
    kept_wins = wins[:played][finished]
    won = [int((kept_wins == entity).sum()) for entity in range(entities)]
    means = kept_scores.mean(axis=0) if done else np.zeros(entities)
    spread = kept_scores.std(axis=0, ddof=1) if done > 1 else np.zeros(entities)
    return {
        "games": played,
        "finished": done,
        "cut_off": played - done,
        "interrupted": interrupted,
        "players": game.players,
        "rules": game.rules.name,
        "match": game.match,
        "policies": list(policies[:game.players]),
        "wins": won,
        "ties": int((kept_wins == -1).sum()),
        "win_rates": [w / done if done else 0.0 for w in won],
        "mean_scores": [float(m) for m in means],
        "ci95": [float(1.96 * s / math.sqrt(done)) if done else 0.0 for s in spread],
        "actions": int(actions),
        "seconds": seconds,
    }


def _play_one(game: Game, specs, seed: int, dealer: int, max_actions: int, scores,
              wins) -> int:
    """One game as play_many plays it (the same deal and dealer), through the API."""
    from solver.engine.players import play
    from solver.engine.playout import CUT_OFF

    state = game.new_initial_state(seed, dealer % game.players)
    players = [spec.make(seed * 8 + seat) for seat, spec in enumerate(specs)]
    play(state, players, max_actions)
    scores[:] = state.match_scores()[:scores.shape[0]]
    top = int(np.argmax(scores))
    wins[0] = -1 if (scores == scores[top]).sum() > 1 else top
    if not state.is_terminal():
        wins[0] = CUT_OFF
    return len(state.history)


# --- replay ---------------------------------------------------------------------------------


