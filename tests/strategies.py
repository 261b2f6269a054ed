"""Hypothesis strategies shared by the tests."""

from hypothesis import strategies as st

from kernels.encoding import JOKER, KIND_COUNT


def counts_vectors(max_copies: int = 3, max_jokers: int = 6):
    """Counts vectors of up to ``max_copies`` decks (53 entries)."""
    return st.tuples(
        *[st.integers(0, max_copies) for _ in range(JOKER)], st.integers(0, max_jokers)
    ).map(list)


def hands_of(size_min: int, size_max: int, decks: int = 2, jokers: int = 4):
    """Counts vectors with a total between size_min and size_max, drawn from a pack."""
    pack = [kind for kind in range(JOKER) for _ in range(decks)] + [JOKER] * jokers

    def build(kinds):
        counts = [0] * KIND_COUNT
        for kind in kinds:
            counts[kind] += 1
        return counts

    return st.lists(
        st.sampled_from(range(len(pack))), min_size=size_min, max_size=size_max, unique=True
    ).map(lambda indices: build(pack[index] for index in indices))
