"""Meld-partition kernels behind one interface, with a choice of backend.

Backends: ``python`` (the reference, :mod:`kernels.partition_ref`),
``numba`` (:mod:`kernels.partition_numba`) and ``cython``
(:mod:`kernels._partition`, built by ``setup.py``). Choose one per call with
``backend=``, or for the whole process with the ``BIRIBA_BACKEND``
environment variable; the default is the fastest measured
(``DEFAULT_BACKEND``, see benchmarks/README.md).
"""

from __future__ import annotations

import os
from typing import NamedTuple

import numpy as np

from kernels.errors import (  # noqa: F401
    BackendError,
    CountBudgetError,
    CountOverflowError,
    KernelInputError,
)

from kernels import partition_ref
from kernels.encoding import KIND_COUNT
from kernels.params import (COUNT_BUDGET, NEG_INF, PRICED_CARDS, PYTHON_MAX_CARDS,
                            STATE_BUDGET, RuleParams)

BACKENDS = ("python", "numba", "cython")
MAX_GROUP = 62  # groups are bits of an int64 mask


def _default_backend() -> str:
    """Cython measured fastest (benchmarks/README.md); numba when it was not built."""
    try:
        from kernels import _partition  # noqa: F401
    except ImportError:
        return "numba"
    return "cython"


DEFAULT_BACKEND = _default_backend()


class Catalogue(NamedTuple):
    """A hand's meld catalogue as arrays (M melds, ascending key).

    keys: int64[M]; counts: int64[M, 53]; shapes, homes: int64[M] (see
    kernels.params); cleans: int64[M] 0/1; points: int64[M].
    """

    keys: np.ndarray
    counts: np.ndarray
    shapes: np.ndarray
    homes: np.ndarray
    cleans: np.ndarray
    points: np.ndarray

    def reference_rows(self):
        """The reference's row form: (key, counts, shape, home, clean, points)."""
        return [
            (int(self.keys[i]), [int(c) for c in self.counts[i]], int(self.shapes[i]),
             int(self.homes[i]), bool(self.cleans[i]), int(self.points[i]))
            for i in range(len(self.keys))
        ]


def resolve_backend(backend: str | None) -> str:
    name = backend or os.environ.get("BIRIBA_BACKEND") or DEFAULT_BACKEND
    name = name.strip().lower()
    if name not in BACKENDS:
        from_where = "backend" if backend else "BIRIBA_BACKEND"
        raise BackendError(f"unknown {from_where} {name!r} (known: {', '.join(BACKENDS)})")
    return name


def best_backend(backend: str | None, cards: int) -> str:
    """The backend :func:`best` runs for a hand of ``cards`` cards: the one named, else
    the fastest there is (Cython, numba when it was not built)."""
    return resolve_backend(backend)


def needs_numba(backend: str | None, cards: int) -> bool:
    """Whether :func:`best` on a hand of ``cards`` cards runs numba code: the numba
    backend, or Cython from ``PRICED_CARDS`` cards (its bound is numba's programme)."""
    name = best_backend(backend, cards)
    return name == "numba" or (name == "cython" and cards >= PRICED_CARDS)


def _module(name: str):
    if name == "numba":
        from kernels import partition_numba

        return partition_numba
    if name == "cython":
        from kernels import _partition

        return _partition
    return None


def _from_rows(rows) -> Catalogue:
    size = len(rows)
    counts = np.zeros((size, KIND_COUNT), dtype=np.int64)
    for index, row in enumerate(rows):
        counts[index] = row[1]
    return Catalogue(
        keys=np.array([row[0] for row in rows], dtype=np.int64),
        counts=counts,
        shapes=np.array([row[2] for row in rows], dtype=np.int64),
        homes=np.array([row[3] for row in rows], dtype=np.int64),
        cleans=np.array([int(row[4]) for row in rows], dtype=np.int64),
        points=np.array([row[5] for row in rows], dtype=np.int64),
    )


def catalogue(hand: np.ndarray, params: RuleParams, backend: str | None = None) -> Catalogue:
    """Every distinct legal meld within ``hand`` (int64[53])."""
    name = resolve_backend(backend)
    if name == "python":
        return _from_rows(partition_ref.catalogue(hand, params))
    module = _module(name)
    return Catalogue(*module.catalogue(
        np.ascontiguousarray(hand, dtype=np.int64), params.scalars(), params.values,
        params.run_bonus, params.set_bonus,
    ))


