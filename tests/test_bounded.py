"""Bounded time for the compiled lay-down search: the budget, the big instances, the big pile.

The first-card programme is exponential in the worst case (docs/kernels-design.md);
its compiled backends memoise at most a budget of sub-problems and then say their
answer is not proven best. RULES.md §2 (melds, extending), §5.1 (taking the pile).
"""

import json
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kernels import partition, partition_numba
from kernels.params import NEG_INF
from solver.cards import Hand
from solver.rules import get_rules
from solver.values import rule_params
from solver.engine.players import GreedyPlayer
from solver.extensions import build_candidates
from solver.instances import PILE_TEAM_MELDS, pile_position, random_instance
from solver.optimizer import Config, Instance, optimize_laydown
from tests.test_cli import run
from tests.test_optimizer import check_laydown

COMPILED = ("numba", "cython")


@pytest.mark.parametrize("backend", COMPILED)
def test_a_small_budget_gives_a_legal_lay_down_marked_not_exact(backend):
    # 19 cards: below PRICED_CARDS, where no bound proves the answer without a search
    instance = random_instance(3, 19, 8, "classic")
    candidates = build_candidates(instance)
    hand = np.array(instance.hand.counts, dtype=np.int64)
    exact = partition.best(hand, candidates.rows, 1, backend, candidates.groups)
    short = partition.best(hand, candidates.rows, 1, backend, candidates.groups, budget=50)
    assert exact.exact and not short.exact
    assert NEG_INF < short.points <= exact.points
    rows = candidates.counts[short.indices]
    assert (rows.sum(axis=0) <= hand).all()
    assert len(set(candidates.groups[short.indices][candidates.groups[short.indices] >= 0]
                   .tolist())) == int((candidates.groups[short.indices] >= 0).sum())
    assert sum(int(candidates.points[i]) for i in short.indices) == short.points


@pytest.mark.parametrize("backend", COMPILED)
def test_from_priced_cards_a_small_budget_may_prove_the_floor_best(backend):
    # the linear programme's floor and bound meet on these 30-card instances, so the
    # priced search proves its answer within 50 moves; a proof must give the unbounded
    # search's points
    proofs = 0
    for seed in range(4):
        instance = random_instance(seed, 30, 8, "classic")
        candidates = build_candidates(instance)
        hand = np.array(instance.hand.counts, dtype=np.int64)
        exact = partition.best(hand, candidates.rows, 1, backend, candidates.groups)
        short = partition.best(hand, candidates.rows, 1, backend, candidates.groups,
                               budget=50)
        assert exact.exact
        if short.exact:
            proofs += 1
            assert short.points == exact.points
        assert sum(int(candidates.points[i]) for i in short.indices) == short.points
    assert proofs >= 3


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), size=st.integers(8, 28), melds=st.integers(0, 8),
       preset=st.sampled_from(["classic", "partnership", "greek"]),
       budget=st.sampled_from([1, 5, 37, 400]), must=st.booleans())
def test_any_budget_gives_a_legal_lay_down_and_exact_means_best(seed, size, melds, preset,
                                                                budget, must):
    instance = random_instance(seed, size, melds, preset)
    candidates = build_candidates(instance)
    hand = np.array(instance.hand.counts, dtype=np.int64)
    max_left = hand.copy()
    if must:
        max_left[random.Random(seed).choice(np.flatnonzero(hand).tolist())] -= 1
    best = partition.best(hand, candidates.rows, instance.keep, "numba", candidates.groups,
                          max_left)
    for backend in COMPILED:
        found = partition.best(hand, candidates.rows, instance.keep, backend,
                               candidates.groups, max_left, budget)
        assert found.points <= best.points
        if found.exact:
            assert found.points == best.points
        if found.points == NEG_INF:
            continue
        rows = candidates.counts[found.indices].reshape(-1, 53)
        left = hand - rows.sum(axis=0)
        assert (left >= 0).all() and (left <= max_left).all() and left.sum() >= instance.keep
        groups = candidates.groups[found.indices]
        assert len(set(groups[groups >= 0].tolist())) == int((groups >= 0).sum())
        assert sum(int(candidates.points[i]) for i in found.indices) == found.points


def test_the_budget_must_be_positive():
    instance = random_instance(1, 11, 0, "classic")
    candidates = build_candidates(instance)
    with pytest.raises(ValueError, match="budget"):
        partition.best(np.array(instance.hand.counts), candidates.rows, 1, "numba", budget=0)


@pytest.mark.parametrize("seed", [515000, 515001])
def test_the_instances_that_exhausted_memory_answer_in_bounded_time(seed):
    """45 cards + 10 table melds: the kernel path stops at its budget with a legal lay-down
    (it once grew to 8.4 GB and aborted); auto hands it on and equals CP-SAT."""
    instance = random_instance(seed, 45, 10, "classic")
    cpsat = optimize_laydown(instance, Config(solver="cpsat"))
    assert cpsat.optimal
    for backend in COMPILED:
        kernel = optimize_laydown(instance, Config(solver="kernel", backend=backend))
        check_laydown(instance, kernel)
        assert kernel.points <= cpsat.points
        if kernel.points < cpsat.points:
            assert not kernel.optimal
    auto = optimize_laydown(instance, Config())
    assert auto.optimal and auto.points == cpsat.points


