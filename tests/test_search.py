"""The ISMCTS search and player (solver.search): decisions expand into legal engine actions,
the search reads only the searcher's information set, budgets and seeds behave."""

import math

import numpy as np
import pytest

from solver.engine import invariants
from solver.engine import layout as L
from solver.engine.api import Game
from solver.engine.players import GreedyPlayer, RandomPlayer, play
from solver.errors import OutOfRangeError
from solver.search import ISMCTSPlayer, SearchError, search
from solver.search import decisions as D
from solver.search import plans as P
from solver.search.search import available_decisions, expansion


def _midround(preset="classic", players=4, seed=3, actions=40):
    state = Game(players, preset).new_initial_state(seed)
    greedy = GreedyPlayer()
    for _ in range(actions):
        if state.is_terminal():
            break
        state.apply_action(greedy.choose(state))
    return state


@pytest.mark.parametrize("preset", ["classic", "partnership", "barimba", "threes", "venezuelan"])
def test_every_decision_expands_into_legal_actions(preset):
    """Each available decision stands for engine actions that are legal one after another
    (State.apply_action checks each against legal_actions)."""
    checked = 0
    for seed in range(6):
        state = Game(4, preset).new_initial_state(seed)
        player = RandomPlayer(seed)
        stage = D.STAGE_LAY
        while not state.is_terminal() and checked < 400:
            for code in available_decisions(state, stage, P.PLANS_ALL):
                trial = state.clone()
                actions = expansion(state, code, stage)
                assert actions or code in (D.LAY_NONE, D.LAY_BEST)
                for action in actions:
                    assert action in trial.legal_actions()
                    trial.apply_action(action)
                _check_plan(code, actions, trial)
                checked += 1
            action = player.choose(state)
            state.apply_action(action)
            stage = D.STAGE_DISCARD if state.array[L.TURN_LAID] > 0 else D.STAGE_LAY
    assert checked >= 200


def _check_plan(code, actions, after):
    """Each lay-down plan does what solver.search.plans says of it."""
    seat = after.current_player()
    if code == P.LAY_EXTEND:
        assert actions and all(a >> L.TYPE_SHIFT == L.ACTION_EXTEND for a in actions)
    elif code == P.LAY_HOLD:
        assert actions and len(after.hand(seat)) >= P.HOLD_CARDS + 1
    elif code == P.LAY_OUT:
        assert actions and len(after.hand(seat)) == 1
    elif code == P.LAY_EXPERT:
        assert actions and all(a >> L.TYPE_SHIFT in (L.ACTION_LAY, L.ACTION_EXTEND)
                               for a in actions)


def test_the_plans_mask_chooses_which_lay_down_plans_are_offered():
    """The basic mask offers only best and nothing (the search before the option); the
    full mask adds the other plans where they differ, each once."""
    greedy = GreedyPlayer()
    extra = set()
    seed = 5
    state = Game(2).new_initial_state(seed)
    for _ in range(3000):
        if len(extra) == 4:
            break
        if state.is_terminal():
            seed += 1
            state = Game(2).new_initial_state(seed)
        basic = available_decisions(state, None, P.PLANS_BASIC)
        full = available_decisions(state, None, P.PLANS_ALL)
        assert not [code for code in basic
                    if code in (P.LAY_EXTEND, P.LAY_HOLD, P.LAY_OUT, P.LAY_EXPERT)]
        assert full[:len(basic)] == basic and len(set(full)) == len(full)
        extra.update(code for code in full if code not in basic)
        state.apply_action(greedy.choose(state))
    assert extra == {P.LAY_EXTEND, P.LAY_HOLD, P.LAY_OUT, P.LAY_EXPERT}
    with pytest.raises(OutOfRangeError, match="plans"):
        search(state, iterations=10, plans=0)
    with pytest.raises(OutOfRangeError, match="plans"):
        ISMCTSPlayer(plans=64)


def test_the_search_reads_only_the_searchers_information_set():
    """Two states equal from the searcher's point of view, with the hidden cards dealt
    differently, give the same decision and the same root statistics."""
    state = _midround()
    seat = state.current_player()
    other = state.resample_from_infostate(seat, 7)
    assert other.information_state_key(seat) == state.information_state_key(seat)
    assert not np.array_equal(other.array, state.array)
    first = search(state, iterations=120, seed=5)
    second = search(other, iterations=120, seed=5)
    assert [(d.code, d.visits, d.mean_points) for d in first.decisions] == \
        [(d.code, d.visits, d.mean_points) for d in second.decisions]


def test_a_seeded_iteration_budget_gives_the_same_search_every_time():
    state = _midround(seed=4)
    first = search(state, iterations=100, seed=2)
    again = search(state, iterations=100, seed=2)
    other = search(state, iterations=100, seed=3)
    assert first.to_dict()["decisions"] == again.to_dict()["decisions"]
    assert [d.mean_points for d in first.decisions] != [d.mean_points for d in other.decisions]
    assert sum(d.visits for d in first.decisions) == 100 == first.iterations
    assert all(d.availability == 100 for d in first.decisions)   # the searcher's own hand