def additions(hand: np.ndarray, melds: np.ndarray, shapes, homes, before, params: RuleParams,
              backend: str | None = None):
    """Each table meld's additions from ``hand``: ``(counts int64[n, 53], points, groups)``.

    ``melds`` int64[m, 53] are table melds whose best readings have ``shapes``,
    ``homes`` and points ``before`` (see :func:`kernels.partition_ref.additions`);
    ``groups[i]`` is the table meld that row ``i`` extends.
    """
    name = resolve_backend(backend)
    hand = np.ascontiguousarray(hand, dtype=np.int64)
    melds = np.ascontiguousarray(melds, dtype=np.int64).reshape(-1, KIND_COUNT)
    shapes, homes, before = (np.ascontiguousarray(values, dtype=np.int64).reshape(-1)
                             for values in (shapes, homes, before))
    if not (len(shapes) == len(homes) == len(before) == len(melds)):
        raise KernelInputError("shapes, homes and before must have one entry per meld")
    if name == "python":
        rows = partition_ref.additions(hand.tolist(), melds.tolist(), shapes.tolist(),
                                       homes.tolist(), before.tolist(), params)
        counts = np.zeros((len(rows), KIND_COUNT), dtype=np.int64)
        for index, row in enumerate(rows):
            counts[index] = row[1]
        return (counts, np.array([row[2] for row in rows], dtype=np.int64),
                np.array([row[0] for row in rows], dtype=np.int64))
    return _module(name).additions(hand, melds, shapes, homes, before, params.scalars(),
                                   params.values, params.run_bonus, params.set_bonus)


def _check_rows(hand: np.ndarray, rows: Catalogue) -> None:
    # The compiled kernels trust that every meld lies inside the hand.
    if len(rows.keys) and not (rows.counts <= np.asarray(hand)[None, :]).all():
        raise KernelInputError("the catalogue holds a meld that is not inside the hand")


def _python_size(hand) -> None:
    cards = int(np.asarray(hand).sum())
    if cards > PYTHON_MAX_CARDS:
        raise KernelInputError(
            f"the python backend takes hands of up to {PYTHON_MAX_CARDS} cards (it is the "
            f"exponential reference), got {cards}: use numba or cython")


def count(hand: np.ndarray, rows: Catalogue, backend: str | None = None,
          budget: int = COUNT_BUDGET) -> int:
    """Exact number of lay-downs; CountBudgetError past ``budget`` memo entries,
    CountOverflowError if a compiled counter overflows."""
    name = resolve_backend(backend)
    _check_rows(hand, rows)
    if name == "python":
        _python_size(hand)
        return partition_ref.count_laydowns(hand, rows.reference_rows())
    total, overflow, exhausted = _module(name).count(
        np.ascontiguousarray(hand, dtype=np.int64), rows.counts, budget)
    if exhausted:
        raise CountBudgetError(
            f"counting the lay-downs of this {int(np.asarray(hand).sum())}-card hand needs more "
            f"than {budget} memo entries (minutes of work); the count is astronomically large")
    if overflow:
        raise CountOverflowError(
            f"the lay-down count exceeds int64 in the {name} backend; "
            "use backend 'python' for the exact count"
        )
    return int(total)


class Best(NamedTuple):
    """A best lay-down: its points (``NEG_INF``: none), catalogue indices, and whether it
    is proven best (False when the compiled search stopped at its budget)."""

    points: int
    indices: list
    exact: bool


