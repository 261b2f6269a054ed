"""What every rule reads: the state's hands, melds and counters, random numbers, action codes.

Every function of the engine reads and writes the flat ``int64`` state of
:mod:`solver.engine.layout` (``S``) and the rule numbers of
:mod:`solver.engine.rules` (``R``, and the kernels' scoring tables ``sc``,
``vals``, ``runb``, ``setb``). A function that needs more than ``R`` takes the five
together as ``T``, the game's :class:`~solver.engine.rules.EngineRules`, a named tuple
read by field (``R = T.array``, ``vals = T.values``); :mod:`solver.engine.core` lists
where each rule of the turn lives.

Actions are int64: ``type << 48 | target << 42 | key``. The key of a new meld
(``ACTION_LAY``) is its :func:`kernels.partition_numba.meld_key`; an extension
(``ACTION_EXTEND``) names the table meld in ``target`` and the key of the meld
it becomes; a discard names the card kind; a trump choice the suit (4: none).
The same meld has the same action in every state, which search needs.

Randomness: a 48-bit linear congruential generator whose state is an int64
(the dealing one lives in the state array; policies get theirs as an
``int64[1]`` array), exact both compiled and in plain Python.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from kernels.jit import njit

from kernels.encoding import RANK_COUNT
from kernels.params import NEG_INF, SHAPE_RUN, SHAPE_WILD_SET
from kernels.partition_numba import (  # noqa: F401
    additions,
    catalogue,
    key_counts,
    meld_key,
    meld_reading,
)
from solver.engine import layout as L
from solver.rules import vulnerability_minimum

# Who is playing, as the rule checks read it: the seat, its team, the seat's hand (counts)
# and how many cards it holds, and the team's (biribas, clean biribas, runs, sets).
Mover = namedtuple("Mover", ("seat", "team", "hand", "held", "stats"))
# One play to check: the cards ``used`` (a new meld, or an addition to a table meld), how
# many, the points it adds, whether it makes a meld reach the biriba size, how the team's
# clean biribas change (+1 a new clean one, -1 a clean one a wild makes dirty), whether the
# meld is a run, and whether it is a new meld (not an addition).
Play = namedtuple("Play", ("used", "size", "points", "grows_biriba", "clean_change",
                           "is_run", "is_new"))


LCG_MUL = 0x5DEECE66D
LCG_ADD = 0xB
LCG_MASK = (1 << 48) - 1


@njit(cache=True)
def seed_rng(seed):
    """Generator state for ``seed`` (any int)."""
    return (seed ^ LCG_MUL) & LCG_MASK


def search_rng(seed: int) -> np.ndarray:
    """The generator (int64[1]) of a search or an evaluation with ``seed``: its own stream,
    apart from the deal's generator of the same seed. Any seed up to ``MAX_SEED``: the
    mix is taken modulo 2**63, so a large seed does not overflow int64."""
    return np.array([seed_rng((int(seed) * 0x9E3779B1 + 12345) & ((1 << 63) - 1))],
                    dtype=np.int64)


@njit(cache=True)
def rng_unit(rng):
    """Uniform float in [0, 1) from the generator ``rng`` (int64[1], advanced)."""
    rng[0] = (int(rng[0]) * LCG_MUL + LCG_ADD) & LCG_MASK
    return (rng[0] >> 17) / float(1 << 31)


@njit(cache=True)
def rng_below(rng, n):
    """Uniform int in [0, n) from the generator ``rng`` (int64[1], advanced)."""
    rng[0] = (int(rng[0]) * LCG_MUL + LCG_ADD) & LCG_MASK
    return ((rng[0] >> 17) * n) >> 31


@njit(cache=True)
def encode(kind_of_action, target, key):
    return (kind_of_action << L.TYPE_SHIFT) | (target << L.TARGET_SHIFT) | key


@njit(cache=True)
def hand_of(S, seat):
    return S[L.HANDS + seat * L.KINDS:L.HANDS + (seat + 1) * L.KINDS]


@njit(cache=True)
def meld_of(S, team, m):
    start = L.MELDS + (team * L.MAX_MELDS + m) * L.KINDS
    return S[start:start + L.KINDS]


@njit(cache=True)
def info_of(S, team, m):
    start = L.MELD_INFO + (team * L.MAX_MELDS + m) * L.INFO
    return S[start:start + L.INFO]


@njit(cache=True)
def team_melds(S, team):
    """(counts int64[n, 53], shapes, homes, points) of a team's table melds (copies)."""
    n = S[L.MELD_N + team]
    start = L.MELDS + team * L.MAX_MELDS * L.KINDS
    counts = S[start:start + n * L.KINDS].copy().reshape(n, L.KINDS)
    shapes = np.empty(n, dtype=np.int64)
    homes = np.empty(n, dtype=np.int64)
    points = np.empty(n, dtype=np.int64)
    for m in range(n):
        info = info_of(S, team, m)
        shapes[m] = info[L.INFO_SHAPE]
        homes[m] = info[L.INFO_HOME]
        points[m] = info[L.INFO_POINTS] - info[L.INFO_AT_ONCE]   # as the kernels score it
    return counts, shapes, homes, points


