"""The match-aware reward (solver.search.match) and match duels: the win table behaves as
the chance of winning a match (RULES.md §7, "Match": rounds until a team reaches the
target, the highest total winning), and the search and the duel take it."""

import json

import numpy as np
import pytest

from solver.engine.api import Game
from solver.search import ISMCTSPlayer, SearchError, search
from solver.search import match as M

SMALL = 300          # simulated rounds for the tests' tables (the search's default is more)


@pytest.fixture(scope="module")
def table():
    return M.win_table(Game(2, match=True), rounds=SMALL)


def test_the_win_table_rises_with_ones_own_score_and_falls_with_the_others(table):
    chance = table.chance
    assert table.target == 2500                     # classic, two players (RULES.md §7)
    assert np.all(np.diff(chance, axis=0) >= -1e-9)  # more points of one's own: never worse
    assert np.all(np.diff(chance, axis=1) <= 1e-9)   # more points of the other's: never better
    assert np.allclose(chance + chance.T, 1.0, atol=1e-4)   # the two teams' chances add up
    assert abs(M.chance_of(chance, table.target, 0, 0) - 0.5) < 1e-4
    assert M.chance_of(chance, table.target, 1500, 0) > 0.8


def test_a_score_at_the_target_ends_the_match(table):
    chance, target = table.chance, table.target
    assert M.chance_of(chance, target, 2600, 2550) == 1.0     # the higher total wins
    assert M.chance_of(chance, target, 2400, 2550) == 0.0
    assert M.chance_of(chance, target, 2500, 2500) == 0.5
    assert 0.0 < M.chance_of(chance, target, 2450, 2400) < 1.0   # one round more to play


def test_the_match_aware_search_needs_a_match_of_two_teams():
    state = Game(2).new_initial_state(3)
    with pytest.raises(SearchError, match="match of two teams"):
        search(state, iterations=5, match=True)
    with pytest.raises(SearchError, match="match of two teams"):
        search(Game(3, match=True).new_initial_state(3), iterations=5, match=True)


def test_the_match_aware_search_rewards_win_chances_and_keeps_points():
    """Rewards in [-1, 1] (2 W - 1); the points are still the round-score differences;
    a seed and an iteration budget give the same search."""
    state = Game(2, match=True).new_initial_state(4)
    first = search(state, iterations=60, seed=1, match=True)
    again = search(state, iterations=60, seed=1, match=True)
    plain = search(state, iterations=60, seed=1)
    assert first.to_dict()["decisions"] == again.to_dict()["decisions"]
    assert all(-1.0 <= d.mean_reward <= 1.0 for d in first.decisions)
    assert [d.mean_reward for d in first.decisions] != [d.mean_reward for d in plain.decisions]
    assert ISMCTSPlayer(match=1).match and not ISMCTSPlayer().match


def test_a_match_duel_plays_whole_matches(capsys):
    from analysis.cli import main

    code = main(["duel", "greedy", "random", "--deals", "1", "--match", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["match"] and data["deals"] == 1
    assert sum(data["wins"]) + data["ties"] == 2
    assert abs(data["mean_diff"]) > 0                # final match scores differ


@pytest.mark.parametrize("argv", [
    ["duel", "ismcts:iterations=5,match=1", "greedy", "--deals", "1"],
    ["simulate", "--p0", "ismcts:iterations=5,match=1", "--games", "1"],
    ["play", "--opponents", "ismcts:match=1", "--players", "2"],
    ["duel", "ismcts:iterations=5,match=1", "greedy", "--match", "--players", "2",
     "--rules", "classic", "--deals", "0"],
])
def test_a_match_aware_player_outside_a_match_is_refused_before_play(capsys, argv):
    from analysis.cli import main

    code = main(argv)
    captured = capsys.readouterr()
    assert code == 2 and captured.out == "" and captured.err.count("\n") == 1
    assert ("needs a match of two teams (--match)" in captured.err
            or "--deals" in captured.err)
