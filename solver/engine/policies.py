"""Computer policies as numba functions over the state array: random and greedy.

``greedy_action`` is the greedy player of the engine issue:

- it takes the discard pile when the best lay-down of hand + pile is worth
  more than the best lay-down of the hand alone;
- it lays down the optimizer's best lay-down (the kernel path of
  :mod:`solver.optimizer`: the hand's catalogue, the additions to the team's
  table melds as groups, :func:`kernels.partition_numba.best` keeping one card
  for the discard), one meld or extension per action, and nothing when a
  vulnerable team's best is below the minimum;
- it discards the card least useful to its team and to the next opponent:
  the fewest melds and additions it belongs to, then not one the next
  opponent's melds take, then the highest value (a card left in hand costs its
  value).

It uses no randomness, so the API and the playout kernel agree move for move.
"""

from __future__ import annotations

import kernels  # noqa: F401  (sets the numba cache location first)
import numpy as np
from numba import njit

from kernels.partition_numba import additions, best, catalogue, meld_key
from solver.engine import layout as L
from solver.engine.core import (
    encode,
    hand_of,
    legal_actions,
    pile_counts,
    rng_below,
    take_pile_ok,
    team_melds,
    trump_bonus,
    vulnerable_minimum,
)

RANDOM = 0
GREEDY = 1
NEG_INF = -(1 << 60)


@njit(cache=True)
def _candidates(S, sc, vals, runb, setb, team, hand):
    """New melds and table additions of ``hand``: (counts, points, groups, actions)."""
    run_bonus = trump_bonus(S, runb)
    keys, counts, _, _, _, points = catalogue(hand, sc, vals, run_bonus, setb)
    new = keys.shape[0]
    if S[L.MELD_N + team] == 0:
        actions = np.empty(new, dtype=np.int64)
        for i in range(new):
            actions[i] = encode(L.ACTION_LAY, 0, keys[i])
        return counts, points, np.full(new, -1, dtype=np.int64), actions
    table, shapes, homes, before = team_melds(S, team)
    rows, gains, groups = additions(hand, table, shapes, homes, before, sc, vals, run_bonus, setb)
    total = new + rows.shape[0]
    all_counts = np.empty((total, L.KINDS), dtype=np.int64)
    all_points = np.empty(total, dtype=np.int64)
    all_groups = np.full(total, -1, dtype=np.int64)
    actions = np.empty(total, dtype=np.int64)
    for i in range(new):
        all_counts[i] = counts[i]
        all_points[i] = points[i]
        actions[i] = encode(L.ACTION_LAY, 0, keys[i])
    for i in range(rows.shape[0]):
        all_counts[new + i] = rows[i]
        all_points[new + i] = gains[i]
        all_groups[new + i] = groups[i]
        actions[new + i] = encode(L.ACTION_EXTEND, groups[i], meld_key(table[groups[i]] + rows[i]))
    return all_counts, all_points, all_groups, actions


@njit(cache=True)
def plan_value(S, sc, vals, runb, setb, team, hand, keep, must):
    """(points, chosen candidate indices, candidate actions) of the best lay-down."""
    counts, points, groups, actions = _candidates(S, sc, vals, runb, setb, team, hand)
    max_left = hand.copy()
    if must >= 0 and max_left[must] > 0:
        max_left[must] -= 1
    if counts.shape[0] == 0:
        return (0 if must < 0 else NEG_INF), np.empty(0, dtype=np.int64), actions
    value, chosen = best(hand.copy(), counts, points, keep, groups, max_left)
    return value, chosen, actions


@njit(cache=True)
def _contains(buffer, n, action):
    for i in range(n):
        if buffer[i] == action:
            return True
    return False


