"""A turn's actions: the legal ones in each phase, and applying one (rules §5)."""

from __future__ import annotations

from kernels.link import linked
from numba import types

from solver.engine import layout as L
from solver.engine.basics import close_ready, encode, forget_known, hand_of, packet_for, team_stats
from solver.engine.melding import lay, play_actions, take_packet
from solver.engine.pile import draw, pile_actions, take_frozen_pile, take_pile
from solver.engine.ending import end_round, end_turn
from solver.engine.rules import ENGINE_RULES_TYPE, STATE_TYPE


@linked(types.int64(STATE_TYPE, ENGINE_RULES_TYPE, STATE_TYPE))
def legal_actions(S, T, out):
    """Write the legal actions into ``out`` (int64[MAX_ACTIONS]); returns how many.

    A buffer too small for every meld keeps the first ones in this order (a
    hand needs dozens of cards to come near MAX_ACTIONS).

    Order: trump choices; or draw, pile (threes' frozen pile: one per clean meld of its top
    card, catalogue order); or redraw, new melds (catalogue order),
    extensions (by table meld, then key), discards (by kind). When the rules
    leave a player no legal action (which the checks above are meant to rule
    out) every held card may be discarded, marked with target 1 (the safety
    valve, counted in ``VALVE``).
    """
    phase = S[L.PHASE]
    n = 0
    if phase == L.CHOOSE_TRUMP:
        for suit in range(5):
            out[n] = encode(L.ACTION_TRUMP, 0, suit)
            n += 1
        return n
    if phase == L.DRAW:
        if S[L.STOCK_N] > 0:
            out[n] = encode(L.ACTION_DRAW, 0, 0)
            n += 1
        return pile_actions(S, T, out, n)
    if phase != L.PLAY:
        return 0
    if S[L.REDRAW_OK] and S[L.STOCK_N] > 0:
        out[n] = encode(L.ACTION_REDRAW, 0, 0)
        n += 1
    n = play_actions(S, T, out, n, False)
    if n == 0:
        hand = hand_of(S, S[L.CURRENT])
        for kind in range(L.KINDS):
            if hand[kind] > 0:
                out[n] = encode(L.ACTION_DISCARD, 1, kind)
                n += 1
    return n


@linked(types.none(STATE_TYPE, ENGINE_RULES_TYPE, types.int64))
def apply_action(S, T, action):
    """Apply a legal action (the caller checks legality; the API's ``verify`` does)."""
    R, vals = T.array, T.values
    kind_of_action = action >> L.TYPE_SHIFT
    target = (action >> L.TARGET_SHIFT) & L.TARGET_MASK
    key = action & L.KEY_MASK
    seat = S[L.CURRENT]
    team = S[L.TEAM_OF + seat]
    S[L.ACTIONS] += 1
    if kind_of_action == L.ACTION_TRUMP:
        S[L.TRUMP] = key if key < 4 else -1
        S[L.PHASE] = L.DRAW
    elif kind_of_action == L.ACTION_DRAW:
        if draw(S, R, seat) < 0:
            # threes: the stock ran out on red threes, nothing was drawn: the turn ends here
            # (docs/rules.md D30; a hand of one card could not be discarded)
            end_turn(S, T, seat, team)
            return
        # barimba: the round's first drawer may throw the card back and draw again
        S[L.REDRAW_OK] = 1 if (R[L.R_REDRAW] and S[L.TURNS] == 0
                               and S[L.REDRAW_USED] == 0) else 0
        S[L.PHASE] = L.PLAY
    elif kind_of_action == L.ACTION_REDRAW:
        card = S[L.LAST_DRAWN]
        S[L.HANDS + seat * L.KINDS + card] -= 1
        S[L.PILE + S[L.PILE_N]] = card
        S[L.PILE_N] += 1
        S[L.REDRAW_USED] = 1
        S[L.REDRAW_OK] = 0
        draw(S, R, seat)
    elif kind_of_action == L.ACTION_PILE:
        if target == 1:
            take_frozen_pile(S, T, seat, team, key)
        else:
            take_pile(S, R)
    elif kind_of_action == L.ACTION_LAY or kind_of_action == L.ACTION_EXTEND:
        lay(S, T, seat, team, target, key,
             kind_of_action == L.ACTION_EXTEND)
        if R[L.R_CLOSE_NO_DISCARD] and hand_of(S, seat).sum() == 0:
            S[L.CLOSER] = seat                       # venezuelan (000): out without a discard
            S[L.OPENED + team] = 1
            end_round(S, R, vals, L.CLOSED)
    elif kind_of_action == L.ACTION_DISCARD:
        S[L.HANDS + seat * L.KINDS + key] -= 1
        S[L.PILE + S[L.PILE_N]] = key
        S[L.PILE_N] += 1
        S[L.FRESH + seat] = 0
        S[L.LAST_DISCARD + seat] = key + 1
        if target == 1:
            S[L.VALVE] += 1
            S[L.LAST_DISCARD + seat] = 0          # the safety valve's, not a choice
        forget_known(S, seat)
        if hand_of(S, seat).sum() == 0:
            biribas, clean, runs, sets = team_stats(S, R, team)
            if close_ready(S, R, team, biribas, clean, runs, sets):
                S[L.CLOSER] = seat                   # RULES.md §7: the round ends
                if S[L.TURN_LAID] > 0:
                    S[L.OPENED + team] = 1
                end_round(S, R, vals, L.CLOSED)
                return
            if not R[L.R_FIRST_BIRIBA]:
                packet = packet_for(S, R, team)
                if packet >= 0:
                    take_packet(S, R, seat, packet)  # RULES.md §5.4: and the turn ends
        end_turn(S, T, seat, team)
