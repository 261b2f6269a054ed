"""The turn optimizer: CP-SAT and the kernel path against brute force and each other.

Clauses: RULES.md §2 (extending a team's melds, wild repositioning, clean
once an own-suit 2 falls into place), §3 (bonuses of a meld reaching 7 or
13 cards), §5 (a card of a taken pile that must be melded), §6 (minimum
first lay-down).
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kernels.encoding import ACE_HIGH_POSITION, JOKER, RANK_COUNT
from kernels.partition import BACKENDS
from solver.cards import Hand
from solver.errors import (
    BiribaError,
    IllegalMeldError,
    ImpossiblePositionError,
    InvalidCardError,
    OutOfRangeError,
)
from solver.extensions import table_additions
from solver.instances import random_instance
from solver.melds import can_meld
from solver.optimizer import CARD_WEIGHT, Config, Instance, optimize_laydown
from solver.rules import get_rules
from tests.naive import naive_turn_best

KERNEL = Config(solver="kernel")
CPSAT = Config(solver="cpsat")


def both(instance, objective="points", backend=None):
    """Results of the kernel path and CP-SAT, checked to agree on the value."""
    kernel = optimize_laydown(instance, Config(solver="kernel", objective=objective,
                                               backend=backend))
    cpsat = optimize_laydown(instance, Config(solver="cpsat", objective=objective))
    assert kernel.feasible == cpsat.feasible
    assert kernel.points == cpsat.points, (instance, kernel, cpsat)
    assert cpsat.optimal
    return kernel, cpsat


def check_laydown(instance, result):
    """The result is a real lay-down: cards from the hand, legal melds and extensions."""
    from solver.melds import analyze_extension, analyze_meld

    used = instance.hand
    points = 0
    for meld in result.melds:
        used = used - meld.cards
        points += analyze_meld(meld.cards, instance.rules, instance.trump).points
    seen = set()
    for extension in result.extensions:
        assert extension.table_index not in seen
        seen.add(extension.table_index)
        used = used - extension.cards
        info = analyze_extension(instance.table[extension.table_index], extension.cards,
                                 instance.rules, instance.trump)
        assert info.points == extension.points
        points += info.points
    assert used == result.left
    assert len(result.left) >= instance.keep
    assert instance.must_use.issubset(instance.hand - result.left)
    assert points == result.points


# --- scenarios, by clause ----------------------------------------------------------


def test_2_extending_a_table_run_adds_card_values():
    instance = Instance.build("8H 9H KS", table=["5H 6H 7H"])
    kernel, _ = both(instance)
    assert kernel.points == 20
    assert [(e.table_index, str(e.cards)) for e in kernel.extensions] == [(0, "8H 9H")]
    assert str(kernel.left) == "KS"


def test_3_run_reaching_seven_cards_earns_the_biriba_bonus():
    instance = Instance.build("9S 10S JS 4D", table=["5S 6S 7S 8S"])
    kernel, _ = both(instance)
    # 9S 10S JS are worth 30; the run becomes a clean biriba (200) -> 230.
    assert kernel.points == 230
    assert str(kernel.extensions[0].meld) == "5S 6S 7S 8S 9S 10S JS"


def test_2_own_suit_two_falls_into_place_and_the_run_turns_clean():
    # On the table 2S stands for the 7S; adding 3S 4S 7S puts it at its natural place:
    # 2S..8S is a clean 7-card run (200) instead of a dirty one (100).
    instance = Instance.build("3S 4S 7S KD", table=["5S 6S 2S 8S"])
    kernel, _ = both(instance)
    extension = kernel.extensions[0]
    assert str(extension.cards) == "3S 4S 7S"
    assert extension.points == 5 + 5 + 5 + 200


def test_2_wild_repositioning_lets_the_natural_card_in():
    # 4H 5H [2C] 7H + 6H: the 2C moves to an end (000's example).
    instance = Instance.build("6H KS", table=["4H 5H 2C 7H"])
    kernel, _ = both(instance)
    assert [str(e.cards) for e in kernel.extensions] == ["6H"]
    assert kernel.points == 5


def test_2_a_set_on_the_table_takes_more_of_its_rank_and_one_wild():
    instance = Instance.build("7H JK 9C", table=["7C 7D 7S"])
    kernel, _ = both(instance)
    assert kernel.points == 5 + 20
    assert str(kernel.extensions[0].cards) == "7H JK"


def test_2_a_table_meld_is_extended_at_most_once_per_turn():
    # Two wilds cannot both join the table run (one wild per meld): only one is added.
    instance = Instance.build("JK JK 3C", table=["5H 6H 7H"])
    kernel, cpsat = both(instance)
    assert len(kernel.extensions) == 1 and len(cpsat.extensions) == 1
    assert kernel.points == 20


def test_6_vulnerable_team_below_the_minimum_lays_nothing():
    # classic: 1000-1499 needs 75 for the first lay-down; 4H 5H 6H is worth 15.
    instance = Instance.build("4H 5H 6H KS", score=1200)
    assert instance.minimum == 75
    kernel, _ = both(instance)
    assert kernel.points == 0 and not kernel.melds


def test_6_vulnerable_team_that_reaches_the_minimum_lays_down():
    instance = Instance.build("4H 5H 6H 7H 8H 9H 10H KS", score=1200)
    kernel, _ = both(instance)
    assert kernel.points >= 75 and kernel.melds


def test_6_no_minimum_once_the_team_has_opened():
    instance = Instance.build("4H 5H 6H KS", score=1200, opened=True)
    assert instance.minimum == 0
    kernel, _ = both(instance)
    assert kernel.points == 15


def test_5_must_use_card_forces_a_lay_down_that_holds_it():
    # Without the constraint the best is the hearts run; KD must be used, so KS KD KC goes down.
    free = Instance.build("4H 5H 6H KS KD KC")
    assert both(free)[0].points == 30
    forced = Instance.build("4H 5H 6H KS KD KC", must_use="KD", keep=3)
    kernel, _ = both(forced)
    assert kernel.points == 30 and "KD" not in kernel.left
    check_laydown(forced, kernel)


def test_5_must_use_card_that_fits_nowhere_is_infeasible():
    instance = Instance.build("4H 5H 6H 9C", must_use="9C")
    kernel, cpsat = both(instance)
    assert not kernel.feasible and not cpsat.feasible
    assert kernel.points == 0 and str(kernel.left) == str(instance.hand)


def test_objective_cards_prefers_more_cards_over_points():
    # Points: JK with the kings (30 + 20); cards: the same 4 cards either way, so
    # build a case where the choice differs: 3 low cards + a joker vs 3 aces.
    instance = Instance.build("3H 4H 5H AS AD AC JK 9C")
    points = optimize_laydown(instance, Config(objective="points"))
    cards = optimize_laydown(instance, Config(objective="cards"))
    laid = len(instance.hand) - len(cards.left)
    assert laid == 7 and len(instance.hand) - len(points.left) <= laid
    assert naive_turn_best(instance, CARD_WEIGHT) == cards.points + CARD_WEIGHT * laid


def test_objective_out_says_whether_the_hand_goes_out():
    out = optimize_laydown(Instance.build("3H 4H 5H KS KD KC 9C"), Config(objective="out"))
    assert out.goes_out and str(out.left) == "9C"
    stuck = optimize_laydown(Instance.build("3H 4H 5H KS KD 9C"), Config(objective="out"))
    assert not stuck.goes_out


# --- brute force and cross-checks ------------------------------------------------------


@pytest.mark.parametrize("seed", range(60))
def test_small_instances_match_brute_force(seed):
    rules = ("classic", "partnership", "greek")[seed % 3]
    instance = random_instance(seed, hand_size=4 + seed % 4, table_melds=seed % 3, rules=rules,
                               keep=seed % 2)
    expected = naive_turn_best(instance)
    kernel, cpsat = both(instance, backend="python")
    assert kernel.points == (expected if expected is not None else 0)
    check_laydown(instance, kernel)
    check_laydown(instance, cpsat)


@pytest.mark.parametrize("seed", range(30))
def test_small_instances_with_constraints_match_brute_force(seed):
    instance = random_instance(1000 + seed, hand_size=6, table_melds=seed % 2,
                               score=1200 if seed % 3 == 0 else 0)
    hand = instance.hand
    must = hand.kinds()[seed % len(hand)]
    instance = Instance.build(hand, table=instance.table, trump=instance.trump,
                              opened=instance.opened, score=instance.score, must_use=[must])
    expected = naive_turn_best(instance)
    kernel, _ = both(instance, backend="python")
    assert kernel.feasible == (expected is not None)
    if expected is not None:
        assert kernel.points == expected
        check_laydown(instance, kernel)


@pytest.mark.parametrize("chunk", range(10))
def test_kernel_and_cpsat_agree_on_500_random_instances(chunk):
    for seed in range(chunk * 50, chunk * 50 + 50):
        rules = ("classic", "partnership", "greek")[seed % 3]
        instance = random_instance(seed, hand_size=8 + seed % 17, table_melds=seed % 9,
                                   rules=rules)
        kernel, cpsat = both(instance)
        check_laydown(instance, kernel)
        check_laydown(instance, cpsat)


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_backend_gives_the_kernel_path_the_same_optimum(backend):
    for seed in range(40):
        instance = random_instance(seed, hand_size=14, table_melds=seed % 6)
        reference = optimize_laydown(instance, Config(backend="python"))
        result = optimize_laydown(instance, Config(backend=backend))
        assert result.points == reference.points
        check_laydown(instance, result)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), size=st.integers(1, 24), melds=st.integers(0, 8),
       preset=st.sampled_from(["classic", "greek", "barimba", "partnership", "venezuelan"]))
def test_compiled_table_additions_match_the_reference(seed, size, melds, preset):
    """RULES.md §2 "Extending": every backend offers the same additions, in the same order."""
    instance = random_instance(seed, hand_size=size, table_melds=melds, rules=preset)
    expected = table_additions(instance, "python")
    for backend in ("numba", "cython"):
        found = table_additions(instance, backend)
        for want, got in zip(expected, found):
            assert got.dtype == np.int64
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("hand, table, joins", [
    ("9H KC", "5H 6H 7H JK", True),      # 5 6 7 JK 9: the wild stays at 8
    ("10H KC", "5H 6H 7H JK", False),    # 8 and 9 would both need the one wild
    ("10H 9H KC", "5H 6H 7H JK", True),  # 9 joins first, 10 after it
    ("QH 3C", "5H 6H 7H", False),        # no wild and nothing within two places
    ("9H 3C", "5H 6H 7H", False),        # 8 would need a wild, and the hand holds none
    ("9H 2C", "5H 6H 7H", True),         # 5 6 7 2C 9: the hand's wild fills 8
    ("AH KC", "QH KH JK", True),         # the ace high: Q K JK A or JK Q K A
])
def test_table_run_additions_skip_far_cards_only(hand, table, joins):
    """RULES.md §2 "Extending" and §3 (one wild per meld): a table run takes no hand
    natural that stands too far from it (the cells between would need more wilds than a
    meld takes), and every card that can still join, in every backend."""
    instance = Instance.build(Hand.parse(hand), table=[Hand.parse(table)], opened=True)
    expected = table_additions(instance, "python")
    assert (len(expected[0]) > 0) == joins
    for backend in ("numba", "cython"):
        for want, got in zip(expected, table_additions(instance, backend)):
            np.testing.assert_array_equal(got, want)


def _meld_and_hand(data, rules):
    """A table run or set (any window: the ace low or high, a 2 at its place, a wild
    anywhere) and a hand of cards that can join it: the meld's suit or rank, wilds, others."""
    wilds = [JOKER] + [suit * RANK_COUNT + 1 for suit in range(4)]
    if data.draw(st.booleans()):
        suit = data.draw(st.integers(0, 3))
        low = data.draw(st.integers(0, 11))
        length = data.draw(st.integers(3, min(RANK_COUNT, ACE_HIGH_POSITION + 1 - low)))
        kinds = [suit * RANK_COUNT + position % RANK_COUNT for position in range(low, low + length)]
        near = [suit * RANK_COUNT + rank for rank in range(RANK_COUNT)]
    else:
        rank = data.draw(st.sampled_from([r for r in range(RANK_COUNT) if r != 1]))
        kinds = [data.draw(st.integers(0, 3)) * RANK_COUNT + rank
                 for _ in range(data.draw(st.integers(3, 6)))]
        near = [suit * RANK_COUNT + rank for suit in range(4)]
    wild = data.draw(st.sampled_from(["none", "replace", "add"]))
    if wild == "replace":
        kinds[data.draw(st.integers(0, len(kinds) - 1))] = data.draw(st.sampled_from(wilds))
    elif wild == "add":
        kinds.append(data.draw(st.sampled_from(wilds)))
    meld = Hand.from_kinds(kinds)
    assume(can_meld(meld, rules))
    hand = data.draw(st.lists(st.sampled_from(near + wilds + [5, 22, 35, 48]), max_size=12))
    return meld, Hand.from_kinds(hand)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.filter_too_much])
