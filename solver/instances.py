"""Seeded random lay-down instances: a hand and the team's table melds, dealt from one pack.

Used by the optimizer's tests and benchmarks, and handy for anyone who wants
reproducible problems: the same arguments always give the same instance.

>>> instance = random_instance(7, hand_size=11, table_melds=3)
>>> len(instance.hand), len(instance.table)
(11, 3)
"""

from __future__ import annotations

import random

from kernels.encoding import JOKER, RANK_COUNT
from solver.cards import Hand
from solver.melds import can_meld
from solver.optimizer import Instance
from solver.rules import get_rules


def _pack(rules, players):
    decks = rules.deck_count(players)
    return [kind for kind in range(JOKER) for _ in range(decks)] + [JOKER] * rules.joker_count(players)


def _take(pool, kinds):
    """Remove ``kinds`` from ``pool`` (a list) if all are there; True on success."""
    left = list(pool)
    for kind in kinds:
        if kind not in left:
            return False
        left.remove(kind)
    pool[:] = left
    return True


def _random_meld(rng, rules):
    """Kinds of a random run or set (3-8 cards, a wild one time in three), not checked."""
    wilds = [JOKER] + ([suit * RANK_COUNT + 1 for suit in range(4)] if rules.wild_twos else [])
    if rules.sets_allowed and rng.random() < 0.35:
        ranks = [r for r in range(RANK_COUNT) if r != 1 and rules.set_rank_allowed(r)]
        rank = rng.choice(ranks)
        kinds = [rng.randrange(4) * RANK_COUNT + rank for _ in range(rng.randint(3, 5))]
    else:
        suit = rng.randrange(4)
        length = rng.randint(3, 8)
        low = rng.randint(2, 13 - length + 1)
        kinds = [suit * RANK_COUNT + (position % RANK_COUNT)
                 for position in range(low, low + length)]
    if rng.random() < 0.33:
        kinds[rng.randrange(1, len(kinds))] = rng.choice(wilds)
    return kinds


def random_instance(seed: int, hand_size: int = 11, table_melds: int = 0, rules="classic",
                    players: int = 4, **options) -> Instance:
    """A hand of ``hand_size`` cards and ``table_melds`` legal melds, dealt from one shuffled pack.

    ``options`` go to :meth:`Instance.build` (``keep``, ``opened``, ``score``, ...).
    """
    rules = get_rules(rules) if isinstance(rules, str) else rules
    rng = random.Random(seed)
    pool = _pack(rules, players)
    table = []
    while len(table) < table_melds:
        kinds = _random_meld(rng, rules)
        meld = Hand.from_kinds(kinds)
        if can_meld(meld, rules) and _take(pool, kinds):
            table.append(meld)
    hand = Hand.from_kinds(rng.sample(pool, hand_size))
    options.setdefault("opened", bool(table))
    trump = rng.choice("SHDC") if rules.has_trump else None
    return Instance.build(hand, table=table, rules=rules, trump=trump, players=players, **options)
