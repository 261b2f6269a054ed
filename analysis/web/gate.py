"""One search at a time per server process; a few wait their turn, the rest are refused.

A search holds a core for its whole budget, so a process runs one at a time. Requests
that need one wait in a queue of at most ``waiting`` (first come, first served by the
lock's fairness); the next gets :class:`Busy` at once (HTTP 429) with the seconds after
which to retry, and a queued request that has waited ``patience`` seconds gives up the
same way: nothing waits unboundedly and nothing is dropped without an answer.
"""

from __future__ import annotations

import contextlib
import math
import threading

from solver.errors import BiribaError
from solver.limits import SERVE_PATIENCE, SERVE_QUEUE


class Busy(BiribaError):
    """Every search slot and queue place is taken (HTTP 429)."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


class Gate:
    def __init__(self, waiting: int = SERVE_QUEUE, patience: float = SERVE_PATIENCE):
        self.waiting = waiting
        self.patience = patience
        self._lock = threading.Lock()
        self._count = threading.Lock()
        self._queued = 0

    @contextlib.contextmanager
    def search(self, seconds: float):
        """Hold the process's search slot for a search of about ``seconds``."""
        with self._count:
            if self._queued > self.waiting:          # one running, `waiting` queued
                raise Busy(f"the server is busy: {self._queued} searches running or "
                           f"waiting (at most {self.waiting + 1}); retry later",
                           self._retry(seconds))
            self._queued += 1
        try:
            if not self._lock.acquire(timeout=self.patience):
                raise Busy(f"the server is busy: no search slot within {self.patience:.0f} s; "
                           "retry later", self._retry(seconds))
            try:
                yield
            finally:
                self._lock.release()
        finally:
            with self._count:
                self._queued -= 1

    def _retry(self, seconds: float) -> int:
        return max(1, math.ceil(seconds * max(1, self._queued)))
