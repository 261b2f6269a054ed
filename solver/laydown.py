"""Lay-downs of a hand: the meld catalogue, counting, streaming and the best one.

The work is done by the partition kernels of :mod:`kernels.partition`
(backends ``python``, ``numba``, ``cython``); this module turns rule sets and
hands into their numbers and the results back into value types.

>>> best = best_laydown("4H 5H 6H 7H 8H 9H 10H KS KD", "classic", backend="python")
>>> best.points, [str(m) for m in best.melds], str(best.left)
(250, ['4H 5H 6H 7H 8H 9H 10H'], 'KS KD')
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass

import numpy as np

from kernels import partition
from kernels.encoding import RANK_COUNT, RANKS, SUITS
from kernels.params import (
    KIND_RUN,
    MAX_SET_SIZE,
    NO_LIMIT,
    SHAPE_NAMES,
    RuleParams,
)
from solver.cards import Hand, as_hand
from solver.errors import ImpossiblePositionError
from solver.melds import biriba_bonus, check_trump
from solver.rules import RuleSet, get_rules

MAX_HAND_CARDS = 60


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


def _rules(rules) -> RuleSet:
    return rules if isinstance(rules, RuleSet) else get_rules(rules)


def _hand(hand) -> Hand:
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


def _catalogue(hand: Hand, rules, trump, backend):
    rules = _rules(rules)
    params = rule_params(rules, check_trump(trump, rules))
    counts = np.array(hand.counts, dtype=np.int64)
    return params, counts, partition.catalogue(counts, params, backend)


def _melds_from(table) -> list[CatalogueMeld]:
    return [
        CatalogueMeld(
            cards=Hand._trusted(tuple(table.counts[index].tolist())),
            kind=SHAPE_NAMES[int(table.shapes[index])],
            home=_home_name(int(table.shapes[index]), int(table.homes[index])),
            clean=bool(table.cleans[index]),
            points=int(table.points[index]),
        )
        for index in range(len(table.keys))
    ]


def _home_name(shape: int, home: int) -> str | None:
    if shape == KIND_RUN:
        return SUITS[home]
    return RANKS[home] if home < RANK_COUNT else None


def meld_catalogue(hand, rules="classic", trump=None, backend=None) -> list[CatalogueMeld]:
    """Every distinct legal meld within the hand, in canonical (key) order."""
    hand = _hand(hand)
    _, _, table = _catalogue(hand, rules, trump, backend)
    return _melds_from(table)


def count_laydowns(hand, rules="classic", backend=None) -> int:
    """Number of lay-downs of the hand, the empty one included (exact)."""
    return count_laydowns_timed(hand, rules, backend)[0]


def count_laydowns_timed(hand, rules="classic", backend=None) -> tuple[int, float]:
    """``(count, seconds)``: seconds is the kernels' own time (catalogue + count)."""
    hand = _hand(hand)
    rules = _rules(rules)
    params = rule_params(rules, None)
    counts = np.array(hand.counts, dtype=np.int64)
    started = time.perf_counter()
    table = partition.catalogue(counts, params, backend)
    total = partition.count(counts, table, backend)
    return total, time.perf_counter() - started


def iter_laydowns(hand, rules="classic", trump=None, backend=None):
    """Yield every lay-down as a tuple of :class:`CatalogueMeld` (the empty one first)."""
    hand = _hand(hand)
    _, counts, table = _catalogue(hand, rules, trump, backend)
    melds = _melds_from(table)
    for indices in partition.iterate(counts, table):
        yield tuple(melds[index] for index in indices)


def best_laydown(hand, rules="classic", trump=None, keep: int = 1, backend=None) -> LayDown:
    """The lay-down with the most points that leaves at least ``keep`` cards in hand.

    The turn optimizer with an empty table and the kernel path: one code path
    for every best lay-down (a hand alone may hold three decks' copies).
    """
    from solver.optimizer import Config, Instance, optimize_laydown  # it imports this module

    instance = Instance.build(hand, rules=rules, trump=trump, keep=keep, players=6)
    return optimize_laydown(instance, Config(solver="kernel", backend=backend))
