"""Pure-Python reference of the rank-sweep programme: the best lay-down with table melds.

The executable spec of the compiled sweeps (``docs/partition-design.md``,
"The rank sweep"). It answers what :func:`kernels.partition_ref.best_laydown`
answers for the optimizer's candidates (the hand's catalogue plus each table
meld's additions as a group), but from the cards themselves, so its work grows
with the hand and the table, not with the number of lay-downs.

The sweep walks the run positions 0..13 (the ace low, the 2 to the K, the ace
high) and, at each, the four suits in turn. Every natural card of that
position extends an open run of its suit, starts one, goes into a set of its
rank (decided when the rank's four suits are done), or stays in hand (an ace
at position 0 is held back for position 13). Wild cards are *slots*: a run or
set records how many it holds, and which jokers and 2s fill them is decided at
the end, when the wilds left, the must-use cards and the cards kept are known.

An open run carries only what its score and legality still need: its exact
length while that matters (below the minimum, or while a length with another
bonus is within reach), else only its room for more wilds, the ratio slack
(partnership) and where it began (a run from the ace low may not reach the ace
high). Forgetting the length *settles* the run: its bonus is credited then.
That is exact when the bonus is the same at every length the run can still
reach (:func:`kernels.sweep_plan.settle_table`); a clean run settles either
*clean for ever* (its clean bonus, no more wilds) or *dirty-allowed* (its dirty
bonus), which under-counts only a run that stays clean, a path the maximum
also holds. Wilds enter runs only in gaps; a wild at either end is added when
the run ends.

Table runs enter as distinct runs that must cover the positions their
naturals hold and place their wilds (an own-suit 2 may stand at position 1 as
a natural); a hand run that ends just below may join one as it starts, and
once done it goes on like the hand's runs. Table sets are part
of the sets decided at their rank. A table meld's bonus is credited in full
and the plan's ``offset`` takes away what it held, so each table meld is
extended at most once, by construction.

A relaxation bound prunes the sweep (``_Sweep.solve``; the design note's "The
relaxation bound"): with the sets and the cards kept relaxed, each suit's best
future from its part of a state is a small memoised sweep of its own; a state
whose value plus the four suits' futures (combined over the wild slots left)
and the sets' and wilds' bounds is below points some lay-down reaches is
dropped.
"""

from __future__ import annotations

from kernels.encoding import JOKER, KIND_COUNT
from kernels.params import NEG_INF, TWO_KINDS
from kernels.sweep_plan import (
    ACE_HIGH,
    LONGEST_RUN,
    POSITIONS,
    build_plan,
    kind_at,
    longest_from,
    split_sets,
    split_wild_sets,
)

BEAM = 64              # states a layer keeps in the pruned sweep's first pass
UNSETTLED, SETTLED = 0, 1
NOT_STARTED, OPEN, DONE = 0, 1, 2
TABLE_NOT_STARTED = (NOT_STARTED,)
TABLE_DONE = (DONE,)
NATURAL, SLOT_WILD, OWED_WILD = 0, 1, 2


