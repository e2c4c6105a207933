"""The web app: the JSON API, the page and its assets, limits and error handling.

Nothing is loaded from the internet: the page, its script, styles and the
card pictures (SVG drawn by the script) come from this package, and the
Content-Security-Policy says so to the browser.  FastAPI's documentation
pages load their assets from a CDN, so they are off; the OpenAPI document
is at ``/openapi.json`` and ``/docs`` lists the endpoints.
"""

from __future__ import annotations

import asyncio
import html
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.routing import compile_path
from starlette.types import ASGIApp

from solver.app.duel import Rooms
from solver.errors import (
    QuintetError,
    RoomFullError,
    RoomSecretError,
    RoomStateError,
    ServerStoppingError,
    TooManyJobsError,
    TooManyRoomsError,
    UnknownRoomError,
)
from solver.version import __version__
from solver.web.analysis_api import router as analysis_router
from solver.web.api import router
from solver.web.duel_api import router as duel_router
from solver.web.fields import exact_bounds
from solver.web.guard import MAX_BODY_BYTES, BodyLimit, HostCheck, Interrupted, SecurityHeaders
from solver.web.jobs import RETRY_AFTER_SECONDS, JobManager
from solver.web.responses import COMMON
from solver.web.speech import page_error, request_language

__all__ = ["MAX_BODY_BYTES", "create_app"]

STATIC = Path(__file__).resolve().parent / "static"


class _App(FastAPI):
    """FastAPI with :mod:`solver.web.guard` around everything, its 500s included."""

    guard: tuple[tuple[str, ...], int] | None = None  # (host names, port) to check

    def build_middleware_stack(self) -> ASGIApp:
        app = super().build_middleware_stack()
        app = BodyLimit(app)
        if self.guard is not None:
            app = HostCheck(app, *self.guard)
        return SecurityHeaders(Interrupted(app))

    def openapi(self) -> dict[str, Any]:
        """The OpenAPI document, its integer fields' bounds stated exactly (see fields)."""
        if self.openapi_schema is None:
            self.openapi_schema = exact_bounds(super().openapi())
        return self.openapi_schema


def _one_line(errors: list[Any]) -> str:
    """A validation error as one line: 'seed: Input should be ...; ...'."""
    parts = []
    for error in errors:
        where = ".".join(str(p) for p in error.get("loc", ()) if p != "body")
        parts.append(f"{where}: {error.get('msg', 'invalid')}" if where else error.get("msg", ""))
    return "; ".join(parts).replace("\n", " ")


# A duel room's refusals: not bad input, so not 400.
ROOM_CODES: dict[type[QuintetError], int] = {
    RoomSecretError: 403,
    UnknownRoomError: 404,
    RoomFullError: 409,
    RoomStateError: 409,
    TooManyRoomsError: 429,
}


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(QuintetError)
    async def quintet_error(request: Request, error: QuintetError) -> JSONResponse:
        # detail: the library's line; message: in the page's language (its Accept-Language),
        # its fields in the page's words.
        lang = request_language(request.headers.get("accept-language"))
        message = page_error(str(error), lang, (error.argument, *error.mentions))
        code = ROOM_CODES.get(type(error), 400)
        return JSONResponse(
            {"detail": str(error), "argument": error.argument, "message": message},
            status_code=code,
            headers={"retry-after": str(RETRY_AFTER_SECONDS)} if code == 429 else None,
        )

    @app.exception_handler(TooManyJobsError)
    async def too_many(request: Request, error: TooManyJobsError) -> JSONResponse:
        headers = {"retry-after": str(RETRY_AFTER_SECONDS)}
        return JSONResponse({"detail": str(error)}, status_code=429, headers=headers)

    @app.exception_handler(ServerStoppingError)
    async def stopping(request: Request, error: ServerStoppingError) -> JSONResponse:
        return JSONResponse(
            {"detail": str(error)}, status_code=503, headers={"connection": "close"}
        )

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        errors = jsonable_encoder(error.errors(), exclude={"input", "ctx", "url"})
        return JSONResponse({"detail": _one_line(errors), "errors": errors}, status_code=422)

    @app.exception_handler(Exception)
    async def internal(request: Request, error: Exception) -> JSONResponse:
        # A bug, not bad input: one line, never a traceback.
        return JSONResponse({"detail": f"internal error: {type(error).__name__}"}, 500)


