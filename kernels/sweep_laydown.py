"""The rank sweep's reconstruction: the wilds' identities and the melds laid.

The sweep's last layer holds, per state, the closed melds with wild *slots*;
:meth:`Reconstruction.finish` picks the best state and a way to fill the slots
(jokers, 2s, all-wild sets) that the must-use cards and the cards kept allow,
and :meth:`Reconstruction.laydown` turns it into 53-count melds. A part of
:class:`kernels.sweep_ref._Sweep`.
"""

from __future__ import annotations

from kernels.encoding import JOKER, KIND_COUNT
from kernels.params import NEG_INF, TWO_KINDS
from kernels.sweep_moves import PAYLOAD_CLOSED, PAYLOAD_POOLED
from kernels.sweep_plan import split_sets, split_wild_sets
from kernels.sweep_states import CLOSED_AT, CLOSED_SHAPE, TABLE_DONE


class Reconstruction:
    """From the sweep's last layer to the lay-down."""

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
        best, best_total = None, NEG_INF
        for key, (value, payload) in states.items():
            _, slots, _, any_slots, joker_slots, pool, need, kept, _ = key
            if any(slot != TABLE_DONE for slot in slots):
                continue
            for points, jokers, twos, in_sets in self.wild_choices(any_slots, joker_slots,
                                                                   pool, need, kept):
                total = value + points
                if best is None or total > best_total:
                    best, best_total = (payload, jokers, twos, in_sets), total
        if best is None:
            return NEG_INF, None
        return best_total + plan.offset, best

    def laydown(self, found):
        """The chosen melds as 53-count vectors: (new melds, [(table index, added cards)])."""
        payload, jokers, twos, in_sets = found
        closed_list = []
        node = payload[PAYLOAD_CLOSED]
        while node is not None:
            node, item = node
            closed_list.append(item)
        closed_list.reverse()
        pooled = payload[PAYLOAD_POOLED]
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
            if item[CLOSED_SHAPE] == "sets" and item[CLOSED_AT] == 1 and self.plan.wild_twos:
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
            if item[CLOSED_SHAPE] == "run":
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


