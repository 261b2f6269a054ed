"""A rule set as the engine's numbers: the rule array and the kernels' scoring tables.

The engine plays every preset of RULES.md §8 with its options; a rule set the
engine cannot hold (too many teams, cards or jokers for its arrays) raises
:class:`EngineUnsupportedError` naming what is missing.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import types

from solver.engine import layout as L
from solver.errors import BiribaError, InvalidRulesError
from solver.values import rule_params
from solver.rules import STOCK_EXHAUSTED_MODES, RuleSet, get_rules


class EngineUnsupportedError(BiribaError):
    """A rule the engine does not implement yet."""


class EngineRules(NamedTuple):
    """Everything the numba rule functions read about the rules."""

    array: np.ndarray          # int64[R_SIZE], see layout.R_*
    scalars: np.ndarray        # kernel switches (RuleParams.scalars())
    values: np.ndarray         # int64[53] card values
    run_bonus_by_trump: np.ndarray   # int64[5, 4, 2, 14]: by trump (4: none), suit, clean,
                                     # length; the rule functions' ``runb``, whose trump
                                     # slice they call ``run_bonus``
    set_bonus: np.ndarray      # int64[14, 2, S]


def _array(dimensions: int):
    return types.Array(types.int64, dimensions, "C")


# numba's types of the engine's arguments, for the linked functions' signatures
ENGINE_RULES_TYPE = types.NamedTuple((_array(1), _array(1), _array(1), _array(4), _array(3)),
                                     EngineRules)
STATE_TYPE = _array(1)       # the state array S, and the action buffers

MAX_JOKERS = 6          # a meld key counts jokers in 3 bits; the kernels' MAX_DEPTH fits 6
MAX_VULNERABILITY = L.R_VULN_MAX     # (threshold, minimum) pairs



def check_supported(rules: RuleSet, players: int) -> None:
    """Raise a :class:`BiribaError` unless the engine can deal and play ``rules``.

    Runs before any numba code: a deal that overflows the decks or the state
    array's capacities (layout.py) would read or write past its arrays.
    """
    if not isinstance(rules, RuleSet):
        raise InvalidRulesError(f"rules must be a RuleSet or a preset name, got {rules!r:.60}")
    if isinstance(players, bool) or players not in (2, 3, 4, 6):
        raise EngineUnsupportedError(f"players must be 2, 3, 4 or 6, got {players!r}")
    rules.check_deal(players)          # InvalidRulesError: the deal does not fit the decks
    check_capacity(rules, players)


def check_capacity(rules: RuleSet, players: int) -> None:
    """The engine's fixed capacities (layout.py); RuleSet's ranges keep every preset inside."""
    where = f"rule set {rules.name!r} with {players} players"
    cards = rules.deck_cards(players)
    packets = rules.packet_sizes(players)
    limits = (
        (teams_of(rules, players), L.MAX_TEAMS, "teams"),
        (len(packets), L.MAX_PACKETS, "biribakia"),
        (cards, L.MAX_CARDS, "cards (the stock and the pile hold at most that many)"),
        (rules.joker_count(players), MAX_JOKERS, "jokers"),
        (cards // rules.min_meld_size, L.MAX_MELDS, "melds a team may lay"),
        (len(rules.vulnerability), MAX_VULNERABILITY, "vulnerability thresholds"),
    )
    for value, limit, what in limits:
        if value > limit:
            raise EngineUnsupportedError(f"{where}: {value} {what}; the engine holds {limit}")


def teams_of(rules: RuleSet, players: int) -> int:
    """Teams at the start of a round: 2 players and 3 players play alone (RULES.md §4, 7.1),
    and so does every player with partnership's option ``individual`` (001)."""
    if players in (2, 3) or rules.individual:
        return players
    return players // 2


