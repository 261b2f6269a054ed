"""The web API (analysis.web): every endpoint, its refusals, the limits, and that a view
never shows a card its seat cannot see."""

from __future__ import annotations

import json
import random
import re
import threading

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402
from hypothesis import given, settings, strategies as st  # noqa: E402

from analysis.cli import main  # noqa: E402
from analysis.web import games as G  # noqa: E402
from analysis.web import schemas as S  # noqa: E402
from analysis.web.app import MAX_BODY, create_app, rules_names  # noqa: E402
from analysis.web.gate import Busy, Gate  # noqa: E402
from benchmarks.web_report import malformed  # noqa: E402
from solver.rules import get_rules  # noqa: E402

EXAMPLE = "examples/discard_feeds_the_opponent.json"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return TestClient(create_app(tmp_path_factory.mktemp("games")))


def cli_json(capsys, *argv):
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def one_line_error(response, status):
    assert response.status_code == status, response.text
    text = response.json()["error"]
    assert "\n" not in text and "Traceback" not in text
    return text


# --- answers: the command line's ---------------------------------------------------------------
def test_meld_is_the_cli_answer(client, capsys):
    for cards in ("4H 5H 2C 7H", "4H 5H 2C 2S", "KS KD KC KH"):
        assert client.post("/api/meld", json={"cards": cards}).json() == \
            cli_json(capsys, "meld", cards, "--json")


def test_best_is_the_cli_answer(client, capsys):
    hand = "4H 5H 2C 7H 8H 9H 10H KS KD KC AS 3S JK QS"
    got = client.post("/api/best", json={"hand": hand, "trump": "H", "table": ["QD QC QH"],
                                         "opened": True}).json()
    want = cli_json(capsys, "best", hand, "--trump", "H", "--table", "QD QC QH", "--opened",
                    "--json")
    got.pop("seconds"), want.pop("seconds")
    assert got == want and got["points"] > 0


def test_analyze_with_iterations_and_seed_is_the_cli_answer(client, capsys):
    position = json.load(open(EXAMPLE))
    got = client.post("/api/analyze", json={**position, "iterations": 300, "seed": 4}).json()
    want = cli_json(capsys, "analyze", EXAMPLE, "--iterations", "300", "--seed", "4",
                    "--workers", "1", "--json")
    for answer in (got, want):
        answer.pop("seconds"), answer["best_laydown"].pop("seconds")
        for row in answer["decisions"]:
            row.pop("why")                  # worded alike; the figures are what must agree
    assert got == want
    assert got["decisions"][0]["decision"].startswith("discard")


def test_analyze_refuses_an_impossible_position(client):
    position = json.load(open(EXAMPLE))
    text = one_line_error(client.post("/api/analyze", json={**position, "hand": "JC JC JC"}),
                          400)
    assert "JC" in text
    text = one_line_error(client.post("/api/analyze", json={**position, "seconds": 99}), 422)
    assert text.startswith("seconds")


def test_refusals_are_one_line_with_their_status(client):
    assert "XX" in one_line_error(client.post("/api/meld", json={"cards": "4H XX"}), 400)
    one_line_error(client.post("/api/meld", json={"cards": "4H", "colour": 1}), 422)
    one_line_error(client.post("/api/meld", content=b"{not json",
                               headers={"content-type": "application/json"}), 422)
    one_line_error(client.post("/api/meld", content=b"x" * (MAX_BODY + 1),
                               headers={"content-type": "application/json"}), 413)
    one_line_error(client.get("/api/games/AAAAAAAAAAAAAAAAAAAAAA"), 404)
    one_line_error(client.get("/api/games/..%2F..%2Fetc%2Fpasswd"), 404)


def test_the_page_and_the_openapi_page_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "<html" in page.text.lower()
    for script in re.findall(r'<script src="(/static/[a-z]+\.js)"', page.text):
        assert client.get(script).status_code == 200
    assert len(re.findall(r"<script src=", page.text)) == 5
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/analyze", "/api/best", "/api/meld", "/api/review", "/api/games",
                 "/api/games/{game_id}/moves", "/api/games/{game_id}/record"):
        assert path in paths


# --- games ---------------------------------------------------------------------------------------
def play_out(client, game_id, view, limit=400):
    """Play move 0 (draw, or the first discard) until the game ends."""
    for _ in range(limit):
        if view["over"]:
            return view
        assert view["your_turn"] and view["moves"]
        pick = next((m for m in view["moves"] if m["group"] == "discard"), view["moves"][0])
        answer = client.post(f"/api/games/{game_id}/moves", json={"move": str(pick["number"])})
        assert answer.status_code == 200, answer.text
        view = answer.json()
    raise AssertionError("the game did not end")


