"""The web application: the page (``static/``) and the JSON API under ``/api``.

Every answer of the API is the object the matching command prints with ``--json``; every
refusal is ``{"error": "<the command line's one-line message>"}`` with a 4xx status: 400 a
bad value or an impossible position, 404 an unknown game, 409 a move out of turn, 413 a
body over 64 KB, 422 a body of the wrong shape, 429 a busy server (with ``Retry-After``).
Searches run in this process (one worker, so ``biriba analyze --workers 1`` with the same
iterations and seed gives the same answer), one at a time (:mod:`analysis.web.gate`).
"""

from __future__ import annotations

import logging
import os
import tempfile
import time
from pathlib import Path

from fastapi import FastAPI, Query
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from analysis.answers import best_answer, best_instance, meld_answer
from analysis.web import games as G
from analysis.web import schemas as S
from analysis.web.gate import Busy, Gate
from solver.errors import BiribaError
from solver.limits import MAX_SEED
from solver.limits import SERVE_BODY_BYTES as MAX_BODY
from solver.limits import SERVE_REVIEW_ITERATIONS, SERVE_REVIEW_MAX_SECONDS
from solver.rules import get_rules

STATIC = Path(__file__).with_name("static")
GAMES_FOLDER = "BIRIBA_WEB_GAMES"       # the environment variable naming the games' folder
SEARCH_WORKERS = 1
log = logging.getLogger("biriba.web")


def status_of(error: BiribaError) -> int:
    if isinstance(error, Busy):
        return 429
    if isinstance(error, G.NoSuchGame):
        return 404
    if isinstance(error, G.NotYourTurn):
        return 409
    return 400


def one_line(text) -> str:
    return " ".join(str(text).split())[:500]


