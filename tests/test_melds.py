"""Meld legality and scoring: RULES.md §2 (melds) and §3 (biribas and bonuses).

Every expectation below is derived from RULES.md, not from the code: a case's
id names the clause it checks (``s2-...`` melds, ``s3-...`` bonuses). Points
are recomputed here from the §1 value table (``CARD_VALUES``), independently of
``RuleSet.card_value``: points = card values + biriba bonus.

Rule-set keys are ``"preset"`` or ``"preset+option+option"`` (RULES.md §8 options).
"""

import re

import pytest

from solver.errors import IllegalMeldError, InvalidRulesError
from solver.melds import (
    analyze_extension,
    analyze_meld,
    biriba_bonus,
    can_extend,
    can_meld,
    extension_points,
    meld_reason,
    verify_meld,
)
from solver.rules import get_rules

# RULES.md §1 card values: (joker, A, 2, K Q J, 10 9 8, 7..3).
CARD_VALUES = {
    "classic": (20, 15, 10, 10, 10, 5),
    "cyprus": (20, 15, 10, 10, 10, 5),        # classic with another full-run bonus (§3)
    "partnership": (50, 20, 20, 10, 10, 5),
    "greek": (25, 15, 20, 10, 10, 5),
    "threes": (20, 15, 10, 10, 10, 5),
    "venezuelan": (50, 20, 25, 10, 10, 5),
    # §1 does not list barimba: it follows its seed 003's main table (README "Decisions").
    "barimba": (25, 15, 20, 10, 10, 5),
}

LINE = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def run(suit: str, low: str, high: str, skip: tuple = ()) -> str:
    """Cards of a run ``low``..``high`` in ``suit`` (``high="A"`` is the ace high),
    leaving out the ranks in ``skip`` (where a wild will stand)."""
    low_index = LINE.index(low)
    high_index = 13 if high == "A" else LINE.index(high)
    return " ".join(rank + suit for rank in LINE[low_index:high_index + 1] if rank not in skip)


def rules_of(key: str):
    name, *options = key.split("+")
    return get_rules(name, *options)


def table_value(cards: str, key: str) -> int:
    joker, ace, two, face, high, low = CARD_VALUES[key.split("+")[0]]
    total = 0
    for token in cards.split():
        rank = token.upper()[:-1]
        if token.upper() == "JK":
            total += joker
        elif rank == "A":
            total += ace
        elif rank == "2":
            total += two
        elif rank in ("K", "Q", "J"):
            total += face
        elif rank in ("10", "9", "8"):
            total += high
        else:
            total += low
    return total


FULL_S = run("S", "A", "K")
FULL_H = run("H", "A", "K")

