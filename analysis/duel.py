"""``biriba duel A B``: duplicate deals between two players, for strength claims.

Every deal is played twice with the seats swapped (A at the seats of team 0, then of team
1; with four players A holds both seats of one team), so the luck of the cards cancels in
the pair. The figure is the mean, over deal pairs, of A's round score less B's (averaged
over the pair), with its 95% interval; round wins count each round apart. With ``--match``
each deal starts a whole match (rounds until the target) and the figures are the final
match scores and the matches won.
"""

from __future__ import annotations

import functools
import json
import math
import signal
import sys
import time

import numpy as np

from analysis.games import progress_bar
from analysis.specs import parse_spec
from solver.engine.api import Game, check_seed
from solver.engine.players import play
from solver.errors import OutOfRangeError

MAX_DEALS = 1_000_000


def add_duel_command(commands, add_rules_arguments) -> None:
    duel = commands.add_parser("duel", help="two players on duplicate deals (seats swapped)")
    duel.add_argument("a", metavar="A", help="a player: random, greedy, ismcts:iterations=400")
    duel.add_argument("b", metavar="B", help="the other player")
    duel.add_argument("--deals", type=int, default=20, help="deals, each played twice (20)")
    duel.add_argument("--players", type=int, default=2, choices=(2, 4))
    add_rules_arguments(duel)
    duel.add_argument("--seed", type=int, default=0, help="first deal seed (default 0)")
    duel.add_argument("--workers", type=int, default=1, help="processes playing deals (1)")
    duel.add_argument("--match", action="store_true",
                      help="play whole matches (rounds until the target), not rounds")
    duel.add_argument("--quiet", action="store_true", help="no progress bar")
    duel.add_argument("--json", action="store_true", help="one JSON object")
    duel.add_argument("--log", metavar="FILE", help="append each deal pair as a JSON line "
                      "as soon as it is played (long duels)")
    duel.set_defaults(handler=cmd_duel)


class _Timed:
    """A player whose decisions are timed."""

    def __init__(self, player):
        self.player = player
        self.calls = 0
        self.seconds = 0.0

    def choose(self, state):
        started = time.perf_counter()
        action = self.player.choose(state)
        self.seconds += time.perf_counter() - started
        self.calls += 1
        return action


def play_pair(game_args, a: str, b: str, seed: int) -> dict:
    """Deal ``seed`` twice, A at team 0's seats, then at team 1's; A's view of both rounds."""
    players, rules, options, match = game_args
    game = Game(players, rules, *options, match=match)
    spec_a, spec_b = parse_spec(a), parse_spec(b)
    diffs, seconds, calls = [], [0.0, 0.0], [0, 0]
    for swap in (0, 1):
        seats = []
        for seat in range(players):
            is_a = (seat % 2) == swap
            spec = spec_a if is_a else spec_b
            seats.append(_Timed(spec.make(seed * 16 + seat * 2 + swap)))
        state = play(game.new_initial_state(seed, 0), seats)
        scores = state.match_scores() if match else state.round_scores()
        diffs.append(scores[swap] - scores[1 - swap])
        for seat, timed in enumerate(seats):
            side = 0 if (seat % 2) == swap else 1
            seconds[side] += timed.seconds
            calls[side] += timed.calls
    return {"seed": seed, "diffs": diffs, "seconds": seconds, "calls": calls}


def _job(job):
    return play_pair(*job)


