"""The lay-down search's constants and the named slots of its arrays.

Every array the searches index by position has its positions named here, once:
the memo's control record (``META_*``), a frame of the search (``FR_*``), the
step table (``ST_*``), the packed tables (``PK_*``, ``PS_*``) and a priced
search's sub-problem programmes (``NODE_LP_*``). numba reads these module
integers as constants, so a named slot costs what a literal index does. The
records at the end bundle the arrays one call of a search passes down (numba
passes a NamedTuple of arrays as a plain structure).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

INT64_MAX = (1 << 63) - 1
MAX_WIDTH = 16          # most distinct kinds in one meld (a 13-card run)
MAX_DEPTH = 8           # most melds sharing their first card (its copies, <= 6 jokers)
SHARE_SCALE = 1 << 20   # fixed-point scale of the per-card point bounds
NO_VALUE = -(1 << 62)   # no child value to take in
NODE_PROGRAMMES = 128   # a priced search solves at most this many sub-problems' programmes
NODE_SHIFT = 11         # ... and at most one per 2^NODE_SHIFT memo entries of its budget
NODE_CARDS = 24         # ... for sub-problems of at least this many cards
NODE_MOVES = 1 << 15    # ... once the search has tried this many moves
PLATEAU_STEPS = 3       # ... none when the bound is fewer steps than this above the floor
DIVES = np.array([64])  # the floor: the rounded solution, or a dive with this many solves
WORK_FACTOR = 8         # a priced best() search tries at most this many moves per memo entry
MEMO_MULTIPLIER = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64 (Fibonacci hashing)
MEMO_BITS = 8           # log2 of the counts search's first memo size
PACK_BITS = 63          # the packed state must stay non-negative

# the search's mode (a compile-time constant of the searches)
MODE_COUNT = 0          # count the lay-downs
MODE_BEST = 1           # the most points of a lay-down

# the memo's control record, int64[META_SIZE] (kernels.laydown.memo.memo_new)
META_ENTRIES = 0        # entries stored in the table
META_MASK = 1           # the table's size less one (its slot mask)
META_BUDGET = 2         # most entries: no new sub-problem is entered at this many
META_STOPPED = 3        # 1 once the search stopped (budget or move limit reached)
META_MOVES = 4          # moves the search has tried
META_MOVE_LIMIT = 5     # most moves: the search stops past this many
META_SIZE = 6

# a priced counts search's sub-problem programmes, int64[NODE_LP_SIZE]
NODE_LP_LEFT = 0        # programmes it may still solve
NODE_LP_CARDS = 1       # ... for sub-problems of at least this many cards
NODE_LP_MOVES = 2       # ... once it has tried this many moves
NODE_LP_SIZE = 3

# the packed tables: per local kind (int64[PK_ROWS, L + 1]) ...
PK_SHIFT = 0            # the kind's field starts at this bit
PK_LOW = 1              # the field's count mask (below its guard bit)
PK_FIELD = 2            # the field with its guard bit, in place
PK_SHARE = 3            # the most points one card of the kind may bring (SHARE_SCALE)
PK_ROWS = 4
# ... and per step meld (int64[PS_ROWS, M'], in step order)
PS_MELD = 0             # the meld's catalogue index
PS_PACKED = 1           # the meld packed as a state
PS_POINTS = 2           # its points
PS_SHARE = 3            # the sum of its cards' shares
PS_ROWS = 4

# the step table, int64[ST_ROWS, steps] (kernels.laydown.programme.programme)
ST_KIND = 0             # the kind step's kind; -1 for a group step
ST_LO = 1               # the step's melds are step_melds[ST_LO:ST_HI]
ST_HI = 2
ST_SINGLE = 3           # 1: one meld at most (a group step)
ST_FIELD = 4            # packed: the kind's field (0 for a group step)
ST_SHIFT = 5            # packed: its first bit
ST_LOW = 6              # packed: its count mask
ST_SHARE = 7            # packed: one card's share
ST_MAXLEFT = 8          # most copies of the kind left in hand (large for a group step)
ST_ROWS = 9

# a frame of a search, one per step entered (int64[steps + 1, FR_COLS])
FR_POS = 0              # the frame's step
FR_KEY2 = 1             # its memo key's second word
FR_KEPT = 2             # cards kept so far (at most keep)
FR_SLOT = 3             # the next step meld to try
FR_DEPTH = 4            # melds of the current move
FR_GAINED = 5           # their points
FR_ACC = 6              # the best value so far, or the count's sum
FR_EMPTY = 7            # 1 once the empty move was taken
FR_STATE = 8            # packed search: the state with the move's melds applied
FR_BOUND = 9            # packed search: its bound
FR_KEY = 10             # the memo key's first word
FR_SAVED = 11           # counts search: copies of the kind the move leaves
FR_UNDO = 12            # counts search: the undo stack's mark on entry
FR_ALPHA = 13           # the threshold the frame's value must beat
FR_COLS = 14


class Programme(NamedTuple):
    """The steps of a hand's programme (kernels.laydown.programme.programme)."""

    table: np.ndarray       # int64[ST_ROWS, S]: the step table
    step_melds: np.ndarray  # int64[M']: the steps' melds, step by step
    kinds: np.ndarray       # int64[PK_ROWS, L + 1]: packed fields (no columns: unpacked)
    melds: np.ndarray       # int64[PS_ROWS, M']: the step melds packed
    jump: np.ndarray        # int64[64 + S + 1]: a state bit's kind step, the next group step
    guards: int             # the packed fields' guard bits
    state: int              # the hand packed
    tail: np.ndarray        # int64[S + 1]: the slack of the groups and cuts decided at s or later


