"""``biriba serve``: the analyzer, a game and a review as a local web page (:mod:`analysis.web`)."""

from __future__ import annotations

import os
import socket
import sys
import tempfile

from solver.errors import BiribaError, OutOfRangeError


class ServeError(BiribaError):
    """A server that cannot start: the web extra missing, a bad host or port."""


def add(commands) -> None:
    serve = commands.add_parser("serve", help="the analyzer, games and reviews as a web page "
                                              "with a JSON API (pip install -e \".[web]\")")
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=int, default=8000, help="default 8000")
    serve.add_argument("--workers", type=int, default=1,
                       help="server processes, each running one search at a time (default 1)")
    serve.add_argument("--games", metavar="FOLDER",
                       help="where the games are kept (default: a new temporary folder)")
    serve.set_defaults(handler=run)


def run(args) -> int:
    from importlib.util import find_spec

    if find_spec("uvicorn") is None or find_spec("fastapi") is None:
        raise ServeError("biriba serve needs the web extra: pip install -e \".[web]\"")
    if not 1 <= args.port <= 65535:
        raise OutOfRangeError(f"--port must be 1..65535, got {args.port}")
    if not 1 <= args.workers <= 64:
        raise OutOfRangeError(f"--workers must be 1..64, got {args.workers}")
    _check_address(args.host, args.port)
    folder = args.games or tempfile.mkdtemp(prefix="biriba-games-")
    if not os.path.isdir(folder):
        raise ServeError(f"--games {folder!r}: no such folder")
    from analysis.warm import ensure_compiled
    from analysis.web.app import GAMES_FOLDER

    ensure_compiled("play", also=("expert",))   # before listening: a request would wait
    os.environ[GAMES_FOLDER] = folder
    print(f"biriba: serving on http://{_shown(args.host)}:{args.port}/ "
          f"(the API's documentation at /docs; games in {folder}); Ctrl-C stops",
          file=sys.stderr, flush=True)
    import uvicorn

    uvicorn.run("analysis.web.app:from_environment", factory=True, host=args.host,
                port=args.port, workers=args.workers, log_level="warning")
    return 0


def _check_address(host: str, port: int) -> None:
    """Refuse an address this machine cannot listen on, in one line, before compiling."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise ServeError(f"--host {host!r}: {error}") from None
    family, kind, proto, _, address = infos[0]
    probe = socket.socket(family, kind, proto)
    try:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(address)
    except OSError as error:
        raise ServeError(f"cannot listen on {host}:{port}: {error.strerror}") from None
    finally:
        probe.close()


def _shown(host: str) -> str:
    return f"[{host}]" if ":" in host else host
