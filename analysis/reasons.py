"""Reasons in Biriba words: what a decision does at the table, computed from the position.

:func:`facts` lists, for one decision, what a player would say about it: what a discard
completes or feeds (the melds of the other teams it fits, the next player's hand, what the
pile then holds), what taking the pile brings, what a lay-down scores and makes (a
biriba, a clean meld dirtied, the minimum a team that has not opened must reach), going
out and the packet. Facts come from the rules engine on a copy of the state, never from
the search's samples.
"""

from __future__ import annotations


from analysis.moves import meld_of
from solver.cards import Hand
from solver.engine import core
from solver.engine import layout as L
from solver.engine.api import decode
from solver.errors import BiribaError
from solver.melds import analyze_meld, describe_biriba
from solver.optimizer import Config, Instance, optimize_laydown
from solver.search import decisions as D
from solver.search.plans import is_lay


def facts(state, code: int, actions) -> list[str]:
    """What decision ``code`` (played as the engine ``actions``: a whole turn may end with
    its discard) does, in a few phrases."""
    actions = list(actions)
    if is_lay(code):
        discard = actions[-1] if actions and \
            actions[-1] >> L.TYPE_SHIFT == L.ACTION_DISCARD else None
        laid = actions[:-1] if discard is not None else actions
        said = _holding(state, discard is not None) if not laid else _laying(state, laid)
        if discard is not None:
            trial = state.clone()
            for action in laid:
                trial.apply_trusted(action)
            said += _discarding(trial, decode(discard)[2])
        return said
    kind_of_action, _, key = decode(code)
    if kind_of_action == L.ACTION_DISCARD:
        return _discarding(state, key)
    if kind_of_action == L.ACTION_PILE:
        return _taking(state, code)
    if kind_of_action == L.ACTION_DRAW:
        return [f"draws from the stock ({len(state.stock())} cards left); the pile "
                f"({_pile_text(state)}) stays"]
    return []


def sentence(state, code: int, actions) -> str:
    return "; ".join(facts(state, code, actions))


def _card(kind: int) -> str:
    return str(Hand.from_kinds([kind]))


def _pile_text(state) -> str:
    pile = state.pile()
    if not pile:
        return "empty"
    shown = " ".join(_card(kind) for kind in pile[-6:])
    return f"{len(pile)} card{'s' * (len(pile) != 1)}: " + ("... " if len(pile) > 6 else "") \
        + shown


def _meld(state, cards, laid_at_once=False):
    try:
        return analyze_meld(cards, state.game.rules, state.trump, laid_at_once=laid_at_once)
    except BiribaError:
        return None


def _meld_name(info) -> str:
    cards = " ".join(info.ordered_cards())
    return f"{'run' if info.kind == 'run' else 'set'} {cards}"


def _discarding(state, kind: int) -> list[str]:
    seat = state.current_player()
    mine = state.team_of(seat)
    players = state.game.players
    card = _card(kind)
    said = []
    fits = []
    for team in range(state.game.teams):
        if team == mine:
            continue
        for meld in state.table(team):
            before = _meld(state, meld)
            after = _meld(state, meld + Hand.from_kinds([kind]))
            if before is None or after is None:
                continue
            became = describe_biriba(after)
            if became and became != describe_biriba(before):
                fits.append(f"{card} completes their {_meld_name(before)} into a "
                            f"{became.split(' +')[0]} (+{after.bonus})")
            else:
                fits.append(f"{card} fits their {_meld_name(before)}")
    following = (seat + 1) % players
    if state.team_of(following) != mine:
        held = len(state.hand(following))
        said += fits
        said.append(f"the next player holds {held} card{'s' * (held != 1)} and may take "
                    f"the pile of {len(state.pile()) + 1}")
    else:
        said += fits
    if not fits:
        said.insert(0, f"{card} fits none of the other teams' melds")
    own = [m for m in state.table(mine) if _meld(state, m + Hand.from_kinds([kind]))]
    if own:
        said.append(f"{card} would fit your {_meld_name(_meld(state, own[0]))}")
    if len(state.hand(seat)) == 1:
        trial = state.clone()
        trial.apply_trusted(int(core.encode(L.ACTION_DISCARD, 0, kind)))
        if trial.is_terminal():
            said = [f for f in said if not f.startswith("the next player")]
            said.append("the last card: it closes the round")
        elif _took_packet(state, trial, mine):
            said.append("the last card: the team's packet comes next")
    return said


