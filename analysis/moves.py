"""The terminal game's moves: what each legal move is worth, in groups, and typed moves read
back (a meld in any card order) with the engine's reason when one is refused."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from solver.cards import Hand, parse_kind
from solver.engine import core
from solver.engine import layout as L
from solver.engine.api import decode
from solver.errors import BiribaError
from kernels.partition_numba import meld_key
from solver.melds import analyze_meld, describe_biriba

GROUPS = ("trump", "draw", "lay", "extend", "discard")
_GROUP_OF = {L.ACTION_TRUMP: "trump", L.ACTION_DRAW: "draw", L.ACTION_PILE: "draw",
             L.ACTION_REDRAW: "draw", L.ACTION_LAY: "lay", L.ACTION_EXTEND: "extend",
             L.ACTION_DISCARD: "discard"}


class Move(NamedTuple):
    number: int            # its place in the legal-action list (what the player types)
    action: int
    group: str
    text: str
    points: int | None     # what a lay or an extension adds to the team's table
    biriba: str            # "" or what the meld becomes: "clean run biriba +200"


def describe(state) -> list[Move]:
    """Every legal move of ``state`` with its points and biriba mark."""
    moves = []
    rules = state.game.rules
    seat = state.current_player()
    team = state.team_of(seat) if seat >= 0 else 0
    table = state.table(team) if seat >= 0 else []
    table_points = state.meld_points(team) if seat >= 0 else []
    for number, action in enumerate(state.legal_actions()):
        kind_of_action, target, _ = decode(action)
        group = _GROUP_OF[kind_of_action]
        points, mark = None, ""
        if group in ("lay", "extend") or (kind_of_action == L.ACTION_PILE and target == 1):
            meld = meld_of(action)
            if group == "extend":       # venezuelan: a table biriba laid whole keeps its extra
                whole = bool(core.info_of(state.array, team, target)[L.INFO_AT_ONCE])
                info = analyze_meld(meld, rules, state.trump, laid_at_once=whole)
                points = info.points - table_points[target]
                before = analyze_meld(table[target], rules, state.trump, laid_at_once=whole)
                label = describe_biriba(info)
                mark = label if label and label != describe_biriba(before) else ""
            else:                       # a new meld (threes: the frozen pile's too)
                info = analyze_meld(meld, rules, state.trump,
                                    laid_at_once=kind_of_action == L.ACTION_LAY)
                points, mark = info.points, describe_biriba(info)
        moves.append(Move(number, action, group, state.action_to_string(action), points, mark))
    return moves


def meld_of(action: int) -> Hand:
    """The cards of a lay or an extension action (a meld key's counts)."""
    counts = np.empty(L.KINDS, dtype=np.int64)
    core.key_counts(decode(action)[2], counts)
    return Hand._trusted(tuple(counts.tolist()))


def format_move(move: Move) -> str:
    text = f"{move.number:>4}  {move.text}"
    if move.points is not None:
        text += f"  ({move.points:+d} pts)"
    if move.biriba:
        text += f"  <- {move.biriba}"
    return text


def listing(moves: list[Move], group: str | None = None, target: int | None = None,
            limit: int = 40) -> list[str]:
    """Lines listing ``moves`` by group; a long list shows each group's best few and says
    how to see the rest."""
    chosen = [m for m in moves if (group is None or m.group == group)
              and (target is None or decode(m.action)[1] == target)]
    lines = []
    short = len(chosen) <= limit or group is not None
    for name in GROUPS:
        members = [m for m in chosen if m.group == name]
        if not members:
            continue
        if name in ("lay", "extend"):
            members.sort(key=lambda m: (-(m.points or 0), m.number))
        shown = members if short or name in ("draw", "trump", "discard") else members[:8]
        lines.append(f"  {name} ({len(members)}):" if len(chosen) > 3 else f"  {name}:")
        lines.extend("  " + format_move(m) for m in shown)
        if len(shown) < len(members):
            how = ("'extend' to list them all, 'extend N' those of table meld N"
                   if name == "extend" else f"'{name}' to list them all")
            lines.append(f"        ... {len(members) - len(shown)} more: type {how}")
    return lines


class Refusal(BiribaError):
    """A typed move that is not legal now; the message says why."""


def parse_move(state, text: str, moves: list[Move]) -> Move:
    """The legal move a player typed: its number, its text, or a meld in any card order
    (``lay QS KS AS``, ``extend 2 QS``, ``discard 7H``). Raises :class:`Refusal` with
    the reason when it is not legal now, :class:`BiribaError` for a bad card."""
    answer = " ".join(text.split())
    if answer.isdigit():
        number = int(answer)
        if number < len(moves):
            return moves[number]
        raise Refusal(f"{answer!r}: choose a number from 0 to {len(moves) - 1}")
    lowered = answer.lower()
    for move in moves:
        if move.text.lower() == lowered:
            return move
    word, _, rest = answer.partition(" ")
    word = word.lower()
    frozen = [m for m in moves if decode(m.action)[0] == L.ACTION_PILE and decode(m.action)[1]]
    if word == "pile":          # not legal as typed (threes: a frozen pile goes with a meld)
        cards = rest.partition(" ")[2] if rest.lower().startswith("with") else rest
        if not cards.strip():
            raise Refusal("a black three lies in the pile: take it with 'pile with CARDS', "
                          "a new clean meld of its top card and cards of your hand (threes)"
                          if frozen else state._reason(core.encode(L.ACTION_PILE, 0, 0)))
        wanted = Hand.parse(cards)
        for move in frozen:
            if meld_of(move.action) == wanted:
                return move
        raise Refusal(f"{answer!r}: the pile can be taken only with "
                      + (" or ".join(repr(m.text) for m in frozen) if frozen else
                         "a new clean meld of its top card, and none is possible now"))
    if word == "lay" and rest:
        return _typed_lay(state, Hand.parse(rest), moves)
    if word == "extend" and rest:
        index, _, cards = rest.partition(" ")
        if not index.isdigit() or not cards.strip(" +"):
            raise Refusal(f"{answer!r}: type 'extend N CARDS', N the table meld's number")
        return _typed_extend(state, int(index), Hand.parse(cards.replace("+", " ")), moves)
    if word == "discard" and rest:
        kind = parse_kind(rest)
        for move in moves:
            if move.group == "discard" and decode(move.action)[2] == kind:
                return move
        raise Refusal(state._reason(core.encode(L.ACTION_DISCARD, 0, kind)))
    raise Refusal(f"{answer!r} is not a move: type its number, or 'lay CARDS', "
                  "'extend N CARDS', 'discard CARD', 'draw', 'pile'; 'help' lists commands")


def _typed_lay(state, cards: Hand, moves: list[Move]) -> Move:
    for move in moves:
        if move.group == "lay" and meld_of(move.action) == cards:
            return move
    _check_meld(state, cards, "")
    raise Refusal(state._reason(_encoded(L.ACTION_LAY, 0, cards)))


def _typed_extend(state, index: int, added: Hand, moves: list[Move]) -> Move:
    team = state.team_of(state.current_player())
    table = state.table(team)
    if index >= len(table):
        raise Refusal(f"your team has no table meld {index} (it has {len(table)})")
    for move in moves:
        if (move.group == "extend" and decode(move.action)[1] == index
                and meld_of(move.action) == table[index] + added):
            return move
    _check_meld(state, table[index] + added,
                f"{added} does not fit table meld {index} ({table[index]}): ")
    raise Refusal(state._reason(_encoded(L.ACTION_EXTEND, index, table[index] + added)))


def _check_meld(state, cards: Hand, prefix: str) -> None:
    """A typed meld must be one (a meld key names legal melds only)."""
    try:
        analyze_meld(cards, state.game.rules, state.trump)
    except BiribaError as error:
        raise Refusal(prefix + str(error) if not prefix else
                      prefix + str(error).split(": ", 1)[-1]) from None


def _encoded(kind_of_action: int, target: int, cards: Hand) -> int:
    """The action of laying ``cards`` (or making table meld ``target`` into them), so the
    engine can say why it is refused; cards past a meld key's room are refused here."""
    counts = cards.counts
    if max(counts[:-1]) > 3 or counts[-1] > 7:
        raise Refusal(f"{cards}: more copies of a card than three decks hold")
    key = int(meld_key(np.array(counts, dtype=np.int64)))
    return int(core.encode(kind_of_action, target, key))
