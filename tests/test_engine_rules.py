"""The engine's rules, one scenario per clause of RULES.md §4-7."""

import numpy as np
import pytest

from solver.cards import Hand, parse_kind
from solver.engine import invariants
from solver.engine import layout as L
from solver.engine.api import Game
from solver.engine.positions import position
from solver.errors import IllegalMoveError


def texts(state):
    return [state.action_to_string(a) for a in state.legal_actions()]


def play(state, text):
    """Apply the legal action whose text is ``text``."""
    for action in state.legal_actions():
        if state.action_to_string(action) == text:
            state.apply_action(action)
            invariants.check(state)
            return
    raise AssertionError(f"{text!r} is not legal; legal: {texts(state)}")


def hand(cards):
    return Hand.parse(cards)


# --- §4 set-up and turn order ----------------------------------------------------------------


@pytest.mark.parametrize("players, packets, stock", [
    (2, [11, 11], 108 - 22 - 22 - 1),
    (3, [18, 11], 108 - 33 - 29 - 1),
    (4, [11, 11], 108 - 44 - 22 - 1),
    (6, [11, 11, 11], 162 - 66 - 33 - 1),
])
def test_4_deal_hands_packets_and_stock(players, packets, stock):
    state = Game(players, "classic").new_initial_state(seed=3)
    array = state.array
    assert [len(state.hand(seat)) for seat in range(players)] == [11] * players
    assert array[L.PACKET_SIZE:L.PACKET_SIZE + len(packets)].tolist() == packets
    assert len(state.pile()) == 1
    assert int(array[L.STOCK_N]) == stock
    total = invariants.card_locations(state).sum()
    assert total == (162 if players == 6 else 108)


def test_4_the_player_after_the_dealer_starts_and_the_deal_rotates():
    game = Game(4, "classic", match=True)
    state = game.new_initial_state(seed=1, dealer=2)
    assert state.current_player() == 3
    assert state.team_of(0) == state.team_of(2) != state.team_of(1) == state.team_of(3)


