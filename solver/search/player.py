"""The ISMCTS player: a :class:`~solver.engine.players.Player` that searches each decision.

A lay-down decision stands for several engine actions; the player plays them one per call
(``choose`` returns one action, the rest wait in a queue) and remembers, per turn, that the
lay-down was decided, so the next call searches the discard.
"""

from __future__ import annotations

from solver.engine import layout as L
from solver.search import decisions as D
from solver.search.match import check_flag
from solver.search.plans import PLANS_DEFAULT, is_lay
from solver.search.value import check_value
from solver.search.search import (
    DEFAULT_ITERATIONS,
    EXPLORATION_DEFAULT,
    ROLLOUT_DEFAULT,
    SCALE_DEFAULT,
    available_decisions,
    check_budget,
    check_options,
    expansion,
    search,
)


class ISMCTSPlayer:
    """SO-ISMCTS with greedy (or expert) rollouts. ``iterations`` and/or ``seconds`` per decision
    (default 400 iterations), ``seed`` (each decision's search uses seed + its number),
    ``workers`` processes, ``exploration``, ``epsilon`` (random rollout actions),
    ``cutoff`` (rollout actions before the round is scored as it stands; 0: none),
    ``plans`` (the lay-down plans weighed, a mask: :mod:`solver.search.plans`), ``match``
    (reward the chance of winning the match: :mod:`solver.search.match`), ``multi`` (one
    tree per player, MO-ISMCTS: :mod:`solver.search.multi`), ``infer`` (the trust in the
    greedy model that weighs the determinizations: :mod:`solver.search.infer`; 0: off),
    ``rollout`` (the rollout policy: ``greedy`` or ``expert``), ``value`` (1: the learned
    value where a rollout is cut: :mod:`solver.search.value`)."""

    name = "ismcts"

    def __init__(self, seed: int = 0, iterations: int | None = None,
                 seconds: float | None = None, workers: int = 1,
                 exploration: float = EXPLORATION_DEFAULT, epsilon: float = 0.0,
                 scale: float = SCALE_DEFAULT, cutoff: int = 0, plans: int = PLANS_DEFAULT,
                 match: bool = False, multi: bool = False, infer: float = 0.0,
                 rollout: str = ROLLOUT_DEFAULT, value: int = 0):
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        check_budget(iterations, seconds, workers)
        check_options(exploration, epsilon, scale, cutoff, plans, infer, rollout)
        check_value(value, cutoff)
        self.rollout, self.value = rollout, value
        self.cutoff, self.plans, self.match = cutoff, plans, check_flag(match)
        self.multi = check_flag(multi, "multi")
        self.infer = float(infer)
        self.seed = int(seed)
        self.iterations, self.seconds, self.workers = iterations, seconds, workers
        self.exploration, self.epsilon, self.scale = exploration, epsilon, scale
        self.searches = 0
        self.search_seconds = 0.0
        self._turn = None           # (round, turn, seat) whose lay-down is decided
        self._queue = []            # the rest of this turn's lay-down, one action a call

    def choose(self, state) -> int:
        array = state.array
        turn = (int(array[L.ROUND]), int(array[L.TURNS]), state.current_player())
        if int(array[L.PHASE]) != L.PLAY or self._turn != turn:
            self._turn, self._queue = None, []
        if self._queue:
            return self._queue.pop(0)
        stage = D.STAGE_DISCARD if self._turn == turn else D.STAGE_LAY
        options = available_decisions(state, stage, self.plans)
        if len(options) == 1:
            code = options[0]
        else:
            result = search(state, iterations=self.iterations, seconds=self.seconds,
                            seed=(self.seed + self.searches) & ((1 << 63) - 1),
                            workers=self.workers, exploration=self.exploration,
                            epsilon=self.epsilon, scale=self.scale, stage=stage,
                            cutoff=self.cutoff, plans=self.plans, match=self.match,
                            multi=self.multi, infer=self.infer, rollout=self.rollout,
                            value=self.value)
            self.searches += 1
            self.search_seconds += result.seconds
            code = result.best.code
        if int(array[L.PHASE]) == L.PLAY and is_lay(code):
            self._turn = turn
            actions = [] if code == D.LAY_NONE else expansion(state, code, stage)
            if actions:
                self._queue = [int(action) for action in actions[1:]]
                return int(actions[0])
            return self.choose(state)
        return int(code)
