"""CP-SAT model of one turn's lay-down (OR-Tools), over the candidates of :mod:`solver.extensions`.

Variables:

- ``uses[i]`` (integer, new melds): how many copies of new meld ``i`` are laid
  (two decks hold two copies of every card, so a meld may be laid twice);
- ``extends[i]`` (0/1, table additions): addition ``i`` is made to its table meld.

Constraints: per card kind, the laid copies are at most those in hand, and at
least the must-use copies; at most one addition per table meld; at least
``keep`` cards stay in hand; a team that has not opened must lay down at least
the vulnerability minimum (RULES.md §6) or nothing. Objective: the weights
(points, or points plus a large weight per card).

Deterministic by default: one worker, a fixed seed, limits in deterministic time.
"""

from __future__ import annotations

import time

import numpy as np
from ortools.sat.python import cp_model


class LayDownModel:
    """Build with an instance, its candidates, the objective weights and a Config; then solve().

    The model is written straight into CP-SAT's protocol buffer (variables by
    index): on models of a few hundred variables this builds about three times
    faster than one Python expression object per term.
    """

    def __init__(self, instance, candidates, weights, config):
        self.instance = instance
        self.candidates = candidates
        self.weights = np.asarray(weights, dtype=np.int64)
        self.config = config
        self.model = cp_model.CpModel()
        self.proto = self.model.proto
        counts = candidates.counts
        self.hand = np.array(instance.hand.counts, dtype=np.int64)
        # upper[i]: copies of candidate i that fit in the hand (an addition: at most 1)
        with np.errstate(divide="ignore"):
            copies = np.where(counts > 0, self.hand[None, :] // np.maximum(counts, 1), 1 << 20)
        self.upper = copies.min(axis=1) if len(counts) else np.zeros(0, dtype=np.int64)
        self.upper = np.where(candidates.groups < 0, self.upper, np.minimum(self.upper, 1))
        self.size = len(self.upper)
        self._add_choice_variables()
        self._add_card_limits()
        self._add_one_addition_per_table_meld()
        self._add_cards_kept()
        self._add_vulnerability()
        self._add_objective()

    def _linear(self, variables, coefficients, low, high, enforced_by=None):
        constraint = self.proto.constraints.add()
        if enforced_by is not None:
            constraint.enforcement_literal.append(enforced_by)
        constraint.linear.vars.extend(variables)
        constraint.linear.coeffs.extend(coefficients)
        constraint.linear.domain.extend([low, high])

    def _add_choice_variables(self):
        # Variable i (same index as the candidates): uses[i], copies of new meld i laid
        # (0..upper), or extends[i], addition i made to its table meld (0/1).
        for upper in self.upper.tolist():
            self.proto.variables.add().domain.extend([0, upper])

    def _add_card_limits(self):
        # Per kind held: laid copies <= held; >= the copies that must be used.
        must = self.instance.must_use.counts
        counts = self.candidates.counts
        for kind in np.flatnonzero(self.hand).tolist():
            rows = np.flatnonzero(counts[:, kind])
            low = must[kind]
            if len(rows) or low:
                self._linear(rows.tolist(), counts[rows, kind].tolist(), low,
                             int(self.hand[kind]))

    def _add_one_addition_per_table_meld(self):
        groups = self.candidates.groups
        for group in range(len(self.instance.table)):
            members = np.flatnonzero(groups == group)
            if len(members) > 1:
                self.proto.constraints.add().at_most_one.literals.extend(members.tolist())

    def _add_cards_kept(self):
        # Cards laid <= hand size - keep.
        sizes = self.candidates.counts.sum(axis=1)
        self._linear(list(range(self.size)), sizes.tolist(), 0,
                     len(self.instance.hand) - self.instance.keep)

    def _add_vulnerability(self):
        minimum = self.instance.minimum
        if not minimum or not self.size:
            return
        # opens (0/1): the team lays something down this turn; then the points reach the
        # minimum. Each choice variable is 0 unless opens: x_i - upper_i * opens <= 0.
        opens = self.size
        self.proto.variables.add().domain.extend([0, 1])
        for index, upper in enumerate(self.upper.tolist()):
            self._linear([index, opens], [1, -upper], -(1 << 40), 0)
        self._linear(list(range(self.size)), self.candidates.points.tolist(), minimum, 1 << 40,
                     enforced_by=opens)

    def _add_objective(self):
        # Maximise the weights: CP-SAT minimises, so the coefficients are negated and the
        # scaling factor -1 reports the maximum.
        objective = self.proto.objective
        objective.vars.extend(range(self.size))
        objective.coeffs.extend((-self.weights).tolist())
        objective.scaling_factor = -1

    def solve(self):
        """``(chosen candidate indices with repetition, or None if infeasible; optimal flag)``."""
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = self.config.workers
        solver.parameters.random_seed = self.config.seed
        solver.parameters.max_deterministic_time = self.config.time_limit
        # Measured on the benchmark instances (30 cards, 10 table melds; build + solve,
        # median of 16): defaults 53 ms; presolve and probing off 20 ms (the model is small
        # and already tight); and every LP row added at the start instead of lazily 11 ms.
        solver.parameters.cp_model_presolve = False
        solver.parameters.cp_model_probing_level = 0
        solver.parameters.add_lp_constraints_lazily = False
        started = time.perf_counter()
        status = solver.solve(self.model)
        self.seconds = time.perf_counter() - started
        if status == cp_model.MODEL_INVALID:  # pragma: no cover - a bug in this module
            raise RuntimeError(f"invalid CP-SAT model: {self.model.validate()}")
        if status == cp_model.INFEASIBLE:
            return None, True
        if status == cp_model.UNKNOWN:
            return None, False
        values = solver.response_proto.solution
        chosen = []
        for index in range(self.size):
            chosen.extend([index] * int(values[index]))
        return chosen, status == cp_model.OPTIMAL
