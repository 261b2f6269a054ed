"""Computer policies as numba functions over the state array: random and greedy.

``greedy_action`` is the greedy player:

- it takes the discard pile when hand + pile has a lay-down worth more than
  the best lay-down of the hand alone (:func:`plan_beats`: the linear
  programme's floor or bound usually settles it without a search; never a
  one-card pile with one card in hand while it can draw: that only swaps the
  card);
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

from typing import NamedTuple

import numpy as np
from kernels.jit import njit
from kernels.link import linked
from numba import types

from kernels.candidates import candidate_rows, max_left
from kernels.params import NEG_INF
from kernels.partition_numba import beats, best, catalogue
from solver.engine import layout as L
from solver.engine.rules import ENGINE_RULES_TYPE, STATE_TYPE
from solver.engine.core import (
    Mover,
    addition_ok,
    discard_ok,
    encode,
    hand_of,
    key_counts,
    legal_actions,
    new_meld_ok,
    pile_actions,
    pile_counts,
    rng_below,
    take_pile_ok,
    team_additions,
    team_stats,
    trump_bonus,
    vulnerable_minimum,
)
from solver.limits import PICKUP_BUDGET, PLAN_BUDGET

RANDOM = 0
GREEDY = 1
EXPERT = 2          # solver.engine.expert


class Plan(NamedTuple):
    """A lay-down plan (``lay_plan``): its points, the rows chosen, and the rows it chose from.

    Rows ``< len(keys)`` are the hand's catalogue melds (``keys``, ``counts``, ``shapes``,
    ``cleans``, ``points``); the others are additions to the team's ``table`` melds
    (``rows``, ``gains``, ``groups``: the table meld each extends).
    """

    value: int
    chosen: np.ndarray
    keys: np.ndarray
    counts: np.ndarray
    shapes: np.ndarray
    cleans: np.ndarray
    points: np.ndarray
    rows: np.ndarray
    gains: np.ndarray
    groups: np.ndarray
    table: np.ndarray


# weights of a plan that may not use new melds (``melds`` 0): far below any lay-down
NO_MELD = -(1 << 40)


@njit(cache=True)
def _plan_rows(S, T, team, hand, must):
    """What a plan chooses from: the hand's catalogue (keys, counts, shapes, cleans,
    points), the team's table melds and their additions (table, rows, gains, groups), the
    rows together (counts, points, groups), and the copies that may stay (``must``: a kind
    that must be laid, -1 none)."""
    sc, vals, runb, setb = T.scalars, T.values, T.run_bonus_by_trump, T.set_bonus
    run_bonus = trump_bonus(S, runb)
    keys, counts, shapes, _, cleans, points = catalogue(hand, sc, vals, run_bonus, setb)
    table, rows, gains, groups = team_additions(S, T, team, hand, run_bonus)
    all_counts, all_points, all_groups = candidate_rows(counts, points, rows, gains, groups)
    must_counts = np.zeros(L.KINDS, dtype=np.int64)
    if must >= 0 and hand[must] > 0:
        must_counts[must] = 1
    return (keys, counts, shapes, cleans, points, table, rows, gains, groups, all_counts,
            all_points, all_groups, max_left(hand, must_counts))


@njit(cache=True, inline="always")
def plan_beats(S, T, team, hand, keep, must, budget, threshold):
    """Whether a lay-down plan of ``hand`` (lay_plan's, for the most points) is worth more
    than ``threshold`` (kernels.partition_numba.beats: the programme's floor or bound
    usually answers without a search)."""
    (keys, _, _, _, _, _, rows, _, _, all_counts, all_points, all_groups,
     most_left) = _plan_rows(S, T, team, hand, must)
    if keys.shape[0] + rows.shape[0] == 0:
        return (0 if must < 0 else NEG_INF) > threshold
    return beats(hand.copy(), all_counts, all_points, keep, all_groups, most_left, threshold,
                 budget)


@njit(cache=True)
def lay_plan(S, T, team, hand, keep, must, budget, melds, card_weight):
    """The best lay-down of ``hand`` with the team's table melds (the optimizer's kernel path).

    ``keep``: the cards that stay in hand (1: the discard); ``must``: a kind that must be
    laid (-1: none). ``melds`` 0: additions to the table melds only. ``card_weight``
    > 0: the most cards laid first, then the most points (a plan to go out). Returns a
    :class:`Plan` whose ``value`` is the points of the rows chosen (``NEG_INF``: none
    fits).
    """
    (keys, counts, shapes, cleans, points, table, rows, gains, groups, all_counts, all_points,
     all_groups, most_left) = _plan_rows(S, T, team, hand, must)
    if keys.shape[0] + rows.shape[0] == 0:
        value = 0 if must < 0 else NEG_INF
        return Plan(value, np.empty(0, dtype=np.int64), keys, counts, shapes, cleans, points,
                    rows, gains, groups, table)
    weights = all_points
    if card_weight > 0 or melds == 0:
        weights = all_points.copy()
        for i in range(weights.shape[0]):
            if i < keys.shape[0] and melds == 0:
                weights[i] = NO_MELD
            else:
                weights[i] += card_weight * all_counts[i].sum()
    value, chosen, _ = best(hand.copy(), all_counts, weights, keep, all_groups, most_left,
                            budget)
    if value != NEG_INF and (card_weight > 0 or melds == 0):
        value = 0
        for i in range(chosen.shape[0]):
            if weights[chosen[i]] == NO_MELD:
                value = NEG_INF              # only a new meld takes the card that must go
                break
            value += all_points[chosen[i]]
    return Plan(value, chosen, keys, counts, shapes, cleans, points, rows, gains, groups, table)


@njit(cache=True)
def meld_uses(counts, rows):
    """Per kind: how many of the melds ``counts`` and additions ``rows`` hold it."""
    uses = np.zeros(L.KINDS, dtype=np.int64)
    for i in range(counts.shape[0] + rows.shape[0]):
        row = counts[i] if i < counts.shape[0] else rows[i - counts.shape[0]]
        for kind in range(L.KINDS):
            if row[kind] > 0:
                uses[kind] += 1
    return uses


@njit(cache=True)
def plan_cards(plan):
    """The cards ``plan``'s chosen rows lay (int64[53])."""
    used = np.zeros(L.KINDS, dtype=np.int64)
    new = plan.keys.shape[0]
    for i in range(plan.chosen.shape[0]):
        row = plan.chosen[i]
        if row < new:
            used += plan.counts[row]
        else:
            used += plan.rows[row - new]
    return used


