"""Validation of rule sets where the values enter: field types and ranges (RuleSet),
the deal against the decks for a player count (RULES.md §1, §4: ``RuleSet.check_deal``,
called by the engine before any numba code) and options of their own preset (§8).

No test here starts a game: constructing ``Game`` only builds the rule arrays
(``new_initial_state`` is what runs numba).
"""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.engine.api import Game
from solver.engine.rules import EngineUnsupportedError, engine_rules
from solver.errors import BiribaError, InvalidRulesError
from solver.rules import MIN_STOCK, OPTIONS, PRESETS, RuleSet, _type_problem, get_rules

ENGINE_PRESETS = ["classic", "cyprus", "partnership", "greek", "barimba"]
PLAYER_COUNTS = [2, 3, 4, 6]
FIELDS = {item.name: item for item in dataclasses.fields(RuleSet)}
INT_FIELDS = [name for name, item in FIELDS.items() if str(item.type) in ("int", "int | None")]

# RULES.md §8 (and the clauses that define each option): the presets an option belongs to.
# hearts_super_trump: §8 lists it under greek; §3 states it for a trump in hearts without a
# preset, and the meld tests use it on classic, so every preset with trump takes it.
OPTION_PRESETS = {
    "no_wild_twos": {"partnership"},           # §1 "001 house rule", §8 partnership row
    "super_biriba": {"partnership"},           # §3 table, §8 partnership row
    "hard_close": {"partnership"},             # §7 partnership, §8 partnership row
    "individual": {"partnership"},             # §8 partnership row (target 1500)
    "hearts_super_trump": {"greek", "classic", "cyprus"},   # §3, §8 greek row
    "pile_top_must_meld": {"greek"},           # §5.1 "greek option", §8 greek row
    "sets": {"greek"},                         # §2, §8 greek row: sets "option (off)"
}


def refused(preset="classic", /, *options, **overrides) -> str:
    with pytest.raises(InvalidRulesError) as error:
        get_rules(preset, *options, **overrides)
    assert isinstance(error.value, BiribaError)
    return str(error.value)


# --- every field's type ------------------------------------------------------------------


def test_s1_card_value_must_be_an_int():
    assert refused(joker_value="abc") == "rule set 'classic': joker_value='abc' must be an int"


@pytest.mark.parametrize("field", ["joker_value", "hand_size", "decks", "target_score",
                                   "max_wilds_per_meld"])
def test_s1_a_bool_is_not_an_int(field):
    assert f"{field}=True must be an int" in refused(**{field: True})


@pytest.mark.parametrize("field", ["wild_twos", "sets_allowed", "has_trump", "turn_up_card",
                                   "individual"])
@pytest.mark.parametrize("value", [1, 0, "yes", None])
def test_s1_a_switch_must_be_a_bool(field, value):
    assert f"{field}={value!r} must be a bool" in refused(**{field: value})


@pytest.mark.parametrize(
    "field, value, message",
    [
        pytest.param("hand_size", 11.0, "hand_size=11.0 must be an int", id="float-int"),
        pytest.param("hand_size", None, "hand_size=None must be an int", id="none-int"),
        pytest.param("max_wilds_per_meld", "1", "must be an int (or None)", id="str-optional"),
        pytest.param("pile_pickup", 3, "pile_pickup=3 must be a str", id="int-str"),
        pytest.param("name", 5, "name=5 must be a str", id="int-name"),
        pytest.param("name", " ", "must not be empty", id="blank-name"),
        pytest.param("set_excluded_ranks", ["A"], "must be a tuple of str", id="list-ranks"),
        pytest.param("set_excluded_ranks", "A", "must be a tuple of str", id="str-ranks"),
        pytest.param("set_excluded_ranks", ("A", 3), "must be a tuple of str", id="int-rank"),
        pytest.param("set_biriba_ranks", ("Z",), "unknown rank 'Z'", id="unknown-rank"),
        pytest.param("three_player_biribaki_sizes", (18,), "tuple of 2 ints", id="one-size"),
        pytest.param("three_player_biribaki_sizes", (18, "11"), "tuple of 2 ints",
                     id="str-size"),
        pytest.param("three_player_biribaki_sizes", [18, 11], "tuple of 2 ints", id="list-sizes"),
        pytest.param("three_player_biribaki_sizes", (18, True), "tuple of 2 ints",
                     id="bool-size"),
        pytest.param("vulnerability", [(1000, 75)], "tuple of (int, int) pairs", id="list-vuln"),
        pytest.param("vulnerability", ((1000,),), "tuple of (int, int) pairs", id="short-pair"),
        pytest.param("vulnerability", ((1000, "75"),), "tuple of (int, int) pairs",
                     id="str-minimum"),
    ],
)
def test_s8_every_field_has_its_type(field, value, message):
    text = refused(**{field: value})
    assert message in text
    assert text.startswith("rule set ")


