"""Candidates of a turn's lay-down: new melds and additions to the team's table melds.

New melds are the hand's meld catalogue (:mod:`kernels.partition`). The
additions to a table meld ``T`` are every non-empty multiset ``A`` of hand
cards such that ``T + A`` is a legal meld of the same kind (a run of the same
suit, a set of the same rank, RULES.md §2 "Extending"); its points are the
card values of ``A`` plus the change of bonus, so a run reaching 7 cards
earns the biriba bonus, and a run whose own-suit 2 falls into its natural
place turns clean (RULES.md §2 "Wild position"). They are found as the melds
of ``T`` plus the hand's cards of that suit or rank and the wilds that
contain ``T``: the catalogue already tries every reading, wild
repositioning included.

Each table meld's additions form a *group*: a lay-down uses at most one of
them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from kernels import partition
from kernels.encoding import JOKER, KIND_COUNT, RANK_COUNT
from kernels.params import KIND_RUN, KIND_SET, KIND_WILD_SET, TWO_KINDS
from solver.cards import Hand
from solver.errors import IllegalMeldError
from solver.laydown import CatalogueMeld, _melds_from, rule_params
from solver.melds import RUN, analyze_meld


@dataclass(frozen=True)
class Candidates:
    """Rows of the lay-down problem: the ``new`` first melds, then every table addition.

    ``table`` holds them as a :class:`kernels.partition.Catalogue` (an addition's
    ``points`` is what it adds to the team's score); ``groups[i]`` is -1 for a
    new meld and the table meld's index for an addition.
    """

    table: partition.Catalogue
    groups: np.ndarray
    new: int

    @property
    def counts(self) -> np.ndarray:
        return self.table.counts

    @property
    def points(self) -> np.ndarray:
        return self.table.points

    def meld(self, index: int) -> CatalogueMeld:
        """New meld ``index`` as a value."""
        return _melds_from(partition.Catalogue(*(field[index:index + 1] for field in self.table)))[0]

    def __len__(self) -> int:
        return len(self.groups)


def table_identity(meld: Hand, rules, trump, index: int):
    """(shape, home, points) of a table meld's best reading; refuses a meld that is not legal."""
    try:
        return _identity_of(meld, rules, trump)
    except IllegalMeldError as error:
        reason = str(error).split(": ", 1)[-1]
        raise IllegalMeldError(
            f"table meld {index} {str(meld)!r} is not a legal meld: {reason}") from None


@functools.lru_cache(maxsize=4096)
def _identity_of(meld: Hand, rules, trump):
    info = analyze_meld(meld, rules, trump)
    if info.kind == RUN:
        return KIND_RUN, info.reading.suit_index, info.points
    if info.reading.rank_index is None:
        return KIND_WILD_SET, RANK_COUNT, info.points
    return KIND_SET, info.reading.rank_index, info.points


@functools.lru_cache(maxsize=256)
def _relevant(shape: int, home: int, rules) -> np.ndarray:
    """0/1 per kind: the cards that can join a meld of this shape and home (read-only)."""
    mask = np.zeros(KIND_COUNT, dtype=np.int64)
    mask[JOKER] = 1
    if rules.wild_twos:
        mask[list(TWO_KINDS)] = 1
    if shape == KIND_RUN:
        mask[home * RANK_COUNT:(home + 1) * RANK_COUNT] = 1
    elif shape == KIND_SET:
        mask[[suit * RANK_COUNT + home for suit in range(4)]] = 1
    mask.flags.writeable = False
    return mask


def table_additions(instance, backend=None):
    """Per table meld: (counts int64[n, 53] of the additions, their points int64[n])."""
    params = rule_params(instance.rules, instance.trump)
    hand = np.array(instance.hand.counts, dtype=np.int64)
    result = []
    for index, meld in enumerate(instance.table):
        shape, home, before = table_identity(meld, instance.rules, instance.trump, index)
        base = np.array(meld.counts, dtype=np.int64)
        pool = base + hand * _relevant(shape, home, instance.rules)
        found = partition.catalogue(pool, params, backend)
        keep = ((found.counts >= base).all(axis=1)
                & (found.counts.sum(axis=1) > len(meld))
                & (found.shapes == shape) & (found.homes == home))
        counts = found.counts[keep] - base
        points = found.points[keep] - before
        result.append((counts, points))
    return result


def build_candidates(instance, backend=None) -> Candidates:
    """New melds of the hand, then the additions to each table meld (in table order)."""
    params = rule_params(instance.rules, instance.trump)
    hand = np.array(instance.hand.counts, dtype=np.int64)
    new = partition.catalogue(hand, params, backend)
    parts_counts = [new.counts]
    parts_points = [new.points]
    parts_groups = [np.full(len(new.keys), -1, dtype=np.int64)]
    for group, (counts, points) in enumerate(table_additions(instance, backend)):
        parts_counts.append(counts)
        parts_points.append(points)
        parts_groups.append(np.full(len(points), group, dtype=np.int64))
    counts = np.concatenate(parts_counts)
    pad = np.zeros(len(counts) - len(new.keys), dtype=np.int64)
    table = partition.Catalogue(
        keys=np.concatenate([new.keys, pad]),
        counts=np.ascontiguousarray(counts),
        shapes=np.concatenate([new.shapes, pad]),
        homes=np.concatenate([new.homes, pad]),
        cleans=np.concatenate([new.cleans, pad]),
        points=np.concatenate(parts_points),
    )
    return Candidates(table=table, groups=np.concatenate(parts_groups), new=len(new.keys))
