"""Biriba as an OpenSpiel Python game, the anchor for search benchmarks (optional extra).

    pip install -e ".[openspiel]"
    import solver.openspiel_game            # registers "python_biriba"
    game = pyspiel.load_game("python_biriba", {"players": 2, "rules": "classic", "seed": 0})

The engine plays underneath (:class:`solver.engine.api.State`). Action ids are dense:
each engine action gets the next id the first time the game meets it (the engine's codes
embed a 42-bit meld key), so ids stay small and stable within a process.
``information_state_string`` is the engine's information-set key, and
``resample_from_infostate`` deals the hidden cards uniformly (as the engine's does).
Returns: a player's team's round score less the best other team's, divided by 500 (the
scale of :mod:`solver.search`). Deals are seeded: parameter ``seed`` (default 0) and the
number of states made so far, so consecutive ``new_initial_state`` calls deal differently.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from solver.engine.api import Game
from solver.errors import OutOfRangeError

SCALE = 500.0
_PARAMETERS = {"players": 2, "rules": "classic", "seed": 0}

GAME_TYPE = pyspiel.GameType(
    short_name="python_biriba",
    long_name="Python Biriba",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification=_PARAMETERS,
)


class BiribaGame(pyspiel.Game):
    def __init__(self, params=None):
        params = {**_PARAMETERS, **(params or {})}
        self.engine_game = Game(int(params["players"]), str(params["rules"]))
        info = pyspiel.GameInfo(
            num_distinct_actions=1 << 30, max_chance_outcomes=0,
            num_players=self.engine_game.players, min_utility=-20.0, max_utility=20.0,
            max_game_length=100_000)
        super().__init__(GAME_TYPE, info, params)
        self.seed = int(params["seed"])
        self.dealt = 0
        self.ids: dict[int, int] = {}
        self.codes: list[int] = []

    def new_initial_state(self, engine_state=None):
        if engine_state is None:
            engine_state = self.engine_game.new_initial_state(self.seed + self.dealt)
            self.dealt += 1
        return BiribaState(self, engine_state)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return BiribaObserver()

    def action_id(self, code: int) -> int:
        if code not in self.ids:
            self.ids[code] = len(self.codes)
            self.codes.append(code)
        return self.ids[code]


class BiribaState(pyspiel.State):
    def __init__(self, game, engine_state):
        super().__init__(game)
        self.engine = engine_state

    def current_player(self):
        if self.engine.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.engine.current_player()

    def _legal_actions(self, player):
        game = self.get_game()
        return sorted(game.action_id(code) for code in self.engine.legal_actions())

    def _apply_action(self, action):
        self.engine.apply_trusted(self.get_game().codes[action])

    def _action_to_string(self, player, action):
        return self.engine.action_to_string(self.get_game().codes[action])

    def is_terminal(self):
        return self.engine.is_terminal()

    def returns(self):
        if not self.engine.is_terminal():
            return [0.0] * self.engine.game.players
        scores = self.engine.round_scores()
        teams = [self.engine.team_of(seat) for seat in range(self.engine.game.players)]
        result = []
        for seat, team in enumerate(teams):
            others = [scores[t] for t in set(teams) if t != team]
            result.append((scores[team] - max(others, default=0)) / SCALE)
        return result

    def resample_from_infostate(self, player_id, probability_sampler=None):
        seed = int(np.random.randint(0, 1 << 62))
        return self.get_game().new_initial_state(
            self.engine.resample_from_infostate(player_id, seed))

    def clone(self):
        return self.get_game().new_initial_state(self.engine.clone())

    def __str__(self):
        return str(self.engine)


class BiribaObserver:
    """Strings only: the engine's information-set key of the player."""

    def __init__(self):
        self.tensor = np.zeros(0, np.float32)
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        return state.engine.information_state_key(player)


def ismcts_bot(game, simulations: int, seed: int = 0, uct_c: float = 0.7):
    """OpenSpiel's own ISMCTSBot (its Python implementation) with random rollouts."""
    from open_spiel.python.algorithms import ismcts, mcts

    random_state = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c, simulations, random_state=random_state)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player))
    return bot


class OpenSpielPlayer:
    """OpenSpiel's ISMCTSBot as a :class:`~solver.engine.players.Player` of the engine."""

    name = "openspiel"

    def __init__(self, seed: int = 0, simulations: int = 100, uct_c: float = 0.7):
        if isinstance(simulations, bool) or not isinstance(simulations, int) \
                or not 1 <= simulations <= 1_000_000:
            raise OutOfRangeError(f"simulations must be an int in 1..1000000, "
                                  f"got {simulations!r}")
        if not 0 <= uct_c <= 100:
            raise OutOfRangeError(f"uct_c must be in [0, 100], got {uct_c!r}")
        self.seed, self.simulations, self.uct_c = seed, simulations, uct_c
        self.game = None
        self.bot = None

    def choose(self, state) -> int:
        if len(state.legal_actions()) == 1:
            return state.legal_actions()[0]
        if self.game is None:          # the wrapper follows the state's own rules
            self.game = BiribaGame({"players": state.game.players,
                                    "rules": state.game.rules.name})
            self.bot = ismcts_bot(self.game, self.simulations, self.seed, self.uct_c)
        wrapped = self.game.new_initial_state(state.clone())
        action = self.bot.step(wrapped)
        return self.game.codes[action]


pyspiel.register_game(GAME_TYPE, BiribaGame)
