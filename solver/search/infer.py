"""Inference: determinizations weighted by how likely the opponents' last discards were under
the greedy model (the ``infer`` option).

Every other seat's last turn ended with a discard the table saw (``layout.LAST_DISCARD``),
and its hand has not changed since, so the hand it discarded from is its hand now plus
that card. The greedy player discards the card of that hand in the fewest of its melds and
additions to its team's table melds, then not one the next opponent's melds take, then the
highest value (:func:`solver.engine.policies._discard_choice`). The model: a seat discards
the greedy card with probability ``trust``, else any card of its hand alike,

    P(discard x | hand) = trust * [x is a greedy choice] + (1 - trust) / (kinds in hand),

and a determinization's weight is the product over the seats of P / max P. The search
keeps a determinization with that probability and deals again otherwise (at most
``MAX_TRIES`` times; the last one dealt is kept), which samples the hidden cards in
proportion to their weight: rejection sampling. ``trust`` 0 weighs nothing (the plain
uniform determinization).

What the model leaves out: the discard's legality at the time (a banned pile top) and the
table as it stood then (the seats that played since may have changed the melds a card
fits); a card that ties the greedy score counts as a greedy choice.
"""

from __future__ import annotations

import numpy as np
from kernels.jit import njit

from kernels.partition_numba import catalogue
from solver.engine import layout as L
from solver.engine.basics import team_additions, trump_bonus
from solver.engine.policies import discard_scores

MAX_TRIES = 16


@njit(cache=True, inline="always")
def greedy_scores(S, T, seat, hand):
    """The greedy discard score of every kind of ``hand`` (higher: discarded first):
    policies.discard_scores over one catalogue of the hand and one set of additions to the
    team's melds."""
    R, sc, vals, runb, setb = T.array, T.scalars, T.values, T.run_bonus_by_trump, T.set_bonus
    run_bonus = trump_bonus(S, runb)
    _, counts, _, _, _, _ = catalogue(hand, sc, vals, run_bonus, setb)
    team = S[L.TEAM_OF + seat]
    _, rows, _, _ = team_additions(S, T, team, hand, run_bonus)
    return discard_scores(S, T, seat, team, hand, counts, rows)


@njit(cache=True, inline="always")
def greedy_agrees(S, T, seat, discarded):
    """(whether ``discarded`` is a greedy choice from ``seat``'s hand then, the kinds in that
    hand)."""
    hand = np.empty(L.KINDS, dtype=np.int64)
    kinds = 0
    for kind in range(L.KINDS):
        hand[kind] = S[L.HANDS + seat * L.KINDS + kind]
    hand[discarded] += 1
    scores = greedy_scores(S, T, seat, hand)
    agrees = True
    for kind in range(L.KINDS):
        if hand[kind] > 0:
            kinds += 1
            if scores[kind] > scores[discarded]:
                agrees = False
    return agrees, kinds


@njit(cache=True, inline="always")
def weight(S, T, searcher, trust):
    """The determinization's weight in (0, 1]: the product over the other seats of
    P(their last discard | their hand) / its largest value."""
    R = T[0]
    found = 1.0
    for seat in range(R[L.R_PLAYERS]):
        discarded = S[L.LAST_DISCARD + seat] - 1
        if seat == searcher or seat == S[L.CURRENT] or discarded < 0:
            continue
        agrees, kinds = greedy_agrees(S, T, seat, discarded)
        if not agrees:
            spread = (1.0 - trust) / kinds
            found *= spread / (trust + spread)
    return found