def test_s8_every_annotation_has_a_type_check():
    """A field added with a new kind of annotation must get a check (else TypeError here)."""
    for name, item in FIELDS.items():
        assert _type_problem(name, object(), str(item.type)) is not None, name
        assert _type_problem(name, getattr(RuleSet(), name), str(item.type)) is None, name


# --- ranges ------------------------------------------------------------------------------------


@pytest.mark.parametrize("field", INT_FIELDS)
def test_s8_no_int_field_is_negative(field):
    assert f"{field}=-1 is negative" in refused(**{field: -1})


@pytest.mark.parametrize("field", INT_FIELDS)
def test_s8_no_int_field_is_huge(field):
    assert f"{field}={10 ** 30}" in refused(**{field: 10 ** 30})


@pytest.mark.parametrize(
    "overrides, message",
    [
        pytest.param({"decks": 0}, "decks=0 must be 1..3", id="s1-no-deck"),
        pytest.param({"decks_six_players": 4}, "decks_six_players=4 must be 1..3",
                     id="s1-four-decks"),
        pytest.param({"jokers_per_deck": 3}, "jokers_per_deck=3 must be 0..2", id="s1-jokers"),
        pytest.param({"joker_value": 100_001}, "joker_value=100001 must be 0..100000",
                     id="s1-value-bound"),
        pytest.param({"min_meld_size": 14}, "min_meld_size=14 must be 3..13", id="s2-meld-size"),
        pytest.param({"naturals_per_wild": 0}, "naturals_per_wild=0 must be 1..",
                     id="s2-naturals"),
        pytest.param({"biriba_size": 49}, "biriba_size=49 must be 4..48", id="s3-biriba-size"),
        pytest.param({"full_run_size": 14}, "a full run has 13 cards", id="s3-full-run"),
        pytest.param({"hearts_trump_multiplier": 0}, "hearts_trump_multiplier=0 must be 1..",
                     id="s3-multiplier"),
        pytest.param({"hand_size": 0}, "hand_size=0 must be 1..162", id="s4-empty-hand"),
        pytest.param({"three_player_biribaki_sizes": (18, -1)},
                     "three_player_biribaki_sizes[1]=-1 is negative", id="s4-packet"),
        pytest.param({"vulnerability": ((1000, 75), (1000, 90))}, "not ascending",
                     id="s6-equal-thresholds"),
        pytest.param({"vulnerability": ((-1, 75),)}, "vulnerability[0] threshold=-1 is negative",
                     id="s6-negative-threshold"),
        pytest.param({"vulnerability": ((1000, 10 ** 9),)}, "vulnerability[0] minimum",
                     id="s6-huge-minimum"),
        pytest.param({"ace_set_biriba_clean": 0}, "set both or neither", id="s3-ace-set-pair"),
        pytest.param({"target_score": 0}, "target_score=0 must be 1..", id="s7-target-zero"),
        pytest.param({"close_min_biribas": 55}, "close_min_biribas=55 must be 0..54",
                     id="s7-close-biribas"),
    ],
)
def test_sensible_ranges(overrides, message):
    assert message in refused(**overrides)


def test_s8_messages_quote_any_value_briefly():
    """A value too big for a decimal repr, or a long one, is still named in one short line."""
    assert "joker_value=<integer of 16610 bits> must be 0..100000" in refused(
        joker_value=10 ** 5000)
    assert "vulnerability[0] threshold=<integer of" in refused(vulnerability=((10 ** 5000, 75),))
    assert "vulnerability=((<integer of 16610 bits>,),) must be a tuple of" in refused(
        vulnerability=((10 ** 5000,),))
    assert len(refused(pile_pickup="x" * 10_000)) < 200
    with pytest.raises(InvalidRulesError, match="unknown rule preset <integer of"):
        get_rules(10 ** 5000)
    with pytest.raises(InvalidRulesError, match="unknown rule option"):
        get_rules("greek", ["sets"])