def _endpoints_page(app: FastAPI) -> str:
    rows = "".join(
        f"<tr><td>{method.upper()}</td><td><code>{html.escape(path)}</code></td>"
        f"<td>{html.escape(operation.get('summary', ''))}</td></tr>"
        for path, operations in app.openapi()["paths"].items()
        for method, operation in operations.items()
    )
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>quintet API</title>"
        "<link rel='stylesheet' href='/style.css'></head><body class='docs'>"
        f"<h1>quintet API {__version__}</h1><p>The OpenAPI document: "
        "<a href='/openapi.json'>/openapi.json</a>. Each endpoint returns the JSON document "
        "the command line prints with <code>--json</code>; request bodies are limited to "
        f"{MAX_BODY_BYTES} bytes (413 beyond).</p>"
        f"<table id='endpoints'>{rows}</table></body></html>"
    )


def _unknown_api(app: FastAPI) -> None:
    """Under /api: 405 (with Allow) for a known path and another method, else a JSON 404."""
    methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"]

    @app.api_route("/api/{rest:path}", methods=methods, include_in_schema=False)
    def unknown(request: Request, rest: str) -> JSONResponse:
        path = request.url.path
        paths = app.openapi()["paths"]
        matching = [t for t in paths if t == path] or [
            t for t in paths if compile_path(t)[0].match(path)
        ]
        allowed = sorted({method.upper() for t in matching for method in paths[t]})
        if allowed:
            detail = f"{request.method} is not allowed on {path} (only {', '.join(allowed)})"
            return JSONResponse({"detail": detail}, 405, headers={"allow": ", ".join(allowed)})
        return JSONResponse({"detail": f"no endpoint {path}"}, 404)


def create_app(
    max_running: int | None = None,
    time_limit: float = 120.0,
    *,
    hosts: Sequence[str] | None = None,
    port: int = 8000,
) -> FastAPI:
    """The app: at most ``max_running`` solves at once, each at most ``time_limit`` seconds.

    ``hosts``: the names a request's Host header may give (with ``port``, or
    no port); any other is refused with 400.  None checks no Host (the test
    client's); ``quintet serve`` always gives them.

    >>> app = create_app(max_running=1, time_limit=10, hosts=["localhost"])
    >>> app.state.jobs.max_running, app.state.jobs.time_limit, app.guard
    (1, 10, (('localhost',), 8000))
    >>> create_app(time_limit=0)
    Traceback (most recent call last):
        ...
    solver.errors.QuintetError: time_limit must be positive, got 0
    """
    if not time_limit > 0:
        raise QuintetError(f"time_limit must be positive, got {time_limit}", argument="time_limit")
    if max_running is not None and max_running < 1:
        raise QuintetError(
            f"max_running must be at least 1, got {max_running}", argument="max_running"
        )
    jobs = JobManager(max_running=max_running, time_limit=time_limit)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        jobs.closing = False  # started (again: a test client starts an app per use)
        yield
        await asyncio.to_thread(jobs.shutdown)  # the jobs end; the event loop keeps answering

    app = _App(
        title="quintet",
        version=__version__,
        description="Quintet solver: the command line's JSON documents over HTTP.",
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json",
        lifespan=lifespan,
    )
    app.guard = None if hosts is None else (tuple(hosts), port)
    app.state.jobs = jobs
    app.state.rooms = Rooms()
    app.include_router(router, responses=COMMON)
    app.include_router(analysis_router, responses=COMMON)
    app.include_router(duel_router, responses=COMMON)
    _add_error_handlers(app)
    _unknown_api(app)

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return HTMLResponse(_endpoints_page(app))

    app.mount("/", StaticFiles(directory=STATIC, html=True), name="static")
    return app