# (rules, cards, trump, kind, suit (run) or rank (set), clean, wilds, biriba class, bonus)
LEGAL = [
    # --- §2 runs, the ace low or high -----------------------------------------------------
    pytest.param("classic", "4H 5H 6H", None, "run", "H", True, 0, None, 0, id="s2-run-basic"),
    pytest.param("classic", "7C 5C 6C", None, "run", "C", True, 0, None, 0, id="s2-run-any-order"),
    pytest.param("classic", "AS 2S 3S", None, "run", "S", True, 0, None, 0, id="s2-run-ace-low"),
    pytest.param("classic", "QS KS AS", None, "run", "S", True, 0, None, 0, id="s2-run-ace-high"),
    pytest.param("classic", "AD 2D 3D 4D", None, "run", "D", True, 0, None, 0,
                 id="s2-run-ace-low-a234"),
    pytest.param("classic", "JC QC KC AC", None, "run", "C", True, 0, None, 0,
                 id="s2-run-ace-high-jqka"),
    pytest.param("classic", "9D 10D JD QD KD", None, "run", "D", True, 0, None, 0,
                 id="s2-run-face-cards"),
    # --- §2 wild limit and positions ------------------------------------------------------
    pytest.param("classic", "4H 5H JK 7H", None, "run", "H", False, 1, None, 0,
                 id="s2-wild-joker-in-gap"),
    pytest.param("classic", "4H 5H 2C 7H", None, "run", "H", False, 1, None, 0,
                 id="s2-wild-foreign-two-in-gap-000-example"),
    pytest.param("classic", "9D 10D JD JK", None, "run", "D", False, 1, None, 0,
                 id="s2-wild-joker-at-end"),
    pytest.param("classic", "QS KS JK", None, "run", "S", False, 1, None, 0,
                 id="s2-wild-joker-beside-ace-high"),
    pytest.param("classic", "KS AS JK", None, "run", "S", False, 1, None, 0,
                 id="s2-wild-joker-as-queen-below-ka"),
    pytest.param("classic", "AS JK 3S", None, "run", "S", False, 1, None, 0,
                 id="s2-wild-joker-as-two"),
    pytest.param("classic", "2S 3S 4S", None, "run", "S", True, 0, None, 0,
                 id="s2-own-two-natural-234"),
    pytest.param("classic", "2S 5S 6S", None, "run", "S", False, 1, None, 0,
                 id="s2-own-two-elsewhere-is-wild"),
    pytest.param("classic", "QS KS 2S", None, "run", "S", False, 1, None, 0,
                 id="s2-own-two-wild-beside-ace-high-place"),
    pytest.param("classic", "KS AS 2S", None, "run", "S", False, 1, None, 0,
                 id="s2-ka2-legal-read-as-qka-with-wild-two"),
    pytest.param("classic", "AS 2S 3S JK", None, "run", "S", False, 1, None, 0,
                 id="s2-joker-beside-natural-two"),
    pytest.param("classic", "2H 3H JK 5H", None, "run", "H", False, 1, None, 0,
                 id="s2-joker-in-gap-with-natural-two"),
    pytest.param("classic", "AS 2S 3S 2D", None, "run", "S", False, 1, None, 0,
                 id="s2-foreign-two-beside-natural-two"),
    pytest.param("classic", "2S 2H 3S", None, "run", "S", False, 1, None, 0,
                 id="s2-natural-two-and-foreign-two"),
    pytest.param("classic", "AS 2S 2S 4S", None, "run", "S", False, 1, None, 0,
                 id="s2-own-two-natural-and-second-copy-wild"),
    pytest.param("classic", "2S 2S 3S", None, "run", "S", False, 1, None, 0,
                 id="s2-own-two-twice-one-natural"),
    # --- §2 sets ----------------------------------------------------------------------------
    pytest.param("classic", "5S 5H 5D", None, "set", "5", True, 0, None, 0, id="s2-set-basic"),
    pytest.param("classic", "KS KS KH", None, "set", "K", True, 0, None, 0,
                 id="s2-set-suits-may-repeat"),
    pytest.param("classic", "AS AH AC", None, "set", "A", True, 0, None, 0, id="s2-set-aces"),
    pytest.param("classic", "9S 9H JK", None, "set", "9", False, 1, None, 0,
                 id="s2-set-one-joker"),
    pytest.param("classic", "QS QH 2D", None, "set", "Q", False, 1, None, 0,
                 id="s2-set-one-wild-two"),
    pytest.param("classic", "2S 2H 2D", None, "set", "2", True, 0, None, 0,
                 id="s2-set-of-twos-natural-classic"),
    pytest.param("classic", "2S 2H 2D JK", None, "set", "2", False, 1, None, 0,
                 id="s2-set-of-twos-with-joker-classic"),
    pytest.param("classic", "2S 2H JK", None, "set", "2", False, 1, None, 0,
                 id="s2-set-of-twos-two-naturals-one-joker"),
    pytest.param("threes", "2S 2C 2D", None, "set", "2", True, 0, None, 0,
                 id="s2-set-of-twos-threes"),
    pytest.param("barimba", "2S 2H 2C", None, "set", "2", True, 0, None, 0,
                 id="s2-set-of-twos-barimba"),
    # --- §3 run biribas ----------------------------------------------------------------------
    pytest.param("classic", run("S", "3", "8"), None, "run", "S", True, 0, None, 0,
                 id="s3-six-cards-no-bonus"),
    pytest.param("classic", run("S", "3", "9"), None, "run", "S", True, 0, "biriba", 200,
                 id="s3-run-biriba-clean"),
    pytest.param("classic", run("S", "3", "9", skip=("6",)) + " JK", None, "run", "S", False, 1,
                 "biriba", 100, id="s3-run-biriba-dirty"),
    pytest.param("classic", run("D", "8", "A"), None, "run", "D", True, 0, "biriba", 200,
                 id="s3-run-biriba-ace-high"),
    pytest.param("classic", run("C", "A", "7"), None, "run", "C", True, 0, "biriba", 200,
                 id="s3-run-biriba-ace-low-natural-two"),
    pytest.param("classic", run("C", "4", "9") + " 2C", None, "run", "C", False, 1,
                 "biriba", 100, id="s3-run-biriba-own-two-wild"),
    # --- §3 set biribas ----------------------------------------------------------------------
    pytest.param("classic", "7S 7S 7H 7H 7D 7D 7C", None, "set", "7", True, 0, "set_biriba", 300,
                 id="s3-set-biriba-clean"),
    pytest.param("classic", "7S 7S 7H 7H 7D 7D JK", None, "set", "7", False, 1, "set_biriba",
                 150, id="s3-set-biriba-dirty"),
    pytest.param("classic", "2S 2S 2H 2H 2D 2D 2C", None, "set", "2", True, 0, "set_biriba", 300,
                 id="s3-set-biriba-of-twos-clean"),
    pytest.param("classic", "2S 2S 2H 2H 2D 2D JK", None, "set", "2", False, 1, "set_biriba",
                 150, id="s3-set-biriba-of-twos-with-joker"),
    # --- §3 full runs (13 cards) -------------------------------------------------------------
    pytest.param("classic", FULL_S, None, "run", "S", True, 0, "full", 1000,
                 id="s3-full-a-to-k-clean"),
    pytest.param("classic", run("S", "A", "K", skip=("7",)) + " JK", None, "run", "S", False, 1,
                 "full", 500, id="s3-full-dirty-joker-inside"),
    pytest.param("classic", run("S", "A", "Q") + " JK", None, "run", "S", False, 1, "full", 500,
                 id="s3-full-dirty-joker-as-king"),
    pytest.param("classic", run("H", "3", "A") + " JK", None, "run", "H", False, 1, "full", 500,
                 id="s3-full-2-to-a-dirty-joker-as-two"),
    pytest.param("classic", run("H", "3", "A") + " 2C", None, "run", "H", False, 1, "full", 500,
                 id="s3-full-2-to-a-dirty-foreign-two"),
    pytest.param("classic", run("H", "3", "A") + " 2H", None, "run", "H", True, 0, "full", 1000,
                 id="s3-full-2-to-a-clean-own-two"),
    pytest.param("classic", run("D", "A", "K", skip=("2", "7")) + " 2D JK", None, "run", "D",
                 False, 1, "full", 500, id="s3-full-natural-two-and-joker"),
    # --- §3 trump ----------------------------------------------------------------------------
    pytest.param("classic", run("H", "3", "5"), "H", "run", "H", True, 0, None, 0,
                 id="s3-trump-short-run-no-bonus"),
    pytest.param("classic", run("H", "3", "9"), "H", "run", "H", True, 0, "trump", 600,
                 id="s3-trump-run-clean-classic"),
    pytest.param("classic", run("H", "3", "9", skip=("6",)) + " JK", "H", "run", "H", False, 1,
                 "trump", 300, id="s3-trump-run-dirty-classic"),
    pytest.param("classic", run("S", "3", "9"), "H", "run", "S", True, 0, "biriba", 200,
                 id="s3-trump-other-suit-plain-biriba"),
    pytest.param("classic", FULL_H, "H", "run", "H", True, 0, "trump_full", 1000,
                 id="s3-trump-full-clean-classic"),
    pytest.param("classic", run("H", "A", "Q") + " JK", "H", "run", "H", False, 1, "trump_full",
                 500, id="s3-trump-full-dirty-classic"),
    pytest.param("greek", run("D", "3", "9"), "D", "run", "D", True, 0, "trump", 600,
                 id="s3-trump-run-clean-greek"),
    pytest.param("greek", run("D", "3", "9", skip=("5",)) + " 2C", "D", "run", "D", False, 1,
                 "trump", 200, id="s3-trump-run-dirty-greek"),
    pytest.param("greek", run("D", "A", "K"), "D", "run", "D", True, 0, "trump_full", 2000,
                 id="s3-trump-full-clean-greek"),
    pytest.param("greek", run("D", "A", "K", skip=("9",)) + " JK", "D", "run", "D", False, 1,
                 "trump_full", 1000, id="s3-trump-full-dirty-greek"),
    pytest.param("greek", run("S", "A", "K"), "D", "run", "S", True, 0, "full", 1000,
                 id="s3-full-clean-greek-not-trump"),
    pytest.param("greek", run("S", "3", "9"), None, "run", "S", True, 0, "biriba", 200,
                 id="s3-run-biriba-greek-no-trump-chosen"),
    # --- §3 option hearts_super_trump (x4 when trump is hearts) ---------------------------
    pytest.param("greek+hearts_super_trump", run("H", "3", "9"), "H", "run", "H", True, 0,
                 "trump", 2400, id="s3-hearts-super-trump-run-clean"),
    pytest.param("greek+hearts_super_trump", run("H", "3", "9", skip=("4",)) + " JK", "H", "run",
                 "H", False, 1, "trump", 800, id="s3-hearts-super-trump-run-dirty"),
    pytest.param("greek+hearts_super_trump", FULL_H, "H", "run", "H", True, 0, "trump_full",
                 8000, id="s3-hearts-super-trump-full-clean"),
    pytest.param("greek+hearts_super_trump", run("H", "A", "Q") + " 2S", "H", "run", "H", False,
                 1, "trump_full", 4000, id="s3-hearts-super-trump-full-dirty"),
    pytest.param("greek+hearts_super_trump", run("S", "3", "9"), "S", "run", "S", True, 0,
                 "trump", 600, id="s3-hearts-super-trump-spade-trump-not-x4"),
    pytest.param("greek+hearts_super_trump", run("S", "3", "9"), "H", "run", "S", True, 0,
                 "biriba", 200, id="s3-hearts-super-trump-non-trump-run-not-x4"),
    pytest.param("classic+hearts_super_trump", run("H", "3", "9"), "H", "run", "H", True, 0,
                 "trump", 2400, id="s3-hearts-super-trump-option-on-classic"),
    # --- §3 cyprus: every dirty full run 100, trump too --------------------------------------
    pytest.param("cyprus", run("S", "A", "Q") + " JK", None, "run", "S", False, 1, "full", 100,
                 id="s3-cyprus-full-dirty-100"),
    pytest.param("cyprus", run("H", "A", "Q") + " JK", "H", "run", "H", False, 1, "trump_full",
                 100, id="s3-cyprus-trump-full-dirty-100"),
    pytest.param("cyprus", FULL_S, None, "run", "S", True, 0, "full", 1000,
                 id="s3-cyprus-full-clean-1000"),
    pytest.param("cyprus", FULL_H, "H", "run", "H", True, 0, "trump_full", 1000,
                 id="s3-cyprus-trump-full-clean-1000"),
    pytest.param("cyprus", run("H", "3", "9", skip=("8",)) + " JK", "H", "run", "H", False, 1,
                 "trump", 300, id="s3-cyprus-trump-run-dirty-as-classic"),
    pytest.param("cyprus", run("C", "3", "9", skip=("8",)) + " JK", None, "run", "C", False, 1,
                 "biriba", 100, id="s3-cyprus-run-biriba-dirty-as-classic"),
    # --- §2 partnership: runs with a natural 2, one wild per two naturals -------------------
    pytest.param("partnership", "AS 2S 3S 4S", None, "run", "S", True, 0, None, 0,
                 id="s2-partnership-run-a234-natural-two"),
    pytest.param("partnership", "AS 2S 3S JK", None, "run", "S", False, 1, None, 0,
                 id="s2-partnership-joker-beside-natural-two"),
    pytest.param("partnership", "4H 5H JK 7H", None, "run", "H", False, 1, None, 0,
                 id="s2-partnership-ratio-3-naturals-1-wild"),
    pytest.param("partnership", "4H JK 6H", None, "run", "H", False, 1, None, 0,
                 id="s2-partnership-ratio-2-naturals-1-wild"),
    pytest.param("partnership", "4H 5H JK 7H 2C 9H", None, "run", "H", False, 2, None, 0,
                 id="s2-partnership-ratio-6-cards-2-wilds"),
    pytest.param("partnership", "AS 2S 3S 4S JK JK", None, "run", "S", False, 2, None, 0,
                 id="s2-partnership-natural-two-and-two-jokers"),
    pytest.param("partnership", "5S 5H JK", None, "set", "5", False, 1, None, 0,
                 id="s2-partnership-set-2-naturals-1-wild"),
    pytest.param("partnership", "5S 5H 5D 5C JK 2C", None, "set", "5", False, 2, None, 0,
                 id="s2-partnership-set-4-naturals-2-wilds"),
    # --- §3 partnership bonuses --------------------------------------------------------------
    pytest.param("partnership", run("S", "3", "9"), None, "run", "S", True, 0, "biriba", 200,
                 id="s3-partnership-run-biriba-clean"),
    pytest.param("partnership", run("S", "3", "9", skip=("5",)) + " 2D", None, "run", "S", False,
                 1, "biriba", 100, id="s3-partnership-run-biriba-dirty"),
    pytest.param("partnership", FULL_S, None, "run", "S", True, 0, "biriba", 200,
                 id="s3-partnership-full-run-is-run-biriba"),
    pytest.param("partnership", run("S", "A", "Q") + " JK", None, "run", "S", False, 1,
                 "biriba", 100, id="s3-partnership-dirty-full-run-is-run-biriba"),
    pytest.param("partnership", "AS AS AH AH AD AD AC", None, "set", "A", True, 0, "set_biriba",
                 300, id="s3-partnership-set-biriba-aces-clean"),
    pytest.param("partnership", "AS AS AH AH AD AD JK", None, "set", "A", False, 1, "set_biriba",
                 150, id="s3-partnership-set-biriba-aces-dirty"),
    pytest.param("partnership", "KS KS KH KH KD KD KC", None, "set", "K", True, 0, None, 0,
                 id="s3-partnership-set-of-kings-no-bonus"),
    pytest.param("partnership", "9S 9S 9H 9H 9D JK 2C", None, "set", "9", False, 2, None, 0,
                 id="s3-partnership-dirty-set-of-nines-no-bonus"),
    pytest.param("partnership", run("H", "3", "K"), None, "run", "H", True, 0, "biriba", 200,
                 id="s3-partnership-eleven-cards-without-option"),
    pytest.param("partnership+super_biriba", run("H", "3", "K"), None, "run", "H", True, 0,
                 "super", 400, id="s3-partnership-super-biriba-clean"),
    pytest.param("partnership+super_biriba", run("H", "3", "Q") + " JK", None, "run", "H", False,
                 1, "super", 200, id="s3-partnership-super-biriba-dirty"),
    pytest.param("partnership+super_biriba", run("H", "3", "Q"), None, "run", "H", True, 0,
                 "biriba", 200, id="s3-partnership-super-option-ten-cards"),
    pytest.param("partnership+super_biriba", FULL_H, None, "run", "H", True, 0, "super", 400,
                 id="s3-partnership-super-biriba-full-run"),
    # --- §1 option no_wild_twos: a 2 is an ordinary card -------------------------------------
    pytest.param("partnership+no_wild_twos", "AH 2H 3H", None, "run", "H", True, 0, None, 0,
                 id="s1-no-wild-twos-natural-two-run"),
    pytest.param("partnership+no_wild_twos", "2H 3H JK 5H", None, "run", "H", False, 1, None, 0,
                 id="s1-no-wild-twos-joker-still-wild"),
    # --- §2 greek: sets off unless the option is on ------------------------------------------
    pytest.param("greek+sets", "5S 5H 5D", None, "set", "5", True, 0, None, 0,
                 id="s2-greek-sets-option-allows-set"),
    pytest.param("greek+sets", "8S 8S 8H 8H 8D 8C 8C", None, "set", "8", True, 0, "set_biriba",
                 300, id="s3-greek-sets-option-set-biriba-clean"),
    pytest.param("greek+sets", "8S 8S 8H 8H 8D 8C 2C", None, "set", "8", False, 1, "set_biriba",
                 150, id="s3-greek-sets-option-set-biriba-dirty"),
    pytest.param("greek", "AS 2S 3S", None, "run", "S", True, 0, None, 0,
                 id="s1-greek-values-run-with-two"),
    pytest.param("greek", "JK 4D 5D", None, "run", "D", False, 1, None, 0,
                 id="s1-greek-values-joker-25"),
    # --- §8 barimba: sets, but not of A or 3 ---------------------------------------------------
    pytest.param("barimba", "4S 4H 4D", None, "set", "4", True, 0, None, 0,
                 id="s8-barimba-set-of-fours"),
    pytest.param("barimba", "AS 2S 3S", None, "run", "S", True, 0, None, 0,
                 id="s8-barimba-run-with-ace-and-three"),
    pytest.param("barimba", "KS KS KH KH KD KD JK", None, "set", "K", False, 1, "set_biriba", 150,
                 id="s3-barimba-set-biriba-dirty"),
    pytest.param("barimba", FULL_S, None, "run", "S", True, 0, "full", 1000,
                 id="s3-barimba-full-clean"),
    pytest.param("barimba", run("S", "A", "Q") + " JK", None, "run", "S", False, 1, "full", 500,
                 id="s3-barimba-full-dirty"),
    # --- §3 threes ------------------------------------------------------------------------------
    pytest.param("threes", "5S 5S 5H 5H 5D 5D 5C", None, "set", "5", True, 0, "set_biriba", 200,
                 id="s3-threes-set-biriba-clean"),
    pytest.param("threes", "5S 5S 5H 5H 5D 5D JK", None, "set", "5", False, 1, "set_biriba", 100,
                 id="s3-threes-set-biriba-dirty"),
    pytest.param("threes", FULL_S, None, "run", "S", True, 0, "full", 500,
                 id="s3-threes-full-clean"),
    pytest.param("threes", run("S", "A", "K", skip=("J",)) + " JK", None, "run", "S", False, 1,
                 "full", 250, id="s3-threes-full-dirty"),
    pytest.param("threes", run("C", "3", "9"), None, "run", "C", True, 0, "biriba", 200,
                 id="s3-threes-run-biriba-clean"),
    pytest.param("threes", run("C", "3", "9", skip=("4",)) + " JK", None, "run", "C", False, 1,
                 "biriba", 100, id="s3-threes-run-biriba-dirty"),
    # --- §1 venezuelan values, §3 wild-card set ------------------------------------------------
    pytest.param("venezuelan", "AS 2S 3S", None, "run", "S", True, 0, None, 0,
                 id="s1-venezuelan-values-ace-20-two-25"),
    pytest.param("venezuelan", "JK 5H 6H", None, "run", "H", False, 1, None, 0,
                 id="s1-venezuelan-values-joker-50"),
    pytest.param("venezuelan", "QS QH 2D", None, "set", "Q", False, 1, None, 0,
                 id="s1-venezuelan-values-wild-two-25"),
    pytest.param("venezuelan", "JK JK JK", None, "set", None, False, 3, None, 0,
                 id="s3-venezuelan-wild-card-set-jokers"),
    pytest.param("venezuelan", "JK JK 2S", None, "set", None, False, 3, None, 0,
                 id="s3-venezuelan-wild-card-set-jokers-and-two"),
    # 000's Venezuelan sets run 3s..Ks and As: 2s stay wild there (see the report).
    pytest.param("venezuelan", "2S 2H 2D", None, "set", None, False, 3, None, 0,
                 id="s3-venezuelan-twos-form-a-wild-card-set"),
]


