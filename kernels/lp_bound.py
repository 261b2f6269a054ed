"""A linear-programming bound for the lay-down search: per-card prices (numba).

The lay-down problem relaxed to a linear programme, its dual's prices made
exact in integers, and what they rule out. The parts, by concern:

- :mod:`kernels.lp_bound_simplex`: the programme and its revised simplex;
- :mod:`kernels.lp_bound_repair`: integer prices from the duals, the bounds
  they give, reduced-cost fixing;
- :mod:`kernels.lp_bound_cuts`: clique cuts a solution violates;
- :mod:`kernels.lp_bound_floor`: lay-downs from a solution (rounding, diving);
- :mod:`kernels.lp_bound_priced`: :func:`priced`, a priced search's set-up.

This module compiles nothing: it gathers the public names of those njit and
linked functions (and those the tests read), and its imports tie its
importers' numba caches to the parts (:mod:`kernels.numba_cache`).
"""

from kernels.lp_bound_cuts import separate
from kernels.lp_bound_floor import dived, fitting, rounded
from kernels.lp_bound_priced import (CUT_ROUNDS, CUTS_PER_ROUND, MAX_CUTS, STALLED_ROUNDS,
                                     Priced, _narrow, granularity, priced)
from kernels.lp_bound_repair import (cut_worth, dual_prices, least_price, reduced, repair,
                                     subset_bound)
from kernels.lp_bound_simplex import (EPSILON, MAX_ITERATIONS, cold_basis, lp_duals, lp_solve,
                                      no_cuts)

__all__ = ["CUT_ROUNDS", "CUTS_PER_ROUND", "EPSILON", "MAX_CUTS", "MAX_ITERATIONS",
           "STALLED_ROUNDS", "Priced", "_narrow", "cold_basis", "cut_worth", "dived",
           "dual_prices", "fitting", "granularity", "least_price", "lp_duals", "lp_solve",
           "no_cuts", "priced", "reduced", "repair", "rounded", "separate", "subset_bound"]