@given(data=st.data(), preset=st.sampled_from(["classic", "greek", "barimba", "threes",
                                                "venezuelan", "partnership"]))
def test_table_additions_of_a_run_or_set_match_the_reference(data, preset):
    """RULES.md §2 "Extending", §3 (one wild per meld; 2s wild, natural at their place in
    their own suit's run; the ace low or high): the compiled additions of one table run or
    set, with a hand of the cards that can join it, are the reference's, in its order (the
    numba fast path for one-wild rules, kernels.additions_numba, meets its edge cases here)."""
    rules = get_rules(preset)
    meld, hand = _meld_and_hand(data, rules)
    try:
        instance = Instance.build(hand, table=[meld], rules=rules, opened=True)
    except BiribaError:
        assume(False)                  # more copies of a card than the decks hold
    expected = table_additions(instance, "python")
    for backend in ("numba", "cython"):
        for want, got in zip(expected, table_additions(instance, backend)):
            np.testing.assert_array_equal(got, want)


def test_a_wild_card_set_on_the_table_takes_wilds_in_every_backend():
    """RULES.md §3 (venezuelan): a set of wilds only grows with wilds; the numba kernel once
    refused it, as if its wilds were foreign wilds of a one-wild meld."""
    instance = Instance.build(Hand.parse("JK 2S 9C KD"), table=[Hand.parse("JK 2C 2D")],
                              rules="venezuelan", opened=True)
    expected = table_additions(instance, "python")
    assert len(expected[0]) == 3          # +JK, +2S, +JK 2S
    for backend in ("numba", "cython"):
        for want, got in zip(expected, table_additions(instance, backend)):
            np.testing.assert_array_equal(got, want)