@pytest.mark.parametrize(
    "key, cards, trump, kind, ident, clean, wilds, biriba, bonus", LEGAL
)
def test_legal_meld(key, cards, trump, kind, ident, clean, wilds, biriba, bonus):
    rules = rules_of(key)
    assert can_meld(cards, rules)
    assert meld_reason(cards, rules) is None
    verify_meld(cards, rules)
    info = analyze_meld(cards, rules, trump=trump)
    assert info.kind == kind
    if kind == "run":
        assert (info.suit, info.rank) == (ident, None)
    else:
        assert (info.suit, info.rank) == (None, ident)
    assert info.clean is clean
    assert info.wilds == wilds
    assert info.biriba == biriba
    assert info.bonus == bonus
    assert info.value == table_value(cards, key)
    assert info.points == table_value(cards, key) + bonus
    assert len(info.ordered_cards()) == len(cards.split())


# (rules, cards, distinctive part of the reason)
ILLEGAL = [
    pytest.param("classic", "4H 5H", "too short", id="s2-too-short-two-cards"),
    pytest.param("classic", "JK 4H", "too short", id="s2-too-short-with-wild"),
    pytest.param("classic", "4H 5S 6H", "mixed", id="s2-mixed-suits-and-ranks"),
    pytest.param("classic", "5S 5H 6H", "mixed", id="s2-mixed-set-and-run"),
    pytest.param("classic", "4H 5H 7H", "gap", id="s2-run-gap-without-wild"),
    pytest.param("classic", "4H JK 8H", "gap", id="s2-run-gap-too-wide-for-one-wild"),
    pytest.param("classic", "5S 5S 6S 7S", "appears", id="s2-run-rank-twice"),
    pytest.param("classic", FULL_S + " AS", "appears", id="s2-run-ace-both-low-and-high"),
    pytest.param("classic", FULL_S + " JK", "at most", id="s2-run-fourteen-cards"),
    pytest.param("classic", "KS AS 2S 3S", "wrap", id="s2-wrap-ka23"),
    pytest.param("classic", "QH KH AH 2H 3H", "wrap", id="s2-wrap-qka23"),
    pytest.param("partnership+no_wild_twos", "KH AH 2H", "wrap", id="s2-wrap-ka2-natural-two"),
    pytest.param("classic", "4H 5H JK 2C", "at most", id="s2-two-wilds-classic-run"),
    pytest.param("classic", "4H JK 6H JK", "at most", id="s2-two-jokers-classic-run"),
    pytest.param("classic", "2S 5S 6S JK", "at most", id="s2-own-two-wild-plus-joker"),
    pytest.param("classic", "AS 2S 3S JK 2D", "at most", id="s2-natural-two-plus-two-wilds"),
    pytest.param("classic", "5S 5H JK 2C", "at most", id="s2-two-wilds-classic-set"),
    pytest.param("classic", "5S 5H 5D JK JK", "at most", id="s2-two-jokers-classic-set"),
    pytest.param("classic", "2S JK JK", "at most", id="s2-set-of-twos-two-jokers"),
    pytest.param("classic", "JK JK JK", "only wild", id="s3-wild-card-set-not-classic"),
    pytest.param("greek+sets", "JK JK 2S", "at most", id="s3-wild-card-set-not-greek"),
    pytest.param("cyprus", "7D 8D JK 2H", "at most", id="s2-two-wilds-cyprus"),
    pytest.param("greek", "7D 8D JK 2H", "at most", id="s2-two-wilds-greek"),
    pytest.param("barimba", "7D 8D JK 2H", "at most", id="s2-two-wilds-barimba"),
    pytest.param("threes", "7D 8D JK 2H", "at most", id="s2-two-wilds-threes"),
    pytest.param("venezuelan", "7D 8D JK 2H", "at most", id="s2-two-wilds-venezuelan"),
    pytest.param("partnership", "4H 5H JK 2C", "one wild per", id="s2-partnership-4-cards-2-wilds"),
    pytest.param("partnership", "5S JK 2C", "one wild per", id="s2-partnership-set-1-natural"),
    pytest.param("partnership", "5S 5H JK 2C", "one wild per", id="s2-partnership-set-2-2"),
    pytest.param("partnership", "4H 5H 6H JK JK", "one wild per", id="s2-partnership-run-3-2"),
    pytest.param("partnership", "2S 2H 2D", "not allowed", id="s2-partnership-set-of-twos-never"),
    pytest.param("partnership", "2S 2H 2D 2C", "not allowed", id="s2-partnership-four-twos-never"),
    pytest.param("partnership", "JK JK JK", "only wild", id="s3-wild-card-set-not-partnership"),
    pytest.param("partnership+no_wild_twos", "4H 5H 2C 7H", "mixed",
                 id="s1-no-wild-twos-foreign-two-is-natural"),
    pytest.param("partnership+no_wild_twos", "2S 5S 6S", "gap",
                 id="s1-no-wild-twos-own-two-only-at-its-place"),
    pytest.param("greek", "5S 5H 5D", "not allowed", id="s2-greek-sets-off"),
    pytest.param("greek", "2S 2H 2D", "not allowed", id="s2-greek-sets-off-twos"),
    pytest.param("greek", "KS KH JK", "not allowed", id="s2-greek-sets-off-dirty"),
    pytest.param("barimba", "AS AH AD", "not allowed", id="s8-barimba-no-set-of-aces"),
    pytest.param("barimba", "3S 3H 3D", "not allowed", id="s8-barimba-no-set-of-threes"),
    pytest.param("barimba", "3C 3C JK", "not allowed", id="s8-barimba-no-dirty-set-of-threes"),
    pytest.param("barimba", "AH AH 2D", "not allowed", id="s8-barimba-no-set-of-aces-repeat-suit"),
    pytest.param("greek", "KS KS JK", "not allowed", id="s2-greek-sets-off-repeat-suit"),
    pytest.param("barimba", "AS AS AH AH AD AD AC", "not allowed",
                 id="s8-barimba-no-set-biriba-of-aces"),
]


