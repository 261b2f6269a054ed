"""The ``threes`` preset (RULES.md §8, seed 003 "Μπιρίμπα με τριάρια"): red threes out of
play and scored, black threes freeze the pile, a meld of one's own before extending a
partner's, vulnerability from 2005 and 3005 (§6), target 5005 (§7). The engine's decisions
where 003 is silent are docs/rules.md D30-D33."""

import numpy as np
import pytest

from solver.cards import Hand
from solver.engine import core, invariants
from solver.engine import layout as L
from solver.engine.api import Game
from solver.engine.positions import position
from solver.errors import ImpossiblePositionError
from tests.test_engine_rules import play, texts

GAME = Game(4, "threes")
RED = {"3H", "3D"}


def test_8_threes_red_threes_are_never_in_a_dealt_hand_and_each_is_replaced():
    """003: a red three dealt is laid face up at once; D30: a card is drawn for it."""
    replaced = 0
    for seed in range(60):
        state = GAME.new_initial_state(seed)
        invariants.check(state)
        for seat in range(4):
            assert len(state.hand(seat)) == 11
            assert not RED & set(str(state.hand(seat)).split())
        faced = sum(len(state.red_threes(team)) for team in range(2))
        replaced += faced
        assert int(state.array[L.STOCK_N]) == 108 - 44 - 22 - 1 - faced
        assert state.pile()[0] not in L.RED_THREE_KINDS      # D30: a turned one is buried
    assert replaced > 0


def test_8_threes_a_drawn_red_three_is_laid_face_up_and_the_player_draws_again():
    state = position(GAME, empty_hands=True, hands={0: "4H 9S KD"}, stock="9C 3D 3H", phase="draw")
    play(state, "draw")
    assert state.red_threes(0) == Hand.parse("3H 3D")
    assert state.hand(0) == Hand.parse("4H 9S KD 9C")


def test_8_threes_a_red_three_in_the_packet_is_laid_face_up():
    state = position(GAME, empty_hands=True, hands={0: "4H 5H 6H KS"}, packets=["3H 7C 8C", "9C 10C JC"],
                     phase="play")
    play(state, "lay 4H 5H 6H")
    play(state, "discard KS")                      # the last card: the packet is taken
    assert state.red_threes(0) == Hand.parse("3H")
    assert state.hand(0) == Hand.parse("7C 8C")


def _closing(red_threes, table):
    state = position(GAME, empty_hands=True, hands={0: "KS KH KD QS", 1: "AS"}, table={0: table},
                     packet_taken=[0], red_threes={0: red_threes}, phase="play")
    play(state, "lay KS KH KD")
    play(state, "discard QS")
    assert state.is_terminal() and state.end_reason == "closed"
    assert state.round_scores() == invariants.recount(state)
    return state.round_scores()[0]


def test_8_threes_red_threes_count_as_the_best_biriba_each():
    """003's example: three red threes, a clean and a dirty run biriba: 3 x 200 + 200 + 100
    (and 5 each as cards)."""
    clean = "3C 4C 5C 6C 7C 8C 9C"              # 45 points + 200
    dirty = "4S 5S 6S JK 8S 9S 10S"             # 65 points (the joker 20) + 100
    without = _closing("", [clean, dirty])
    assert without == 45 + 200 + 65 + 100 + 30 + 100
    with_three = _closing("3H 3D 3H", [clean, dirty])
    assert with_three - without == 3 * 200 + 3 * 5


def test_8_threes_red_threes_without_a_biriba_cost_100_each():
    state = position(GAME, empty_hands=True, hands={0: "4H", 1: "KS"}, table={0: ["9C 10C JC"]},
                     red_threes={0: "3H 3D"}, packet_taken=[1], phase="draw", current=1)
    state.array[L.MATCH_MODE] = 0
    core.end_round(state.array, GAME.engine.array, GAME.engine.values, L.STOCK_OUT)
    # 003: "2 red threes and no packet: -200 - 100 = -300", here with a meld and a card
    assert state.round_scores()[0] == 30 - 5 - 100 - 2 * 100
    assert state.round_scores() == invariants.recount(state)


def test_8_threes_red_threes_stay_out_of_hands_in_positions():
    with pytest.raises(ImpossiblePositionError, match="red threes are out of play"):
        position(GAME, empty_hands=True, hands={0: "3H 4H 5H"})


def test_8_threes_the_player_after_a_black_three_may_not_take_the_pile():
    state = position(GAME, empty_hands=True, hands={0: "QS QD 9S"}, pile="5C 6C QC 3S", phase="draw")
    assert texts(state) == ["draw"]
    classic = position(Game(4), empty_hands=True, hands={0: "QS QD 9S"}, pile="5C 6C QC 3S", phase="draw")
    assert "pile" in texts(classic)


def test_8_threes_a_buried_black_three_lets_the_pile_go_only_with_a_new_clean_meld():
    state = position(GAME, empty_hands=True, hands={0: "QS QD JK 9S 10C JC"}, table={0: ["9H 10H JH"]},
                     pile="5C 3C 6C QC", phase="draw")
    assert sorted(texts(state)) == ["draw", "pile with 10C JC QC", "pile with QS QD QC"]
    play(state, "pile with 10C JC QC")
    assert state.table(0)[-1] == Hand.parse("10C JC QC")
    assert state.hand(0) == Hand.parse("QS QD JK 9S 5C 3C 6C")     # the rest of the pile
    assert state.pile() == []
    assert "extend 1 +JK" in texts(state) or any("JK" in t for t in texts(state))


