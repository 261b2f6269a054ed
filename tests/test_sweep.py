"""The rank-sweep reference (kernels.sweep_ref) against the first-card programme and brute force.

RULES.md §2 (melds, wild limit and position, extending), §3 (bonuses, full runs,
trump and cyprus), §5.2 (extending the team's melds), §6 (must-use cards are the
optimizer's; the minimum is the caller's).
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kernels import sweep_ref
from kernels.params import NEG_INF
from kernels.sweep_plan import NotSweepable, build_plan
from solver.cards import Hand
from solver.extensions import table_identity
from solver.instances import random_instance
from solver.laydown import rule_params
from solver.melds import analyze_meld
from solver.optimizer import Config, Instance, optimize_laydown
from solver.rules import get_rules
from tests.naive import naive_catalogue, naive_laydowns

PRESETS = ["classic", "cyprus", "partnership", "greek", "barimba"]


def _arguments(instance):
    params = rule_params(instance.rules, instance.trump)
    tables = [(list(meld.counts),) + table_identity(meld, instance.rules, instance.trump, i)
              for i, meld in enumerate(instance.table)]
    hand = list(instance.hand.counts)
    max_left = [h - u for h, u in zip(hand, instance.must_use.counts)]
    return hand, tables, params, instance.keep, max_left


def sweep(instance):
    """The sweep on an optimizer instance: (points, new melds, extensions)."""
    return sweep_ref.best(*_arguments(instance))


def check_laydown(instance, points, new, extensions):
    """The sweep's melds are legal, inside the hand, keep enough, and add up to its points."""
    total = 0
    used = [0] * 53
    for counts in new:
        total += analyze_meld(Hand(tuple(counts)), instance.rules, instance.trump).points
        used = [a + b for a, b in zip(used, counts)]
    for index, added in extensions:
        base = instance.table[index]
        grown = Hand(tuple(a + b for a, b in zip(base.counts, added)))
        before = table_identity(base, instance.rules, instance.trump, index)
        after = analyze_meld(grown, instance.rules, instance.trump)
        assert (after.kind == "run") == (before[0] == 0)
        total += after.points - before[2]
        used = [a + b for a, b in zip(used, added)]
    hand = instance.hand.counts
    assert all(u <= h for u, h in zip(used, hand))
    assert sum(hand) - sum(used) >= instance.keep
    assert all(h - u <= h - m for h, u, m in zip(hand, used, instance.must_use.counts))
    assert total == points


def first_card(instance):
    return optimize_laydown(instance, Config(solver="kernel", backend="numba")).points


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), size=st.integers(3, 12), melds=st.integers(0, 4),
       keep=st.integers(0, 2), must=st.booleans())
def test_sweep_matches_the_first_card_programme(preset, seed, size, melds, keep, must):
    instance = random_instance(seed, size, melds, preset, keep=min(keep, size))
    if must and size > instance.keep:
        card = random.Random(seed).choice(instance.hand.kinds())
        instance = Instance.build(instance.hand, instance.table, instance.rules,
                                  "SHDC"[instance.trump] if instance.trump is not None else None,
                                  True, 0, instance.keep, Hand.from_kinds([card]))
    points, new, extensions = sweep(instance)
    expected = optimize_laydown(instance, Config(solver="kernel", backend="python"))
    if not expected.feasible:
        assert points == NEG_INF
        return
    assert points == expected.points
    check_laydown(instance, points, new, extensions)


@pytest.mark.parametrize("preset", ["classic", "partnership", "greek"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), size=st.integers(13, 18), melds=st.integers(0, 6))
def test_sweep_matches_on_larger_hands(preset, seed, size, melds):
    instance = random_instance(seed, size, melds, preset)
    points, new, extensions = sweep(instance)
    assert points == first_card(instance)
    check_laydown(instance, points, new, extensions)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.integers(3, 8), keep=st.integers(0, 2))