@pytest.mark.parametrize("key, cards, reason", ILLEGAL)
def test_illegal_meld(key, cards, reason):
    rules = rules_of(key)
    assert not can_meld(cards, rules)
    explanation = meld_reason(cards, rules)
    assert explanation is not None and reason in explanation
    with pytest.raises(IllegalMeldError, match=re.escape(reason)):
        verify_meld(cards, rules)
    with pytest.raises(IllegalMeldError, match=re.escape(reason)):
        analyze_meld(cards, rules)


@pytest.mark.parametrize(
    "cards, wild_ranks",
    [
        pytest.param("4H 5H 2C 7H", ("6",), id="s2-wild-position-fills-gap"),
        pytest.param("9D 10D JD JK", ("8", "Q"), id="s2-wild-position-either-end"),
        pytest.param("QS KS JK", ("J", "A"), id="s2-wild-position-ace-high"),
        pytest.param("KS AS 2S", ("Q",), id="s2-wild-position-no-wrap"),
        pytest.param("AS 2S 3S JK", ("4",), id="s2-wild-position-beside-natural-two"),
        pytest.param("AS JK 3S", ("2",), id="s2-wild-position-as-two"),
        pytest.param("2S 5S 6S", ("4", "7"), id="s2-wild-position-own-two-elsewhere"),
        pytest.param(run("H", "3", "A") + " JK", ("2",), id="s2-wild-position-full-2-to-a"),
    ],
)
def test_wild_position(cards, wild_ranks):
    assert analyze_meld(cards, "classic").wild_ranks == wild_ranks