def test_a_game_is_played_to_its_end_and_its_record_replays(client):
    made = client.post("/api/games", json={"players": 2, "seed": 3, "opponents": "expert"}).json()
    game_id, view = made["id"], made["view"]
    assert G.ID.match(game_id) and view["seat"] == 0 and view["your_turn"]
    one_line_error(client.get(f"/api/games/{game_id}/record"), 409)   # not before the end
    assert "is not a move" in one_line_error(
        client.post(f"/api/games/{game_id}/moves", json={"move": "fly away"}), 400)
    view = play_out(client, game_id, view)
    assert view["end_reason"] and set(view["hands"]) == {"0", "1"}
    assert view["rounds"] and view["rounds"][-1]["breakdown"]
    one_line_error(client.post(f"/api/games/{game_id}/moves", json={"move": "0"}), 409)
    record = client.get(f"/api/games/{game_id}/record").json()
    from solver.engine import records

    assert records.from_record(record).is_terminal()
    assert len(record["actions"]) == view["actions"]


def test_moves_by_text_the_hint_and_the_position(client):
    made = client.post("/api/games", json={"players": 2, "seed": 5}).json()
    game_id = made["id"]
    view = client.post(f"/api/games/{game_id}/moves", json={"move": "draw"}).json()
    assert view["phase"] == "play" and view["drawn"]
    hint = client.get(f"/api/games/{game_id}/hint?seconds=0.5").json()
    assert hint["phase"] == "play" and hint["decisions"]
    position = client.get(f"/api/games/{game_id}/position").json()
    assert position["hand"].split() == view["hand"] or \
        sorted(position["hand"].split()) == sorted(view["hand"])
    one_line_error(client.get(f"/api/games/{game_id}/hint?seconds=50"), 400)


def test_a_game_with_the_coach_grades_the_person(client):
    made = client.post("/api/games", json={"players": 2, "seed": 8, "coach": True}).json()
    view = client.post(f"/api/games/{made['id']}/moves", json={"move": "draw"}).json()
    assert any("coach" in event for event in view["events"])


@pytest.mark.parametrize("body", [
    {"players": 5}, {"seat": 4, "players": 2}, {"rules": "chess"}, {"opponents": "openspiel"},
    {"opponents": "ismcts:seconds=30"}, {"opponents": "ismcts:workers=4"},
    {"opponents": "nobody"}, {"seed": -1}, {"options": ["no_such"]}])
def test_a_bad_game_is_refused(client, body):
    answer = client.post("/api/games", json=body)
    assert answer.status_code in (400, 422)
    assert "\n" not in answer.json()["error"]


def test_an_idle_game_expires(tmp_path):
    store = G.Store(tmp_path, idle=0.0)
    game_id, _ = store.create(players=2, seed=1)
    assert store.expire() == 1
    with pytest.raises(G.NoSuchGame):
        store.show(game_id)


# --- no card its seat cannot see -------------------------------------------------------------
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.sampled_from([2, 3, 4, 6]),
       steps=st.integers(0, 60))
def test_a_view_is_the_same_for_every_deal_of_the_hidden_cards(seed, players, steps):
    """The view is a function of the seat's information set: dealing the cards it cannot see
    again (the other hands' unknown cards, the packets, the stock) leaves it unchanged."""
    from solver.engine.api import Game
    from solver.engine.players import GreedyPlayer, play

    state = play(Game(players).new_initial_state(seed), [GreedyPlayer(seed)] * players, steps)
    if state.is_terminal():
        return
    seat = state.current_player()
    data = {"seat": seat, "opponents": "greedy", "coach": False, "rules": "classic",
            "options": [], "log": [], "rounds": [], "state": state}
    shown = G.view(data)
    assert "hands" not in shown
    for other_seed in (1, 2):
        other = state.resample_from_infostate(seat, other_seed)
        assert G.view({**data, "state": other}) == shown


# --- the review ------------------------------------------------------------------------------------
def finished_record(client, seed=11):
    made = client.post("/api/games", json={"players": 2, "seed": seed}).json()
    play_out(client, made["id"], made["view"])
    return client.get(f"/api/games/{made['id']}/record").json()


def test_review_and_the_position_of_a_decision(client):
    record = finished_record(client)
    answer = client.post("/api/review?seconds=3&seat=0", json=record)
    assert answer.status_code == 200, answer.text
    result = answer.json()
    assert result["decisions"] and {d["seat"] for d in result["decisions"]} == {0}
    first = result["decisions"][0]
    position = client.post("/api/position", json={"record": record, "at": first["index"]}).json()
    assert position["seat"] == 0 and position["hand"]
    one_line_error(client.post("/api/review?seconds=300", json=record), 400)
    one_line_error(client.post("/api/review?seat=7", json=record), 400)
    one_line_error(client.post("/api/review", json={"format": "nothing"}), 400)
    one_line_error(client.post("/api/position", json={"record": record, "at": 10**6}), 400)