def test_cpsat_is_deterministic():
    instance = random_instance(3, hand_size=20, table_melds=5)
    first = optimize_laydown(instance, CPSAT).to_dict()
    second = optimize_laydown(instance, CPSAT).to_dict()
    first.pop("seconds"), second.pop("seconds")
    assert first == second


# --- bad input ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, error, needle",
    [
        ({"table": ["4H 5H"]}, IllegalMeldError, "table meld 0 '4H 5H' is not a legal meld"),
        ({"table": ["7C 7C 7D"], "hand": "7C 8C"}, ImpossiblePositionError, "3 copies of 7C"),
        ({"must_use": "9C"}, InvalidCardError, "must-use card(s) '9C'"),
        ({"keep": 9}, ImpossiblePositionError, "cannot keep 9"),
        ({"players": 5}, ImpossiblePositionError, "players must be"),
    ],
)
def test_bad_instances_are_refused_with_the_input_quoted(kwargs, error, needle):
    arguments = {"hand": "4H 5H 6H"}
    arguments.update(kwargs)
    with pytest.raises(error) as raised:
        Instance.build(arguments.pop("hand"), **arguments)
    assert needle in str(raised.value)
    assert isinstance(raised.value, BiribaError)


@pytest.mark.parametrize(
    "args, needle",
    [
        ((1, 50, 10), "hand_size must be 0..49"),  # 108 cards less the ten melds' 59
        ((0, 109, 0), "got 109"),
        ((0, 11, -1), "table_melds must be 0..40, got -1"),
        ((0, 11, 40), "40 table melds could not be dealt"),
    ],
)
def test_seeded_instances_refuse_sizes_the_pack_cannot_deal(args, needle):
    """RULES.md §1: 108 cards for four players; a seeded instance deals its
    table melds and hand from that pack, so it cannot ask for more cards than it holds."""
    with pytest.raises(OutOfRangeError, match=needle):
        random_instance(*args)


