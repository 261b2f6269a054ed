"""Inference, the ``infer`` option (solver.search.infer): the others' last discards are
recorded (public), the greedy model's likelihood weighs the determinizations, no leak,
deterministic."""

import numpy as np
import pytest

from solver.engine import layout as L
from solver.engine.api import Game
from solver.engine.players import GreedyPlayer
from solver.errors import OutOfRangeError
from solver.search import ISMCTSPlayer, search
from solver.search.infer import greedy_agrees, weight
from tests.test_search_multi import decision_point as _greedy_decision_point


def test_every_seat_s_last_discard_is_recorded_and_cleared_by_a_new_hand():
    """RULES.md §5.3 (the discard ends a turn, face up on the pile): LAST_DISCARD holds each
    seat's last discarded kind + 1, the pile's top being the previous seat's."""
    state = Game(4).new_initial_state(5)
    greedy = GreedyPlayer()
    assert not state.array[L.LAST_DISCARD:L.LAST_DISCARD + 4].any()   # a new round: none
    seen = 0
    for _ in range(400):
        if state.is_terminal():
            break
        seat = state.current_player()
        action = greedy.choose(state)
        state.apply_action(action)
        if action >> L.TYPE_SHIFT == L.ACTION_DISCARD:
            kind = action & L.KEY_MASK
            held = int(state.array[L.LAST_DISCARD + seat])
            assert held in (kind + 1, 0)     # 0: its hand emptied and it took a packet
            if held and state.array[L.PILE_N] > 0:
                assert state.array[L.PILE + state.array[L.PILE_N] - 1] == kind
            seen += held > 0
    assert seen >= 20


def test_the_greedy_players_own_discards_agree_with_the_model():
    """In a game of greedy players, every recorded discard is a greedy choice from the hand
    it was made from (the model's legality and table caveats aside: at least 90%)."""
    game = Game(4)
    agree = total = 0
    for seed in range(3):
        state = game.new_initial_state(seed)
        greedy = GreedyPlayer()
        for _ in range(300):
            if state.is_terminal():
                break
            action = greedy.choose(state)
            seat = state.current_player()
            state.apply_action(action)
            if action >> L.TYPE_SHIFT == L.ACTION_DISCARD and state.array[L.LAST_DISCARD + seat]:
                ok, kinds = greedy_agrees(state.array, game.engine, seat, action & L.KEY_MASK)
                agree += ok
                total += 1
                assert kinds >= 1
    assert total >= 30 and agree >= 0.9 * total


def test_the_weight_is_one_for_the_real_hands_and_lower_for_unlikely_ones():
    state = _greedy_decision_point(seed=4)
    seat = state.current_player()
    engine = state.game.engine
    assert weight(state.array, engine, seat, 0.8) == pytest.approx(1.0, abs=0.3)
    weights = [weight(state.resample_from_infostate(seat, k).array, engine, seat, 0.8)
               for k in range(40)]
    assert all(0.0 < w <= 1.0 for w in weights)
    assert min(weights) < 1.0                    # some dealings explain the discards worse
    assert weight(state.array, engine, seat, 0.0) == 1.0


def test_infer_reads_only_the_searchers_information_set_and_is_deterministic():
    state = _greedy_decision_point(seed=6)
    seat = state.current_player()
    other = state.resample_from_infostate(seat, 3)
    assert other.information_state_key(seat) == state.information_state_key(seat)
    first = search(state, iterations=100, seed=2, infer=0.8)
    second = search(other, iterations=100, seed=2, infer=0.8)
    again = search(state, iterations=100, seed=2, infer=0.8)
    plain = search(state, iterations=100, seed=2)
    rows = [(d.code, d.visits, d.mean_points) for d in first.decisions]
    assert rows == [(d.code, d.visits, d.mean_points) for d in second.decisions]
    assert rows == [(d.code, d.visits, d.mean_points) for d in again.decisions]
    assert rows != [(d.code, d.visits, d.mean_points) for d in plain.decisions]


def test_bad_trust_values_are_refused():
    from analysis.specs import parse_spec

    state = _greedy_decision_point(players=2, seed=2, actions=10)
    for bad in (-0.1, 1.5, float("nan"), True):
        with pytest.raises(OutOfRangeError, match="infer"):
            search(state, iterations=5, infer=bad)
        with pytest.raises(OutOfRangeError, match="infer"):
            ISMCTSPlayer(iterations=5, infer=bad)
    assert parse_spec("ismcts:iterations=20,infer=0.8").make(0).infer == 0.8
    assert np.isfinite(search(state, iterations=20, seed=1, infer=1.0).best.mean_points)