def test_a_review_by_rollouts_is_the_same_twice_and_has_figures(client, monkeypatch):
    """With ``iterations`` each decision's rollouts are fixed: the same figures on any
    machine (the 30 s cap does not bind on a short game), and enough for the played turn's
    32 samples where there are few turns. With no budget, 100 rollouts a decision."""
    import analysis.reviewer
    import analysis.web.app

    record = finished_record(client)
    one_line_error(client.post("/api/review?iterations=0", json=record), 400)
    one_line_error(client.post("/api/review?iterations=10&seconds=31", json=record), 400)
    # the whole review's cap, 30 s, shared by the decisions, can bind on a loaded machine
    monkeypatch.setattr(analysis.web.app, "SERVE_REVIEW_MAX_SECONDS", 3000.0)
    one = client.post("/api/review?iterations=100&seat=1&seed=4", json=record).json()
    two = client.post("/api/review?iterations=100&seat=1&seed=4", json=record).json()
    strip = lambda result: [{k: v for k, v in d.items() if k != "seconds"}   # noqa: E731
                            for d in result["decisions"]]
    assert strip(one) == strip(two)
    asked = []
    real = analysis.reviewer.review
    monkeypatch.setattr(analysis.reviewer, "review",
                        lambda *a, **k: asked.append(k) or real(*a, **k))
    client.post("/api/review?seat=1&seed=4", json=record).json()
    assert asked[0]["iterations"] == 100 and asked[0]["seed"] == 4   # the same budget as one's
    assert any(d["played_mean"] is not None for d in one["decisions"])


def test_the_rules_are_listed_and_one_preset_is_shown_with_its_options(client):
    known = client.get("/api/rules").json()
    assert "classic" in known["presets"] and known["presets"]["classic"]["decks"] == 2
    assert known["options"]["super_biriba"] == {"presets": ["partnership"]}
    one = client.get("/api/rules/partnership?option=super_biriba").json()
    assert one == get_rules("partnership", "super_biriba").to_dict()
    one_line_error(client.get("/api/rules/nope"), 400)
    one_line_error(client.get("/api/rules/classic?option=super_biriba"), 400)


def test_rules_names_finds_the_options():
    assert rules_names(get_rules("partnership", "super_biriba")) == \
        ("partnership", ("super_biriba",))
    assert rules_names(get_rules("classic")) == ("classic", ())


# --- the gate ----------------------------------------------------------------------------------------
def test_the_gate_runs_one_search_and_refuses_beyond_its_queue():
    gate = Gate(waiting=1, patience=5)
    inside, release, outcomes = threading.Event(), threading.Event(), []

    def hold():
        with gate.search(1):
            inside.set()
            release.wait(5)

    def ask():
        try:
            with gate.search(1):
                outcomes.append("ran")
        except Busy as busy:
            outcomes.append(busy.retry_after)

    first = threading.Thread(target=hold)
    first.start()
    inside.wait(5)
    second = threading.Thread(target=ask)
    second.start()
    for _ in range(100):                # the second is queued before the third comes
        if gate._queued == 2:
            break
        threading.Event().wait(0.01)
    ask()                               # the third: the queue is full
    assert outcomes and isinstance(outcomes[0], int) and outcomes[0] >= 1
    release.set()
    first.join(), second.join()
    assert outcomes[-1] == "ran"


def test_a_busy_server_answers_429_with_retry_after(tmp_path):
    gate = Gate(waiting=0, patience=0.01)
    client = TestClient(create_app(tmp_path, gate))
    position = json.load(open(EXAMPLE))
    with gate.search(1):
        answer = client.post("/api/analyze", json={**position, "iterations": 50})
    assert answer.status_code == 429 and int(answer.headers["retry-after"]) >= 1


# --- malformed requests ---------------------------------------------------------------------------
def test_a_thousand_malformed_requests_answer_4xx(tmp_path, monkeypatch):
    monkeypatch.setattr(S, "DEFAULT_SECONDS", 0.05)     # a valid analysis stays short
    client = TestClient(create_app(tmp_path), raise_server_exceptions=False)
    game_id = client.post("/api/games", json={"players": 2, "seed": 2}).json()["id"]
    rng = random.Random(2026)
    statuses = {}
    for _ in range(1000):
        path, raw = malformed(rng)
        answer = client.post(path.replace("{id}", game_id), content=raw,
                             headers={"content-type": "application/json"})
        assert answer.status_code < 500, (path, raw[:200], answer.text)
        assert "Traceback" not in answer.text
        statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
    assert set(statuses) - {200} and statuses.get(422, 0) > 100
    assert client.get(f"/api/games/{game_id}").status_code == 200    # alive, its game kept


# --- biriba serve's own refusals -------------------------------------------------------------------
@pytest.mark.parametrize("argv, said", [
    (["--port", "0"], "--port must be 1..65535, got 0"),
    (["--port", "70000"], "--port must be 1..65535, got 70000"),
    (["--workers", "0"], "--workers must be 1..64, got 0"),
    (["--host", "999.1.1.1"], "--host '999.1.1.1'"),
    (["--games", "/no/such/folder"], "--games '/no/such/folder': no such folder"),
])
def test_serve_refuses_a_bad_setting_in_one_line_before_listening(argv, said, capsys):
    assert main(["serve", *argv]) == 2
    err = capsys.readouterr().err
    assert said in err and len(err.strip().splitlines()) == 1, err


def test_serve_refuses_a_port_in_use_and_names_the_missing_extra(capsys, monkeypatch):
    import importlib.util
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *rest: None if name == "uvicorn" else real(name, *rest))
    assert main(["serve"]) == 2
    assert 'pip install -e ".[web]"' in capsys.readouterr().err
