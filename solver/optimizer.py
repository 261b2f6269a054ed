"""The lay-down worth the most this turn, with the team's melds on the table.

An :class:`Instance` is one turn's situation: the hand, the team's table
melds, the rules and trump, whether the team has opened this round and its
match score (vulnerability, RULES.md §6), the cards that must stay in hand
and the cards that must be used (the top card of a taken pile, RULES.md §5).
:func:`optimize_laydown` answers it with one of two exact solvers:

- ``kernel``: the partition kernel's best-lay-down search, where each table
  meld's possible additions are extra catalogue rows in a *group* (a table
  meld is extended at most once) and must-use cards cap what may stay in hand;
- ``cpsat``: an OR-Tools CP-SAT model over the same candidates
  (:class:`LayDownModel`).

Both see the same candidates (:mod:`solver.extensions`), and the tests check
that they reach equal optima and agree with brute force on small instances.

>>> result = optimize_laydown(Instance.build("8H 9H KS", table=["5H 6H 7H"]))
>>> result.points, [str(e.cards) for e in result.extensions], str(result.left)
(20, ['8H 9H'], 'KS')
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from kernels import partition
from kernels.candidates import max_left_python
from kernels.params import NEG_INF
from solver.cards import Hand, as_hand
from solver.errors import BiribaError, ImpossiblePositionError, InvalidCardError, OutOfRangeError
from solver.extensions import Candidates, build_candidates, table_identity
from solver.values import Extension, LayDown, as_rules, check_copies, checked_hand
from solver.melds import check_trump
from solver.rules import RuleSet
from solver.limits import MAX_TIME_LIMIT

SOLVERS = ("auto", "kernel", "cpsat")
# auto: the kernel path up to these hand sizes (without / with table melds), CP-SAT above
# and wherever the kernel stops at its budget; per objective, as measured in
# benchmarks/README.md ("Cuts, the keep row and the floor's proof": `auto` re-tuned).
AUTO_KERNEL_CARDS = {"points": (60, 60), "cards": (60, 45), "out": (60, 45)}
OBJECTIVES = ("points", "cards", "out")
CARD_WEIGHT = 1_000_000   # "cards"/"out": one laid card outweighs any sum of points


@dataclass(frozen=True)
class Instance:
    """One turn's lay-down problem (build it with :meth:`build`, which checks the input)."""

    hand: Hand
    table: tuple[Hand, ...]
    rules: RuleSet
    trump: int | None          # suit index, or None
    opened: bool               # the team has laid down this round already
    score: int                 # the team's match score at the start of the round
    keep: int                  # cards that must stay in hand (1: the discard)
    must_use: Hand             # cards that must be laid (or added to the table)
    players: int

    @classmethod
    def build(cls, hand, table=(), rules="classic", trump=None, opened=False, score=0,
              keep=1, must_use=(), players=4) -> Instance:
        rules = as_rules(rules)
        hand = checked_hand(hand)
        table = tuple(as_hand(meld) for meld in table)
        must_use = as_hand(must_use) if must_use else Hand.empty()
        trump_index = check_trump(trump, rules)
        if players not in (2, 3, 4, 6):
            raise ImpossiblePositionError(f"players must be 2, 3, 4 or 6, got {players!r}")
        if keep < 0:
            raise BiribaError(f"keep must be 0 or more, got {keep!r}")
        if keep > len(hand):
            raise ImpossiblePositionError(
                f"cannot keep {keep} card(s) from a hand of {len(hand)}: {str(hand)!r}")
        if not must_use.issubset(hand):
            raise InvalidCardError(
                f"must-use card(s) {str(must_use)!r} are not all in the hand {str(hand)!r}")
        if len(must_use) > len(hand) - keep:
            raise ImpossiblePositionError(
                f"cannot use {len(must_use)} card(s) and keep {keep} from a hand of {len(hand)}")
        if len(table) > partition.MAX_GROUP + 1:
            raise ImpossiblePositionError(
                f"{len(table)} table melds: at most {partition.MAX_GROUP + 1} are supported")
        for index, meld in enumerate(table):
            table_identity(meld, rules, trump_index, index)  # refuses an illegal table meld
        check_copies([hand, *table], rules, players, "across hand and table")
        return cls(hand, table, rules, trump_index, bool(opened), int(score), int(keep),
                   must_use, players)

    @property
    def minimum(self) -> int:
        """Least a first lay-down must be worth (0 once the team has opened), RULES.md §6."""
        if self.opened or self.table:
            return 0
        return self.rules.minimum_first_laydown(self.score)


