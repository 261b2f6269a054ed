"""Rule sets and presets: RULES.md §1 (cards), §3 (bonuses), §6 (vulnerability),
§7 (targets) and §8 (presets and options). Expectations come from RULES.md."""

import dataclasses

import pytest

from solver.cards import deck_counts, parse_kind
from solver.errors import BiribaError, InvalidRulesError
from solver.rules import PRESETS, RuleSet, get_rules

PRESET_NAMES = ["classic", "cyprus", "partnership", "greek", "barimba", "threes", "venezuelan"]


# --- §8 presets by name ---------------------------------------------------------------------

def test_s8_every_preset_is_known():
    assert sorted(PRESETS) == sorted(PRESET_NAMES)


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize("spelling", [str.lower, str.upper, str.title])
def test_s8_preset_found_by_name_case_insensitive(name, spelling):
    rules = get_rules(spelling(name))
    assert isinstance(rules, RuleSet)
    assert rules.name == name
    assert rules is PRESETS[name]


def test_s8_default_preset_is_classic():
    assert get_rules().name == "classic"
    assert get_rules(" Classic ").name == "classic"


def test_s8_get_rules_accepts_a_rule_set():
    custom = get_rules("greek", "sets")
    assert get_rules(custom) is custom
    assert get_rules(custom, joker_value=30).joker_value == 30


@pytest.mark.parametrize("name", ["canasta", "classic2", "", "grek"])
def test_s8_unknown_preset_raises_naming_it(name):
    with pytest.raises(InvalidRulesError) as error:
        get_rules(name)
    assert repr(name) in str(error.value)
    assert isinstance(error.value, BiribaError) and isinstance(error.value, ValueError)


def test_s8_unknown_option_raises_naming_it():
    with pytest.raises(InvalidRulesError, match="'wild_threes'"):
        get_rules("partnership", "wild_threes")


# --- §1 cards -----------------------------------------------------------------------------------

# (joker, A, 2, K Q J, 10 9 8, 7..3) from the §1 table.
VALUE_TABLE = {
    "classic": (20, 15, 10, 10, 10, 5),
    "partnership": (50, 20, 20, 10, 10, 5),
    "greek": (25, 15, 20, 10, 10, 5),
    "threes": (20, 15, 10, 10, 10, 5),
    "venezuelan": (50, 20, 25, 10, 10, 5),
    "cyprus": (20, 15, 10, 10, 10, 5),     # cyprus = classic with another full-run bonus (§3)
    # §1 does not list barimba: it follows its seed 003's main table (README "Decisions").
    "barimba": (25, 15, 20, 10, 10, 5),
}
TOKEN_COLUMN = {
    "JK": 0, "AS": 1, "AH": 1, "2S": 2, "2D": 2, "KC": 3, "QH": 3, "JS": 3,
    "10D": 4, "9C": 4, "8H": 4, "7S": 5, "6H": 5, "5D": 5, "4C": 5, "3S": 5,
}


@pytest.mark.parametrize("token", list(TOKEN_COLUMN))
@pytest.mark.parametrize("name", list(VALUE_TABLE))
def test_s1_card_values(name, token):
    rules = get_rules(name)
    assert rules.card_value(parse_kind(token)) == VALUE_TABLE[name][TOKEN_COLUMN[token]]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_s1_card_values_vector(name):
    rules = get_rules(name)
    values = rules.card_values()
    assert len(values) == 53
    assert values == tuple(rules.card_value(kind) for kind in range(53))
    # the value does not depend on the suit
    for rank_index in range(13):
        assert len({values[suit * 13 + rank_index] for suit in range(4)}) == 1


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_s1_wild_cards_are_jokers_and_twos(name):
    rules = get_rules(name)
    assert rules.is_wild_kind(parse_kind("JK"))
    for token in ("2S", "2H", "2D", "2C"):
        assert rules.is_wild_kind(parse_kind(token))
    for token in ("AS", "3H", "KD", "10C"):
        assert not rules.is_wild_kind(parse_kind(token))


def test_s1_option_no_wild_twos():
    rules = get_rules("partnership", "no_wild_twos")
    assert rules.is_wild_kind(parse_kind("JK"))
    assert not any(rules.is_wild_kind(parse_kind(token)) for token in ("2S", "2H", "2D", "2C"))


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize(
    "players, decks, jokers, cards",
    [(2, 2, 4, 108), (3, 2, 4, 108), (4, 2, 4, 108), (5, 2, 4, 108), (6, 3, 6, 162)],
)
def test_s1_deck_and_joker_count(name, players, decks, jokers, cards):
    rules = get_rules(name)
    assert rules.deck_count(players) == decks
    assert rules.joker_count(players) == jokers
    assert sum(deck_counts(rules.deck_count(players), rules.joker_count(players))) == cards


# --- §2 and §8 meld switches --------------------------------------------------------------------

