"""The ladder's chart: the search's rating against its time per decision.

    python -m benchmarks.ladder LOG [LOG ...] [--plot benchmarks/ladder.png] [--markdown]

Each LOG is a ``biriba tournament --format gauntlet`` log whose first entrant, greedy, is
the anchor (rating 0); the logs of one player count (2 or 4) share deal seeds, so their
ratings stand on one scale. Logs of the same tournament on other deal seeds (the same
entrants, players and rules) are taken as one tournament on all their deals. The chart draws each ISMCTS rung at its measured seconds per
decision (the tournament's own clock), one line per player count, with the 95% bootstrap
interval as error bars; other players (OpenSpiel's ISMCTSBot) are drawn as points of
their own. ``--markdown`` prints the table of benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import math
import re
import sys

from analysis import tournament as T
from analysis.charts import pyplot

SEARCH = re.compile(r"^ismcts:iterations=(\d+)$")
QUICK = 1e-3            # players quicker than this a decision are named, not drawn


def merged(paths: list[str]) -> list[tuple[str, dict, list[dict]]]:
    """The logs, those of one tournament played on more deals (the same entrants, players
    and rules; other deal seeds) taken as one: (their paths, the config, the pairs)."""
    found: dict[tuple, tuple[list[str], dict, list[dict]]] = {}
    for path in paths:
        config, pairs = T.read_log(path, make=False)
        if config["pairing"] != "gauntlet":
            raise SystemExit(f"{path}: a gauntlet log is needed, got {config['pairing']}")
        key = (tuple(config["entrants"]), config["players"], config["rules"],
               tuple(config["options"]), config["match"])
        if key not in found:
            found[key] = ([path], dict(config), list(pairs))
            continue
        names, first, played = found[key]
        seeds = {pair["seed"] for pair in played}
        if seeds & {pair["seed"] for pair in pairs}:
            raise SystemExit(f"{path} replays deal seeds of {names[0]}")
        names.append(path)
        first["deals"] += config["deals"]
        played.extend(pairs)
    return [(", ".join(names), config, pairs) for names, config, pairs in found.values()]


def rungs(paths: list[str]) -> list[dict]:
    """Every rated player of the logs except the anchor: its log's player count, name,
    rating, interval, lead over the anchor with its interval, rounds won, seconds a
    decision."""
    found = []
    for path, config, pairs in merged(paths):
        result = T.standings(config, pairs)
        rated = {row["player"]: row for row in result["ratings"]}
        for row in result["pairings"]:
            name = row["b"]
            found.append({
                "players": config["players"], "player": name, "log": path,
                "rating": rated[name]["rating"], "ci95": rated[name]["ci95"],
                "lead": row["mean_diff"] * -1, "lead_ci95": [-row["ci95"][1], -row["ci95"][0]],
                "deals": row["deals"], "won": row["wins"][1],
                "seconds": row["seconds_per_decision"][1],
                "iterations": int(SEARCH.match(name).group(1)) if SEARCH.match(name) else None,
            })
    return found


def plot(found: list[dict], path: str) -> None:
    plt = pyplot()
    figure, axes = plt.subplots(figsize=(7, 4.5))
    off = [r for r in found if not r["iterations"] and r["seconds"] < QUICK]
    for players, colour, offset in ((2, "tab:blue", (6, 6)), (4, "tab:orange", (6, -14))):
        line = sorted((r for r in found if r["players"] == players and r["iterations"]),
                      key=lambda r: r["seconds"])
        others = [r for r in found if r["players"] == players and not r["iterations"]
                  and r["seconds"] >= QUICK]
        for rows, style, label in ((line, "o-", f"ISMCTS, {players} players"),
                                   (others, "s", None)):
            if not rows:
                continue
            values = [r["rating"] for r in rows]
            below = [r["rating"] - r["ci95"][0] if r["ci95"][0] is not None else 0 for r in rows]
            above = [r["ci95"][1] - r["rating"] if r["ci95"][1] is not None else 0 for r in rows]
            axes.errorbar([r["seconds"] for r in rows], values, yerr=[below, above], fmt=style,
                          color=colour, capsize=4, label=label)
            for r in rows:
                text = f"{r['iterations']} it." if r["iterations"] else r["player"]
                axes.annotate(text, (r["seconds"], r["rating"]), textcoords="offset points",
                              xytext=offset, fontsize=8, color=colour)
    axes.set_xscale("log")
    axes.axhline(0, color="grey", linewidth=0.6)
    axes.set_xlabel("seconds per decision (measured, one core each)")
    axes.set_ylabel("rating (Elo points against greedy)")
    shown_off = "; ".join(f"{r['player']} {r['rating']:+.0f} ({r['players']} players)"
                          for r in off)
    axes.set_title("The search's rating against its time, duplicate deals, 95% bootstrap "
                   "intervals" + (f"\noff the chart (no time to speak of): {shown_off}"
                                  if off else ""), fontsize=9)
    axes.legend(fontsize=8, loc="upper left")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def markdown(found: list[dict]) -> str:
    def signed(x):
        return "–" if x is None or not math.isfinite(x) else f"{x:+.0f}".replace("-", "−")

    lines = ["| players | player | seconds a decision | deal pairs | lead over greedy per "
             "round | rounds won | rating, 95% interval |", "|---|---|---|---|---|---|---|"]
    for r in sorted(found, key=lambda r: (r["players"], r["seconds"])):
        low, high = r["ci95"]
        lead_low, lead_high = r["lead_ci95"]
        lines.append(f"| {r['players']} | {r['player']} | {r['seconds']:.3f} | {r['deals']} | "
                     f"{signed(r['lead'])} [{signed(lead_low)}, {signed(lead_high)}] | "
                     f"{r['won']} of {2 * r['deals']} | {signed(r['rating'])} "
                     f"[{signed(low)}, {signed(high)}] |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ladder")
    parser.add_argument("logs", nargs="+")
    parser.add_argument("--plot", metavar="FILE.png")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    found = rungs(args.logs)
    if args.plot:
        plot(found, args.plot)
    print(markdown(found) if args.markdown else "\n".join(
        f"{r['players']}p {r['player']:<28} {r['seconds']:.3f} s  {signed_plain(r['rating'])}"
        for r in found))
    return 0


def signed_plain(x) -> str:
    return "-" if x is None else f"{x:+.0f}"


if __name__ == "__main__":
    sys.exit(main())