@pytest.mark.parametrize("seed", range(5))
def test_the_greedy_pickup_with_a_big_pile_answers_as_cp_sat_plans(seed):
    """§5.1: the greedy player takes the pile when hand + pile lays down more than the hand;
    with 44 cards and five table melds it answers (it once ran for 20 minutes), and its
    choice is the one CP-SAT's optimum of each plan makes."""
    state, hand, pile = pile_position(seed)
    action = GreedyPlayer().choose(state)
    taken = state.action_to_string(action)
    values = []
    for cards in (hand, hand + pile):
        instance = Instance.build(cards, table=PILE_TEAM_MELDS, trump=None, opened=True)
        values.append(optimize_laydown(instance, Config(solver="cpsat")).points)
    assert taken == ("pile" if values[1] > values[0] else "draw")


def _huge_argv(seed, size=45, players=4):
    instance = random_instance(seed, size, 10, "classic", players=players)
    argv = ["best", str(instance.hand), "--solver", "kernel", "--opened",
            "--trump", "SHDC"[instance.trump], "--players", str(players)]
    for meld in instance.table:
        argv += ["--table", str(meld)]
    return instance, argv


@pytest.mark.parametrize("backend", COMPILED)
@pytest.mark.parametrize("seed", [515000, 515001])
def test_cli_kernel_proves_the_instances_that_aborted(capsys, seed, backend):
    """The issue's instances (45 cards + 10 table melds; once 8.4 GB and std::bad_alloc):
    the kernel path (priced, in either compiled backend) now answers CP-SAT's optimum
    and proves it."""
    instance, argv = _huge_argv(seed)
    code, out, err = run(capsys, *argv, "--json", "--backend", backend)
    assert code == 0, err
    answer = json.loads(out)
    assert answer["points"] == optimize_laydown(instance, Config(solver="cpsat")).points
    assert answer["optimal"] is True


@pytest.mark.parametrize("backend", COMPILED)
def test_cli_kernel_on_a_huge_instance_says_when_it_is_not_proven(capsys, backend):
    # 60 cards (three decks) + 10 table melds, seed 4: the priced search of both
    # backends stops at its budget (the floor's lay-down, not proven) and says so
    _, argv = _huge_argv(4, 60, 6)
    code, out, err = run(capsys, *argv, "--backend", backend)
    assert code == 0, err
    assert "not proven optimal: the kernel's search budget" in out


def test_a_count_past_its_budget_is_refused_in_seconds_not_minutes():
    """A 45-card hand of runs has astronomically many lay-downs: counting them took minutes
    and gigabytes; the compiled counters stop at their budget and say so, the reference
    refuses a hand that large, and a smaller hand still counts exactly."""
    from kernels.errors import CountBudgetError, KernelInputError
    from kernels.params import PYTHON_MAX_CARDS

    runs = ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH "
            "JK JK AD 2D 3D 4D")
    params = rule_params(get_rules("classic"), None)
    hand = np.array(Hand.parse(runs).counts, dtype=np.int64)
    rows = partition.catalogue(hand, params, "cython")
    exact = partition.count(hand, rows, "cython")
    assert exact == 296063207656 == partition.count(hand, rows, "numba")
    for backend in ("cython", "numba"):
        with pytest.raises(CountBudgetError, match="32-card hand needs more than 4096"):
            partition.count(hand, rows, backend, budget=4096)
    with pytest.raises(KernelInputError, match=f"up to {PYTHON_MAX_CARDS} cards"):
        partition.count(hand, rows, "python")


@pytest.mark.parametrize("keep", [60])
def test_a_hand_whose_memo_key_overflows_cython_is_answered_by_numba(keep):
    """60 cards over all 53 kinds (seven naturals twice, one joker): the remaining hand's
    mixed radix times the keep counter (2^46 * 3^7 * 61) exceeds Cython's int64 key, so
    the dispatcher hands the search to numba; the answer is the same either way."""
    counts = np.ones(53, dtype=np.int64)
    counts[[0, 5, 13, 20, 26, 33, 40]] = 2
    assert counts.sum() == 60
    params = rule_params(get_rules("classic"), None)
    rows = partition.catalogue(counts, params, "cython")
    from kernels import _partition
    with pytest.raises(OverflowError):
        _partition.best(counts, rows.counts, rows.points, keep)
    found = partition.best(counts, rows, keep, "cython")
    assert found == partition.best(counts, rows, keep, "numba")
    assert found.points == 0 and found.exact  # all 60 cards stay


@pytest.mark.parametrize("backend", ["python", "numba", "cython"])
@pytest.mark.parametrize("text", ["4H 5H 6H 7H",
                                  "4H 5H 6H 7H 8H 9H 10H JH QH KH AH 4S 5S 6S 7S 8S 9S 10S "
                                  "JS QS KS AS"])
def test_keeping_more_cards_than_the_hand_holds_has_no_lay_down(backend, text):
    # 22 cards: from PRICED_CARDS, where the programme's rounded floor once answered the
    # empty lay-down (0 points) although it keeps 22 cards, not 30
    hand = np.array(Hand.parse(text).counts, dtype=np.int64)
    params = rule_params(get_rules("classic"), None)
    rows = partition.catalogue(hand, params, "python" if hand.sum() < 10 else "numba")
    size = int(hand.sum())
    assert partition.best(hand, rows, size + 8, backend).points == NEG_INF
    assert partition.best(hand, rows, size, backend).points == 0
    if backend == "numba":  # the kernel itself, as the engine calls it
        value, _, exact = partition_numba.best(hand, rows.counts, rows.points, size + 8,
                                               np.full(len(rows.keys), -1), hand.copy())
        assert value == NEG_INF and exact
