"""Integer card encoding and the bitboard layout.

Kinds
-----
A *kind* is a card up to its copy number; copies of one kind are
interchangeable (RULES.md §1), so a hand is a vector of 53 counts.

``kind = suit_index * 13 + rank_index`` for suited cards, where
``suit_index`` is 0..3 for S H D C and ``rank_index`` is 0..12 for
A 2 3 4 5 6 7 8 9 10 J Q K.  The joker is kind 52 (``JOKER``).

Counts vector
-------------
``counts``: ``uint8[53]``; ``counts[k]`` is the number of copies of kind
``k`` (0..decks for suited kinds, 0..jokers for the joker).

Bitboard
--------
A hand of up to three decks is also kept as three 64-bit *layer* masks plus
the joker count: bit ``b`` of layer ``j`` is set when the hand holds at
least ``j + 1`` copies of the card at bit ``b``.  Inside a layer each suit
owns 16 bits, ``16 * suit_index + position``:

====================  ==========================================
position 0            ace, read low (A-2-3)
positions 1..12       ranks 2..K (position == rank_index)
position 13           ace again, read high (Q-K-A)
positions 14, 15      always zero: guard bits between suits
====================  ==========================================

The ace is stored twice so that runs are plain bit strings: the natural
run starts of length 3 in a layer are ``m & (m >> 1) & (m >> 2)`` and the
two guard bits stop a run from crossing into the next suit.  Subset,
multiset union (max) and intersection (min) are layer-wise ``&``/``|``.
"""

SUITS = "SHDC"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_COUNT = 4
RANK_COUNT = 13
SUITED_KIND_COUNT = 52
JOKER = 52
KIND_COUNT = 53
MAX_DECKS = 3
LAYER_COUNT = MAX_DECKS
SUIT_BITS = 16
ACE_HIGH_POSITION = 13
SUIT_MASK = (1 << 14) - 1
RANK_INDEX_TWO = 1


def kind_of(suit_index: int, rank_index: int) -> int:
    """Kind id of a suited card."""
    return suit_index * RANK_COUNT + rank_index


def suit_of(kind: int) -> int:
    """Suit index of a suited kind (undefined for the joker)."""
    return kind // RANK_COUNT


def rank_of(kind: int) -> int:
    """Rank index of a suited kind (undefined for the joker)."""
    return kind % RANK_COUNT


def bit_positions(kind: int) -> tuple[int, ...]:
    """Bit indices a suited kind occupies in a layer (two for an ace)."""
    suit_index, rank_index = divmod(kind, RANK_COUNT)
    base = SUIT_BITS * suit_index
    if rank_index == 0:
        return (base, base + ACE_HIGH_POSITION)
    return (base + rank_index,)
