"""``biriba simulate``: computer games, their win rates and scores."""

from __future__ import annotations

import json
import sys

from analysis.cli.common import add_rules_arguments, progress_bar
from analysis.simulation import check_counts, simulate
from analysis.specs import parse_spec
from analysis.warm import ensure_compiled
from solver.engine.api import Game
from solver.errors import BiribaError

SEAT_OPTIONS = tuple(f"p{seat}" for seat in range(6))


def add(commands) -> None:
    simulate = commands.add_parser("simulate", help="computer games: win rates and scores")
    simulate.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 6))
    add_rules_arguments(simulate)
    simulate.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    simulate.add_argument("--seed", type=int, default=0, help="first deal seed (default 0)")
    for name in SEAT_OPTIONS:
        simulate.add_argument(f"--{name}", metavar="PLAYER",
                              help=f"the player at seat {name[1]}: random (default), greedy, "
                                   "expert, ismcts or ismcts:iterations=N,seconds=S,...")
    simulate.add_argument("--match", action="store_true",
                          help="each game is a match to the target (default: one round)")
    simulate.add_argument("--max-actions", type=int, default=100_000,
                          help="stop a game after this many actions (default 100000)")
    simulate.add_argument("--quiet", action="store_true", help="no progress bar")
    simulate.add_argument("--json", action="store_true", help="one JSON object")
    simulate.set_defaults(handler=run)


def _game(args) -> Game:
    return Game(args.players, args.rules, *args.option, match=args.match)


def _members(game: Game, entity: int) -> str:
    seats = [s for s in range(game.players) if game.new_initial_state().entity_of(s) == entity]
    return ("seat " if len(seats) == 1 else "seats ") + "+".join(map(str, seats))


def run(args) -> int:
    game = _game(args)
    extra = [name for name in SEAT_OPTIONS[game.players:] if getattr(args, name)]
    if extra:
        raise BiribaError(f"--{extra[0]} names seat {extra[0][1]}, but {game.players} players "
                          f"sit at seats 0..{game.players - 1}")
    policies = [getattr(args, name) or "random" for name in SEAT_OPTIONS]
    progress = None if (args.quiet or args.json) else progress_bar
    check_counts(args.games, args.seed, args.max_actions)     # before any compiling
    parts = sum((parse_spec(spec, game).parts for spec in policies[:game.players]), ())
    ensure_compiled("simulate", also=parts)
    result = simulate(game, policies, args.games, args.seed, args.max_actions, progress)
    if result["interrupted"]:
        print(f"\ninterrupted: {result['games']} of {args.games} games played", file=sys.stderr)
    if args.json:
        print(json.dumps(result))
        return 130 if result["interrupted"] else 0
    what = "matches" if game.match else "rounds"
    print(f"{result['games']} {what} of {game.rules.name}, {game.players} players "
          f"({', '.join(f'seat {s}: {p}' for s, p in enumerate(result['policies']))})")
    if result["cut_off"]:
        print(f"{result['cut_off']} game(s) stopped at --max-actions {args.max_actions} before "
              f"their end: left out of the table below ({result['finished']} finished)")
    print(f"{'team':<14} {'wins':>6} {'win rate':>9} {'mean score':>11} {'95% interval':>16}")
    for entity in range(game.entities):
        mean = result["mean_scores"][entity]
        half = result["ci95"][entity]
        print(f"{_members(game, entity):<14} {result['wins'][entity]:>6} "
              f"{result['win_rates'][entity]:>9.1%} {mean:>11.1f} "
              f"{f'±{half:.1f}':>16}")
    if result["ties"]:
        print(f"ties: {result['ties']}")
    rate = result["actions"] / result["seconds"] if result["seconds"] else 0
    print(f"{result['actions']} actions in {result['seconds']:.2f} s ({rate:,.0f} actions/s)")
    return 130 if result["interrupted"] else 0
