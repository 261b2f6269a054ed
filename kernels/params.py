"""Rule parameters as plain numbers, shared by every kernel backend.

``solver.laydown.rule_params`` builds a :class:`RuleParams` from a rule set
and a trump; the kernels never see a ``RuleSet``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kernels.encoding import JOKER, RANK_COUNT

SHAPE_RUN = 0
SHAPE_SET = 1
SHAPE_WILD_SET = 2
SHAPE_NAMES = ("run", "set", "set")
TWO_KINDS = tuple(suit * RANK_COUNT + 1 for suit in range(4))
MAX_SET_SIZE = 48          # longest set the bonus table covers (3 decks + 6 jokers fit)
NEG_INF = -(1 << 60)       # "no lay-down leaves enough cards"
PRICED_CARDS = 20          # from this many cards numba's best() bounds by linear-programme prices
NO_LIMIT = 99

# The meld key (kernels.partition_ref.meld_key, its numba and Cython twins, and the inverse
# kernels.laydown.melds.key_counts): bits 0-2 jokers, then 2 bits of 2s per suit from
# KEY_TWO_SHIFT; the other cards from KEY_BODY_SHIFT (KEY_BODY_BITS wide: a run's
# ``suit | rank_mask << 2``, a set's ``rank | per-suit counts << 4``); the shape tag at
# KEY_TAG_SHIFT. Action ids embed the key and records store action ids, so a change of
# layout must bump KEY_VERSION, which is the records' version (tests pin a few keys).
KEY_VERSION = 1
KEY_JOKER_MASK = 7
KEY_TWO_SHIFT = 3
KEY_BODY_SHIFT = 11
KEY_BODY_BITS = 29
KEY_TAG_SHIFT = 40
KEY_TAG_RUN = 1
KEY_TAG_SET = 2
# Most memo entries of one compiled first-card best() call: its worst case is exponential
# (docs/partition-design.md), so past this it stops and says its answer is not exact.
# About 0.4-1 s on 45 cards + 10 table melds (benchmarks/README.md, "Bounded time").
STATE_BUDGET = 1 << 19
# Most memo entries of one compiled count() call: a hand whose lay-downs need more (45
# cards of runs take minutes and gigabytes) is refused (kernels.errors.CountBudgetError):
# 32 cards of runs count exactly within it; 45 are refused in 1.5 s (Cython), 9 s (numba).
COUNT_BUDGET = 1 << 20
# Largest hand the python backend takes (the exponential reference: 26 cards of runs take
# 3-4 s to count or solve, 28 or 30 cards more than a minute).
PYTHON_MAX_CARDS = 26


class RuleParams(NamedTuple):
    """Legality switches and bonus tables of one rule set with one trump.

    ``values``: int64[53], card value per kind.
    ``run_bonus``: int64[4, 2, 14], bonus of a run by suit, clean (1) or
    dirty (0), and length (the trump and full-run bonuses are folded in).
    ``set_bonus``: int64[14, 2, MAX_SET_SIZE + 1], bonus of a set by rank
    (13: a set of wilds only), clean, and size.
    """

    wild_twos: int
    max_wilds: int             # NO_LIMIT when the preset has no fixed cap
    naturals_per_wild: int     # 0 when there is no ratio rule
    min_size: int
    set_rank_mask: int         # bit r: sets of rank index r are allowed
    wild_sets: int
    values: np.ndarray
    run_bonus: np.ndarray
    set_bonus: np.ndarray

    def scalars(self) -> np.ndarray:
        """The six switches as int64[RULE_COUNT], in field order (for compiled kernels,
        which read them by the RULE_* positions below)."""
        return np.array(self[:RULE_COUNT], dtype=np.int64)


# the positions of RuleParams.scalars() (its first fields), as compiled kernels read them
RULE_WILD_TWOS = RuleParams._fields.index("wild_twos")          # 1: the 2s are wild
RULE_MAX_WILDS = RuleParams._fields.index("max_wilds")          # most wilds in one meld
RULE_NATURALS_PER_WILD = RuleParams._fields.index("naturals_per_wild")  # 0: no ratio rule
RULE_MIN_SIZE = RuleParams._fields.index("min_size")            # fewest cards of a meld
RULE_SET_RANKS = RuleParams._fields.index("set_rank_mask")      # bit r: sets of rank r
RULE_WILD_SETS = RuleParams._fields.index("wild_sets")          # 1: sets of wilds only
RULE_COUNT = 6


def decision_order() -> list[int]:
    """Kinds in the order the partition programme decides them.

    Rank by rank (3, 4, ..., K, then A; the four suits inside a rank), then
    the 2s, then the joker. Rank-major keeps sets local and a run reaches only
    a few ranks ahead, so the remaining hands the programme meets differ in
    few cards; the ace goes last because it ends runs at both ends. Measured
    on 30-card hands, this order meets 5-40 times fewer states than the
    suit-major kind order.
    """
    ranks = list(range(2, RANK_COUNT)) + [0]
    naturals = [suit * RANK_COUNT + rank for rank in ranks for suit in range(4)]
    return naturals + list(TWO_KINDS) + [JOKER]
