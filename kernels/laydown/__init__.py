"""The numba lay-down kernels, one concern a module (:mod:`kernels.partition_numba` is
their public face, and the same algorithms as :mod:`kernels.partition_ref`).

- :mod:`~kernels.laydown.melds`: meld keys, the catalogue of a hand, a meld's reading,
  the additions to table melds;
- :mod:`~kernels.laydown.layout`: the search's constants and the named slots of its
  arrays (the memo's control record, frames, the step table, the packed tables);
- :mod:`~kernels.laydown.programme`: the programme, the fixed sequence of steps both
  searches walk, with the per-call tables it needs (sparse melds, shares, cuts);
- :mod:`~kernels.laydown.memo`: the memo table and the frame helpers both searches share;
- :mod:`~kernels.laydown.packed`: the search on a remaining hand packed into one int64;
- :mod:`~kernels.laydown.counts`: the same search on a counts vector (larger hands);
- :mod:`~kernels.laydown.rebuild`: a best lay-down rebuilt from the memoised values;
- :mod:`~kernels.laydown.search`: ``count``, ``best``, ``beats`` and ``best_priced``.
"""
