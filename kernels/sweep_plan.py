"""The rank-sweep programme's tables: everything it needs that does not depend on the state.

The rank sweep (:mod:`kernels.sweep_ref` is its reference, ``docs/partition-design.md``
its design note) walks the run positions 0..13 (the ace low, the 2 to the K, the
ace high). This module turns a hand, the team's table melds and the rule
parameters into plain tables that every backend reads:

- the run bonus by suit, cleanliness and length, and its *thresholds* (the
  lengths where the bonus changes: 7, 13, 11 with super biribas), and where a
  run may settle (:func:`settle_table`);
- per position, the best bonus of the sets of that rank for ``K`` naturals and
  ``J`` wilds, table sets included (:func:`set_options`), and how to split them
  (:func:`split_sets`);
- the best bonus of all-wild sets for ``m`` wilds (Venezuelan);
- one row per table run: the positions its naturals hold, its wilds, its ace;
- the constant ``offset``: minus the bonus each table meld already has, so
  that a table meld's final bonus, credited in full, gives the change.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kernels.encoding import ACE_HIGH_POSITION as ACE_HIGH
from kernels.encoding import JOKER, KIND_COUNT, RANK_COUNT
from kernels.errors import BiribaError, KernelInputError
from kernels.params import MAX_SET_SIZE, NEG_INF, SHAPE_RUN, SHAPE_SET, SHAPE_WILD_SET, TWO_KINDS

POSITIONS = 14          # 0 the ace low, 1..12 the 2 to the K, 13 the ace high
LONGEST_RUN = 13
NO_THRESHOLD = 99
DIRTY, CLEAN = 0, 1     # the run bonus's cleanliness index


class NotSweepable(BiribaError):
    """Bonus tables the sweep's settling rule cannot score exactly (see :func:`sweepable`)."""


def kind_at(suit: int, position: int) -> int:
    """The card kind of ``suit`` at run position ``position``."""
    return suit * RANK_COUNT + (0 if position == ACE_HIGH else position)


def rank_at(position: int) -> int:
    return 0 if position == ACE_HIGH else position


def longest_from(start: int) -> int:
    """Most cards a run starting at ``start`` can hold (A..K from 0, start..A otherwise)."""
    return LONGEST_RUN if start == 0 else POSITIONS - start


class TableRun(NamedTuple):
    """A table run as the sweep sees it: naturals at fixed positions, wilds to place."""

    index: int          # the table meld's index
    suit: int
    forced: int         # bit p: a natural of the meld holds position p (1..12)
    first: int          # lowest forced position (POSITIONS when none)
    last: int           # highest forced position (-1 when none)
    ace: int            # 1 when the meld holds its suit's ace (low at 0 or high at 13)
    wilds: int          # wild cards of the meld, own-suit 2s included, still to place
    own_twos: int       # own-suit 2s among them (each may stand at position 1 as natural)


class Plan(NamedTuple):
    cap: int                    # most wilds per meld (13 when only the ratio limits)
    per_wild: int               # naturals per wild (0: no ratio rule)
    min_size: int
    wild_twos: int
    slack_cap: int              # ratio slack above this is as good as unlimited
    values: np.ndarray          # int64[53]
    run_bonus: np.ndarray       # int64[4, 2, 14]: by suit, DIRTY or CLEAN, length
    threshold: np.ndarray       # int64[14]: 1 where the bonus changes at that length
    settle: np.ndarray          # int64[4, 14, 14]: see settle_table
    next_threshold: np.ndarray  # int64[15]: smallest threshold above a length, or 99
    set_bonus: np.ndarray       # int64[14, K+1, J+1]: sets at a position (NEG_INF: none)
    set_naturals: np.ndarray    # int64[14]: 1 where naturals may go into sets
    wild_set_bonus: np.ndarray  # int64[J+1]: all-wild sets of m wilds (NEG_INF: none)
    runs: tuple                 # TableRun per table run, by suit then table index
    offset: int                 # minus the bonus the table melds hold before the lay-down
    wild_total: int             # wilds in the hand (jokers, and 2s when 2s are wild)


