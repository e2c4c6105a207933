"""The work a job does, in its own process: the application layer's use cases.

Each job carries a request of :mod:`solver.app.requests` (frozen and
picklable, checked by the server before the job starts).  :func:`run` is
the target of a job's process: it sends ``("progress", dict)`` messages
while working and ends with ``("done", document, warnings)`` or
``("error", message, argument)``.  Before any work it ties its life to
the server's (:mod:`solver.web.lifeline`).

:func:`limited` is what the server runs: the request with its time limit
capped at the server's, and the seconds the job may take.  The frontier
engine (``suggest``'s default with one answer) is exhaustive and cannot stop
at a time limit, so a time limit given for it is refused rather than
broken (a 504 after the limit), and its job may take the server's limit.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import replace
from multiprocessing.connection import Connection
from typing import Any

from solver.app.analyze import analyze
from solver.app.answers import Answer
from solver.app.grading import grade_arrangement, play
from solver.app.solving import equilibrium
from solver.app.suggesting import suggest
from solver.equilibria.equilibrium import IterationRecord
from solver.errors import QuintetError, SolverError
from solver.web.lifeline import die_with_parent, exit_when_closed

__all__ = ["KINDS", "limited", "run"]


def _equilibrium(request: Any, send: Callable[[dict[str, Any]], None]) -> Answer:
    """The equilibrium use case; each iteration is reported as progress."""

    def progress(record: IterationRecord) -> None:
        send(
            {
                "iteration": record.iteration,
                "strategies": [record.row_strategies, record.column_strategies],
                "lower": record.lower,
                "upper": record.upper,
                "gap": record.gap,
                "seconds": record.seconds,
            }
        )

    return equilibrium(request, on_record=progress)


def _analyze(request: Any, send: Callable[[dict[str, Any]], None]) -> Answer:
    """The analyze use case; each deal graded is reported as progress (at most 10 a second)."""
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.perf_counter()
        if done == total or now - last[0] >= 0.1:
            last[0] = now
            send({"done": done, "total": total})

    return analyze(request, on_progress=progress)


KINDS: dict[str, Callable[[Any, Callable[[dict[str, Any]], None]], Answer]] = {
    "suggest": lambda request, send: suggest(request),
    "equilibrium": _equilibrium,
    "grade": lambda request, send: grade_arrangement(request),
    "play": lambda request, send: play(request),
    "analyze": _analyze,
}


def _ignores_time_limit(kind: str, request: Any) -> bool:
    """True when the engine the request will use cannot stop at a time limit (the frontier)."""
    if kind != "suggest" or request.against == "equilibrium":
        return False
    return bool(request.engine == "frontier" or (request.engine == "auto" and request.top == 1))


def limited(kind: str, request: Any, limit: float) -> tuple[Any, float]:
    """The request as a server with ``limit`` seconds a job runs it, and the job's seconds.

    Examples
    --------
    >>> from solver.app.requests import SuggestRequest, holdings
    >>> from solver.game.rules import Rules
    >>> dealt = holdings(None, None, 1, Rules())
    >>> request, seconds = limited("suggest", SuggestRequest(dealt, Rules(), top=2), 10.0)
    >>> request.time_limit, seconds
    (10.0, 10.0)
    >>> limited("suggest", SuggestRequest(dealt, Rules(), top=2, time_limit=3.0), 10.0)[1]
    3.0
    >>> limited("suggest", SuggestRequest(dealt, Rules()), 10.0)[0].time_limit is None
    True
    >>> limited("suggest", SuggestRequest(dealt, Rules(), time_limit=3.0), 10.0)
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: time_limit is not kept by the frontier engine (it is exhaustive)
    """
    if _ignores_time_limit(kind, request):
        if request.time_limit is not None:
            raise SolverError(
                "time_limit is not kept by the frontier engine (it is exhaustive)",
                argument="time_limit",
            )
        return request, limit
    capped = min(request.time_limit or limit, limit)
    return replace(request, time_limit=capped), capped


def run(connection: Connection, kind: str, request: Any, parent: int | None = None) -> None:
    """A job's process: do the work and send its messages on ``connection``.

    ``parent``: the pid of the process that started this one; the job dies
    with it (and exits at once when the server's end of ``connection`` closes).
    """
    if parent is not None and not die_with_parent(parent):
        os._exit(1)  # the parent died before the signal was set
    exit_when_closed(connection)
    started = time.perf_counter()

    def send(progress: dict[str, Any]) -> None:
        connection.send(("progress", {**progress, "elapsed": time.perf_counter() - started}))

    try:
        answer = KINDS[kind](request, send)
    except QuintetError as error:
        connection.send(("error", str(error), error.argument))
    except Exception as error:  # reported as an internal error, never a traceback
        connection.send(("crash", f"{type(error).__name__}: {error}", None))
    else:
        warnings = [notice.message for notice in answer.warnings]
        connection.send(("done", answer.document, warnings))
    finally:
        connection.close()
