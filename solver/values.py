"""The value types of a lay-down and the numbers the kernels need for a rule set.

Below :mod:`solver.laydown`, :mod:`solver.extensions` and :mod:`solver.optimizer`,
which all use them, so imports run one way: laydown -> optimizer -> extensions -> values.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from kernels.encoding import JOKER, RANK_COUNT, RANKS, SUITS
from kernels.params import (
    SHAPE_RUN,
    MAX_SET_SIZE,
    NO_LIMIT,
    SHAPE_NAMES,
    RuleParams,
)
from solver.cards import Hand, as_hand
from solver.errors import ImpossiblePositionError
from solver.melds import biriba_bonus
from solver.rules import RuleSet, get_rules
from solver.limits import MAX_HAND_CARDS  # noqa: F401



@functools.lru_cache(maxsize=64)
def rule_params(rules: RuleSet, trump_index: int | None = None) -> RuleParams:
    """Numbers the kernels need for ``rules`` with trump suit ``trump_index``."""
    run_bonus = np.zeros((4, 2, RANK_COUNT + 1), dtype=np.int64)
    for suit in range(4):
        for clean in (0, 1):
            for length in range(RANK_COUNT + 1):
                run_bonus[suit, clean, length] = biriba_bonus(
                    "run", suit, None, length, bool(clean), rules, trump_index
                )[1]
    set_bonus = np.zeros((RANK_COUNT + 1, 2, MAX_SET_SIZE + 1), dtype=np.int64)
    for rank in range(RANK_COUNT + 1):
        for clean in (0, 1):
            for size in range(MAX_SET_SIZE + 1):
                set_bonus[rank, clean, size] = biriba_bonus(
                    "set", None, None if rank == RANK_COUNT else rank, size, bool(clean),
                    rules, trump_index,
                )[1]
    mask = sum(1 << rank for rank in range(RANK_COUNT) if rules.set_rank_allowed(rank))
    return RuleParams(
        wild_twos=int(rules.wild_twos),
        max_wilds=NO_LIMIT if rules.max_wilds_per_meld is None else rules.max_wilds_per_meld,
        naturals_per_wild=rules.naturals_per_wild or 0,
        min_size=rules.min_meld_size,
        set_rank_mask=mask,
        wild_sets=int(rules.wild_sets),
        values=np.array(rules.card_values(), dtype=np.int64),
        run_bonus=run_bonus,
        set_bonus=set_bonus,
    )


@dataclass(frozen=True)
class CatalogueMeld:
    """One meld of a hand's catalogue."""

    cards: Hand
    kind: str            # "run" or "set"
    home: str | None     # the run's suit or the set's rank (None: wilds only)
    clean: bool
    points: int

    def __str__(self) -> str:
        return str(self.cards)


@dataclass(frozen=True)
class Extension:
    """Cards from the hand added to the team's table meld number ``table_index``."""

    table_index: int
    cards: Hand
    meld: Hand           # the table meld after the addition
    points: int          # card values of the added cards + change of bonus

    def to_dict(self) -> dict:
        return {"table_index": self.table_index, "cards": self.cards.to_list(),
                "points": self.points}


@dataclass(frozen=True)
class LayDown:
    """A lay-down: melds to put on the table, table melds to extend, the cards left in hand.

    ``points`` counts the new melds and the extensions. ``feasible`` is False
    when no lay-down meets the instance's constraints (a must-use card that
    fits nowhere, say): then nothing is laid. ``goes_out`` says the hand is
    left with exactly the cards it must keep (the discard, or none).
    """

    melds: tuple[CatalogueMeld, ...]
    left: Hand
    points: int
    optimal: bool
    backend: str
    extensions: tuple[Extension, ...] = ()
    solver: str = "kernel"
    seconds: float = 0.0
    feasible: bool = True
    goes_out: bool = False

    def to_dict(self) -> dict:
        return {
            "points": self.points,
            "melds": [meld.cards.to_list() for meld in self.melds],
            "extensions": [extension.to_dict() for extension in self.extensions],
            "left": self.left.to_list(),
            "optimal": self.optimal,
            "feasible": self.feasible,
            "goes_out": self.goes_out,
            "solver": self.solver,
            "backend": self.backend,
            "seconds": self.seconds,
        }


def as_rules(rules) -> RuleSet:
    """A RuleSet, or the preset of that name."""
    return rules if isinstance(rules, RuleSet) else get_rules(rules)


def checked_hand(hand) -> Hand:
    """A hand the kernels take: at most 60 cards, at most three decks' copies."""
    hand = as_hand(hand)
    if len(hand) > MAX_HAND_CARDS:
        raise ImpossiblePositionError(
            f"a hand of {len(hand)} cards is larger than the {MAX_HAND_CARDS} the kernels take"
        )
    if max(hand.counts) > 6 or max(hand.counts[:-1]) > 3:
        raise ImpossiblePositionError(
            f"hand {str(hand)!r} holds more copies of a card than three decks have"
        )
    return hand


def check_copies(hands, rules: RuleSet, players: int, where: str = "") -> None:
    """Raise ImpossiblePositionError when ``hands`` together hold more copies of a card
    than the decks of ``players`` players (RULES.md §1: three decks with six)."""
    if players not in (2, 3, 4, 6):
        raise ImpossiblePositionError(f"players must be 2, 3, 4 or 6, got {players!r}")
    total = [0] * (JOKER + 1)
    for hand in hands:
        for kind, count in enumerate(as_hand(hand).counts):
            total[kind] += count
    decks = rules.deck_count(players)
    for kind, count in enumerate(total):
        limit = rules.joker_count(players) if kind == JOKER else decks
        if count > limit:
            card = Hand.from_kinds([kind])
            raise ImpossiblePositionError(
                f"{count} copies of {card}{' ' + where if where else ''}, but {players} "
                f"players play with {limit}")


def melds_from(table) -> list[CatalogueMeld]:
    """The rows of a kernels.partition.Catalogue as CatalogueMeld values."""
    return [
        CatalogueMeld(
            cards=Hand._trusted(tuple(table.counts[index].tolist())),
            kind=SHAPE_NAMES[int(table.shapes[index])],
            home=home_name(int(table.shapes[index]), int(table.homes[index])),
            clean=bool(table.cleans[index]),
            points=int(table.points[index]),
        )
        for index in range(len(table.keys))
    ]


def home_name(shape: int, home: int) -> str | None:
    """The run's suit or the set's rank as text (None: a set of wilds only)."""
    if shape == SHAPE_RUN:
        return SUITS[home]
    return RANKS[home] if home < RANK_COUNT else None