class Prepared(NamedTuple):
    """A hand's melds in sparse form, for the counts search (programme.prepare)."""

    widths: np.ndarray      # int64[M]: distinct kinds of each meld
    kinds: np.ndarray       # int64[M, MAX_WIDTH]: those kinds
    mults: np.ndarray       # int64[M, MAX_WIDTH]: their counts
    layers: np.ndarray      # int64[M, 3]: layer masks (bit k of layer j: more than j copies)
    jokers: np.ndarray      # int64[M]: jokers of each meld
    key_deltas: np.ndarray  # int64[M]: what laying the meld takes off the memo key
    places: np.ndarray      # int64[53]: each kind's place in the mixed-radix memo key


class Cuts(NamedTuple):
    """The clique cuts a counts search closes as it lays melds (programme.open_cuts)."""

    closed: np.ndarray      # int64[S + 2]: slack closed for step s, to take off tail[s]
    starts: np.ndarray      # int64[M + 1]: meld m's cuts are cuts[starts[m]:starts[m + 1]]
    cuts: np.ndarray        # int64[..]: cut numbers, meld by meld
    last: np.ndarray        # int64[C]: the last step holding a meld of the cut
    value: np.ndarray       # int64[C]: the cut's slack
    laid: np.ndarray        # int64[C]: melds of the cut laid on the current path


class CountsProblem(NamedTuple):
    """What every frame of one counts search reads (kernels.laydown.counts.counts_solve)."""

    meld_counts: np.ndarray  # int64[M, 53]
    points: np.ndarray       # int64[M]
    groups: np.ndarray       # int64[M]
    max_left: np.ndarray     # int64[53]
    keep: int                # cards to keep
    leave: int               # the least price of a card kept (SHARE_SCALE)
    steps: Programme
    prepared: Prepared
    shares: np.ndarray       # int64[53]: a card's share of the bound (SHARE_SCALE)
    meld_shares: np.ndarray  # int64[M]: the sum of a meld's cards' shares
    cut_starts: np.ndarray   # the linear programme's cuts (kernels.lp_bound)
    cut_melds: np.ndarray
    cuts: Cuts
    node_lp: np.ndarray      # int64[NODE_LP_SIZE]: the sub-problems' programmes
    overflow: np.ndarray     # int64[1]: 1 once a count overflowed