class BodyLimit:
    """Refuse a request body over ``limit`` bytes with 413, before the app reads it."""

    def __init__(self, app, limit: int = MAX_BODY):
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            return await _refuse(send, 413, f"the request body is over {self.limit} bytes")
        chunks, seen = [], 0            # read whole (it is small) before the app sees it
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return                  # the client went away
            chunks.append(message.get("body", b""))
            seen += len(chunks[-1])
            if seen > self.limit:
                return await _refuse(send, 413, f"the request body is over {self.limit} bytes")
            if not message.get("more_body"):
                break
        body, given = b"".join(chunks), False

        async def replay():
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _refuse(send, status: int, message: str) -> None:
    import json

    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def create_app(games_folder=None, gate: Gate | None = None) -> FastAPI:
    """The application; its games live in ``games_folder`` (default: a new temporary
    folder), its searches pass ``gate``."""
    app = FastAPI(title="Biriba", version="0.1.0",
                  description="The Biriba analyzer, games and reviews. Cards are text as "
                              "on the command line: 4H 5H 2C 10S JK.")
    store = G.Store(games_folder or tempfile.mkdtemp(prefix="biriba-games-"))
    gate = gate or Gate()
    app.state.store, app.state.gate = store, gate

    @app.exception_handler(BiribaError)
    async def refused(request, error: BiribaError):
        headers = {"Retry-After": str(error.retry_after)} if isinstance(error, Busy) else None
        return JSONResponse({"error": one_line(error)}, status_code=status_of(error),
                            headers=headers)

    @app.exception_handler(RequestValidationError)
    async def malformed(request, error: RequestValidationError):
        problems = error.errors()
        first = problems[0] if problems else {}
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
        text = f"{where}: {first.get('msg', 'bad request')}" if where else \
            first.get("msg", "bad request")
        if len(problems) > 1:
            text += f" (and {len(problems) - 1} more)"
        return JSONResponse({"error": one_line(text)}, status_code=422)

    @app.exception_handler(HTTPException)
    async def http_refused(request, error: HTTPException):     # no route, a wrong method
        return JSONResponse({"error": one_line(f"{request.url.path}: {error.detail}")},
                            status_code=error.status_code, headers=error.headers)

    @app.exception_handler(Exception)
    async def failed(request, error: Exception):       # logged here, one line there
        log.exception("unexpected error on %s", request.url.path)
        return JSONResponse({"error": f"internal error: {type(error).__name__}"},
                            status_code=500)

    # --- the page ---------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    def page():
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # --- questions without a search -----------------------------------------------------------
    @app.get("/api/rules", summary="Every rule preset's fields, and the options of each")
    def all_rules() -> dict:
        from solver.rules import OPTIONS, PRESETS

        return {"presets": {name: rules.to_dict() for name, rules in PRESETS.items()},
                "options": {name: {"presets": list(option.presets)}
                            for name, option in OPTIONS.items()}}

    @app.get("/api/rules/{preset}", summary="One preset's fields with its options applied "
                                             "(biriba rules PRESET --option ... --json)")
    def one_rules(preset: str, option: list[str] = Query(default=[], max_length=20)) -> dict:
        return get_rules(preset, *option).to_dict()

    @app.post("/api/meld", summary="Is this a legal meld, and what is it worth")
    def meld(body: S.MeldBody) -> dict:
        return meld_answer(body.cards, body.rules, tuple(body.options), body.trump,
                           body.players)

    @app.post("/api/best", summary="The best lay-down with the team's table melds")
    def best(body: S.BestBody) -> dict:
        rules, trump, instance = best_instance(
            body.hand, table=body.table, rules=body.rules, options=tuple(body.options),
            trump=body.trump, opened=body.opened, score=body.score, keep=body.keep,
            must_use=body.must_use, players=body.players)
        return best_answer(instance, rules, trump)[2]

    @app.post("/api/position", summary="The position before action `at` of a record")
    def position(body: S.PositionBody) -> dict:
        from analysis.analyzer import position_of_record, position_of_state

        state = position_of_record(body.record, body.at)
        name, options = rules_names(state.game.rules)
        return position_of_state(state, name, options).to_dict()

    # --- searches -----------------------------------------------------------------------------
    @app.post("/api/analyze", summary="The best decision in a position, in points")
    def analyze(body: S.AnalyzeBody) -> dict:
        from analysis.analyzer import Position, analyze, build_state

        seconds = S.DEFAULT_SECONDS if body.seconds is None and body.iterations is None \
            else body.seconds
        state = build_state(Position.from_dict(body.position()), body.seed)
        with gate.search(seconds or S.MAX_SECONDS):
            started = time.perf_counter()       # the budget is the search's, not the wait's
            result = analyze(state, iterations=body.iterations,
                             seconds=seconds if seconds is not None else S.MAX_SECONDS,
                             seed=body.seed, workers=SEARCH_WORKERS, started=started)
        return result.to_dict()

    @app.post("/api/review", summary="Every decision of a record re-analyzed and graded")
    def review_record(record: dict, seat: int | None = None, seconds: float | None = None,
                      iterations: int | None = None, seed: int = 0) -> dict:
        """``iterations``: each decision's rollouts (default 100 when ``seconds`` is not
        given), the same answer on any machine while the time cap does not bind;
        ``seconds``: the whole review's time, shared among its decisions (default 30)."""
        from analysis.reviewer import decision_points, review
        from solver.engine import records

        if iterations is None and seconds is None:
            iterations = SERVE_REVIEW_ITERATIONS
        total = SERVE_REVIEW_MAX_SECONDS if seconds is None else seconds
        if not 0 < total <= SERVE_REVIEW_MAX_SECONDS:
            raise G.GameError(f"seconds must be in (0, {SERVE_REVIEW_MAX_SECONDS:g}], "
                              f"got {total!r}")
        if iterations is not None and not 1 <= iterations <= S.MAX_ITERATIONS:
            raise G.GameError(f"iterations must be in 1..{S.MAX_ITERATIONS}, got {iterations}")
        if not 0 <= seed <= MAX_SEED:
            raise G.GameError(f"seed must be 0..{MAX_SEED}, got {seed}")
        state = records.from_record(record)
        if seat is not None and not 0 <= seat < state.game.players:
            raise G.GameError(f"seat {seat}: the game has seats 0..{state.game.players - 1}")
        seats = None if seat is None else [seat]
        points = sum(1 for _ in decision_points(
            state, seats if seats is not None else range(state.game.players)))
        # a graded decision's confirmation may take as long again (analysis.reviewer): at
        # most twice the total in all
        each = max(total / max(points, 1) - 0.01, 0.02)
        with gate.search(total):
            result = review(state, seats, iterations=iterations, seconds=each, seed=seed,
                            workers=SEARCH_WORKERS)
        return result.to_dict()

    # --- games --------------------------------------------------------------------------------
    def searching(spec):
        return gate.search(1.0) if spec.name == "ismcts" else G.no_gate(spec)

    def coaching(state, seat, first, last):
        from analysis.reviewer import coach

        with gate.search(S.DEFAULT_SECONDS):
            return coach(state, seat, first, last, seconds=S.DEFAULT_SECONDS / 2,
                         workers=SEARCH_WORKERS)

    @app.post("/api/games", summary="A new game: its id and the person's view")
    def new_game(body: S.GameBody) -> dict:
        game_id, shown = store.create(body.players, body.rules, tuple(body.options),
                                      body.seat, body.opponents, body.seed, body.match,
                                      body.coach, run=searching)
        return {"id": game_id, "view": shown}

    @app.get("/api/games/{game_id}", summary="The person's view of a game")
    def show_game(game_id: str) -> dict:
        return store.show(game_id)

    @app.post("/api/games/{game_id}/moves", summary="Play a move; the computers answer")
    def move(game_id: str, body: S.MoveBody) -> dict:
        return store.move(game_id, str(body.move), run=searching, coach=coaching)

    @app.get("/api/games/{game_id}/hint", summary="The best decision now, as /api/analyze")
    def hint(game_id: str, seconds: float = S.DEFAULT_SECONDS) -> dict:
        from analysis.analyzer import analyze

        if not 0 < seconds <= S.MAX_SECONDS:
            raise G.GameError(f"seconds must be in (0, {S.MAX_SECONDS:g}], got {seconds!r}")
        data, state = store.state(game_id)
        if state.is_terminal() or state.current_player() != data["seat"]:
            raise G.NotYourTurn("a hint is for your turn")
        with gate.search(seconds):
            return analyze(state, seconds=seconds, workers=SEARCH_WORKERS).to_dict()

    @app.get("/api/games/{game_id}/position", summary="The person's position as a position "
                                                      "file's object (for the analyzer)")
    def game_position(game_id: str) -> dict:
        from analysis.analyzer import position_of_state

        data, state = store.state(game_id)
        if state.is_terminal() or state.current_player() != data["seat"]:
            raise G.NotYourTurn("the position is yours to analyze on your turn")
        return position_of_state(state, data["rules"], data["options"]).to_dict()

    @app.get("/api/games/{game_id}/record", summary="The record of a finished game "
                                                    "(biriba play --save)")
    def record(game_id: str):
        from solver.engine import records

        data, state = store.state(game_id)
        if not state.is_terminal():
            raise G.NotYourTurn("the record is given once the game is over: its seed deals "
                                "every card, the hidden ones too")
        return JSONResponse(records.to_record(state), headers={
            "Content-Disposition": f'attachment; filename="biriba-{game_id[:8]}.json"'})

    limited = BodyLimit(app)
    limited.state = app.state
    return limited


def rules_names(ruleset) -> tuple[str, tuple[str, ...]]:
    """(preset, options) that give ``ruleset``, for a position file; the preset's name
    alone where no combination of its options does."""
    from itertools import combinations

    from solver.rules import OPTIONS

    mine = [name for name, (presets, _) in OPTIONS.items() if ruleset.name in presets]
    for size in range(len(mine) + 1):
        for chosen in combinations(mine, size):
            try:
                if get_rules(ruleset.name, *chosen) == ruleset:
                    return ruleset.name, chosen
            except BiribaError:
                break
    return ruleset.name, ()


def from_environment():
    """The application of a ``biriba serve`` worker process (its folder from the
    environment, so every worker holds the same games)."""
    return create_app(os.environ.get(GAMES_FOLDER))
