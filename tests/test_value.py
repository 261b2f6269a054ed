"""The learned value of a cut rollout (solver.search.value): its features against a plain
reference, the cut round's scoring, the training rows, and the search option's checks."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.specs import PlayerSpecError, parse_spec
from solver.engine import layout as L
from solver.engine.api import Game
from solver.engine.core import end_round
from solver.engine.players import GreedyPlayer
from solver.errors import OutOfRangeError
from solver.search import ISMCTSPlayer, SearchError, search
from solver.search import value as V
from tests.test_search import _midround as midround


def _midround(players, seed, actions):
    return midround("classic", players, seed, actions)


def _reference(state, team):
    """The features of solver.search.value's docstring, read from the state array with
    numpy slices."""
    S, R, vals = state.array, state.game.engine.array, state.game.engine.values
    biriba = int(R[L.R_BIRIBA_SIZE])
    infos = S[L.MELD_INFO:L.MELDS].reshape(L.MAX_TEAMS, L.MAX_MELDS, L.INFO)[team]
    infos = infos[:S[L.MELD_N + team]]
    sizes = infos[:, L.INFO_SIZE]
    clean = infos[:, L.INFO_CLEAN] != 0
    seats = [s for s in range(int(R[L.R_PLAYERS])) if S[L.TEAM_OF + s] == team]
    hands = S[L.HANDS:L.KNOWN].reshape(L.MAX_PLAYERS, L.KINDS)[seats].sum(axis=0)
    wild = np.zeros(L.KINDS, dtype=bool)
    wild[L.JOKER] = True
    if R[L.R_WILD_TWOS]:
        wild[1::13][:4] = True                       # the 2 of each suit
    stock = S[L.STOCK_N] / 100.0
    points, cards = float(hands @ vals), float(hands.sum())
    near = float((sizes == biriba - 1).sum())
    taken = float(S[L.PACKET_TAKEN + team])
    return np.array([infos[:, L.INFO_POINTS].sum(), points, cards, taken, near,
                     ((sizes >= biriba) & clean).sum(), ((sizes >= biriba) & ~clean).sum(),
                     hands[wild].sum(), float(S[L.TEAM_OF + S[L.CURRENT]] == team),
                     float(S[L.OPENED + team] != 0), stock * points, stock * cards,
                     stock * near, stock * taken], dtype=np.float64)


@settings(max_examples=25, deadline=None)
@given(players=st.sampled_from([2, 4]), seed=st.integers(0, 10_000),
       actions=st.integers(0, 200))
def test_the_features_match_the_plain_reference(players, seed, actions):
    state = _midround(players, seed, actions)
    out = np.empty(V.FEATURES)
    for team in range(2):
        V.team_features(state.array, state.game.engine.array, state.game.engine.values, team,
                        out)
        assert np.allclose(out, _reference(state, team)), (players, seed, actions, team)


def test_a_cut_round_with_no_weights_is_the_round_as_it_stands_and_weights_add_to_it():
    state = _midround(2, 7, 60)
    R, vals = state.game.engine.array, state.game.engine.values
    plain, valued = state.array.copy(), state.array.copy()
    end_round(plain, R, vals, L.IDLE_OUT)
    V.end_valued(valued, R, vals, np.zeros(V.FEATURES))
    assert np.array_equal(plain, valued)
    weights = np.zeros(V.FEATURES)
    weights[2] = -10.0                                   # -10 a card in hand
    valued = state.array.copy()
    V.end_valued(valued, R, vals, weights)
    for team in range(2):
        cards = _reference(state, team)[2]
        assert valued[L.ROUND_SCORE + team] == plain[L.ROUND_SCORE + team] - 10 * cards


def test_each_training_row_is_the_rest_of_the_round_beyond_the_state_as_it_stands():
    game = Game(2, "classic")
    start = game.new_initial_state(11)
    S = start.array.copy()
    features = np.empty((4000, V.FEATURES))
    targets = np.empty(4000)
    rows = V.trajectory(S, game.engine, np.empty(L.MAX_ACTIONS, dtype=np.int64), features,
                        targets)
    assert rows > 20 and S[L.PHASE] == L.ROUND_OVER
    final = S[L.ROUND_SCORE] - S[L.ROUND_SCORE + 1]
    state, greedy, row = start.clone(), GreedyPlayer(), 0   # the same round, replayed
    R, vals = game.engine.array, game.engine.values
    while not state.is_terminal():
        if state.array[L.PHASE] != L.CHOOSE_TRUMP:
            stood = state.array.copy()
            stood[L.MATCH_MODE] = 0
            end_round(stood, R, vals, L.IDLE_OUT)
            static = stood[L.ROUND_SCORE] - stood[L.ROUND_SCORE + 1]
            assert targets[row] == final - static
            assert np.allclose(features[row], _reference(state, 0) - _reference(state, 1))
            row += 1
        state.apply_action(greedy.choose(state))
    assert row == rows


def test_the_option_is_checked_and_the_search_with_it_is_deterministic():
    with pytest.raises(OutOfRangeError, match="give a cutoff"):
        ISMCTSPlayer(iterations=10, value=1)
    with pytest.raises(OutOfRangeError, match="value must be 0 or 1"):
        ISMCTSPlayer(iterations=10, cutoff=20, value=2)
    with pytest.raises(PlayerSpecError, match="3 players"):
        parse_spec("ismcts:cutoff=20,value=1", Game(3, "classic"))
    with pytest.raises(SearchError, match="3 players"):
        search(_midround(3, 1, 20), iterations=10, cutoff=20, value=1)
    state = _midround(4, 5, 40)
    first = search(state, iterations=80, seed=2, cutoff=20, value=1)
    assert first.to_dict()["decisions"] == search(state, iterations=80, seed=2, cutoff=20,
                                                   value=1).to_dict()["decisions"]
    parse_spec("ismcts:cutoff=20,value=1", Game(2, "classic"))
