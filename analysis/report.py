"""``biriba review --html FILE``: the review as one self-contained HTML page.

The page holds the summary per seat, the equity chart (inline SVG: each seat's expected
round-score difference after its decisions, on the game's action index, the graded
decisions marked and labelled with the move), the mistakes with the better move and its
reason, and every move of the record. No script, no file or network fetch: it opens
anywhere.
"""

from __future__ import annotations

from html import escape

from analysis.reviewer import ACCURACY_SCALE, GRADES, Review, _series

WIDTH, HEIGHT, PAD = 860, 320, 48
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
MARKS = {"inaccuracy": "#e0b000", "mistake": "#ff7f0e", "blunder": "#d62728"}


def chart_svg(result: Review, seat=None) -> str:
    """The equity chart as an SVG element."""
    series = _series(result, seat)
    points = [p for line in series.values() for p in line]
    if not points:
        return "<p>No decision with figures to chart.</p>"
    xs = [p[0] for p in points]
    ys = [p[1] for p in points] + [0.0]
    x0, x1 = min(xs), max(max(xs), min(xs) + 1)
    y0, y1 = min(ys), max(max(ys), min(ys) + 1)

    def sx(x):
        return PAD + (x - x0) / (x1 - x0) * (WIDTH - 2 * PAD)

    def sy(y):
        return HEIGHT - PAD - (y - y0) / (y1 - y0) * (HEIGHT - 2 * PAD)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="equity chart">',
             f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
             f'<line x1="{PAD}" y1="{sy(0):.1f}" x2="{WIDTH - PAD}" y2="{sy(0):.1f}" '
             'stroke="#999" stroke-width="0.5"/>']
    for value in (y0, y1):
        parts.append(f'<text x="4" y="{sy(value) + 4:.1f}" font-size="10">{value:+.0f}</text>')
    parts.append(f'<text x="{WIDTH / 2:.0f}" y="{HEIGHT - 8}" font-size="11" '
                 'text-anchor="middle">action in the record</text>')
    for number, (one, line) in enumerate(series.items()):
        colour = COLOURS[number % len(COLOURS)]
        path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y, _ in line)
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" '
                     f'points="{path}"/>')
        parts.append(f'<text x="{WIDTH - PAD + 4}" y="{20 + 14 * number}" font-size="11" '
                     f'fill="{colour}">seat {one}</text>')
        for x, y, d in line:
            title = escape(f"action {d.index}, seat {d.seat}: {d.played} ({y:+.0f})"
                           + (f", {d.grade}, {d.loss:.0f} lost" if d.grade else ""))
            if d.grade:
                parts.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="5" '
                             f'fill="{MARKS[d.grade]}"><title>{title}</title></circle>')
                parts.append(f'<text x="{sx(x) + 6:.1f}" y="{sy(y) - 6:.1f}" '
                             f'font-size="9">{escape(d.played[:22])}</text>')
            else:
                parts.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="2" '
                             f'fill="{colour}"><title>{title}</title></circle>')
    parts.append("</svg>")
    return "\n".join(parts)


def page(result: Review, state, seat=None) -> str:
    """The whole report as one HTML document."""
    rows = []
    for one, row in result.summary.items():
        interval = row["mean_loss_ci95"]
        shown = f"[{interval[0]:.1f}, {interval[1]:.1f}]" if interval else "-"
        luck = f"{row['luck']:+.0f}" if row["luck"] is not None else "-"
        rows.append("<tr>" + "".join(f"<td>{escape(str(v))}</td>" for v in (
            one, row["decisions"], row["counted"], f"{row['mean_loss']:.1f}", shown,
            f"{row['accuracy']:.0f}%", *(row[g] for g in GRADES[1:]), luck,
            row["rating"] or "-")) + "</tr>")
    mistakes = []
    for d in result.decisions:
        if d.grade:
            mistakes.append("<tr>" + "".join(f"<td>{escape(str(v))}</td>" for v in (
                d.index, d.seat, d.played, d.grade, f"{d.loss:.0f}", d.best,
                f"{d.played_mean:+.0f} vs {d.best_mean:+.0f}", d.why)) + "</tr>")
    graded = {d.index: d for d in result.decisions}
    moves = []
    trial = state.game.new_initial_state(state.seed, state.dealer)
    for index, action in enumerate(state.history):
        if trial.is_terminal():
            break
        mover = trial.current_player()
        text = trial.action_to_string(action)
        trial.apply_trusted(action)
        d = graded.get(index)
        mark = f' class="{d.grade}"' if d is not None and d.grade else ""
        note = f" ({d.grade}: {d.best} was better)" if d is not None and d.grade else ""
        moves.append(f"<li{mark} value=\"{index}\">seat {mover}: {escape(text)}"
                     f"{escape(note)}</li>")
    style = ("body{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 1em}"
             "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;"
             "font-size:90%}.blunder{color:#d62728}.mistake{color:#ff7f0e}"
             ".inaccuracy{color:#a08000}ol{columns:2;font-size:85%}")
    head = ("<tr><th>seat</th><th>decisions</th><th>counted</th><th>mean loss</th>"
            "<th>95% interval</th><th>accuracy</th><th>inaccuracies</th><th>mistakes</th>"
            "<th>blunders</th><th>luck</th><th>rating</th></tr>")
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        "<title>Biriba review</title>", f"<style>{style}</style></head><body>",
        "<h1>Biriba review</h1>",
        f"<p>{len(result.decisions)} decisions reviewed; a loss counts only where the turn "
        f"separates from the best on the same deals; accuracy = 100&nbsp;exp(&minus;mean loss / "
        f"{ACCURACY_SCALE:.0f}).</p>",
        f"<table>{head}{''.join(rows)}</table>",
        "<h2>Equity</h2>", chart_svg(result, seat),
        "<h2>Mistakes</h2>",
        ("<table><tr><th>action</th><th>seat</th><th>played</th><th>grade</th><th>loss</th>"
         "<th>better</th><th>expected</th><th>why</th></tr>" + "".join(mistakes) + "</table>")
        if mistakes else "<p>None graded.</p>",
        "<h2>Moves</h2>", f"<ol start=\"0\">{''.join(moves)}</ol>",
        "</body></html>"])


def write_html(result: Review, path: str, state, seat=None) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(page(result, state, seat))


__all__ = ["chart_svg", "page", "write_html"]
