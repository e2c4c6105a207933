"""The web app: the JSON API, the page and its assets, limits and error handling.

Nothing is loaded from the internet: the page, its script, styles and the
card pictures (SVG drawn by the script) come from this package, and the
Content-Security-Policy says so to the browser.  FastAPI's documentation
pages load their assets from a CDN, so they are off; the OpenAPI document
is at ``/openapi.json`` and ``/docs`` lists the endpoints.
"""

from __future__ import annotations

import html
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from solver.errors import QuintetError
from solver.version import __version__
from solver.web.analysis_api import router as analysis_router
from solver.web.api import router
from solver.web.jobs import JobManager

__all__ = ["MAX_BODY_BYTES", "create_app"]

# Request bodies above this size are refused with 413 (a full request is under 2 KiB).
MAX_BODY_BYTES = 64 * 1024
STATIC = Path(__file__).resolve().parent / "static"
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:",
    ),
    (b"x-content-type-options", b"nosniff"),
]


class BodyLimit:
    """ASGI middleware: 413 for bodies over ``limit`` bytes, declared or streamed.

    The body is read here first (it is small, or refused), then handed on.
    """

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _too_large(self.limit, send)
            return
        messages: list[Message] = []
        size, more = 0, True
        while more:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > self.limit:
                await _too_large(self.limit, send)
                return
            more = message.get("more_body", False)

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)


async def _too_large(limit: int, send: Send) -> None:
    response = JSONResponse(
        {"detail": f"the request body is larger than {limit} bytes"}, status_code=413
    )
    await response({"type": "http"}, _no_receive, send)


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}


class SecurityHeaders:
    """ASGI middleware: every response says where its page may load from."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers if scope["type"] == "http" else send)


def _one_line(errors: list[Any]) -> str:
    """A validation error as one line: 'seed: Input should be ...; ...'."""
    parts = []
    for error in errors:
        where = ".".join(str(p) for p in error.get("loc", ()) if p != "body")
        parts.append(f"{where}: {error.get('msg', 'invalid')}" if where else error.get("msg", ""))
    return "; ".join(parts).replace("\n", " ")


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(QuintetError)
    async def quintet_error(request: Request, error: QuintetError) -> JSONResponse:
        return JSONResponse({"detail": str(error), "argument": error.argument}, status_code=400)

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


def create_app(max_running: int | None = None, time_limit: float = 120.0) -> FastAPI:
    """The app: at most ``max_running`` solves at once, each at most ``time_limit`` seconds.

    >>> app = create_app(max_running=1, time_limit=10)
    >>> app.state.jobs.max_running, app.state.jobs.time_limit
    (1, 10)
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
        yield
        jobs.shutdown()

    app = FastAPI(
        title="quintet",
        version=__version__,
        description="Quintet solver: the command line's JSON documents over HTTP.",
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json",
        lifespan=lifespan,
    )
    app.state.jobs = jobs
    app.include_router(router)
    app.include_router(analysis_router)
    _add_error_handlers(app)

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return HTMLResponse(_endpoints_page(app))

    app.mount("/", StaticFiles(directory=STATIC, html=True), name="static")
    app.add_middleware(SecurityHeaders)
    app.add_middleware(BodyLimit)
    return app
