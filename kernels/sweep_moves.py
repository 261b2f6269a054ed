"""The rank sweep's transitions: how a layer of states becomes the next.

Each suit at each position (:meth:`LayerSteps.suit_step`: every way its open
runs and table runs take the position's cards, and where the cards left go),
then the sets of the position's rank (:meth:`LayerSteps.set_step`). A part
of :class:`kernels.sweep_ref._Sweep`.

A state is ``key -> (value, payload)``. The key: the runs per suit, the table
runs' slots, the aces held back per suit, the wild slots (any wild; jokers
only), the 2s pooled and those must-use forces into slots, the cards kept,
the naturals set aside for this rank's sets. The payload (the ``PAYLOAD_``
fields): the runs' cards per suit, the table runs' cards, the closed melds (a
linked list), the 2s pooled per suit, the kinds set aside.
"""

from __future__ import annotations

from kernels.params import NEG_INF
from kernels.sweep_plan import ACE_HIGH, POSITIONS, kind_at
from kernels.sweep_states import (
    CONCRETE_NATURALS,
    CONCRETE_SLOTS,
    CONCRETE_TABLE,
    NATURAL,
    OPEN,
    OWED_WILD,
    RUN_LENGTH,
    RUN_OWED,
    RUN_ROOM,
    RUN_TABLE,
    RUN_TAG,
    RUN_WILDS,
    SLOT_ACE,
    SLOT_RUN,
    SLOT_TAG,
    SLOT_WILD,
    TABLE_DONE,
    TABLE_NOT_STARTED,
    UNSETTLED,
    RunSteps,
)

# a state's payload
PAYLOAD_CONCRETES = 0       # the runs' cards per suit
PAYLOAD_SLOT_CONCRETES = 1  # the table runs' cards
PAYLOAD_CLOSED = 2          # the closed melds: (earlier, meld) pairs
PAYLOAD_POOLED = 3          # the 2s pooled per suit
PAYLOAD_ASIDE = 4           # the kinds set aside for this rank's sets
# an entry of a layer: key -> (value, payload)
STATE_VALUE = 0


class LayerSteps(RunSteps):
    """The layers of the sweep and the steps between them."""

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
                              finished + [("run", concrete[CONCRETE_TABLE],
                                           concrete[CONCRETE_NATURALS],
                                           concrete[CONCRETE_SLOTS] + extra)])
            if last:
                return
            if starters and not run[RUN_TABLE] and len(held) < len(starters):
                walk_runs(i + 1, used, wild_used, credit, out, held + [(run, concrete)],
                          finished)
            for how in (NATURAL, SLOT_WILD, OWED_WILD):
                if how == NATURAL and used >= copies:
                    continue
                if how == SLOT_WILD and wild_used >= budget:
                    continue
                for state, gain in self.extend(suit, run, position, how):
                    grown = (concrete[CONCRETE_TABLE],
                             concrete[CONCRETE_NATURALS] + ((kind,) if how == NATURAL else ()),
                             concrete[CONCRETE_SLOTS] + (how == SLOT_WILD))
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
                    joined = (spec.index, concrete[CONCRETE_NATURALS], concrete[CONCRETE_SLOTS])
                    for step, gain in self.table_starts(spec, position, run):
                        go_on(step, 0, 0, gain, rest, joined)
                return
            concrete = slot_concretes[index]
            for step, gain, naturals, wild_slots in self.table_steps(spec, slot, position):
                if used + naturals > copies or wild_used + wild_slots > budget:
                    continue
                grown = (concrete[CONCRETE_TABLE],
                         concrete[CONCRETE_NATURALS] + (kind,) * naturals,
                         concrete[CONCRETE_SLOTS] + wild_slots)
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
            if (state[RUN_TAG] == UNSETTLED
                    and state[RUN_LENGTH] + plan.cap - state[RUN_WILDS] < plan.min_size):
                must += 1
                may_wild += int(state[RUN_WILDS] < plan.cap)
                owed += state[RUN_OWED]
        joiners = 0
        for index, spec in enumerate(plan.runs):
            if spec.suit != suit:
                continue
            slot = slots[index]
            if slot[SLOT_TAG] == OPEN:
                run = slot[SLOT_RUN]
                room = (plan.cap - run[RUN_WILDS] if run[RUN_TAG] == UNSETTLED
                        else run[RUN_ROOM])
                holes = sum(1 for later in range(following, spec.last + 1)
                            if not spec.forced >> later & 1
                            and not self.hand[kind_at(suit, later)])
                if holes > room:
                    return False  # its gaps to its last natural need more wilds than it may hold
                if spec.forced >> following & 1 or (following == ACE_HIGH and slot[SLOT_ACE]):
                    continue  # the table's own natural takes it
                must += 1
                may_wild += 1
                owed += slot[SLOT_RUN][RUN_OWED]
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
                closed = payload[PAYLOAD_CLOSED]
                if aside or wilds:
                    closed = (closed, ("sets", position, payload[PAYLOAD_ASIDE], wilds))
                new_key = (runs, slots, reserved,
                           any_slots + (0 if joker_only else wilds),
                           joker_slots + (wilds if joker_only else 0), pool, need, kept, 0)
                new_payload = payload[:PAYLOAD_CLOSED] + (closed, payload[PAYLOAD_POOLED], ())
                _offer(result, new_key, value + bonus, new_payload)
        return result



def _offer(states, key, value, payload):
    """Keep the better of two ways to reach one state (the first on a tie)."""
    held = states.get(key)
    if held is None or value > held[STATE_VALUE]:
        states[key] = (value, payload)


def _replace(values, index, value):
    return values[:index] + (value,) + values[index + 1:]


def _pack(out, slots, slot_concretes, used, wild_used, credit, finished):
    out = sorted(out)
    return (tuple(state for state, _ in out), tuple(concrete for _, concrete in out), slots,
            slot_concretes, used, wild_used, credit, finished)

