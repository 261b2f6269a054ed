"""The one evaluation (solver.search.evaluate): forced samples behind every figure, ranked by
mean, sized until the best is separated or the cap is spent, deterministic for a seed."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


def test_the_best_is_separated_only_where_the_intervals_do_not_overlap():
    state = _position(seed=8)
    result = evaluate(state, iterations=4000, seed=1, workers=1)
    _check_table(result)
    best, rest = result.ranked[0], result.ranked[1:]
    clear = all(best.ci95[0] > other.ci95[1] for other in rest)
    assert (result.verdict == "separated") == (clear and bool(rest))
    for other in rest:
        assert other.separated == (best.ci95[0] > other.ci95[1])


def test_a_played_decision_gets_its_own_forced_samples():
    state = _position(seed=8)
    codes = available_decisions(state)
    result = evaluate(state, iterations=3000, seed=2, played=codes[-1], margin=50)
    assert result.played is not None and result.played.code == codes[-1]
    assert result.played.visits >= MIN_SAMPLES
    with pytest.raises(SearchError, match="not available"):
        evaluate(state, iterations=100, played=12345)


def test_a_budget_too_small_for_the_minimum_gives_no_figures():
    state = _position()
    result = evaluate(state, iterations=40, seed=1)
    assert result.iterations <= 40
    assert all(f.mean is None or f.visits >= MIN_SAMPLES for f in result.decisions)


def test_the_figures_count_only_the_forced_samples():
    state = _position()
    result = evaluate(state, iterations=2000, seed=1)
    bandit = int(2000 * E.BANDIT_SHARE)
    assert sum(f.visits for f in result.decisions) <= result.iterations - bandit


def test_a_forced_decision_is_reported_without_a_search():
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


def _stats(draw):
    """Random root statistics of a few decisions, with enough samples each."""
    rows = {}
    for code in range(draw(st.integers(2, 6))):
        n = draw(st.integers(MIN_SAMPLES, 5000))
        mean = draw(st.floats(-800, 800))
        sd = draw(st.floats(1, 900))
        rows[(code,)] = np.array([n, mean * n, (sd * sd + mean * mean) * n, n // 2], float)
    return rows


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_a_round_refines_the_best_and_its_closest_rival_until_they_separate(data):
    stats = _stats(data.draw)
    codes = [key[0] for key in stats]
    pair = E._pair(stats, codes, MIN_SAMPLES, None, 0.0)
    rows = E._ranked(stats, codes, MIN_SAMPLES)
    best = rows[0]
    overlapping = [row for row in rows[1:] if best[1] - row[1] <= best[2] + row[2]]
    if not overlapping:
        assert pair is None
        return
    assert pair[0] == best and pair[1] in overlapping
    allocation = E._split(stats, pair, 2)
    assert [code for code, _ in allocation] == [pair[0][0], pair[1][0]]
    assert all(count >= 0 for _, count in allocation)
    n = int(stats[(pair[0][0],)][0] + stats[(pair[1][0],)][0])
    assert sum(count for _, count in allocation) == max(E.ROUND_MIN, 2 * E.CHUNK,
                                                        int(E.ROUND_GROWTH * n))
