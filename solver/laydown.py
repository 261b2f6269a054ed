"""Lay-downs of a hand: the meld catalogue, counting, streaming and the best one.

The work is done by the partition kernels of :mod:`kernels.partition`
(backends ``python``, ``numba``, ``cython``); this module turns rule sets and
hands into their numbers and the results back into value types.

>>> best = best_laydown("4H 5H 6H 7H 8H 9H 10H KS KD", "classic", backend="python")
>>> best.points, [str(m) for m in best.melds], str(best.left)
(250, ['4H 5H 6H 7H 8H 9H 10H'], 'KS KD')
"""

from __future__ import annotations

import time

import numpy as np

from kernels import partition
from solver.cards import Hand
from solver.melds import check_trump
from solver.optimizer import Config, Instance, optimize_laydown
from solver.values import (  # noqa: F401  (the value types are part of this module's API)
    MAX_HAND_CARDS,
    CatalogueMeld,
    Extension,
    LayDown,
    as_rules,
    checked_hand,
    melds_from,
    rule_params,
)


def _catalogue(hand: Hand, rules, trump, backend):
    rules = as_rules(rules)
    params = rule_params(rules, check_trump(trump, rules))
    counts = np.array(hand.counts, dtype=np.int64)
    return params, counts, partition.catalogue(counts, params, backend)


def meld_catalogue(hand, rules="classic", trump=None, backend=None) -> list[CatalogueMeld]:
    """Every distinct legal meld within the hand, in canonical (key) order."""
    hand = checked_hand(hand)
    _, _, table = _catalogue(hand, rules, trump, backend)
    return melds_from(table)


def count_laydowns(hand, rules="classic", backend=None) -> int:
    """Number of lay-downs of the hand, the empty one included (exact)."""
    return count_laydowns_timed(hand, rules, backend)[0]


def count_laydowns_timed(hand, rules="classic", backend=None) -> tuple[int, float]:
    """``(count, seconds)``: seconds is the kernels' own time (catalogue + count)."""
    hand = checked_hand(hand)
    rules = as_rules(rules)
    params = rule_params(rules, None)
    counts = np.array(hand.counts, dtype=np.int64)
    started = time.perf_counter()
    table = partition.catalogue(counts, params, backend)
    total = partition.count(counts, table, backend)
    return total, time.perf_counter() - started


def iter_laydowns(hand, rules="classic", trump=None, backend=None):
    """Yield every lay-down as a tuple of :class:`CatalogueMeld` (the empty one first)."""
    hand = checked_hand(hand)
    _, counts, table = _catalogue(hand, rules, trump, backend)
    melds = melds_from(table)
    for indices in partition.iterate(counts, table):
        yield tuple(melds[index] for index in indices)


def best_laydown(hand, rules="classic", trump=None, keep: int = 1, backend=None) -> LayDown:
    """The lay-down with the most points that leaves at least ``keep`` cards in hand.

    The turn optimizer with an empty table and the kernel path: one code path
    for every best lay-down (a hand alone may hold three decks' copies).
    """
    instance = Instance.build(hand, rules=rules, trump=trump, keep=keep, players=6)
    return optimize_laydown(instance, Config(solver="kernel", backend=backend))