def test_six_players_allow_three_copies():
    instance = Instance.build("7C 8C", table=["7C 7C 7D"], players=6)
    assert len(instance.table) == 1


def test_bad_config_is_refused():
    with pytest.raises(BiribaError, match="unknown solver 'gurobi'"):
        Config(solver="gurobi")
    with pytest.raises(BiribaError, match="unknown objective"):
        Config(objective="fun")


def test_partnership_rules_pass_through():
    rules = get_rules("partnership")
    instance = Instance.build("4H 5H 2C 6S", table=["7H 8H 9H"], rules=rules)
    kernel, _ = both(instance)
    check_laydown(instance, kernel)


def test_auto_picks_the_kernel_for_small_hands_and_cpsat_for_large_ones():
    from solver.optimizer import AUTO_KERNEL_CARDS

    from solver.values import MAX_HAND_CARDS

    # the kernel answers up to the limit (CP-SAT where it stops at its budget), CP-SAT above;
    # a limit of MAX_HAND_CARDS is every hand the kernels take
    for objective, limits in AUTO_KERNEL_CARDS.items():
        config = Config(objective=objective)
        for tables, limit in zip((0, 3), limits):
            instance = random_instance(1, limit, tables)
            alone = optimize_laydown(instance, Config(solver="kernel", objective=objective))
            small = optimize_laydown(instance, config)
            assert small.solver == ("kernel" if alone.optimal else "cpsat")
            if limit < MAX_HAND_CARDS:
                large = optimize_laydown(random_instance(1, limit + 1, tables), config)
                assert large.solver == "cpsat"
    assert AUTO_KERNEL_CARDS["cards"][1] < MAX_HAND_CARDS  # the test sees both sides


