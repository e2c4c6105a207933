"""The responses the API gives besides its documents, for the OpenAPI document.

Every endpoint may answer :data:`COMMON` (a bad Host or bad input, a body too
slow or too large, a request of the wrong shape); the endpoints that start a
job add :data:`JOB_START` (the queue is full, the server is stopping), the
ones that wait for their job :data:`JOB_WAIT` (it was cancelled, it ran past
its limit, its process crashed), the ones that name a job :data:`JOB_ID`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

__all__ = [
    "COMMON",
    "JOB_ID",
    "JOB_START",
    "JOB_WAIT",
    "ErrorOut",
    "ValidationErrorOut",
    "responses",
]


class ErrorOut(BaseModel):
    """An error: its one-line ``detail`` (the library's English), the request field at fault
    when there is one, the same in the request's language (``Accept-Language``: en or ru)
    with the fields in the pages' words (``message``), and a ``code`` for some cases."""

    model_config = ConfigDict(extra="forbid")

    detail: str
    argument: str | None = None
    message: str | None = None
    code: str | None = None


class ValidationIssue(BaseModel):
    """One problem of a request's shape: where (``loc``), what (``msg``) and its ``type``."""

    model_config = ConfigDict(extra="allow")

    loc: list[str | int]
    msg: str
    type: str


class ValidationErrorOut(BaseModel):
    """A request of the wrong shape: every problem in one line, and each of them."""

    model_config = ConfigDict(extra="forbid")

    detail: str
    errors: list[ValidationIssue]


def responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI responses of ``codes`` (each one of :data:`DESCRIPTIONS`).

    Examples
    --------
    >>> sorted(responses(404, 429))
    [404, 429]
    >>> responses(418)
    Traceback (most recent call last):
        ...
    ValueError: codes must be documented responses, got 418
    """
    unknown = [code for code in codes if code not in DESCRIPTIONS]
    if unknown:
        raise ValueError(f"codes must be documented responses, got {', '.join(map(str, unknown))}")
    documented: dict[int | str, dict[str, Any]] = {}
    for code in codes:
        entry: dict[str, Any] = {
            "description": DESCRIPTIONS[code],
            "model": ValidationErrorOut if code == 422 else ErrorOut,
        }
        if code == 429:
            entry["headers"] = {
                "Retry-After": {
                    "description": "seconds to wait before trying again",
                    "schema": {"type": "integer", "minimum": 1},
                }
            }
        documented[code] = entry
    return documented


DESCRIPTIONS = {
    400: "Bad input (the library's one-line message and the field at fault), "
    "or a Host header that does not name this server",
    403: "The request does not carry a secret of the duel room (X-Room-Token)",
    404: "No such job (unknown, or forgotten ten minutes after it finished), "
    "or no such duel room (unknown, or expired)",
    408: "The request body did not arrive in time",
    409: "The job was cancelled (DELETE /api/jobs/{id}, or its client left), "
    "or the duel room cannot do it now (full, laid out already, not both laid out)",
    413: "The request body is over the server's size limit",
    422: "The request's shape is wrong: every problem, in one line and one by one",
    429: "The server has too many unfinished jobs (or open duel rooms): "
    "try again after Retry-After seconds",
    500: "A bug in the server (never bad input): its one line",
    503: "The server is shutting down: it takes no new jobs and ended this one",
    504: "The job ran past the server's time limit",
}
COMMON = responses(400, 408, 413, 422, 500)
JOB_START = responses(429, 503)
JOB_WAIT = responses(409, 429, 503, 504)
JOB_ID = responses(404)