def best(hand: np.ndarray, rows: Catalogue, keep: int, backend: str | None = None,
         groups=None, max_left=None, budget: int = STATE_BUDGET) -> Best:
    """A best lay-down leaving at least ``keep`` cards (:class:`Best`).

    ``groups`` (int per meld, -1 none, else 0..62: at most one meld per group)
    and ``max_left`` (53 ints: most copies of each kind left in hand) are the
    optimizer's constraints (see :func:`kernels.partition_ref.best_laydown`).
    ``points`` is ``NEG_INF`` when nothing satisfies them. The compiled
    backends memoise at most ``budget`` sub-problems (bounded time and memory);
    past it the lay-down is legal but ``exact`` is False. The python backend
    is the reference and always exact.

    From ``PRICED_CARDS`` cards both compiled backends bound their search by the
    linear programme's prices (:mod:`kernels.lp_bound`, numba's kernel for both).
    A hand too large for Cython's int64 memo key goes to numba.
    """
    name = best_backend(backend, int(np.sum(hand)))
    if keep < 0:
        raise KernelInputError(f"keep must be 0 or more, got {keep!r}")
    if budget < 1:
        raise KernelInputError(f"budget must be 1 or more, got {budget!r}")
    size = len(rows.keys)
    groups = (np.full(size, -1, dtype=np.int64) if groups is None
              else np.ascontiguousarray(groups, dtype=np.int64))
    if groups.shape != (size,):
        raise KernelInputError(f"groups must be {size} ints in -1..{MAX_GROUP}")
    priced = int(np.sum(hand)) >= PRICED_CARDS
    if name != "cython" or priced:
        # Cython checks these while it builds its tables (a meld outside the hand gets
        # no slot there); numba, its programme and the reference trust their input.
        _check_rows(hand, rows)
        if size and (groups.min() < -1 or groups.max() > MAX_GROUP):
            raise KernelInputError(f"groups must be {size} ints in -1..{MAX_GROUP}")
    hand = np.ascontiguousarray(hand, dtype=np.int64)
    max_left = (hand.copy() if max_left is None
                else np.minimum(np.ascontiguousarray(max_left, dtype=np.int64), hand))
    if max_left.shape != (KIND_COUNT,) or (max_left < 0).any():
        raise KernelInputError("max_left must be 53 counts of 0 or more")
    if keep > int(hand.sum()):
        return Best(NEG_INF, [], True)  # no lay-down keeps more cards than the hand holds
    if name == "python":
        _python_size(hand)
        points, indices = partition_ref.best_laydown(hand, rows.reference_rows(), keep,
                                                     list(groups), list(max_left))
        return Best(points, indices, True)
    if name == "cython":
        try:
            if priced:
                points, indices, exact = _cython_priced(hand, rows.counts, rows.points, keep,
                                                        groups, max_left, int(budget))
            else:
                points, indices, exact = _module(name).best(hand, rows.counts, rows.points,
                                                            keep, groups, max_left, int(budget))
            return Best(int(points), [int(i) for i in indices], bool(exact))
        except OverflowError:
            # the hand's memo key does not fit Cython's int64: numba's search takes it
            _check_rows(hand, rows)
            if size and (groups.min() < -1 or groups.max() > MAX_GROUP):
                raise KernelInputError(f"groups must be {size} ints in -1..{MAX_GROUP}")
            name = "numba"
    points, indices, exact = _module(name).best(hand, rows.counts, rows.points, keep, groups,
                                                max_left, int(budget))
    return Best(int(points), [int(i) for i in indices], bool(exact))


def _cython_priced(hand, meld_counts, points, keep, groups, max_left, budget):
    """Cython's best() from PRICED_CARDS cards: the numba best()'s steps
    (kernels.laydown.search.best) with the search in Cython
    (kernels._partition.best_priced). The linear programme, its cuts, its floor and the
    sub-problems' programmes are the kernel both backends share (kernels.lp_bound,
    numba); the search, its memo and its limits are Cython's."""
    from kernels import _partition, lp_bound
    from kernels.laydown import layout, search

    scale = layout.SHARE_SCALE
    meld_counts = np.ascontiguousarray(meld_counts, dtype=np.int64)
    points = np.ascontiguousarray(points, dtype=np.int64)
    setup = lp_bound.priced(hand, meld_counts, points, groups, keep, max_left, scale,
                            layout.DIVES, lp_bound.CUT_ROUNDS)
    start = setup.start
    floor = search.above_floor(start, setup.step)
    nodes = search.sub_programmes(hand, keep, budget, start, setup.step, setup.bound,
                                  setup.prices, floor)

    def node_bound(remaining, subset, still_to_keep):
        return lp_bound.subset_bound(remaining, meld_counts, points, groups, setup.cut_starts,
                                     setup.cut_melds, subset, still_to_keep, scale)

    found, value, picked, exact = _partition.best_priced(
        hand, meld_counts, points, keep, groups, setup.limits, budget, setup.prices,
        setup.slack, floor, setup.live, setup.cut_starts, setup.cut_melds, scale,
        layout.WORK_FACTOR * budget, node_bound, nodes, layout.NODE_CARDS, layout.NODE_MOVES)
    if found:
        return value, picked, exact
    if start >= 0:
        # nothing better than the floor's lay-down (proven: it is a best one), or stopped
        return start, np.sort(setup.start_melds), exact
    value, picked, _ = _partition.best(hand, meld_counts, points, keep, groups, max_left,
                                       budget)
    return value, picked, False


def iterate(hand: np.ndarray, rows: Catalogue):
    """Stream every lay-down as a sorted list of catalogue indices."""
    return partition_ref.iter_laydowns(hand, rows.reference_rows())
