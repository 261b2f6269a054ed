"""``biriba play``, ``biriba simulate`` and ``biriba replay``: the engine at the terminal."""

from __future__ import annotations

import json
import math
import sys
import time

import numpy as np

from solver.engine import records
from solver.engine.api import Game
from solver.engine.players import POLICY_CODES, make_player
from solver.errors import BiribaError

SEAT_OPTIONS = tuple(f"p{seat}" for seat in range(6))


def add_game_commands(commands, add_rules_arguments) -> None:
    play = commands.add_parser("play", help="play a round (or a match) against the computer")
    play.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 6))
    add_rules_arguments(play)
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument("--seed", type=int, default=0, help="deal seed (default 0)")
    play.add_argument("--opponents", default="greedy", choices=tuple(POLICY_CODES),
                      help="the computer players (default greedy)")
    play.add_argument("--match", action="store_true", help="play rounds until the target")
    play.add_argument("--save", metavar="FILE", help="write the game's JSON record here")
    play.set_defaults(handler=cmd_play)

    simulate = commands.add_parser("simulate", help="computer games: win rates and scores")
    simulate.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 6))
    add_rules_arguments(simulate)
    simulate.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    simulate.add_argument("--seed", type=int, default=0, help="first deal seed (default 0)")
    for name in SEAT_OPTIONS:
        simulate.add_argument(f"--{name}", default="random", choices=tuple(POLICY_CODES),
                              help=f"the player at seat {name[1]} (default random)")
    simulate.add_argument("--match", action="store_true",
                          help="each game is a match to the target (default: one round)")
    simulate.add_argument("--max-actions", type=int, default=100_000,
                          help="stop a game after this many actions (default 100000)")
    simulate.add_argument("--quiet", action="store_true", help="no progress bar")
    simulate.add_argument("--json", action="store_true", help="one JSON object")
    simulate.set_defaults(handler=cmd_simulate)

    replay = commands.add_parser("replay", help="replay a saved JSON record and check it")
    replay.add_argument("record", help="the record file")
    replay.add_argument("--json", action="store_true", help="one JSON object")
    replay.set_defaults(handler=cmd_replay)


def _game(args) -> Game:
    return Game(args.players, args.rules, *args.option, match=args.match)


# --- simulate ---------------------------------------------------------------------------


def simulate(game: Game, policies, games: int, seed: int = 0, max_actions: int = 100_000,
             progress=None) -> dict:
    """Play ``games`` seeded games in the playout kernel; the summary per team (entity)."""
    from solver.engine.playout import play_many

    if games < 1:
        raise BiribaError(f"--games must be at least 1, got {games}")
    codes = np.array([POLICY_CODES[name] for name in policies[:game.players]], dtype=np.int64)
    entities = game.entities
    scores = np.zeros((games, entities), dtype=np.int64)
    wins = np.zeros(games, dtype=np.int64)
    chunk = max(1, min(games // 50, 200))
    actions = 0
    started = time.perf_counter()
    for first in range(0, games, chunk):
        count = min(chunk, games - first)
        actions += play_many(*game.engine, codes, seed + first, count, int(game.match),
                             max_actions, scores[first:first + count], wins[first:first + count])
        if progress:
            progress(first + count, games)
    seconds = time.perf_counter() - started
    won = [int((wins == entity).sum()) for entity in range(entities)]
    means = scores.mean(axis=0)
    spread = scores.std(axis=0, ddof=1) if games > 1 else np.zeros(entities)
    return {
        "games": games,
        "players": game.players,
        "rules": game.rules.name,
        "match": game.match,
        "policies": list(policies[:game.players]),
        "wins": won,
        "ties": int((wins < 0).sum()),
        "win_rates": [w / games for w in won],
        "mean_scores": [float(m) for m in means],
        "ci95": [float(1.96 * s / math.sqrt(games)) for s in spread],
        "actions": int(actions),
        "seconds": seconds,
    }


def _progress_bar(done, total):
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def _members(game: Game, entity: int) -> str:
    seats = [s for s in range(game.players) if game.new_initial_state().entity_of(s) == entity]
    return ("seat " if len(seats) == 1 else "seats ") + "+".join(map(str, seats))


def cmd_simulate(args) -> int:
    game = _game(args)
    policies = [getattr(args, name) for name in SEAT_OPTIONS]
    progress = None if (args.quiet or args.json) else _progress_bar
    result = simulate(game, policies, args.games, args.seed, args.max_actions, progress)
    if args.json:
        print(json.dumps(result))
        return 0
    what = "matches" if game.match else "rounds"
    print(f"{args.games} {what} of {game.rules.name}, {game.players} players "
          f"({', '.join(f'seat {s}: {p}' for s, p in enumerate(result['policies']))})")
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
    return 0


# --- play ------------------------------------------------------------------------------------


def _ask(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        return None


def _human_choice(state, out) -> int | None:
    legal = state.legal_actions()
    texts = [state.action_to_string(action) for action in legal]
    print(str(state), file=out)
    for number, text in enumerate(texts):
        print(f"  {number:>3}  {text}", file=out)
    while True:
        answer = _ask("your move (number or text, 'q' to quit): ")
        if answer is None or answer.strip().lower() in ("q", "quit", "exit"):
            return None
        answer = answer.strip()
        if answer.isdigit() and int(answer) < len(legal):
            return legal[int(answer)]
        lowered = " ".join(answer.lower().split())
        matches = [a for a, t in zip(legal, texts) if t.lower() == lowered]
        if matches:
            return matches[0]
        if answer.isdigit():
            print(f"  {answer!r}: choose a number from 0 to {len(legal) - 1}", file=out)
        else:
            print(f"  {answer!r} is not one of the moves listed (type its number, or its text "
                  "exactly as shown)", file=out)


def cmd_play(args) -> int:
    game = _game(args)
    if not 0 <= args.seat < game.players:
        raise BiribaError(f"--seat must be 0..{game.players - 1}, got {args.seat}")
    state = game.new_initial_state(args.seed)
    computers = {seat: make_player(args.opponents, args.seed + seat)
                 for seat in range(game.players) if seat != args.seat}
    out = sys.stdout
    round_index = 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat == args.seat:
            action = _human_choice(state, out)
            if action is None:
                print("game left", file=out)
                break
        else:
            action = computers[seat].choose(state)
        text = state.action_to_string(action)
        state.apply_action(action)
        if seat != args.seat:
            print(f"seat {seat}: {text}", file=out)
        if game.match and state.round_index != round_index:
            round_index = state.round_index
            print(f"round over: scores {state.round_scores()}, match {state.match_scores()}",
                  file=out)
    if state.is_terminal():
        print(str(state), file=out)
        print(f"{state.end_reason}: round scores {state.round_scores()}, "
              f"match {state.match_scores()}", file=out)
    if args.save:
        records.save(state, args.save)
        print(f"record written to {args.save}", file=out)
    return 0


# --- replay ---------------------------------------------------------------------------------


def cmd_replay(args) -> int:
    state = records.load(args.record)
    if args.json:
        print(json.dumps({"actions": len(state.history), "terminal": state.is_terminal(),
                          "end_reason": state.end_reason, "round_scores": state.round_scores(),
                          "match_scores": state.match_scores()}))
        return 0
    print(str(state))
    print(f"replayed {len(state.history)} actions: {state.end_reason or 'not finished'}; "
          f"round scores {state.round_scores()}, match {state.match_scores()}")
    return 0
