"""The rank sweep's relaxation bound: the most a state may still gain.

Relax the sets (a natural card may go into a set of its rank, credited its
value, whether or not the set reaches three; no wild needed) and the cards
kept (every natural is credited), and the suits come apart but for the wild
slots their runs take. :meth:`RelaxationBound.suit_future` is then each
suit's best relaxed future from its own part of a state, per number of wild
slots; the four combine over the slots left (a max-plus convolution), and the
sets' bonuses and the wilds' values are bounded apart. A state whose value
plus that bound cannot beat a lay-down already found is dropped
(:meth:`kernels.sweep_ref._Sweep.solve`). A part of
:class:`kernels.sweep_ref._Sweep`.
"""

from __future__ import annotations

from kernels.encoding import JOKER
from kernels.params import NEG_INF, TWO_KINDS
from kernels.sweep_plan import ACE_HIGH, POSITIONS, kind_at
from kernels.sweep_states import TABLE_DONE


class RelaxationBound:
    """The bound of :meth:`bound`, memoised per suit (:meth:`prepare_bound` first)."""

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

