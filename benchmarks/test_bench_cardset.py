"""Card-set operations: Cython extension against the pure-Python reference."""

import random

import pytest

from kernels import _cardset, cardset_ref
from kernels.encoding import JOKER, KIND_COUNT

BACKENDS = {"python": cardset_ref, "cython": _cardset}


def _random_hands(seed, count=200, size=16):
    rng = random.Random(seed)
    pack = [kind for kind in range(JOKER) for _ in range(2)] + [JOKER] * 4
    hands = []
    for _ in range(count):
        counts = [0] * KIND_COUNT
        for kind in rng.sample(pack, size):
            counts[kind] += 1
        hands.append(counts)
    return hands


HANDS = _random_hands(2026)


@pytest.mark.parametrize("backend", list(BACKENDS))
def test_counts_to_masks(benchmark, backend):
    module = BACKENDS[backend]
    benchmark.group = "cardset: counts_to_masks x200"
    result = benchmark(lambda: [module.counts_to_masks(hand) for hand in HANDS])
    assert len(result) == len(HANDS)


@pytest.mark.parametrize("backend", list(BACKENDS))
def test_subset(benchmark, backend):
    module = BACKENDS[backend]
    benchmark.group = "cardset: counts_subset x200"
    pairs = list(zip(HANDS, HANDS[1:] + HANDS[:1]))
    result = benchmark(lambda: [module.counts_subset(a, b) for a, b in pairs])
    assert len(result) == len(pairs)
