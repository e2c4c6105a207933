"""The work a job does, in its own process: the application layer's use cases.

Each job carries a request of :mod:`solver.app.requests` (frozen and
picklable, checked by the server before the job starts).  :func:`run` is
the target of a job's process: it sends ``("progress", dict)`` messages
while working and ends with ``("done", document, warnings)`` or
``("error", message, argument)``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from solver.app.answers import Answer
from solver.app.grading import grade_arrangement, play
from solver.app.solving import equilibrium, suggest
from solver.equilibria.equilibrium import IterationRecord
from solver.errors import QuintetError

__all__ = ["KINDS", "run"]


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


KINDS: dict[str, Callable[[Any, Callable[[dict[str, Any]], None]], Answer]] = {
    "suggest": lambda request, send: suggest(request),
    "equilibrium": _equilibrium,
    "grade": lambda request, send: grade_arrangement(request),
    "play": lambda request, send: play(request),
}


def run(connection: Connection, kind: str, request: Any) -> None:
    """A job's process: do the work and send its messages on ``connection``."""
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