@pytest.mark.parametrize(
    "name, sets, max_wilds, naturals_per_wild, trump",
    [
        ("classic", True, 1, None, True),
        ("cyprus", True, 1, None, True),
        ("partnership", True, None, 2, False),
        ("greek", False, 1, None, True),
        ("barimba", True, 1, None, False),
        ("threes", True, 1, None, False),
        ("venezuelan", True, 1, None, False),
    ],
)
def test_s8_preset_table(name, sets, max_wilds, naturals_per_wild, trump):
    rules = get_rules(name)
    assert rules.sets_allowed is sets
    assert rules.max_wilds_per_meld == max_wilds
    assert rules.naturals_per_wild == naturals_per_wild
    assert rules.has_trump is trump
    assert rules.min_meld_size == 3
    assert rules.biriba_size == 7
    assert rules.full_run_size == 13


def test_s8_greek_option_sets():
    assert get_rules("greek", "sets").sets_allowed is True


def test_s8_barimba_no_sets_of_aces_or_threes():
    rules = get_rules("barimba")
    assert not rules.set_rank_allowed(0)   # A
    assert not rules.set_rank_allowed(2)   # 3
    assert all(rules.set_rank_allowed(index) for index in (1, 3, 4, 9, 12))


def test_s2_sets_of_twos_every_preset_with_sets_but_partnership():
    assert get_rules("classic").set_rank_allowed(1)
    assert get_rules("threes").set_rank_allowed(1)
    assert get_rules("barimba").set_rank_allowed(1)
    assert not get_rules("partnership").set_rank_allowed(1)
    assert not get_rules("greek").set_rank_allowed(1)          # sets off
    assert get_rules("greek", "sets").set_rank_allowed(1)


# --- §3 bonuses ---------------------------------------------------------------------------------

BONUS_FIELDS = (
    "run_biriba_clean", "run_biriba_dirty", "set_biriba_clean", "set_biriba_dirty",
    "full_run_clean", "full_run_dirty", "trump_run_clean", "trump_run_dirty",
    "trump_full_clean", "trump_full_dirty",
)
CLASSIC_BONUSES = (200, 100, 300, 150, 1000, 500, 600, 300, 1000, 500)


@pytest.mark.parametrize(
    "name, bonuses",
    [
        ("classic", CLASSIC_BONUSES),
        ("cyprus", (200, 100, 300, 150, 1000, 100, 600, 300, 1000, 100)),
        ("greek", (200, 100, 300, 150, 1000, 500, 600, 200, 2000, 1000)),
    ],
)
def test_s3_bonus_fields_trump_presets(name, bonuses):
    rules = get_rules(name)
    assert tuple(getattr(rules, field) for field in BONUS_FIELDS) == bonuses
    assert rules.has_trump and rules.full_run_bonus
    assert rules.set_biriba_ranks is None
    assert not rules.super_biriba and not rules.hearts_super_trump


@pytest.mark.parametrize(
    "name, run_bonus, set_bonus, full_bonus",
    [
        ("barimba", (200, 100), (300, 150), (1000, 500)),
        ("threes", (200, 100), (200, 100), (500, 250)),
    ],
)
def test_s3_bonus_fields_no_trump_presets(name, run_bonus, set_bonus, full_bonus):
    rules = get_rules(name)
    assert (rules.run_biriba_clean, rules.run_biriba_dirty) == run_bonus
    assert (rules.set_biriba_clean, rules.set_biriba_dirty) == set_bonus
    assert rules.full_run_bonus
    assert (rules.full_run_clean, rules.full_run_dirty) == full_bonus
    assert not rules.has_trump
    assert not rules.super_biriba


def test_s3_partnership_bonus_fields():
    rules = get_rules("partnership")
    assert (rules.run_biriba_clean, rules.run_biriba_dirty) == (200, 100)
    assert (rules.set_biriba_clean, rules.set_biriba_dirty) == (300, 150)
    assert rules.set_biriba_ranks == ("A",)            # aces only
    assert rules.full_run_bonus is False               # a full run is a run biriba
    assert rules.has_trump is False
    assert rules.super_biriba is False                 # an option
    with_option = get_rules("partnership", "super_biriba")
    assert with_option.super_biriba is True
    assert (with_option.super_biriba_size, with_option.super_biriba_clean,
            with_option.super_biriba_dirty) == (11, 400, 200)


def test_s3_hearts_super_trump_option():
    rules = get_rules("greek", "hearts_super_trump")
    assert rules.hearts_super_trump is True
    assert rules.hearts_trump_multiplier == 4
    assert get_rules("greek").hearts_super_trump is False


def test_s3_wild_card_set_only_venezuelan():
    for name in PRESET_NAMES:
        assert get_rules(name).wild_sets is (name == "venezuelan")


# --- overrides ----------------------------------------------------------------------------------

def test_override_changes_one_field_and_keeps_the_preset():
    rules = get_rules("classic", target_score=2000, joker_value=30)
    assert (rules.target_score, rules.joker_value, rules.name) == (2000, 30, "classic")
    assert get_rules("classic").target_score == 3000
    assert get_rules("classic").joker_value == 20


def test_rule_sets_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        get_rules("classic").joker_value = 30


