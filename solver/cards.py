"""Cards and hands: the text notation of RULES.md §1 and value types.

At the core a card is its kind id, a small int (see :mod:`kernels.encoding`);
:class:`Card` and :class:`Hand` are the friendly wrappers used at the edges.

>>> Hand.parse("10h 2♠ jk, as")
Hand('AS 2S 10H JK')
>>> str(Card.parse("T♦"))
'10D'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Iterator

from kernels import cardset
from kernels.encoding import JOKER, KIND_COUNT, RANK_COUNT, RANKS, SUITS
from solver.errors import InvalidCardError

SUIT_ALIASES = {
    "S": 0, "♠": 0, "♤": 0,
    "H": 1, "♥": 1, "♡": 1,
    "D": 2, "♦": 2, "♢": 2,
    "C": 3, "♣": 3, "♧": 3,
}
RANK_ALIASES = {name: index for index, name in enumerate(RANKS)}
RANK_ALIASES["T"] = RANK_ALIASES["10"]
JOKER_TOKENS = ("JK", "*", "JOKER")
_SEPARATORS = re.compile(r"[\s,]+")

CardKind = int  # 0..52, see kernels.encoding


def parse_kind(token: str, position: int = 1, text: str | None = None) -> CardKind:
    """Parse one card token into its kind id.

    ``position`` (1-based) and ``text`` only serve the error message.
    """
    upper = token.strip().upper()
    if upper in JOKER_TOKENS:
        return JOKER
    if len(upper) >= 2:
        rank_text, suit_text = upper[:-1], upper[-1]
        if rank_text in RANK_ALIASES and suit_text in SUIT_ALIASES:
            return SUIT_ALIASES[suit_text] * RANK_COUNT + RANK_ALIASES[rank_text]
    where = f" at position {position}"
    if text is not None:
        where += f" in {text!r}"
    raise InvalidCardError(f"invalid card {token!r}{where}")


def format_kind(kind: CardKind) -> str:
    """ASCII text of a kind id: ``'10H'``, ``'JK'``."""
    if kind == JOKER:
        return "JK"
    if not 0 <= kind < JOKER:
        raise InvalidCardError(f"invalid card id {kind!r}")
    suit_index, rank_index = divmod(kind, RANK_COUNT)
    return RANKS[rank_index] + SUITS[suit_index]


def parse_kinds(text: str) -> list[CardKind]:
    """Parse a list of cards separated by spaces or commas, in input order."""
    if not isinstance(text, str):
        raise InvalidCardError(f"expected card text, got {text!r}")
    tokens = [token for token in _SEPARATORS.split(text.strip()) if token]
    return [parse_kind(token, index + 1, text) for index, token in enumerate(tokens)]


def format_kinds(kinds: Iterable[CardKind]) -> str:
    """Space-separated ASCII text of kinds, in the given order."""
    return " ".join(format_kind(kind) for kind in kinds)


@dataclass(frozen=True, order=True)
class Card:
    """One card kind. ``Card.parse('QD').kind == 37``."""

    kind: CardKind

    def __post_init__(self):
        if not isinstance(self.kind, int) or not 0 <= self.kind < KIND_COUNT:
            raise InvalidCardError(f"invalid card id {self.kind!r}")

    @classmethod
    def parse(cls, token: str) -> Card:
        return cls(parse_kind(token, 1, token))

    @property
    def is_joker(self) -> bool:
        return self.kind == JOKER

    @property
    def suit(self) -> str | None:
        return None if self.is_joker else SUITS[self.kind // RANK_COUNT]

    @property
    def rank(self) -> str | None:
        return None if self.is_joker else RANKS[self.kind % RANK_COUNT]

    def __str__(self) -> str:
        return format_kind(self.kind)

    def __repr__(self) -> str:
        return f"Card('{self}')"


def _check_counts(counts) -> tuple[int, ...]:
    values = tuple(map(int, counts))
    if len(values) != KIND_COUNT:
        raise InvalidCardError(f"a counts vector has {KIND_COUNT} entries, got {len(values)}")
    if min(values) < 0:
        raise InvalidCardError(f"negative card count in {values!r}")
    return values


@dataclass(frozen=True)
class Hand:
    """A multiset of cards, stored as 53 counts (one per kind).

    Iteration and ``str`` use the canonical order: suits S H D C, ranks
    A..K inside a suit, jokers last.
    """

    counts: tuple[int, ...]

    def __post_init__(self):
        object.__setattr__(self, "counts", _check_counts(self.counts))

    @classmethod
    def parse(cls, text: str) -> Hand:
        return cls.from_kinds(parse_kinds(text))

    @classmethod
    def from_kinds(cls, kinds: Iterable[CardKind]) -> Hand:
        counts = [0] * KIND_COUNT
        for kind in kinds:
            kind = int(kind)
            if not 0 <= kind < KIND_COUNT:
                raise InvalidCardError(f"invalid card id {kind!r}")
            counts[kind] += 1
        return cls(tuple(counts))

    @classmethod
    def empty(cls) -> Hand:
        return cls((0,) * KIND_COUNT)

    def kinds(self) -> list[CardKind]:
        """Kind ids with repetition, in canonical order."""
        return [kind for kind, count in enumerate(self.counts) for _ in range(count)]

    def __iter__(self) -> Iterator[Card]:
        return (Card(kind) for kind in self.kinds())

    def __len__(self) -> int:
        return sum(self.counts)

    def __bool__(self) -> bool:
        return any(self.counts)

    def count(self, card: Card | CardKind | str) -> int:
        return self.counts[_as_kind(card)]

    def __contains__(self, card) -> bool:
        return self.count(card) > 0

    @classmethod
    def _trusted(cls, counts: tuple[int, ...]) -> Hand:
        """A hand from 53 non-negative Python ints known to be valid (no checks)."""
        hand = object.__new__(cls)
        object.__setattr__(hand, "counts", counts)
        return hand

    def __add__(self, other: Hand) -> Hand:
        return Hand._trusted(tuple(map(int, cardset.counts_add(self.counts, other.counts))))

    def __sub__(self, other: Hand) -> Hand:
        result = cardset.counts_subtract(self.counts, other.counts)
        if result is None:
            raise InvalidCardError(f"cannot remove {other} from {self}: not all cards are there")
        return Hand(tuple(result))

    def issubset(self, other: Hand) -> bool:
        return bool(cardset.counts_subset(self.counts, other.counts))

    __le__ = issubset

    def bitboard(self) -> tuple[int, int, int, int]:
        """``(layer0, layer1, layer2, joker_count)``; see :mod:`kernels.encoding`."""
        return tuple(cardset.counts_to_masks(self.counts))

    @classmethod
    def from_bitboard(cls, bitboard) -> Hand:
        return cls(tuple(cardset.masks_to_counts(*bitboard)))

    def to_list(self) -> list[str]:
        return [format_kind(kind) for kind in self.kinds()]

    def __str__(self) -> str:
        return format_kinds(self.kinds())

    def __repr__(self) -> str:
        return f"Hand('{self}')"


def _as_kind(card) -> CardKind:
    if isinstance(card, Card):
        return card.kind
    if isinstance(card, str):
        return parse_kind(card, 1, card)
    return int(card)


def as_hand(cards) -> Hand:
    """Accept a Hand, card text, or an iterable of kinds/Cards/tokens."""
    if isinstance(cards, Hand):
        return cards
    if isinstance(cards, str):
        return Hand.parse(cards)
    return Hand.from_kinds(_as_kind(card) for card in cards)


def deck_counts(decks: int, jokers: int) -> tuple[int, ...]:
    """Counts vector of a full pack: ``decks`` copies of each suited kind."""
    return (decks,) * JOKER + (jokers,)
