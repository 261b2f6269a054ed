"""Tournaments: several players on the same duplicate deals, with ratings and intervals.

Every pairing plays the same deals, each deal twice with the seats swapped
(:func:`analysis.duels.play_pair`), so the luck of the cards cancels within a deal pair
and is the same for every pairing. A *round-robin* pairs every two players, a *gauntlet*
the first player with each of the others. Each pairing is summed up as a duel is (the mean
lead per round with its 95% interval); the ratings are Bradley–Terry on the deal pairs won
(:mod:`analysis.ratings`), with intervals from a bootstrap over the deals.

A tournament's log is a file of JSON lines: the first holds its settings, every other one
a finished deal pair, appended as soon as it is played. :func:`run` with ``resume`` reads
the log, plays only the pairs it lacks, and ends with the results of a run straight
through: a pair's result depends on its players and its deal seed alone.
"""

from __future__ import annotations

import json
import math
import os
import time

from analysis import ratings as R
from analysis.charts import pyplot
from analysis import sprt
from analysis.duels import check_workers, play_all, play_pair, summary  # noqa: F401
from analysis.specs import parse_spec
from solver.engine.api import Game, check_seed
from solver.errors import BiribaError, OutOfRangeError
from solver.limits import MAX_DEALS

FORMATS = ("round-robin", "gauntlet")
ENGINES = ("local", "ray")
LOG_FORMAT = "biriba-tournament"
BOOTSTRAP_SAMPLES = 200
MAX_ENTRANTS = 16


class TournamentError(BiribaError):
    """A tournament that cannot run as asked: its players, its log."""


def pairings(entrants: int, form: str) -> list[tuple[int, int]]:
    if form == "round-robin":
        return [(i, j) for i in range(entrants) for j in range(i + 1, entrants)]
    if form == "gauntlet":
        return [(0, j) for j in range(1, entrants)]
    raise TournamentError(f"unknown format {form!r} (formats: {', '.join(FORMATS)})")


def settings(entrants, form="round-robin", deals=20, players=2, rules="classic", options=(),
             seed=0, match=False, sprt=None, make=True) -> dict:
    """The tournament's settings, checked: what its log's first line holds. ``make=False``
    checks the players' specifications without making the players (:func:`read_log`)."""
    entrants = list(entrants)
    if not 2 <= len(entrants) <= MAX_ENTRANTS:
        raise TournamentError(f"a tournament needs 2..{MAX_ENTRANTS} players, got "
                              f"{len(entrants)}")
    if len(set(entrants)) != len(entrants):
        raise TournamentError(f"a player is named twice in {' '.join(entrants)!r}")
    if not 1 <= deals <= MAX_DEALS:
        raise OutOfRangeError(f"--deals must be 1..{MAX_DEALS}, got {deals}")
    if players not in (2, 4):
        raise OutOfRangeError(f"--players must be 2 or 4, got {players}")
    pairings(len(entrants), form)
    if sprt is not None and len(entrants) != 2:
        raise TournamentError(f"--sprt tests two players, not {len(entrants)}")
    check_seed(seed, deals)
    game = Game(players, rules, *options, match=bool(match))   # refuses rules it cannot play
    for spec in entrants:
        parse_spec(spec, game, make)
    return {"format": LOG_FORMAT, "entrants": entrants, "pairing": form, "deals": deals,
            "players": players, "rules": rules, "options": list(options), "seed": seed,
            "match": bool(match), "sprt": list(sprt) if sprt is not None else None}


def tasks(config: dict) -> list[tuple[int, int, int]]:
    """Every (a, b, deal seed) of the tournament, deal by deal, so that a tournament stopped
    early has played every pairing on about as many deals."""
    pairs = pairings(len(config["entrants"]), config["pairing"])
    return [(a, b, config["seed"] + d) for d in range(config["deals"]) for a, b in pairs]


