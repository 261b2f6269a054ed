"""Information-set Monte Carlo tree search (SO-ISMCTS, Cowling, Powley & Whitehouse 2012).

Modules, one concern each: :mod:`~solver.search.tree` (the arrays),
:mod:`~solver.search.decisions` (what is chosen, and how it expands into engine actions),
:mod:`~solver.engine.determinize`, :mod:`~solver.search.select` (UCB1 with availability,
backup), :mod:`~solver.search.loop` (the numba iteration), :mod:`~solver.search.multi`
(MO-ISMCTS, one tree per player: the ``multi`` option), :mod:`~solver.search.infer`
(determinizations weighted by the greedy model: ``infer``), :mod:`~solver.search.search`
(budgets, workers, statistics) and :mod:`~solver.search.player`.
"""

from solver.search.player import ISMCTSPlayer
from solver.search.search import Decision, SearchError, SearchResult, search

__all__ = ["Decision", "ISMCTSPlayer", "SearchError", "SearchResult", "search"]
