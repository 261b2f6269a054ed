"""The game: cards, rule sets, melds, the lay-down optimizer, the engine and the players.

The public Python API is importable from here::

    from solver import Game, GreedyPlayer, best_laydown, get_rules, ismcts, play

Names of the engine and the search load on first use, so ``import solver`` stays
light (the numba kernels compile at their first call, not at import).
"""

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
from solver.lazy import lazy_names
from solver.rules import PRESETS, RuleSet, get_rules

# name -> (module, attribute): loaded when first asked for
_LAZY = {
    "best_laydown": ("solver.laydown", "best_laydown"),
    "count_laydowns": ("solver.laydown", "count_laydowns"),
    "iter_laydowns": ("solver.laydown", "iter_laydowns"),
    "meld_catalogue": ("solver.laydown", "meld_catalogue"),
    "Config": ("solver.optimizer", "Config"),
    "Instance": ("solver.optimizer", "Instance"),
    "optimize_laydown": ("solver.optimizer", "optimize_laydown"),
    "random_instance": ("solver.instances", "random_instance"),
    "Game": ("solver.engine.api", "Game"),
    "State": ("solver.engine.api", "State"),
    "GreedyPlayer": ("solver.engine.players", "GreedyPlayer"),
    "ExpertPlayer": ("solver.engine.players", "ExpertPlayer"),
    "RandomPlayer": ("solver.engine.players", "RandomPlayer"),
    "play": ("solver.engine.players", "play"),
    "load_record": ("solver.engine.records", "load"),
    "save_record": ("solver.engine.records", "save"),
    "ISMCTSPlayer": ("solver.search.player", "ISMCTSPlayer"),
    "ismcts": ("solver.search.search", "search"),
    "SearchResult": ("solver.search.search", "SearchResult"),
    "evaluate": ("solver.search.evaluate", "evaluate"),
}

__all__ = [
    "BiribaError", "Card", "Hand", "IllegalMeldError", "IllegalMoveError",
    "ImpossiblePositionError", "InvalidCardError", "InvalidRulesError", "PRESETS",
    "RecordError", "RuleSet", "analyze_extension", "analyze_meld", "can_extend",
    "can_meld", "get_rules", "meld_points", "verify_extension", "verify_meld",
    *_LAZY,
]


__getattr__, __dir__ = lazy_names(globals(), _LAZY)
