"""``biriba serve`` against its targets, on a real server process on localhost.

    python -m benchmarks.web_report [--loads 20] [--analyses 5] [--malformed 1000]
                                    [--json | --markdown]

- ``page``: the page's files (index.html, its five scripts, style.css) fetched one after the
  other, ``--loads`` times (median and slowest); and, where Debian's chromium and
  chromedriver are installed, headless Chromium's own load time (navigation start to the
  load event) of the page, ``--loads`` times.
- ``analyze``: ``POST /api/analyze`` of ``examples/discard_feeds_the_opponent.json`` at
  0.5, 2 and 10 s, ``--analyses`` times each one after the other: wall time of the answer
  minus its budget (the target: at most 0.5 s).
- ``concurrent``: twenty analyses at 0.5 s sent at once: how many were answered and how
  many refused with 429, none lost, the slowest answer, and the server alive afterwards.
- ``malformed``: ``--malformed`` seeded bad requests (:func:`malformed`): the status
  classes, and whether any answer is a 5xx or holds a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "discard_feeds_the_opponent.json"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def running_server(folder=None, start_within: float = 300):
    """``biriba serve`` in a child process on a free port; yields its base URL. A cold
    numba cache compiles first, hence the long wait for it to listen."""
    folder = Path(folder or tempfile.mkdtemp(prefix="biriba-served-"))
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "analysis", "serve", "--port", str(port), "--games", str(folder)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + start_within
    while True:
        try:
            if httpx.get(base + "/", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError("biriba serve did not start: " + process.stdout.read())
        time.sleep(0.5)
    try:
        yield base
    finally:
        process.terminate()
        process.wait(10)


# --- malformed requests: the values and bodies they are made of --------------------------------
BAD_VALUES = [None, True, -1, 0, 2**70, -2**70, 1e308, float("nan"), "", "x" * 300, "JK " * 200,
              "4H 4H 4H 4H 4H", [], [1, 2], {}, {"a": [{}]}, "7", 3.5, ["XX"], "0:5H"]
BODIES = {
    "/api/meld": {"cards": "4H 5H 6H", "rules": "classic", "trump": "H", "players": 4},
    "/api/best": {"hand": "4H 5H 6H KS KD KC", "table": ["QS QD QH"], "keep": 1,
                  "opened": False, "score": 0, "must_use": [], "players": 4},
    "/api/analyze": {**json.loads(EXAMPLE.read_text()), "iterations": 20},
    "/api/games": {"players": 2, "seed": 1, "opponents": "greedy", "seat": 0},
    "/api/position": {"record": {"format": "biriba-record"}, "at": 0},
}


def malformed(rng: random.Random):
    """(path, raw bytes) of one seeded bad request: random bytes, deep nesting, an
    oversized body, or a good body with one to three fields given bad values."""
    path = rng.choice(list(BODIES) + ["/api/review", "/api/games/{id}/moves"])
    shape = rng.random()
    if shape < 0.15:
        return path, bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 60)))
    if shape < 0.2:
        return path, b"[" * rng.randint(1, 5000)
    if shape < 0.25:
        return path, b'{"cards": "' + b"4H " * 30000 + b'"}'
    body = dict(BODIES.get(path, {"move": "draw"}))
    for _ in range(rng.randint(1, 3)):
        key = rng.choice(list(body) + ["extra"])
        body[key] = rng.choice(BAD_VALUES)
    return path, json.dumps(body, allow_nan=True).encode()


# --- the measurements ------------------------------------------------------------------------
PAGE_FILES = ("/", "/static/common.js", "/static/analyze.js", "/static/play.js",
              "/static/review.js", "/static/app.js", "/static/style.css")


def page(base: str, loads: int) -> dict:
    fetches = []
    for _ in range(loads):
        started = time.perf_counter()
        for name in PAGE_FILES:
            httpx.get(base + name, timeout=10).raise_for_status()
        fetches.append(time.perf_counter() - started)
    found = {"files_median_s": statistics.median(fetches), "files_max_s": max(fetches),
             "loads": loads}
    if CHROMIUM and CHROMEDRIVER:
        found.update(_browser_loads(base, loads))
    return found


def headless_chromium(width: int = 1280, height: int = 900):
    """A Selenium driver of Debian's chromium through its chromedriver (nothing
    downloaded); the caller quits it."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 f"--window-size={width},{height}"):
        options.add_argument(flag)
    options.binary_location = CHROMIUM
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def _browser_loads(base: str, loads: int) -> dict:
    driver = headless_chromium()
    times = []
    try:
        for _ in range(loads):
            driver.get(base + "/?fresh=" + str(len(times)))
            timing = driver.execute_script(
                "const t = performance.getEntriesByType('navigation')[0];"
                "return [t.loadEventEnd, t.domContentLoadedEventEnd];")
            times.append(timing[0] / 1000)
    finally:
        driver.quit()
    return {"browser_median_s": statistics.median(times), "browser_max_s": max(times)}


def analyze_overage(base: str, repeats: int) -> dict:
    body = json.loads(EXAMPLE.read_text())
    found = {}
    for seconds in (0.5, 2.0, 10.0):
        over = []
        for seed in range(repeats):
            started = time.perf_counter()
            answer = httpx.post(base + "/api/analyze", json={**body, "seconds": seconds,
                                                             "seed": seed}, timeout=60)
            answer.raise_for_status()
            over.append(time.perf_counter() - started - seconds)
        found[f"{seconds:g}"] = {"median_over_s": statistics.median(over),
                                 "max_over_s": max(over), "repeats": repeats}
    return found


