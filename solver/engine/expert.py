"""The expert player: the greedy player's search with a Biriba player's judgement.

``expert_action(S, T, buffer, params)`` plays the same lay-down search as the greedy
player (:func:`solver.engine.policies.lay_plan`'s rows, :func:`kernels.partition_numba.best`)
with other weights and other discards. ``params`` (float64[PARAMS], :data:`DEFAULT` unless a
tuning run passes others) holds its weights, named in :data:`NAMES`:

- **wild discipline**: a meld that spends a wild card below biriba size costs ``wild``
  points; an addition that puts a wild on a clean table meld of 5+ cards costs ``dirty``
  more (a clean biriba is worth twice a dirty one); a wild that completes a biriba costs
  ``wild_biriba``. A wild is discarded only when nothing else may go (``keep_wild``);
- **holding back**: a new meld below biriba size costs ``show`` points while the round is
  not at risk (the stock above ``risk_stock`` cards, every opponent above ``risk_hand``
  cards, the team past its vulnerability minimum);
- **going out**: when laying every card but the discard takes the packet or closes, it is
  played (the most cards, then the most points), whatever the weights above say;
- **discards**: besides the greedy player's "least useful card", a card next to others of
  the hand costs ``near`` per neighbour; one the next opponent's melds take costs ``feed``,
  and ``feed_biriba`` when it grows an opponent's meld to biriba size (any opponent team);
  one that meets two cards the next opponent is known to hold (picked up from the pile)
  costs ``known``; each feeding weight grows by ``pile_feed`` per card in the pile;
- **the pile**: taken when hand + pile has a lay-down worth more than the hand's plus
  ``pile_base`` points, less ``pile_card`` per card in the pile after the first, while the
  stock is above ``risk_stock`` cards (a ``pile_base`` below 0 takes every pile of two
  cards or more: more cards, more melds); later, plus ``pile_late`` (a big pile late in a
  round is a liability). A one-card pile is taken only for a gain: players who all took it
  would pass one card back and forth and never draw.

Everything else (the trump, the barimba redraw, an obligation the plan missed) is the greedy
player's. It uses no randomness, so the API and the playout kernel agree move for move.
"""

from __future__ import annotations

import numpy as np
from kernels.jit import njit
from kernels.link import linked
from numba import types

from kernels.params import NEG_INF
from kernels.partition_numba import best, meld_reading
from solver.engine import layout as L
from solver.engine.basics import holds_wild
from solver.engine.core import (
    Mover,
    close_ready,
    encode,
    hand_of,
    info_of,
    is_wild,
    packet_for,
    pile_counts,
    team_additions,
    team_stats,
    trump_bonus,
    vulnerable_minimum,
)
from solver.engine.policies import (Plan, _pile_action, _plan_rows, best_discard, first_row,
                                    greedy_action, lay_plan, may_lay, meld_uses, pile_allowed,
                                    plan_beats, plan_cards)
from solver.engine.rules import ENGINE_RULES_TYPE, STATE_TYPE
from solver.limits import PICKUP_BUDGET, PLAN_BUDGET

NAMES = ("wild", "dirty", "wild_biriba", "show", "risk_stock", "risk_hand", "keep_wild",
         "near", "feed", "feed_biriba", "known", "pile_feed", "pile_base", "pile_card",
         "pile_late")
(WILD, DIRTY, WILD_BIRIBA, SHOW, RISK_STOCK, RISK_HAND, KEEP_WILD, NEAR, FEED, FEED_BIRIBA,
 KNOWN, PILE_FEED, PILE_BASE, PILE_CARD, PILE_LATE) = range(len(NAMES))
PARAMS = len(NAMES)
# the tuned values, rounded (benchmarks/README.md, "The expert player": the command, the
# seeds, the start and the history are in benchmarks/expert_tuning.json)
DEFAULT = (61.0, 67.0, 3.5, 32.1, 16.9, 3.0, 1571.4, 22.9, 422.9, 2449.7, 240.3, 0.1, 17.5,
           1.9, -26.2)
# the ranges a tuning run keeps them in
LOWER = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -100.0, 0.0, -100.0)
UPPER = (200.0, 400.0, 200.0, 150.0, 60.0, 8.0, 5000.0, 200.0, 3000.0, 10000.0, 2000.0, 1.0,
         200.0, 20.0, 200.0)
WEIGHTS = np.array(DEFAULT, dtype=np.float64)   # the tuned weights, a constant in numba code
PARAMS_TYPE = types.Array(types.float64, 1, "C")
CARD_WEIGHT = 1 << 20        # a plan to go out: one card laid outweighs any sum of points


