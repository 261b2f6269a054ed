"""Lay-down plans: the answers to "what do I lay down now" that the search weighs.

Each plan is a decision code above every engine action. The plans, and the bit of each in
the ``plans`` mask (``ismcts:plans=N``, ``search(plans=N)``):

====  ==============  ==================================================================
bit   code            the plan
====  ==============  ==================================================================
1     ``LAY_BEST``    the greedy player's lay-down: the optimizer's best, keeping the
                      discard (replanned after each meld, as the greedy player plays it)
2     ``LAY_NONE``    nothing: hold every card
4     ``LAY_EXTEND``  only additions to the team's table melds (no new meld shown)
8     ``LAY_HOLD``    the best that keeps ``HOLD_CARDS`` cards besides the discard
16    ``LAY_OUT``     going out: the most cards laid, then the most points, offered only
                      when it leaves just the discard
32    ``LAY_EXPERT``  the expert player's lay-down (:mod:`solver.engine.expert`: wilds
                      kept, melds held back, out when that takes the packet), laid as
                      it plays it
====  ==============  ==================================================================

A plan is offered only where it is legal and differs in the cards it lays from the
plans already offered (``LAY_BEST`` and ``LAY_NONE`` always, as before). ``PLANS_DEFAULT``
is the set measured to play best (benchmarks/README.md, "Option: lay-down plans").
"""

from __future__ import annotations

import numpy as np
from kernels.jit import njit

from kernels.params import NEG_INF
from solver.engine import layout as L
from solver.engine.core import Mover, apply_action, hand_of, team_stats, vulnerable_minimum
from solver.engine.expert import WEIGHTS, expert_action
from solver.engine.policies import EXPERT, PLAN_BUDGET, greedy_action, lay_plan, plan_cards, \
    row_action

LAY_BASE = 1 << 56           # above every engine action (type << 48 with type <= 7)
LAY_BEST = LAY_BASE
LAY_NONE = LAY_BASE + 1
LAY_EXTEND = LAY_BASE + 2
LAY_HOLD = LAY_BASE + 3
LAY_OUT = LAY_BASE + 4
LAY_EXPERT = LAY_BASE + 5
LAY_CODES = (LAY_BEST, LAY_NONE, LAY_EXTEND, LAY_HOLD, LAY_OUT, LAY_EXPERT)
PLANS_BASIC = 0b00011        # best and nothing: the search before the plans option
PLANS_ALL = 0b111111
PLANS_DEFAULT = PLANS_BASIC
HOLD_CARDS = 3
CARD_WEIGHT = 1 << 20        # LAY_OUT: one card laid outweighs any sum of points


def is_lay(code: int) -> bool:
    return LAY_BASE <= code < LAY_BASE + len(LAY_CODES)


def plan_bit(code: int) -> int:
    return 1 << (code - LAY_BASE)


@njit(cache=True)
def variant(S, T, code):
    """The plan ``code`` (``LAY_EXTEND``, ``LAY_HOLD`` or ``LAY_OUT``) of the player to move."""
    seat = S[L.CURRENT]
    team = S[L.TEAM_OF + seat]
    hand = hand_of(S, seat).copy()
    keep = np.int64(1 + HOLD_CARDS) if code == LAY_HOLD else np.int64(1)
    melds = np.int64(0) if code == LAY_EXTEND else np.int64(1)
    weight = np.int64(CARD_WEIGHT) if code == LAY_OUT else np.int64(0)
    if hand.sum() < keep:
        keep = hand.sum()
    return lay_plan(S, T, team, hand, keep, S[L.MUST], np.int64(PLAN_BUDGET), melds, weight)


