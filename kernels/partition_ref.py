"""Pure-Python reference of the meld-partition kernels (the executable spec).

Inputs are plain numbers (see :mod:`kernels.params` for the rule parameters):

- ``hand``: 53 card counts (:mod:`kernels.encoding`).
- ``params``: ``RuleParams`` — legality switches and the bonus tables.

Definitions:

- the **catalogue** of a hand is every distinct legal meld (a multiset of
  cards) contained in the hand, in ascending :func:`meld_key` order;
- a **lay-down** is a multiset of catalogue melds whose union is contained
  in the hand (unused cards stay in hand; the empty lay-down counts);
- the **best lay-down** has the most points among those that leave at least
  ``keep`` cards in hand.

Both counting and the best lay-down use one dynamic programme. Cards are
decided in the fixed order ``DECISION_ORDER`` (natural kinds, then the 2s,
then the joker). At the first kind ``c`` still in the remaining hand, every
meld that can still use ``c`` has ``c`` as its first card in that order, so
the lay-down splits into a multiset ``S`` of such melds (at most
``remaining[c]`` of them) and a lay-down of what is left with ``c`` set
aside. The remaining hand alone names the sub-problem, so it is memoised.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement, product

from kernels.encoding import ACE_HIGH_POSITION as ACE_HIGH
from kernels.encoding import JOKER, KIND_COUNT, RANK_COUNT
from kernels.meld_basics import key_counts_into, meld_key, relevant_into
from kernels.params import (
    NEG_INF,
    SHAPE_RUN,
    SHAPE_SET,
    SHAPE_WILD_SET,
    TWO_KINDS,
    RuleParams,
    decision_order,
)


def key_counts(key: int) -> list[int]:
    """The 53 counts of the meld whose meld_key is ``key`` (the inverse of meld_key); all
    zero past the jokers and 2s for a key no meld has."""
    counts = [0] * KIND_COUNT
    key_counts_into(key, counts)
    return counts


def _wild_cap(params: RuleParams, naturals_plus_wilds: int) -> int:
    """Most wilds a meld of this many cards may hold."""
    cap = params.max_wilds
    if params.naturals_per_wild:
        cap = min(cap, naturals_plus_wilds // (params.naturals_per_wild + 1))
    return cap


def _limit_ok(params: RuleParams, wilds: int, naturals: int) -> bool:
    if wilds > params.max_wilds:
        return False
    if params.naturals_per_wild and wilds * params.naturals_per_wild > naturals:
        return False
    return True


def _wild_multisets(available, size):
    """Multisets (as sorted kind tuples) of ``size`` wild cards within ``available``."""
    kinds = [kind for kind, count in available.items() if count]
    for combo in combinations_with_replacement(kinds, size):
        if all(combo.count(kind) <= available[kind] for kind in set(combo)):
            yield combo


def _add(found, counts, shape, home, clean):
    key = meld_key(counts)
    found.setdefault(key, [tuple(counts), []])[1].append((shape, home, clean))


def _runs(hand, params: RuleParams, found):
    wild_kinds = [JOKER] + (list(TWO_KINDS) if params.wild_twos else [])
    for suit in range(4):
        def kind_at(position):
            return suit * RANK_COUNT + (0 if position == ACE_HIGH else position)

        for low in range(ACE_HIGH + 1):
            for high in range(low + params.min_size - 1, ACE_HIGH + 1):
                length = high - low + 1
                if length > RANK_COUNT:
                    continue
                positions = range(low, high + 1)
                forced = [p for p in positions if hand[kind_at(p)] == 0]
                optional = [p for p in positions if hand[kind_at(p)] > 0]
                cap = _wild_cap(params, length)
                if len(forced) > cap:
                    continue
                for extra in range(cap - len(forced) + 1):
                    for chosen in combinations(optional, extra):
                        wild_count = len(forced) + extra
                        natural_count = length - wild_count
                        if not _limit_ok(params, wild_count, natural_count):
                            continue
                        counts = [0] * KIND_COUNT
                        for p in positions:
                            if p not in forced and p not in chosen:
                                counts[kind_at(p)] += 1
                        available = {k: hand[k] - counts[k] for k in wild_kinds}
                        for wilds in _wild_multisets(available, wild_count):
                            meld = list(counts)
                            for kind in wilds:
                                meld[kind] += 1
                            _add(found, meld, SHAPE_RUN, suit, wild_count == 0)


def _sets(hand, params: RuleParams, found):
    for rank in range(RANK_COUNT):
        if not params.set_rank_mask >> rank & 1:
            continue
        natural_kinds = [suit * RANK_COUNT + rank for suit in range(4)]
        wild_kinds = [JOKER]
        if params.wild_twos and rank != 1:
            wild_kinds += list(TWO_KINDS)
        available = {k: hand[k] for k in wild_kinds}
        for natural in product(*[range(hand[k] + 1) for k in natural_kinds]):
            natural_count = sum(natural)
            if not natural_count:
                continue
            for wild_count in range(0, natural_count + 1):
                if natural_count + wild_count < params.min_size:
                    continue
                if not _limit_ok(params, wild_count, natural_count):
                    break
                for wilds in _wild_multisets(available, wild_count):
                    meld = [0] * KIND_COUNT
                    for kind, count in zip(natural_kinds, natural):
                        meld[kind] += count
                    for kind in wilds:
                        meld[kind] += 1
                    _add(found, meld, SHAPE_SET, rank, wild_count == 0)
    if params.wild_sets:
        wild_kinds = [JOKER] + (list(TWO_KINDS) if params.wild_twos else [])
        available = {k: hand[k] for k in wild_kinds}
        for size in range(params.min_size, sum(available.values()) + 1):
            for wilds in _wild_multisets(available, size):
                meld = [0] * KIND_COUNT
                for kind in wilds:
                    meld[kind] += 1
                _add(found, meld, SHAPE_WILD_SET, RANK_COUNT, False)


def meld_points(params: RuleParams, counts, shape: int, home: int, clean: bool) -> int:
    """Card values + bonus of one reading (shape/home/clean) of a meld."""
    size = sum(counts)
    value = sum(params.values[kind] * count for kind, count in enumerate(counts))
    if shape == SHAPE_RUN:
        bonus = params.run_bonus[home][int(clean)][size]
    else:
        bonus = params.set_bonus[home][int(clean)][min(size, len(params.set_bonus[0][0]) - 1)]
    return value + bonus


def catalogue(hand, params: RuleParams):
    """Every distinct legal meld within ``hand``, ascending key.

    Returns a list of tuples ``(key, counts, shape, home, clean, points)``:
    ``counts`` 53 ints; ``shape`` SHAPE_RUN/SHAPE_SET/SHAPE_WILD_SET; ``home``
    the run's suit or the set's rank (13 for an all-wild set); ``clean``
    whether a reading without wilds exists; ``points`` card values + bonus of
    the best reading.
    """
    hand = [int(count) for count in hand]
    found: dict[int, list] = {}
    _runs(hand, params, found)
    _sets(hand, params, found)
    result = []
    for key in sorted(found):
        counts, readings = found[key]
        best = max(
            readings,
            key=lambda r: (meld_points(params, counts, r[0], r[1], r[2]), r[2], -r[0]),
        )
        shape, home, _ = best
        clean = any(r[2] for r in readings if r[0] == shape and r[1] == home)
        points = meld_points(params, counts, shape, home, clean)
        result.append((key, counts, shape, home, clean, points))
    return result


def relevant_kinds(shape: int, home: int, wild_twos: int) -> list[int]:
    """0/1 per kind: the cards that can join a meld of this shape and home
    (kernels.meld_basics.relevant_into)."""
    mask = [0] * KIND_COUNT
    relevant_into(shape, home, wild_twos, mask)
    return mask


def additions(hand, melds, shapes, homes, before, params: RuleParams):
    """Every way to add hand cards to each table meld (the optimizer's groups).

    ``melds[i]`` (53 counts) is a table meld whose best reading has shape
    ``shapes[i]``, home ``homes[i]`` and is worth ``before[i]``. Its additions
    are the non-empty multisets ``A`` of hand cards such that ``melds[i] + A``
    is a catalogue meld (of ``melds[i]`` plus the hand's relevant cards) with
    the same shape and home; each is worth the meld's new points minus
    ``before[i]``. Returns a list of ``(i, A, points)``, by ``i`` then by the
    key of ``melds[i] + A``.
    """
    result = []
    for index, base in enumerate(melds):
        mask = relevant_kinds(shapes[index], homes[index], params.wild_twos)
        pool = [int(base[kind]) + int(hand[kind]) * mask[kind] for kind in range(KIND_COUNT)]
        size = sum(int(count) for count in base)
        for _, counts, shape, home, _, points in catalogue(pool, params):
            if (shape == shapes[index] and home == homes[index] and sum(counts) > size
                    and all(counts[kind] >= base[kind] for kind in range(KIND_COUNT))):
                added = [counts[kind] - int(base[kind]) for kind in range(KIND_COUNT)]
                result.append((index, added, points - before[index]))
    return result


class _Problem:
    """The shared dynamic programme over remaining hands.

    The programme walks a fixed sequence of *steps*: for each position of the
    decision order, first one step per group anchored there, then the step of
    the position's kind. A kind step (when the kind is still held) lays a
    multiset of the ungrouped melds whose first card is that kind and sets
    the kind aside. A group step lays at most one meld of the group. Groups
    are the optimizer's table additions (at most one per table meld); a
    group's *anchor* is the earliest first card among its melds, so each of
    its melds is decided before any of its cards is set aside. Without groups
    the steps are the kind steps alone: the first-card programme.
    """

    def __init__(self, hand, melds, groups=None):
        self.hand = [int(count) for count in hand]
        self.order = decision_order()
        self.position_of = {kind: index for index, kind in enumerate(self.order)}
        self.melds = [tuple(m[1]) for m in melds]
        self.points = [m[5] for m in melds]
        groups = [-1] * len(self.melds) if groups is None else [int(g) for g in groups]
        self.kinds_of = [
            [(kind, count) for kind, count in enumerate(counts) if count] for counts in self.melds
        ]
        first = [
            min(self.position_of[kind] for kind, _ in kinds) for kinds in self.kinds_of
        ]
        # attached[p]: ungrouped melds whose first card is at position p;
        # members[g]: the melds of group g; both in catalogue order.
        self.attached = [[] for _ in range(KIND_COUNT)]
        self.members: dict[int, list[int]] = {}
        anchor: dict[int, int] = {}
        for index, group in enumerate(groups):
            if group < 0:
                self.attached[first[index]].append(index)
            else:
                self.members.setdefault(group, []).append(index)
                anchor[group] = min(anchor.get(group, KIND_COUNT), first[index])
        # steps: (True, position) for a kind step, (False, group) for a group step
        self.steps = []
        for position in range(KIND_COUNT):
            self.steps += [(False, group) for group in sorted(anchor) if anchor[group] == position]
            self.steps.append((True, position))

    def first_kind(self, remaining, start):
        for position in range(start, KIND_COUNT):
            if remaining[self.order[position]]:
                return position
        return KIND_COUNT

    def advance(self, remaining, step):
        """The first step from ``step`` on with a choice: a kind still held, a group meld that fits."""
        while step < len(self.steps):
            is_kind, value = self.steps[step]
            if is_kind:
                if remaining[self.order[value]]:
                    return step
            elif any(self.fits(index, remaining) for index in self.members[value]):
                return step
            step += 1
        return step

    def moves(self, remaining, step, kept, keep, limit):
        """Yield ``(chosen, next kept)`` for each choice at ``step``, in walk order.

        While a move is yielded, ``remaining`` is the hand after it (a kind
        step's kind set aside). A kind step: each multiset of its melds that
        fits (the empty one first, depth first), unless more than
        ``limit[kind]`` copies would stay. A group step: nothing, then each of
        the group's melds that fits.
        """
        is_kind, value = self.steps[step]
        if not is_kind:
            yield [], kept
            for index in self.members[value]:
                if self.fits(index, remaining):
                    self.apply(index, remaining, 1)
                    yield [index], kept
                    self.apply(index, remaining, -1)
            return
        kind = self.order[value]
        for chosen in self.splits(remaining, self.attached[value]):
            saved = remaining[kind]
            if saved > limit[kind]:
                continue
            remaining[kind] = 0
            yield chosen, min(keep, kept + saved)
            remaining[kind] = saved

    def fits(self, index, remaining):
        return all(remaining[kind] >= count for kind, count in self.kinds_of[index])

    def apply(self, index, remaining, sign):
        for kind, count in self.kinds_of[index]:
            remaining[kind] -= sign * count

    def splits(self, remaining, candidates):
        """Yield each multiset S (list of meld indices) of ``candidates`` that fits.

        ``remaining`` is left reduced by S while the caller handles it. The
        walk order (depth first, the empty S first) fixes which of several
        best lay-downs is reported; the compiled backends follow it.
        """
        chosen: list[int] = []

        def walk(start):
            yield chosen
            for slot in range(start, len(candidates)):
                index = candidates[slot]
                if self.fits(index, remaining):
                    self.apply(index, remaining, 1)
                    chosen.append(index)
                    yield from walk(slot)
                    chosen.pop()
                    self.apply(index, remaining, -1)

        yield from walk(0)


def count_laydowns(hand, melds) -> int:
    """Exact number of lay-downs (a Python int: never overflows)."""
    problem = _Problem(hand, melds)
    memo: dict[tuple, int] = {}

    def solve(remaining, start):
        position = problem.first_kind(remaining, start)
        if position == KIND_COUNT:
            return 1
        key = tuple(remaining)
        if key in memo:
            return memo[key]
        kind = problem.order[position]
        total = 0
        for _ in problem.splits(remaining, problem.attached[position]):
            saved = remaining[kind]
            remaining[kind] = 0
            total += solve(remaining, position + 1)
            remaining[kind] = saved
        memo[key] = total
        return total

    return solve(list(problem.hand), 0)


def best_laydown(hand, melds, keep: int = 1, groups=None, max_left=None):
    """Most points of a lay-down leaving at least ``keep`` cards, and one such lay-down.

    Returns ``(points, meld_indices)``; ``points`` is ``NEG_INF`` when no
    lay-down satisfies the constraints (``keep`` larger than the hand, say).

    Optional constraints (the optimizer's table additions and must-use cards):

    - ``groups``: one int per meld, -1 for none, else a group number 0..62;
      a lay-down holds at most one meld of each group (the additions to one
      table meld are a group: a table meld is extended at most once);
    - ``max_left``: 53 ints; at most ``max_left[kind]`` copies of ``kind``
      may stay in hand (a card that must be used: its count minus one).
    """
    problem = _Problem(hand, melds, groups)
    limit = list(max_left) if max_left is not None else [99] * KIND_COUNT
    end = len(problem.steps)
    memo: dict[tuple, int] = {}

    def solve(remaining, step, kept):
        step = problem.advance(remaining, step)
        if step == end:
            return 0 if kept >= keep else NEG_INF
        key = (tuple(remaining), kept, step)
        if key in memo:
            return memo[key]
        best = NEG_INF
        for chosen, next_kept in problem.moves(remaining, step, kept, keep, limit):
            rest = solve(remaining, step + 1, next_kept)
            if rest > NEG_INF:
                best = max(best, rest + sum(problem.points[i] for i in chosen))
        memo[key] = best
        return best

    remaining = list(problem.hand)
    best = solve(remaining, 0, 0)
    if best == NEG_INF:
        return NEG_INF, []
    # Walk the memo down to recover one optimal lay-down: the first move in walk order.
    picked: list[int] = []
    step, kept, target = 0, 0, best
    while (step := problem.advance(remaining, step)) < end:
        found = None
        for chosen, next_kept in problem.moves(remaining, step, kept, keep, limit):
            rest = solve(remaining, step + 1, next_kept)
            gained = sum(problem.points[i] for i in chosen)
            if rest > NEG_INF and rest + gained == target:
                found = (list(chosen), next_kept, rest, list(remaining))
                break
        if found is None:  # pragma: no cover - the memo guarantees a match
            raise AssertionError("best lay-down reconstruction failed")
        chosen, kept, target, after = found
        remaining[:] = after
        picked.extend(chosen)
        step += 1
    return best, sorted(picked)


def iter_laydowns(hand, melds):
    """Yield every lay-down as a sorted list of catalogue indices (the empty one first)."""
    problem = _Problem(hand, melds)
    remaining = list(problem.hand)
    picked: list[int] = []

    def walk(start):
        position = problem.first_kind(remaining, start)
        if position == KIND_COUNT:
            yield sorted(picked)
            return
        kind = problem.order[position]
        for chosen in problem.splits(remaining, problem.attached[position]):
            saved = remaining[kind]
            remaining[kind] = 0
            picked.extend(chosen)
            yield from walk(position + 1)
            del picked[len(picked) - len(chosen):]
            remaining[kind] = saved

    yield from walk(0)
