"""MO-ISMCTS, the ``multi`` option (solver.search.multi): one tree per player, the mover's
own draws kept apart as chance slots in its tree alone, no leak, deterministic."""

import numpy as np
import pytest

from solver.engine import core
from solver.engine import layout as L
from solver.engine.api import Game
from solver.engine.players import GreedyPlayer
from solver.errors import OutOfRangeError
from solver.search import ISMCTSPlayer, search
from solver.search import loop
from solver.search.multi import CHANCE, OBSERVED, root_of
from solver.search.search import available_decisions, default_stage
from solver.search.tree import EMPTY, NO_NODE, new_tree


def decision_point(players=4, seed=3, actions=40):
    """A mid-round state whose player to move has more than one decision."""
    state = Game(players).new_initial_state(seed)
    greedy = GreedyPlayer()
    for step in range(actions + 200):
        if step >= actions and len(available_decisions(state)) > 1:
            return state
        state.apply_action(greedy.choose(state))
    raise AssertionError("no decision point")


def _trees(state, iterations, seed=1):
    options = np.zeros(loop.OPTIONS, dtype=np.float64)
    options[loop.EXPLORATION], options[loop.SCALE] = 0.7, 500.0
    options[loop.FORCE_SLOT] = loop.NO_FORCE
    options[loop.PLANS] = 3
    options[loop.MULTI] = 1.0
    tree = new_tree(iterations * 10 + 10)
    rng = np.array([core.seed_rng(seed)], dtype=np.int64)
    loop.iterate(state.array, state.game.engine, state.current_player(),
                 default_stage(state), tree, iterations, rng, options, np.zeros((1, 1)))
    return tree


@pytest.mark.parametrize("players", [2, 4])
def test_every_player_has_a_tree_and_the_root_row_is_the_searchers(players):
    state = decision_point(players)
    seat = state.current_player()
    tree = _trees(state, 200)
    # roots: node 0 the searcher's, nodes 1..P-1 the others' (in seat order)
    assert sorted(root_of(p, seat) for p in range(players)) == list(range(players))
    assert [int(tree.player[root_of(p, seat)]) for p in range(players)] == list(range(players))
    used = int(tree.used[0])
    assert int(tree.visits[0, :used].sum()) == 200
    assert all(int(tree.avail[0, j]) == 200 for j in range(used))
    assert sorted(int(c) for c in tree.decision[0, :used]) == sorted(available_decisions(state))
    # the other players chose with their own trees: their roots' rows hold statistics
    for p in range(players):
        if p != seat and tree.row[root_of(p, seat)] >= 0:
            row = int(tree.row[root_of(p, seat)])
            assert int(tree.used[row]) >= 1


def test_the_movers_draws_are_chance_slots_of_its_own_tree_only():
    """A drawn card is seen by its drawer alone: after a draw, the drawer's tree has a
    slot per card drawn (codes from OBSERVED up, apart from every decision code), and
    those slots are never chosen by the bandit (no visits)."""
    state = decision_point(2, seed=5)
    tree = _trees(state, 300)
    chance_rows = 0
    for row in range(int(tree.size[1])):
        codes = [int(c) for c in tree.decision[row, :int(tree.used[row])]]
        observed = [c for c in codes if c >= OBSERVED]
        assert all(c != EMPTY for c in codes)
        if observed:
            chance_rows += 1
            slots = [j for j, c in enumerate(codes) if c >= OBSERVED]
            assert all(int(tree.visits[row, j]) == 0 for j in slots)
            if len(observed) >= 2:
                assert len(set(observed)) == len(observed)
    assert chance_rows >= 3
    assert CHANCE < 0 and NO_NODE < 0


def test_multi_reads_only_the_searchers_information_set():
    state = decision_point(4, seed=4)
    seat = state.current_player()
    other = state.resample_from_infostate(seat, 11)
    assert other.information_state_key(seat) == state.information_state_key(seat)
    assert not np.array_equal(other.array, state.array)
    first = search(state, iterations=120, seed=5, multi=True)
    second = search(other, iterations=120, seed=5, multi=True)
    assert [(d.code, d.visits, d.mean_points) for d in first.decisions] == \
        [(d.code, d.visits, d.mean_points) for d in second.decisions]


def test_multi_is_deterministic_and_differs_from_the_single_tree():
    state = decision_point(4, seed=6)
    first = search(state, iterations=150, seed=2, multi=True)
    again = search(state, iterations=150, seed=2, multi=True)
    single = search(state, iterations=150, seed=2)
    assert first.to_dict()["decisions"] == again.to_dict()["decisions"]
    assert sum(d.visits for d in first.decisions) == 150
    assert sorted(d.code for d in first.decisions) == sorted(d.code for d in single.decisions)
    # the same determinizations and rollouts, but the players choose with other trees
    assert [(d.visits, d.mean_points) for d in first.decisions] != \
        [(d.visits, d.mean_points) for d in single.decisions]


def test_a_multi_player_plays_a_round_and_bad_flags_are_refused():
    state = Game(2).new_initial_state(8)
    player = ISMCTSPlayer(iterations=20, seed=1, multi=1)
    greedy = GreedyPlayer()
    while not state.is_terminal():
        mover = player if state.current_player() == 0 else greedy
        state.apply_action(mover.choose(state))       # checked against legal_actions
    assert state.array[L.PHASE] in (L.ROUND_OVER, L.MATCH_OVER)
    assert player.searches > 0
    for bad in (2, -1, 0.5, "yes"):
        with pytest.raises(OutOfRangeError, match="multi"):
            ISMCTSPlayer(iterations=10, multi=bad)
        with pytest.raises(OutOfRangeError, match="multi"):
            search(state.game.new_initial_state(1), iterations=5, multi=bad)


def test_the_multi_option_is_a_player_specification():
    from analysis.specs import parse_spec

    assert parse_spec("ismcts:iterations=50,multi=1").make(0).multi is True
    assert parse_spec("ismcts:iterations=50").make(0).multi is False
    with pytest.raises(OutOfRangeError, match="multi"):
        parse_spec("ismcts:multi=3").make(0)