def _took_packet(before, after, team) -> bool:
    return int(after.array[L.PACKET_TAKEN + team]) > int(before.array[L.PACKET_TAKEN + team])


def _taking(state, code: int) -> list[str]:
    said = [f"takes the pile ({_pile_text(state)})"]
    trial = state.clone()
    trial.apply_trusted(code)
    if trial.is_terminal() or trial.current_player() != state.current_player():
        return said
    from solver.search.search import expansion

    lays = expansion(trial, D.LAY_BEST, D.STAGE_LAY)
    if lays:
        said.append("then " + _laid_text(trial, lays))
    return said


def _laid_text(state, actions) -> str:
    """'lays 4H 5H 6H (+15), extends QS QD QH with QC (+10)' for a lay-down's actions."""
    parts = []
    trial = state.clone()
    team = trial.team_of(trial.current_player())
    for action in actions:
        kind_of_action, target, _ = decode(action)
        cards = meld_of(action)
        if kind_of_action == L.ACTION_EXTEND:
            before = trial.table(team)[target]
            info = _meld(trial, cards)
            added = cards - before
            parts.append(f"adds {added} to {before}"
                         + (f" ({describe_biriba(info)})" if info and describe_biriba(info)
                            else ""))
        else:
            info = _meld(trial, cards, laid_at_once=True)
            parts.append(f"lays {cards}"
                         + (f" ({describe_biriba(info)})" if info and describe_biriba(info)
                            else ""))
        trial.apply_trusted(action)
    return ", ".join(parts)


def _laying(state, actions) -> list[str]:
    if not actions:
        return ["lays nothing"]
    seat = state.current_player()
    team = state.team_of(seat)
    said = []
    points_before = sum(state.meld_points(team))
    trial = state.clone()
    dirtied = []
    for action in actions:
        kind_of_action, target, _ = decode(action)
        if kind_of_action == L.ACTION_EXTEND:
            before = _meld(trial, trial.table(team)[target])
            after = _meld(trial, meld_of(action))
            if before is not None and after is not None and before.clean and not after.clean:
                dirtied.append(_meld_name(before))
        trial.apply_trusted(action)
    gained = sum(trial.meld_points(team)) - points_before if not trial.is_terminal() else None
    said.append(_laid_text(state, actions)
                + (f": {gained:+d} points on the table" if gained is not None else ""))
    for name in dirtied:
        said.append(f"dirties the clean {name} (a wild in it)")
    minimum = int(state.array[L.MINIMUM + team]) if not state.array[L.OPENED + team] else 0
    if minimum and gained is not None:
        said.append(f"{gained} of the {minimum} needed to open")
    if not trial.is_terminal() and _took_packet(state, trial, team):
        said.append("empties the hand: the team's packet comes next")
    if trial.is_terminal():
        said.append("goes out and closes the round")
    return said


def _holding(state, discarding=False) -> list[str]:
    seat = state.current_player()
    team = state.team_of(seat)
    said = ["lays nothing" if discarding else f"keeps all {len(state.hand(seat))} cards"]
    minimum = int(state.array[L.MINIMUM + team]) if not state.array[L.OPENED + team] else 0
    if minimum:
        best = best_laydown(state)["points"]
        if best < minimum:
            said.append(f"the best lay-down, {best} points, is short of the {minimum} "
                        "needed to open")
    return said


__all__ = ["facts", "sentence"]


def best_laydown(state) -> dict:
    """The optimizer's best lay-down of the hand now, with the team's table melds."""
    seat = state.current_player()
    team = state.team_of(seat)
    rules = state.game.rules
    hand = state.hand(seat)
    opened = bool(state.array[L.OPENED + team])
    instance = Instance.build(hand, table=state.table(team), rules=rules, trump=state.trump,
                              opened=opened,
                              score=int(state.array[L.MATCH + state.entity_of(seat)]),
                              keep=min(1, len(hand)), players=state.game.players)
    result = optimize_laydown(instance, Config())
    return result.to_dict()
