"""``biriba simulate``, ``biriba replay`` and ``biriba compile``; ``biriba play`` is in
:mod:`analysis.play`."""

from __future__ import annotations

import json
import math
import sys
import time

import numpy as np

from analysis.play import cmd_play
from solver.engine import records
from solver.engine.api import Game, check_seed
from analysis.specs import parse_spec
from solver.engine.players import POLICY_CODES
from solver.engine.warm import compile_engine, ensure_compiled
from solver.errors import BiribaError, OutOfRangeError

SEAT_OPTIONS = tuple(f"p{seat}" for seat in range(6))
MAX_GAMES = 10_000_000
MAX_ACTIONS = 10_000_000


def add_game_commands(commands, add_rules_arguments) -> None:
    play = commands.add_parser("play", help="play a round (or a match) against the computer")
    play.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 6))
    add_rules_arguments(play)
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument("--seed", type=int, default=0, help="deal seed (default 0)")
    play.add_argument("--opponents", default="greedy", metavar="PLAYER",
                      help="the computer players: greedy (default), random, ismcts or "
                           "ismcts:iterations=N,seconds=S")
    play.add_argument("--match", action="store_true", help="play rounds until the target")
    play.add_argument("--coach", action="store_true",
                      help="after each of your decisions, say whether it lost points and "
                           "what was better (a short search)")
    play.add_argument("--save", metavar="FILE",
                      help="write the game's JSON record here (checked before the game starts)")
    play.add_argument("--resume", metavar="FILE",
                      help="continue the unfinished game of this record")
    play.set_defaults(handler=cmd_play)

    simulate = commands.add_parser("simulate", help="computer games: win rates and scores")
    simulate.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 6))
    add_rules_arguments(simulate)
    simulate.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    simulate.add_argument("--seed", type=int, default=0, help="first deal seed (default 0)")
    for name in SEAT_OPTIONS:
        simulate.add_argument(f"--{name}", metavar="PLAYER",
                              help=f"the player at seat {name[1]}: random (default), greedy, "
                                   "ismcts or ismcts:iterations=N,seconds=S,...")
    simulate.add_argument("--match", action="store_true",
                          help="each game is a match to the target (default: one round)")
    simulate.add_argument("--max-actions", type=int, default=100_000,
                          help="stop a game after this many actions (default 100000)")
    simulate.add_argument("--quiet", action="store_true", help="no progress bar")
    simulate.add_argument("--json", action="store_true", help="one JSON object")
    simulate.set_defaults(handler=cmd_simulate)

    replay = commands.add_parser("replay", help="replay a saved JSON record and check it")
    replay.add_argument("record", help="the record file")
    replay.add_argument("--moves", action="store_true", help="list every move and who played it")
    replay.add_argument("--json", action="store_true", help="one JSON object")
    replay.set_defaults(handler=cmd_replay)

    compile_ = commands.add_parser(
        "compile", help="compile the numba game engine now (once; play and simulate need it)")
    compile_.add_argument("--workers", type=int, default=None,
                          help="parts compiled at once, each in its own process "
                               "(default: one per core; 1: in this process)")
    compile_.set_defaults(handler=cmd_compile)


def _game(args) -> Game:
    return Game(args.players, args.rules, *args.option, match=args.match)


# --- simulate ---------------------------------------------------------------------------


def check_counts(games: int, seed: int, max_actions: int) -> None:
    """Refuse a game count, first seed or action limit out of range (OutOfRangeError)."""
    if not 1 <= games <= MAX_GAMES:
        raise OutOfRangeError(f"--games must be 1..{MAX_GAMES}, got {games}")
    if not 1 <= max_actions <= MAX_ACTIONS:
        raise OutOfRangeError(f"--max-actions must be 1..{MAX_ACTIONS}, got {max_actions}")
    check_seed(seed, games)


