"""The meld key (kernels.params KEY_*): one layout, its inverse, and its version.

Action ids embed the key and records store action ids (rules §2: a meld is its
multiset, so the key names the multiset).
"""

import numpy as np
from hypothesis import given, settings

from kernels import partition, partition_numba, partition_ref
from kernels.params import KEY_VERSION
from solver.engine import records
from solver.rules import get_rules
from solver.values import rule_params
from tests.strategies import hands_of


@settings(derandomize=True, max_examples=150, deadline=None)
@given(hand=hands_of(3, 16))
def test_every_catalogue_meld_round_trips_through_its_key(hand):
    params = rule_params(get_rules("classic"), None)
    counts = np.array(hand, dtype=np.int64)
    table = partition.catalogue(counts, params, backend="python")
    out = np.empty(53, dtype=np.int64)
    for key, row in zip(table.keys.tolist(), table.counts.tolist()):
        assert partition_ref.meld_key(row) == key
        assert partition_numba.meld_key(np.array(row, dtype=np.int64)) == key
        assert partition_ref.key_counts(key) == row
        partition_numba.key_counts(key, out)
        assert out.tolist() == row
    compiled = partition.catalogue(counts, params, backend="cython")
    assert compiled.keys.tolist() == table.keys.tolist()


def test_a_key_no_meld_has_decodes_to_nothing_past_the_wilds():
    made_up = (2 << 40) | (15 << 11)          # a set of "rank 15"
    assert sum(partition_ref.key_counts(made_up)) == 0
    out = np.empty(53, dtype=np.int64)
    partition_numba.key_counts(made_up, out)
    assert out.sum() == 0


def test_the_key_layout_is_pinned_to_its_version():
    """Change the layout, and this fails: bump KEY_VERSION (the records' version) too."""
    def key(cards):
        from solver.cards import Hand

        return partition_ref.meld_key(list(Hand.parse(cards).counts))

    pinned = {"3S 4S 5S": 1099511742464, "KH KD KC": 2199026032640, "AS 2S 3S": 1099511652360,
              "JK 7H 8H": 1099512416257}
    assert KEY_VERSION == 1 and records.VERSION == KEY_VERSION
    assert {cards: key(cards) for cards in pinned} == pinned