class _Sweep:
    def __init__(self, hand, tables, params, keep, max_left):
        self.hand = [int(count) for count in hand]
        self.tables = [(list(counts), int(shape), int(home), int(before))
                       for counts, shape, home, before in tables]
        self.params = params
        self.plan = build_plan(self.hand, self.tables, params)
        self.keep = int(keep)
        self.max_left = [min(int(m), h) for m, h in zip(max_left, self.hand)]

    # --- one run ----------------------------------------------------------------
    #
    # (UNSETTLED, length, wilds, slack, owed, table) or
    # (SETTLED, room, slack, edge, owed, table): ``owed`` wilds of a table run
    # still to place (they count against the room), ``table`` 1 for a table run
    # (it may not absorb or be absorbed: melds never merge), ``edge`` the
    # run's start capped at 2 (a run from the ace low may not reach the ace
    # high; one from 0 or 1 is full at 13 cards).

    def _slack(self, slack, room):
        plan = self.plan
        if not plan.per_wild:
            return 0
        if room == 0 and slack >= 0:
            return 0
        return min(slack, plan.slack_cap)

    def grown(self, suit, length, wilds, slack, start, owed, table):
        """The states of a run that now holds ``length`` cards from ``start`` on."""
        plan = self.plan
        room = plan.cap - wilds
        if room < owed:
            return []
        longest = longest_from(max(0, start - room))  # end wilds may still lengthen it
        reach = int(plan.next_threshold[length]) <= longest
        if (length < plan.min_size or room > 1
                or (reach and not plan.settle[suit, length, longest])):
            return [((UNSETTLED, length, wilds, slack, owed, table), 0)]
        found = []
        if reach:
            found.append(((UNSETTLED, length, wilds, slack, owed, table), 0))
        edge = min(start, 2)
        bonus = plan.run_bonus[suit]
        if wilds == 0 and owed == 0:
            found.append(((SETTLED, 0, self._slack(slack, 0), edge, 0, table),
                          int(bonus[1][length])))
        if room > 0 or wilds > 0:
            found.append(((SETTLED, room, self._slack(slack, room), edge, owed, table),
                          int(bonus[0][length])))
        return found

    def extend(self, suit, run, position, how):
        """States of ``run`` after it takes ``position`` with a natural or a wild in a gap."""
        plan = self.plan
        per_wild = plan.per_wild
        if run[0] == UNSETTLED:
            _, length, wilds, slack, owed, table = run
            start = position - length
            if length + 1 > longest_from(start):
                return []
            if how == NATURAL:
                return self.grown(suit, length + 1, wilds, slack + 1 if per_wild else 0, start,
                                  owed, table)
            if how == OWED_WILD and not owed:
                return []
            if wilds >= plan.cap:
                return []
            return self.grown(suit, length + 1, wilds + 1, slack - per_wild, start,
                              owed - (how == OWED_WILD), table)
        _, room, slack, edge, owed, table = run
        if (edge == 0 and position == ACE_HIGH) or room < owed:
            return []
        if how == NATURAL:
            return [((SETTLED, room, self._slack(slack + 1, room), edge, owed, table), 0)]
        if room == 0 or (how == OWED_WILD and not owed) or (how == SLOT_WILD and room <= owed):
            return []
        return [((SETTLED, room - 1, self._slack(slack - per_wild, room - 1), edge,
                  owed - (how == OWED_WILD), table), 0)]

    def closings(self, suit, run, position):
        """(credit, hand wilds at its ends) for each way ``run`` may end before ``position``.

        A run ends with its owed wilds and up to its remaining room of hand
        wilds at its ends (below its lowest card or above its highest), as long
        as it stays within 13 cards.
        """
        plan = self.plan
        per_wild = plan.per_wild
        found = []
        if run[0] == UNSETTLED:
            _, length, wilds, slack, owed, _ = run
            for extra in range(owed, plan.cap - wilds + 1):
                size = length + extra
                if size > LONGEST_RUN:
                    break
                if size < plan.min_size or slack - per_wild * extra < 0:
                    continue
                found.append((int(plan.run_bonus[suit][int(wilds + extra == 0)][size]),
                              extra - owed))
            return found
        _, room, slack, edge, owed, _ = run
        last = position - 1
        full = (edge == 0 and last == ACE_HIGH - 1) or (edge == 1 and last == ACE_HIGH)
        most = 0 if full else min(room, 1)
        for extra in range(owed, most + 1):
            if slack - per_wild * extra >= 0:
                found.append((0, extra - owed))
        return found

    # --- one table run ----------------------------------------------------------
    #
    # A table run is NOT_STARTED until it takes its first position, then
    # (OPEN, run state, own 2s left, ace pending) until its naturals' positions
    # are covered and its ace placed, then DONE: its run state joins the
    # suit's runs. It starts at its first natural, or earlier with one of its
    # own wilds (or its own-suit 2 at position 1), or at the ace low with its
    # ace; a hand run that ends just before may join it there (the table run
    # absorbs it), so the hand's cards below a table run are the hand's runs.

    def can_start(self, spec, position):
        """Whether a table run not yet started may start at ``position``."""
        if position >= ACE_HIGH or position > spec.first:
            return False
        if position == spec.first or (position == 0 and spec.ace):
            return True
        return bool(spec.wilds) or (position == 1 and bool(spec.own_twos))

    def table_starts(self, spec, position, absorbed):
        """(slot or merged runs, completed) per way to start, optionally absorbing a hand run."""
        if absorbed is not None and position == 0:
            return []  # nothing lies below the ace low
        ace_pending = int(bool(spec.ace) and position > 0)
        owed = spec.wilds
        options = []  # (how, owed after, own 2s after)
        if position == spec.first or (position == 0 and spec.ace):
            options.append((NATURAL, owed, spec.own_twos))  # its first natural, or its ace
        else:
            if spec.wilds > spec.own_twos:
                options.append((OWED_WILD, owed, spec.own_twos))
            if spec.own_twos:
                options.append((OWED_WILD, owed, spec.own_twos - 1))
                if position == 1:
                    options.append((NATURAL, owed - 1, spec.own_twos - 1))
        found = []
        for how, owed_now, own in options:
            if absorbed is None:
                base = (UNSETTLED, 0, 0, 0, owed_now, 1)
                states = self.extend(spec.suit, base, position, how)
            else:
                run = absorbed[:4] + (owed_now, 1)
                states = self.extend(spec.suit, run, position, how)
            for state, gain in states:
                found.extend(self._after_table_step(spec, position, state, gain, own,
                                                    ace_pending))
        return found

    def table_steps(self, spec, slot, position):
        """(slot or merged runs, hand naturals, wild slots) per way an open table run goes on."""
        _, run, own, ace_pending = slot
        found = []
        if spec.forced >> position & 1 or (position == ACE_HIGH and ace_pending):
            moves = [(NATURAL, 0, 0, own, 0 if position == ACE_HIGH else ace_pending)]
        else:
            moves = [(NATURAL, 1, 0, own, ace_pending), (SLOT_WILD, 0, 1, own, ace_pending),
                     (OWED_WILD, 0, 0, own, ace_pending)]
            if own:
                moves.append((OWED_WILD, 0, 0, own - 1, ace_pending))
                if position == 1:
                    moves.append((NATURAL, 0, 0, own - 1, ace_pending))
        for how, naturals, slots, own_now, ace_now in moves:
            run_now = run
            if how == NATURAL and own_now < own:  # the own-suit 2 stands at its place
                run_now = run[:4] + (run[4] - 1, run[5])
            for state, gain in self.extend(spec.suit, run_now, position, how):
                for item in self._after_table_step(spec, position, state, gain, own_now, ace_now):
                    found.append(item + (naturals, slots))
        return found

    def _after_table_step(self, spec, position, state, gain, own, ace_pending):
        if position >= 1:
            own = 0
        if position >= spec.last and not ace_pending:
            return [((TABLE_DONE, state), gain)]
        if position >= ACE_HIGH:
            return []
        return [(((OPEN, state, own, ace_pending), None), gain)]

    # --- the programme ------------------------------------------------------------

    # --- the relaxation bound ------------------------------------------------------
    #
    # Relax the sets (a natural card may go into a set of its rank, credited its
    # value, whether or not the set reaches three; no wild needed) and the cards
    # kept (every natural is credited), and the suits come apart but for the wild
    # slots their runs take. ``suit_future`` is then each suit's best relaxed
    # future from its own part of a state, per number of wild slots; the four
    # combine over the slots left (a max-plus convolution), and the sets' bonuses
    # and the wilds' values are bounded apart. A state whose value plus that
    # bound cannot beat a lay-down already found is dropped (``solve``).

    def suit_future(self, suit, position, runs, slots, reserved):
        """The suit's best relaxed gain from ``position`` on: ``[w][k]`` with at most ``w``
        wild slots and ``k`` of its cards kept (capped at ``keep``).

        ``runs``: the suit's open runs; ``slots``: every table run's slot (only
        the suit's are read); ``reserved``: its aces held back at position 0.
        NEG_INF where no completion exists (a table run that cannot finish).
        A card left over at a rank where a set could take it is credited or
        kept, as the bound likes best; one where none could is kept.
        """
        table_ids = self.table_ids[suit]
        key = (suit, position, runs, tuple(slots[i] for i in table_ids), reserved)
        found = self.futures.get(key)
        if found is not None:
            return found
        plan = self.plan
        wilds = plan.wild_total
        most = self.keep
        best = [[NEG_INF] * (most + 1) for _ in range(wilds + 1)]
        last = position == POSITIONS
        if last:
            kind, copies = -1, 0
        else:
            kind = kind_at(suit, position)
            copies = reserved if position == ACE_HIGH else self.hand[kind]
        concretes = tuple((-1, (), 0) for _ in runs)
        slot_concretes = tuple((i, (), 0) for i in range(len(slots)))
        for move in self.run_moves(suit, runs, concretes, slots, slot_concretes, table_ids,
                                   position, copies, wilds, kind, last):
            new_runs, _, new_slots, _, used, wild_used, credit, _ = move
            if last:
                if any(new_slots[i] != TABLE_DONE for i in table_ids):
                    continue
                later = self.nothing_after
                options = ((credit, 0),)
            else:
                value = int(plan.values[kind])
                if position == 0:
                    options = ((credit + value * used, 0),)
                    held = copies - used
                else:
                    # wild 2s left over are pooled, and a pooled 2 is credited when it
                    # fills a slot: as a set's card, credited or kept
                    left = copies - used
                    if self.set_room[position] or (position == 1 and plan.wild_twos):
                        options = tuple((credit + value * (copies - j), j)
                                        for j in range(min(left, most) + 1))
                    else:
                        options = ((credit + value * used, left),)
                    held = reserved if position < ACE_HIGH else 0
                later = self.suit_future(suit, position + 1, new_runs, new_slots, held)
            for gain, kept in options:
                for total in range(wild_used, wilds + 1):
                    row = later[total - wild_used]
                    out = best[total]
                    for after in range(most + 1):
                        if row[after] > NEG_INF:
                            k = min(most, kept + after)
                            if gain + row[after] > out[k]:
                                out[k] = gain + row[after]
        for total in range(1, wilds + 1):
            for k in range(most + 1):
                if best[total - 1][k] > best[total][k]:
                    best[total][k] = best[total - 1][k]
        self.futures[key] = best
        return best

    def bound(self, key, position, done):
        """Most the state ``key`` may still gain, ``done`` suits being past ``position``
        (5: its sets too); NEG_INF when it cannot finish."""
        plan = self.plan
        runs_by_suit, slots, reserved, any_slots, joker_slots, pool, need, kept, aside = key
        left = plan.wild_total - any_slots - joker_slots
        most = self.keep
        combined = [[0] + [NEG_INF] * most for _ in range(left + 1)]
        for suit in range(4):
            at = position + 1 if suit < done else position
            if at > POSITIONS:
                continue
            future = self.suit_future(suit, at, runs_by_suit[suit], slots, reserved[suit])
            merged = [[NEG_INF] * (most + 1) for _ in range(left + 1)]
            for total in range(left + 1):
                out = merged[total]
                for mine in range(total + 1):
                    row, other = future[mine], combined[total - mine]
                    for k1 in range(most + 1):
                        if other[k1] == NEG_INF:
                            continue
                        for k2 in range(most + 1):
                            if row[k2] > NEG_INF:
                                k = min(most, k1 + k2)
                                if other[k1] + row[k2] > out[k]:
                                    out[k] = other[k1] + row[k2]
            combined = merged
        jokers = self.hand[JOKER]
        joker_value = int(plan.values[JOKER])
        two_value = int(plan.values[TWO_KINDS[0]]) if plan.wild_twos else joker_value
        spare_wilds = jokers + (pool if plan.wild_twos else 0)
        best = NEG_INF
        for k in range(most + 1):
            if combined[left][k] == NEG_INF:
                continue
            short = max(0, most - kept - k)  # cards still to keep: wilds, each losing its value
            if short > spare_wilds:
                continue
            value = combined[left][k] - short * min(joker_value, two_value)
            if value > best:
                best = value
        if best == NEG_INF:
            return NEG_INF
        first_sets = position + 1 if done > 4 else position
        sets = 0
        for at in range(max(first_sets, 1), POSITIONS):
            sets += self.set_cap[at] if at != position else self.set_cap_from(at, aside)
        wild_value = jokers * joker_value + max(
            [int(b) for b in plan.wild_set_bonus if b > NEG_INF] + [0])
        if plan.wild_twos:
            wild_value += pool * two_value
        return best + sets + wild_value

    def set_cap_from(self, position, aside):
        """Best set bonus at ``position`` with at least ``aside`` naturals put aside (and no
        more than the hand holds of the rank)."""
        table = self.plan.set_bonus[position]
        best = 0 if aside == 0 else NEG_INF
        held = sum(self.hand[kind_at(suit, position)] for suit in range(4))
        for naturals in range(aside, min(table.shape[0], held + 1)):
            for wilds in range(table.shape[1]):
                if table[naturals][wilds] > best:
                    best = int(table[naturals][wilds])
        return max(best, 0)

    def layers(self, keep=None):
        """Yield the states after each layer: every suit at every position, then its sets.

        A state is ``key -> (value, payload)``. The key: the runs per suit, the
        table runs' slots, the aces held back per suit, the wild slots (any wild;
        jokers only), the 2s pooled and those must-use forces into slots, the
        cards kept, the naturals set aside for this rank's sets. The payload:
        the runs' cards per suit, the table runs' cards, the closed melds (a
        linked list), the 2s pooled per suit, the kinds set aside.
        """
        table_runs = self.plan.runs
        start_key = (((),) * 4, (TABLE_NOT_STARTED,) * len(table_runs), (0,) * 4, 0, 0, 0, 0,
                     0, 0)
        start_payload = (((),) * 4, (None,) * len(table_runs), None, (0,) * 4, ())
        states = {start_key: (0, start_payload)}
        for position in range(POSITIONS + 1):
            for suit in range(4):
                states = self.suit_step(states, position, suit)
                if keep is not None:
                    states = keep(states, position, suit + 1)
                yield states
            if 1 <= position < POSITIONS:
                states = self.set_step(states, position)
                if keep is not None:
                    states = keep(states, position, 5)
                yield states

    def prepare_bound(self):
        plan = self.plan
        self.futures = {}
        self.table_ids = [[i for i, spec in enumerate(plan.runs) if spec.suit == suit]
                          for suit in range(4)]
        self.nothing_after = [[0] + [NEG_INF] * self.keep for _ in range(plan.wild_total + 1)]
        self.set_cap = [self.set_cap_from(at, 0) if 1 <= at < POSITIONS else 0
                        for at in range(POSITIONS)]
        # whether a set of the position's rank can take a natural of the hand at all
        self.set_room = [False] * POSITIONS
        for at in range(1, POSITIONS):
            table = plan.set_bonus[at]
            naturals = min(sum(self.hand[kind_at(suit, at)] for suit in range(4)),
                           table.shape[0] - 1)
            self.set_room[at] = bool(plan.set_naturals[at]) and any(
                table[k][j] > NEG_INF for k in range(1, naturals + 1)
                for j in range(table.shape[1]))

    def solve(self, prune=True, beam=BEAM, floor=None):
        """(points, closed melds): the best lay-down, before wild identities are fixed.

        With ``prune`` the sweep drops every state whose value plus bound is below
        ``floor``, points some lay-down is known to reach (so no best lay-down is
        lost). Without a floor, narrow passes find one: each keeps the ``beam``
        states of a layer whose value plus bound is highest, widening eightfold
        (twice) while none reaches the end.
        """
        if not prune:
            states = None
            for states in self.layers():
                pass
            return self.finish(states)
        self.prepare_bound()
        offset = self.plan.offset

        def scored(states, position, done):
            found = {}
            for key, item in states.items():
                room = self.bound(key, position, done)
                if room > NEG_INF:
                    found[key] = (item[0] + room + offset, item)
            return found

        if floor is None:
            floor = NEG_INF
            for width in (beam, beam * 8, beam * 64):
                def narrow(states, position, done, width=width):
                    ranked = sorted(scored(states, position, done).items(),
                                    key=lambda pair: -pair[1][0])
                    return {key: item for key, (_, item) in ranked[:width]}

                states = None
                for states in self.layers(narrow):
                    pass
                points, found = self.finish(states)
                if found is not None:
                    floor = points
                    break
        self.floor = floor
        self.exact_sizes = []

        def exact(states, position, done):
            kept = {key: item for key, (top, item) in scored(states, position, done).items()
                    if top >= floor}
            self.exact_sizes.append(len(kept))
            return kept

        states = None
        for states in self.layers(exact):
            pass
        return self.finish(states)

    def suit_step(self, states, position, suit):
        plan = self.plan
        last = position == POSITIONS
        table_ids = [i for i, spec in enumerate(plan.runs) if spec.suit == suit]
        result = {}
        for key, (value, payload) in states.items():
            runs_by_suit, slots, reserved, any_slots, joker_slots, pool, need, kept, aside = key
            concretes, slot_concretes, closed, pooled, aside_kinds = payload
            if last:
                copies = 0
                kind = -1
            else:
                kind = kind_at(suit, position)
                copies = reserved[suit] if position == ACE_HIGH else self.hand[kind]
            runs = runs_by_suit[suit]
            budget = plan.wild_total - any_slots - joker_slots
            for move in self.run_moves(suit, runs, concretes[suit], slots, slot_concretes,
                                       table_ids, position, copies, budget, kind, last):
                new_runs, new_concretes, new_slots, new_slot_concretes, used, wild_used, \
                    credit, finished = move
                left = copies - used
                closed_now = closed
                for item in finished:
                    closed_now = (closed_now, item)
                credit += int(plan.values[kind]) * used if used else 0
                for extra in self.leftovers(position, suit, kind, left, last):
                    to_sets, kept_now, pooled_now, need_now, reserved_now = extra
                    new_key = (
                        _replace(runs_by_suit, suit, new_runs), new_slots,
                        _replace(reserved, suit, reserved_now) if position == 0 else reserved,
                        any_slots + wild_used, joker_slots, pool + pooled_now, need + need_now,
                        min(self.keep, kept + kept_now), aside + to_sets,
                    )
                    gain = value + credit + (int(plan.values[kind]) * to_sets if to_sets else 0)
                    new_payload = (
                        _replace(concretes, suit, new_concretes), new_slot_concretes,
                        closed_now,
                        _replace(pooled, suit, pooled_now) if pooled_now else pooled,
                        aside_kinds + (kind,) * to_sets,
                    )
                    _offer(result, new_key, gain, new_payload)
        return result

    def leftovers(self, position, suit, kind, left, last):
        """(to sets, kept, 2s pooled, 2s that must be used as wilds, aces held back)."""
        plan = self.plan
        if last:
            return [(0, 0, 0, 0, 0)]
        if position == 0:
            return [(0, 0, 0, 0, left)]
        limit = self.max_left[kind]
        sets_ok = bool(plan.set_naturals[position])
        found = []
        for to_sets in range(left + 1 if sets_ok else 1):
            rest = left - to_sets
            if position == 1 and plan.wild_twos:
                found.append((to_sets, 0, rest, max(0, rest - limit), 0))
            elif rest <= limit:
                found.append((to_sets, rest, 0, 0, 0))
        return found

    def run_moves(self, suit, runs, concretes, slots, slot_concretes, table_ids, position,
                  copies, budget, kind, last):
        """Every way the suit's open runs and table runs take this position's cards."""
        plan = self.plan
        results = []
        starters = [] if last else [i for i in table_ids
                                    if slots[i] == TABLE_NOT_STARTED
                                    and self.can_start(plan.runs[i], position)]

        def walk_runs(i, used, wild_used, credit, out, held, finished):
            if i == len(runs):
                walk_tables(0, used, wild_used, credit, out, held, list(slots),
                            list(slot_concretes), finished)
                return
            run, concrete = runs[i], concretes[i]
            for bonus, extra in self.closings(suit, run, position):
                if wild_used + extra <= budget:
                    walk_runs(i + 1, used, wild_used + extra, credit + bonus, out, held,
                              finished + [("run", concrete[0], concrete[1],
                                           concrete[2] + extra)])
            if last:
                return
            if starters and not run[5] and len(held) < len(starters):
                walk_runs(i + 1, used, wild_used, credit, out, held + [(run, concrete)],
                          finished)
            for how in (NATURAL, SLOT_WILD, OWED_WILD):
                if how == NATURAL and used >= copies:
                    continue
                if how == SLOT_WILD and wild_used >= budget:
                    continue
                for state, gain in self.extend(suit, run, position, how):
                    grown = (concrete[0], concrete[1] + ((kind,) if how == NATURAL else ()),
                             concrete[2] + (how == SLOT_WILD))
                    walk_runs(i + 1, used + (how == NATURAL), wild_used + (how == SLOT_WILD),
                              credit + gain, out + [(state, grown)], held, finished)

        def walk_tables(j, used, wild_used, credit, out, held, new_slots, new_concretes,
                        finished):
            if j == len(table_ids):
                if not held:
                    add_new_runs(used, wild_used, credit, out, tuple(new_slots),
                                 tuple(new_concretes), finished)
                return
            index = table_ids[j]
            spec = plan.runs[index]
            slot = slots[index]

            def go_on(step, naturals, wild_slots, gain, held_now, concrete):
                (state, merged) = step
                new_slots[index] = state
                if merged is None:
                    new_concretes[index] = None if state == TABLE_NOT_STARTED else concrete
                    walk_tables(j + 1, used + naturals, wild_used + wild_slots, credit + gain,
                                out, held_now, new_slots, new_concretes, finished)
                else:
                    new_concretes[index] = None
                    walk_tables(j + 1, used + naturals, wild_used + wild_slots, credit + gain,
                                out + [(merged, concrete)], held_now, new_slots, new_concretes,
                                finished)
                new_slots[index] = slot
                new_concretes[index] = slot_concretes[index]

            if slot == TABLE_DONE:
                go_on((TABLE_DONE, None), 0, 0, 0, held, None)
                return
            if last:
                return
            if slot == TABLE_NOT_STARTED:
                if position < spec.first and position < ACE_HIGH:
                    go_on((TABLE_NOT_STARTED, None), 0, 0, 0, held, None)
                if index not in starters:
                    return
                fresh = (spec.index, (), 0)
                for step, gain in self.table_starts(spec, position, None):
                    go_on(step, 0, 0, gain, held, fresh)
                for taken in range(len(held)):
                    run, concrete = held[taken]
                    rest = held[:taken] + held[taken + 1:]
                    joined = (spec.index, concrete[1], concrete[2])
                    for step, gain in self.table_starts(spec, position, run):
                        go_on(step, 0, 0, gain, rest, joined)
                return
            concrete = slot_concretes[index]
            for step, gain, naturals, wild_slots in self.table_steps(spec, slot, position):
                if used + naturals > copies or wild_used + wild_slots > budget:
                    continue
                grown = (concrete[0], concrete[1] + (kind,) * naturals, concrete[2] + wild_slots)
                go_on(step, naturals, wild_slots, gain, held, grown)

        def add_new_runs(used, wild_used, credit, out, new_slots, new_concretes, finished):
            fresh_most = 0 if last or position == ACE_HIGH else copies - used
            natural_state = (UNSETTLED, 1, 0, 1 if plan.per_wild else 0, 0, 0)
            for fresh in range(fresh_most + 1):
                added = out + [(natural_state, (-1, (kind,), 0))] * fresh
                if self.alive(suit, position, added, new_slots, budget - wild_used):
                    results.append(_pack(added, new_slots, new_concretes, used + fresh,
                                         wild_used, credit, finished))

        walk_runs(0, 0, 0, 0, [], [], [])
        return results

    def alive(self, suit, position, runs, slots, budget):
        """False when the suit's runs that must go on cannot all take the next position.

        A short run that even its end wilds cannot bring to the minimum, and an
        unfinished table run, must take the next position: with a natural (the
        hand's copies there), a wild in a gap, or by joining a table run that
        starts there. An unfinished table run also needs a wild for every position
        up to its last natural that neither the table nor the hand holds.
        """
        plan = self.plan
        following = position + 1
        must = 0
        may_wild = 0
        owed = 0
        for state, _ in runs:
            if state[0] == UNSETTLED and state[1] + plan.cap - state[2] < plan.min_size:
                must += 1
                may_wild += int(state[2] < plan.cap)
                owed += state[4]
        joiners = 0
        for index, spec in enumerate(plan.runs):
            if spec.suit != suit:
                continue
            slot = slots[index]
            if slot[0] == OPEN:
                run = slot[1]
                room = plan.cap - run[2] if run[0] == UNSETTLED else run[1]
                holes = sum(1 for later in range(following, spec.last + 1)
                            if not spec.forced >> later & 1
                            and not self.hand[kind_at(suit, later)])
                if holes > room:
                    return False  # its gaps up to its last natural need more wilds than it may hold
                if spec.forced >> following & 1 or (following == ACE_HIGH and slot[3]):
                    continue  # the table's own natural takes it
                must += 1
                may_wild += 1
                owed += slot[1][4]
            elif slot == TABLE_NOT_STARTED and self.can_start(spec, following):
                joiners += 1
        if not must:
            return True
        if following >= POSITIONS:
            return False
        copies = self.hand[kind_at(suit, 0 if following == ACE_HIGH else following)]
        return must - copies - joiners <= min(may_wild, budget + owed)

    def set_step(self, states, position):
        plan = self.plan
        joker_only = position == 1 and plan.wild_twos
        table = plan.set_bonus[position]
        result = {}
        for key, (value, payload) in states.items():
            runs, slots, reserved, any_slots, joker_slots, pool, need, kept, aside = key
            budget = plan.wild_total - any_slots - joker_slots
            for wilds in range(budget + 1):
                bonus = int(table[aside][wilds]) if aside < table.shape[0] else NEG_INF
                if bonus == NEG_INF:
                    continue
                closed = payload[2]
                if aside or wilds:
                    closed = (closed, ("sets", position, payload[4], wilds))
                new_key = (runs, slots, reserved,
                           any_slots + (0 if joker_only else wilds),
                           joker_slots + (wilds if joker_only else 0), pool, need, kept, 0)
                new_payload = payload[:2] + (closed, payload[3], ())
                _offer(result, new_key, value + bonus, new_payload)
        return result

    def wild_choices(self, any_slots, joker_slots, pool, need, kept):
        """(points, jokers, 2s, wilds in all-wild sets) per feasible way to fill the slots."""
        plan = self.plan
        jokers = self.hand[JOKER]
        joker_need = max(0, jokers - self.max_left[JOKER])
        joker_value = int(plan.values[JOKER])
        two_value = int(plan.values[TWO_KINDS[0]]) if plan.wild_twos else 0
        found = []
        for in_sets in range(len(plan.wild_set_bonus)):
            bonus = int(plan.wild_set_bonus[in_sets])
            if bonus == NEG_INF:
                continue
            total = any_slots + joker_slots + in_sets
            low = max(joker_slots, joker_need, total - pool)
            high = min(jokers, total - need)
            if low > high:
                continue
            if kept + jokers + pool - total < self.keep:
                continue
            use = high if joker_value >= two_value else low
            found.append((bonus + use * joker_value + (total - use) * two_value, use,
                          total - use, in_sets))
        return found

    def finish(self, states):
        plan = self.plan
        best = None
        for key, (value, payload) in states.items():
            _, slots, _, any_slots, joker_slots, pool, need, kept, _ = key
            if any(slot != TABLE_DONE for slot in slots):
                continue
            for points, jokers, twos, in_sets in self.wild_choices(any_slots, joker_slots,
                                                                   pool, need, kept):
                total = value + points
                if best is None or total > best[0]:
                    best = (total, payload, jokers, twos, in_sets)
        if best is None:
            return NEG_INF, None
        total, payload, jokers, twos, in_sets = best
        return total + plan.offset, (payload, jokers, twos, in_sets)

    def laydown(self, found):
        """The chosen melds as 53-count vectors: (new melds, [(table index, added cards)])."""
        payload, jokers, twos, in_sets = found
        closed_list = []
        node = payload[2]
        while node is not None:
            node, item = node
            closed_list.append(item)
        closed_list.reverse()
        pooled = payload[3]
        wilds = [JOKER] * jokers
        twos_left = twos
        need = [max(0, pooled[s] - self.max_left[TWO_KINDS[s]]) for s in range(4)]
        for suit in range(4):
            take = min(need[suit], twos_left)
            wilds += [TWO_KINDS[suit]] * take
            twos_left -= take
        for suit in range(4):
            take = min(pooled[suit] - need[suit], twos_left)
            wilds += [TWO_KINDS[suit]] * take
            twos_left -= take
        # jokers first to the slots only jokers may fill (sets of 2s), then the rest
        joker_first = []
        others = []
        for item in closed_list:
            if item[0] == "sets" and item[1] == 1 and self.plan.wild_twos:
                joker_first.append(item)
            else:
                others.append(item)
        pool = list(wilds)

        def take_wild(joker_only):
            if joker_only:
                pool.remove(JOKER)
                return JOKER
            return pool.pop()

        new, extended = [], {}
        for item in joker_first + others:
            if item[0] == "run":
                _, table_index, naturals, slots = item
                counts = [0] * KIND_COUNT
                for card in naturals:
                    counts[card] += 1
                for _ in range(slots):
                    counts[take_wild(False)] += 1
                if table_index < 0:
                    new.append(counts)
                elif sum(counts):
                    extended[table_index] = counts
                continue
            _, position, kinds, slots = item
            joker_only = position == 1 and bool(self.plan.wild_twos)
            additions, fresh = split_sets(self.params, self.tables, position, len(kinds), slots)
            cards = list(kinds)

            def one_set(naturals, wild_count):
                counts = [0] * KIND_COUNT
                for card in cards[:naturals]:
                    counts[card] += 1
                del cards[:naturals]
                for _ in range(wild_count):
                    counts[take_wild(joker_only)] += 1
                return counts

            for table_index, k, j in additions:
                extended[table_index] = one_set(k, j)
            for k, j in fresh:
                new.append(one_set(k, j))
        for size in split_wild_sets(self.params, in_sets):
            counts = [0] * KIND_COUNT
            for _ in range(size):
                counts[take_wild(False)] += 1
            new.append(counts)
        return new, sorted(extended.items())


