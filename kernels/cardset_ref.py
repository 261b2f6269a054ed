"""Pure-Python reference of the card-set operations (the executable spec).

The compiled module :mod:`kernels._cardset` implements the same functions
and is tested against these on random inputs.  Counts are any sequence of
53 small non-negative ints (see :mod:`kernels.encoding`).
"""

from kernels.encoding import (
    ACE_HIGH_POSITION,
    JOKER,
    KIND_COUNT,
    LAYER_COUNT,
    RANK_COUNT,
    SUIT_BITS,
    SUIT_COUNT,
)
from kernels.errors import KernelInputError


def counts_to_masks(counts):
    """Return ``(layer0, layer1, layer2, joker_count)`` for a counts vector."""
    layers = [0] * LAYER_COUNT
    for kind in range(JOKER):
        count = counts[kind]
        if count > LAYER_COUNT:
            raise KernelInputError(f"count {count} of kind {kind} exceeds {LAYER_COUNT}")
        suit_index, rank_index = divmod(kind, RANK_COUNT)
        bits = 1 << (SUIT_BITS * suit_index + rank_index)
        if rank_index == 0:
            bits |= 1 << (SUIT_BITS * suit_index + ACE_HIGH_POSITION)
        for layer in range(count):
            layers[layer] |= bits
    return (layers[0], layers[1], layers[2], int(counts[JOKER]))


def masks_to_counts(layer0, layer1, layer2, joker_count):
    """Inverse of :func:`counts_to_masks`: a list of 53 counts."""
    counts = [0] * KIND_COUNT
    for suit_index in range(SUIT_COUNT):
        for rank_index in range(RANK_COUNT):
            bit = 1 << (SUIT_BITS * suit_index + rank_index)
            counts[suit_index * RANK_COUNT + rank_index] = (
                bool(layer0 & bit) + bool(layer1 & bit) + bool(layer2 & bit)
            )
    counts[JOKER] = joker_count
    return counts


def counts_add(first, second):
    """Multiset sum."""
    return [a + b for a, b in zip(first, second)]


def counts_subtract(first, second):
    """Multiset difference ``first - second``; ``None`` when second is not a subset."""
    result = [a - b for a, b in zip(first, second)]
    if min(result) < 0:
        return None
    return result


def counts_subset(first, second):
    """True when every count of ``first`` is at most the one of ``second``."""
    return all(a <= b for a, b in zip(first, second))


def masks_subset(first, second):
    """Subset on bitboards: ``first`` and ``second`` are (l0, l1, l2, jokers)."""
    for layer in range(LAYER_COUNT):
        if first[layer] & ~second[layer]:
            return False
    return first[LAYER_COUNT] <= second[LAYER_COUNT]


def natural_run_starts(layer_mask):
    """Bits where a natural run of length 3 starts, in every suit at once."""
    return layer_mask & (layer_mask >> 1) & (layer_mask >> 2)


def card_total(counts):
    """Number of cards in a counts vector."""
    return sum(counts)
