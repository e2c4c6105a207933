"""Dask clusters for tournaments and book builds: a local one, or a scheduler's within a deadline.

A port that accepts connections but never speaks Dask (a web server, a
silent listener) can block the client's handshake far past ``Client``'s
own timeout, so the connection runs in a daemon thread and the wait is
bounded here: :data:`DASK_CONNECT_TIMEOUT` seconds by default.

>>> dask_client("foo://nowhere", 1.0)
Traceback (most recent call last):
    ...
solver.errors.QuintetError: scheduler 'foo://nowhere' is not a reachable Dask scheduler (waited at most 1 s): ...
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from solver.errors import QuintetError

__all__ = ["DASK_CONNECT_TIMEOUT", "dask_client", "dask_cluster"]

DASK_CONNECT_TIMEOUT = 10.0  # seconds a scheduler has to answer


def dask_client(scheduler: str, timeout: float) -> Any:
    """A client of a running scheduler, or a QuintetError within the connect timeout.

    The client connects in a daemon thread: a port that accepts but never
    answers (a web server, a silent listener) can block the handshake past
    ``Client``'s own timeout, so the wait is bounded here.
    """
    from distributed import Client

    outcome: dict[str, object] = {}

    def connect() -> None:
        try:
            outcome["client"] = Client(scheduler, timeout=timeout)
        except Exception as error:  # distributed raises many kinds; all mean "cannot connect"
            lines = str(error).strip().splitlines()
            outcome["reason"] = lines[0] if lines else type(error).__name__

    thread = threading.Thread(target=connect, name="dask-connect", daemon=True)
    thread.start()
    thread.join(timeout + 1)
    if "client" in outcome:
        return outcome["client"]
    reason = outcome.get("reason", "no answer")
    raise QuintetError(
        f"scheduler {scheduler!r} is not a reachable Dask scheduler "
        f"(waited at most {timeout:g} s): {reason}",
        argument="scheduler",
    )


@contextmanager
def dask_cluster(
    scheduler: str | None, jobs: int, connect_timeout: float = DASK_CONNECT_TIMEOUT
) -> Iterator[Any]:
    """A client of ``scheduler``'s cluster, or of a local one of ``jobs`` processes; closed after.

    Raises a QuintetError (argument ``backend``) without the distributed
    extra, and as :func:`dask_client` for a scheduler that does not answer.
    """
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise QuintetError(
            'backend "dask" needs the distributed extra: pip install "quintet-solver[distributed]"',
            argument="backend",
        ) from None
    cluster = None
    if scheduler is None:
        cluster = LocalCluster(
            n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)
    else:
        client = dask_client(scheduler, connect_timeout)
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
