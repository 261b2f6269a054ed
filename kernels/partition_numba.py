"""numba backend of the meld-partition kernels: the public names of :mod:`kernels.laydown`.

Same algorithms and results as :mod:`kernels.partition_ref` (read that module's
docstring first). The kernels live in :mod:`kernels.laydown`, one concern a module: the
meld catalogue (``melds``), the programme both searches walk (``programme``), the memo
and frames (``memo``), the packed and the counts searches (``packed``, ``counts``), the
rebuild of a best lay-down (``rebuild``) and the entry points (``search``). This module
compiles nothing; its imports tie its importers' numba caches to those modules
(:mod:`kernels.numba_cache`).
"""

from kernels.laydown.layout import (DIVES, NODE_CARDS, NODE_MOVES, NODE_PROGRAMMES,
                                    NODE_SHIFT, PLATEAU_STEPS, SHARE_SCALE, WORK_FACTOR)
from kernels.laydown.melds import (_catalogue, additions, catalogue, key_counts, meld_key,
                                   meld_reading)
from kernels.laydown.programme import card_shares, decision_order
from kernels.laydown.search import beats, best, best_priced, count
from kernels.lp_bound import CUT_ROUNDS
from kernels.params import PRICED_CARDS

__all__ = ["CUT_ROUNDS", "DIVES", "NODE_CARDS", "NODE_MOVES", "NODE_PROGRAMMES", "NODE_SHIFT",
           "PLATEAU_STEPS", "PRICED_CARDS", "SHARE_SCALE", "WORK_FACTOR", "_catalogue",
           "additions", "beats", "best", "best_priced", "card_shares", "catalogue", "count",
           "decision_order", "key_counts", "meld_key", "meld_reading"]