def test_search_result_lists_every_root_decision_most_visited_first():
    state = _midround(seed=5)
    result = search(state, iterations=150, seed=1)
    codes = available_decisions(state)
    assert sorted(d.code for d in result.decisions) == sorted(codes)
    visits = [d.visits for d in result.decisions]
    assert visits == sorted(visits, reverse=True)
    best = result.best
    assert best.ci95[0] <= best.mean_points <= best.ci95[1]
    assert result.to_dict()["best"] == best.name


def _deterministic(state, **budget):
    """The search with ``budget``, checked to give the same decisions a second time."""
    result = search(state, **budget)
    assert result.to_dict()["decisions"] == search(state, **budget).to_dict()["decisions"]
    return result


def test_a_rollout_cutoff_scores_the_round_as_it_stands():
    state = _midround(seed=5)
    full = search(state, iterations=100, seed=1)
    cut = _deterministic(state, iterations=100, seed=1, cutoff=10)
    # at most 10 rollout actions an iteration (plus the tree's own), far fewer than to the end
    assert cut.actions < full.actions / 2
    assert sorted(d.code for d in cut.decisions) == sorted(d.code for d in full.decisions)
    for bad in (-1, 1.5, 10**9):
        with pytest.raises(OutOfRangeError, match="cutoff"):
            search(state, iterations=10, cutoff=bad)


def test_expert_rollouts_are_seeded_and_play_another_policy():
    """rollout=expert: the same tree for the same seed, other statistics than greedy
    rollouts on the same determinizations, the same decisions to weigh."""
    state = _midround(seed=5)
    greedy = search(state, iterations=100, seed=1)
    expert = _deterministic(state, iterations=100, seed=1, rollout="expert")
    assert sorted(d.code for d in expert.decisions) == sorted(d.code for d in greedy.decisions)
    assert [d.mean_points for d in expert.decisions] != [d.mean_points for d in greedy.decisions]
    assert parse_spec("ismcts:rollout=expert,iterations=5").make(0).rollout == "expert"
    with pytest.raises(OutOfRangeError, match="rollout"):
        search(state, iterations=10, rollout="smart")


def test_two_workers_merge_their_root_statistics():
    state = _midround(seed=6)
    result = search(state, iterations=40, seed=1, workers=2)
    assert result.iterations == 80
    assert sum(d.visits for d in result.decisions) == 80
    # this process searches as worker 0 (seed 1), the fork as worker 1 (seed 2): the merged
    # root is the sum of the two one-worker searches
    alone = [search(state, iterations=40, seed=seed) for seed in (1, 2)]
    for decision in result.decisions:
        assert decision.visits == sum(d.visits for part in alone for d in part.decisions
                                      if d.code == decision.code)


@pytest.mark.parametrize("change, needle", [
    (dict(iterations=0), "iterations"), (dict(iterations=2.5), "iterations"),
    (dict(seconds=math.nan), "seconds"), (dict(seconds=-1), "seconds"),
    (dict(seconds=math.inf), "seconds"), (dict(workers=0), "workers"),
    (dict(seed=-1), "seed"), (dict(exploration=-1.0), "exploration"),
])
def test_bad_budgets_are_refused(change, needle):
    with pytest.raises(OutOfRangeError, match=needle):
        search(_midround(), **change)


def test_a_finished_round_or_another_seat_cannot_be_searched():
    state = _midround()
    with pytest.raises(SearchError, match="not to move"):
        search(state, seat=(state.current_player() + 1) % 4)
    over = play(Game(2).new_initial_state(1), [GreedyPlayer(), GreedyPlayer()])
    with pytest.raises(SearchError, match="over"):
        search(over)


def test_progress_is_reported_and_ends_at_one():
    shares = []
    result = search(_midround(), seconds=0.35, seed=1, progress=shares.append)
    assert result.iterations > 0 and shares[-1] == 1.0
    assert shares == sorted(shares) and len(shares) >= 2


def test_a_time_budget_stops_the_search():
    result = search(_midround(), seconds=0.2, seed=1)
    assert 0 < result.iterations and result.seconds < 5


def test_a_time_budget_counts_from_the_call_and_the_callers_work_meanwhile():
    """The analyzer's budget is the whole analysis: what it does while the search runs
    (``meanwhile``) and the search's own setup count. A caller that spends more than the
    budget leaves the search its first iteration (a one-iteration call while nothing is
    measured) and no more; before, the search took its whole budget after it."""
    import time

    result = search(_midround(), seconds=0.05, seed=1, meanwhile=lambda: time.sleep(0.3))
    assert result.iterations == 1
    # with two workers the forked one searches while this process waits; this one still
    # runs its first iteration
    assert search(_midround(), seconds=0.05, seed=1, workers=2,
                  meanwhile=lambda: time.sleep(0.3)).iterations >= 2


@pytest.mark.parametrize("preset, players", [("classic", 2), ("classic", 4), ("threes", 3),
                                             ("venezuelan", 2), ("partnership", 4)])
