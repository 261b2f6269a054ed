"""The ``venezuelan`` preset (RULES.md §8, seed 000 "Versión venezolana de Biriba"): the
dealer's cut and the wilds at the bottom, 000's base points (a biriba laid whole from the hand
is worth more), the wild-card set that bars wilds, going out with or without a discard,
three players each alone, target 2500. The engine's decisions where 000 is silent are
docs/rules.md D34-D39."""

from collections import Counter

import numpy as np
import pytest

from solver.cards import Hand, parse_kind
from solver.engine import core, invariants
from solver.engine import layout as L
from solver.engine.api import Game
from solver.engine.deal import _bottom_wilds
from solver.engine.positions import position
from tests.test_engine_rules import play, texts

GAME = Game(4, "venezuelan")


def test_8_venezuelan_the_cut_earns_100_exact_and_50_one_card_off():
    """000: "if the dealer cuts exactly, 100 points; one card more or less, 50"; D34: the
    cut misses by -2..2 cards, uniformly."""
    misses = Counter()
    for seed in range(300):
        state = GAME.new_initial_state(seed, dealer=seed % 4)
        off = state.cut
        misses[off] += 1
        bonus = state.array[L.CUT_BONUS:L.CUT_BONUS + 2].tolist()
        expected = {0: 100, 1: 50, -1: 50}.get(off, 0)
        assert bonus[state.team_of(seed % 4)] == expected
        assert bonus[1 - state.team_of(seed % 4)] == 0
    assert set(misses) == {-2, -1, 0, 1, 2}
    assert all(40 <= count <= 80 for count in misses.values())


def test_8_venezuelan_the_cut_bonus_counts_in_the_round_score():
    seed = next(s for s in range(50) if GAME.new_initial_state(s).cut == 0)
    state = GAME.new_initial_state(seed)
    bonus = state.array[L.CUT_BONUS:L.CUT_BONUS + 2].copy()
    state.array[L.MATCH_MODE] = 0
    before = [0, 0]
    core.end_round(state.array, GAME.engine.array, GAME.engine.values, L.STOCK_OUT)
    plain = invariants.recount(state)
    assert state.round_scores() == plain
    state.array[L.CUT_BONUS:L.CUT_BONUS + 2] = 0
    core.end_round(state.array, GAME.engine.array, GAME.engine.values, L.STOCK_OUT)
    assert [a - b for a, b in zip(plain, state.round_scores())] == bonus.tolist() != before


def test_8_venezuelan_the_dealer_takes_the_wilds_among_the_bottom_three_cards():
    """000: the dealer looks at the bottom three cards and takes any wild, until the bottom
    three hold none; they count towards the dealer's 11 cards."""
    cards = ["4C", "5H", "JK", "2C", "7D", "JK", "9S"]     # the last is the bottom card
    deck = np.array([parse_kind(c) for c in cards], dtype=np.int64)
    state = position(GAME, empty_hands=True, hands={})
    total, taken = _bottom_wilds(state.array, GAME.engine.array, deck, len(deck), 0)
    assert taken == 3
    assert state.hand(0) == Hand.parse("JK JK 2C")
    assert [str(Hand.from_kinds([k])) for k in deck[:total]] == ["4C", "5H", "7D", "9S"]
    for seed in range(40):                       # in a deal the dealer still holds 11
        dealt = GAME.new_initial_state(seed, dealer=2)
        assert [len(dealt.hand(seat)) for seat in range(4)] == [11] * 4
        invariants.check(dealt)


def test_8_venezuelan_has_no_trump_and_000s_card_values():
    state = GAME.new_initial_state(5)
    assert state.trump is None and state.phase == "draw"
    values = GAME.engine.values
    assert [int(values[parse_kind(c)]) for c in ("JK", "2H", "AS", "KD", "8C", "7S", "3H")] == \
        [50, 25, 20, 10, 10, 5, 5]
    assert int(GAME.engine.array[L.R_TARGET]) == 2500
    assert int(Game(3, "venezuelan").engine.array[L.R_TARGET]) == 2500


def test_8_venezuelan_a_biriba_laid_whole_from_the_hand_is_worth_more():
    """000: a run or set 300 / 200 laid from the hand, 200 / 100 accumulated (D35: "laid
    whole" is one move of at least seven cards)."""
    run = "4H 5H 6H 7H 8H 9H 10H"                  # 50 points of cards
    whole = position(GAME, empty_hands=True, hands={0: run + " KS QD"}, phase="play")
    play(whole, "lay " + run)
    assert whole.meld_points(0) == [50 + 300]
    grown = position(GAME, empty_hands=True, hands={0: run + " KS QD"}, phase="play")
    play(grown, "lay 4H 5H 6H")
    play(grown, "extend 0 +7H 8H 9H 10H")
    assert grown.meld_points(0) == [50 + 200]
    dirty = position(GAME, empty_hands=True, hands={0: "4H 5H 6H 7H 8H 9H JK KS QD"}, phase="play")
    play(dirty, "lay 4H 5H 6H 7H 8H 9H JK")
    assert dirty.meld_points(0) == [40 + 50 + 200]         # dirty, laid whole: 200


