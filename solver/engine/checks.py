"""The invariants of :mod:`solver.engine.invariants` in numba, checked after every action.

The rule tests play thousands of random rounds per preset; checking in
Python after each action would take minutes, so the loop and the checks run
compiled. Codes: the named constants below, ``FINE`` (0) when all is well; ``PROBLEMS`` says
each in words.
"""

from __future__ import annotations

import numpy as np
from kernels.jit import njit

from solver.engine import layout as L
from solver.engine.core import (
    apply_action,
    info_of,
    legal_actions,
    meld_of,
    meld_reading,
    rng_below,
)

FINE = 0
CARD_COUNT = 1          # a card is missing or doubled
NEGATIVE = 2
KNOWN_NOT_HELD = 3
ILLEGAL_MELD = 4
STALE_MELD = 5
VALVE_OPENED = 6
NO_ACTION = 7
TOO_LONG = 8
PROBLEMS = {
    FINE: "",
    CARD_COUNT: "a card is missing or doubled",
    NEGATIVE: "a negative card count",
    KNOWN_NOT_HELD: "a known card is not in its hand",
    ILLEGAL_MELD: "an illegal meld on the table",
    STALE_MELD: "a table meld's points or size are stale",
    VALVE_OPENED: "the no-legal-action valve opened",
    NO_ACTION: "no legal action",
    TOO_LONG: "the round did not end within the action limit",
}


@njit(cache=True)
def check_state(S, T, seen):
    """0 when every invariant holds, else the code of the first broken one.

    ``seen``: a copy of the state from the last check (zeros at first); a table
    meld whose cards and points did not change since is not read again.
    """
    R, sc, vals, runb, setb = T.array, T.scalars, T.values, T.run_bonus_by_trump, T.set_bonus
    where = np.zeros(L.KINDS, dtype=np.int64)
    for seat in range(R[L.R_PLAYERS]):
        for kind in range(L.KINDS):
            count = S[L.HANDS + seat * L.KINDS + kind]
            if count < 0:
                return NEGATIVE
            if S[L.KNOWN + seat * L.KINDS + kind] > count:
                return KNOWN_NOT_HELD
            where[kind] += count
    for packet in range(S[L.PACKET_N]):
        if S[L.PACKET_USED + packet] == 0:
            for kind in range(L.KINDS):
                where[kind] += S[L.PACKETS + packet * L.KINDS + kind]
    for i in range(S[L.STOCK_N]):
        where[S[L.STOCK + i]] += 1
    for i in range(S[L.PILE_N]):
        where[S[L.PILE + i]] += 1
    for team in range(L.MAX_TEAMS):
        for i in range(2):
            where[L.RED_THREE_KINDS[i]] += S[L.RED_THREES + 2 * team + i]
    trump = S[L.TRUMP]
    run_bonus = runb[trump if trump >= 0 else 4]
    for team in range(L.MAX_TEAMS):
        for m in range(S[L.MELD_N + team]):
            meld = meld_of(S, team, m)
            size = 0
            same = True
            for kind in range(L.KINDS):
                where[kind] += meld[kind]
                size += meld[kind]
                if meld[kind] != meld_of(seen, team, m)[kind]:
                    same = False
            info = info_of(S, team, m)
            old = info_of(seen, team, m)
            if (same and old[L.INFO_POINTS] == info[L.INFO_POINTS]
                    and old[L.INFO_SIZE] == info[L.INFO_SIZE]
                    and old[L.INFO_SHAPE] == info[L.INFO_SHAPE] and seen[L.TRUMP] == trump):
                continue
            shape, home, clean, points = meld_reading(meld.copy(), sc, vals, run_bonus, setb)
            if shape < 0:
                return ILLEGAL_MELD
            if (info[L.INFO_POINTS] != points + info[L.INFO_AT_ONCE] or info[L.INFO_SIZE] != size
                    or info[L.INFO_SHAPE] != shape):
                return STALE_MELD
    for kind in range(L.KINDS):
        expected = R[L.R_JOKERS] if kind == L.JOKER else R[L.R_DECKS]
        if where[kind] != expected:
            return CARD_COUNT
    if S[L.VALVE] > 0:
        return VALVE_OPENED
    seen[:] = S
    return FINE


@njit(cache=True)
def checked_playout(S, T, rng, max_actions, log):
    """Random play from ``S`` to the round's end, checking after every action.

    ``log`` (int64, at least ``max_actions`` long) receives the actions. Returns
    (actions played, problem code, index of the action after which it appeared
    or -1).
    """
    buffer = np.empty(L.MAX_ACTIONS, dtype=np.int64)
    seen = np.zeros_like(S)
    count = 0
    code = check_state(S, T, seen)
    if code:
        return count, code, -1
    while S[L.PHASE] != L.ROUND_OVER and S[L.PHASE] != L.MATCH_OVER:
        if count >= max_actions:
            return count, TOO_LONG, count
        n = legal_actions(S, T, buffer)
        if n == 0:
            return count, NO_ACTION, count
        action = buffer[rng_below(rng, n)]
        apply_action(S, T, action)
        log[count] = action
        count += 1
        code = check_state(S, T, seen)
        if code:
            return count, code, count - 1
    return count, FINE, -1