def test_s2_wild_shown_in_its_place():
    assert analyze_meld("7H 2C 4H 5H").ordered_cards() == ["4H", "5H", "2C", "7H"]
    assert analyze_meld("JK 3S 2S AS").ordered_cards() == ["AS", "2S", "3S", "JK"]


@pytest.mark.parametrize("key", ["partnership", "barimba", "threes", "venezuelan"])
def test_s3_no_trump_presets_refuse_a_trump(key):
    with pytest.raises(InvalidRulesError, match="no trump"):
        analyze_meld(run("H", "3", "9"), rules_of(key), trump="H")


def test_s3_venezuelan_wild_card_biriba():
    rules = get_rules("venezuelan")
    info = analyze_meld("JK JK JK JK 2S 2H 2D", rules)
    assert (info.kind, info.rank, info.clean, info.wilds) == ("set", None, False, 7)
    assert info.biriba == "set_biriba"
    assert info.bonus == rules.wild_set_biriba > 0
    assert info.points == 4 * 50 + 3 * 25 + rules.wild_set_biriba


# Extensions (RULES.md §2 "Extending", "Wild position"):
# (rules, table meld, added cards, trump, after: clean, wilds, biriba class, extension points)
# where extension points = card values of the added cards + change of the bonus.
EXTENSIONS = [
    pytest.param("classic", "4H 5H 2C 7H", "6H", None, False, 1, None, 5,
                 id="s2-extend-fill-foreign-wild-stays-dirty"),
    pytest.param("classic", "4H 5H JK 7H", "6H 8H", None, False, 1, None, 15,
                 id="s2-extend-fill-joker-stays-dirty"),
    pytest.param("classic", "5S 6S 2S", "3S 4S", None, True, 0, None, 10,
                 id="s2-extend-own-two-reaches-its-place-clean"),
    pytest.param("classic", "2S 6S 7S", "8S", None, False, 1, None, 10,
                 id="s2-extend-own-two-still-wild"),
    pytest.param("classic", "QH KH AH", "2H", None, False, 1, None, 10,
                 id="s2-extend-own-two-as-wild-below-qka"),
    pytest.param("classic", "AS 2S 3S", "JK", None, False, 1, None, 20,
                 id="s2-extend-joker-beside-natural-two"),
    pytest.param("classic", "5S 6S 2S", "3S JK", None, False, 1, None, 5 + 20,
                 id="s2-extend-own-two-to-its-place-joker-fills-gap"),
    pytest.param("classic", "5S 6S 2S", "4S JK", None, False, 1, None, 5 + 20,
                 id="s2-extend-own-two-to-its-place-joker-as-three"),
    # §2 readings: only the reading with 2S as the 5 fits, so the natural 2 becomes a wild.
    pytest.param("classic", "2S 3S 4S", "6S", None, False, 1, None, 5,
                 id="s2-extend-natural-two-read-as-wild"),
    pytest.param("classic", "2S 6S 7S 8S", "3S 4S 5S", None, True, 0, "biriba", 15 + 200,
                 id="s3-extend-own-two-clean-crossing-seven"),
    pytest.param("classic", "2S " + run("S", "4", "9"), "3S", None, True, 0, "biriba", 5 + 100,
                 id="s3-extend-own-two-cleans-a-dirty-biriba"),
    pytest.param("classic", "4H 5H 2C 7H", "6H 8H 9H", None, False, 1, "biriba", 25 + 100,
                 id="s3-extend-crossing-seven-dirty"),
    pytest.param("classic", run("S", "3", "8"), "9S", None, True, 0, "biriba", 10 + 200,
                 id="s3-extend-crossing-seven-clean"),
    pytest.param("classic", run("S", "3", "8"), "9S 10S", None, True, 0, "biriba", 20 + 200,
                 id="s3-extend-crossing-seven-two-cards"),
    pytest.param("classic", run("S", "3", "9"), "10S", None, True, 0, "biriba", 10,
                 id="s3-extend-biriba-no-new-bonus"),
    pytest.param("classic", run("S", "3", "9"), "JK", None, False, 1, "biriba", 20 - 100,
                 id="s3-extend-wild-dirties-a-clean-biriba"),
    pytest.param("classic", run("H", "3", "8"), "9H", "H", True, 0, "trump", 10 + 600,
                 id="s3-extend-crossing-seven-trump-classic"),
    pytest.param("greek+hearts_super_trump", run("H", "3", "8"), "9H", "H", True, 0, "trump",
                 10 + 2400, id="s3-extend-crossing-seven-hearts-super-trump"),
    pytest.param("classic", run("S", "A", "Q"), "KS", None, True, 0, "full", 10 + 800,
                 id="s3-extend-to-full-run"),
    pytest.param("classic", run("S", "A", "J") + " JK", "QS", None, False, 1, "full", 10 + 400,
                 id="s3-extend-to-dirty-full-run-classic"),
    pytest.param("cyprus", run("S", "A", "J") + " JK", "QS", None, False, 1, "full", 10,
                 id="s3-extend-to-dirty-full-run-cyprus"),
    pytest.param("classic", "5S 5H 5D", "5C 5S 5H JK", None, False, 1, "set_biriba",
                 15 + 20 + 150, id="s3-extend-set-crossing-seven-dirty"),
    pytest.param("classic", "9S 9H JK", "9D", None, False, 1, None, 10,
                 id="s2-extend-dirty-set"),
    pytest.param("classic", "2S 2H 2D", "2C", None, True, 0, None, 10,
                 id="s2-extend-set-of-twos-natural"),
    pytest.param("classic", "2S 2H 2D", "JK", None, False, 1, None, 20,
                 id="s2-extend-set-of-twos-joker"),
    pytest.param("partnership", "4H 5H JK 7H", "8H 2C", None, False, 2, None, 30,
                 id="s2-extend-partnership-second-wild-with-four-naturals"),
    pytest.param("partnership", "AS AH AD", "AC AS AH AD", None, True, 0, "set_biriba", 80 + 300,
                 id="s3-extend-partnership-aces-crossing-seven"),
    pytest.param("partnership", "KS KH KD", "KC KS KH KD", None, True, 0, None, 40,
                 id="s3-extend-partnership-kings-crossing-seven-no-bonus"),
    pytest.param("partnership+super_biriba", run("H", "3", "Q"), "KH", None, True, 0, "super",
                 10 + 200, id="s3-extend-partnership-crossing-eleven-super"),
    pytest.param("venezuelan", "JK JK JK", "2S", None, False, 4, None, 25,
                 id="s3-extend-venezuelan-wild-card-set"),
]


