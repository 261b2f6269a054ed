"""Fixed seeded hand sets shared by the partition benchmarks and the report."""

import random

import numpy as np

from kernels.encoding import JOKER, KIND_COUNT

PACK = [kind for kind in range(JOKER) for _ in range(2)] + [JOKER] * 4
SET_SIZES = (11, 16, 22, 30)
HANDS_PER_SET = 20


def hand_set(size: int, count: int = HANDS_PER_SET, seed: int = 2026) -> list[np.ndarray]:
    """``count`` random hands of ``size`` cards from a 108-card pack (seed fixed per size)."""
    rng = random.Random(seed * 100 + size)
    hands = []
    for _ in range(count):
        counts = np.zeros(KIND_COUNT, dtype=np.int64)
        for kind in rng.sample(PACK, size):
            counts[kind] += 1
        hands.append(counts)
    return hands
