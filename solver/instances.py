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
from solver.errors import OutOfRangeError
from solver.melds import can_meld
from solver.optimizer import Instance
from solver.rules import get_rules
from solver.limits import MAX_RANDOM_TABLE_MELDS

MELD_TRIES = 100_000  # ... drawn in at most this many tries


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


PILE_TEAM_MELDS = ("5H 6H 7H", "9C 10C JC", "QD QS QH", "3S 4S 5S", "8D 9D 10D")


def pile_position(seed: int):
    """A 4-player classic draw with a big pile: ``(state, hand, pile)``.

    Seat 0 holds 14 cards and its team has five melds on the table
    (``PILE_TEAM_MELDS``); the discard pile holds 30 cards. The hand and the pile are
    dealt from the rest of the decks with ``seed``: a pickup decision whose lay-down search
    is large, which the bounded search must answer in bounded time.
    """
    # here, not at the top: importing the engine loads its numba kernels, which the
    # optimizer's users of this module never need
    from solver.engine.api import Game
    from solver.engine.positions import position

    rng = random.Random(seed)
    pack = [kind for kind in range(JOKER) for _ in range(2)] + [JOKER] * 4
    for meld in PILE_TEAM_MELDS:
        for kind in Hand.parse(meld).kinds():
            pack.remove(kind)
    rng.shuffle(pack)
    hand, pile = Hand.from_kinds(pack[:14]), Hand.from_kinds(pack[14:44])
    state = position(Game(4), empty_hands=True, hands={0: str(hand)},
                     table={0: list(PILE_TEAM_MELDS)},
                     pile=str(pile), phase="draw", opened=(0,), seed=seed)
    return state, hand, pile


def random_instance(seed: int, hand_size: int = 11, table_melds: int = 0, rules="classic",
                    players: int = 4, **options) -> Instance:
    """A hand of ``hand_size`` cards and ``table_melds`` legal melds, dealt from one shuffled pack.

    ``options`` go to :meth:`Instance.build` (``keep``, ``opened``, ``score``, ...).
    """
    rules = get_rules(rules) if isinstance(rules, str) else rules
    if not isinstance(table_melds, int) or not 0 <= table_melds <= MAX_RANDOM_TABLE_MELDS:
        raise OutOfRangeError(f"table_melds must be 0..{MAX_RANDOM_TABLE_MELDS}, got {table_melds!r}")
    rng = random.Random(seed)
    pool = _pack(rules, players)
    table = []
    tries = 0
    while len(table) < table_melds:
        tries += 1
        if tries > MELD_TRIES:
            raise OutOfRangeError(f"{table_melds} table melds could not be dealt from the "
                                  f"pack of {players} players ({len(table)} were)")
        kinds = _random_meld(rng, rules)
        meld = Hand.from_kinds(kinds)
        if can_meld(meld, rules) and _take(pool, kinds):
            table.append(meld)
    if not isinstance(hand_size, int) or not 0 <= hand_size <= len(pool):
        raise OutOfRangeError(
            f"hand_size must be 0..{len(pool)} (the pack of {players} players less the "
            f"{table_melds} table melds' cards), got {hand_size!r}")
    hand = Hand.from_kinds(rng.sample(pool, hand_size))
    options.setdefault("opened", bool(table))
    trump = rng.choice("SHDC") if rules.has_trump else None
    return Instance.build(hand, table=table, rules=rules, trump=trump, players=players, **options)
