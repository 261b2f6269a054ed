"""Partition kernels: counting and best lay-down, every backend side by side.

Each benchmark runs one backend over a fixed seeded set of 20 hands
(benchmarks/hands.py); the catalogue is built first, outside the timing.
Python rounds are few on the big sets: the reference is slow by design.
"""

import pytest

from benchmarks.hands import SET_SIZES, hand_set
from kernels import partition
from solver.laydown import rule_params
from solver.rules import get_rules

PARAMS = rule_params(get_rules("classic"), None)
BACKENDS = ("python", "numba", "cython")


def _prepared(size, backend):
    hands = hand_set(size)
    return [(hand, partition.catalogue(hand, PARAMS, backend)) for hand in hands]


def _run(benchmark, backend, work):
    for name in ("numba", "cython"):
        if backend == name:  # load / compile outside the timing
            work()
    if backend == "python":
        return benchmark.pedantic(work, rounds=1, iterations=1, warmup_rounds=0)
    return benchmark(work)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("size", SET_SIZES)
def test_count(benchmark, size, backend):
    if backend == "python" and size == 30:
        pytest.skip("the reference takes minutes to count 30-card hands")
    prepared = _prepared(size, backend)
    benchmark.group = f"count {size} cards x20"
    result = _run(benchmark, backend,
                  lambda: [partition.count(hand, table, backend) for hand, table in prepared])
    assert len(result) == len(prepared)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("size", SET_SIZES)
def test_best(benchmark, size, backend):
    prepared = _prepared(size, backend)
    benchmark.group = f"best {size} cards x20"
    result = _run(benchmark, backend,
                  lambda: [partition.best(hand, table, 1, backend)[0] for hand, table in prepared])
    assert len(result) == len(prepared)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("size", (16, 30))
def test_catalogue(benchmark, size, backend):
    hands = hand_set(size)
    benchmark.group = f"catalogue {size} cards x20"
    result = _run(benchmark, backend,
                  lambda: [partition.catalogue(hand, PARAMS, backend) for hand in hands])
    assert len(result) == len(hands)
