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
from kernels.candidates import rows_python
from kernels.encoding import KIND_COUNT, RANK_COUNT
from kernels.params import SHAPE_RUN, SHAPE_SET, SHAPE_WILD_SET
from solver.cards import Hand
from solver.errors import IllegalMeldError
from solver.values import CatalogueMeld, melds_from, rule_params
from solver.melds import RUN, analyze_meld


@dataclass(frozen=True)
class Candidates:
    """Rows of the lay-down problem: the ``new`` first melds, then every table addition.

    ``rows`` holds them as a :class:`kernels.partition.Catalogue` (an addition's
    ``points`` is what it adds to the team's score); ``groups[i]`` is -1 for a
    new meld and the table meld's index for an addition.
    """

    rows: partition.Catalogue
    groups: np.ndarray
    new: int

    @property
    def counts(self) -> np.ndarray:
        return self.rows.counts

    @property
    def points(self) -> np.ndarray:
        return self.rows.points

    def meld(self, index: int) -> CatalogueMeld:
        """New meld ``index`` as a value."""
        return melds_from(partition.Catalogue(*(field[index:index + 1] for field in self.rows)))[0]

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
        return SHAPE_RUN, info.reading.suit_index, info.points
    if info.reading.rank_index is None:
        return SHAPE_WILD_SET, RANK_COUNT, info.points
    return SHAPE_SET, info.reading.rank_index, info.points


def table_additions(instance, backend=None):
    """``(counts int64[n, 53], points int64[n], groups int64[n])``: every table meld's
    additions from the hand (:func:`kernels.partition.additions`), by table meld."""
    params = rule_params(instance.rules, instance.trump)
    hand = np.array(instance.hand.counts, dtype=np.int64)
    identities = [table_identity(meld, instance.rules, instance.trump, index)
                  for index, meld in enumerate(instance.table)]
    melds = np.array([meld.counts for meld in instance.table], dtype=np.int64)
    shapes, homes, before = (np.array([identity[field] for identity in identities],
                                      dtype=np.int64) for field in range(3))
    return partition.additions(hand, melds.reshape(-1, KIND_COUNT), shapes, homes, before,
                               params, backend)


def build_candidates(instance, backend=None) -> Candidates:
    """New melds of the hand, then the additions to each table meld (in table order)."""
    params = rule_params(instance.rules, instance.trump)
    hand = np.array(instance.hand.counts, dtype=np.int64)
    new = partition.catalogue(hand, params, backend)
    extra_counts, extra_points, extra_groups = table_additions(instance, backend)
    counts, points, groups = rows_python(
        np.ascontiguousarray(new.counts, dtype=np.int64).reshape(-1, KIND_COUNT),
        np.ascontiguousarray(new.points, dtype=np.int64),
        np.ascontiguousarray(extra_counts, dtype=np.int64).reshape(-1, KIND_COUNT),
        np.ascontiguousarray(extra_points, dtype=np.int64),
        np.ascontiguousarray(extra_groups, dtype=np.int64))
    pad = np.zeros(len(counts) - len(new.keys), dtype=np.int64)
    rows = partition.Catalogue(
        keys=np.concatenate([new.keys, pad]),
        counts=counts,
        shapes=np.concatenate([new.shapes, pad]),
        homes=np.concatenate([new.homes, pad]),
        cleans=np.concatenate([new.cleans, pad]),
        points=points,
    )
    return Candidates(rows=rows, groups=groups, new=len(new.keys))
