"""Turn optimizer: the kernel path against CP-SAT on seeded instances with table melds.

Each benchmark solves a fixed set of instances (solver/instances.py, rules
``classic``) end to end with :func:`solver.optimizer.optimize_laydown`. The
per-instance table in benchmarks/README.md comes from
``python -m benchmarks.optimizer_report``.
"""

import pytest

from solver.instances import random_instance
from solver.optimizer import Config, optimize_laydown

SIZES = (11, 20, 30, 45)
TABLES = (0, 5, 10)


def _instances(size, tables):
    count = 4 if size >= 45 else 10
    return [random_instance(seed, hand_size=size, table_melds=tables) for seed in range(count)]


@pytest.mark.parametrize("solver", ("kernel", "cpsat"))
@pytest.mark.parametrize("tables", TABLES)
@pytest.mark.parametrize("size", SIZES)
def test_optimize(benchmark, size, tables, solver):
    instances = _instances(size, tables)
    config = Config(solver=solver)
    benchmark.group = f"optimize {size} cards, {tables} table melds"
    work = lambda: [optimize_laydown(instance, config).points for instance in instances]  # noqa: E731
    if size >= 45:
        result = benchmark.pedantic(work, rounds=1, iterations=1, warmup_rounds=0)
    else:
        work()  # load the kernels outside the timing
        result = benchmark(work)
    assert len(result) == len(instances)


@pytest.mark.parametrize("backend", ("python", "numba", "cython"))
@pytest.mark.parametrize("size", (11, 20))
def test_table_additions(benchmark, size, backend):
    """Every table meld's additions (10 table melds per instance), against the reference."""
    from solver.extensions import table_additions

    instances = _instances(size, 10)
    benchmark.group = f"table additions, {size} cards + 10 table melds"
    work = lambda: [len(table_additions(instance, backend)[1]) for instance in instances]  # noqa: E731
    expected = [len(table_additions(instance, "python")[1]) for instance in instances]
    assert work() == expected
    benchmark(work)