@njit(cache=True)
def discard_scores(S, T, seat, team, hand, counts, rows):
    """The greedy discard score of every kind of ``hand`` (higher: discarded first):
    -1000 per meld or addition of ``counts`` and ``rows`` the kind belongs to, -500 when the
    next opponent's melds take it alone, plus its value (a card kept costs its value)."""
    R, vals, runb = T.array, T.values, T.run_bonus_by_trump
    uses = meld_uses(counts, rows)
    feeds = np.zeros(L.KINDS, dtype=np.int64)
    opponent = S[L.TEAM_OF + (seat + 1) % R[L.R_PLAYERS]]
    if opponent != team and S[L.MELD_N + opponent] > 0:
        _, found, _, _ = team_additions(S, T, opponent, hand, trump_bonus(S, runb))
        for i in range(found.shape[0]):
            if found[i].sum() == 1:
                for kind in range(L.KINDS):
                    if found[i, kind] > 0:
                        feeds[kind] = 1
    scores = np.empty(L.KINDS, dtype=np.int64)
    for kind in range(L.KINDS):
        scores[kind] = -1000 * uses[kind] - 500 * feeds[kind] + vals[kind]
    return scores


@njit(cache=True, inline="always")
def _discard_choice(S, T, who, counts, rows):
    """The legal discard of ``who`` with the highest :func:`discard_scores`, or -1
    (``counts``, ``rows``: the plan's melds and additions)."""
    seat, team, hand, _, _ = who
    return best_discard(S, T, who, discard_scores(S, T, seat, team, hand, counts, rows))


@njit(cache=True)
def best_discard(S, T, who, scores):
    """The legal discard of ``who`` with the highest of ``scores`` (per kind), or -1."""
    hand = who.hand
    chosen = -1
    for kind in range(L.KINDS):
        if hand[kind] == 0 or not discard_ok(S, T[0], who, kind):
            continue
        if chosen < 0 or scores[kind] > scores[chosen]:
            chosen = kind
    return chosen