def sweepable(run_bonus, min_size: int) -> bool:
    """Whether a clean run's bonus is never below a dirty one's (from ``min_size`` on).

    A clean run may settle *dirty-allowed*, crediting its dirty bonus; if it
    stays clean that under-counts, which a maximum forgives only when clean is
    worth at least dirty. Every preset satisfies this; a custom table that
    does not is solved by the first-card programme.
    """
    rb = np.asarray(run_bonus)
    for length in range(min_size, LONGEST_RUN + 1):
        if (rb[:, CLEAN, length] < rb[:, DIRTY, length]).any():
            return False
    return True


def settle_table(run_bonus, threshold):
    """int64[4, 14, 14]: 1 where a run of a suit may settle at a length, given its longest.

    A run settles voluntarily at a threshold only when no longer length it can
    still reach is worth less, clean or dirty (cyprus's dirty full run is worth
    less than a dirty biriba, so a run that may become one keeps its length).
    """
    rb = np.asarray(run_bonus)
    table = np.zeros((4, POSITIONS, POSITIONS), dtype=np.int64)
    for suit in range(4):
        for length in range(1, POSITIONS):
            if not threshold[length]:
                continue
            for longest in range(length, POSITIONS):
                table[suit, length, longest] = int(all(
                    rb[suit, clean, later] >= rb[suit, clean, length]
                    for clean in (0, 1) for later in range(length + 1, longest + 1)))
    return table


def _set_ok(wilds: int, naturals: int, cap: int, per_wild: int) -> bool:
    """A set's wild limit: the cap, the ratio, and never more wilds than naturals."""
    if wilds > cap or wilds > naturals:
        return False
    return not per_wild or wilds * per_wild <= naturals


def _bonus(set_bonus, home, clean, size):
    return int(set_bonus[home][int(clean)][min(size, MAX_SET_SIZE)])


def _new_sets(params, home: int, naturals_max: int, wilds_max: int, cap: int):
    """best[K][J]: most bonus of new sets of ``home`` holding K naturals and J wilds."""
    per_wild = params.naturals_per_wild
    best = [[NEG_INF] * (wilds_max + 1) for _ in range(naturals_max + 1)]
    best[0][0] = 0
    for total in range(1, naturals_max + 1):
        for wilds in range(wilds_max + 1):
            value = NEG_INF
            for first in range(1, total + 1):
                for first_wilds in range(min(wilds, first) + 1):
                    if first + first_wilds < params.min_size:
                        continue
                    if not _set_ok(first_wilds, first, cap, per_wild):
                        continue
                    rest = best[total - first][wilds - first_wilds]
                    if rest > NEG_INF:
                        value = max(value, rest + _bonus(params.set_bonus, home, first_wilds == 0,
                                                         first + first_wilds))
            best[total][wilds] = value
    return best


def _table_set_options(params, base_naturals, base_wilds, naturals_max, wilds_max, cap):
    """(k, j, bonus) for every legal addition of k naturals and j wilds (0, 0 included)."""
    options = []
    for k in range(naturals_max + 1):
        for j in range(wilds_max + 1):
            wilds = base_wilds + j
            naturals = base_naturals + k
            if (k or j) and not _set_ok(wilds, naturals, cap, params.naturals_per_wild):
                continue
            options.append((k, j, wilds == 0, naturals + wilds))
    return options


def set_options(params, home, allowed, table_sets, naturals_max, wilds_max, cap):
    """best[K][J] for one rank, new sets and additions to the table sets of that rank,
    and the layers needed to split an optimum (see :func:`split_sets`)."""
    new = (_new_sets(params, home, naturals_max, wilds_max, cap) if allowed
           else [[0 if (k == 0 and j == 0) else NEG_INF for j in range(wilds_max + 1)]
                 for k in range(naturals_max + 1)])
    layers = [new]
    current = new
    for base_naturals, base_wilds in table_sets:
        options = _table_set_options(params, base_naturals, base_wilds, naturals_max,
                                     wilds_max, cap)
        following = [[NEG_INF] * (wilds_max + 1) for _ in range(naturals_max + 1)]
        for k in range(naturals_max + 1):
            for j in range(wilds_max + 1):
                value = NEG_INF
                for add_k, add_j, clean, size in options:
                    if add_k > k or add_j > j:
                        continue
                    rest = current[k - add_k][j - add_j]
                    if rest > NEG_INF:
                        value = max(value, rest + _bonus(params.set_bonus, home, clean, size))
                following[k][j] = value
        layers.append(following)
        current = following
    return current, layers


