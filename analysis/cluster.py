"""Deal pairs on a Ray cluster (the ``[cluster]`` extra): ``biriba tournament --engine ray``.

Each deal pair is one Ray task, retried when its worker dies; results are taken as they
finish, in any order, and a pair's result depends on its players and its deal seed alone,
so the standings equal the local engine's for the same seeds.
"""

from __future__ import annotations

import socket

from analysis.duels import record
from solver.errors import BiribaError

CONNECT_SECONDS = 5.0  # an address must answer within this
RETRIES = 3            # a task whose worker dies runs again, at most this many times


class ClusterError(BiribaError):
    """Ray is missing, or its cluster cannot be reached."""


def connect(address: str | None = None, cpus: int | None = None):
    """``ray`` connected to the cluster at ``address``, or to a local Ray (``cpus`` of this
    machine's processors) when there is none; refused in one line otherwise."""
    try:
        import ray
    except ImportError:
        raise ClusterError("--engine ray needs Ray: pip install -e \".[cluster]\"") from None
    if address:
        _reachable(address)
    if ray.is_initialized():
        return ray
    try:
        if address:
            ray.init(address=address, log_to_driver=False, include_dashboard=False)
        else:
            ray.init(num_cpus=cpus, log_to_driver=False, include_dashboard=False)
    except Exception as error:   # Ray raises ConnectionError, ValueError, RuntimeError, ...
        where = f"the Ray cluster at {address!r}" if address else "a local Ray"
        raise ClusterError(f"cannot start {where}: {str(error).splitlines()[0][:160]}") \
            from None
    return ray


def _reachable(address: str) -> None:
    """Refuse at once a ``host:port`` (or ``ray://host:port``) nothing answers on: Ray itself
    waits for minutes on an address that does not answer."""
    where = address.split("://", 1)[-1]
    host, _, port = where.rpartition(":")
    if not host or not port.isdigit():
        return                      # "auto" and the like: Ray's to resolve
    try:
        socket.create_connection((host, int(port)), timeout=CONNECT_SECONDS).close()
    except OSError as error:
        raise ClusterError(f"cannot reach the Ray cluster at {address!r}: "
                           f"{error.strerror or error}") from None


def play_all(ray, play_one, jobs, pairs: list, log=None, progress=None, total: int = 0,
             stop=None) -> bool:
    """:func:`analysis.duels.play_all` on Ray: every job a task, each result appended to
    ``pairs`` and the log as it finishes. Whether Ctrl-C stopped it."""
    remote = ray.remote(max_retries=RETRIES)(play_one)
    pending = [remote.remote(job) for job in jobs]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            try:
                pair = ray.get(done[0])
            except ray.exceptions.RayError as error:   # its workers died RETRIES + 1 times
                said = str(error).strip().splitlines()
                raise ClusterError(f"a deal pair failed on Ray {RETRIES + 1} times "
                                   f"({type(error).__name__}: {said[0][:120] if said else ''}); "
                                   "the pairs finished are in the log: --resume it") from None
            if record(pair, pairs, log, progress, total, stop):
                break
    except KeyboardInterrupt:
        return True
    finally:
        for task in pending:
            ray.cancel(task, force=True)
    return False
