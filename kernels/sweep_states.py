"""The rank sweep's states: one run's and one table run's, and their steps.

The layouts of the tuples the sweep's states are made of (the indices below
name their fields), and how one run or one table run takes a position of its
suit (:class:`RunSteps`, a part of :class:`kernels.sweep_ref._Sweep`).

A run: ``(UNSETTLED, length, wilds, slack, owed, table)`` or ``(SETTLED,
room, slack, edge, owed, table)``: ``owed`` wilds of a table run still to
place (they count against the room), ``table`` 1 for a table run (it may not
absorb or be absorbed: melds never merge), ``edge`` the run's start capped at
2 (a run from the ace low may not reach the ace high; one from 0 or 1 is full
at 13 cards).

A table run's slot is ``TABLE_NOT_STARTED`` until it takes its first
position, then ``(OPEN, run state, own 2s left, ace pending)`` until its
naturals' positions are covered and its ace placed, then ``TABLE_DONE``: its
run state joins the suit's runs. It starts at its first natural, or earlier
with one of its own wilds (or its own-suit 2 at position 1), or at the ace low
with its ace; a hand run that ends just before may join it there (the table
run absorbs it), so the hand's cards below a table run are the hand's runs.

A run's cards (its *concrete*): ``(table index or -1, natural kinds, wild
slots)``. A closed meld: ``("run", table index or -1, natural kinds, wild
slots)`` or ``("sets", position, natural kinds, wild slots)``.
"""

from __future__ import annotations

from kernels.sweep_plan import ACE_HIGH, CLEAN, DIRTY, LONGEST_RUN, longest_from

UNSETTLED, SETTLED = 0, 1
NOT_STARTED, OPEN, DONE = 0, 1, 2
TABLE_NOT_STARTED = (NOT_STARTED,)
TABLE_DONE = (DONE,)
NATURAL, SLOT_WILD, OWED_WILD = 0, 1, 2

# a run's fields
RUN_TAG = 0        # UNSETTLED or SETTLED
RUN_LENGTH = 1     # UNSETTLED: its cards
RUN_ROOM = 1       # SETTLED: the wilds it may still take
RUN_WILDS = 2      # UNSETTLED: its wilds
RUN_OWED = 4       # a table run's wilds still to place
RUN_TABLE = 5      # 1 for a table run
# an open table run's slot
SLOT_TAG = 0       # OPEN (NOT_STARTED and DONE slots hold only the tag)
SLOT_RUN = 1       # its run state
SLOT_OWN = 2       # its own-suit 2s left
SLOT_ACE = 3       # 1 while its ace is still to place
# a run's cards
CONCRETE_TABLE = 0     # the table meld's index, or -1
CONCRETE_NATURALS = 1  # the natural kinds
CONCRETE_SLOTS = 2     # the wild slots
# a closed meld
CLOSED_SHAPE = 0   # "run" or "sets"
CLOSED_AT = 1      # a run's table index (-1: new), a set's position


class RunSteps:
    """How one run and one table run of a suit take a position (see the module's text)."""

    def _slack(self, slack, room):
        plan = self.plan
        if not plan.per_wild:
            return 0
        if room == 0 and slack >= 0:
            return 0
        return min(slack, plan.slack_cap)

    def grown(self, suit, length, wilds, slack, start, owed, table):
        """The states of a run that holds ``length`` cards from ``start`` on."""
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
                          int(bonus[CLEAN][length])))
        if room > 0 or wilds > 0:
            found.append(((SETTLED, room, self._slack(slack, room), edge, owed, table),
                          int(bonus[DIRTY][length])))
        return found

    def extend(self, suit, run, position, how):
        """States of ``run`` after it takes ``position`` with a natural or a wild in a gap."""
        plan = self.plan
        per_wild = plan.per_wild
        if run[RUN_TAG] == UNSETTLED:
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
        if run[RUN_TAG] == UNSETTLED:
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
                run = absorbed[:RUN_OWED] + (owed_now, 1)
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
                run_now = run[:RUN_OWED] + (run[RUN_OWED] - 1, run[RUN_TABLE])
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