def default_params() -> np.ndarray:
    return np.array(DEFAULT, dtype=np.float64)


@njit(cache=True, inline="always")
def _fives(x):
    """``x`` points rounded to a multiple of 5 (the lay-down search's granularity)."""
    return np.int64(round(x / 5.0)) * 5


@njit(cache=True)
def at_risk(S, R, seat, team, params):
    """Whether the round may end soon for ``seat``: few stock cards, or an opponent with few
    cards in hand."""
    if S[L.STOCK_N] <= params[RISK_STOCK]:
        return True
    for other in range(R[L.R_PLAYERS]):
        if S[L.TEAM_OF + other] != team and hand_of(S, other).sum() <= params[RISK_HAND]:
            return True
    return False


@njit(cache=True)
def expert_plan(S, T, team, hand, must, params, risk):
    """The best lay-down of ``hand`` under the expert's weights (a :class:`Plan` whose
    ``value`` is the plain points of the rows chosen; ``NEG_INF``: none fits)."""
    R, sc, vals, runb, setb = T.array, T.scalars, T.values, T.run_bonus_by_trump, T.set_bonus
    (keys, counts, shapes, cleans, points, table, rows, gains, groups, all_counts, all_points,
     all_groups, most_left) = _plan_rows(S, T, team, hand, must)
    new = keys.shape[0]
    if new + rows.shape[0] == 0:
        value = 0 if must < 0 else NEG_INF
        return Plan(value, np.empty(0, dtype=np.int64), keys, counts, shapes, cleans, points,
                    rows, gains, groups, table)
    biriba = R[L.R_BIRIBA_SIZE]
    wild = _fives(params[WILD])
    dirty = _fives(params[DIRTY])
    wild_biriba = _fives(params[WILD_BIRIBA])
    show = 0 if risk else _fives(params[SHOW])
    run_bonus = trump_bonus(S, runb)
    weights = all_points.copy()
    for i in range(weights.shape[0]):
        if i < new:
            size = counts[i].sum()
            if size >= biriba:
                if cleans[i] == 0:
                    weights[i] -= wild_biriba
                continue
            weights[i] -= show
            if cleans[i] == 0:
                weights[i] -= wild
            continue
        row = rows[i - new]
        if not holds_wild(R, row):
            continue
        m = groups[i - new]
        info = info_of(S, team, m)
        if info[L.INFO_CLEAN] == 0:
            continue
        merged = table[m] + row
        _, _, clean, _ = meld_reading(merged, sc, vals, run_bonus, setb)
        if clean != 0:
            continue                        # a natural 2, or a wild that falls into place
        if merged.sum() >= biriba:
            weights[i] -= wild_biriba
        else:
            weights[i] -= wild
            if info[L.INFO_SIZE] >= 5:
                weights[i] -= dirty
    value, chosen, _ = best(hand.copy(), all_counts, weights, np.int64(1), all_groups,
                            most_left, np.int64(PLAN_BUDGET))
    if value != NEG_INF:
        value = 0
        for i in range(chosen.shape[0]):
            value += all_points[chosen[i]]
    return Plan(value, chosen, keys, counts, shapes, cleans, points, rows, gains, groups, table)


@njit(cache=True)
def _out_ready(S, R, team):
    """Whether laying out now takes the packet or closes the round."""
    if packet_for(S, R, team) >= 0 and not R[L.R_FIRST_BIRIBA]:
        return True
    biribas, clean, runs, sets = team_stats(S, R, team)
    return close_ready(S, R, team, biribas, clean, runs, sets)


