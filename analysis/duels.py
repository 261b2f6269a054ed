"""``biriba duel A B``: duplicate deals between two players, for strength claims.

Every deal is played twice with the seats swapped (A at the seats of team 0, then of team
1; with four players A holds both seats of one team), so the luck of the cards cancels in
the pair. The figure is the mean, over deal pairs, of A's round score less B's (averaged
over the pair), with its 95% interval; round wins count each round apart. With ``--match``
each deal starts a whole match (rounds until the target) and the figures are the final
match scores and the matches won.
"""

from __future__ import annotations

import json
import math
import time

import numpy as np

from analysis.specs import parse_spec
from solver.engine.api import Game, check_seed
from solver.engine.players import play
from solver.errors import OutOfRangeError
from solver.limits import MAX_DEALS, MAX_WORKERS  # noqa: F401



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


def check_workers(workers: int) -> None:
    if not 1 <= workers <= MAX_WORKERS:
        raise OutOfRangeError(f"--workers must be 1..{MAX_WORKERS}, got {workers}")


def duel(a: str, b: str, deals: int, players: int = 2, rules: str = "classic",
         options=(), seed: int = 0, workers: int = 1, progress=None, log=None,
         match: bool = False) -> dict:
    if not 1 <= deals <= MAX_DEALS:
        raise OutOfRangeError(f"--deals must be 1..{MAX_DEALS}, got {deals}")
    check_workers(workers)
    check_seed(seed, deals)
    game = Game(players, rules, *options, match=bool(match))   # refuses rules it cannot play
    parse_spec(a, game), parse_spec(b, game)
    jobs = [((players, rules, tuple(options), bool(match)), a, b, seed + d)
            for d in range(deals)]
    pairs = []
    started = time.perf_counter()
    interrupted = play_all(_job, jobs, workers, pairs, log, progress, deals)
    return summary(a, b, pairs, players, rules, time.perf_counter() - started, interrupted,
                   match)


def record(pair: dict, pairs: list, log=None, progress=None, total: int = 0,
           stop=None) -> bool:
    """Take a finished pair: into ``pairs``, into the open ``log`` as a JSON line at once,
    ``progress(done, total)``; whether ``stop(pairs)`` says to play no more."""
    pairs.append(pair)
    if log is not None:
        log.write(json.dumps(pair) + "\n")
        log.flush()
    if progress:
        progress(len(pairs), total)
    return stop is not None and bool(stop(pairs))


def play_all(play_one, jobs, workers: int, pairs: list, log=None, progress=None,
             total: int = 0, stop=None) -> bool:
    """Play ``jobs`` with ``play_one`` (in ``workers`` forked processes when above 1),
    appending each result to ``pairs`` and, as a JSON line, to the open file ``log`` as soon
    as it is played; ``progress(done, total)`` after each; ``stop(pairs)`` true ends the run
    early. Whether Ctrl-C (or SIGTERM made KeyboardInterrupt) stopped it."""
    pool = None
    try:
        if workers == 1 or len(jobs) < 2:
            played = map(play_one, jobs)
        else:
            import multiprocessing

            pool = multiprocessing.get_context("fork").Pool(workers, initializer=_quiet_worker)
            played = pool.imap(play_one, jobs)
        for pair in played:
            if record(pair, pairs, log, progress, total, stop):
                break
    except KeyboardInterrupt:
        return True
    finally:
        if pool is not None:
            pool.terminate()
    return False


def _quiet_worker() -> None:
    """A pool worker leaves Ctrl-C to its parent (which stops the pool) and dies of SIGTERM
    without a traceback: the parent's SIGTERM handler is not its own."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


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