def test_8_venezuelan_aces_and_the_wild_card_biriba():
    """000: aces 500 / 400 laid whole, 400 / 300 accumulated; the wild-card biriba 1000 laid
    whole, 750 accumulated."""
    aces = position(GAME, empty_hands=True, hands={0: "AS AS AH AH AD AD AC KS QD"}, phase="play")
    play(aces, "lay AS AS AH AH AD AD AC")
    assert aces.meld_points(0) == [7 * 20 + 500]
    wilds = position(GAME, empty_hands=True, hands={0: "JK JK JK JK 2S 2H 2D KS QD"}, phase="play")
    play(wilds, "lay 2S 2H 2D JK JK JK JK")
    assert wilds.meld_points(0) == [4 * 50 + 3 * 25 + 1000]
    grown = position(GAME, empty_hands=True, hands={0: "JK 2S 2D KS QD"}, table={0: ["JK JK JK 2H 2C 2C"]},
                     phase="play")
    play(grown, "extend 0 +JK")
    assert grown.meld_points(0) == [4 * 50 + 3 * 25 + 750]


def test_8_venezuelan_an_unfinished_wild_card_set_bars_wilds_from_other_melds():
    """000: "if a group of wilds is played, no wild may be used in any group until the wild
    card biriba is complete"."""
    hand = "4H 5H 2S 9C 9D JK KS QD"
    state = position(GAME, empty_hands=True, hands={0: hand}, table={0: ["JK 2C 2D", "10S JS QS"]},
                     phase="play")
    legal = texts(state)
    assert "extend 0 +JK" in legal and "extend 0 +2S" in legal
    assert not [t for t in legal if t.startswith("lay") and ("JK" in t or "2S" in t)]
    assert "extend 1 +JK" not in legal and "extend 1 +KS" in legal
    done = position(GAME, empty_hands=True, hands={0: hand}, table={0: ["JK JK JK 2C 2D 2H 2H", "10S JS QS"]},
                    phase="play")
    assert "extend 1 +JK" in texts(done)
    assert "lay 9D 9C JK" in texts(done)
    classic = position(Game(4), empty_hands=True, hands={0: hand}, table={0: ["4S 5S 6S"]}, phase="play")
    assert "lay 9D 9C JK" in texts(classic)


def test_7_venezuelan_going_out_without_a_discard_ends_the_round():
    """000: the round ends when a player has used every card, "with or without a discard",
    and has a biriba; +100 for going out."""
    biriba = "3C 4C 5C 6C 7C 8C 9C"
    state = position(GAME, empty_hands=True, hands={0: "KS KH KD", 1: "AS"}, table={0: [biriba]},
                     packet_taken=[0], phase="play")
    assert "lay KS KH KD" in texts(state)
    play(state, "lay KS KH KD")
    assert state.is_terminal() and state.end_reason == "closed"
    assert state.round_scores()[0] == 45 + 200 + 30 + 100
    assert state.round_scores() == invariants.recount(state)
    no_biriba = position(GAME, empty_hands=True, hands={0: "KS KH KD"}, table={0: ["3C 4C 5C"]},
                         packet_taken=[0], phase="play")
    assert "lay KS KH KD" not in texts(no_biriba)
    classic = position(Game(4), empty_hands=True, hands={0: "KS KH KD"}, table={0: [biriba]},
                       packet_taken=[0], phase="play")
    assert "lay KS KH KD" not in texts(classic)     # classic closes with a discard only


def test_7_venezuelan_going_out_with_a_discard_still_closes():
    biriba = "3C 4C 5C 6C 7C 8C 9C"
    state = position(GAME, empty_hands=True, hands={0: "KS KH KD QS", 1: "AS"}, table={0: [biriba]},
                     packet_taken=[0], phase="play")
    play(state, "lay KS KH KD")
    play(state, "discard QS")
    assert state.is_terminal() and state.end_reason == "closed"


def test_4_venezuelan_three_players_play_alone_with_a_packet_each():
    """000: "game without partners (2-3 players)", "the biriba piles, 11 cards for each
    player" (D36)."""
    game = Game(3, "venezuelan")
    state = game.new_initial_state(2)
    assert game.teams == 3
    assert state.array[L.PACKET_N] == 3
    assert state.array[L.PACKET_SIZE:L.PACKET_SIZE + 3].tolist() == [11, 11, 11]
    assert int(state.array[L.STOCK_N]) == 108 - 33 - 33 - 1
    state = position(game, empty_hands=True, hands={1: "4H 5H 6H KS"}, current=1, phase="play")
    play(state, "lay 4H 5H 6H")
    play(state, "discard KS")
    assert state.array[L.PACKET_USED:L.PACKET_USED + 3].tolist() == [0, 1, 0]
    assert [state.team_of(seat) for seat in range(3)] == [0, 1, 2]   # nobody teams up


@pytest.mark.parametrize("players", [2, 3, 4])
def test_8_venezuelan_random_and_greedy_rounds(players):
    from solver.engine.players import GreedyPlayer, RandomPlayer, play as play_round

    game = Game(players, "venezuelan")
    closed = 0
    for seed in range(10):
        seats = [GreedyPlayer() if seat % 2 == 0 else RandomPlayer(seed + seat)
                 for seat in range(players)]
        state = play_round(game.new_initial_state(seed), seats)
        invariants.check(state)
        closed += state.end_reason == "closed"
    assert closed > 0


def test_4_venezuelan_six_players_play_in_three_teams():
    """000 describes 2-3 players alone and 4 in two teams; six players (three decks) play in
    three teams of two as in the other presets (D36)."""
    state = Game(6, "venezuelan").new_initial_state(0)
    assert [len(state.hand(seat)) for seat in range(6)] == [11] * 6