@njit(cache=True)
def expert_discards(S, T, seat, team, hand, plan, params):
    """The expert discard score of every kind of ``hand`` (higher: discarded first)."""
    R, vals, runb = T.array, T.values, T.run_bonus_by_trump
    players = R[L.R_PLAYERS]
    biriba = R[L.R_BIRIBA_SIZE]
    uses = meld_uses(plan.counts, plan.rows)
    scale = 1.0 + params[PILE_FEED] * S[L.PILE_N]
    scores = np.empty(L.KINDS, dtype=np.float64)
    for kind in range(L.KINDS):
        score = vals[kind] - 1000.0 * uses[kind]
        if kind == L.JOKER or is_wild(R, kind):
            score -= params[KEEP_WILD]
        else:
            rank = kind % 13
            suit = kind // 13
            neighbours = 0
            for other_suit in range(4):
                other = other_suit * 13 + rank
                neighbours += hand[other] - (1 if other == kind else 0)
            for step in (-2, -1, 1, 2):
                r = rank + step
                if 0 <= r < 13:
                    neighbours += hand[suit * 13 + r]
            score -= params[NEAR] * neighbours
        scores[kind] = score
    run_bonus = trump_bonus(S, runb)
    next_seat = (seat + 1) % players
    next_team = S[L.TEAM_OF + next_seat]
    for other in range(R[L.R_TEAMS]):
        if other == team or S[L.MELD_N + other] == 0:      # a team with melds has seats
            continue
        table, found, _, groups = team_additions(S, T, other, hand, run_bonus)
        for i in range(found.shape[0]):
            if found[i].sum() != 1:
                continue
            grows = info_of(S, other, groups[i])[L.INFO_SIZE] + 1 >= biriba \
                and info_of(S, other, groups[i])[L.INFO_SIZE] < biriba
            for kind in range(L.KINDS):
                if found[i, kind] > 0:
                    if other == next_team:
                        scores[kind] -= params[FEED] * scale
                    if grows:
                        scores[kind] -= params[FEED_BIRIBA] * scale
    if next_team != team and params[KNOWN] > 0.0:
        known = S[L.KNOWN + next_seat * L.KINDS:L.KNOWN + (next_seat + 1) * L.KINDS]
        for kind in range(52):
            rank = kind % 13
            suit = kind // 13
            same = 0
            for other_suit in range(4):
                same += known[other_suit * 13 + rank]
            run = 0
            for step in (-2, -1, 1, 2):
                r = rank + step
                if 0 <= r < 13 and known[suit * 13 + r] > 0:
                    run += 1
            if same >= 2 or run >= 2:
                scores[kind] -= params[KNOWN] * scale
    return scores


@njit(cache=True)
def _take_pile(S, T, team, hand, params):
    """Whether the expert takes the pile (the draw phase; the pile may be taken)."""
    one, budget = np.int64(1), np.int64(PICKUP_BUDGET)
    without = lay_plan(S, T, team, hand, one, -one, budget, one, one - one).value
    R = T.array
    top = S[L.PILE + S[L.PILE_N] - 1] if R[L.R_MUST_MELD] else -1
    if S[L.STOCK_N] > params[RISK_STOCK]:
        margin = params[PILE_BASE] - params[PILE_CARD] * (S[L.PILE_N] - 1)
    else:
        margin = params[PILE_LATE]
    if S[L.PILE_N] == 1 and margin < 0:
        margin = 0.0        # a one-card pile only for a gain: players who all took it would
                            # pass one card back and forth and never draw from the stock
    threshold = max(without, 0) + _fives(margin) if without != NEG_INF else NEG_INF
    return plan_beats(S, T, team, hand + pile_counts(S), one, top, budget, threshold)


@linked(types.int64(STATE_TYPE, ENGINE_RULES_TYPE, STATE_TYPE, PARAMS_TYPE))
def expert_action(S, T, buffer, params):
    """The expert player's action in the current state (see the module docstring)."""
    R = T.array
    phase = S[L.PHASE]
    seat = S[L.CURRENT]
    team = S[L.TEAM_OF + seat]
    if phase == L.DRAW:
        hand = hand_of(S, seat).copy()
        if pile_allowed(S, T, hand):
            if S[L.STOCK_N] == 0 or _take_pile(S, T, team, hand, params):
                return _pile_action(S, T, buffer)
        return encode(L.ACTION_DRAW, 0, 0)
    if phase != L.PLAY:
        return greedy_action(S, T, buffer)
    hand = hand_of(S, seat).copy()
    held = hand.sum()
    must = S[L.MUST]
    who = Mover(seat, team, hand, held, team_stats(S, R, team))
    minimum = vulnerable_minimum(S, team)
    risk = minimum > 0 or at_risk(S, R, seat, team, params)
    plan = expert_plan(S, T, team, hand, must, params, risk)
    if plan.value == NEG_INF:
        return greedy_action(S, T, buffer)
    if plan_cards(plan).sum() < held - 1 and _out_ready(S, R, team):
        one = np.int64(1)
        out = lay_plan(S, T, team, hand, one, must, np.int64(PLAN_BUDGET), one,
                       np.int64(CARD_WEIGHT))
        if out.value != NEG_INF and plan_cards(out).sum() >= held - 1:
            action = first_row(S, T, who, out)
            if action != 0:
                return action
    if may_lay(S, plan, minimum) or must >= 0:
        action = first_row(S, T, who, plan)
        if action != 0:
            return action
    if must < 0 and not (0 < S[L.TURN_POINTS] < minimum):
        kind = best_discard(S, T, who, expert_discards(S, T, seat, team, hand, plan, params))
        if kind >= 0:
            return encode(L.ACTION_DISCARD, 0, kind)
    return greedy_action(S, T, buffer)
