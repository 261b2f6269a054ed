"""The game: cards, rule sets, melds, the engine, the lay-down optimizer and the players."""

import kernels  # noqa: F401  (the numba cache location, set once before numba loads)

from solver.cards import Card, Hand
from solver.errors import (
    BiribaError,
    IllegalMeldError,
    IllegalMoveError,
    ImpossiblePositionError,
    InvalidCardError,
    InvalidRulesError,
    RecordError,
)
from solver.melds import (
    analyze_extension,
    analyze_meld,
    can_extend,
    can_meld,
    meld_points,
    verify_extension,
    verify_meld,
)
from solver.rules import PRESETS, RuleSet, get_rules

__all__ = [
    "BiribaError", "Card", "Hand", "IllegalMeldError", "IllegalMoveError",
    "ImpossiblePositionError", "InvalidCardError", "InvalidRulesError", "PRESETS",
    "RecordError", "RuleSet", "analyze_extension", "analyze_meld", "can_extend",
    "can_meld", "get_rules", "meld_points", "verify_extension", "verify_meld",
]