# --- the rows, defined once (kernels/candidates.py) ------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 6), st.integers(0, 6), st.randoms(use_true_random=False))
def test_the_compiled_rows_are_the_plain_ones(new, added, rng):
    from kernels.candidates import candidate_rows, max_left, max_left_python, rows_python

    def table(rows):
        return np.array([[rng.randint(0, 2) for _ in range(53)] for _ in range(rows)],
                        dtype=np.int64).reshape(rows, 53)

    new_counts, add_counts = table(new), table(added)
    new_points = np.array([rng.randint(0, 300) for _ in range(new)], dtype=np.int64)
    add_points = np.array([rng.randint(0, 300) for _ in range(added)], dtype=np.int64)
    add_groups = np.array([rng.randint(0, 9) for _ in range(added)], dtype=np.int64)
    compiled = candidate_rows(new_counts, new_points, add_counts, add_points, add_groups)
    plain = rows_python(new_counts, new_points, add_counts, add_points, add_groups)
    for a, b in zip(compiled, plain):
        assert np.array_equal(a, b)
    counts, points, groups = plain
    assert (groups[:new] == -1).all() and np.array_equal(groups[new:], add_groups)
    assert np.array_equal(counts[new:], add_counts) and np.array_equal(points[:new], new_points)
    hand = table(1)[0] + 1
    must = np.zeros(53, dtype=np.int64)
    must[rng.randint(0, 52)] = 1
    assert np.array_equal(max_left(hand, must), max_left_python(hand, must))
