"""Can a player trust the verdicts? The benchmarks of the evaluation (solver.search.evaluate).

    python -m benchmarks.trust stability [--positions 200] [--seconds 10]
    python -m benchmarks.trust examples [--seeds 20]
    python -m benchmarks.trust review-time [--deal 5]
    python -m benchmarks.trust agreement [--games 10]
    python -m benchmarks.trust calibration [--rounds 20] [--continuation expert] [--games DIR]
    python -m benchmarks.trust recheck FIGURES.json --games DIR [--iterations 30000]

- ``stability``: seeded decision positions, half with 2 players and half with 4, half in
  the draw phase and half in the play phase (greedy play from a seeded deal); each is
  analyzed twice at the default settings (``biriba analyze``'s cap), seeds 1 and 2. Among
  the positions where either analysis calls its best separated, the share where both name
  the same best.
- ``examples``: ``biriba analyze``'s function on each example position, wall time per
  seed; and for ``discard_feeds_the_opponent.json`` whether the feeding discard (JC) is
  ranked last or graded a loss (separated from the best), per seed.
- ``review-time``: the review of a 2-player greedy round at the default settings.
- ``agreement``: the coach against the review, decision by decision, on greedy games.
- ``calibration``: reviews of 2-player rounds played by random, greedy and
  ``ismcts:seconds=0.5`` (both seats), and the share of ``ismcts:seconds=2``'s decisions
  graded blunders.
- ``recheck``: each blunder of a calibration, judged again with more rollouts and another
  seed (is the grade noise?), and the ISMCTS search's choice there with four times its
  iterations (does a longer search play the evaluation's best?).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from pathlib import Path

from solver.engine.api import Game
from solver.engine.players import GreedyPlayer
from solver.search.search import ROLLOUTS

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def decision_positions(count: int, seed: int = 0) -> list:
    """``count`` seeded states with a real decision: a quarter each of (2, 4 players) x
    (draw, play phase)."""
    from solver.search.search import available_decisions

    wanted = {(players, phase): count // 4 + (i < count % 4)
              for i, (players, phase) in enumerate(
                  [(2, "draw"), (2, "play"), (4, "draw"), (4, "play")])}
    found = []
    greedy = GreedyPlayer()
    deal = seed
    while any(wanted.values()):
        for players in (2, 4):
            state = Game(players).new_initial_state(deal)
            steps = 6 + (deal * 37) % 90
            for _ in range(steps):
                if state.is_terminal():
                    break
                state.apply_action(greedy.choose(state))
            key = (players, state.phase)
            if not state.is_terminal() and wanted.get(key) and \
                    len(available_decisions(state)) > 1:
                wanted[key] -= 1
                found.append(state)
        deal += 1
    return found


def stability(count: int, seconds: float | None, first: int = 0) -> dict:
    """``first``: skip the positions before it (a long run in parts: the positions of a
    larger count include those of a smaller one, a quarter of each kind)."""
    from analysis.analyzer import analyze

    positions = decision_positions(count)
    if first:
        kept = decision_positions(first)
        done = {(s.game.players, s.seed, len(s.history)) for s in kept}
        positions = [s for s in positions
                     if (s.game.players, s.seed, len(s.history)) not in done]
    agree = called = 0
    walls = []
    rows = []
    for number, state in enumerate(positions):
        results = []
        for seed in (1, 2):
            began = time.perf_counter()
            results.append(analyze(state, seconds=seconds, seed=seed))
            walls.append(time.perf_counter() - began)
        first, second = (r.decisions[0]["decision"] for r in results)
        either = any(r.verdict == "separated" for r in results)
        if either:
            called += 1
            agree += first == second
        rows.append({"players": state.game.players, "phase": state.phase, "best": [
            first, second], "verdicts": [r.verdict for r in results]})
        print(f"{number + 1}/{len(positions)}: {first!r} / {second!r} "
              f"{[r.verdict for r in results]}", flush=True)
    return {"positions": len(positions), "separated_in_either": called,
            "same_best": agree, "share": agree / called if called else None,
            "wall_median_s": statistics.median(walls), "wall_max_s": max(walls),
            "rows": rows}


def examples(seeds: int) -> dict:
    from analysis.analyzer import analyze, load_position

    out = {}
    for path in sorted(EXAMPLES.glob("*.json")):
        position = load_position(path)
        walls, verdicts, feeding = [], [], []
        for seed in range(1, seeds + 1):
            began = time.perf_counter()
            result = analyze(position, seed=seed)
            walls.append(time.perf_counter() - began)
            verdicts.append(result.verdict)
            if path.name == "discard_feeds_the_opponent.json":
                names = [row["decision"] for row in result.decisions]
                jc = next(row for row in result.decisions if row["decision"] == "discard JC")
                feeding.append(names[-1] == "discard JC" or bool(jc["separated"]
                                                                 and jc["loss"]))
        apart = [w for w, v in zip(walls, verdicts) if v == "separated"]
        out[path.name] = {"wall_median_s": statistics.median(walls),
                          "wall_max_s": max(walls),
                          "separated": verdicts.count("separated"), "seeds": seeds,
                          "wall_separated_median_s": statistics.median(apart) if apart
                          else None,
                          "wall_separated_max_s": max(apart) if apart else None,
                          "walls": [round(w, 2) for w in walls], "verdicts": verdicts}
        if feeding:
            out[path.name]["feeding_last_or_graded"] = sum(feeding)
        print(path.name, out[path.name], flush=True)
    return out


def _greedy_round(deal: int):
    from solver.engine.players import play

    return play(Game(2).new_initial_state(deal), [GreedyPlayer(), GreedyPlayer()])


def review_time(deal: int) -> dict:
    from analysis.reviewer import review

    state = _greedy_round(deal)
    began = time.perf_counter()
    result = review(state)
    wall = time.perf_counter() - began
    out = {"deal": deal, "actions": len(state.history), "decisions": len(result.decisions),
           "wall_s": wall}
    print(out, flush=True)
    return out


def agreement(games: int) -> dict:
    """The coach's lines against the review's, decision point by decision point (the coach
    sees the game as it stood once the decision was played)."""
    from analysis.reviewer import coach, coach_line, review

    same = total = 0
    for deal in range(games):
        final = _greedy_round(100 + deal)
        by_index: dict[int, list] = {}
        for d in review(final, seats=[0]).decisions:
            by_index.setdefault(d.index, []).append(coach_line(d))
        for index, lines in by_index.items():
            total += 1
            same += coach(_upto(final, index), 0, index, index) == lines
        print(f"game {deal}: {same}/{total} decision points graded alike so far", flush=True)
    return {"games": games, "decision_points": total, "same": same}


def _upto(final, index):
    """The game as it stood when the decision at ``index`` was played (its lay-down and
    the action after it)."""
    from solver.engine import layout as L

    state = final.game.new_initial_state(final.seed, final.dealer)
    history = final.history
    end = index
    while end < len(history) and history[end] >> L.TYPE_SHIFT in (L.ACTION_LAY,
                                                                    L.ACTION_EXTEND):
        end += 1
    for action in history[:end + 1]:
        state.apply_trusted(action)
    return state


def calibration(rounds: int, specs, continuation: str = "greedy", games=None) -> dict:
    """Reviews of ``rounds`` 2-player rounds of each player of ``specs`` (both seats), with
    the evaluation's ``continuation``. With ``games`` (a folder) each round is saved there
    when first played and read back after, so that two runs review the same games."""
    from analysis.reviewer import review
    from analysis.specs import parse_spec
    from solver.engine import records
    from solver.engine.players import play

    out = {}
    for spec in specs:
        losses, grades, decisions, blunders = [], {"blunder": 0}, 0, []
        for deal in range(rounds):
            path = None if games is None else Path(games) / f"{_file_name(spec)}-{deal}.json"
            if path is not None and path.exists():
                final = records.load(path)
            else:
                players = [parse_spec(spec).make(deal * 2 + s) for s in range(2)]
                final = play(Game(2).new_initial_state(1000 + deal), players)
                if path is not None:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    records.save(final, path)
            result = review(final, continuation=continuation)
            for d in result.decisions:
                decisions += 1
                grades["blunder"] += d.grade == "blunder"
                if d.grade == "blunder":
                    blunders.append({"deal": deal, "index": d.index, "played": d.played,
                                     "best": d.best, "loss": round(d.loss, 1)})
                if not d.obvious:
                    losses.append(d.loss)
        n = len(losses)
        mean = sum(losses) / n
        half = 1.96 * statistics.stdev(losses) / math.sqrt(n)
        out[spec] = {"rounds": rounds, "continuation": continuation, "decisions": decisions,
                     "counted": n, "mean_loss": mean, "ci95": [mean - half, mean + half],
                     "accuracy": 100 * math.exp(-mean / 100),
                     "blunder_share": grades["blunder"] / decisions, "blunders": blunders}
        print(spec, {k: v for k, v in out[spec].items() if k != "blunders"}, flush=True)
    return out


def recheck(figures: str, games: str, iterations: int, search_iterations: int,
            continuation: str) -> dict:
    """Each blunder of a calibration's JSON (``figures``, its games in the folder
    ``games``), judged again with ``iterations`` rollouts and another seed under the
    ``continuation``, and searched by ISMCTS with ``search_iterations`` and two seeds: is
    the grade noise, and does a longer search choose the evaluation's best?"""
    from analysis.reviewer import PLANS_ALL, _judge, decision_points
    from solver.engine import records
    from solver.search.search import search

    data = json.loads(Path(figures).read_text())
    rows = []
    for spec, figure in data.items():
        by_deal: dict[int, dict[int, dict]] = {}
        for blunder in figure["blunders"]:
            by_deal.setdefault(blunder["deal"], {})[blunder["index"]] = blunder
        for deal, found in sorted(by_deal.items()):
            final = records.load(Path(games) / f"{_file_name(spec)}-{deal}.json")
            seats = list(range(final.game.players))
            for current, index, actions, stage in decision_points(final, seats):
                if index not in found:
                    continue
                again = _judge(current, index, actions, stage, iterations, None, 7, 2,
                               PLANS_ALL, continuation)
                chosen = [search(current, iterations=search_iterations, seed=seed,
                                 stage=stage).best.name for seed in (11, 12)]
                row = {"spec": spec, "deal": deal, "index": index,
                       "played": found[index]["played"], "best": found[index]["best"],
                       "loss": found[index]["loss"], "again_best": again.best,
                       "again_loss": round(again.loss, 1), "again_grade": again.grade,
                       "longer_search": chosen}
                rows.append(row)
                print(json.dumps(row), flush=True)
    still = sum(r["again_grade"] == "blunder" for r in rows)
    graded = sum(bool(r["again_grade"]) for r in rows)
    return {"blunders": len(rows), "still_blunders": still, "still_graded": graded,
            "continuation": continuation, "iterations": iterations,
            "search_iterations": search_iterations, "rows": rows}