@dataclass(frozen=True)
class Config:
    """How to solve: which solver and objective, and the CP-SAT limits.

    ``objective``: ``points`` (most points), ``cards`` (most cards laid, then
    most points) or ``out`` (go out, keeping exactly ``keep`` cards, with the
    most points; ``goes_out`` in the result says whether it can).
    ``solver``: ``kernel``, ``cpsat``, or ``auto`` (the default): the kernel path
    for hands of up to 60 cards (up to 45 with table melds for the ``cards`` and
    ``out`` objectives: AUTO_KERNEL_CARDS), CP-SAT for larger ones and where the
    kernel stops at its budget.
    ``time_limit``: CP-SAT's limit in deterministic time units (about seconds).
    """

    solver: str = "auto"
    objective: str = "points"
    backend: str | None = None
    time_limit: float = 10.0
    seed: int = 0
    workers: int = 1

    def __post_init__(self):
        if self.solver not in SOLVERS:
            raise BiribaError(f"unknown solver {self.solver!r} (known: {', '.join(SOLVERS)})")
        if self.objective not in OBJECTIVES:
            raise BiribaError(
                f"unknown objective {self.objective!r} (known: {', '.join(OBJECTIVES)})")
        limit = self.time_limit
        if (isinstance(limit, bool) or not isinstance(limit, (int, float))
                or not math.isfinite(limit) or not 0 < limit <= MAX_TIME_LIMIT):
            raise OutOfRangeError(
                f"time limit {limit!r} must be a number above 0 and at most {MAX_TIME_LIMIT}")
        if (isinstance(self.workers, bool) or not isinstance(self.workers, int)
                or not 1 <= self.workers <= 64):
            raise OutOfRangeError(f"workers {self.workers!r} must be an integer 1..64")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not (
                0 <= self.seed < 2**31):
            raise OutOfRangeError(f"seed {self.seed!r} must be an integer 0..{2**31 - 1}")


def optimize_laydown(instance: Instance, config: Config = Config()) -> LayDown:
    """The best lay-down of ``instance`` under ``config`` (exact unless CP-SAT hits its limit)."""
    started = time.perf_counter()
    candidates = build_candidates(instance, config.backend)
    weights = _weights(candidates, config.objective)
    solver = config.solver
    if solver == "auto":
        limit = AUTO_KERNEL_CARDS[config.objective][1 if instance.table else 0]
        solver = "kernel" if len(instance.hand) <= limit else "cpsat"
    if solver == "kernel" and instance.minimum and config.objective != "points":
        solver = "cpsat"  # the kernel maximises one sum; a minimum on another is CP-SAT's job
    if solver == "kernel":
        chosen, optimal = _solve_kernel(instance, candidates, weights, config.backend)
        if not optimal and config.solver == "auto":
            solver = "cpsat"  # the kernel stopped at its budget: CP-SAT proves the optimum
    if solver == "cpsat":
        from solver.cpsat import LayDownModel  # OR-Tools loads only when CP-SAT runs (~0.2 s)

        chosen, optimal = LayDownModel(instance, candidates, weights, config).solve()
    return _result(instance, candidates, chosen, optimal, solver, config,
                   time.perf_counter() - started)


def _weights(candidates: Candidates, objective: str) -> np.ndarray:
    if objective == "points":
        return candidates.points
    return candidates.points + CARD_WEIGHT * candidates.counts.sum(axis=1)


def _solve_kernel(instance: Instance, candidates: Candidates, weights, backend):
    hand = np.array(instance.hand.counts, dtype=np.int64)
    left = max_left_python(hand, np.array(instance.must_use.counts, dtype=np.int64))
    rows = candidates.rows._replace(points=np.ascontiguousarray(weights, dtype=np.int64))
    value, indices, exact = partition.best(hand, rows, instance.keep, backend,
                                           candidates.groups, left)
    if value == NEG_INF:
        return None, exact
    minimum = instance.minimum
    if minimum and indices and int(candidates.points[indices].sum()) < minimum:
        # The best lay-down is below the minimum, so every lay-down is: lay nothing.
        if instance.must_use:
            return None, exact
        return [], exact
    return list(indices), exact


def _result(instance, candidates, chosen, optimal, solver, config, seconds) -> LayDown:
    if solver == "kernel":
        backend = partition.best_backend(config.backend, len(instance.hand))
    else:
        backend = partition.resolve_backend(config.backend)  # the catalogue's
    if chosen is None:
        return LayDown(melds=(), left=instance.hand, points=0, optimal=optimal, backend=backend,
                       solver=solver, seconds=seconds, feasible=False)
    chosen = sorted(chosen)
    used = candidates.counts[chosen].sum(axis=0) if chosen else 0
    left = np.array(instance.hand.counts, dtype=np.int64) - used
    melds = []
    extensions = []
    for index in chosen:
        group = int(candidates.groups[index])
        if group < 0:
            melds.append(candidates.meld(index))
        else:
            cards = Hand._trusted(tuple(candidates.counts[index].tolist()))
            extensions.append(Extension(
                table_index=group, cards=cards, meld=instance.table[group] + cards,
                points=int(candidates.points[index]),
            ))
    left_hand = Hand._trusted(tuple(left.tolist()))
    extensions.sort(key=lambda extension: extension.table_index)
    points = sum(meld.points for meld in melds) + sum(e.points for e in extensions)
    return LayDown(
        melds=tuple(melds), left=left_hand, points=points, optimal=optimal, backend=backend,
        extensions=tuple(extensions), solver=solver, seconds=seconds,
        goes_out=len(left_hand) == instance.keep,
    )