@pytest.mark.parametrize(
    "key, table_meld, added, trump, clean, wilds, biriba, points", EXTENSIONS
)
def test_legal_extension(key, table_meld, added, trump, clean, wilds, biriba, points):
    rules = rules_of(key)
    assert can_extend(table_meld, added, rules)
    info = analyze_extension(table_meld, added, rules, trump=trump)
    assert info.after.kind == info.before.kind
    assert (info.after.suit, info.after.rank) == (info.before.suit, info.before.rank)
    assert info.after.clean is clean
    assert info.after.wilds == wilds
    assert info.after.biriba == biriba
    assert info.points == points
    assert info.points == table_value(added, key) + info.after.bonus - info.before.bonus
    assert extension_points(table_meld, added, rules, trump=trump) == points


def test_s2_extend_wild_moves_to_either_end():
    info = analyze_extension("4H 5H 2C 7H", "6H", "classic")
    assert info.before.wild_ranks == ("6",)
    assert info.after.wild_ranks == ("3", "8")


def test_s2_extend_own_two_was_wild_before():
    info = analyze_extension("5S 6S 2S", "3S 4S", "classic")
    assert (info.before.clean, info.before.wilds) == (False, 1)
    assert (info.after.clean, info.after.wilds) == (True, 0)


# (rules, table meld, added cards, distinctive part of the reason)
ILLEGAL_EXTENSIONS = [
    pytest.param("classic", "4H 5H 2C 7H", "JK", "at most", id="s2-extend-second-wild"),
    pytest.param("classic", "4H 5H 2C 7H", "6H JK", "at most",
                 id="s2-extend-second-wild-after-fill"),
    pytest.param("classic", "5S 6S 2S", "JK", "at most",
                 id="s2-extend-own-two-wild-plus-joker"),
    pytest.param("classic", "5S 6S 2S", "8S JK", "at most",
                 id="s2-extend-own-two-still-off-its-place-plus-joker"),
    pytest.param("classic", "9S 9H JK", "2D", "at most", id="s2-extend-set-second-wild"),
    pytest.param("classic", "4H 5H 6H", "5H", "appears", id="s2-extend-run-rank-twice"),
    pytest.param("classic", "4H 5H 6H", "9H", "gap", id="s2-extend-run-gap"),
    pytest.param("classic", "QH KH AH", "2H 3H", "wrap", id="s2-extend-wrap"),
    pytest.param("classic", "5S 6S 7S", "5H 5D", "mixed", id="s2-extend-run-with-set-cards"),
    pytest.param("classic", "5S 5H 5D", "6S", "mixed", id="s2-extend-set-other-rank"),
    pytest.param("partnership", "2S 3S JK", "3H 3D 3C", "stop being a run",
                 id="s2-extend-run-cannot-become-a-set"),
    pytest.param("partnership", "4H 5H JK", "2C", "one wild per",
                 id="s2-extend-partnership-ratio"),
    pytest.param("partnership", "5S 5H JK", "5D 2C", "one wild per",
                 id="s2-extend-partnership-set-ratio"),
    pytest.param("classic", "4H 5H 6H", "", "nothing to add", id="s2-extend-nothing"),
    pytest.param("classic", "4H 5H", "6H", "not a legal meld", id="s2-extend-illegal-table-meld"),
]


