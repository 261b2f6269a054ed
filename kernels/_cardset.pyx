# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled card-set operations; same contract as kernels/cardset_ref.py."""

from libc.stdint cimport uint64_t

cdef enum:
    KIND_COUNT = 53
    JOKER = 52
    RANK_COUNT = 13
    SUIT_COUNT = 4
    SUIT_BITS = 16
    ACE_HIGH_POSITION = 13
    LAYER_COUNT = 3

COMPILED = True


cdef inline uint64_t _kind_bits(int kind):
    cdef int suit_index = kind // RANK_COUNT
    cdef int rank_index = kind % RANK_COUNT
    cdef uint64_t bits = (<uint64_t>1) << (SUIT_BITS * suit_index + rank_index)
    if rank_index == 0:
        bits |= (<uint64_t>1) << (SUIT_BITS * suit_index + ACE_HIGH_POSITION)
    return bits


def counts_to_masks(counts):
    """Return ``(layer0, layer1, layer2, joker_count)`` for a counts vector."""
    cdef uint64_t layers[LAYER_COUNT]
    cdef uint64_t bits
    cdef int kind, layer, count
    layers[0] = 0
    layers[1] = 0
    layers[2] = 0
    for kind in range(JOKER):
        count = counts[kind]
        if count > LAYER_COUNT:
            raise ValueError(f"count {count} of kind {kind} exceeds {LAYER_COUNT}")
        if count <= 0:
            continue
        bits = _kind_bits(kind)
        for layer in range(count):
            layers[layer] |= bits
    return (layers[0], layers[1], layers[2], int(counts[JOKER]))


def masks_to_counts(uint64_t layer0, uint64_t layer1, uint64_t layer2, int joker_count):
    """Inverse of counts_to_masks: a list of 53 counts."""
    cdef list counts = [0] * KIND_COUNT
    cdef int suit_index, rank_index
    cdef uint64_t bit
    for suit_index in range(SUIT_COUNT):
        for rank_index in range(RANK_COUNT):
            bit = (<uint64_t>1) << (SUIT_BITS * suit_index + rank_index)
            counts[suit_index * RANK_COUNT + rank_index] = (
                ((layer0 & bit) != 0) + ((layer1 & bit) != 0) + ((layer2 & bit) != 0)
            )
    counts[JOKER] = joker_count
    return counts


def counts_add(first, second):
    """Multiset sum."""
    cdef int kind
    return [first[kind] + second[kind] for kind in range(KIND_COUNT)]


def counts_subtract(first, second):
    """Multiset difference; None when second is not a subset of first."""
    cdef int kind, value
    cdef list result = [0] * KIND_COUNT
    for kind in range(KIND_COUNT):
        value = first[kind] - second[kind]
        if value < 0:
            return None
        result[kind] = value
    return result


def counts_subset(first, second):
    """True when every count of first is at most the one of second."""
    cdef int kind
    for kind in range(KIND_COUNT):
        if first[kind] > second[kind]:
            return False
    return True


def masks_subset(first, second):
    """Subset on bitboards (l0, l1, l2, jokers)."""
    cdef uint64_t a0 = first[0], a1 = first[1], a2 = first[2]
    cdef uint64_t b0 = second[0], b1 = second[1], b2 = second[2]
    if (a0 & ~b0) or (a1 & ~b1) or (a2 & ~b2):
        return False
    return first[3] <= second[3]


def natural_run_starts(uint64_t layer_mask):
    """Bits where a natural run of length 3 starts, in every suit at once."""
    return layer_mask & (layer_mask >> 1) & (layer_mask >> 2)


def card_total(counts):
    """Number of cards in a counts vector."""
    cdef int kind, total = 0
    for kind in range(KIND_COUNT):
        total += counts[kind]
    return total