@njit(cache=True)
def team_additions(S, T, team, hand, run_bonus):
    """(table, rows, gains, groups): ``team``'s table melds and the additions of ``hand`` to
    them (:func:`kernels.partition_numba.additions`; none when the team has no meld)."""
    sc, vals, setb = T.scalars, T.values, T.set_bonus
    table, shapes, homes, before = team_melds(S, team)
    if table.shape[0] == 0:
        return (table, np.empty((0, L.KINDS), dtype=np.int64), np.empty(0, dtype=np.int64),
                np.empty(0, dtype=np.int64))
    rows, gains, groups = additions(hand, table, shapes, homes, before, sc, vals, run_bonus,
                                    setb)
    return table, rows, gains, groups


@njit(cache=True, inline="always")
def at_once_extra(R, shape, size):
    """venezuelan (000): the extra bonus of a biriba laid whole from the hand in one move."""
    if size < R[L.R_BIRIBA_SIZE]:
        return 0
    return R[L.R_AT_ONCE_WILD] if shape == SHAPE_WILD_SET else R[L.R_AT_ONCE]


@njit(cache=True)
def wild_bar(S, R, team):
    """venezuelan (000): the team's unfinished wild-card set (below biriba size), or -1;
    while there is one, no other meld of the team takes a wild."""
    if not R[L.R_WILD_BAR]:
        return -1
    for m in range(S[L.MELD_N + team]):
        info = info_of(S, team, m)
        if info[L.INFO_SHAPE] == SHAPE_WILD_SET and info[L.INFO_SIZE] < R[L.R_BIRIBA_SIZE]:
            return m
    return -1


@njit(cache=True)
def holds_wild(R, counts):
    if counts[L.JOKER] > 0:
        return True
    if R[L.R_WILD_TWOS]:
        for suit in range(4):
            if counts[suit * RANK_COUNT + 1] > 0:
                return True
    return False


@njit(cache=True)
def trump_bonus(S, runb):
    trump = S[L.TRUMP]
    return runb[trump if trump >= 0 else 4]


@njit(cache=True)
def is_wild(R, kind):
    return kind == L.JOKER or (R[L.R_WILD_TWOS] != 0 and kind % RANK_COUNT == 1)


@njit(cache=True)
def is_red_three(R, kind):
    return R[L.R_RED_THREES] != 0 and (kind == L.RED_THREE_KINDS[0] or kind == L.RED_THREE_KINDS[1])


@njit(cache=True)
def is_black_three(R, kind):
    return R[L.R_BLACK_FREEZE] != 0 and (kind == L.BLACK_THREE_KINDS[0]
                                        or kind == L.BLACK_THREE_KINDS[1])


@njit(cache=True)
def red_threes_of(S, team):
    return S[L.RED_THREES + 2 * team] + S[L.RED_THREES + 2 * team + 1]