def test_s8_every_problem_is_reported_at_once():
    text = refused(joker_value=-5, ace_value=-1)
    assert "joker_value=-5 is negative" in text and "ace_value=-1 is negative" in text


def test_s8_name_is_an_override_like_any_other():
    assert get_rules("classic", name="house").name == "house"


# --- §4 the deal fits the decks ------------------------------------------------------------------


def test_s4_deal_must_fit_the_decks():
    rules = get_rules("classic", hand_size=45)
    with pytest.raises(InvalidRulesError) as error:
        Game(players=2, rules=rules)
    assert str(error.value) == ("rule set 'classic' with 2 players: 2 hands of 45 + 2 packets "
                                "of 11 + 1 turned card = 113 cards, the decks hold 108")


@pytest.mark.parametrize(
    "players, overrides, dealt, total",
    [
        pytest.param(2, {"hand_size": 100}, 223, 108, id="hand-100-two-players"),
        pytest.param(4, {"hand_size": 100}, 423, 108, id="hand-100-four-players"),
        pytest.param(6, {"hand_size": 100}, 634, 162, id="hand-100-six-players"),
        pytest.param(2, {"hand_size": 44}, 111, 108, id="hand-44-empty-stock-no-trump"),
        pytest.param(2, {"hand_size": 43}, 109, 108, id="hand-43"),
        pytest.param(4, {"biribaki_size": 40}, 125, 108, id="packets-40-four-players"),
        pytest.param(6, {"hand_size": 22}, 166, 162, id="hand-22-six-players"),
        pytest.param(3, {"three_player_biribaki_sizes": (80, 11)}, 125, 108,
                     id="three-players-big-packet"),
        pytest.param(4, {"jokers_per_deck": 0, "hand_size": 21}, 107, 104,
                     id="no-jokers-fewer-cards"),
    ],
)
def test_s4_deal_must_fit_the_decks_for_the_player_count(players, overrides, dealt, total):
    rules = get_rules("classic", **overrides)        # the rule set alone is fine ...
    with pytest.raises(InvalidRulesError) as error:
        Game(players, rules)                         # ... not with this many players
    text = str(error.value)
    assert text.startswith(f"rule set 'classic' with {players} players: {players} hands of ")
    assert f"= {dealt} cards, the decks hold {total}" in text


def test_s4_three_players_deal_an_18_and_an_11_card_packet():
    rules = get_rules("classic", three_player_biribaki_sizes=(80, 11))
    with pytest.raises(InvalidRulesError, match=r"3 hands of 11 \+ packets of 80 and 11 \+ 1 "
                                                r"turned card = 125 cards"):
        rules.check_deal(3)
    rules.check_deal(2)          # the three-player sizes matter with three players only
    assert get_rules("classic").packet_sizes(3) == (18, 11)
    assert get_rules("classic").packet_sizes(6) == (11, 11, 11)
    assert get_rules("classic").packet_sizes(2) == (11, 11)


def test_s4_the_stock_keeps_a_card():
    """RULES.md §4 "the rest is the stock": a deal that uses every card is refused."""
    assert MIN_STOCK == 1
    rules = get_rules("barimba", hand_size=43)       # no turned card: 86 + 22 = 108
    with pytest.raises(InvalidRulesError) as error:
        rules.check_deal(2)
    assert str(error.value) == ("rule set 'barimba' with 2 players: 2 hands of 43 + 2 packets "
                                "of 11 = 108 cards, the decks hold 108 and the stock must keep "
                                "at least 1 card")
    get_rules("barimba", hand_size=42).check_deal(2)       # 106: two cards left
    Game(2, get_rules("classic", hand_size=42))             # 84 + 22 + 1 = 107: one left
    Game(6, get_rules("classic", hand_size=21))             # 126 + 33 + 1 = 160 of 162


def test_s4_every_biribaki_holds_a_card():
    with pytest.raises(InvalidRulesError, match="biribaki_size=0 deals a biribaki of 0 cards"):
        Game(4, get_rules("classic", biribaki_size=0))
    with pytest.raises(InvalidRulesError, match="three_player_biribaki_sizes"):
        Game(3, get_rules("classic", three_player_biribaki_sizes=(18, 0)))
    Game(3, get_rules("classic", biribaki_size=0))          # three players: 18 and 11