def test_the_ismcts_player_plays_whole_rounds(preset, players):
    game = Game(players, preset)
    # seat 0 weighs every lay-down plan, seat 2 (with four players) only best and nothing
    seats = [ISMCTSPlayer(seed=seat, iterations=8,
                          plans=P.PLANS_ALL if seat == 0 else P.PLANS_BASIC)
             if seat % 2 == 0 else GreedyPlayer() for seat in range(players)]
    state = play(game.new_initial_state(2), seats)
    assert state.is_terminal()
    invariants.check(state)
    assert seats[0].searches > 0


def test_forced_moves_are_played_without_a_search():
    state = _midround()
    while len(available_decisions(state)) != 1:
        state.apply_action(GreedyPlayer().choose(state))
    player = ISMCTSPlayer(iterations=5)
    action = player.choose(state)
    assert player.searches == 0 and action in state.legal_actions()


def test_a_bad_player_budget_is_refused_when_made():
    with pytest.raises(OutOfRangeError, match="workers"):
        ISMCTSPlayer(workers=0)


# --- the command line: player specifications, simulate, duel ---------------------------------

from analysis.cli import main  # noqa: E402
from analysis.specs import PlayerSpecError, parse_spec  # noqa: E402


def _run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_player_specifications_are_parsed_and_checked():
    spec = parse_spec("ismcts:iterations=40,seconds=0.5, workers=1")
    assert spec.name == "ismcts" and spec.options == {"iterations": 40, "seconds": 0.5,
                                                      "workers": 1}
    assert not spec.in_kernel and parse_spec("greedy").in_kernel
    player = spec.make(3)
    assert isinstance(player, ISMCTSPlayer) and player.iterations == 40
    for text, needle in [("alphazero", "unknown player"), ("ismcts:depth=3", "unknown option"),
                         ("ismcts:iterations", "needs a value"),
                         ("ismcts:iterations=many", "not an integer"),
                         ("greedy:iterations=3", "options: none"), ("", "empty")]:
        with pytest.raises(PlayerSpecError, match=needle):
            parse_spec(text)
    with pytest.raises(OutOfRangeError, match="iterations"):
        parse_spec("ismcts:iterations=0")
    assert parse_spec("ismcts:cutoff=20").make(0).cutoff == 20
    with pytest.raises(OutOfRangeError, match="cutoff"):
        parse_spec("ismcts:cutoff=-3")
    assert parse_spec("ismcts:plans=63").make(0).plans == P.PLANS_ALL
    with pytest.raises(OutOfRangeError, match="plans"):
        parse_spec("ismcts:plans=2")         # without the best lay-down


def test_duel_plays_duplicate_deals_and_reports_json(capsys):
    code, out, err = _run(capsys, "duel", "ismcts:iterations=6", "greedy", "--deals", "2",
                          "--json")
    assert code == 0
    data = __import__("json").loads(out)
    assert data["deals"] == 2 and data["rounds"] == 4
    assert data["ci95"][0] <= data["mean_diff"] <= data["ci95"][1]
    assert sum(data["wins"]) + data["ties"] == 4
    assert data["seconds_per_decision"][0] > data["seconds_per_decision"][1] > 0


def test_duel_swaps_the_seats_so_equal_players_tie_exactly(capsys):
    code, out, _ = _run(capsys, "duel", "greedy", "greedy", "--deals", "3", "--players", "4",
                        "--json")
    data = __import__("json").loads(out)
    assert code == 0 and data["mean_diff"] == 0.0 and data["wins"][0] == data["wins"][1]


@pytest.mark.parametrize("argv, needle", [
    (["duel", "ismcts:iterations=-5", "greedy"], "iterations"),
    (["duel", "greedy", "nobody"], "unknown player"),
    (["duel", "greedy", "random", "--deals", "0"], "--deals"),
    (["duel", "greedy", "random", "--workers", "0", "--deals", "1"], "--workers"),
    (["simulate", "--p0", "ismcts:seconds=nan", "--games", "1"], "seconds"),
    (["duel", "ismcts:plans=99", "greedy", "--deals", "1"], "plans"),
])
def test_bad_players_and_budgets_are_one_line_and_exit_2(capsys, argv, needle):
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and needle in err


def test_simulate_takes_a_searching_player(capsys):
    code, out, _ = _run(capsys, "simulate", "--players", "2", "--games", "2", "--p0",
                        "ismcts:iterations=5", "--p1", "greedy", "--json")
    data = __import__("json").loads(out)
    assert code == 0 and data["finished"] == 2
    assert data["policies"] == ["ismcts:iterations=5", "greedy"]


def test_duel_logs_each_deal_pair_as_it_is_played(capsys, tmp_path):
    log = tmp_path / "pairs.jsonl"
    code, out, _ = _run(capsys, "duel", "greedy", "random", "--deals", "3", "--json",
                        "--log", str(log))
    lines = [__import__("json").loads(line) for line in log.read_text().splitlines()]
    assert code == 0 and [pair["seed"] for pair in lines] == [0, 1, 2]
    assert all(len(pair["diffs"]) == 2 for pair in lines)