@njit(cache=True)
def set_aside_red_threes(S, seat, replace):
    """threes (003): the red threes of ``seat``'s hand go face up to its team's; with
    ``replace`` a card is drawn from the stock for each (again while it is a red three)."""
    team = S[L.TEAM_OF + seat]
    while True:
        moved = 0
        for i in range(2):
            where = L.HANDS + seat * L.KINDS + L.RED_THREE_KINDS[i]
            moved += S[where]
            S[L.RED_THREES + 2 * team + i] += S[where]
            S[where] = 0
        if not replace or moved == 0:
            return
        for _ in range(moved):
            if S[L.STOCK_N] == 0:
                return
            S[L.STOCK_N] -= 1
            S[L.HANDS + seat * L.KINDS + S[L.STOCK + S[L.STOCK_N]]] += 1


_vulnerability_minimum = njit(cache=True)(vulnerability_minimum)


@njit(cache=True)
def minimum_for(R, score):
    """Vulnerability (RULES.md §6): least first lay-down for a match score."""
    return _vulnerability_minimum(R[L.R_VULN:], R[L.R_VULN_N], score)


@njit(cache=True)
def team_stats(S, R, team):
    """(biribas, clean biribas, runs, sets) of a team's table melds."""
    biribas = 0
    clean = 0
    runs = 0
    sets = 0
    for m in range(S[L.MELD_N + team]):
        info = info_of(S, team, m)
        if info[L.INFO_SIZE] >= R[L.R_BIRIBA_SIZE]:
            biribas += 1
            if info[L.INFO_CLEAN]:
                clean += 1
        if info[L.INFO_SHAPE] == SHAPE_RUN:
            runs += 1
        else:
            sets += 1
    return biribas, clean, runs, sets


@njit(cache=True)
def close_ready(S, R, team, biribas, clean, runs, sets):
    """The team may close (RULES.md §7): packet taken, enough biribas, preset extras."""
    if S[L.PACKET_TAKEN + team] == 0 or biribas < R[L.R_CLOSE_BIRIBAS]:
        return False
    if R[L.R_CLOSE_CLEAN] and clean == 0:
        return False
    if R[L.R_CLOSE_RUN_SET] and (runs == 0 or sets == 0):
        return False
    return True


@njit(cache=True)
def packet_for(S, R, team):
    """The packet the team would take now, or -1 (RULES.md §5.4, 7.1, and threes' §6)."""
    biribas = team_stats(S, R, team)[0] if S[L.NEEDS_BIRIBA + team] else 0
    return packet_after(S, R, team, biribas)


@njit(cache=True)
def packet_after(S, R, team, biribas):
    """The packet the team would take with ``biribas`` biribas on the table, or -1.

    threes (RULES.md §6): from the match score ``R_BIRIBA_BEFORE`` on, a team takes its
    packet only once it has a biriba.
    """
    if S[L.PACKET_TAKEN + team]:
        return -1
    if S[L.NEEDS_BIRIBA + team] and biribas == 0:
        return -1
    if R[L.R_PLAYERS] == 3 and not R[L.R_THREE_ALONE]:
        for p in range(2):
            if S[L.PACKET_USED + p] == 0:
                return p
        return -1
    return team if S[L.PACKET_USED + team] == 0 else -1


@njit(cache=True)
def vulnerable_minimum(S, team):
    """The minimum the team's lay-down this turn must reach (0: none)."""
    if S[L.OPENED + team]:
        return 0
    return S[L.MINIMUM + team]


@njit(cache=True)
def reset_turn(S):
    """Clear what one turn remembers (pile taken, banned and owed cards, points laid)."""
    S[L.TOOK_PILE] = 0
    S[L.BANNED] = -1
    S[L.MUST] = -1
    S[L.LAST_DRAWN] = -1
    S[L.REDRAW_OK] = 0
    S[L.TURN_POINTS] = 0
    S[L.TURN_LAID] = 0


@njit(cache=True)
def forget_known(S, seat):
    """Cards that left a hand are no longer known to be there."""
    for kind in range(L.KINDS):
        known = L.KNOWN + seat * L.KINDS + kind
        held = S[L.HANDS + seat * L.KINDS + kind]
        if S[known] > held:
            S[known] = held


@njit(cache=True)
def pile_counts(S):
    counts = np.zeros(L.KINDS, dtype=np.int64)
    for i in range(S[L.PILE_N]):
        counts[S[L.PILE + i]] += 1
    return counts