@pytest.mark.parametrize(
    "name, options, overrides, message",
    [
        pytest.param("classic", (), {"min_meld_size": 2}, "min_meld_size", id="meld-size-2"),
        pytest.param("classic", (), {"biriba_size": 3}, "biriba_size", id="biriba-size-3"),
        pytest.param("classic", (), {"biriba_size": 2}, "biriba_size", id="biriba-size-2"),
        pytest.param("partnership", ("hearts_super_trump",), {}, "hearts_super_trump",
                     id="hearts-super-trump-option-no-trump"),
        pytest.param("barimba", (), {"hearts_super_trump": True}, "hearts_super_trump",
                     id="hearts-super-trump-field-no-trump"),
        pytest.param("threes", (), {"hearts_super_trump": True}, "has_trump",
                     id="hearts-super-trump-threes"),
        pytest.param("classic", (), {"colour": "red"}, "colour", id="unknown-field"),
        pytest.param("classic", (), {"joker_value": -5}, "negative", id="negative-value"),
        pytest.param("classic", (), {"decks": 4}, "decks", id="four-decks"),
        pytest.param("classic", (), {"full_run_size": 12}, "full_run_size", id="full-run-12"),
        pytest.param("classic", (), {"vulnerability": ((1500, 90), (1000, 75))}, "ascending",
                     id="vulnerability-not-ascending"),
        pytest.param("classic", (), {"pile_pickup": "sometimes"}, "pile_pickup",
                     id="bad-pile-pickup"),
        pytest.param("greek", (), {"wild_sets": True}, "wild_sets", id="wild-sets-without-sets"),
        pytest.param("partnership", ("super_biriba",), {"super_biriba_size": 7},
                     "super_biriba_size", id="super-biriba-not-above-biriba"),
        pytest.param("partnership", (), {"naturals_per_wild": 0}, "naturals_per_wild",
                     id="naturals-per-wild-zero"),
        pytest.param("classic", (), {"max_wilds_per_meld": None}, "wild limit",
                     id="no-wild-limit"),
        pytest.param("classic", (), {"set_excluded_ranks": ("1",)}, "unknown rank",
                     id="unknown-rank"),
    ],
)
def test_inconsistent_override_raises(name, options, overrides, message):
    with pytest.raises(InvalidRulesError, match=message):
        get_rules(name, *options, **overrides)


# --- §6 vulnerability ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    "name, score, minimum",
    [
        ("classic", 0, 0), ("classic", 999, 0), ("classic", 1000, 75), ("classic", 1499, 75),
        ("classic", 1500, 90), ("classic", 2999, 90),
        ("cyprus", 999, 0), ("cyprus", 1000, 75), ("cyprus", 1500, 90),
        ("greek", 1000, 0), ("greek", 1010, 0), ("greek", 1011, 75), ("greek", 2009, 75),
        ("barimba", 1999, 0), ("barimba", 2000, 0), ("barimba", 2001, 75), ("barimba", 3000, 75),
        ("barimba", 3001, 100), ("barimba", 4000, 100), ("barimba", 4001, 125),
        ("barimba", 4999, 125),
        ("threes", 2004, 0), ("threes", 2005, 75), ("threes", 3004, 75), ("threes", 3005, 95),
        ("partnership", 0, 0), ("partnership", 1999, 0),
        ("venezuelan", 0, 0), ("venezuelan", 2499, 0),
    ],
)
def test_s6_minimum_first_laydown(name, score, minimum):
    assert get_rules(name).minimum_first_laydown(score) == minimum


def test_s6_threes_biriba_needed_before_biribaki():
    assert get_rules("threes").biriba_before_biribaki_from == 3005
    assert get_rules("classic").biriba_before_biribaki_from is None


# --- §7 targets ---------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "name, options, targets",
    [
        ("classic", (), {2: 2500, 3: 2500, 4: 3000, 6: 3000}),
        ("cyprus", (), {2: 2500, 3: 2500, 4: 3000, 6: 3000}),
        ("partnership", (), {2: 2000, 3: 2000, 4: 2000, 6: 2000}),
        ("partnership", ("individual",), {2: 1500, 3: 1500, 4: 1500}),
        ("greek", (), {2: 2010, 3: 2010, 4: 2010, 6: 2010}),
        ("barimba", (), {2: 5000, 4: 5000, 6: 5000}),
        ("threes", (), {2: 5005, 4: 5005, 6: 5005}),
        ("venezuelan", (), {2: 2500, 3: 2500, 4: 2500}),
    ],
)
def test_s7_target(name, options, targets):
    rules = get_rules(name, *options)
    for players, target in targets.items():
        assert rules.target(players) == target


def test_s8_other_partnership_options():
    assert get_rules("partnership", "hard_close").close_min_biribas == 2
    assert get_rules("partnership").close_min_biribas == 1
    assert get_rules("partnership", "individual").individual is True
    assert get_rules("greek", "pile_top_must_meld").pile_top_must_meld is True
    assert get_rules("greek").pile_top_must_meld is False
    assert get_rules("barimba").pile_top_must_meld is True
