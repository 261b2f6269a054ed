"""The game API in OpenSpiel's shape: ``Game`` makes ``State`` objects.

>>> game = Game(players=4, rules="classic")
>>> state = game.new_initial_state(seed=7)
>>> state.current_player(), state.phase
(1, 'draw')
>>> [state.action_to_string(a) for a in state.legal_actions()]
['draw', 'pile']

A ``State`` wraps one int64 array (:mod:`solver.engine.layout`); every rule
lives in the numba functions of :mod:`solver.engine.core`, which the playout
kernel calls too. ``apply_action`` refuses an illegal action with
:class:`~solver.errors.IllegalMoveError` and its reason; ``history`` is the
operations log.
"""

from __future__ import annotations

import hashlib

import numpy as np

from solver.cards import Hand, format_kind
from solver.engine import core
from solver.engine import layout as L
from solver.engine.rules import engine_rules, teams_of
from solver.errors import BiribaError, IllegalMoveError, OutOfRangeError
from solver.rules import RuleSet, get_rules
from solver.limits import MAX_SEED  # noqa: F401

_PHASE_NAMES = {L.CHOOSE_TRUMP: "choose_trump", L.DRAW: "draw", L.PLAY: "play",
                L.ROUND_OVER: "round_over", L.MATCH_OVER: "match_over"}
PHASES = tuple(_PHASE_NAMES[code] for code in sorted(_PHASE_NAMES))   # indexed by phase code
END_REASONS = {L.NOT_OVER: "", L.CLOSED: "closed", L.STOCK_OUT: "stock exhausted",
               L.NO_DRAW: "no legal draw",
               L.IDLE_OUT: "no meld for a full circle with an empty stock"}
TERMINAL = -4
SUITS = "SHDC"


ACTION_TYPES = (L.ACTION_TRUMP, L.ACTION_DRAW, L.ACTION_PILE, L.ACTION_LAY, L.ACTION_EXTEND,
                L.ACTION_DISCARD, L.ACTION_REDRAW)


