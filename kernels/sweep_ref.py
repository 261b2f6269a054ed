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

The sweep's parts, by concern: :mod:`kernels.sweep_plan` (the tables that do
not depend on the state), :mod:`kernels.sweep_states` (the states' layouts,
one run's and one table run's steps), :mod:`kernels.sweep_moves` (the layers
and the transitions between them), :mod:`kernels.sweep_bound` (the relaxation
bound) and :mod:`kernels.sweep_laydown` (the reconstruction of the melds);
:class:`_Sweep` joins them and solves.
"""

from __future__ import annotations

from kernels.params import NEG_INF
from kernels.sweep_bound import RelaxationBound
from kernels.sweep_laydown import Reconstruction
from kernels.sweep_moves import STATE_VALUE, LayerSteps
from kernels.sweep_plan import build_plan

BEAM = 64              # states a layer keeps in the pruned sweep's first pass


class _Sweep(LayerSteps, RelaxationBound, Reconstruction):
    """The sweep of one hand and table: its plan, its layers, its bound, its lay-down."""

    def __init__(self, hand, tables, params, keep, max_left):
        self.hand = [int(count) for count in hand]
        self.tables = [(list(counts), int(shape), int(home), int(before))
                       for counts, shape, home, before in tables]
        self.params = params
        self.plan = build_plan(self.hand, self.tables, params)
        self.keep = int(keep)
        self.max_left = [min(int(m), h) for m, h in zip(max_left, self.hand)]

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
                    found[key] = (item[STATE_VALUE] + room + offset, item)
            return found

        if floor is None:
            floor = NEG_INF
            for width in (beam, beam * 8, beam * 64):
                def narrow(states, position, done, width=width):
                    ranked = sorted(scored(states, position, done).items(),
                                    key=_highest_first)
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


def _highest_first(entry):
    """Sorts the scored states (key, (value plus bound, state)) highest first."""
    _, (top, _) = entry
    return -top


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