def _file_name(spec: str) -> str:
    return "".join(c if c.isalnum() or c in "=." else "_" for c in spec)


def _split_specs(text: str) -> list[str]:
    """'random,greedy,ismcts:seconds=0.5' -> the three (a comma inside an ismcts spec's
    options stays with it)."""
    specs: list[str] = []
    for part in text.split(","):
        if specs and "=" in part and ":" not in part:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.trust")
    commands = parser.add_subparsers(dest="command", required=True)
    one = commands.add_parser("stability")
    one.add_argument("--positions", type=int, default=200)
    one.add_argument("--seconds", type=float)
    one.add_argument("--first", type=int, default=0,
                     help="skip the positions of --positions FIRST (run a long one in parts)")
    one = commands.add_parser("examples")
    one.add_argument("--seeds", type=int, default=20)
    one = commands.add_parser("review-time")
    one.add_argument("--deal", type=int, default=5)
    one = commands.add_parser("agreement")
    one.add_argument("--games", type=int, default=10)
    one = commands.add_parser("calibration")
    one.add_argument("--rounds", type=int, default=20)
    one.add_argument("--specs", default="random,greedy,ismcts:seconds=0.5,ismcts:seconds=2",
                     help="the players, comma-separated")
    one.add_argument("--continuation", default="greedy", choices=tuple(ROLLOUTS),
                     help="the evaluation's policy after each turn")
    one.add_argument("--games", help="a folder: each round saved when first played, read "
                                     "back after (two runs review the same games)")
    one = commands.add_parser("recheck")
    one.add_argument("figures", help="a calibration's --out JSON")
    one.add_argument("--games", required=True, help="the calibration's --games folder")
    one.add_argument("--iterations", type=int, default=30_000)
    one.add_argument("--search-iterations", type=int, default=12_800)
    one.add_argument("--continuation", default="greedy", choices=tuple(ROLLOUTS))
    for one in commands.choices.values():
        one.add_argument("--out", help="also write the figures to this JSON file")
    args = parser.parse_args(argv)
    if args.command == "stability":
        figures = stability(args.positions, args.seconds, args.first)
    elif args.command == "examples":
        figures = examples(args.seeds)
    elif args.command == "review-time":
        figures = review_time(args.deal)
    elif args.command == "agreement":
        figures = agreement(args.games)
    elif args.command == "recheck":
        figures = recheck(args.figures, args.games, args.iterations, args.search_iterations,
                          args.continuation)
    else:
        figures = calibration(args.rounds, _split_specs(args.specs), args.continuation,
                              args.games)
    summary = {k: v for k, v in figures.items() if k != "rows"}
    print(json.dumps(summary, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
