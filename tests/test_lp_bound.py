"""The linear-programming bound of the lay-down search (kernels.lp_bound) and the priced search.

The bound must hold for every meld exactly (else the search would prune a best
lay-down), the rounded solution must be a legal lay-down, and the priced search
(kernels.partition_numba.best from PRICED_CARDS cards) must find the same optimum (a
legal best lay-down) as the unpriced programme and CP-SAT. RULES.md §2 (melds, at most
one wild, extending the team's melds), §3 (bonuses: the points the bound covers).
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kernels import lp_bound, partition, partition_numba
from kernels.candidates import max_left_python
from kernels.params import NEG_INF, STATE_BUDGET
from solver.extensions import build_candidates
from solver.instances import random_instance
from solver.optimizer import Config, optimize_laydown

SCALE = partition_numba.SHARE_SCALE
PRESETS = ["classic", "partnership", "greek", "cyprus", "threes", "venezuelan", "barimba"]


def _arrays(instance):
    candidates = build_candidates(instance, "numba")
    hand = np.array(instance.hand.counts, dtype=np.int64)
    rows = np.ascontiguousarray(candidates.rows.counts, dtype=np.int64)
    points = np.ascontiguousarray(candidates.points, dtype=np.int64)
    groups = np.ascontiguousarray(candidates.groups, dtype=np.int64)
    left = max_left_python(hand, np.array(instance.must_use.counts, dtype=np.int64))
    return hand, rows, points, groups, left


def _case(seed, size, melds, preset, must):
    """A seeded instance and its arrays; with ``must``, one held kind must be laid (a copy
    fewer may stay)."""
    instance = random_instance(seed, size, melds, preset)
    hand, rows, points, groups, left = _arrays(instance)
    if must:
        left[np.flatnonzero(hand)[seed % np.count_nonzero(hand)]] -= 1
    return instance, (hand, rows, points, groups, left)


def _assert_lay_down(hand, rows, points, groups, left, keep, chosen, value):
    """``chosen`` (meld indices) is a lay-down of ``hand``: it fits, leaves at least
    ``keep`` cards and at most ``left`` copies of each kind, uses a group once, and is
    worth ``value``."""
    used = rows[chosen].sum(axis=0) if len(chosen) else np.zeros(53, dtype=np.int64)
    assert (used <= hand).all()
    assert hand.sum() - used.sum() >= keep
    assert (hand - used <= left).all()
    laid_groups = groups[chosen][groups[chosen] >= 0]
    assert len(set(laid_groups.tolist())) == len(laid_groups)
    assert value == int(points[chosen].sum())


def _unpriced(hand, rows, points, keep, groups, left):
    none = np.zeros(0, dtype=np.int64)
    return partition_numba.best_priced(hand, rows, points, keep, groups, left, STATE_BUDGET,
                                       none, none, NEG_INF, none, *lp_bound.no_cuts())


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), size=st.integers(6, 40), melds=st.integers(0, 10),
       preset=st.sampled_from(PRESETS), iterations=st.sampled_from([0, 3, 40, 2000]),
       keep=st.integers(0, 2))
def test_repaired_prices_cover_every_meld_whatever_the_simplex_returned(seed, size, melds,
                                                                         preset, iterations,
                                                                         keep):
    instance = random_instance(seed, size, melds, preset)
    hand, rows, points, groups, _ = _arrays(instance)
    every = np.arange(len(points))
    _, prices, duals, _ = lp_bound.lp_duals(hand, rows, points, groups, *lp_bound.no_cuts(),
                                            every, keep, iterations)
    fixed, slack = lp_bound.repair(rows, points, groups, *lp_bound.no_cuts(), every, prices,
                                   duals, SCALE)
    worth = rows @ fixed
    worth[groups >= 0] += slack[groups[groups >= 0]]
    assert (worth >= points * SCALE).all()
    assert (fixed >= 0).all() and (slack >= 0).all()


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("size,melds", [(30, 10), (45, 10), (20, 0)])
@pytest.mark.parametrize("keep", [0, 1])
def test_the_simplex_reaches_the_programme_optimum_of_or_tools(seed, size, melds, keep):
    pywraplp = pytest.importorskip("ortools.linear_solver.pywraplp")
    instance = random_instance(seed, size, melds, "classic")
    hand, rows, points, groups, _ = _arrays(instance)
    solver = pywraplp.Solver.CreateSolver("GLOP")
    ys = [solver.NumVar(0, solver.infinity(), "") for _ in range(len(points))]
    for kind in np.flatnonzero(hand):
        used = np.flatnonzero(rows[:, kind])
        solver.Add(sum(int(rows[m, kind]) * ys[m] for m in used) <= int(hand[kind]))
    for group in sorted(set(groups.tolist()) - {-1}):
        solver.Add(sum(ys[m] for m in np.flatnonzero(groups == group)) <= 1)
    if keep:  # the keep rule's row: at most hand - keep cards laid
        sizes = rows.sum(axis=1)
        solver.Add(sum(int(sizes[m]) * ys[m] for m in range(len(points)))
                   <= int(hand.sum()) - keep)
    solver.Maximize(sum(int(points[m]) * ys[m] for m in range(len(points))))
    solver.Solve()
    value, prices, duals, solution = lp_bound.lp_duals(
        hand, rows, points, groups, *lp_bound.no_cuts(), np.arange(len(points)), keep,
        lp_bound.MAX_ITERATIONS)
    assert value == pytest.approx(solver.Objective().Value(), rel=1e-7)
    assert float(solution @ points) == pytest.approx(value, rel=1e-7)
    assert (rows.T @ solution <= hand + 1e-7).all()
    assert rows.sum(axis=1) @ solution <= hand.sum() - keep + 1e-7
    # the repaired bound of optimal duals, less the keep rule's cards at the least price,
    # is the programme's value (up to the fixed point)
    every = np.arange(len(points))
    fixed, slack = lp_bound.repair(rows, points, groups, *lp_bound.no_cuts(), every, prices,
                                   duals, SCALE)
    bound = fixed @ hand + slack.sum() - keep * lp_bound.least_price(hand, fixed)
    if keep == 0:
        assert bound / SCALE == pytest.approx(value, abs=0.5)
    else:  # the least price holds the keep row's dual: at least as tight as the programme
        assert bound / SCALE <= value + 0.5


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), size=st.integers(6, 40), melds=st.integers(0, 10),
       preset=st.sampled_from(PRESETS), keep=st.integers(0, 2),
       dive=st.sampled_from([None, 0, 4, 64]), must=st.booleans())
def test_the_rounded_and_dived_solutions_are_legal_lay_downs(seed, size, melds, preset, keep,
                                                             dive, must):
    instance, (hand, rows, points, groups, left) = _case(seed, size, melds, preset, must)
    *_, solution = lp_bound.dual_prices(hand, rows, points, groups, SCALE)
    if dive is None:
        value, chosen = lp_bound.rounded(hand, rows, points, groups, keep, left,
                                         np.arange(len(points)), solution)
    else:
        value, chosen = lp_bound.dived(hand, rows, points, groups, *lp_bound.no_cuts(), keep,
                                       left, np.arange(len(points)), solution, dive)
    if value < 0:
        return
    _assert_lay_down(hand, rows, points, groups, left, keep, chosen, value)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), size=st.integers(partition_numba.PRICED_CARDS, 32),
       melds=st.integers(0, 10), preset=st.sampled_from(PRESETS), must=st.booleans())
def test_the_priced_search_finds_the_unpriced_optimum(seed, size, melds, preset,
                                                                must):
    instance, (hand, rows, points, groups, left) = _case(seed, size, melds, preset, must)
    plain = _unpriced(hand, rows, points, instance.keep, groups, left)
    priced = partition_numba.best(hand, rows, points, instance.keep, groups, left, STATE_BUDGET)
    assert priced[0] <= plain[0] or not plain[2]
    if priced[2] and plain[2]:
        assert priced[0] == plain[0]
    if priced[0] != NEG_INF:  # a legal lay-down worth its points (a best one, not always
        # the unpriced programme's first)
        _assert_lay_down(hand, rows, points, groups, left, instance.keep, priced[1],
                         priced[0])


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), size=st.integers(partition_numba.PRICED_CARDS, 32),
       melds=st.integers(0, 10), preset=st.sampled_from(PRESETS), must=st.booleans(),
       budget=st.sampled_from([64, 4096, STATE_BUDGET]))
def test_cython_s_priced_search_finds_numba_s_optimum(seed, size, melds, preset, must, budget):
    """The Cython search over the same programme (kernels.partition._cython_priced): the
    same best points wherever both are exact, a legal lay-down always, and a proof
    only of the unbounded optimum."""
    instance, (hand, rows, points, groups, left) = _case(seed, size, melds, preset, must)
    plain = _unpriced(hand, rows, points, instance.keep, groups, left)
    numba = partition_numba.best(hand, rows, points, instance.keep, groups, left, STATE_BUDGET)
    value, chosen, exact = partition._cython_priced(hand, rows, points, instance.keep, groups,
                                                    left, budget)
    assert value <= plain[0] or not plain[2]
    if exact and plain[2]:
        assert value == plain[0]
    if exact and numba[2]:
        assert value == numba[0]
    if value != NEG_INF:
        _assert_lay_down(hand, rows, points, groups, left, instance.keep, chosen, value)


def _both(hand, rows, points, keep, groups, left):
    """(numba's best, Cython's priced best) of one instance."""
    return (partition_numba.best(hand, rows, points, keep, groups, left, STATE_BUDGET),
            partition._cython_priced(hand, rows, points, keep, groups, left, STATE_BUDGET))


@pytest.mark.parametrize("seed", range(8))
def test_the_priced_search_proves_cp_sat_s_optimum_at_30_cards_and_10_table_melds(seed):
    instance = random_instance(seed, 30, 10, "classic")
    hand, rows, points, groups, left = _arrays(instance)
    optimum = optimize_laydown(instance, Config(solver="cpsat")).points
    for value, chosen, exact in _both(hand, rows, points, instance.keep, groups, left):
        assert exact and value == optimum == int(points[chosen].sum())


@pytest.mark.parametrize("seed", [515000, 515001, 3, 6])
def test_a_stopped_search_still_answers_a_legal_lay_down_near_the_optimum(seed):
    instance = random_instance(seed, 45, 10, "classic")
    hand, rows, points, groups, left = _arrays(instance)
    value, chosen, exact = partition_numba.best(hand, rows, points, instance.keep, groups,
                                                left, 1 << 12)
    optimum = optimize_laydown(instance, Config(solver="cpsat")).points
    assert value == int(points[chosen].sum()) <= optimum
    assert (rows[chosen].sum(axis=0) <= hand).all()
    assert exact == (value == optimum) or not exact
    # the rounded solution of the programme, not the first-card programme's cut search:
    # within a tenth of the optimum (the cut search alone reached about half of it)
    assert value >= 0.9 * optimum


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), size=st.integers(6, 32), melds=st.integers(0, 10),
       preset=st.sampled_from(PRESETS), must=st.booleans())
def test_reduced_cost_fixing_keeps_every_optimal_lay_down(seed, size, melds, preset, must):
    # a lay-down worth at least the optimum uses only live melds and leaves within the limits
    instance, (hand, rows, points, groups, left) = _case(seed, size, melds, preset, must)
    value, chosen, exact = _unpriced(hand, rows, points, instance.keep, groups, left)
    if not exact or value == NEG_INF:
        return
    prices, slack, bound, _ = lp_bound.dual_prices(hand, rows, points, groups, SCALE)
    spare = instance.keep * lp_bound.least_price(hand, prices)
    live, limits = lp_bound.reduced(rows, points, groups, *lp_bound.no_cuts(), left, prices,
                                    slack, SCALE, bound - value * SCALE, spare)
    assert live[chosen].all()
    used = rows[chosen].sum(axis=0) if len(chosen) else np.zeros(53, dtype=np.int64)
    assert (hand - used <= limits).all() and (limits <= left).all()
    # and the gap leaves nothing out that is not ruled out by the bound
    cost = rows @ prices - points * SCALE
    cost[groups >= 0] += slack[groups[groups >= 0]]
    assert (live == (cost <= bound - value * SCALE - spare)).all()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.integers(6, 40), melds=st.integers(0, 10),
       used=st.integers(0, 1023))
def test_fitting_keeps_the_candidates_that_fit_with_their_group_free(seed, size, melds, used):
    instance = random_instance(seed, size, melds, "classic")
    hand, rows, points, groups, _ = _arrays(instance)
    left = hand.copy()
    left[np.flatnonzero(hand)[::3]] -= 1
    candidates = np.arange(len(points))[::2]
    found = lp_bound.fitting(rows, groups, left, candidates, used)
    expected = [m for m in candidates if (rows[m] <= left).all()
                and not (groups[m] >= 0 and (used >> int(groups[m])) & 1)]
    assert found.tolist() == expected


def _clashes(rows, hand, groups, a, b):
    """Melds a and b (a may be b) cannot both be laid: an independent check."""
    if groups[a] >= 0 and groups[a] == groups[b]:
        return True
    return bool((rows[a] + rows[b] > hand).any())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), size=st.integers(12, 45), melds=st.integers(0, 10),
       preset=st.sampled_from(PRESETS))
def test_separated_cuts_are_cliques_the_solution_violates(seed, size, melds, preset):
    instance = random_instance(seed, size, melds, preset)
    hand, rows, points, groups, _ = _arrays(instance)
    every = np.arange(len(points))
    *_, solution = lp_bound.lp_duals(hand, rows, points, groups, *lp_bound.no_cuts(), every, 0,
                                     lp_bound.MAX_ITERATIONS)
    starts, members = lp_bound.separate(hand, rows, groups, every, solution,
                                        *lp_bound.no_cuts(), 16)
    for c in range(len(starts) - 1):
        cut = members[starts[c]:starts[c + 1]].tolist()
        assert len(set(cut)) == len(cut)
        assert all(_clashes(rows, hand, groups, a, b) for a in cut for b in cut)
        assert solution[cut].sum() > 1 + 1e-6


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), size=st.integers(partition_numba.PRICED_CARDS, 32),
       melds=st.integers(0, 10), preset=st.sampled_from(PRESETS), must=st.booleans())
def test_priced_bounds_the_optimum_and_keeps_its_melds(seed, size, melds, preset, must):
    instance, (hand, rows, points, groups, left) = _case(seed, size, melds, preset, must)
    value, chosen, exact = _unpriced(hand, rows, points, instance.keep, groups, left)
    (prices, slack, bound, live, limits, start, start_melds, step, starts,
     members) = lp_bound.priced(hand, rows, points, groups, instance.keep, left, SCALE,
                                partition_numba.DIVES, lp_bound.CUT_ROUNDS)
    if value == NEG_INF and exact:  # nothing is feasible: no floor either
        assert start < 0
    if start < 0:
        return
    assert start <= value or not exact
    assert start == int(points[start_melds].sum())
    # every live meld is covered by its cards, its group and its cuts
    worth = rows @ prices + lp_bound.cut_worth(len(points), starts, members, slack,
                                               len(slack) - (len(starts) - 1))
    worth[groups >= 0] += slack[groups[groups >= 0]]
    assert (worth[live == 1] >= points[live == 1] * SCALE).all()
    assert bound == int(prices @ hand + slack.sum())
    assert step >= 1 and (points % step == 0).all()
    if exact:
        assert value * SCALE <= bound - instance.keep * lp_bound.least_price(hand, prices)
        if value >= start + step:  # a lay-down better than the floor: only live melds
            assert live[chosen].all()
            used = rows[chosen].sum(axis=0) if len(chosen) else np.zeros(53, dtype=np.int64)
            assert (hand - used <= limits).all()
        for c in range(len(starts) - 1):  # at most one meld of each cut is laid
            assert np.isin(chosen, members[starts[c]:starts[c + 1]]).sum() <= 1


@pytest.mark.parametrize("seed", [1, 2, 6])
def test_cuts_close_most_of_the_programme_s_gap_at_45_cards(seed):
    # the programme alone is 150-205 points above these optima (3,905 against 3,700 ...)
    instance = random_instance(seed, 45, 10, "classic")
    hand, rows, points, groups, left = _arrays(instance)
    _, _, plain, _ = lp_bound.dual_prices(hand, rows, points, groups, SCALE)
    _, _, bound, *_ = lp_bound.priced(hand, rows, points, groups, instance.keep, left, SCALE,
                                      partition_numba.DIVES, lp_bound.CUT_ROUNDS)
    optimum = optimize_laydown(instance, Config(solver="cpsat")).points
    assert optimum * SCALE <= bound
    assert bound - optimum * SCALE < (plain - optimum * SCALE) / 2


@pytest.mark.parametrize("seed", [0, 1, 2, 5, 10, 515000, 515001])
def test_the_priced_search_proves_cp_sat_s_optimum_at_45_cards_and_10_table_melds(seed):
    instance = random_instance(seed, 45, 10, "classic")
    hand, rows, points, groups, left = _arrays(instance)
    optimum = optimize_laydown(instance, Config(solver="cpsat")).points
    for value, chosen, exact in _both(hand, rows, points, instance.keep, groups, left):
        assert exact and value == optimum == int(points[chosen].sum())


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_both_priced_searches_prove_cp_sat_s_optimum_at_60_cards_and_10_table_melds(seed):
    # six players, three decks
    instance = random_instance(seed, 60, 10, "classic", players=6)
    hand, rows, points, groups, left = _arrays(instance)
    optimum = optimize_laydown(instance, Config(solver="cpsat")).points
    for value, chosen, exact in _both(hand, rows, points, instance.keep, groups, left):
        assert exact and value == optimum == int(points[chosen].sum())


@pytest.mark.parametrize("seed", [3, 11])
def test_narrowing_the_pool_keeps_the_basis_and_its_programme(seed):
    # a round's basis over the pool, then the pool narrowed to a few live melds: the melds
    # the basis holds stay (at their new positions), slacks shift down, and the programme
    # warm-started from the narrowed basis has the same value as a cold solve over it
    instance = random_instance(seed, 45, 10, "classic")
    hand, rows, points, groups, _ = _arrays(instance)
    every = np.arange(len(points))
    cuts = lp_bound.no_cuts()
    *_, solution, basis = lp_bound.lp_solve(hand, rows, points, groups, *cuts, every,
                                            instance.keep, lp_bound.MAX_ITERATIONS,
                                            lp_bound.cold_basis())
    live = np.zeros(len(points), dtype=np.int64)
    live[::7] = 1
    pool, narrowed, (inverse, basic, values, duals) = lp_bound._narrow(every, solution, basis,
                                                                     live)
    held = [m for m in basis[1] if m < len(points)]
    assert set(held) <= set(pool.tolist())
    assert set(np.flatnonzero(live).tolist()) <= set(pool.tolist())
    assert sorted(pool.tolist()) == pool.tolist()
    for old, new in zip(basis[1], basic):
        assert (pool[new] == old) if old < len(points) else new - len(pool) == old - len(points)
    assert np.array_equal(narrowed, solution[np.isin(every, pool)])
    warm = lp_bound.lp_solve(hand, rows, points, groups, *cuts, pool, instance.keep,
                             lp_bound.MAX_ITERATIONS, (inverse, basic, values, duals))[0]
    cold = lp_bound.lp_solve(hand, rows, points, groups, *cuts, pool, instance.keep,
                             lp_bound.MAX_ITERATIONS, lp_bound.cold_basis())[0]
    assert warm == pytest.approx(cold, abs=1e-6)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), size=st.integers(partition_numba.PRICED_CARDS - 4, 36),
       melds=st.integers(0, 10), preset=st.sampled_from(PRESETS), must=st.booleans(),
       offset=st.sampled_from([-200, -5, -1, 0, 5, 300]))
def test_beats_answers_whether_the_optimum_is_above_the_bar(seed, size, melds, preset, must,
                                                           offset):
    """partition_numba.beats (the greedy pickup's question): a lay-down worth more than
    the bar exists exactly when the proven optimum is above it; bars just below, at and
    above the optimum, and a bar below every lay-down."""
    instance, (hand, rows, points, groups, left) = _case(seed, size, melds, preset, must)
    value, _, exact = partition_numba.best(hand, rows, points, instance.keep, groups, left,
                                           STATE_BUDGET)
    if not exact:
        return
    bar = NEG_INF if value == NEG_INF else value + offset
    assert partition_numba.beats(hand, rows, points, instance.keep, groups, left, bar,
                                 STATE_BUDGET) == (value > bar)
