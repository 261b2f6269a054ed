"""Meld-partition kernels: the reference against naive oracles, every backend against the reference."""

import importlib
import os
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kernels import partition, partition_ref
from kernels.encoding import JOKER, KIND_COUNT
from kernels.params import NEG_INF, PRICED_CARDS, decision_order
from solver.cards import Hand
from solver.errors import BiribaError, ImpossiblePositionError
from solver.laydown import (
    best_laydown,
    count_laydowns,
    iter_laydowns,
    meld_catalogue,
    rule_params,
)
from solver.melds import analyze_meld
from solver.rules import get_rules
from tests.naive import naive_catalogue, naive_laydowns

FAST_BACKENDS = ("numba", "cython")
PACK = [kind for kind in range(JOKER) for _ in range(2)] + [JOKER] * 4
# Cards of two suits and a few ranks, plus every wild: hands drawn from here are meld-rich.
RICH_PACK = [k for k in PACK if k == JOKER or k % 13 == 1 or k // 13 < 2 or k % 13 in (4, 9)]


def _counts(indices, pack):
    counts = [0] * KIND_COUNT
    for index in indices:
        counts[pack[index]] += 1
    return counts


def hands(min_size, max_size, packs=(PACK, RICH_PACK)):
    """Random hands from the full pack or from the meld-rich pack."""
    return st.sampled_from(list(packs)).flatmap(
        lambda pack: st.lists(
            st.integers(0, len(pack) - 1), min_size=min(min_size, len(pack)),
            max_size=min(max_size, len(pack)), unique=True,
        ).map(lambda indices: _counts(indices, pack))
    )


def _params(preset):
    rules = get_rules(preset)
    return rules, rule_params(rules, 1 if rules.has_trump else None)


def _tables_equal(first, second):
    return all(np.array_equal(a, b) for a, b in zip(first, second))


def test_decision_order_is_a_permutation():
    assert sorted(decision_order()) == list(range(KIND_COUNT))


# --- the reference against obviously-correct oracles -------------------------------


@pytest.mark.parametrize("preset", ["classic", "partnership", "greek", "venezuelan", "barimba"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(counts=hands(3, 9))
def test_reference_catalogue_is_every_legal_submultiset(preset, counts):
    rules, params = _params(preset)
    trump = "H" if rules.has_trump else None
    found = {tuple(row[1]): row[5] for row in partition_ref.catalogue(counts, params)}
    assert found == naive_catalogue(counts, rules, trump)


@pytest.mark.parametrize("preset", ["classic", "partnership", "greek"])
@settings(max_examples=60, deadline=None)
@given(counts=hands(3, 10), keep=st.integers(0, 3))
def test_reference_count_best_and_stream_match_brute_force(preset, counts, keep):
    _, params = _params(preset)
    rows = partition_ref.catalogue(counts, params)
    melds = [row[1] for row in rows]
    laydowns = naive_laydowns(counts, melds)
    assert partition_ref.count_laydowns(counts, rows) == len(laydowns)
    streamed = sorted(tuple(l) for l in partition_ref.iter_laydowns(counts, rows))
    assert streamed == sorted(tuple(sorted(l)) for l in laydowns)
    feasible = [l for l in laydowns if sum(counts) - sum(sum(melds[i]) for i in l) >= keep]
    expected = max((sum(rows[i][5] for i in l) for l in feasible), default=NEG_INF)
    points, picked = partition_ref.best_laydown(counts, rows, keep)
    assert points == expected
    if feasible:
        assert sum(rows[i][5] for i in picked) == points


def _constraints(draw_groups, draw_limits, size, counts):
    """Random optimizer constraints: a group (or -1) per meld, a max-left per kind."""
    groups = [g if g < 4 else -1 for g in draw_groups[:size]] + [-1] * max(0, size - len(draw_groups))
    max_left = list(counts)
    for kind, cut in zip([k for k in range(KIND_COUNT) if counts[k]], draw_limits):
        max_left[kind] = max(0, counts[kind] - cut)
    return groups, max_left


@pytest.mark.parametrize("preset", ["classic", "partnership"])
@settings(max_examples=60, deadline=None)
@given(counts=hands(3, 9), keep=st.integers(0, 2),
       draw_groups=st.lists(st.integers(0, 7), max_size=40),
       draw_limits=st.lists(st.integers(0, 1), max_size=4))
def test_reference_groups_and_max_left_match_brute_force(preset, counts, keep, draw_groups,
                                                         draw_limits):
    """The optimizer's constraints: one meld per group, at most max_left copies kept."""
    _, params = _params(preset)
    rows = partition_ref.catalogue(counts, params)
    melds = [row[1] for row in rows]
    groups, max_left = _constraints(draw_groups, draw_limits, len(rows), counts)

    def feasible(laydown):
        left = list(counts)
        for index in laydown:
            for kind in range(KIND_COUNT):
                left[kind] -= melds[index][kind]
        taken = [groups[i] for i in laydown if groups[i] >= 0]
        return (sum(left) >= keep and len(taken) == len(set(taken))
                and all(left[k] <= max_left[k] for k in range(KIND_COUNT)))

    laydowns = [l for l in naive_laydowns(counts, melds) if feasible(l)]
    expected = max((sum(rows[i][5] for i in l) for l in laydowns), default=NEG_INF)
    points, picked = partition_ref.best_laydown(counts, rows, keep, groups, max_left)
    assert points == expected
    if laydowns:
        assert feasible(picked) and sum(rows[i][5] for i in picked) == points


# --- every backend against the reference ----------------------------------------------


@pytest.mark.parametrize("preset", ["classic", "partnership", "greek"])
@settings(max_examples=350, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(counts=hands(3, 16), keep=st.integers(0, 2))
def test_backends_agree_on_catalogue_count_best(preset, counts, keep):
    _, params = _params(preset)
    hand = np.array(counts, dtype=np.int64)
    reference = partition.catalogue(hand, params, "python")
    expected_count = partition.count(hand, reference, "python")
    expected_best = partition.best(hand, reference, keep, "python")
    for backend in FAST_BACKENDS:
        table = partition.catalogue(hand, params, backend)
        assert _tables_equal(table, reference), backend
        assert partition.count(hand, table, backend) == expected_count, backend
        assert partition.best(hand, table, keep, backend) == expected_best, backend


@pytest.mark.parametrize("preset", ["barimba", "threes", "cyprus", "venezuelan"])
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(counts=hands(1, 20))
def test_compiled_catalogue_matches_the_reference_in_the_other_presets(preset, counts):
    """RULES.md §2-§3 (runs, sets, one wild a meld, 2s natural in their own suit's run,
    sets of 2s, venezuelan's sets of wilds): each preset's compiled catalogue, through the
    numba fast path (kernels.catalogue_numba) or the general path, is the reference's."""
    _, params = _params(preset)
    hand = np.array(counts, dtype=np.int64)
    reference = partition.catalogue(hand, params, "python")
    for backend in FAST_BACKENDS:
        assert _tables_equal(partition.catalogue(hand, params, backend), reference), backend


THREE_DECKS = [kind for kind in range(JOKER) for _ in range(3)] + [JOKER] * 6


@pytest.mark.parametrize("preset", ["classic", "greek", "barimba", "threes"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(counts=hands(20, 60, packs=(PACK, RICH_PACK, THREE_DECKS)))
def test_catalogue_fast_paths_match_the_general_path_on_big_hands(preset, counts):
    """Big hands (a pile taken; three decks for six players): the catalogues by position
    masks (numba's kernels.catalogue_numba, and Cython's port of it) give the general
    generator's table, row for row."""
    from kernels import catalogue_numba, partition_numba

    _, params = _params(preset)
    hand = np.array(counts, dtype=np.int64)
    scalars = params.scalars()
    assert catalogue_numba.handles(scalars)
    fast = catalogue_numba.catalogue(hand, scalars, params.values, params.run_bonus,
                                     params.set_bonus)
    general = partition_numba._catalogue(hand, scalars, params.values, params.run_bonus,
                                         params.set_bonus, np.zeros(KIND_COUNT, np.int64))
    assert _tables_equal(fast, general)
    assert _tables_equal(partition.catalogue(hand, params, "cython"), general)


def test_the_numba_fast_paths_take_the_rules_they_cover():
    """kernels.additions_numba and kernels.catalogue_numba cover the one-wild rules (2s
    wild, one wild a meld, no ratio: RULES.md §3); partnership's ratio rule and
    venezuelan's sets of wilds keep the general catalogue."""
    from kernels.additions_numba import one_wild_rules
    from kernels.catalogue_numba import handles

    covered = {preset: (bool(one_wild_rules(_params(preset)[1].scalars())),
                        bool(handles(_params(preset)[1].scalars())))
               for preset in ("classic", "greek", "barimba", "threes", "cyprus",
                              "partnership", "venezuelan")}
    assert covered == {"classic": (True, True), "greek": (True, True),
                       "barimba": (True, True), "threes": (True, True),
                       "cyprus": (True, True), "partnership": (False, False),
                       "venezuelan": (True, False)}


@pytest.mark.parametrize("preset", ["classic", "partnership", "greek"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(counts=hands(17, 30, packs=(PACK,)))
def test_backends_agree_on_best_points_up_to_30_cards(preset, counts):
    _, params = _params(preset)
    hand = np.array(counts, dtype=np.int64)
    reference = partition.catalogue(hand, params, "python")
    # the reference itself: the dispatcher's python backend refuses hands past 26 cards
    expected = partition_ref.best_laydown(hand, reference.reference_rows(), 1,
                                          [-1] * len(reference.keys), list(hand))[0]
    for backend in FAST_BACKENDS:
        table = partition.catalogue(hand, params, backend)
        assert partition.best(hand, table, 1, backend)[0] == expected, backend


@pytest.mark.parametrize("preset", ["classic", "partnership"])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(counts=hands(3, 20), keep=st.integers(0, 2),
       draw_groups=st.lists(st.integers(0, 9), max_size=80),
       draw_limits=st.lists(st.integers(0, 1), max_size=6))
def test_backends_agree_on_best_with_groups_and_max_left(preset, counts, keep, draw_groups,
                                                         draw_limits):
    _, params = _params(preset)
    hand = np.array(counts, dtype=np.int64)
    table = partition.catalogue(hand, params, "python")
    groups, max_left = _constraints(draw_groups, draw_limits, len(table.keys), counts)
    expected = partition.best(hand, table, keep, "python", groups, max_left)
    for backend in FAST_BACKENDS:
        found = partition.best(hand, table, keep, backend, groups, max_left)
        if hand.sum() >= PRICED_CARDS:
            # the priced search answers a best lay-down, not always the reference's first
            assert (found.points, found.exact) == (expected.points, expected.exact)
            _assert_legal(hand, table, found, keep, groups, max_left)
        else:
            assert found == expected, backend


def _assert_legal(hand, table, found, keep, groups, max_left):
    """``found`` is a lay-down of ``hand`` within the constraints, worth its points."""
    if found.points == NEG_INF:
        return
    used = table.counts[found.indices].sum(axis=0) if found.indices else np.zeros(KIND_COUNT)
    left = hand - used
    taken = [int(groups[i]) for i in found.indices if groups[i] >= 0]
    assert (left >= 0).all() and left.sum() >= keep and (left <= np.asarray(max_left)).all()
    assert len(taken) == len(set(taken))
    assert int(table.points[found.indices].sum()) == found.points


# --- the solver API ----------------------------------------------------------------


def test_best_laydown_example():
    best = best_laydown("4H 5H 6H 7H 8H 9H 10H KS KD", "classic", backend="python")
    assert best.points == 250 and best.optimal
    assert [str(m) for m in best.melds] == ["4H 5H 6H 7H 8H 9H 10H"]
    assert str(best.left) == "KS KD"


def test_best_laydown_trump_changes_the_choice():
    hand = "4H 5H 6H 7H 8H 9H 10H KS KD"
    assert best_laydown(hand, "classic", trump="H").points == 650
    assert best_laydown(hand, "classic", trump="S").points == 250


def test_best_laydown_keep_zero_may_empty_the_hand():
    hand = "4H 5H 6H 7S 7D 7C"
    assert best_laydown(hand, keep=0).points == 15 + 15
    assert len(best_laydown(hand, keep=0).left) == 0
    one = best_laydown(hand, keep=1)
    assert one.points == 15 and len(one.left) == 3


@pytest.mark.parametrize("backend", ["python", *FAST_BACKENDS])
def test_meld_points_in_catalogue_match_the_rules_spec(backend):
    hand = "AS 2S 3S 4S 5S 6S 7S JK 5H 5D 5C 7H 7D 2C"
    for meld in meld_catalogue(hand, "classic", trump="S", backend=backend):
        assert analyze_meld(meld.cards, "classic", "S").points == meld.points


def test_iter_laydowns_streams_count_many():
    hand = "AS 2S 3S 4S 5S JK 5H 5D 5C"
    streamed = list(iter_laydowns(hand))
    assert streamed[0] == ()
    assert len(streamed) == count_laydowns(hand, backend="python")
    assert len({tuple(sorted(str(m) for m in l)) for l in streamed}) == len(streamed)


def test_45_card_hand_is_exact_and_agrees():
    rng = random.Random(45)
    counts = [0] * KIND_COUNT
    for kind in rng.sample(PACK, 45):
        counts[kind] += 1
    hand = Hand(tuple(counts))
    results = {backend: best_laydown(hand, backend=backend) for backend in FAST_BACKENDS}
    assert len({result.points for result in results.values()}) == 1
    for result in results.values():
        laid = sum((len(m.cards) for m in result.melds), 0)
        assert laid + len(result.left) == 45 and len(result.left) >= 1


def test_count_overflow_is_explicit(monkeypatch):
    module = importlib.import_module("kernels.partition_numba")
    monkeypatch.setattr(module, "count", lambda hand, melds, budget: (2**63 - 1, 1, False))
    with pytest.raises(partition.CountOverflowError, match="exceeds int64"):
        partition.count(np.zeros(KIND_COUNT, dtype=np.int64),
                        partition.catalogue(np.zeros(KIND_COUNT, dtype=np.int64),
                                            _params("classic")[1], "python"), "numba")


@pytest.mark.parametrize(
    "call, needle",
    [
        (lambda: best_laydown("AS 2S 3S", keep=4), "cannot keep 4"),
        (lambda: best_laydown("AS 2S 3S", keep=-1), "keep must be"),
        (lambda: best_laydown("AS AS AS AS 3S"), "more copies"),
        (lambda: count_laydowns("AS 2Z"), "'2Z'"),
        (lambda: best_laydown("4H 5H 6H", "partnership", trump="H"), "no trump"),
    ],
)
def test_bad_input_is_a_biriba_error(call, needle):
    with pytest.raises(BiribaError, match=needle):
        call()
    assert issubclass(ImpossiblePositionError, BiribaError)


def test_backend_by_environment_variable(monkeypatch):
    monkeypatch.setenv("BIRIBA_BACKEND", "python")
    assert partition.resolve_backend(None) == "python"
    monkeypatch.setenv("BIRIBA_BACKEND", "fortran")
    with pytest.raises(ValueError, match="fortran"):
        partition.resolve_backend(None)
    monkeypatch.delenv("BIRIBA_BACKEND")
    assert partition.resolve_backend(None) == partition.DEFAULT_BACKEND


@pytest.mark.skipif(os.environ.get("BIRIBA_PURE_PYTHON", "") not in ("", "0"), reason="forced")
def test_cython_partition_extension_built():
    module = importlib.import_module("kernels._partition")
    assert module.COMPILED is True and module.__file__.endswith((".so", ".pyd"))


def test_kernels_refuse_a_catalogue_outside_the_hand():
    _, params = _params("classic")
    hand = np.array(Hand.parse("AS 2S 3S 4S").counts, dtype=np.int64)
    table = partition.catalogue(hand, params, "python")
    smaller = np.array(Hand.parse("AS 2S 4S").counts, dtype=np.int64)
    for backend in ("python", *FAST_BACKENDS):
        with pytest.raises(ValueError, match="not inside the hand"):
            partition.count(smaller, table, backend)
        with pytest.raises(ValueError, match="keep must be"):
            partition.best(hand, table, -1, backend)


def test_default_backend_is_the_fastest_built_one():
    assert partition.DEFAULT_BACKEND == "cython"


def test_a_group_takes_at_most_one_meld_when_its_first_kind_is_used_up():
    """Group 0 (at most one of its melds) whose first meld's kind another meld uses up,
    with a kind no meld holds in between: every backend picks the reference's melds."""
    kinds = [int(kind) for kind in decision_order()[:5]]
    hand = np.zeros(KIND_COUNT, dtype=np.int64)
    hand[kinds] = 1
    rows = [[kinds[0], kinds[1]], [kinds[1], kinds[4]], [kinds[3], kinds[4]], [kinds[3]]]
    counts = np.zeros((len(rows), KIND_COUNT), dtype=np.int64)
    for index, row in enumerate(rows):
        counts[index, row] = 1
    zeros = np.zeros(len(rows), dtype=np.int64)
    table = partition.Catalogue(np.arange(len(rows), dtype=np.int64), counts, zeros, zeros,
                                zeros, np.array([10, 1, 5, 5], dtype=np.int64))
    groups = [-1, 0, 0, -1]
    expected = partition.best(hand, table, 0, "python", groups, hand)
    assert expected[:2] == (15, [0, 3])
    for backend in FAST_BACKENDS:
        assert partition.best(hand, table, 0, backend, groups, hand) == expected, backend


@pytest.mark.parametrize("preset", ["classic", "partnership", "greek", "venezuelan", "barimba"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(counts=hands(3, 14), extra=st.lists(st.integers(0, KIND_COUNT - 1), max_size=3))
def test_meld_reading_is_the_catalogue_row_of_the_whole_meld(preset, counts, extra):
    """RULES.md §2-3: the engine reads a laid meld as its catalogue row (best reading, clean,
    points); ``meld_reading`` generates only the readings holding every card, and answers
    -1 for cards that are no meld (sub-melds of them do not count)."""
    from kernels import partition_numba as kernel
    _, params = _params(preset)
    args = (params.scalars(), params.values, params.run_bonus, params.set_bonus)
    hand = np.array(counts, dtype=np.int64)
    keys, rows, shapes, homes, cleans, points = kernel.catalogue(hand, *args)
    for i in range(min(len(keys), 40)):
        assert kernel.meld_reading(rows[i].copy(), *args) == (
            shapes[i], homes[i], cleans[i], points[i])
    mixed = hand.copy()
    for kind in extra:
        mixed[kind] += 1
    whole = {tuple(row) for row in kernel.catalogue(mixed, *args)[1].tolist()}
    shape = kernel.meld_reading(mixed, *args)[0]
    assert (shape >= 0) == (tuple(mixed.tolist()) in whole)