def _table_sets_at(tables, home):
    """(table index, base naturals, base wilds) of the table sets of rank ``home``."""
    found = []
    for index, (counts, shape, set_home, _) in enumerate(tables):
        if shape == SHAPE_SET and set_home == home:
            naturals = sum(int(counts[suit * RANK_COUNT + home]) for suit in range(4))
            found.append((index, naturals, int(sum(counts)) - naturals))
    return found


def _table_run(index, counts, suit, wild_twos):
    forced = 0
    ace = int(counts[suit * RANK_COUNT] > 0)
    own_twos = 0
    for rank in range(1, RANK_COUNT):
        kind = suit * RANK_COUNT + rank
        if counts[kind] and not (rank == 1 and wild_twos):
            forced |= 1 << rank
    if wild_twos:
        own_twos = int(counts[suit * RANK_COUNT + 1])
    naturals = bin(forced).count("1") + ace
    wilds = int(sum(counts)) - naturals
    positions = [p for p in range(POSITIONS) if forced >> p & 1]
    return TableRun(index, suit, forced, positions[0] if positions else POSITIONS,
                    positions[-1] if positions else -1, ace, wilds, own_twos)


def build_plan(hand, tables, params) -> Plan:
    """The sweep's tables for ``hand`` (53 counts), ``tables`` ((counts, shape, home,
    before) per table meld) and ``params`` (:class:`kernels.params.RuleParams`)."""
    if not sweepable(params.run_bonus, params.min_size):
        raise NotSweepable("a clean run's bonus is below a dirty one's")
    values = np.asarray(params.values, dtype=np.int64)
    for rank in range(RANK_COUNT):
        if len({int(values[suit * RANK_COUNT + rank]) for suit in range(4)}) != 1:
            raise NotSweepable("card values must not depend on the suit")
    if params.wild_twos and len({int(values[kind]) for kind in TWO_KINDS}) != 1:
        raise NotSweepable("the 2s must share one value")
    cap = min(int(params.max_wilds), LONGEST_RUN)
    per_wild = int(params.naturals_per_wild)
    hand = [int(count) for count in hand]
    wild_total = hand[JOKER] + (sum(hand[kind] for kind in TWO_KINDS) if params.wild_twos else 0)
    threshold = np.zeros(POSITIONS, dtype=np.int64)
    rb = np.asarray(params.run_bonus, dtype=np.int64)
    for length in range(params.min_size + 1, LONGEST_RUN + 1):
        if (rb[:, :, length] != rb[:, :, length - 1]).any():
            threshold[length] = 1
    next_threshold = np.full(POSITIONS + 1, NO_THRESHOLD, dtype=np.int64)
    for length in range(POSITIONS + 1):
        for above in range(length + 1, POSITIONS):
            if threshold[above]:
                next_threshold[length] = above
                break
    naturals_max = 0
    for position in range(1, POSITIONS):
        rank = rank_at(position)
        naturals_max = max(naturals_max, sum(hand[s * RANK_COUNT + rank] for s in range(4)))
    set_bonus = np.full((POSITIONS, naturals_max + 1, wild_total + 1), NEG_INF, dtype=np.int64)
    set_naturals = np.zeros(POSITIONS, dtype=np.int64)
    offset = 0
    for position in range(1, POSITIONS):
        rank = rank_at(position)
        allowed = bool(params.set_rank_mask >> rank & 1)
        table_sets = _table_sets_at(tables, rank)
        best, _ = set_options(params, rank, allowed, [(n, w) for _, n, w in table_sets],
                              naturals_max, wild_total, cap)
        set_bonus[position] = np.array(best, dtype=np.int64)
        set_naturals[position] = int(allowed or bool(table_sets))
        for _, n, w in table_sets:
            offset -= _bonus(params.set_bonus, rank, w == 0, n + w)
    wild_set_bonus = np.full(wild_total + 1, NEG_INF, dtype=np.int64)
    wild_set_bonus[0] = 0
    if params.wild_sets:
        for total in range(1, wild_total + 1):
            for first in range(params.min_size, total + 1):
                rest = wild_set_bonus[total - first]
                if rest > NEG_INF:
                    wild_set_bonus[total] = max(
                        wild_set_bonus[total],
                        rest + _bonus(params.set_bonus, RANK_COUNT, False, first))
    runs = []
    for index, (counts, shape, home, before) in enumerate(tables):
        counts = [int(count) for count in counts]
        value = sum(int(values[kind]) * counts[kind] for kind in range(KIND_COUNT))
        if shape == SHAPE_RUN:
            runs.append(_table_run(index, counts, home, params.wild_twos))
            offset -= int(before) - value
        elif shape == SHAPE_WILD_SET:
            raise NotSweepable("table melds of wilds only are not swept")
        elif shape != SHAPE_SET:
            raise KernelInputError(f"unknown shape {shape!r} of table meld {index}")
    runs.sort(key=lambda run: (run.suit, run.index))
    return Plan(cap=cap, per_wild=per_wild, min_size=int(params.min_size),
                wild_twos=int(params.wild_twos), slack_cap=per_wild * LONGEST_RUN,
                values=values, run_bonus=rb, threshold=threshold,
                settle=settle_table(rb, threshold), next_threshold=next_threshold,
                set_bonus=set_bonus, set_naturals=set_naturals, wild_set_bonus=wild_set_bonus,
                runs=tuple(runs), offset=offset, wild_total=wild_total)