@njit(cache=True)
def row_action(S, T, who, plan, index):
    """The action of ``plan``'s row ``index`` when ``who`` may play it now, else 0."""
    R, vals, runb = T.array, T.values, T.run_bonus_by_trump
    new = plan.keys.shape[0]
    if index < new:
        if new_meld_ok(S, R, vals, who, plan.counts, plan.shapes, plan.cleans, plan.points,
                       index):
            return encode(L.ACTION_LAY, 0, plan.keys[index])
        return 0
    i = index - new
    ok, action = addition_ok(S, T, trump_bonus(S, runb), who, plan.table, plan.rows[i],
                             plan.gains[i], plan.groups[i], plan.counts, plan.points)
    return action if ok else 0


@njit(cache=True)
def first_row(S, T, who, plan):
    """The action of the first of ``plan``'s chosen rows that ``who`` may play now, else 0."""
    for i in range(plan.chosen.shape[0]):
        action = row_action(S, T, who, plan, plan.chosen[i])
        if action != 0:
            return action
    return 0


@njit(cache=True, inline="always")
def may_lay(S, plan, minimum):
    """Whether ``plan`` is worth laying: it lays points, and a vulnerable team's first
    lay-down of the turn reaches the ``minimum`` (or the turn has laid already)."""
    return plan.value > 0 and (minimum == 0 or S[L.TURN_POINTS] + plan.value >= minimum
                               or S[L.TURN_POINTS] > 0)


@njit(cache=True, inline="always")
def _pile_action(S, T, buffer):
    """The action that takes the pile: the plain one, or (threes' frozen pile) the pickup
    whose meld of the top card holds the most cards."""
    n = pile_actions(S, T, buffer, 0)
    chosen = buffer[0]
    most = 0
    counts = np.empty(L.KINDS, dtype=np.int64)
    for i in range(n):
        key_counts(buffer[i] & L.KEY_MASK, counts)
        if counts.sum() > most:
            most = counts.sum()
            chosen = buffer[i]
    return chosen


@njit(cache=True, inline="always")
def pile_allowed(S, T, hand):
    """Whether a policy takes the pile into account: the rules allow it, and it is not a
    one-card pile taken with one card in ``hand`` while the stock can be drawn. That only
    swaps the card: the turn may not close (rules §7), and players who all did so would
    swap cards for ever."""
    swap = S[L.PILE_N] == 1 and T.array[L.R_ONE_CARD] and hand.sum() == 1
    return take_pile_ok(S, T) and not (swap and S[L.STOCK_N] > 0)


@linked(types.int64(STATE_TYPE, ENGINE_RULES_TYPE, STATE_TYPE))
def greedy_action(S, T, buffer):
    """The greedy player's action in the current state (see the module docstring)."""
    R = T.array
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
        if pile_allowed(S, T, hand):
            pile = _pile_action(S, T, buffer)
            if S[L.STOCK_N] == 0:
                return pile
            # int64 values, not literals: numba compiles lay_plan and best once (not per constant)
            one, budget = np.int64(1), np.int64(PICKUP_BUDGET)
            without = lay_plan(S, T, team, hand, one, -one, budget, one, one - one).value
            top = S[L.PILE + S[L.PILE_N] - 1] if R[L.R_MUST_MELD] else -1
            # the pile is taken when hand + pile has a plan worth more than the hand's
            if plan_beats(S, T, team, hand + pile_counts(S), one, top, budget, without):
                return pile
        return encode(L.ACTION_DRAW, 0, 0)
    must = S[L.MUST]
    who = Mover(seat, team, hand, hand.sum(), team_stats(S, R, team))
    one = np.int64(1)
    plan = lay_plan(S, T, team, hand, one, must, np.int64(PLAN_BUDGET), one, one - one)
    minimum = vulnerable_minimum(S, team)
    if may_lay(S, plan, minimum) or must >= 0:
        action = first_row(S, T, who, plan)
        if action != 0:
            return action
    if must < 0 and not (0 < S[L.TURN_POINTS] < minimum):
        kind = _discard_choice(S, T, who, plan.counts, plan.rows)
        if kind >= 0:
            return encode(L.ACTION_DISCARD, 0, kind)
    # an obligation the plan missed, or nothing else: the first legal action
    n = legal_actions(S, T, buffer)
    for i in range(n):
        kind_of_action = buffer[i] >> L.TYPE_SHIFT
        if kind_of_action == L.ACTION_LAY or kind_of_action == L.ACTION_EXTEND:
            return buffer[i]
    return buffer[0]


@njit(cache=True)
def random_action(S, T, buffer, rng):
    """A uniformly random legal action, drawn with ``rng`` (int64[1])."""
    n = legal_actions(S, T, buffer)
    return buffer[rng_below(rng, n)]
