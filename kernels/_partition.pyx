# distutils: language = c++
# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""Cython backend of the meld-partition kernels.

Same algorithms and results as :mod:`kernels.partition_ref` and
:mod:`kernels.partition_numba` (read the reference's docstring first); the
structure follows the numba port: for one-wild rules without sets of wilds the
catalogue lists the readings by position masks (:mod:`kernels.catalogue_numba`'s
algorithm) and builds rows only for the melds kept; otherwise it enumerates every
(meld, reading) candidate, sorts them stably by key and keeps each key's best
reading; ``count`` and ``best`` run the memoised programme over remaining
hands (C recursion, one level per step: at most 53 deep without groups, one
per decided kind, each kind with its multiset S of melds as a small stack),
deciding kinds in :func:`kernels.params.decision_order` and trying the
multisets S in the reference's order, so ``best``'s reconstructed lay-down is the reference's and
the numba backend's. ``best`` takes the optimizer's constraints too (``groups``:
at most one meld per group; ``max_left``: checked when a kind is set aside).
With groups ``best`` walks the reference's fixed sequence of *steps* (per
decision position, a step per group anchored there, then the kind's step; the
memo state then holds the step index); without them the steps are the
positions, and the plain first-card programme runs.
The memo is an open-addressing table in a C++ vector.

Array shapes: ``hand`` int64[53]; ``scalars`` int64[6] (RuleParams switches);
``values`` int64[53]; ``run_bonus`` int64[4, 2, 14]; ``set_bonus``
int64[14, 2, S]; ``meld_counts`` int64[M, 53]; ``points``, ``groups`` int64[M];
``max_left`` int64[53].

The kernels are called once per hand, so the fixed cost of a call is kept
small (a 16-card hand meets only 20-200 states): the arrays are read through
the buffer protocol, each meld row is scanned once into sparse form, the
remaining hand is nothing but bit masks (see "the shared dynamic programme" in
_programme.pxi), and the buffers live in a module-level workspace reused across
calls (a call made while another holds it, from another thread, gets a fresh
one). Buffers are sized from the inputs, never fixed: the melds sharing a first
card from the largest count in the hand (each such meld holds at least one copy
of that card), the wild-index odometer from the number of cards in the hand.
"""

import numpy as np

from kernels.params import COUNT_BUDGET, STATE_BUDGET
from kernels.params import decision_order as _decision_order

from cpython.buffer cimport PyBUF_C_CONTIGUOUS, PyBUF_FORMAT, PyBuffer_Release, PyObject_GetBuffer
from libc.stdint cimport int64_t, uint64_t
from libc.string cimport memcpy, memset
from libcpp.algorithm cimport sort
from libcpp.utility cimport pair
from libcpp.vector cimport vector

cdef enum:
    KIND_COUNT = 53
    JOKER = 52
    RANK_COUNT = 13
    ACE_HIGH = 13
    SHAPE_RUN = 0
    SHAPE_SET = 1
    SHAPE_WILD_SET = 2
    KEY_TWO_SHIFT = 3
    KEY_BODY_SHIFT = 11
    KEY_TAG_SHIFT = 40
    KEY_TAG_RUN = 1
    KEY_TAG_SET = 2

# The rule switches: the entries of ``scalars``, RuleParams' first six fields in order.
cdef enum:
    RULE_WILD_TWOS = 0          # 2s are wild
    RULE_MAX_WILDS = 1          # most wilds a meld
    RULE_NATURALS_PER_WILD = 2  # naturals a wild needs (0: no ratio rule)
    RULE_MIN_SIZE = 3           # fewest cards a meld
    RULE_SET_RANKS = 4          # bit r: sets of rank index r are allowed
    RULE_WILD_SETS = 5          # sets of wilds only are allowed
    RULE_COUNT = 6

cdef int64_t C_NEG_INF = -((<int64_t>1) << 60)
cdef int64_t C_INT64_MAX = 0x7FFFFFFFFFFFFFFF

# The order the programme decides kinds in is the reference's, taken from
# kernels.params so the backends cannot drift apart.
cdef int64_t _ORDER[KIND_COUNT]


_order = [int(kind) for kind in _decision_order()]
if sorted(_order) != list(range(KIND_COUNT)):
    raise ImportError("kernels.params.decision_order() is not a permutation of the 53 kinds")
for _position in range(KIND_COUNT):
    _ORDER[_position] = _order[_position]
del _order, _position

# The enums above repeat constants Cython must know at compile time; their one definition is
# in kernels.encoding and kernels.params, and the import refuses a module that drifted.
from kernels import encoding as _encoding, params as _params

if ((KIND_COUNT, JOKER, RANK_COUNT, ACE_HIGH) != (_encoding.KIND_COUNT, _encoding.JOKER,
        _encoding.RANK_COUNT, _encoding.ACE_HIGH_POSITION)
        or (SHAPE_RUN, SHAPE_SET, SHAPE_WILD_SET) != (_params.SHAPE_RUN, _params.SHAPE_SET,
                                                      _params.SHAPE_WILD_SET)
        or (KEY_TWO_SHIFT, KEY_BODY_SHIFT, KEY_TAG_SHIFT, KEY_TAG_RUN, KEY_TAG_SET) != (
            _params.KEY_TWO_SHIFT, _params.KEY_BODY_SHIFT, _params.KEY_TAG_SHIFT,
            _params.KEY_TAG_RUN, _params.KEY_TAG_SET)
        or _params.RuleParams._fields[:RULE_COUNT] != (
            "wild_twos", "max_wilds", "naturals_per_wild", "min_size", "set_rank_mask",
            "wild_sets")
        or C_NEG_INF != _params.NEG_INF):
    raise ImportError("kernels._partition was built with constants that differ from "
                      "kernels.encoding / kernels.params: rebuild it (pip install -e .)")

COMPILED = True
NEG_INF = _params.NEG_INF

# The module is this file and the parts below, compiled as one extension in this order
# (a part may use the types and module-level tables of the parts before it).
include "_buffers.pxi"      # int64 inputs through the buffer protocol, numpy outputs
include "_catalogue.pxi"    # the catalogue: every (meld, reading), best reading per meld
include "_window.pxi"       # the catalogue by position masks (one-wild rules)
include "_programme.pxi"    # the memo, the search context, the bit-mask moves
include "_workspace.pxi"    # the per-call buffers: slots, steps, memo-key places
include "_search.pxi"       # count() and best()'s programme
include "_best.pxi"         # best(): the search, then the lay-down rebuilt from the memo
include "_priced.pxi"       # the priced search (best() bounded by prices)
include "_priced_best.pxi"  # best_priced(): its setup and its rebuild
