"""The invariants of :mod:`solver.engine.invariants` in numba, checked after every action.

The rule tests play thousands of random rounds per preset; checking in
Python after each action would take minutes, so the loop and the checks run
compiled. Codes: 0 fine; see ``PROBLEMS``.
"""

from __future__ import annotations

import kernels  # noqa: F401  (sets the numba cache location first)
import numpy as np
from numba import njit

from solver.engine import layout as L
from solver.engine.core import apply_action, identify, info_of, legal_actions, meld_of, rng_below

PROBLEMS = ("", "a card is missing or doubled", "a negative card count",
            "a known card is not in its hand", "an illegal meld on the table",
            "a table meld's points or size are stale", "the no-legal-action valve opened",
            "no legal action", "the round did not end within the action limit")


@njit(cache=True)
def check_state(S, R, sc, vals, runb, setb, seen):
    """0 when every invariant holds, else the code of the first broken one.

    ``seen``: a copy of the state from the last check (zeros at first); a table
    meld whose cards and points did not change since is not read again.
    """
    where = np.zeros(L.KINDS, dtype=np.int64)
    for seat in range(R[L.R_PLAYERS]):
        for kind in range(L.KINDS):
            count = S[L.HANDS + seat * L.KINDS + kind]
            if count < 0:
                return 2
            if S[L.KNOWN + seat * L.KINDS + kind] > count:
                return 3
            where[kind] += count
    for packet in range(S[L.PACKET_N]):
        if S[L.PACKET_USED + packet] == 0:
            for kind in range(L.KINDS):
                where[kind] += S[L.PACKETS + packet * L.KINDS + kind]
    for i in range(S[L.STOCK_N]):
        where[S[L.STOCK + i]] += 1
    for i in range(S[L.PILE_N]):
        where[S[L.PILE + i]] += 1
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
            if same and old[3] == info[3] and old[4] == info[4] and old[0] == info[0] and \
                    seen[L.TRUMP] == trump:
                continue
            shape, home, clean, points = identify(meld.copy(), sc, vals, run_bonus, setb)
            if shape < 0:
                return 4
            if info[3] != points or info[4] != size or info[0] != shape:
                return 5
    for kind in range(L.KINDS):
        expected = R[L.R_JOKERS] if kind == L.JOKER else R[L.R_DECKS]
        if where[kind] != expected:
            return 1
    if S[L.VALVE] > 0:
        return 6
    seen[:] = S
    return 0


@njit(cache=True)
def checked_playout(S, R, sc, vals, runb, setb, rng, max_actions, log):
    """Random play from ``S`` to the round's end, checking after every action.

    ``log`` (int64, at least ``max_actions`` long) receives the actions. Returns
    (actions played, problem code, index of the action after which it appeared
    or -1).
    """
    buffer = np.empty(L.MAX_ACTIONS, dtype=np.int64)
    seen = np.zeros_like(S)
    count = 0
    code = check_state(S, R, sc, vals, runb, setb, seen)
    if code:
        return count, code, -1
    while S[L.PHASE] != L.ROUND_OVER and S[L.PHASE] != L.MATCH_OVER:
        if count >= max_actions:
            return count, 8, count
        n = legal_actions(S, R, sc, vals, runb, setb, buffer)
        if n == 0:
            return count, 7, count
        action = buffer[rng_below(rng, n)]
        apply_action(S, R, sc, vals, runb, setb, action)
        log[count] = action
        count += 1
        code = check_state(S, R, sc, vals, runb, setb, seen)
        if code:
            return count, code, count - 1
    return count, 0, -1
