"""The OpenSpiel anchor (optional extra): Biriba as a pyspiel game, OpenSpiel's ISMCTSBot
playing it. Skipped where open-spiel is not installed (pip install -e ".[openspiel]")."""

import pytest

pyspiel = pytest.importorskip("pyspiel")

from analysis.specs import parse_spec  # noqa: E402
from solver.engine import invariants  # noqa: E402
from solver.engine.api import Game  # noqa: E402
from solver.engine.players import GreedyPlayer, play  # noqa: E402
from solver.openspiel_game import BiribaGame, ismcts_bot  # noqa: E402


def test_the_game_loads_with_dense_action_ids_and_information_strings():
    game = pyspiel.load_game("python_biriba", {"players": 2, "rules": "classic", "seed": 3})
    state = game.new_initial_state()
    assert state.current_player() in (0, 1)
    ids = state.legal_actions()
    assert ids == sorted(ids) and max(ids) < 8
    info = state.information_state_string(state.current_player())
    other = state.resample_from_infostate(state.current_player(), None)
    assert other.information_state_string(state.current_player()) == info


def test_openspiels_ismcts_bot_plays_full_rounds():
    game = BiribaGame({"players": 2, "seed": 1})
    state = game.new_initial_state()
    bots = [ismcts_bot(game, 4, seed=seat) for seat in range(2)]
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    invariants.check(state.engine)
    returns = state.returns()
    assert returns[0] == -returns[1]


def test_the_openspiel_player_joins_engine_games():
    spec = parse_spec("openspiel:simulations=3")
    seats = [spec.make(0), GreedyPlayer()]
    state = play(Game(2).new_initial_state(5), seats)
    assert state.is_terminal()