def _offer(states, key, value, payload):
    """Keep the better of two ways to reach one state (the first on a tie)."""
    held = states.get(key)
    if held is None or value > held[0]:
        states[key] = (value, payload)


def _replace(values, index, value):
    return values[:index] + (value,) + values[index + 1:]


def _pack(out, slots, slot_concretes, used, wild_used, credit, finished):
    out = sorted(out)
    return (tuple(state for state, _ in out), tuple(concrete for _, concrete in out), slots,
            slot_concretes, used, wild_used, credit, finished)


def best(hand, tables, params, keep=1, max_left=None, floor=None):
    """``(points, new melds, extensions)`` of a best lay-down leaving at least ``keep`` cards.

    ``floor``: points some lay-down of this hand is known to reach (the sweep
    then drops every state that cannot reach it); None: found by narrow passes.

    ``tables``: (counts, shape, home, before) per table meld of the team (their
    best readings and points, see :func:`kernels.partition_ref.additions`);
    ``max_left``: most copies of each kind that may stay in hand. ``points``
    counts the new melds and what the extensions add; ``NEG_INF`` (and no
    melds) when nothing satisfies the constraints. The melds are 53-count
    lists; extensions are ``(table index, added cards)``.
    """
    hand = [int(count) for count in hand]
    max_left = list(hand) if max_left is None else [int(m) for m in max_left]
    sweep = _Sweep(hand, tables, params, keep, max_left)
    points, found = sweep.solve(floor=floor)
    if found is None:
        return NEG_INF, [], []
    new, extended = sweep.laydown(found)
    return points, new, extended


def state_counts(hand, tables, params, keep=1, max_left=None, prune=False, beam=BEAM,
                 floor=None):
    """States per layer of the sweep (for the design note's bounds and the benchmarks).

    With ``prune``: the states the exact pass keeps after the bound (see
    ``_Sweep.solve`` for ``beam`` and ``floor``).
    """
    hand = [int(count) for count in hand]
    max_left = list(hand) if max_left is None else [int(m) for m in max_left]
    sweep = _Sweep(hand, tables, params, keep, max_left)
    if not prune:
        return [len(states) for states in sweep.layers()]
    sweep.solve(prune=True, beam=beam, floor=floor)
    return list(sweep.exact_sizes)
