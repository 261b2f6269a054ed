"""Readable text of a state for people (the terminal game)."""

from __future__ import annotations

from solver.cards import format_kind
from solver.engine import layout as L


def render_state(state, seat: int | None) -> str:
    """The table, the pile, sizes and scores; ``seat``'s own hand when given."""
    game = state.game
    array = state.array
    lines = [
        f"{game.rules.name}, {game.players} players, round {int(array[L.ROUND]) + 1}, "
        f"trump {_trump_text(state)}, stock {int(array[L.STOCK_N])} cards, "
        f"phase {state.phase.replace('_', ' ')}",
    ]
    pile = state.pile()
    lines.append("pile: " + (" ".join(format_kind(k) for k in pile) if pile else "(empty)")
                 + (f"   top {format_kind(pile[-1])}" if pile else ""))
    for team in range(game.teams):
        members = [s for s in range(game.players) if state.team_of(s) == team]
        if not members:
            continue
        melds = state.table(team)
        points = state.meld_points(team)
        label = "team " + "+".join(str(s) for s in members)
        reds = state.red_threes(team)
        if reds:                          # threes: laid face up, scored at the round's end
            label += f" (red threes {reds})"
        if not melds:
            lines.append(f"{label}: no melds")
            continue
        lines.append(f"{label}:")
        for index, (meld, value) in enumerate(zip(melds, points)):
            label = _biriba_label(meld, game.rules, state.trump)
            lines.append(f"  [{index}] {meld}  ({value} pts)" + (f"  {label}" if label else ""))
    sizes = ", ".join(
        f"seat {s}: {len(state.hand(s))}" + (" (packet)" if array[L.FRESH + s] else "")
        for s in range(game.players))
    lines.append(f"hand sizes: {sizes}")
    used = [int(array[L.PACKET_USED + p]) for p in range(int(array[L.PACKET_N]))]
    lines.append("packets: " + ", ".join(
        f"{int(array[L.PACKET_SIZE + p])} cards {'taken' if u else 'waiting'}"
        for p, u in enumerate(used)))
    lines.append("match: " + ", ".join(str(v) for v in state.match_scores()))
    if seat is not None and seat >= 0:
        lines.append(f"your hand (seat {seat}): {state.hand(seat)}")
    return "\n".join(lines)


def _trump_text(state) -> str:
    if state.phase == "choose_trump":
        return "being chosen"
    if not state.game.rules.has_trump:
        return "none (no trump in this rule set)"
    return state.trump or "none"


def _biriba_label(meld, rules, trump) -> str:
    """'[clean run biriba +200]' for a table meld that earns a bonus (RULES.md §3)."""
    from solver.melds import analyze_meld, describe_biriba

    label = describe_biriba(analyze_meld(meld, rules, trump))
    return f"[{label}]" if label else ""