def duel(a: str, b: str, deals: int, players: int = 2, rules: str = "classic",
         options=(), seed: int = 0, workers: int = 1, progress=None, log=None,
         match: bool = False) -> dict:
    if not 1 <= deals <= MAX_DEALS:
        raise OutOfRangeError(f"--deals must be 1..{MAX_DEALS}, got {deals}")
    if not 1 <= workers <= 64:
        raise OutOfRangeError(f"--workers must be 1..64, got {workers}")
    check_seed(seed, deals)
    game = Game(players, rules, *options, match=bool(match))   # refuses rules it cannot play
    parse_spec(a, game), parse_spec(b, game)
    jobs = [((players, rules, tuple(options), bool(match)), a, b, seed + d)
            for d in range(deals)]
    pairs = []
    started = time.perf_counter()
    interrupted = False
    try:
        if workers == 1:
            played = map(_job, jobs)
        else:
            import multiprocessing

            pool = multiprocessing.get_context("fork").Pool(workers)
            played = pool.imap(_job, jobs)
        for pair in played:
            pairs.append(pair)
            if log is not None:
                log.write(json.dumps(pair) + "\n")
                log.flush()
            if progress:
                progress(len(pairs), deals)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if workers > 1:
            pool.terminate()
    return summary(a, b, pairs, players, rules, time.perf_counter() - started, interrupted,
                   match)


def summary(a, b, pairs, players, rules, seconds, interrupted=False, match=False) -> dict:
    means = np.array([sum(p["diffs"]) / 2 for p in pairs], dtype=np.float64)
    rounds = [d for p in pairs for d in p["diffs"]]
    n = len(means)
    mean = float(means.mean()) if n else 0.0
    half = float(1.96 * means.std(ddof=1) / math.sqrt(n)) if n > 1 else math.inf
    spent = [sum(p["seconds"][side] for p in pairs) for side in (0, 1)]
    calls = [sum(p["calls"][side] for p in pairs) for side in (0, 1)]
    return {
        "a": a, "b": b, "players": players, "rules": rules,
        "deals": n, "rounds": 2 * n, "mean_diff": mean, "ci95": [mean - half, mean + half],
        "wins": [sum(d > 0 for d in rounds), sum(d < 0 for d in rounds)],
        "ties": sum(d == 0 for d in rounds),
        "seconds_per_decision": [spent[s] / calls[s] if calls[s] else 0.0 for s in (0, 1)],
        "seconds": seconds, "interrupted": interrupted, "match": bool(match),
    }


def _stop(signum, frame):
    raise KeyboardInterrupt


def cmd_duel(args) -> int:
    from solver.engine.warm import ensure_compiled

    game = Game(args.players, args.rules, *args.option, match=args.match)
    parse_spec(args.a, game), parse_spec(args.b, game)
    if not 1 <= args.deals <= MAX_DEALS:
        raise OutOfRangeError(f"--deals must be 1..{MAX_DEALS}, got {args.deals}")
    ensure_compiled("simulate", lambda text: print(text, file=sys.stderr, flush=True))
    progress = None if (args.quiet or args.json) else functools.partial(progress_bar,
                                                                        noun="deals")
    signal.signal(signal.SIGTERM, _stop)      # a killed duel still reports what it played
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    try:
        result = duel(args.a, args.b, args.deals, args.players, args.rules,
                      tuple(args.option), args.seed, args.workers, progress, log, args.match)
    finally:
        if log is not None:
            log.close()
    if result["interrupted"]:
        print(f"\ninterrupted: {result['deals']} of {args.deals} deals played", file=sys.stderr)
    if args.json:
        print(json.dumps(result))
        return 130 if result["interrupted"] else 0
    low, high = result["ci95"]
    one, many = ("match", "matches") if args.match else ("round", "rounds")
    print(f"{result['deals']} deals x 2 {many} of {args.rules}, {args.players} players: "
          f"A = {args.a}, B = {args.b}")
    scores = " (final match scores)" if args.match else ""
    print(f"A - B per {one}{scores}: {result['mean_diff']:+.1f} points, 95% interval "
          f"[{low:+.1f}, {high:+.1f}]")
    rounds = result["rounds"]
    print(f"{many} won: A {result['wins'][0]} ({result['wins'][0] / rounds:.1%}), "
          f"B {result['wins'][1]} ({result['wins'][1] / rounds:.1%}), ties {result['ties']}")
    spa, spb = result["seconds_per_decision"]
    print(f"seconds per decision: A {spa:.4f}, B {spb:.4f}; {result['seconds']:.1f} s in all")
    return 130 if result["interrupted"] else 0
