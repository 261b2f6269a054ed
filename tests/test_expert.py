"""The expert player (solver.engine.expert): legal in every preset, the same through the API
and the kernel, and the judgement its docstring promises, each on a position where the
greedy player does otherwise."""

import os

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from solver.engine import expert
from solver.engine import layout as L
from solver.engine.api import Game, decode
from solver.engine.players import ExpertPlayer, GreedyPlayer, RandomPlayer, make_player, play
from solver.engine.playout import play_many, play_weighted, playout
from solver.engine.policies import EXPERT, GREEDY
from solver.engine.positions import position
from solver.errors import BiribaError

PRESETS = ("classic", "cyprus", "partnership", "greek", "barimba", "threes", "venezuelan")
PLAIN_PYTHON = os.environ.get("NUMBA_DISABLE_JIT") == "1"


@pytest.mark.parametrize("preset", PRESETS)
def test_api_and_playout_kernel_agree_and_every_move_is_legal(preset):
    """RULES.md §5-7: the API checks every action the expert chooses (an illegal one
    raises); the kernel plays the same round move for move."""
    for seed in range(1 if PLAIN_PYTHON else 3):
        players = (2, 4, 3, 6)[seed % 4]
        game = Game(players, preset)
        kernel_state = game.new_initial_state(seed)
        api_state = kernel_state.clone()
        log = np.zeros(100_000, dtype=np.int64)
        count = playout(kernel_state.array, game.engine, np.full(players, EXPERT, dtype=np.int64),
                        np.array([1], dtype=np.int64), 100_000, log)
        play(api_state, [ExpertPlayer() for _ in range(players)])
        assert api_state.is_terminal()
        assert api_state.history == log[:count].tolist()
        assert np.array_equal(api_state.array, kernel_state.array)


@settings(max_examples=10 if PLAIN_PYTHON else 60, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.sampled_from((2, 3, 4, 6)),
       preset=st.sampled_from(PRESETS), steps=st.integers(0, 120))
def test_the_expert_chooses_a_legal_action_anywhere(seed, players, preset, steps):
    """From a position reached by random play, the expert's action is among the legal ones."""
    state = play(Game(players, preset).new_initial_state(seed), [RandomPlayer(seed)] * players,
                 max_actions=steps)
    if not state.is_terminal():
        assert ExpertPlayer().choose(state) in state.legal_actions()


def test_the_expert_is_deterministic_and_its_weights_are_checked():
    game = Game(2, "classic")
    first = play(game.new_initial_state(5), [ExpertPlayer(), ExpertPlayer()])
    again = play(game.new_initial_state(5), [ExpertPlayer(1), ExpertPlayer(2)])
    assert first.history == again.history
    assert make_player("expert").name == "expert"
    with pytest.raises(BiribaError, match="expert params must be"):
        ExpertPlayer(params=[1.0, 2.0])


def test_play_weighted_with_the_default_weights_is_play_many():
    game = Game(2, "classic")
    kinds = np.array([EXPERT, GREEDY], dtype=np.int64)
    scores = [np.zeros((6, 2), dtype=np.int64) for _ in range(2)]
    wins = [np.zeros(6, dtype=np.int64) for _ in range(2)]
    weights = np.array([expert.default_params()] * 2)
    a = play_many(game.engine, kinds, 30, 6, 0, 100_000, scores[0], wins[0])
    b = play_weighted(game.engine, kinds, weights, 30, 6, 0, 100_000, scores[1], wins[1])
    assert a == b and np.array_equal(scores[0], scores[1])
    weights[0, expert.PILE_BASE] = 200.0        # another weight, another game
    play_weighted(game.engine, kinds, weights, 30, 6, 0, 100_000, scores[1], wins[1])
    assert not np.array_equal(scores[0], scores[1])


def _action(player, state):
    kind, target, key = decode(player.choose(state))
    return kind, target, key


def test_it_keeps_a_2_off_a_clean_five_card_run():
    """RULES.md §2-3: a 2 on the clean 4H-8H makes it dirty for ever (a clean biriba is worth
    200, a dirty one 100); the greedy player adds it for its 10 points."""
    state = position(Game(2, "classic"), hands={0: "2S 9D KC", 1: "3C 4C 5C 9S KH"},
                     table={0: ["4H 5H 6H 7H 8H"]}, opened=(0,), pile="QS", phase="play")
    greedy = decode(GreedyPlayer().choose(state))
    assert greedy[0] == L.ACTION_EXTEND
    chosen = decode(ExpertPlayer().choose(state))
    assert chosen[0] == L.ACTION_DISCARD and chosen[2] != 0 * 13 + 1   # not the 2S


def test_it_does_not_grow_the_opponents_six_card_meld_into_a_biriba():
    """A 9C on the opponents' 3C-8C is their biriba (RULES.md §3); vulnerable (§6: 75 at
    1200), the team may not lay its 15-point 4D-6D, so the greedy player, keeping the
    meld's cards, gives the 9C away."""
    state = position(Game(2, "classic"), hands={0: "9C 4D 5D 6D", 1: "JS QS KH"},
                     table={1: ["3C 4C 5C 6C 7C 8C"]}, opened=(1,), pile="QD", phase="play",
                     match_scores=[1200, 0])
    nine_clubs = 3 * 13 + 8
    assert decode(GreedyPlayer().choose(state)) == (L.ACTION_DISCARD, 0, nine_clubs)
    kind, _, key = decode(ExpertPlayer().choose(state))
    assert kind == L.ACTION_DISCARD and key != nine_clubs


def test_it_keeps_a_joker_the_greedy_player_would_throw():
    state = position(Game(2, "classic"), hands={0: "JK 9C 4S", 1: "JS QS KH"},
                     pile="QD", phase="play")
    assert decode(GreedyPlayer().choose(state)) == (L.ACTION_DISCARD, 0, L.KINDS - 1)
    kind, _, key = decode(ExpertPlayer().choose(state))
    assert kind == L.ACTION_DISCARD and key != L.KINDS - 1


def test_it_takes_a_big_pile_the_greedy_player_leaves():
    """More cards, more melds: early in the round the expert takes a pile of a dozen cards
    that lays nothing at once (the greedy player draws)."""
    state = position(Game(2, "classic"), hands={0: "4S 9D KC 7H", 1: "JS QS KH"},
                     pile="10C QH 5S JD 3C 6D 9C QS 3H KD AC 10H", phase="draw")
    assert decode(GreedyPlayer().choose(state))[0] == L.ACTION_DRAW
    assert decode(ExpertPlayer().choose(state))[0] == L.ACTION_PILE


def test_it_leaves_a_one_card_pile_that_brings_nothing():
    state = position(Game(2, "classic"), hands={0: "4S 9D KC 7H", 1: "JS QS KH"},
                     pile="QH", phase="draw")
    assert decode(ExpertPlayer().choose(state))[0] == L.ACTION_DRAW