def read_log(path: str, make: bool = True) -> tuple[dict, list[dict]]:
    """The settings and the finished pairs of a tournament's log; ``make=False`` reads a log
    whose players cannot be made here (an extra not installed) for its standings."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = [line for line in handle if line.strip()]
    except OSError as error:
        raise TournamentError(f"cannot read the log {path!r}: {error.strerror}") from None
    try:
        rows = [json.loads(line) for line in lines]
    except json.JSONDecodeError as error:
        raise TournamentError(f"the log {path!r} is not JSON lines: {error}") from None
    if not rows or not isinstance(rows[0], dict) or rows[0].get("format") != LOG_FORMAT:
        raise TournamentError(f"{path!r} is not a tournament log (its first line holds the "
                              "settings)")
    config = rows[0]
    settings(config["entrants"], config["pairing"], config["deals"], config["players"],
             config["rules"], config["options"], config["seed"], config["match"],
             config.get("sprt"), make)
    known = set(tasks(config))
    done = []
    for row in rows[1:]:
        key = (row.get("a"), row.get("b"), row.get("seed"))
        if key not in known or not isinstance(row.get("diffs"), list):
            raise TournamentError(f"the log {path!r} holds a pair this tournament does not "
                                  f"play: {json.dumps(row)[:80]}")
        done.append(row)
    return config, done


def _play(job):
    config, a, b, seed = job
    game_args = (config["players"], config["rules"], tuple(config["options"]), config["match"])
    result = play_pair(game_args, config["entrants"][a], config["entrants"][b], seed)
    return {"a": a, "b": b, **result}


def run(config: dict, log_path: str | None = None, resume: bool = False, workers: int = 1,
        progress=None, anchor: int = 0, engine: str = "local", address: str | None = None
        ) -> dict:
    """Play the tournament's pairs not yet in the log; the standings (:func:`standings`).
    ``engine`` "local" plays them in ``workers`` processes, "ray" as Ray tasks
    (:mod:`analysis.cluster`; ``address`` names the cluster, none a local Ray of
    ``workers`` processors). Ctrl-C (or SIGTERM turned into KeyboardInterrupt) stops it
    with the pairs played."""
    check_workers(workers)
    if engine not in ENGINES:
        raise TournamentError(f"unknown engine {engine!r} (engines: {', '.join(ENGINES)})")
    ray = None
    if engine == "ray":
        from analysis import cluster

        ray = cluster.connect(address, workers)           # before any game, or refused
    done = []
    if resume:
        config, done = read_log(log_path, make=False)
        if len(done) < len(tasks(config)):            # pairs to play: the players made
            read_log(log_path)
    elif log_path is not None:
        if os.path.exists(log_path) and os.path.getsize(log_path) > 0:
            raise TournamentError(f"the log {log_path!r} exists: --resume it, or name "
                                  "another file")
        with open(log_path, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(config) + "\n")
    finished = {(row["a"], row["b"], row["seed"]) for row in done}
    todo = [task for task in tasks(config) if task not in finished]
    pairs = list(done)
    started = time.perf_counter()
    jobs = [(config, a, b, seed) for a, b, seed in todo]
    log = open(log_path, "a", encoding="utf-8") if log_path is not None else None
    settled = _settled(config)
    interrupted = False
    try:
        if settled is None or not settled(pairs):      # a resumed test may be settled
            if ray is not None:
                from analysis import cluster

                interrupted = cluster.play_all(ray, _play, jobs, pairs, log, progress,
                                               len(done) + len(todo), settled)
            else:
                interrupted = play_all(_play, jobs, workers, pairs, log, progress,
                                       len(done) + len(todo), settled)
    finally:
        if log is not None:
            log.close()
    return standings(config, pairs, time.perf_counter() - started, interrupted, anchor)


def standings(config: dict, pairs: list[dict], seconds: float = 0.0,
              interrupted: bool = False, anchor: int = 0) -> dict:
    """Each pairing as a duel's summary, and every player's rating with its interval."""
    entrants = config["entrants"]
    pairs = sorted(pairs, key=lambda p: (p["seed"], p["a"], p["b"]))
    by_pairing: dict[tuple[int, int], list[dict]] = {}
    games: dict[int, list] = {}
    for pair in pairs:
        by_pairing.setdefault((pair["a"], pair["b"]), []).append(pair)
        games.setdefault(pair["seed"], []).append((pair["a"], pair["b"], _score(pair)))
    rated, low, high = R.bootstrap(len(entrants), games, anchor, BOOTSTRAP_SAMPLES,
                                   config["seed"])
    table = []
    for (a, b), rows in sorted(by_pairing.items()):
        duel = summary(entrants[a], entrants[b], rows, config["players"], config["rules"], 0.0,
                       match=config["match"])
        row = {key: duel[key] for key in ("a", "b", "deals", "mean_diff", "wins", "ties",
                                          "seconds_per_decision")}
        row["ci95"] = [_finite(value) for value in duel["ci95"]]
        table.append(row)
    order = sorted(range(len(entrants)), key=lambda i: -rated[i])
    test = _sprt(config, pairs) if config.get("sprt") else None
    return {
        "entrants": entrants, "pairing": config["pairing"], "players": config["players"],
        "rules": config["rules"], "seed": config["seed"], "deals": config["deals"],
        "pairs": len(pairs), "pairs_planned": len(tasks(config)),
        "pairings": table,
        "ratings": [{"player": entrants[i], "rating": _finite(rated[i]),
                     "ci95": [_finite(low[i]), _finite(high[i])]} for i in order],
        "anchor": entrants[anchor], "seconds": seconds, "interrupted": interrupted,
        "sprt": test,
    }


def _score(pair) -> float:
    lead = sum(pair["diffs"]) / 2
    return 1.0 if lead > 0 else 0.0 if lead < 0 else 0.5


def _settled(config):
    """With --sprt: whether the pairs played settle the test; else None (play them all)."""
    if not config.get("sprt"):
        return None
    return lambda pairs: _sprt(config, pairs)["verdict"] != "continue"


def _sprt(config, pairs) -> dict:
    """The sequential test on the pairs played (A the first player)."""
    elo0, elo1 = config["sprt"]
    return sprt.verdict([_score(pair) for pair in pairs], elo0, elo1)


def _finite(value: float) -> float | None:
    return float(value) if math.isfinite(value) else None


def plot(result: dict, path: str) -> None:
    """The ratings as a chart with their 95% intervals as error bars, best first."""
    plt = pyplot()
    rows = result["ratings"]
    names = [row["player"] for row in rows]
    values = [row["rating"] for row in rows]
    below = [row["rating"] - row["ci95"][0] if row["ci95"][0] is not None else 0 for row in rows]
    above = [row["ci95"][1] - row["rating"] if row["ci95"][1] is not None else 0 for row in rows]
    figure, axes = plt.subplots(figsize=(max(4.0, 1.2 * len(rows) + 2), 4))
    axes.errorbar(range(len(rows)), values, yerr=[below, above], fmt="o", capsize=4)
    axes.set_xticks(range(len(rows)), names, rotation=20, ha="right")
    axes.axhline(0, color="grey", linewidth=0.5)
    axes.set_ylabel(f"rating (Elo points against {result['anchor']})")
    axes.set_title(f"{result['pairs']} deal pairs, {result['rules']}, {result['players']} "
                   "players\nratings with their 95% bootstrap intervals", fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def lines(result: dict) -> list[str]:
    """The standings as a person reads them."""
    out = [f"{result['pairs']} of {result['pairs_planned']} deal pairs, {result['rules']}, "
           f"{result['players']} players ({result['pairing']})", "",
           f"{'player':<32} {'rating':>7}  {'95% interval':>16}"]
    for row in result["ratings"]:
        low, high = row["ci95"]
        shown = f"[{low:+.0f}, {high:+.0f}]" if low is not None and high is not None else "-"
        out.append(f"{row['player'][:32]:<32} {row['rating']:>+7.0f}  {shown:>16}")
    out += ["", f"{'A':<24} {'B':<24} {'deals':>5} {'A - B per round':>16} "
            f"{'95% interval':>18}"]
    for row in result["pairings"]:
        low, high = row["ci95"]
        shown = f"[{low:+.1f}, {high:+.1f}]" if low is not None and high is not None else "-"
        out.append(f"{row['a'][:24]:<24} {row['b'][:24]:<24} {row['deals']:>5} "
                   f"{row['mean_diff']:>+16.1f} {shown:>18}")
    swept = [f"{row['a']} - {row['b']}" for row in result["pairings"]
             if row["deals"] and row["wins"][0] + row["ties"] == 0
             or row["deals"] and row["wins"][1] + row["ties"] == 0]
    if swept:
        out.append(f"({', '.join(swept)}: one side won every round, so the bootstrap cannot "
                   "see how far apart they are: the ratings rest on the prior's virtual pair, "
                   "their intervals are too narrow)")
    test = result.get("sprt")
    if test:
        said = {"H1": f"A gains at least {test['elo1']:+g} Elo (H1)",
                "H0": f"A gains at most {test['elo0']:+g} Elo (H0)",
                "continue": "not settled"}[test["verdict"]]
        out.append(f"SPRT [{test['elo0']:+g}, {test['elo1']:+g}]: {said} after {test['pairs']} "
                   f"deal pairs (LLR {test['llr']:+.2f}, bounds [{test['lower']:+.2f}, "
                   f"{test['upper']:+.2f}])")
    out.append(f"(ratings: Bradley-Terry on the deal pairs won, Elo points against "
               f"{result['anchor']}; intervals: {BOOTSTRAP_SAMPLES} bootstrap resamples of "
               "the deals)")
    return out