def engine_rules(rules: RuleSet | str = "classic", players: int = 4) -> EngineRules:
    """The rule array and tables for ``players``; refuses (a BiribaError) what the engine
    cannot deal or play (:func:`check_supported`) before any numba code sees it."""
    rules = get_rules(rules) if isinstance(rules, str) else rules
    check_supported(rules, players)
    array = np.zeros(L.R_SIZE, dtype=np.int64)
    array[L.R_PLAYERS] = players
    array[L.R_TEAMS] = teams_of(rules, players)
    array[L.R_DECKS] = rules.deck_count(players)
    array[L.R_JOKERS] = rules.joker_count(players)
    array[L.R_HAND_SIZE] = rules.hand_size
    array[L.R_PACKET_SIZE] = rules.biribaki_size
    array[L.R_PACKET_BIG] = rules.three_player_biribaki_sizes[0]
    if players == 3 and not rules.three_players_alone:
        array[L.R_PACKET_SIZE] = rules.three_player_biribaki_sizes[1]
    array[L.R_TURN_UP] = int(rules.turn_up_card)
    array[L.R_BURY] = int(rules.turned_wild == "bury")
    array[L.R_HAS_TRUMP] = int(rules.has_trump)
    array[L.R_RESTRICTED] = int(rules.pile_pickup == "restricted")
    array[L.R_MUST_MELD] = int(rules.pile_top_must_meld)
    array[L.R_ONE_CARD] = int(rules.one_card_pile_no_same_discard)
    array[L.R_REDRAW] = int(rules.first_drawer_redraw)
    array[L.R_FIRST_BIRIBA] = int(rules.biribaki_when == "first_biriba")
    array[L.R_CLOSING_BONUS] = rules.closing_bonus
    array[L.R_CLOSE_BIRIBAS] = rules.close_min_biribas
    array[L.R_CLOSE_CLEAN] = int(rules.close_needs_clean_biriba)
    array[L.R_CLOSE_RUN_SET] = int(rules.close_needs_run_and_set)
    array[L.R_NO_PACKET_PENALTY] = rules.no_biribaki_penalty
    array[L.R_UNTOUCHED_PENALTY] = rules.untouched_biribaki_penalty
    array[L.R_STOCK_MODE] = STOCK_EXHAUSTED_MODES.index(rules.stock_exhausted)
    array[L.R_TARGET] = rules.target(players)
    array[L.R_BIRIBA_SIZE] = rules.biriba_size
    array[L.R_WILD_TWOS] = int(rules.wild_twos)
    array[L.R_RED_THREES] = int(rules.red_threes_out)
    array[L.R_BLACK_FREEZE] = int(rules.black_threes_freeze)
    array[L.R_OWN_MELD_FIRST] = int(rules.extend_needs_own_meld)
    before = rules.biriba_before_biribaki_from
    array[L.R_BIRIBA_BEFORE] = -1 if before is None else before
    array[L.R_RED_BONUS] = rules.red_three_bonus
    array[L.R_RED_PENALTY] = rules.red_three_penalty
    array[L.R_THREE_ALONE] = int(rules.three_players_alone)
    array[L.R_CUT_EXACT] = rules.cut_exact_bonus
    array[L.R_CUT_NEAR] = rules.cut_near_bonus
    array[L.R_CUT_ERROR] = rules.cut_error
    array[L.R_DEALER_WILDS] = int(rules.dealer_bottom_wilds)
    array[L.R_WILD_BAR] = int(rules.wild_set_bars_wilds)
    array[L.R_CLOSE_NO_DISCARD] = int(rules.close_without_discard)
    array[L.R_AT_ONCE] = rules.at_once_bonus_extra
    array[L.R_AT_ONCE_WILD] = rules.at_once_wild_bonus_extra
    array[L.R_VULN_N] = len(rules.vulnerability)
    for index, (threshold, minimum) in enumerate(rules.vulnerability):
        array[L.R_VULN + 2 * index] = threshold
        array[L.R_VULN + 2 * index + 1] = minimum
    plain = rule_params(rules, None)
    by_trump = np.zeros((5, 4, 2, plain.run_bonus.shape[2]), dtype=np.int64)
    for trump in range(5):
        params = rule_params(rules, trump if trump < 4 and rules.has_trump else None)
        by_trump[trump] = params.run_bonus
        if not (np.array_equal(params.set_bonus, plain.set_bonus)
                and np.array_equal(params.values, plain.values)):
            raise EngineUnsupportedError("set bonuses or card values that depend on the trump")
    return EngineRules(array, plain.scalars(), plain.values, by_trump, plain.set_bonus)