@pytest.mark.parametrize("players", [5, 1, 7, True, "4"])
def test_s4_deal_player_counts(players):
    with pytest.raises(InvalidRulesError, match="2, 3, 4 or 6 players"):
        get_rules("classic").check_deal(players)
    with pytest.raises(BiribaError):
        engine_rules(get_rules("classic"), players)


def test_s4_engine_checks_the_deal_before_numba():
    """engine_rules refuses the deal itself (records and Game both build through it)."""
    with pytest.raises(InvalidRulesError, match="the decks hold 108"):
        engine_rules(get_rules("classic", hand_size=45), 2)
    with pytest.raises(InvalidRulesError, match="the decks hold 108"):
        engine_rules(get_rules("classic", biribaki_size=40), 4)


# --- §8 options belong to presets -------------------------------------------------------------


def test_s8_option_of_another_preset_is_refused():
    assert refused("classic", "individual") == (
        "option 'individual' belongs to partnership, not classic")


@pytest.mark.parametrize("option", sorted(OPTION_PRESETS))
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_s8_option_belongs_to_its_presets(option, preset):
    if preset in OPTION_PRESETS[option]:
        assert isinstance(get_rules(preset, option), RuleSet)
    else:
        assert f"option {option!r} belongs to " in refused(preset, option)
        assert f"not {preset}" in refused(preset, option)


def test_s8_options_say_their_presets():
    assert {name: set(option.presets) for name, option in OPTIONS.items()} == OPTION_PRESETS


def test_s8_a_rule_set_takes_the_options_of_its_preset():
    greek = get_rules("greek", "sets")
    assert get_rules(greek, "hearts_super_trump").hearts_super_trump is True
    assert "belongs to partnership, not greek" in refused(greek, "super_biriba")


def _allowed(preset):
    return [option for option, presets in OPTION_PRESETS.items() if preset in presets]


@pytest.mark.parametrize("preset", ENGINE_PRESETS)
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_s8_every_preset_and_option_constructs(preset, players):
    """Each preset alone, with each of its options, and with all of them (§4 player counts)."""
    combos = [()] + [(option,) for option in _allowed(preset)] + [tuple(_allowed(preset))]
    for options in combos:
        game = Game(players, preset, *options)
        assert game.rules.name == preset
        assert game.engine.array.shape[0] > 0


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_s8_individual_every_player_a_team_of_one(players):
    """001: "each player alone with their own biribaki"; target 1500 (§8)."""
    game = Game(players, "partnership", "individual")
    assert game.rules.target(players) == 1500 and game.teams == players
    if players != 3:
        assert game.rules.packet_sizes(players) == (11,) * players


# --- any override: a RuleSet or an InvalidRulesError, then an engine or a BiribaError ----------

_VALUES = st.one_of(
    st.integers(),
    st.integers(min_value=-3, max_value=60),
    st.sampled_from([0, 1, 2, 3, 4, 7, 11, 13, 18, 43, 44, 45, 48, 100, 162, 100_000,
                     10 ** 6, 2 ** 63, -(2 ** 63), 10 ** 40, 10 ** 5000]),
    st.booleans(),
    st.none(),
    st.text(max_size=6),
    st.sampled_from(["always", "restricted", "bury", "choose", "first_biriba", "pile_only",
                     "A", "3", "classic", ""]),
    st.lists(st.integers(min_value=-2, max_value=20), max_size=3),
    st.tuples(st.integers(min_value=-2, max_value=40), st.integers(min_value=-2, max_value=40)),
    st.lists(st.sampled_from(["A", "2", "3", "K", "Z"]), max_size=3).map(tuple),
    st.lists(st.tuples(st.integers(min_value=-1, max_value=5000),
                       st.integers(min_value=-1, max_value=200)), max_size=6).map(tuple),
    st.floats(allow_nan=False, allow_infinity=False),
)


@settings(derandomize=True, max_examples=300, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)),
       overrides=st.dictionaries(st.sampled_from(sorted(FIELDS)), _VALUES, min_size=1,
                                 max_size=3))
def test_s8_any_override_is_a_rule_set_or_an_invalid_rules_error(preset, overrides):
    try:
        rules = get_rules(preset, **overrides)
    except InvalidRulesError:
        return
    assert isinstance(rules, RuleSet)
    for players in PLAYER_COUNTS:
        try:
            engine = engine_rules(rules, players)
        except BiribaError:
            continue
        assert engine.array.dtype.kind == "i"