@njit(cache=True, inline="always")
def offer(S, T, plans, out, count):
    """Append the plans of the mask ``plans`` beyond best and nothing that are worth a
    decision here (legal, laying something, unlike the plans offered); returns the count."""
    if plans & ~3 == 0:
        return count
    seat = S[L.CURRENT]
    team = S[L.TEAM_OF + seat]
    hand = hand_of(S, seat).copy()
    one = np.int64(1)
    base = lay_plan(S, T, team, hand, one, S[L.MUST], np.int64(PLAN_BUDGET), one, one - one)
    seen = np.full((5, L.KINDS), -1, dtype=np.int64)
    if base.value != NEG_INF:
        seen[0] = plan_cards(base)
    n_seen = 1
    minimum = vulnerable_minimum(S, team)
    for bit in range(2, 5):
        if not plans >> bit & 1 or count >= out.shape[0]:
            continue
        code = LAY_BASE + bit
        plan = variant(S, T, code)
        if plan.value == NEG_INF or plan.chosen.shape[0] == 0:
            continue
        if minimum > 0 and S[L.TURN_POINTS] == 0 and plan.value < minimum:
            continue                         # a vulnerable team may not lay it
        used = plan_cards(plan)
        if code == LAY_OUT:
            if used.sum() != hand.sum() - 1:
                continue                     # it does not go out
            trial = S.copy()
            play_variant(trial, T, code, np.empty(0, dtype=np.int64), 0)
            if trial[L.PHASE] != L.PLAY or hand_of(trial, seat).sum() != 1:
                continue                     # the rules do not let it go out now
        n_seen, count = _offer_new(seen, n_seen, used, code, out, count)
    if plans >> 5 & 1 and count < out.shape[0]:
        trial = S.copy()
        play_policy(trial, T, EXPERT, np.empty(0, dtype=np.int64), 0)
        used = hand - hand_of(trial, seat)
        if used.any():
            n_seen, count = _offer_new(seen, n_seen, used, LAY_EXPERT, out, count)
    return count


@njit(cache=True, inline="always")
def _offer_new(seen, n_seen, used, code, out, count):
    """Offer ``code`` unless a plan offered lays the same cards (``used``)."""
    for j in range(n_seen):
        if (seen[j] == used).all():
            return n_seen, count
    seen[n_seen] = used
    out[count] = code
    return n_seen + 1, count + 1


@njit(cache=True, inline="always")
def _play(S, T, action, log, logged):
    """Apply ``action``, logged to ``log`` at ``logged`` while it has room; returns
    ``logged + 1``."""
    apply_action(S, T, action)
    if logged < log.shape[0]:
        log[logged] = action
    return logged + 1


@njit(cache=True)
def play_policy(S, T, policy, log, logged):
    """Lay what the player ``policy`` (GREEDY, or EXPERT with its tuned weights) lays now,
    action by action, as it plays it; returns the actions logged (to ``log`` from index
    ``logged`` while it has room)."""
    seat = S[L.CURRENT]
    buffer = np.empty(L.MAX_ACTIONS, dtype=np.int64)
    weights = WEIGHTS.copy()
    for _ in range(L.MAX_CARDS):
        if S[L.PHASE] != L.PLAY or S[L.CURRENT] != seat:
            break
        if policy == EXPERT:
            action = expert_action(S, T, buffer, weights)
        else:
            action = greedy_action(S, T, buffer)
        kind = action >> L.TYPE_SHIFT
        if kind != L.ACTION_LAY and kind != L.ACTION_EXTEND:
            break
        logged = _play(S, T, action, log, logged)
    return logged


@njit(cache=True)
def play_variant(S, T, code, log, logged):
    """Lay plan ``code`` (a :func:`variant`) row by row while its rows stay legal; returns
    the actions logged (to ``log`` from index ``logged`` while it has room)."""
    R = T.array
    plan = variant(S, T, code)
    seat = S[L.CURRENT]
    rows = plan.chosen.shape[0]
    done = np.zeros(rows, dtype=np.bool_)
    for _ in range(rows):
        if S[L.PHASE] != L.PLAY or S[L.CURRENT] != seat:
            break
        team = S[L.TEAM_OF + seat]
        hand = hand_of(S, seat).copy()
        who = Mover(seat, team, hand, hand.sum(), team_stats(S, R, team))
        action = 0
        for i in range(rows):
            if not done[i]:
                action = row_action(S, T, who, plan, plan.chosen[i])
                if action != 0:
                    done[i] = True
                    break
        if action == 0:
            break
        logged = _play(S, T, action, log, logged)
    return logged