def check_seed(seed, count: int = 1) -> int:
    """``seed`` as an int when ``seed .. seed + count - 1`` are all valid engine seeds."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise OutOfRangeError(f"seed {seed!r} must be an integer")
    if not 0 <= int(seed) <= MAX_SEED:
        raise OutOfRangeError(f"seed {seed} must be 0..{MAX_SEED}")
    if int(seed) > MAX_SEED - (count - 1):
        raise OutOfRangeError(
            f"seed {seed}: {count} games use seeds up to {int(seed) + count - 1}, past the "
            f"largest {MAX_SEED} (start at {MAX_SEED - count + 1} or below)")
    return int(seed)


class Game:
    """A rule set and a player count; ``match=True`` plays rounds until the target."""

    def __init__(self, players: int = 4, rules: RuleSet | str = "classic", *options: str,
                 match: bool = False, **overrides):
        self.rules = get_rules(rules, *options, **overrides) if (
            isinstance(rules, str) or options or overrides) else rules
        self.players = int(players)
        self.engine = engine_rules(self.rules, self.players)
        self.match = bool(match)
        self.teams = teams_of(self.rules, self.players)
        # where legal_actions writes: one per game, shared by its states (each copies its
        # list out at once), so clone() allocates nothing but the state array
        self.action_buffer = np.empty(L.MAX_ACTIONS, dtype=np.int64)

    @property
    def entities(self) -> int:
        """Who keeps a match score: the teams, or each player with three players."""
        return 3 if self.players == 3 else self.teams

    def new_initial_state(self, seed: int = 0, dealer: int = 0) -> State:
        check_seed(seed)
        if isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)) or not (
                0 <= dealer < self.players):
            raise OutOfRangeError(f"dealer {dealer!r} must be a seat 0..{self.players - 1}")
        array = np.zeros(L.SIZE, dtype=np.int64)
        core.new_game(array, self.engine.array, int(seed), int(dealer), int(self.match))
        return State(self, array, seed=int(seed), dealer=int(dealer))

    def __repr__(self) -> str:
        return (f"Game(players={self.players}, rules={self.rules.name!r}, "
                f"match={self.match})")


class State:
    """One position of a round or match (see the module docstring)."""

    def __init__(self, game: Game, array: np.ndarray, seed: int = 0, dealer: int = 0,
                 history=None):
        self.game = game
        self.array = array
        self.seed = seed
        self.dealer = dealer
        self.history: list[int] = list(history or [])
        self._legal: np.ndarray | None = None

    # --- OpenSpiel-shaped core ---------------------------------------------------------
    @property
    def phase(self) -> str:
        return PHASES[int(self.array[L.PHASE])]

    def is_terminal(self) -> bool:
        return int(self.array[L.PHASE]) in (L.ROUND_OVER, L.MATCH_OVER)

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else int(self.array[L.CURRENT])

    def legal_actions_array(self) -> np.ndarray:
        if self._legal is None:
            if self.is_terminal():
                self._legal = np.empty(0, dtype=np.int64)
            else:
                buffer = self.game.action_buffer
                n = core.legal_actions(self.array, self.game.engine, buffer)
                self._legal = buffer[:n].copy()
        return self._legal

    def legal_actions(self) -> list[int]:
        return [int(action) for action in self.legal_actions_array()]

    def can_apply(self, action: int) -> bool:
        return bool((self.legal_actions_array() == int(action)).any())

    def verify_action(self, action: int) -> None:
        """Raise :class:`IllegalMoveError` saying why ``action`` is not legal now."""
        if not self.can_apply(action):
            raise IllegalMoveError(self._reason(int(action)))

    def apply_action(self, action: int) -> None:
        self.verify_action(action)
        self.apply_trusted(int(action))

    def apply_trusted(self, action: int) -> None:
        """Apply an action known to be legal (search and replays of checked records)."""
        core.apply_action(self.array, self.game.engine, action)
        self.history.append(action)
        self._legal = None

    def clone(self) -> State:
        return State(self.game, self.array.copy(), self.seed, self.dealer, self.history)

    def returns(self) -> list[float]:
        """Per player: the round's points (its team's, or its share with three players);
        in a match, 1 for the winner's players and 0 for the others."""
        if not self.is_terminal():
            return [0.0] * self.game.players
        if self.game.match:
            winner = int(self.array[L.WINNER])
            return [1.0 if self.entity_of(seat) == winner else 0.0
                    for seat in range(self.game.players)]
        return [float(self.array[L.MATCH + self.entity_of(seat)])
                for seat in range(self.game.players)]

    # --- what the state holds --------------------------------------------------------------
    def team_of(self, seat: int) -> int:
        return int(self.array[L.TEAM_OF + seat])

    def entity_of(self, seat: int) -> int:
        return int(self.array[L.ENTITY + seat])

    def hand(self, seat: int) -> Hand:
        start = L.HANDS + seat * L.KINDS
        return Hand._trusted(tuple(self.array[start:start + L.KINDS].tolist()))

    def known(self, seat: int) -> Hand:
        """Cards everybody knows ``seat`` holds (taken from the pile, not yet played)."""
        start = L.KNOWN + seat * L.KINDS
        return Hand._trusted(tuple(self.array[start:start + L.KINDS].tolist()))

    def table(self, team: int) -> list[Hand]:
        return [Hand._trusted(tuple(core.meld_of(self.array, team, m).tolist()))
                for m in range(int(self.array[L.MELD_N + team]))]

    def meld_points(self, team: int) -> list[int]:
        return [int(core.info_of(self.array, team, m)[L.INFO_POINTS])
                for m in range(int(self.array[L.MELD_N + team]))]

    @property
    def dealer_seat(self) -> int:
        """This round's dealer."""
        return int(self.array[L.DEALER])

    @property
    def cut(self) -> int:
        """venezuelan: cards the dealer's cut missed by this round (0: exact)."""
        return int(self.array[L.CUT])

    def red_threes(self, team: int) -> Hand:
        """threes (003): the red threes the team has laid face up this round."""
        counts = [0] * L.KINDS
        for i, kind in enumerate(L.RED_THREE_KINDS):
            counts[kind] = int(self.array[L.RED_THREES + 2 * team + i])
        return Hand._trusted(tuple(counts))

    def pile(self) -> list[int]:
        return self.array[L.PILE:L.PILE + int(self.array[L.PILE_N])].tolist()

    def stock(self) -> list[int]:
        return self.array[L.STOCK:L.STOCK + int(self.array[L.STOCK_N])].tolist()

    def last_drawn(self) -> Hand | None:
        """The card the player to act drew from the stock this turn, if any."""
        kind = int(self.array[L.LAST_DRAWN])
        return Hand.from_kinds([kind]) if kind >= 0 and self.phase == "play" else None

    @property
    def trump(self) -> str | None:
        trump = int(self.array[L.TRUMP])
        return SUITS[trump] if trump >= 0 else None

    def round_scores(self) -> list[int]:
        """The last finished round's score per team (slot order)."""
        return self.array[L.ROUND_SCORE:L.ROUND_SCORE + self.game.teams].tolist()

    def match_scores(self) -> list[int]:
        """Score per entity (team, or player with three players)."""
        return self.array[L.MATCH:L.MATCH + self.game.entities].tolist()

    @property
    def round_index(self) -> int:
        """Rounds finished before the current one (a match deals the next at once)."""
        return int(self.array[L.ROUND])

    @property
    def end_reason(self) -> str:
        return END_REASONS[int(self.array[L.END_REASON])]

    # --- actions as text -------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        kind_of_action, target, key = decode(action)
        if kind_of_action == L.ACTION_DRAW:
            return "draw"
        if kind_of_action == L.ACTION_PILE:
            if target == 1:                  # threes: a frozen pile, taken with a new meld
                counts = np.empty(L.KINDS, dtype=np.int64)
                core.key_counts(key, counts)
                return f"pile with {Hand._trusted(tuple(counts.tolist()))}"
            return "pile"
        if kind_of_action == L.ACTION_REDRAW:
            return "redraw"
        if kind_of_action == L.ACTION_TRUMP:
            return f"trump {SUITS[key]}" if key < 4 else "trump none"
        if kind_of_action == L.ACTION_DISCARD:
            return f"discard {format_kind(key)}"
        counts = np.empty(L.KINDS, dtype=np.int64)
        core.key_counts(key, counts)
        meld = Hand._trusted(tuple(counts.tolist()))
        if kind_of_action == L.ACTION_LAY:
            return f"lay {meld}"
        team = self.team_of(self.current_player()) if not self.is_terminal() else 0
        if target < int(self.array[L.MELD_N + team]):
            old = Hand._trusted(tuple(core.meld_of(self.array, team, target).tolist()))
            try:
                return f"extend {target} +{meld - old}"
            except ValueError:
                pass
        return f"extend {target} to {meld}"

    def _reason(self, action: int) -> str:
        kind_of_action, target, key = decode(action)
        text = f"action {action}"
        if self.is_terminal():
            return f"{text}: the {self.phase.split('_')[0]} is over (no more actions)"
        if kind_of_action not in ACTION_TYPES:
            return f"{text} is not an action"
        try:
            text = f"{self.action_to_string(action)!r}"
        except (ValueError, IndexError):
            return f"{text} is not an action"
        phase = self.phase.replace("_", " ")
        seat = self.current_player()
        wanted = {L.ACTION_TRUMP: L.CHOOSE_TRUMP, L.ACTION_DRAW: L.DRAW, L.ACTION_PILE: L.DRAW}
        needs = wanted.get(kind_of_action, L.PLAY)
        if needs != int(self.array[L.PHASE]):
            return f"{text} is not possible in the {phase} phase (seat {seat} to act)"
        if kind_of_action == L.ACTION_DRAW:
            return "the stock is empty"
        if kind_of_action == L.ACTION_PILE:
            return self._pile_reason(text)
        hand = self.hand(seat)
        must = int(self.array[L.MUST])
        if kind_of_action == L.ACTION_DISCARD:
            if hand.counts[key] == 0:
                return f"{text}: {format_kind(key)} is not in seat {seat}'s hand"
            if key == int(self.array[L.BANNED]):
                return (f"{text}: {format_kind(key)} came from a one-card pile and may not be "
                        "discarded this turn (rules §5.1)")
            if must >= 0:
                return f"{text}: the pile's top card {format_kind(must)} must be melded first"
            if len(hand) == 1 and int(self.array[L.TOOK_PILE]) == L.TOOK_LAST_CARD_PILE:
                return (f"{text}: a turn that took a one-card pile with one card in hand may "
                        "not close (rules §7)")
            return (f"{text}: this discard would break the vulnerability minimum or leave the "
                    "hand empty without closing (rules §6, §7)")
        return self._meld_reason(text, kind_of_action, target, key, seat, hand, must)

    def _pile_reason(self, text) -> str:
        pile = self.pile()
        if not pile:
            return f"{text}: the discard pile is empty"
        rules = self.game.rules
        if rules.black_threes_freeze and pile[-1] in L.BLACK_THREE_KINDS:
            return (f"{text}: a black three ({format_kind(pile[-1])}) was just discarded: "
                    "the next player may not take the pile (threes, docs/rules.md D31)")
        if rules.black_threes_freeze and set(pile[:-1]) & set(L.BLACK_THREE_KINDS):
            return (f"{text}: a black three lies in the pile: it goes only with a new clean "
                    f"meld of its top card {format_kind(pile[-1])} and cards of the hand, and "
                    "none is possible now (threes, docs/rules.md D31)")
        return f"{text}: the discard pile may not be taken now (rules §5.1)"

    def _meld_reason(self, text, kind_of_action, target, key, seat, hand, must) -> str:
        """Why a lay or an extension is refused: the table meld, the cards, the meld, then
        the turn's rules (the pile's top card, vulnerability, the last card)."""
        from solver.melds import analyze_meld

        team = self.team_of(seat)
        counts = np.empty(L.KINDS, dtype=np.int64)
        core.key_counts(key, counts)
        meld = Hand._trusted(tuple(counts.tolist()))
        used, old = meld, None
        if kind_of_action == L.ACTION_EXTEND:
            table = self.table(team)
            if target >= len(table):
                return f"{text}: the team has no table meld {target} (it has {len(table)})"
            old = table[target]
            if not old.issubset(meld):
                return f"{text}: it does not hold table meld {target} ({old})"
            used = meld - old
        for kind, count in enumerate(used.counts):
            if count > hand.counts[kind]:
                card = format_kind(kind)
                held = hand.counts[kind]
                return (f"{text}: seat {seat} holds no {card}" if held == 0 else
                        f"{text}: seat {seat} holds {held} {card}, the move needs {count}")
        problem = None
        try:
            analyze_meld(meld, self.game.rules, self.trump)
        except BiribaError as error:
            problem = str(error).split(": ", 1)[-1]
        if problem is not None:
            return (f"{text}: not a legal meld: {problem}" if old is None else
                    f"{text}: {used} does not fit table meld {target} ({old}): {problem}")
        if must >= 0 and used.counts[must] == 0:
            return f"{text}: a meld must use the pile's top card {format_kind(must)} first"
        minimum = core.vulnerable_minimum(self.array, team)
        if minimum:
            return (f"{text}: the team's first lay-down this round must be worth at least "
                    f"{minimum} points, and the rest of the hand cannot bring it there "
                    f"(rules §6; laid so far this turn {int(self.array[L.TURN_POINTS])})")
        return (f"{text}: it would leave a last card that cannot be discarded (a hand ends "
                "empty only by closing or by taking the packet, rules §5.4, §7)")

    # --- information sets ------------------------------------------------------------------
    def observation(self, seat: int) -> np.ndarray:
        """The state as ``seat`` sees it: hidden cards zeroed, hand sizes appended.

        Hidden: the other hands beyond their known cards, the packets not yet
        taken, the stock's order and cards, the dealing generator.
        """
        view = self.array.copy()
        sizes = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
        for other in range(self.game.players):
            start = L.HANDS + other * L.KINDS
            sizes[other] = self.array[start:start + L.KINDS].sum()
            if other != seat:
                view[start:start + L.KINDS] = self.array[
                    L.KNOWN + other * L.KINDS:L.KNOWN + (other + 1) * L.KINDS]
        view[L.PACKETS:L.PACKETS + L.MAX_PACKETS * L.KINDS] = 0
        view[L.STOCK:L.STOCK + L.MAX_CARDS] = 0
        view[L.RNG] = 0
        view[L.ACTIONS] = 0
        return np.concatenate([view, sizes, [seat]])

    def information_state_key(self, seat: int) -> str:
        """A stable key of ``seat``'s information set (equal observations, equal keys)."""
        return hashlib.blake2b(self.observation(seat).tobytes(), digest_size=16).hexdigest()

    def unseen(self, seat: int) -> np.ndarray:
        """Counts of the cards ``seat`` cannot see (other hands' unknown cards, packets, stock)."""
        array = self.array
        total = np.zeros(L.KINDS, dtype=np.int64)
        for other in range(self.game.players):
            if other != seat:
                start = L.HANDS + other * L.KINDS
                total += array[start:start + L.KINDS] - array[
                    L.KNOWN + other * L.KINDS:L.KNOWN + (other + 1) * L.KINDS]
        for packet in range(int(array[L.PACKET_N])):
            if not array[L.PACKET_USED + packet]:
                total += array[L.PACKETS + packet * L.KINDS:L.PACKETS + (packet + 1) * L.KINDS]
        for i in range(int(array[L.STOCK_N])):
            total[array[L.STOCK + i]] += 1
        return total

    def resample_from_infostate(self, seat: int, rng) -> State:
        """A full state ``seat`` cannot tell from this one: the hidden cards dealt uniformly.

        ``rng``: a seed or a ``numpy.random.Generator``. Known cards stay with
        their holders; hand, packet and stock sizes are kept.
        """
        from solver.engine.determinize import determinize   # the one dealing of hidden cards

        seed = int(np.random.default_rng(rng).integers(0, 1 << 48))
        array = self.array.copy()
        determinize(array, self.game.engine.array, seat,
                    np.array([core.seed_rng(seed)], dtype=np.int64))
        return State(self.game, array, self.seed, self.dealer, self.history)

    def __str__(self) -> str:
        from solver.engine.render import render_state

        return render_state(self, self.current_player() if not self.is_terminal() else None)


def decode(action: int) -> tuple[int, int, int]:
    """(type, target, key) of an action."""
    action = int(action)
    return action >> L.TYPE_SHIFT, (action >> L.TARGET_SHIFT) & L.TARGET_MASK, action & L.KEY_MASK