def test_8_threes_the_frozen_pile_refuses_a_wild_and_a_table_meld():
    wild = position(GAME, empty_hands=True, hands={0: "QS JK 9S"}, pile="5C 3C 6C QC", phase="draw")
    assert texts(wild) == ["draw"]                 # QS JK QC is not clean
    table = position(GAME, empty_hands=True, hands={0: "4H 9S KD"}, table={0: ["9C 10C JC"]},
                     pile="5C 3C 6C QC", phase="draw")
    assert texts(table) == ["draw"]                # QC fits the table run, not a new meld
    own_two = position(GAME, empty_hands=True, hands={0: "AC 9S KD"}, pile="5C 3C 6C 2C", phase="draw")
    assert "pile with AC 2C 3C" not in texts(own_two)     # the 3C lies in the pile
    in_place = position(GAME, empty_hands=True, hands={0: "AS 3S 9D"}, pile="3C 6C 2S", phase="draw")
    assert "pile with AS 2S 3S" in texts(in_place)  # an own-suit 2 in place is natural


def test_8_threes_a_player_needs_a_meld_of_their_own_to_extend_a_partners():
    state = position(GAME, empty_hands=True, hands={2: "8H 9H KS 4C 5C 6C QD"}, table={0: ["5H 6H 7H"]},
                     own_melds=[0], current=2, phase="play")
    assert not [t for t in texts(state) if t.startswith("extend")]
    play(state, "lay 4C 5C 6C")
    assert "extend 0 +8H 9H" in texts(state)
    classic = position(Game(4), empty_hands=True, hands={2: "8H 9H KS"}, table={0: ["5H 6H 7H"]},
                       own_melds=[0], current=2, phase="play")
    assert "extend 0 +8H 9H" in texts(classic)


@pytest.mark.parametrize("score, minimum", [(2004, 0), (2005, 75), (3004, 75), (3005, 95)])
def test_6_threes_vulnerability_from_2005_and_3005(score, minimum):
    state = position(GAME, empty_hands=True, hands={0: "4S 5S 6S"}, match_scores=[score, 0], phase="play")
    assert int(state.array[L.MINIMUM]) == minimum
    assert bool(state.array[L.NEEDS_BIRIBA]) == (score >= 3005)


def test_6_threes_from_3005_a_biriba_before_the_packet_keeps_a_card():
    hand = "4S 5S 6S 7S 8S 9S KD KH KC"            # 45 + 30: the minimum 95 is not there
    free = position(GAME, empty_hands=True, hands={0: hand + " 10S"}, match_scores=[3005, 0], opened=[0],
                    phase="play")
    assert "lay 4S 5S 6S 7S 8S 9S 10S" in texts(free)   # a biriba: the packet opens
    state = position(GAME, empty_hands=True, hands={0: "4S 5S 6S KD KH KC QS"}, match_scores=[3005, 0],
                     opened=[0], table={0: ["9C 10C JC"]}, phase="play")
    play(state, "lay 4S 5S 6S")
    assert "lay KH KD KC" not in texts(state)      # QS would be a last card with no packet
    assert "discard QS" in texts(state)
    low = position(GAME, empty_hands=True, hands={0: "4S 5S 6S KD KH KC QS"}, match_scores=[3004, 0],
                   opened=[0], table={0: ["9C 10C JC"]}, phase="play")
    play(low, "lay 4S 5S 6S")
    play(low, "lay KH KD KC")
    assert "discard QS" in texts(low)              # below 3005 the last card takes the packet


def test_6_threes_a_vulnerable_frozen_pickup_needs_the_minimum_from_hand_and_top():
    """003: "take only the top card, open 75 from the hand (with the card taken), then take
    the rest": D31, the minimum must be reachable with melds of the hand and the top card."""
    pile = "KS KH KD 3C 6C QC"
    poor = position(GAME, empty_hands=True, hands={0: "QS QD 9S"}, pile=pile, match_scores=[2005, 0],
                    phase="draw")
    assert texts(poor) == ["draw"]                 # 30 points; the kings in the pile do not count
    rich = position(GAME, empty_hands=True, hands={0: "QS QD AS AH AD 9S"}, pile=pile,
                    match_scores=[2005, 0], phase="draw")
    assert "pile with QS QD QC" in texts(rich)     # 30 + 45 = 75


def test_7_threes_target_is_5005():
    assert int(GAME.engine.array[L.R_TARGET]) == 5005
    assert int(Game(2, "threes").engine.array[L.R_TARGET]) == 5005


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_8_threes_random_rounds_use_every_rule(players):
    """Red threes faced, frozen piles taken, in random and greedy rounds at every table."""
    from solver.engine.players import GreedyPlayer, RandomPlayer, play as play_round

    game = Game(players, "threes")
    frozen = faced = 0
    for seed in range(12):
        seats = [GreedyPlayer() if seat % 2 else RandomPlayer(seed + seat)
                 for seat in range(players)]
        state = play_round(game.new_initial_state(seed), seats)
        invariants.check(state)
        faced += sum(len(state.red_threes(team)) for team in range(game.teams))
        frozen += sum(1 for action in state.history
                      if action >> L.TYPE_SHIFT == L.ACTION_PILE
                      and (action >> L.TARGET_SHIFT) & L.TARGET_MASK == 1)
    assert faced > 0
    assert np.isfinite(frozen)
