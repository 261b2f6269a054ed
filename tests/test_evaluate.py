"""The one evaluation (solver.search.evaluate): forced samples behind every figure, ranked by
mean, sized until the best is separated or the cap is spent, deterministic for a seed."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.search.flat import flat_samples

from benchmarks.search_report import midround
from solver.engine.api import Game
from solver.errors import OutOfRangeError
from solver.search import evaluate as E
from solver.search.evaluate import MIN_SAMPLES, evaluate
from solver.search.search import SearchError, available_decisions


def _position(seed=5, players=2):
    for deal in range(seed, seed + 50):
        state, deciding = midround(Game(players), deal)
        if deciding and len(available_decisions(state)) > 2:
            return state
    raise AssertionError("no position")


def _check_table(result):
    ranked = result.ranked
    means = [f.mean for f in ranked]
    assert means == sorted(means, reverse=True)            # ranked by mean, best first
    assert result.decisions[:len(ranked)] == ranked        # the unranked ones after
    for f in ranked:
        assert f.visits >= MIN_SAMPLES and f.loss >= 0
        low, high = f.ci95
        assert math.isclose((low + high) / 2, f.mean) and low <= f.mean <= high
    assert ranked[0].loss == 0
    for f in result.decisions[len(ranked):]:
        assert f.mean is None and f.ci95 is None and f.loss is None


def test_an_iteration_budget_is_a_total_cap_and_deterministic_with_two_workers():
    state = _position()
    one = evaluate(state, iterations=1500, seed=3, workers=2)
    two = evaluate(state, iterations=1500, seed=3, workers=2)
    assert one.to_dict() | {"seconds": 0} == two.to_dict() | {"seconds": 0}
    assert 0 < one.iterations <= 1500
    _check_table(one)


@pytest.mark.parametrize("continuation", ["greedy", "expert"])
def test_the_figures_match_a_plain_monte_carlo_on_the_same_deals(continuation):
    """The numba sampler against a plain reference: each turn played on a copy, dealt by
    the same determinization, then the continuation player to the end of the round."""
    from solver.engine import core
    from solver.engine import layout as L
    from solver.engine.determinize import determinize
    from solver.engine.expert import WEIGHTS
    from solver.engine.players import ExpertPlayer, GreedyPlayer
    from solver.engine.api import State
    from solver.search.search import ROLLOUTS

    state = _position(seed=6)
    turns = E.turns_of(state)[:4]
    table = np.zeros((len(turns), max(len(t.actions) for t in turns)), dtype=np.int64)
    lengths = np.array([len(t.actions) for t in turns], dtype=np.int64)
    for k, turn in enumerate(turns):
        table[k, :len(turn.actions)] = turn.actions
    rng = np.array([core.seed_rng(99)], dtype=np.int64)
    sums = np.zeros((len(turns), 4))
    pairs = np.zeros((len(turns), len(turns), 3))
    flat_samples(state.array, state.game.engine, state.current_player(), table, lengths,
                   np.ones(len(turns), dtype=np.bool_), 3, rng, sums, pairs,
                   ROLLOUTS[continuation], WEIGHTS.copy())
    seat = state.current_player()
    rng = np.array([core.seed_rng(99)], dtype=np.int64)
    greedy = GreedyPlayer() if continuation == "greedy" else ExpertPlayer()
    expected = np.zeros(len(turns))
    for _ in range(3):
        deal = state.array.copy()
        deal[L.MATCH_MODE] = 0
        determinize(deal, state.game.engine[0], seat, rng)
        for k, turn in enumerate(turns):
            trial = State(state.game, deal.copy())
            for action in turn.actions:
                trial.apply_action(action)
            team = trial.team_of(seat)
            while not trial.is_terminal():
                trial.apply_action(greedy.choose(trial))
            scores = trial.round_scores()
            expected[k] += scores[team] - max(x for t, x in enumerate(scores) if t != team)
    assert sums[:, 0].tolist() == [3.0] * len(turns)
    assert np.allclose(sums[:, 1], expected)
    assert np.allclose(pairs[0, 1, 1], expected[0] - expected[1])


def test_every_seed_up_to_the_largest_is_taken():
    """An evaluation's (and a search's) generator mixes the seed modulo 2**63: a large
    seed neither overflows nor repeats a small one's stream."""
    from solver.engine.basics import search_rng
    from solver.limits import MAX_SEED

    state = _position(seed=6)
    for seed in (2**32, 10**10, MAX_SEED):
        assert evaluate(state, iterations=80, seed=seed).samples > 0
    assert search_rng(1)[0] != search_rng(2**32)[0]
    assert search_rng(7)[0] == search_rng(7)[0]


def test_only_ranks_the_turns_named():
    state = _position(seed=6)
    turns = E.turns_of(state)
    two = (turns[-1].actions, turns[0].actions)
    result = evaluate(state, iterations=400, seed=3, only=two + (turns[0].actions,))
    assert sorted(f.actions for f in result.decisions) == sorted(two)
    assert sum(f.visits for f in result.decisions) <= 400
    with pytest.raises(SearchError, match="not legal"):
        evaluate(state, iterations=40, only=[(123456789,)])
    with pytest.raises(SearchError, match="names no turn"):
        evaluate(state, iterations=40, only=[])


