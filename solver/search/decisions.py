"""Decisions: the choices the search weighs, and how each expands into engine actions.

The engine's atomic actions stay the engine's; the search chooses among *decisions* where
the player to move has a real choice:

- the trump choice, the pickup (draw, take the pile; threes' frozen pile: one per meld of
  its top card) and barimba's redraw: the engine action itself;
- the lay-down, once per turn (the *lay stage*): ``LAY_BEST``, the greedy player's
  lay-down (the optimizer's kernel path, laid meld by meld), ``LAY_NONE``, nothing, and
  the other plans of the ``plans`` mask (:mod:`solver.search.plans`);
- the discard (the *discard stage*): each legal discard, the engine action itself.

A decision point with one decision is forced: the search plays it without a node. A
stage is a small int the search carries along the engine state (``STAGE_LAY`` when a
turn's play phase begins, ``STAGE_DISCARD`` once its lay-down is decided).
"""

from __future__ import annotations

from kernels.jit import njit

from solver.engine import layout as L
from solver.engine.core import apply_action, legal_actions
from solver.engine.policies import EXPERT, GREEDY
from solver.search.plans import (  # noqa: F401  (the codes are named here too)
    LAY_BEST,
    LAY_EXPERT,
    LAY_EXTEND,
    LAY_HOLD,
    LAY_NONE,
    LAY_OUT,
    offer,
    play_policy,
    play_variant,
)

STAGE_LAY = 0
STAGE_DISCARD = 1
MAX_PLAN_ACTIONS = 200      # a lay-down has at most one action per card laid


@njit(cache=True)
def available(S, T, stage, buffer, out, plans):
    """Write the decisions available in ``S`` at ``stage`` into ``out``; returns how many.

    ``buffer``: int64[MAX_ACTIONS] for the engine's legal actions; ``plans``: the mask of
    lay-down plans (:mod:`solver.search.plans`).
    """
    n = legal_actions(S, T, buffer)
    phase = S[L.PHASE]
    count = 0
    if phase != L.PLAY:
        for i in range(min(n, out.shape[0])):
            out[i] = buffer[i]
        return min(n, out.shape[0])
    lays = False
    discards = 0
    for i in range(n):
        kind_of_action = buffer[i] >> L.TYPE_SHIFT
        if kind_of_action == L.ACTION_LAY or kind_of_action == L.ACTION_EXTEND:
            lays = True
        elif kind_of_action == L.ACTION_DISCARD:
            discards += 1
        elif kind_of_action == L.ACTION_REDRAW and stage == STAGE_LAY and count < out.shape[0]:
            out[count] = buffer[i]
            count += 1
    if stage == STAGE_LAY and lays:
        out[count] = LAY_BEST
        count += 1
        if discards > 0:
            out[count] = LAY_NONE
            count += 1
        return offer(S, T, plans, out, count)
    if discards == 0:               # an obligation left (the pile's top card): lay it
        out[count] = LAY_BEST
        return count + 1
    for i in range(n):
        if buffer[i] >> L.TYPE_SHIFT == L.ACTION_DISCARD and count < out.shape[0]:
            out[count] = buffer[i]
            count += 1
    return count


@njit(cache=True)
def apply_decision(S, T, decision, buffer, log, logged):
    """Play ``decision`` on ``S``; returns (the stage after it, actions logged).

    The engine actions played go to ``log`` from index ``logged`` while it has room.
    """
    if decision == LAY_NONE:
        return STAGE_DISCARD, logged
    if decision == LAY_BEST:
        return STAGE_DISCARD, play_policy(S, T, GREEDY, log, logged)
    if decision == LAY_EXTEND or decision == LAY_HOLD or decision == LAY_OUT:
        return STAGE_DISCARD, play_variant(S, T, decision, log, logged)
    if decision == LAY_EXPERT:
        return STAGE_DISCARD, play_policy(S, T, EXPERT, log, logged)
    apply_action(S, T, decision)
    if logged < log.shape[0]:
        log[logged] = decision
    return STAGE_LAY, logged + 1