def concurrent(base: str, count: int = 20) -> dict:
    body = {**json.loads(EXAMPLE.read_text()), "seconds": 0.5}
    answers, times = [None] * count, [0.0] * count

    def ask(index):
        started = time.perf_counter()
        try:
            answers[index] = httpx.post(base + "/api/analyze", json={**body, "seed": index},
                                        timeout=120)
        except httpx.HTTPError as error:
            answers[index] = error
        times[index] = time.perf_counter() - started

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    statuses = [getattr(a, "status_code", type(a).__name__) for a in answers]
    alive = httpx.post(base + "/api/meld", json={"cards": "5H 6H 7H"}, timeout=10).json()["valid"]
    return {"answered": statuses.count(200), "refused_429": statuses.count(429),
            "other": [s for s in statuses if s not in (200, 429)],
            "slowest_s": max(times), "alive": bool(alive)}


def malformed_run(base: str, count: int, seed: int = 2026) -> dict:
    game = httpx.post(base + "/api/games", json={"players": 2, "seed": 2}).json()["id"]
    rng = random.Random(seed)
    classes, five, traces = {}, 0, 0
    started = time.perf_counter()
    for _ in range(count):
        path, raw = malformed(rng)
        answer = httpx.post(base + path.replace("{id}", game), content=raw, timeout=60,
                            headers={"content-type": "application/json"})
        key = f"{answer.status_code // 100}xx"
        classes[key] = classes.get(key, 0) + 1
        five += answer.status_code >= 500
        traces += "Traceback" in answer.text
    return {"requests": count, "classes": classes, "5xx": five, "tracebacks": traces,
            "seconds": time.perf_counter() - started}


def markdown(found: dict) -> str:
    """The measurements against the issue's targets, as the README's table."""
    p, c, m = found["page"], found["concurrent"], found["malformed"]
    ms = lambda x: f"{x * 1000:.0f} ms"         # noqa: E731
    rows = [("the page's three files, one after the other", "≤ 0.5 s",
             f"median {ms(p['files_median_s'])}, slowest {ms(p['files_max_s'])} "
             f"({p['loads']} loads)", p["files_max_s"] <= 0.5)]
    if "browser_median_s" in p:
        rows.append(("the page in headless Chromium, to its load event", "≤ 0.5 s",
                     f"median {ms(p['browser_median_s'])}, slowest {ms(p['browser_max_s'])}",
                     p["browser_max_s"] <= 0.5))
    for seconds, a in found["analyze"].items():
        rows.append((f"`POST /api/analyze` at {seconds} s: the answer's wall time minus the "
                     "budget", "≤ +0.5 s", f"median {a['median_over_s']:+.2f} s, at most "
                     f"{a['max_over_s']:+.2f} s ({a['repeats']} answers)",
                     a["max_over_s"] <= 0.5))
    rows.append(("20 analyses at 0.5 s sent at once", "each answered or 429, none lost, alive",
                 f"{c['answered']} answered, {c['refused_429']} refused, {len(c['other'])} "
                 f"other; slowest {c['slowest_s']:.1f} s; alive: {c['alive']}",
                 not c["other"] and c["alive"]))
    classes = ", ".join(f"{k} {v}" for k, v in sorted(m["classes"].items()))
    rows.append((f"{m['requests']:,} seeded malformed requests", "no 5xx, no traceback",
                 f"{classes}; 5xx {m['5xx']}, tracebacks {m['tracebacks']}",
                 m["5xx"] == 0 and m["tracebacks"] == 0))
    lines = ["| measure | target | figure | met |", "|---|---|---|---|"]
    lines += [f"| {a} | {b} | {c_} | {'yes' if ok else '**no**'} |" for a, b, c_, ok in rows]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.web_report")
    parser.add_argument("--loads", type=int, default=20)
    parser.add_argument("--analyses", type=int, default=5)
    parser.add_argument("--malformed", type=int, default=1000)
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true")
    shown.add_argument("--markdown", action="store_true", help="the table of benchmarks/README.md")
    args = parser.parse_args(argv)
    with running_server() as base:
        page(base, 2)                                   # warm: the first import of each route
        found = {"page": page(base, args.loads),
                 "analyze": analyze_overage(base, args.analyses),
                 "concurrent": concurrent(base),
                 "malformed": malformed_run(base, args.malformed)}
    if args.json:
        print(json.dumps(found, indent=2))
        return 0
    if args.markdown:
        print(markdown(found))
        return 0
    p = found["page"]
    print(f"page, 3 files: median {p['files_median_s'] * 1000:.1f} ms, slowest "
          f"{p['files_max_s'] * 1000:.1f} ms ({p['loads']} loads)")
    if "browser_median_s" in p:
        print(f"page in headless Chromium (to the load event): median "
              f"{p['browser_median_s'] * 1000:.0f} ms, slowest {p['browser_max_s'] * 1000:.0f} ms")
    for seconds, a in found["analyze"].items():
        print(f"analyze at {seconds} s: over its budget by median {a['median_over_s']:+.3f} s, "
              f"at most {a['max_over_s']:+.3f} s ({a['repeats']} answers)")
    c = found["concurrent"]
    print(f"20 at once: {c['answered']} answered, {c['refused_429']} refused (429), other "
          f"{c['other']}, slowest {c['slowest_s']:.1f} s, server alive: {c['alive']}")
    m = found["malformed"]
    print(f"{m['requests']} malformed: {m['classes']}, 5xx {m['5xx']}, tracebacks "
          f"{m['tracebacks']} ({m['seconds']:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