def split_sets(params, tables, position: int, naturals: int, wilds: int):
    """One optimal split of ``naturals`` and ``wilds`` among the sets at ``position``.

    Returns ``(additions, new)``: ``additions`` a list of (table index, k, j)
    for the table sets that grow, ``new`` a list of (k, j) per new set.
    """
    cap = min(int(params.max_wilds), LONGEST_RUN)
    rank = rank_at(position)
    allowed = bool(params.set_rank_mask >> rank & 1)
    table_sets = _table_sets_at(tables, rank)
    _, layers = set_options(params, rank, allowed, [(n, w) for _, n, w in table_sets],
                            naturals, wilds, cap)
    additions = []
    k, j = naturals, wilds
    for layer_index in range(len(table_sets), 0, -1):
        index, base_naturals, base_wilds = table_sets[layer_index - 1]
        target = layers[layer_index][k][j]
        previous = layers[layer_index - 1]
        for add_k, add_j, clean, size in _table_set_options(
                params, base_naturals, base_wilds, k, j, cap):
            rest = previous[k - add_k][j - add_j]
            if rest > NEG_INF and rest + _bonus(params.set_bonus, rank, clean, size) == target:
                if add_k or add_j:
                    additions.append((index, add_k, add_j))
                k, j = k - add_k, j - add_j
                break
        else:  # pragma: no cover - the layers guarantee a match
            raise AssertionError("set split reconstruction failed")
    new = []
    best = layers[0]
    while k:
        target = best[k][j]
        found = None
        for first in range(1, k + 1):
            for first_wilds in range(min(j, first) + 1):
                if first + first_wilds < params.min_size:
                    continue
                if not _set_ok(first_wilds, first, cap, params.naturals_per_wild):
                    continue
                rest = best[k - first][j - first_wilds]
                if rest > NEG_INF and rest + _bonus(params.set_bonus, rank, first_wilds == 0,
                                                    first + first_wilds) == target:
                    found = (first, first_wilds)
                    break
            if found:
                break
        if found is None:  # pragma: no cover
            raise AssertionError("new set split reconstruction failed")
        new.append(found)
        k, j = k - found[0], j - found[1]
    if j:  # pragma: no cover
        raise AssertionError("wilds left over in a set split")
    return additions, new


def split_wild_sets(params, total: int):
    """Sizes of all-wild sets holding ``total`` wilds with the most bonus."""
    sizes = []
    best = {0: 0}
    for value in range(1, total + 1):
        options = [best[value - first] + _bonus(params.set_bonus, RANK_COUNT, False, first)
                   for first in range(params.min_size, value + 1) if value - first in best]
        if options:
            best[value] = max(options)
    while total:
        for first in range(params.min_size, total + 1):
            rest = total - first
            if rest in best and best[rest] + _bonus(params.set_bonus, RANK_COUNT, False,
                                                    first) == best[total]:
                sizes.append(first)
                total = rest
                break
    return sizes
