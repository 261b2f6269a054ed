"""The web page's games: kept as files in the server's own folder, shown seat by seat.

A game is one JSON file named by its id (``secrets.token_urlsafe``: unguessable, and
checked against its alphabet before any path is made of it, so a client never names a
file). The file holds the game's record (:mod:`solver.engine.records`, replayed and
checked on every load), the person's seat, the computer players and what happened so far
in words; a lock file beside it lets the server's processes take turns on one game. A
game idle for ``idle`` seconds is deleted at the next request that creates one.

:func:`view` is what a seat may see: its own hand, the table, the pile, the sizes of the
other hands, the packets' sizes, the scores, the legal moves on its turn. It never holds
the other hands' cards (beyond what each took from the pile), the packets' cards or the
stock, until the round is over.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import secrets
import time
from pathlib import Path

from analysis.moves import describe, parse_move
from analysis.specs import PlayerSpecError, parse_spec
from solver.cards import format_kind
from solver.engine import layout as L
from solver.engine import records
from solver.engine.api import Game, check_seed
from solver.engine.scoring import ending_clone, round_breakdown
from solver.errors import BiribaError
from solver.melds import analyze_meld, describe_biriba
from solver.limits import SERVE_GAME_IDLE_SECONDS as IDLE_SECONDS
from solver.limits import SERVE_MAX_GAMES as MAX_GAMES
from solver.limits import SERVE_OPPONENT_ITERATIONS as MAX_OPPONENT_ITERATIONS
from solver.limits import SERVE_OPPONENT_SECONDS as MAX_OPPONENT_SECONDS
from solver.rules import get_rules

ID = re.compile(r"^[A-Za-z0-9_-]{22}$")
LOG_SHOWN = 60                   # the view's last moves


class GameError(BiribaError):
    """A game request that cannot be met: no such game, not your turn, a full server."""


class NoSuchGame(GameError):
    """An unknown or expired game id (HTTP 404)."""


class NotYourTurn(GameError):
    """A move sent while a computer player or nobody is to move (HTTP 409)."""


def opponent_spec(text: str, game):
    """A computer player the server runs: random, greedy, expert, or ismcts within the
    server's budget (one process, at most MAX_OPPONENT_SECONDS or MAX_OPPONENT_ITERATIONS a
    decision)."""
    spec = parse_spec(text, game)
    if spec.name not in ("random", "greedy", "expert", "ismcts"):
        raise PlayerSpecError(f"the server plays random, greedy, expert or ismcts, not "
                              f"{text!r}")
    options = dict(spec.options)
    if options.get("workers", 1) != 1:
        raise PlayerSpecError(f"{text!r}: the server's players search in one process "
                              "(leave out workers)")
    if spec.name == "ismcts":
        seconds, iterations = options.get("seconds"), options.get("iterations")
        if seconds is None and iterations is None:
            options["seconds"] = 0.5
        if (options.get("seconds") or 0) > MAX_OPPONENT_SECONDS or \
                (iterations or 0) > MAX_OPPONENT_ITERATIONS:
            raise PlayerSpecError(
                f"{text!r}: a computer player of the server thinks at most "
                f"{MAX_OPPONENT_SECONDS:g} s or {MAX_OPPONENT_ITERATIONS} iterations a decision")
    return spec._replace(options=options)


class Store:
    """The games of one server (all its processes share the folder)."""

    def __init__(self, folder, idle: float = IDLE_SECONDS, limit: int = MAX_GAMES):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.idle = idle
        self.limit = limit

    # --- files ------------------------------------------------------------------------------
    def _path(self, game_id: str, suffix: str = ".json") -> Path:
        if not isinstance(game_id, str) or not ID.match(game_id):
            raise NoSuchGame(f"no game {game_id!r:.40}")
        return self.folder / (game_id + suffix)

    @contextlib.contextmanager
    def _locked(self, game_id: str):
        path = self._path(game_id)
        if not path.exists():
            raise NoSuchGame(f"no game {game_id!r} (games idle for an hour are deleted)")
        with open(self._path(game_id, ".lock"), "a+") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield path
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def _read(self, path: Path) -> dict:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raise NoSuchGame(f"no game {path.stem!r}") from None
        data["state"] = records.from_record(data["record"])
        return data

    def _write(self, path: Path, data: dict) -> None:
        stored = {key: value for key, value in data.items() if key != "state"}
        stored["record"] = records.to_record(data["state"])
        stored["touched"] = time.time()
        scratch = path.with_suffix(".tmp")
        scratch.write_text(json.dumps(stored), encoding="utf-8")
        os.replace(scratch, path)

    def expire(self) -> int:
        """Delete the games idle for longer than ``idle``; how many were deleted."""
        gone = 0
        now = time.time()
        for path in self.folder.glob("*.json"):
            try:
                if now - path.stat().st_mtime > self.idle:
                    path.unlink()
                    self.folder.joinpath(path.stem + ".lock").unlink(missing_ok=True)
                    gone += 1
            except OSError:
                pass
        return gone

    # --- games ------------------------------------------------------------------------------
    def create(self, players=4, rules="classic", options=(), seat=0, opponents="greedy",
               seed=None, match=False, coach=False, run=None) -> tuple[str, dict]:
        """A new game; the computers play up to the person's first turn (``run`` wraps
        their play: the server's search slot). (its id, the seat's view)."""
        game = Game(players, get_rules(rules, *options), match=bool(match))
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
            raise GameError(f"seat must be 0..{game.players - 1}, got {seat!r}")
        spec = opponent_spec(opponents, game)
        seed = secrets.randbelow(1 << 31) if seed is None else check_seed(seed)
        self.expire()
        if sum(1 for _ in self.folder.glob("*.json")) >= self.limit:
            raise GameError(f"the server holds {self.limit} games, its most: retry when "
                            "one has expired")
        data = {"seat": seat, "opponents": spec.text, "coach": bool(coach),
                "rules": rules, "options": list(options), "log": [], "rounds": [],
                "state": game.new_initial_state(seed)}
        with (run or no_gate)(spec):
            events = advance(data, spec)
        game_id = secrets.token_urlsafe(16)
        path = self._path(game_id)
        with open(self._path(game_id, ".lock"), "a+"):
            pass
        self._write(path, data)
        return game_id, view(data, events)

    def show(self, game_id: str) -> dict:
        with self._locked(game_id) as path:
            data = self._read(path)
            os.utime(path)
            return view(data)

    def state(self, game_id: str):
        """(the game's data, its state) for a read that computes (the hint, the record)."""
        with self._locked(game_id) as path:
            data = self._read(path)
            os.utime(path)
            return data, data["state"]

    def move(self, game_id: str, text: str, run=None, coach=None) -> dict:
        """Play the person's move (as the terminal game takes it), then the computers' up
        to the person's next turn. ``coach(state, seat, first, last)`` grades the
        person's decisions when the game was made with the coach."""
        with self._locked(game_id) as path:
            data = self._read(path)
            state, seat = data["state"], data["seat"]
            if state.is_terminal():
                raise NotYourTurn("the game is over")
            if state.current_player() != seat:
                raise NotYourTurn(f"seat {state.current_player()} is to move, not you "
                                  f"(seat {seat})")
            if not isinstance(text, str) or not text.strip():
                raise GameError("a move is its number or its text (draw, discard 7H, "
                                "lay KS QS JS)")
            index = len(state.history)
            pickup = state.phase == "draw"
            chosen = parse_move(state, text, describe(state))
            if not pickup and data.get("play_start") is None:
                data["play_start"] = index
            discard = chosen.text.startswith("discard")
            events = [_apply(data, seat, chosen.action)]
            if data["coach"] and coach is not None and (pickup or discard):
                first = index if pickup else data["play_start"]
                events += [{"coach": line.strip()} for line in
                           coach(state, seat, first, index)]
            if discard:
                data["play_start"] = None
            spec = opponent_spec(data["opponents"], state.game)
            with (run or no_gate)(spec):
                events += advance(data, spec)
            self._write(path, data)
            return view(data, events)


@contextlib.contextmanager
def no_gate(spec):
    yield


def _apply(data: dict, seat: int, action: int) -> dict:
    """Apply one action, noting it in the log (and the round's breakdown when it ends one)."""
    state = data["state"]
    text = state.action_to_string(action)
    ended = ending_clone(state, action) if text.startswith("discard") and \
        state.game.match else state
    state.apply_action(action)
    event = {"seat": seat, "move": text}
    data["log"].append(event)
    if ended.phase == "round_over":
        data["rounds"].append({"reason": ended.end_reason,
                               "breakdown": [row.to_dict() for row in round_breakdown(ended)]})
        event["round_over"] = True
    return event


def advance(data: dict, spec) -> list[dict]:
    """The computers' moves until the person's turn or the game's end."""
    state, seat = data["state"], data["seat"]
    events = []
    players = {}
    while not state.is_terminal() and state.current_player() != seat:
        current = state.current_player()
        if current not in players:          # seeded by the seat and the game so far
            players[current] = spec.make((state.seed + 7919 * len(state.history) + current)
                                         % (1 << 62))
        events.append(_apply(data, current, players[current].choose(state)))
    return events


def _cards(hand) -> list[str]:
    return str(hand).split() if len(hand) else []


def view(data: dict, events=()) -> dict:
    """What the person's seat may see now, and the legal moves on its turn."""
    state, seat = data["state"], data["seat"]
    game = state.game
    array = state.array
    over = state.is_terminal()
    current = None if over else state.current_player()
    teams = []
    for team in range(game.teams):
        seats = [s for s in range(game.players) if state.team_of(s) == team]
        if not seats:
            continue
        melds = []
        for meld, points in zip(state.table(team), state.meld_points(team)):
            info = analyze_meld(meld, game.rules, state.trump)
            melds.append({"cards": info.ordered_cards(), "points": points,
                          "biriba": describe_biriba(info) or ""})
        teams.append({"team": team, "seats": seats, "melds": melds,
                      "red_threes": _cards(state.red_threes(team)),
                      "opened": bool(array[L.OPENED + team])})
    others = {}
    for other in range(game.players):
        if other != seat:
            known = state.known(other)
            others[str(other)] = {"cards": len(state.hand(other)), "known": _cards(known),
                                  "team": state.team_of(other),
                                  "packet": bool(array[L.FRESH + other])}
    mine = current == seat
    drawn = state.last_drawn() if mine else None
    shown = {
        "seat": seat, "players": game.players, "rules": data["rules"],
        "options": data["options"], "match": game.match, "opponents": data["opponents"],
        "coach": data["coach"], "phase": state.phase, "current": current,
        "your_turn": mine, "over": over, "end_reason": state.end_reason if over else None,
        "round": state.round_index + 1, "trump": state.trump,
        "stock": int(array[L.STOCK_N]), "pile": [format_kind(k) for k in state.pile()],
        "hand": _cards(state.hand(seat)), "drawn": str(drawn) if drawn else None,
        "team": state.team_of(seat), "packet": bool(array[L.FRESH + seat]),
        "others": others, "teams": teams,
        "packets": [{"cards": int(array[L.PACKET_SIZE + p]),
                     "taken": bool(array[L.PACKET_USED + p])}
                    for p in range(int(array[L.PACKET_N]))],
        "match_scores": state.match_scores(),
        "moves": [{"number": m.number, "text": m.text, "group": m.group, "points": m.points,
                   "biriba": m.biriba} for m in describe(state)] if mine else [],
        "log": data["log"][-LOG_SHOWN:], "events": list(events), "rounds": data["rounds"],
        "actions": len(state.history),
    }
    if over:        # the round is over: every card may be shown
        shown["hands"] = {str(s): _cards(state.hand(s)) for s in range(game.players)}
    return shown
