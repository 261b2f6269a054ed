"""Build a position by hand: the hands, the table, the pile (scenario tests, analysis).

>>> from solver.engine.api import Game
>>> state = position(Game(4), empty_hands=True, hands={0: "4H 5H 6H KS KD"}, pile="9C", phase="play")
>>> state.current_player(), str(state.hand(0))
(0, 'KS 4H 5H 6H KD')

Every card not placed goes to the packets (when not given) and then to the
bottom of the stock, shuffled with ``seed``, so every card of the decks is
somewhere, as in a dealt game.
"""

from __future__ import annotations

import numpy as np

from solver.cards import as_hand, parse_kinds
from solver.engine import core
from solver.engine import layout as L
from solver.engine.api import PHASES, State
from solver.errors import BiribaError, ImpossiblePositionError


def position(game, *, hands=None, table=None, pile="", stock="", packets=None, current=0,
             phase="play", trump=None, opened=(), packet_taken=(), match_scores=None,
             dealer=0, seed=0, red_threes=None, own_melds=None,
             empty_hands=False) -> State:
    """A state of ``game`` with the given cards (text or kinds) and flags.

    ``hands``: {seat: cards}, every seat; with ``empty_hands``, the seats not given hold
    no cards (else they are refused by name: a position with a seat left out is usually a
    mistake). ``table``: {team:
    [meld, ...]} (each must be a legal meld). ``pile``/``stock``: cards, last
    one on top (the stock's given cards lie above the rest). ``packets``: a
    list of cards per packet (default: dealt from the rest). ``opened`` and
    ``packet_taken``: teams. ``match_scores``: per entity. ``threes``: ``red_threes``
    {team: cards} laid face up; ``own_melds``: the seats that have laid a meld of their own
    (default: every seat of a team with table melds).
    """
    engine = game.engine
    array = np.zeros(L.SIZE, dtype=np.int64)
    core.new_game(array, engine.array, seed, dealer, int(game.match))
    rng = np.random.default_rng(seed)
    decks = int(engine.array[L.R_DECKS])
    left = np.full(L.KINDS, decks, dtype=np.int64)
    left[L.JOKER] = engine.array[L.R_JOKERS]

    def take(cards, where):
        hand = as_hand(cards)
        counts = np.array(hand.counts, dtype=np.int64)
        if (counts > left).any():
            raise ImpossiblePositionError(
                f"{where} {str(hand)!r}: more copies than the decks hold")
        left[:] -= counts
        return counts

    array[L.HANDS:L.HANDS + L.MAX_PLAYERS * L.KINDS] = 0
    array[L.KNOWN:L.KNOWN + L.MAX_PLAYERS * L.KINDS] = 0
    array[L.RED_THREES:L.SIZE] = 0          # red threes, own melds, cut bonuses: none yet
    array[L.CUT] = L.NO_CUT
    reds_out = bool(engine.array[L.R_RED_THREES])
    missing = [seat for seat in range(game.players) if seat not in (hands or {})]
    if missing and not empty_hands:
        raise ImpossiblePositionError(
            f"no hand for seat{'s' * (len(missing) > 1)} {', '.join(map(str, missing))}: "
            "give every seat's cards, or empty_hands=True for empty hands")
    for seat, cards in (hands or {}).items():
        if not 0 <= seat < game.players:
            raise BiribaError(f"seat {seat} is not at a {game.players}-player table")
        counts = take(cards, f"seat {seat}")
        if reds_out and any(counts[kind] for kind in L.RED_THREE_KINDS):
            raise ImpossiblePositionError(
                f"seat {seat} {cards!r}: red threes are out of play in {game.rules.name} "
                "(they lie face up by the team, red_threes=...)")
        array[L.HANDS + seat * L.KINDS:L.HANDS + (seat + 1) * L.KINDS] = counts
    for team, cards in (red_threes or {}).items():
        counts = take(cards, f"team {team} red threes")
        if not reds_out or counts.sum() != sum(counts[kind] for kind in L.RED_THREE_KINDS):
            raise ImpossiblePositionError(f"team {team} red threes {cards!r}: only 3H and 3D, "
                                          "and only where red threes are out of play")
        for i, kind in enumerate(L.RED_THREE_KINDS):
            array[L.RED_THREES + 2 * team + i] = counts[kind]
    array[L.TRUMP] = "SHDC".index(trump.upper()) if trump is not None else -1
    run_bonus = engine.run_bonus_by_trump[int(array[L.TRUMP]) if array[L.TRUMP] >= 0 else 4]
    array[L.MELD_N:L.MELD_N + L.MAX_TEAMS] = 0
    for team, melds in (table or {}).items():
        for index, cards in enumerate(melds):
            counts = take(cards, f"team {team} meld {index}")
            shape, home, clean, points = core.meld_reading(counts, engine.scalars, engine.values,
                                                       run_bonus, engine.set_bonus)
            if shape < 0:
                raise ImpossiblePositionError(f"team {team} meld {cards!r} is not a legal meld")
            m = int(array[L.MELD_N + team])
            core.meld_of(array, team, m)[:] = counts
            info = core.info_of(array, team, m)
            info[L.INFO_SHAPE], info[L.INFO_HOME], info[L.INFO_CLEAN] = shape, home, clean
            info[L.INFO_POINTS], info[L.INFO_SIZE] = points, counts.sum()
            array[L.MELD_N + team] = m + 1
    pile_kinds = _kinds(pile)
    take(pile_kinds, "pile")
    array[L.PILE_N] = len(pile_kinds)
    array[L.PILE:L.PILE + len(pile_kinds)] = pile_kinds
    stock_kinds = _kinds(stock)
    take(stock_kinds, "stock")
    packet_count = int(array[L.PACKET_N])
    array[L.PACKETS:L.PACKETS + L.MAX_PACKETS * L.KINDS] = 0
    array[L.PACKET_USED:L.PACKET_USED + L.MAX_PACKETS] = 0
    for team in packet_taken:       # the packet the engine would have given the team
        packet = core.packet_for(array, engine.array, team)
        array[L.PACKET_USED + packet] = 1
        array[L.PACKET_TAKEN + team] = 1
    for packet in range(packet_count):
        if array[L.PACKET_USED + packet]:
            continue
        if packets is not None:
            counts = take(packets[packet], f"packet {packet}")
        else:
            size = int(array[L.PACKET_SIZE + packet])
            pool = np.repeat(np.arange(L.KINDS), left)
            chosen = rng.choice(pool, size=min(size, len(pool)), replace=False)
            counts = np.bincount(chosen, minlength=L.KINDS).astype(np.int64)
            left[:] -= counts
        array[L.PACKETS + packet * L.KINDS:L.PACKETS + (packet + 1) * L.KINDS] = counts
        array[L.PACKET_SIZE + packet] = counts.sum()
    rest = np.repeat(np.arange(L.KINDS), left)
    rng.shuffle(rest)
    full_stock = list(rest) + list(stock_kinds)
    array[L.STOCK_N] = len(full_stock)
    array[L.STOCK:L.STOCK + len(full_stock)] = full_stock
    for team in opened:
        array[L.OPENED + team] = 1
    if own_melds is None:
        own_melds = [seat for seat in range(game.players)
                     if array[L.MELD_N + int(array[L.TEAM_OF + seat])] > 0]
    for seat in own_melds:
        array[L.OWN_MELD + seat] = 1
    if match_scores is not None:
        for entity, score in enumerate(match_scores):
            array[L.MATCH + entity] = score
        before = int(engine.array[L.R_BIRIBA_BEFORE])
        for team in range(game.teams):
            array[L.MINIMUM + team] = core.minimum_for(engine.array, array[L.MATCH + team])
            array[L.NEEDS_BIRIBA + team] = int(0 <= before <= array[L.MATCH + team])
    array[L.CURRENT] = current
    array[L.PHASE] = PHASES.index(phase)
    return State(game, array, seed=seed, dealer=dealer)


def _kinds(cards) -> list[int]:
    """Card kinds in the given order (text or kinds)."""
    if isinstance(cards, str):
        return list(parse_kinds(cards)) if cards.strip() else []
    return [int(kind) for kind in cards]
