"""A learned value for a rollout cut short: what the rest of the round is worth.

A search with ``cutoff=N`` stops each rollout after N engine actions. Without a value
the round is then scored as it stands (the melds, less the cards in hand and the packets
not taken). With ``value=1`` each team's score as it stands gets a correction, a linear
function of the team's position (:func:`team_features`), learned by Monte Carlo
regression on greedy self-play: for states met along greedy rounds, the final round
difference less the difference as the round stands (``python -m benchmarks.train_value``;
the weights are :mod:`solver.search.value_weights`). The correction is what greedy play
to the end of the round would add on average, so a cut rollout estimates what a full one
does, at the cost of N actions.

The weights are fitted for two teams: 2 players and 4 (two partnerships). A team's
features (``FEATURES`` numbers):

0. the points of its table melds; 1. the points of the cards in its hands; 2. the cards
in its hands; 3. its packet taken (0 or 1); 4. its melds one card short of a biriba;
5. its clean biribas; 6. its dirty biribas; 7. the wild cards in its hands; 8. it is to
move; 9. it has opened; 10-13. features 1, 2, 4 and 3 times the cards left in the stock
(hundreds).
"""

from __future__ import annotations

import numpy as np

from kernels.jit import njit
from solver.engine import layout as L
from solver.engine.basics import info_of, is_wild, team_stats
from solver.engine.core import apply_action, end_round
from solver.engine.policies import greedy_action
from solver.errors import OutOfRangeError
from solver.search.value_weights import WEIGHTS_2, WEIGHTS_4

FEATURES = 14
VALUE_PLAYERS = (2, 4)          # the player counts the weights are fitted for
VALUE_WEIGHTS = np.array([WEIGHTS_2, WEIGHTS_4], dtype=np.float64)


@njit(cache=True)
def team_features(S, R, vals, team, out):
    """``team``'s features (the module doc) into ``out`` (float64[FEATURES])."""
    biriba = R[L.R_BIRIBA_SIZE]
    for f in range(FEATURES):
        out[f] = 0.0
    for m in range(S[L.MELD_N + team]):
        info = info_of(S, team, m)
        out[0] += info[L.INFO_POINTS]
        if info[L.INFO_SIZE] == biriba - 1:
            out[4] += 1.0
    biribas, clean, _, _ = team_stats(S, R, team)
    out[5] = clean
    out[6] = biribas - clean
    for seat in range(R[L.R_PLAYERS]):
        if S[L.TEAM_OF + seat] != team:
            continue
        for kind in range(L.KINDS):
            count = S[L.HANDS + seat * L.KINDS + kind]
            if count:
                out[1] += count * vals[kind]
                out[2] += count
                if is_wild(R, kind):
                    out[7] += count
    out[3] = S[L.PACKET_TAKEN + team]
    out[8] = 1.0 if S[L.TEAM_OF + S[L.CURRENT]] == team else 0.0
    out[9] = 1.0 if S[L.OPENED + team] else 0.0
    stock = S[L.STOCK_N] / 100.0
    out[10] = stock * out[1]
    out[11] = stock * out[2]
    out[12] = stock * out[4]
    out[13] = stock * out[3]


@njit(cache=True)
def weights_row(R):
    """The row of VALUE_WEIGHTS for this game, or -1 (no weights for its player count)."""
    players = R[L.R_PLAYERS]
    if R[L.R_TEAMS] != 2:
        return -1
    if players == 2:
        return 0
    if players == 4:
        return 1
    return -1


@njit(cache=True)
def end_valued(S, R, vals, weights):
    """End the round as it stands (the cut rollout's end) and add each team's learned
    correction, ``weights`` · its features, to its round and match score."""
    teams = R[L.R_TEAMS]
    correction = np.zeros(teams, dtype=np.float64)
    out = np.empty(FEATURES, dtype=np.float64)
    for team in range(teams):
        team_features(S, R, vals, team, out)
        for f in range(FEATURES):
            correction[team] += weights[f] * out[f]
    end_round(S, R, vals, L.IDLE_OUT)
    for team in range(teams):
        add = np.int64(np.round(correction[team]))
        S[L.ROUND_SCORE + team] += add
        S[L.MATCH + team] += add


@njit(cache=True)
def trajectory(S, T, buffer, features, targets):
    """Play greedy from ``S`` to the end of its round and fill a row per state met:
    ``features[i]`` team 0's less team 1's, ``targets[i]`` the final round difference
    (team 0 less team 1) less the difference as the state stood. Returns the rows."""
    R, vals = T.array, T.values
    S[L.MATCH_MODE] = 0
    scratch = S.copy()
    zero = np.empty(FEATURES, dtype=np.float64)
    one = np.empty(FEATURES, dtype=np.float64)
    rows = 0
    while S[L.PHASE] != L.ROUND_OVER and S[L.PHASE] != L.MATCH_OVER and rows < len(targets):
        if S[L.PHASE] != L.CHOOSE_TRUMP:
            team_features(S, R, vals, 0, zero)
            team_features(S, R, vals, 1, one)
            for f in range(FEATURES):
                features[rows, f] = zero[f] - one[f]
            scratch[:] = S
            end_round(scratch, R, vals, L.IDLE_OUT)
            targets[rows] = -(scratch[L.ROUND_SCORE] - scratch[L.ROUND_SCORE + 1])
            rows += 1
        apply_action(S, T, greedy_action(S, T, buffer))
    while S[L.PHASE] != L.ROUND_OVER and S[L.PHASE] != L.MATCH_OVER:
        apply_action(S, T, greedy_action(S, T, buffer))
    final = S[L.ROUND_SCORE] - S[L.ROUND_SCORE + 1]
    for i in range(rows):
        targets[i] += final
    return rows


def check_value(value, cutoff: int) -> None:
    """``value`` (0 or 1), and a cutoff where it is 1; else an OutOfRangeError quoting it."""
    if isinstance(value, bool) or value not in (0, 1):
        raise OutOfRangeError(f"value must be 0 or 1 (1: the learned value at the cutoff), "
                              f"got {value!r}")
    if value and not cutoff:
        raise OutOfRangeError("value=1 values a rollout cut short: give a cutoff too "
                              "(cutoff=20)")


def value_unfit(game) -> str | None:
    """Why the learned value has no weights for ``game`` (None: it has; the rule is
    :func:`weights_row`'s)."""
    if weights_row(game.engine.array) >= 0:
        return None
    return (f"value=1 has weights for two teams of 2 or 4 players, not {game.players} "
            "players in this game")
