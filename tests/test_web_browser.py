"""``biriba serve`` as a person and a client meet it: a real server process, twenty
requests at once, and the page in headless Chromium (Debian's chromium and chromedriver;
nothing downloaded). Screenshots go to $BIRIBA_SCREENSHOTS, else a temporary folder."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

from benchmarks.web_report import (CHROMEDRIVER, CHROMIUM, headless_chromium,  # noqa: E402
                                    running_server)

EXAMPLE = json.loads(Path("examples/discard_feeds_the_opponent.json").read_text())


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("served-games")) as base:
        yield base


def test_twenty_analyses_at_once_are_each_answered_or_refused(server):
    answers = [None] * 20

    def ask(index):
        try:
            answers[index] = httpx.post(server + "/api/analyze",
                                        json={**EXAMPLE, "seconds": 0.5}, timeout=120)
        except httpx.HTTPError as error:     # a lost request fails the test below
            answers[index] = error

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    statuses = [getattr(answer, "status_code", answer) for answer in answers]
    assert set(statuses) <= {200, 429}, statuses
    assert statuses.count(200) >= 1 and statuses.count(429) >= 1
    for answer in answers:
        if answer.status_code == 429:
            assert int(answer.headers["retry-after"]) >= 1 and "busy" in answer.json()["error"]
        else:
            assert answer.json()["decisions"]
    assert httpx.get(server + "/api/meld", timeout=5).status_code == 405   # alive
    assert httpx.post(server + "/api/meld", json={"cards": "5H 6H 7H"}).json()["valid"]


def finished_record(server) -> dict:
    """A 2-player game against greedy, played to its end through the API."""
    made = httpx.post(server + "/api/games", json={"players": 2, "seed": 3}).json()
    view = made["view"]
    while not view["over"]:
        pick = next((m for m in view["moves"] if m["group"] == "discard"), view["moves"][0])
        view = httpx.post(f"{server}/api/games/{made['id']}/moves",
                          json={"move": str(pick["number"])}, timeout=60).json()
    return httpx.get(f"{server}/api/games/{made['id']}/record").json()


@pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason="needs Debian's chromium and "
                                                            "chromium-driver")
def test_the_page_in_a_browser(server, tmp_path):
    pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    shots = Path(os.environ.get("BIRIBA_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    driver = headless_chromium()
    by_id = lambda name: driver.find_element(By.ID, name)           # noqa: E731

    def card(name):
        driver.find_element(By.CSS_SELECTOR, f'#picker [data-card="{name}"]').click()

    def settle(seconds=90):
        WebDriverWait(driver, seconds).until(lambda _: not by_id("progress").is_displayed())

    def message():
        return by_id("message").text if by_id("message").is_displayed() else ""

    try:
        driver.get(server + "/")
        # --- a position built by clicking, analyzed
        Select(by_id("players")).select_by_value("2")
        Select(by_id("phase")).select_by_value("play")
        by_id("target-hand").click()
        for name in ("JC", "4D", "9H"):
            card(name)
        by_id("add-meld-0").click()
        for name in ("QS", "QD", "QH"):
            card(name)
        by_id("add-meld-1").click()
        for name in "5C 6C 7C 8C 9C 10C".split():
            card(name)
        by_id("target-pile").click()
        for name in ("3D", "7S"):
            card(name)
        by_id("opened-0").click()
        by_id("opened-1").click()
        by_id("hand-sizes").send_keys("3, 8")
        by_id("seconds").clear()
        by_id("seconds").send_keys("1")
        assert sorted(by_id("hand-text").get_attribute("value").split()) == ["4D", "9H", "JC"]
        by_id("btn-analyze").click()
        settle()
        assert message() == ""
        rows = driver.find_elements(By.CSS_SELECTOR, "#analysis-result table.decisions tr")
        assert len(rows) >= 3 and "discard" in by_id("analysis-result").text
        driver.save_screenshot(str(shots / "1-analyze.png"))
        # the position is kept in the link
        driver.refresh()
        WebDriverWait(driver, 10).until(
            lambda _: "JC" in by_id("hand-text").get_attribute("value"))
        # --- a game: moves by clicking, a refused typed move, the hint
        by_id("tab-play").click()
        Select(by_id("play-rules")).select_by_value("partnership")    # the presets' options
        assert "super biriba" in by_id("play-options").text
        Select(by_id("play-rules")).select_by_value("classic")
        assert "hearts super trump" in by_id("play-options").text
        Select(by_id("play-players")).select_by_value("2")
        Select(by_id("play-opponents")).select_by_value("greedy")
        by_id("play-seed").send_keys("3")
        by_id("btn-new-game").click()
        settle()
        assert driver.find_elements(By.CSS_SELECTOR, "#game-hand .card")
        for _ in range(4):
            moves = driver.find_elements(By.CSS_SELECTOR, "#game-moves button.move")
            moves[-1].click()
            settle()
            assert message() == ""
        by_id("move-text").send_keys("discard 2X")
        by_id("btn-move").click()
        settle()
        assert "2X" in message()
        by_id("btn-hint").click()
        settle()
        assert "points" in by_id("hint-result").text or by_id("hint-result").text
        driver.save_screenshot(str(shots / "2-play.png"))
        # --- a review of a finished game's record, a decision opened in the analyzer
        path = tmp_path / "game.json"
        path.write_text(json.dumps(finished_record(server)))
        by_id("tab-review").click()
        by_id("review-file").send_keys(str(path))
        WebDriverWait(driver, 10).until(lambda _: "actions" in by_id("review-source").text)
        # by rollouts, not by time: each decision's figures do not depend on the machine
        Select(by_id("review-seat")).select_by_value("0")
        driver.execute_script("document.getElementById('review-seconds').value = '30'")
        by_id("review-iterations").clear()
        by_id("review-iterations").send_keys("100")
        by_id("btn-review").click()
        settle()
        decisions = driver.find_elements(By.CSS_SELECTOR, "#review-table tr.decision")
        assert decisions and driver.find_elements(By.CSS_SELECTOR, "#review-chart .point")
        driver.save_screenshot(str(shots / "3-review.png"))
        decisions[0].click()
        settle()
        WebDriverWait(driver, 10).until(lambda _: by_id("hand-text").is_displayed())
        assert by_id("hand-text").get_attribute("value").strip()
        driver.save_screenshot(str(shots / "4-review-to-analyzer.png"))
        severe = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
                  and "Failed to load resource" not in entry["message"]]   # the refused move
        assert not severe, severe
    finally:
        driver.quit()


@pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason="needs Debian's chromium and "
                                                            "chromium-driver")
def test_the_javascript_example_of_the_guide_plays_a_game_to_its_end(server):
    """docs/web.md's bot, run in the browser as it is written (on the guide's address
    replaced by this server's)."""
    import re

    pytest.importorskip("selenium.webdriver")
    text = Path("docs/web.md").read_text(encoding="utf-8")
    code = re.search(r"^```javascript\n(.*?)^```", text, re.S | re.M).group(1)
    code = code.replace("http://127.0.0.1:8000", server)
    driver = headless_chromium()
    try:
        driver.set_script_timeout(120)
        driver.get(server + "/")
        over = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            f"(async () => {{ {code}; return [view.over, view.end_reason]; }})()"
            ".then(done, (error) => done(String(error)));")
    finally:
        driver.quit()
    assert over[0] is True and over[1], over