def simulate(game: Game, policies, games: int, seed: int = 0, max_actions: int = 100_000,
             progress=None) -> dict:
    """Play ``games`` seeded games in the playout kernel; the summary per team (entity).

    Games stopped at ``max_actions`` before their end are counted as ``cut_off``
    and left out of the wins, ties and scores. Ctrl-C stops between chunks of
    games: the summary covers the games played, with ``interrupted`` set.
    """
    from solver.engine.playout import CUT_OFF, play_many

    check_counts(games, seed, max_actions)
    specs = [parse_spec(name) for name in policies[:game.players]]
    in_kernel = all(spec.in_kernel for spec in specs)
    if in_kernel:
        codes = np.array([POLICY_CODES[spec.name] for spec in specs], dtype=np.int64)
    entities = game.entities
    scores = np.zeros((games, entities), dtype=np.int64)
    wins = np.zeros(games, dtype=np.int64)
    chunk = max(1, min(games // 50, 200))
    actions = 0
    played = 0
    interrupted = False
    started = time.perf_counter()
    try:
        for first in range(0, games, chunk):
            count = min(chunk, games - first) if in_kernel else 1
            if in_kernel:
                actions += play_many(game.engine, codes, seed + first, count,
                                     int(game.match), max_actions, scores[first:first + count],
                                     wins[first:first + count])
            else:                  # a searching player: the API, one game at a time
                actions += _play_one(game, specs, seed + first, first, max_actions,
                                     scores[first], wins[first:first + 1])
            played = first + count
            if progress:
                progress(played, games)
    except KeyboardInterrupt:
        interrupted = True
    seconds = time.perf_counter() - started
    finished = wins[:played] != CUT_OFF
    done = int(finished.sum())
    kept_scores = scores[:played][finished]
    kept_wins = wins[:played][finished]
    won = [int((kept_wins == entity).sum()) for entity in range(entities)]
    means = kept_scores.mean(axis=0) if done else np.zeros(entities)
    spread = kept_scores.std(axis=0, ddof=1) if done > 1 else np.zeros(entities)
    return {
        "games": played,
        "finished": done,
        "cut_off": played - done,
        "interrupted": interrupted,
        "players": game.players,
        "rules": game.rules.name,
        "match": game.match,
        "policies": list(policies[:game.players]),
        "wins": won,
        "ties": int((kept_wins == -1).sum()),
        "win_rates": [w / done if done else 0.0 for w in won],
        "mean_scores": [float(m) for m in means],
        "ci95": [float(1.96 * s / math.sqrt(done)) if done else 0.0 for s in spread],
        "actions": int(actions),
        "seconds": seconds,
    }


def _play_one(game: Game, specs, seed: int, dealer: int, max_actions: int, scores,
              wins) -> int:
    """One game as play_many plays it (the same deal and dealer), through the API."""
    from solver.engine.players import play
    from solver.engine.playout import CUT_OFF

    state = game.new_initial_state(seed, dealer % game.players)
    players = [spec.make(seed * 8 + seat) for seat, spec in enumerate(specs)]
    play(state, players, max_actions)
    scores[:] = state.match_scores()[:scores.shape[0]]
    top = int(np.argmax(scores))
    wins[0] = -1 if (scores == scores[top]).sum() > 1 else top
    if not state.is_terminal():
        wins[0] = CUT_OFF
    return len(state.history)


def progress_bar(done, total, noun="games"):
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {noun}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def _members(game: Game, entity: int) -> str:
    seats = [s for s in range(game.players) if game.new_initial_state().entity_of(s) == entity]
    return ("seat " if len(seats) == 1 else "seats ") + "+".join(map(str, seats))


def cmd_simulate(args) -> int:
    game = _game(args)
    extra = [name for name in SEAT_OPTIONS[game.players:] if getattr(args, name)]
    if extra:
        raise BiribaError(f"--{extra[0]} names seat {extra[0][1]}, but {game.players} players "
                          f"sit at seats 0..{game.players - 1}")
    policies = [getattr(args, name) or "random" for name in SEAT_OPTIONS]
    progress = None if (args.quiet or args.json) else progress_bar
    check_counts(args.games, args.seed, args.max_actions)     # before any compiling
    for spec in policies[:game.players]:
        parse_spec(spec, game)
    ensure_compiled("simulate", _to_stderr)
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


def _to_stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# --- replay ---------------------------------------------------------------------------------


def cmd_replay(args) -> int:
    data = records.read(args.record)
    ensure_compiled("replay", _to_stderr)      # before the replay, which runs the engine
    state = records.from_record(data)
    if args.moves:
        replay = state.game.new_initial_state(state.seed, state.dealer)
        rounds = 0
        for index, action in enumerate(state.history):
            seat = replay.current_player()
            print(f"{index:>5}  round {replay.round_index + 1}  seat {seat}: "
                  f"{replay.action_to_string(action)}")
            replay.apply_trusted(action)
            if replay.round_index != rounds:
                rounds = replay.round_index
    if args.json:
        print(json.dumps({"actions": len(state.history), "terminal": state.is_terminal(),
                          "end_reason": state.end_reason, "round_scores": state.round_scores(),
                          "match_scores": state.match_scores()}))
        return 0
    print(str(state))
    print(f"replayed {len(state.history)} actions: {state.end_reason or 'not finished'}; "
          f"round scores {state.round_scores()}, match {state.match_scores()}")
    return 0


def cmd_compile(args) -> int:
    if args.workers is not None and not 1 <= args.workers <= 64:
        raise OutOfRangeError(f"--workers must be 1..64, got {args.workers}")
    started = time.perf_counter()
    seconds = compile_engine(report=_to_stderr, workers=args.workers)
    total = time.perf_counter() - started
    print(f"engine compiled ({', '.join(f'{p} {s:.0f} s' for p, s in seconds.items())}; "
          f"{total:.0f} s)" if seconds else "engine already compiled")
    return 0