def test_4_trump_is_the_turned_cards_suit():
    for seed in range(20):
        state = Game(4, "classic").new_initial_state(seed)
        top = state.pile()[0]
        if top != L.JOKER:
            assert state.trump == "SHDC"[top // 13]
            assert state.phase == "draw"


def test_4_a_turned_joker_lets_the_first_player_choose_the_trump_or_none():
    seeds = [s for s in range(400) if Game(4).new_initial_state(s).pile() == [L.JOKER]]
    assert seeds, "no deal turned a joker"
    state = Game(4).new_initial_state(seeds[0])
    assert state.phase == "choose_trump"
    assert texts(state) == ["trump S", "trump H", "trump D", "trump C", "trump none"]
    play(state, "trump none")
    assert state.trump is None and state.phase == "draw"


def test_4_partnership_buries_a_turned_wild_and_has_no_trump():
    for seed in range(60):
        state = Game(4, "partnership").new_initial_state(seed)
        top = state.pile()[0]
        assert top != L.JOKER and top % 13 != 1
        assert state.trump is None


def test_4_barimba_turns_no_card():
    state = Game(4, "barimba").new_initial_state(5)
    assert state.pile() == [] and state.trump is None
    assert texts(state) == ["draw"]


# --- §5 a turn ---------------------------------------------------------------------------------


def test_5_1_draw_from_the_stock_or_take_the_whole_pile():
    state = position(Game(4), empty_hands=True, hands={0: "4H 9S KD"}, pile="5C 6C 7C", phase="draw")
    assert texts(state) == ["draw", "pile"]
    play(state, "pile")
    assert state.hand(0) == hand("4H 9S KD 5C 6C 7C")
    assert state.pile() == [] and state.known(0) == hand("5C 6C 7C")


def test_5_1_one_card_pile_may_not_be_discarded_the_same_turn():
    state = position(Game(4), empty_hands=True, hands={0: "4H 9S KD"}, pile="QC", phase="draw")
    play(state, "pile")
    assert "discard QC" not in texts(state)
    with pytest.raises(IllegalMoveError, match="one-card pile"):
        state.apply_action(next(a for a in _all_discards(state) if "QC" in
                                state.action_to_string(a)))


def _all_discards(state):
    from solver.engine.core import encode

    return [encode(L.ACTION_DISCARD, 0, kind) for kind in range(53)]


def test_5_1_one_card_in_hand_may_take_a_one_card_pile():
    """§5.1 allows the pile; §7 forbids only the closing sequence (below)."""
    state = position(Game(4), empty_hands=True, hands={0: "4H"}, pile="QC", phase="draw")
    assert texts(state) == ["draw", "pile"]
    play(state, "pile")
    assert "discard 4H" in texts(state) and "discard QC" not in texts(state)


def test_7_one_card_pile_taken_with_one_card_may_not_meld_and_close():
    """000 (RULES.md §7): take a one-card pile holding one card, meld, discard to close: no."""
    table = {0: ["5C 6C 7C 2S 9C 10C JC"]}        # a biriba: the team may close
    drawn = position(Game(4), empty_hands=True, hands={0: "4H QC"}, table=table, phase="play",
                     packet_taken=(0,))
    extend = next(t for t in texts(drawn) if t.startswith("extend") and "QC" in t)
    play(drawn, extend)                           # control: after a draw, closing is fine
    play(drawn, "discard 4H")
    assert drawn.is_terminal() and drawn.end_reason == "closed"

    state = position(Game(4), empty_hands=True, hands={0: "4H"}, pile="QC", table=table, phase="draw",
                     packet_taken=(0,))
    play(state, "pile")
    assert not any(t.startswith("extend") and "QC" in t for t in texts(state))
    play(state, "discard 4H")                     # keeping QC does not close
    assert not state.is_terminal() and state.hand(0) == hand("QC")


def test_7_one_card_pile_taken_with_one_card_may_still_meld_into_the_packet():
    """Not closing: the last card's discard takes the team's untouched packet (§5.4)."""
    table = {0: ["9C 10C JC"]}
    state = position(Game(4), empty_hands=True, hands={0: "4H"}, pile="QC", table=table, phase="draw")
    play(state, "pile")
    extend = next(t for t in texts(state) if t.startswith("extend") and "QC" in t)
    play(state, extend)
    assert "discard 4H" in texts(state)
    play(state, "discard 4H")
    assert not state.is_terminal() and len(state.hand(0)) == 11


def test_5_1_partnership_pile_needs_the_top_card_to_fit():
    game = Game(4, "partnership")
    blocked = position(game, empty_hands=True, hands={0: "4H 9S KD"}, pile="5C 6C QC", phase="draw")
    assert texts(blocked) == ["draw"]
    with_pair = position(game, empty_hands=True, hands={0: "QS QD 9S"}, pile="5C 6C QC", phase="draw")
    assert "pile" in texts(with_pair)
    extends = position(game, empty_hands=True, hands={0: "4H 9S KD"}, table={0: ["9C 10C JC"]},
                       pile="5C 6C QC", phase="draw")
    assert "pile" in texts(extends)
    wild_pair = position(game, empty_hands=True, hands={0: "QS JK 9S"}, pile="5C 6C QC", phase="draw")
    assert "pile" not in texts(wild_pair)      # two *natural* cards from hand


def test_5_1_barimba_pile_top_must_be_melded_this_turn():
    game = Game(4, "barimba")
    state = position(game, empty_hands=True, hands={0: "QS QD 4H 9S"}, pile="5C 6C QC", phase="draw")
    play(state, "pile")
    assert not [t for t in texts(state) if t.startswith("discard")]
    assert all("QC" in t for t in texts(state))
    play(state, "lay QS QD QC")
    assert "discard 9S" in texts(state)
    unusable = position(game, empty_hands=True, hands={0: "4H 9S KD"}, pile="5C 6C QC", phase="draw")
    assert texts(unusable) == ["draw"]


def test_5_1_greek_option_pile_top_must_meld():
    game = Game(4, "greek", "pile_top_must_meld")
    state = position(game, empty_hands=True, hands={0: "4H 9S KD"}, pile="5C 6C QC", phase="draw")
    assert texts(state) == ["draw"]
    assert "pile" in texts(position(Game(4, "greek"), empty_hands=True, hands={0: "4H 9S KD"},
                                    pile="5C 6C QC", phase="draw"))


def test_5_2_lay_new_melds_and_extend_a_partners_meld():
    state = position(Game(4), empty_hands=True, hands={0: "8H 9H KS 3C 3D 3S"},
                     table={0: ["5H 6H 7H"]}, phase="play")
    assert "lay 3S 3D 3C" in texts(state)
    assert "extend 0 +8H 9H" in texts(state)
    play(state, "extend 0 +8H 9H")
    assert state.table(0) == [hand("5H 6H 7H 8H 9H")]
    assert "discard KS" in texts(state)


def test_5_2_the_wild_moves_to_an_end_when_its_rank_comes():
    state = position(Game(4), empty_hands=True, hands={0: "6H KS QS"}, table={0: ["4H 5H 2C 7H"]}, phase="play")
    play(state, "extend 0 +6H")
    assert state.table(0) == [hand("4H 5H 6H 7H 2C")]
    assert state.meld_points(0) == [5 * 4 + 10]


def test_5_2_an_own_suit_two_falls_into_place_and_the_run_turns_clean():
    state = position(Game(4), empty_hands=True, hands={0: "3H KS QS"}, table={0: ["2H 4H 5H 6H"]}, phase="play")
    assert state.array[L.MELD_INFO + 2] == 0    # dirty: the 2H stands for the 3H
    play(state, "extend 0 +3H")
    info = state.array[L.MELD_INFO:L.MELD_INFO + L.INFO]
    assert info[2] == 1    # clean


def test_5_3_the_discard_ends_the_turn():
    state = position(Game(4), empty_hands=True, hands={0: "4H 9S KD", 1: "5S"}, phase="play")
    play(state, "discard KD")
    assert state.current_player() == 1 and state.phase == "draw"
    assert state.pile()[-1] == parse_kind("KD")


def test_5_4_emptying_the_hand_without_a_discard_takes_the_packet_and_play_goes_on():
    state = position(Game(4), empty_hands=True, hands={0: "4H 5H 6H"}, table={0: ["9C 10C JC"]}, phase="play")
    packet = state.array[L.PACKETS:L.PACKETS + L.KINDS].copy()
    play(state, "lay 4H 5H 6H")
    assert state.current_player() == 0 and state.phase == "play"
    assert np.array_equal(state.array[L.HANDS:L.HANDS + L.KINDS], packet)
    assert state.array[L.PACKET_TAKEN] == 1 and state.array[L.FRESH] == 1


def test_5_4_discarding_the_last_card_takes_the_packet_and_ends_the_turn():
    state = position(Game(4), empty_hands=True, hands={0: "4H 5H 6H KS"}, phase="play")
    play(state, "lay 4H 5H 6H")
    play(state, "discard KS")
    assert len(state.hand(0)) == 11 and state.current_player() == 1
    assert state.array[L.PACKET_TAKEN + 0] == 1


def test_5_4_one_packet_per_team():
    state = position(Game(4), empty_hands=True, hands={0: "4H 5H 6H KS"}, table={0: ["9C 10C JC"]},
                     packet_taken=[0], phase="play")
    # the team's packet is gone and it has no biriba: the last card cannot go
    assert "lay 4H 5H 6H" not in texts(state)


def test_5_4_partnership_packet_comes_with_the_first_biriba_at_turn_end():
    game = Game(4, "partnership")
    state = position(game, empty_hands=True, hands={0: "8C 9C 10C JC KS QD"}, table={0: ["5C 6C 7C"]},
                     phase="play")
    play(state, "extend 0 +8C 9C 10C JC")
    assert len(state.hand(0)) == 2             # not yet
    play(state, "discard KS")
    assert len(state.hand(0)) == 12 and state.array[L.PACKET_TAKEN] == 1


# --- §6 vulnerability --------------------------------------------------------------------------


def test_6_vulnerable_team_needs_the_minimum_for_its_first_laydown():
    game = Game(4)
    low = position(game, empty_hands=True, hands={0: "3S 4S 5S KD QD JD 9C"}, match_scores=[1000, 0],
                   phase="play")
    assert "lay 3S 4S 5S" not in texts(low)       # 15 points + nothing else reaches 75
    enough = position(game, empty_hands=True, hands={0: "3S 4S 5S KD KS KH AC AD AH 9C"},
                      match_scores=[1000, 0], phase="play")
    assert "lay 3S 4S 5S" in texts(enough)        # 15 + 30 + 45 reaches 75
    play(enough, "lay KS KH KD")
    assert not [t for t in texts(enough) if t.startswith("discard")]   # 30 < 75: go on
    free = position(game, empty_hands=True, hands={0: "3S 4S 5S KD"}, match_scores=[999, 0], phase="play")
    assert "lay 3S 4S 5S" in texts(free)


def test_6_no_minimum_once_the_team_has_opened():
    state = position(Game(4), empty_hands=True, hands={0: "3S 4S 5S KD"}, match_scores=[1200, 0],
                     opened=[0], table={0: ["9C 10C JC"]}, phase="play")
    assert "lay 3S 4S 5S" in texts(state)


# --- §7 end of a round and scoring -------------------------------------------------------------


def test_7_closing_needs_the_packet_and_a_biriba_and_scores_100():
    biriba = "3C 4C 5C 6C 7C 8C 9C"
    state = position(Game(4), empty_hands=True, hands={0: "KS KH KD QS", 1: "AS"}, table={0: [biriba]},
                     packet_taken=[0], phase="play")
    play(state, "lay KS KH KD")
    play(state, "discard QS")
    assert state.is_terminal() and state.end_reason == "closed"
    values = state.game.engine.values
    melds = 45 + 200 + 30           # the run's cards, its biriba bonus, the kings
    assert state.round_scores() == [melds + 100, -int(values[parse_kind("AS")]) - 100]
    assert state.round_scores() == invariants.recount(state)


def test_7_no_close_without_a_biriba():
    state = position(Game(4), empty_hands=True, hands={0: "KS KH KD QS"}, table={0: ["3C 4C 5C"]},
                     packet_taken=[0], phase="play")
    assert "lay KS KH KD" not in texts(state)   # the last card could not be discarded


def test_7_barimba_close_needs_a_clean_biriba():
    dirty = "3C 4C 5C 6C JK 8C 9C"
    state = position(Game(4, "barimba"), empty_hands=True, hands={0: "KS KH KD QS"}, table={0: [dirty]},
                     packet_taken=[0], phase="play")
    assert "lay KS KH KD" not in texts(state)
    clean = position(Game(4, "barimba"), empty_hands=True, hands={0: "KS KH KD QS"},
                     table={0: ["3C 4C 5C 6C 7C 8C 9C"]}, packet_taken=[0], phase="play")
    assert "lay KS KH KD" in texts(clean)


def test_7_partnership_close_needs_a_run_and_a_set():
    game = Game(4, "partnership")
    runs_only = position(game, empty_hands=True, hands={0: "4H 5H 6H QS"}, table={0: ["3C 4C 5C 6C 7C 8C 9C"]},
                         packet_taken=[0], phase="play")
    assert "lay 4H 5H 6H" not in texts(runs_only)
    with_set = position(game, empty_hands=True, hands={0: "KS KH KD QS"}, table={0: ["3C 4C 5C 6C 7C 8C 9C"]},
                        packet_taken=[0], phase="play")
    assert "lay KS KH KD" in texts(with_set)


def test_7_classic_round_ends_after_the_turn_that_took_the_last_stock_card():
    state = position(Game(4), empty_hands=True, hands={0: "4H 9S", 1: "5S 8D"}, phase="draw", stock="QC",
                     packets=[[], []])
    # the rest of the cards lie under QC, so play the stock down to its last card
    state.array[L.STOCK_N] = 1
    state.array[L.STOCK] = parse_kind("QC")
    state.array[L.PACKET_N] = 2
    play_until = state.clone()
    play_until.apply_action(play_until.legal_actions()[0])   # draw QC
    assert play_until.array[L.STOCK_OUT_BY] == 0
    play_until.apply_action(next(a for a in play_until.legal_actions()
                                 if play_until.action_to_string(a).startswith("discard")))
    assert play_until.is_terminal() and play_until.end_reason == "stock exhausted"


def test_7_never_taking_the_packet_costs_100_and_an_untouched_packet_100():
    state = position(Game(4), empty_hands=True, hands={0: "4H 5H 6H KS", 1: "9S 9D"}, phase="play")
    play(state, "lay 4H 5H 6H")
    play(state, "discard KS")           # seat 0 takes the packet: untouched
    from solver.engine.core import end_round

    end_round(state.array, state.game.engine.array, state.game.engine.values, L.STOCK_OUT)
    assert state.round_scores()[0] == 15 - 100          # untouched packet: -100
    assert state.round_scores()[1] == -20 - 100         # never took its packet: -100
    assert state.round_scores() == invariants.recount(state)


def test_7_1_three_players_first_packet_is_the_18_and_the_others_team_up():
    game = Game(3, "classic")
    state = position(game, empty_hands=True, hands={0: "4H 5H 6H KS", 1: "9S 9D", 2: "QS"},
                     table={1: ["3C 4C 5C"], 2: ["8D 9D 10D"]}, phase="play")
    play(state, "lay 4H 5H 6H")
    play(state, "discard KS")
    assert len(state.hand(0)) == 18 and state.array[L.SOLO] == 0
    assert state.team_of(1) == state.team_of(2) != state.team_of(0)
    assert len(state.table(state.team_of(1))) == 2


def test_7_1_three_players_share_their_points_equally():
    game = Game(3, "classic")
    state = position(game, empty_hands=True, hands={0: "4H 5H 6H KS", 1: "9S", 2: "QS"},
                     table={1: ["3C 4C 5C"], 2: ["8D 9D 10D"]}, phase="play")
    play(state, "lay 4H 5H 6H")
    play(state, "discard KS")
    from solver.engine.core import end_round

    end_round(state.array, game.engine.array, game.engine.values, L.STOCK_OUT)
    pair = state.round_scores()[state.team_of(1)]
    assert pair == 15 + 30 - 10 - 10 - 100
    assert state.match_scores()[1] == state.match_scores()[2] == pair // 2


def test_7_a_match_runs_until_a_team_reaches_the_target():
    from solver.engine.players import GreedyPlayer, play as play_all

    game = Game(4, "classic", match=True)
    state = play_all(game.new_initial_state(11), [GreedyPlayer()] * 4)
    assert state.phase == "match_over"
    scores = state.match_scores()
    winner = int(state.array[L.WINNER])
    assert scores[winner] >= 3000 and scores[winner] == max(scores)
    assert state.round_index >= 1


def test_illegal_actions_are_refused_with_the_reason():
    state = position(Game(4), empty_hands=True, hands={0: "4H 9S KD"}, phase="draw")
    with pytest.raises(IllegalMoveError, match="not possible in the draw phase"):
        state.apply_action(_all_discards(state)[parse_kind("KD")])
    play(state, "draw")
    with pytest.raises(IllegalMoveError, match="not in seat 0's hand"):
        state.apply_action(_all_discards(state)[parse_kind("AS")])


def test_4_six_players_play_in_three_teams_of_partners_opposite():
    state = Game(6, "classic").new_initial_state(2)
    assert [state.team_of(seat) for seat in range(6)] == [0, 1, 2, 0, 1, 2]


def test_4_barimba_first_drawer_may_throw_the_card_back_and_draw_again():
    state = Game(4, "barimba").new_initial_state(5)
    play(state, "draw")
    drawn = int(state.array[L.LAST_DRAWN])
    assert "redraw" in texts(state)
    play(state, "redraw")
    assert state.pile() == [drawn] and "redraw" not in texts(state)
    assert len(state.hand(state.current_player())) == 12
    later = Game(4, "barimba").new_initial_state(5)
    play(later, "draw")
    play(later, next(t for t in texts(later) if t.startswith("discard")))
    play(later, "draw")
    assert "redraw" not in texts(later)        # only the round's first drawer


def test_2_greek_plays_without_sets_unless_the_option_is_on():
    hands = {0: "KS KH KD 4C"}
    assert "lay KS KH KD" not in texts(position(Game(4, "greek"), empty_hands=True, hands=hands))
    assert "lay KS KH KD" in texts(position(Game(4, "greek", "sets"), empty_hands=True, hands=hands))


@pytest.mark.parametrize("preset, goes_on", [("partnership", True), ("greek", True),
                                             ("classic", False)])
def test_7_an_empty_stock_ends_the_round_or_play_goes_on_from_the_pile(preset, goes_on):
    game = Game(4, preset)
    state = position(game, empty_hands=True, hands={0: "4H 9S KD", 1: "9H 9D 5C"}, phase="play", pile="QC")
    # move every stock card into the packets' place: seat 2's hand holds them
    stock = state.stock()
    state.array[L.STOCK_N] = 0
    for kind in stock:
        state.array[L.HANDS + 2 * L.KINDS + kind] += 1
    if preset == "classic":
        state.array[L.STOCK_OUT_BY] = 0      # seat 0 took the last stock card this turn
    play(state, "discard 9S")
    if goes_on:
        assert state.phase == "draw" and texts(state) == ["pile"]   # 9S fits seat 1's nines
    else:
        assert state.is_terminal() and state.end_reason == "stock exhausted"


def test_7_pile_only_round_ends_when_nobody_can_draw():
    game = Game(4, "partnership")
    state = position(game, empty_hands=True, hands={0: "4H 9S KD", 1: "5C 7D 8S"}, phase="play", pile="")
    stock = state.stock()
    state.array[L.STOCK_N] = 0
    for kind in stock:
        state.array[L.HANDS + 2 * L.KINDS + kind] += 1
    play(state, "discard KD")            # seat 1 cannot use KD with two naturals: no draw
    assert state.is_terminal() and state.end_reason == "no legal draw"


def test_7_barimba_a_wild_that_dirties_the_only_clean_biriba_cannot_leave_one_card():
    """Found by the random rounds: the last card could no longer close (clean biriba gone)."""
    state = position(Game(4, "barimba"), empty_hands=True, hands={0: "JK QS"},
                     table={0: ["3C 4C 5C 6C 7C 8C 9C"]}, packet_taken=[0], phase="play")
    assert "extend 0 +JK" not in texts(state)
    roomy = position(Game(4, "barimba"), empty_hands=True, hands={0: "JK QS KD"},
                     table={0: ["3C 4C 5C 6C 7C 8C 9C"]}, packet_taken=[0], phase="play")
    assert "extend 0 +JK" in texts(roomy)    # two cards stay: no discard problem yet


def test_5_1_a_one_card_pile_of_the_only_kind_held_may_not_be_taken():
    """Holding only copies of the pile's card, nothing could be discarded this turn."""
    state = position(Game(4), empty_hands=True, hands={0: "QC"}, pile="QC", phase="draw")
    assert texts(state) == ["draw"]


def test_7_greedy_does_not_swap_its_last_card_through_a_one_card_pile():
    """Four greedy players each down to one card once swapped cards through the one-card
    pile for ever (seed 1191, dealer 3); taking it cannot close (§7), so greedy draws."""
    from solver.engine.players import GreedyPlayer

    state = position(Game(4), empty_hands=True, hands={0: "4H"}, pile="QC", table={0: ["9C 10C JC"]},
                     phase="draw", packet_taken=(0,))
    assert "pile" in texts(state)
    assert state.action_to_string(GreedyPlayer().choose(state)) == "draw"
    game = Game(4)
    round_ = game.new_initial_state(1191, 3)
    log = np.zeros(5000, dtype=np.int64)
    from solver.engine.playout import playout

    generator = np.array([1191 * 7919 + 17], dtype=np.int64)
    actions = playout(round_.array, round_.game.engine, np.ones(4, dtype=np.int64), generator,
                      5000, log)
    assert round_.is_terminal() and actions < 1000
