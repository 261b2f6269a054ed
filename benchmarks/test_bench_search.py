"""The ISMCTS search: iterations per second on mid-round positions (greedy and random
rollouts). The table in benchmarks/README.md comes from ``python -m benchmarks.search_report``."""

import pytest

from benchmarks.search_report import positions
from solver.search import search

STATES = positions(3)


@pytest.mark.parametrize("epsilon", [0.0, 1.0], ids=["greedy-rollouts", "random-rollouts"])
def test_search_iterations(benchmark, epsilon):
    search(STATES[0], iterations=4, seed=0, epsilon=epsilon)          # compiled and warm
    benchmark.group = "search: 100 iterations, 4-player classic mid-round"
    result = benchmark(search, STATES[1], iterations=100, seed=1, epsilon=epsilon)
    assert result.iterations == 100