def test_the_continuation_is_named_checked_and_changes_the_figures():
    state = _position(seed=6)
    greedy = evaluate(state, iterations=400, seed=3)
    again = evaluate(state, iterations=400, seed=3, continuation="greedy")
    expert = evaluate(state, iterations=400, seed=3, continuation="expert")
    assert greedy.to_dict() | {"seconds": 0} == again.to_dict() | {"seconds": 0}
    _check_table(expert)
    assert [f.mean for f in expert.decisions] != [f.mean for f in greedy.decisions]
    with pytest.raises(OutOfRangeError, match="'random'"):
        evaluate(state, iterations=10, continuation="random")


def test_the_best_is_separated_only_where_the_paired_difference_clears_the_noise():
    state = _position(seed=8)
    result = evaluate(state, iterations=6000, seed=1, workers=1)
    _check_table(result)
    rest = result.ranked[1:]
    assert (result.verdict == "separated") == (bool(rest) and all(f.separated for f in rest))
    assert result.best.separated == (result.verdict == "separated")


def test_a_played_turn_gets_its_own_samples_even_one_the_plans_do_not_make():
    state = _position(seed=8)
    turns = E.turns_of(state)
    result = evaluate(state, iterations=3000, seed=2, played=turns[-1].actions, margin=50)
    assert result.played is not None and result.played.actions == turns[-1].actions
    assert result.played.visits >= MIN_SAMPLES
    with pytest.raises(SearchError, match="not legal"):
        evaluate(state, iterations=100, played=[12345])


def test_a_whole_turn_is_a_lay_down_and_the_discard_that_ends_it():
    from analysis.analyzer import Position, build_state
    from solver.search import decisions as D
    from solver.search.plans import PLANS_ALL

    state = build_state(Position(hand="8H 9H KS KD KC 4C 7D", players=2, phase="play",
                                 table={0: ["5H 6H 7H"]}, opened=(0,), hand_sizes=(7, 11)))
    turns = E.turns_of(state, plans=PLANS_ALL)
    assert len({t.actions for t in turns}) == len(turns)
    for turn in turns:
        trial = state.clone()
        for action in turn.actions:
            trial.apply_action(action)                 # legal, in order
        assert trial.current_player() != 0 or trial.is_terminal()   # the turn is over
    names = {t.name for t in turns}
    assert "discard 4C" in names                       # lay nothing, discard 4C
    assert any(t.code == D.LAY_BEST and t.name.endswith("then discard 4C") for t in turns)


def test_a_budget_too_small_for_the_minimum_gives_no_figures():
    state = _position()
    result = evaluate(state, iterations=40, seed=1)
    assert result.iterations <= 40
    assert all(f.mean is None or f.visits >= MIN_SAMPLES for f in result.decisions)


def test_a_forced_decision_is_reported_without_samples():
    from solver.engine.positions import position

    state = position(Game(2), empty_hands=True, hands={0: "4H", 1: "5S 6S"},
                     pile="", phase="draw")
    result = evaluate(state, iterations=100)
    assert result.verdict == "forced" and result.iterations == 0
    assert result.best.mean is None


def test_bad_evaluation_budgets_are_refused():
    state = _position()
    with pytest.raises(OutOfRangeError, match="iterations"):
        evaluate(state, iterations=0)
    with pytest.raises(OutOfRangeError, match="min_samples"):
        evaluate(state, iterations=100, min_samples=1)
    with pytest.raises(OutOfRangeError, match="seed"):
        evaluate(state, iterations=100, seed=-1)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(-500, 500), st.floats(0, 400)), min_size=2, max_size=6),
       st.integers(2, 400))
def test_separation_is_the_paired_mean_beyond_z_standard_errors(rows, n):
    """_apart against the formula: mean difference > Z_SEPARATE * sd / sqrt(n)."""
    count = len(rows)
    pairs = np.zeros((count, count, 3))
    for k, (mean, sd) in enumerate(rows):
        pairs[0, k] = [n, mean * n, (sd * sd * (n - 1) / n + mean * mean) * n]
    for k, (mean, sd) in enumerate(rows[1:], start=1):
        expected = mean > E.Z_SEPARATE * sd / math.sqrt(n)
        if abs(mean - E.Z_SEPARATE * sd / math.sqrt(n)) > 1e-6 * (1 + abs(mean)):
            assert E._apart(pairs, 0, k) == expected


def test_the_callers_work_meanwhile_runs_once_even_when_the_cap_is_spent_before_a_round():
    """A request that waited its turn behind others reaches the evaluation with its time
    spent: the caller's work (the analyzer's best lay-down) still runs, exactly once."""
    import time

    calls = []
    started = time.perf_counter() - 5.0                 # the budget ran out before the call
    result = evaluate(_position(), seconds=0.01, started=started, seed=1,
                      meanwhile=lambda: calls.append(1))
    assert calls == [1] and result.iterations == 0
    evaluate(_position(), iterations=200, seed=1, meanwhile=lambda: calls.append(2))
    assert calls == [1, 2]