@njit(cache=True)
def _discard_choice(S, R, sc, vals, runb, setb, seat, team, hand, buffer, n):
    run_bonus = trump_bonus(S, runb)
    counts, _, _, _ = _candidates(S, sc, vals, runb, setb, team, hand)
    uses = np.zeros(L.KINDS, dtype=np.int64)
    for i in range(counts.shape[0]):
        for kind in range(L.KINDS):
            if counts[i, kind] > 0:
                uses[kind] += 1
    feeds = np.zeros(L.KINDS, dtype=np.int64)
    opponent = S[L.TEAM_OF + (seat + 1) % R[L.R_PLAYERS]]
    if opponent != team and S[L.MELD_N + opponent] > 0:
        table, shapes, homes, before = team_melds(S, opponent)
        rows, _, _ = additions(hand, table, shapes, homes, before, sc, vals, run_bonus, setb)
        for i in range(rows.shape[0]):
            if rows[i].sum() == 1:
                for kind in range(L.KINDS):
                    if rows[i, kind] > 0:
                        feeds[kind] = 1
    chosen = -1
    best_score = NEG_INF
    for i in range(n):
        action = buffer[i]
        if action >> L.TYPE_SHIFT != L.ACTION_DISCARD:
            continue
        kind = action & L.KEY_MASK
        score = -1000 * uses[kind] - 500 * feeds[kind] + vals[kind]
        if score > best_score:
            best_score = score
            chosen = action
    return chosen


@njit(cache=True)
def greedy_action(S, R, sc, vals, runb, setb, buffer):
    """The greedy player's action in the current state (see the module docstring)."""
    n = legal_actions(S, R, sc, vals, runb, setb, buffer)
    phase = S[L.PHASE]
    seat = S[L.CURRENT]
    team = S[L.TEAM_OF + seat]
    hand = hand_of(S, seat).copy()
    if phase == L.CHOOSE_TRUMP:
        most = 0
        suit_count = 0
        for suit in range(4):
            held = hand[suit * 13:(suit + 1) * 13].sum()
            if held > suit_count:
                most = suit
                suit_count = held
        return encode(L.ACTION_TRUMP, 0, most)
    if phase == L.DRAW:
        can_draw = S[L.STOCK_N] > 0
        if take_pile_ok(S, R, sc, vals, runb, setb):
            if not can_draw:
                return encode(L.ACTION_PILE, 0, 0)
            without, _, _ = plan_value(S, sc, vals, runb, setb, team, hand, 1, -1)
            top = S[L.PILE + S[L.PILE_N] - 1] if R[L.R_MUST_MELD] else -1
            more = hand + pile_counts(S)
            with_pile, _, _ = plan_value(S, sc, vals, runb, setb, team, more, 1, top)
            if with_pile > without:
                return encode(L.ACTION_PILE, 0, 0)
        return buffer[0]
    must = S[L.MUST]
    value, chosen, actions = plan_value(S, sc, vals, runb, setb, team, hand, 1, must)
    minimum = vulnerable_minimum(S, team)
    lay = value > 0 and (minimum == 0 or S[L.TURN_POINTS] + value >= minimum
                         or S[L.TURN_POINTS] > 0)
    if lay or must >= 0:
        for i in range(chosen.shape[0]):
            if _contains(buffer, n, actions[chosen[i]]):
                return actions[chosen[i]]
    if must >= 0 or (0 < S[L.TURN_POINTS] < minimum):
        for i in range(n):                 # an obligation the plan missed: the first meld
            kind_of_action = buffer[i] >> L.TYPE_SHIFT
            if kind_of_action == L.ACTION_LAY or kind_of_action == L.ACTION_EXTEND:
                return buffer[i]
    choice = _discard_choice(S, R, sc, vals, runb, setb, seat, team, hand, buffer, n)
    if choice >= 0:
        return choice
    return buffer[0]


@njit(cache=True)
def random_action(S, R, sc, vals, runb, setb, buffer, rng):
    """A uniformly random legal action, drawn with ``rng`` (int64[1])."""
    n = legal_actions(S, R, sc, vals, runb, setb, buffer)
    return buffer[rng_below(rng, n)]


@njit(cache=True)
def policy_action(S, R, sc, vals, runb, setb, buffer, rng, policy):
    if policy == GREEDY:
        return greedy_action(S, R, sc, vals, runb, setb, buffer)
    return random_action(S, R, sc, vals, runb, setb, buffer, rng)