def test_sweep_matches_brute_force(seed, size, keep):
    """Every lay-down of a small hand, scored by the meld rules: the sweep finds the best."""
    instance = random_instance(seed, size, 0, "classic", keep=min(keep, size))
    rules = instance.rules
    counts = list(instance.hand.counts)
    catalogue = naive_catalogue(counts, rules, "SHDC"[instance.trump])
    melds = list(catalogue)
    best = NEG_INF
    for chosen in naive_laydowns(counts, melds):
        laid = sum(sum(melds[i]) for i in chosen)
        if sum(counts) - laid >= instance.keep:
            best = max(best, sum(catalogue[melds[i]] for i in chosen))
    assert sweep(instance)[0] == best


@pytest.mark.parametrize("hand, table, rules, trump, points", [
    # §2 wild position, §3 trump full run: the table's 2S moves into the gap, A..K dirty
    ("AH 2H 3H 4H 5H 6H KH 10D", ["2S 7H 9H 10H JH QH"], "greek", "H", 1065),
    # §3 cyprus: a dirty full run in trump is worth 100, less than a dirty trump biriba
    ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS JK", [], "cyprus", "S", 0),
    # §2 the ace high: Q K A from the hand onto a table J-K run's end
    ("AH 5C 9D", ["JH QH KH"], "classic", None, 15),
    # §2 own-suit 2 at its place makes a table run clean
    ("3S 8D", ["2S 4S 5S"], "classic", None, 5),
])
def test_sweep_scenarios(hand, table, rules, trump, points):
    instance = Instance.build(hand, table=table, rules=rules, trump=trump, opened=True)
    got, new, extensions = sweep(instance)
    expected = first_card(instance)
    if points:
        assert expected == points
    assert got == expected
    check_laydown(instance, got, new, extensions)


def test_sweep_refuses_a_bonus_table_it_cannot_score():
    params = rule_params(get_rules("classic"), None)
    bonus = params.run_bonus.copy()
    bonus[0, 0, 7] = bonus[0, 1, 7] + 1  # dirty above clean
    with pytest.raises(NotSweepable):
        build_plan([0] * 53, [], params._replace(run_bonus=bonus))


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), size=st.integers(3, 16), melds=st.integers(0, 5),
       keep=st.integers(0, 2), beam=st.sampled_from([1, 4, 64]))
def test_the_bound_drops_no_better_lay_down(preset, seed, size, melds, keep, beam):
    """The relaxation bound and a first pass of any width (even one state a layer, a poor
    lay-down to beat) leave the best points of the unpruned sweep."""
    instance = random_instance(seed, size, melds, preset, keep=min(keep, size))
    hand, tables, params, keep, max_left = _arguments(instance)
    plain = sweep_ref._Sweep(hand, tables, params, keep, max_left).solve(prune=False)[0]
    pruned = sweep_ref._Sweep(hand, tables, params, keep, max_left).solve(beam=beam)[0]
    assert pruned == plain


@pytest.mark.parametrize("seed, size, melds", [(2, 30, 0), (1, 24, 6), (2, 24, 6)])
def test_the_pruned_sweep_on_large_hands_finds_cp_sat_s_optimum(seed, size, melds):
    instance = random_instance(seed, size, melds, "classic")
    points, new, extensions = sweep(instance)
    expected = optimize_laydown(instance, Config(solver="cpsat"))
    assert expected.optimal and points == expected.points
    check_laydown(instance, points, new, extensions)


def test_a_floor_from_the_caller_gives_the_same_lay_down_points():
    instance = random_instance(1, 24, 6, "classic")
    points = sweep(instance)[0]
    for floor in (points, points - 50, NEG_INF):
        got, new, extensions = sweep_ref.best(*_arguments(instance), floor=floor)
        assert got == points
        check_laydown(instance, got, new, extensions)


def test_the_bound_of_a_state_is_at_least_its_best_completion():
    """At the start the bound is an upper bound of the best lay-down, and close to it."""
    instance = random_instance(1, 30, 0, "classic")
    hand, tables, params, keep, max_left = _arguments(instance)
    state = sweep_ref._Sweep(hand, tables, params, keep, max_left)
    state.prepare_bound()
    start = (((),) * 4, (), (0,) * 4, 0, 0, 0, 0, 0, 0)
    points = sweep(instance)[0]
    assert points <= state.bound(start, 0, 0) <= points + 30
