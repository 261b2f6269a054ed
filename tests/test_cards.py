"""Cards, notation and encodings (RULES.md §1)."""

import pytest
from hypothesis import given

from kernels import cardset, cardset_ref
from kernels.encoding import JOKER, KIND_COUNT, kind_of
from solver.cards import Card, Hand, deck_counts, parse_kind, parse_kinds
from solver.errors import BiribaError, InvalidCardError
from solver.rules import get_rules
from tests.strategies import counts_vectors


@pytest.mark.parametrize(
    "token, expected",
    [
        ("AS", kind_of(0, 0)),
        ("as", kind_of(0, 0)),
        ("10H", kind_of(1, 9)),
        ("TH", kind_of(1, 9)),
        ("th", kind_of(1, 9)),
        ("2C", kind_of(3, 1)),
        ("Q♦", kind_of(2, 11)),
        ("k♣", kind_of(3, 12)),
        ("J♠", kind_of(0, 10)),
        ("7♥", kind_of(1, 6)),
        ("JK", JOKER),
        ("jk", JOKER),
        ("*", JOKER),
    ],
)
def test_s1_notation_parses_every_form(token, expected):
    assert parse_kind(token) == expected


@pytest.mark.parametrize("token", ["1S", "11H", "ZZ", "AX", "A", "10", "KK", "♠", "JKK", ""])
def test_s1_bad_token_is_an_error_naming_it(token):
    with pytest.raises(InvalidCardError, match="invalid card"):
        parse_kinds(f"AS {token}" if token else "AS ,, X")


def test_s1_bad_token_names_token_and_position():
    with pytest.raises(InvalidCardError) as error:
        Hand.parse("AS, KH 5Z QD")
    assert "'5Z'" in str(error.value)
    assert "position 3" in str(error.value)
    assert isinstance(error.value, BiribaError) and isinstance(error.value, ValueError)


def test_s1_separators_spaces_and_commas():
    assert parse_kinds("AS,KH  QD ,JK") == parse_kinds("AS KH QD JK")


def test_s1_output_is_ascii_canonical_order():
    hand = Hand.parse("jk 10♥ 2♠ as kc 3d")
    assert str(hand) == "AS 2S 10H 3D KC JK"
    assert hand.to_list() == ["AS", "2S", "10H", "3D", "KC", "JK"]


def test_card_properties_and_repr():
    card = Card.parse("q♦")
    assert (card.suit, card.rank, str(card), repr(card)) == ("D", "Q", "QD", "Card('QD')")
    assert Card.parse("*").is_joker and Card.parse("JK").suit is None
    with pytest.raises(InvalidCardError):
        Card(53)


def test_hand_multiset_operations():
    hand = Hand.parse("AS AS KH JK")
    assert len(hand) == 4 and hand.count("AS") == 2 and "JK" in hand
    assert Hand.parse("AS JK") <= hand
    assert not Hand.parse("AS AS AS") <= hand
    assert str(hand - Hand.parse("AS")) == "AS KH JK"
    assert str(hand + Hand.parse("2C")) == "AS AS KH 2C JK"
    with pytest.raises(InvalidCardError, match="cannot remove"):
        hand - Hand.parse("QD")


@pytest.mark.parametrize("players, total", [(2, 108), (3, 108), (4, 108), (5, 108), (6, 162)])
def test_s1_deck_sizes(players, total):
    rules = get_rules("classic")
    counts = deck_counts(rules.deck_count(players), rules.joker_count(players))
    assert sum(counts) == total
    assert counts[JOKER] == (6 if players == 6 else 4)


def test_bitboard_ace_is_stored_low_and_high():
    layer0, _, _, jokers = Hand.parse("AH JK").bitboard()
    assert layer0 == (1 << 16) | (1 << 29) and jokers == 1


def test_bitboard_run_detection():
    layer0 = Hand.parse("QS KS AS 4H 5H 6H 7H").bitboard()[0]
    starts = cardset.natural_run_starts(layer0)
    assert starts == (1 << 11) | (1 << (16 + 3)) | (1 << (16 + 4))
    # K-A-2 does not wrap: the guard bits keep suits apart and the ace-high bit is the end.
    assert cardset.natural_run_starts(Hand.parse("KS AS 2S").bitboard()[0]) == 0


@given(counts_vectors())
def test_counts_bitboard_round_trip(counts):
    hand = Hand(tuple(counts))
    assert Hand.from_bitboard(hand.bitboard()) == hand


@given(counts_vectors())
def test_parse_format_round_trip(counts):
    hand = Hand(tuple(counts))
    assert Hand.parse(str(hand)) == hand
    assert Hand.parse(str(hand).lower().replace("10", "t")) == hand


@given(counts_vectors(2, 4), counts_vectors(1, 2))
def test_union_difference_subset(first, second):
    a, b = Hand(tuple(first)), Hand(tuple(second))
    union = a + b
    assert len(union) == len(a) + len(b)
    assert a <= union and b <= union
    assert union - b == a
    assert (b <= a) == all(x <= y for x, y in zip(second, first))
    assert cardset.masks_subset(b.bitboard(), a.bitboard()) == (b <= a)
    assert cardset_ref.masks_subset(b.bitboard(), a.bitboard()) == (b <= a)
    if b <= a:
        assert (a - b) + b == a


@given(counts_vectors(), counts_vectors())
def test_compiled_cardset_agrees_with_reference(first, second):
    assert list(cardset.counts_to_masks(first)) == list(cardset_ref.counts_to_masks(first))
    masks = cardset_ref.counts_to_masks(first)
    assert list(cardset.masks_to_counts(*masks)) == cardset_ref.masks_to_counts(*masks)
    assert list(cardset.counts_add(first, second)) == cardset_ref.counts_add(first, second)
    assert cardset.counts_subtract(first, second) == cardset_ref.counts_subtract(first, second)
    assert cardset.counts_subset(first, second) == cardset_ref.counts_subset(first, second)
    assert cardset.card_total(first) == sum(first)
    for layer in masks[:3]:
        assert cardset.natural_run_starts(layer) == cardset_ref.natural_run_starts(layer)


def test_too_many_copies_for_the_bitboard():
    counts = [0] * KIND_COUNT
    counts[5] = 4
    with pytest.raises(ValueError):
        cardset.counts_to_masks(counts)