@pytest.mark.parametrize("key, table_meld, added, reason", ILLEGAL_EXTENSIONS)
def test_illegal_extension(key, table_meld, added, reason):
    rules = rules_of(key)
    assert not can_extend(table_meld, added, rules)
    with pytest.raises(IllegalMeldError, match=re.escape(reason)):
        analyze_extension(table_meld, added, rules)


# biriba_bonus(kind, suit_index, rank_index, length, clean, rules, trump): suits S H D C = 0..3,
# ranks A 2 .. K = 0..12.
@pytest.mark.parametrize(
    "key, kind, suit_index, rank_index, length, clean, trump, expected",
    [
        pytest.param("classic", "run", 0, None, 6, True, None, (None, 0), id="s3-bonus-below-seven"),
        pytest.param("classic", "run", 0, None, 7, False, None, ("biriba", 100),
                     id="s3-bonus-run-dirty"),
        pytest.param("classic", "run", 1, None, 7, True, 1, ("trump", 600), id="s3-bonus-trump"),
        pytest.param("greek", "run", 1, None, 13, False, 1, ("trump_full", 1000),
                     id="s3-bonus-greek-trump-full-dirty"),
        pytest.param("greek+hearts_super_trump", "run", 1, None, 7, True, 1, ("trump", 2400),
                     id="s3-bonus-hearts-super-trump"),
        pytest.param("cyprus", "run", 2, None, 13, False, 2, ("trump_full", 100),
                     id="s3-bonus-cyprus-trump-full-dirty"),
        pytest.param("classic", "set", None, 6, 7, True, None, ("set_biriba", 300),
                     id="s3-bonus-set-clean"),
        pytest.param("threes", "set", None, 6, 8, False, None, ("set_biriba", 100),
                     id="s3-bonus-threes-set-dirty"),
        pytest.param("partnership", "set", None, 12, 8, True, None, (None, 0),
                     id="s3-bonus-partnership-kings-none"),
        pytest.param("partnership", "set", None, 0, 7, False, None, ("set_biriba", 150),
                     id="s3-bonus-partnership-aces-dirty"),
        pytest.param("partnership+super_biriba", "run", 3, None, 12, False, None, ("super", 200),
                     id="s3-bonus-partnership-super-dirty"),
        pytest.param("threes", "run", 3, None, 13, True, None, ("full", 500),
                     id="s3-bonus-threes-full-clean"),
    ],
)
def test_biriba_bonus(key, kind, suit_index, rank_index, length, clean, trump, expected):
    rules = rules_of(key)
    assert biriba_bonus(kind, suit_index, rank_index, length, clean, rules, trump) == expected


def test_s2_own_suit_two_at_its_place_is_natural_and_stands_for_nothing():
    """RULES.md §2: an own-suit 2 at its natural place is not a wild card."""
    info = analyze_meld("3S 4S 5S 6S 7S 8S 2S", "classic")
    assert info.clean and info.wilds == 0 and info.wild_ranks == ()
    dirty = analyze_meld("3S 4S 5S 6S 7S 8S JK", "classic")
    assert not dirty.clean and dirty.wild_ranks == ("2", "9")


def test_s2_a_fourteen_card_run_is_refused_for_its_length():
    """RULES.md §2: a run has at most 13 cards; the reason says so, not 'two wilds'."""
    with pytest.raises(IllegalMeldError, match="14 cards; a run has at most 13"):
        analyze_meld("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS JK", "classic")
