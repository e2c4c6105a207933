"""What the server checks and adds around every request (ASGI middleware).

* :class:`SecurityHeaders`: every response, errors and refusals included,
  says where its page may load from and that it may not be framed.
* :class:`HostCheck`: the ``Host`` header must name the server (loopback
  names by default): a web page on another site that got its name to resolve
  to 127.0.0.1 (DNS rebinding) cannot drive the user's server.
* :class:`BodyLimit`: bodies over a size are refused (413), bodies that do
  not arrive in time too (408).
* :class:`Interrupted`: a request still waiting when the server is forced to
  stop (a second Ctrl-C) is answered 503, never a plain-text 500.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable
from typing import Any

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from solver.web.jobs import STOPPING

__all__ = [
    "BODY_SECONDS",
    "LOOPBACK_NAMES",
    "MAX_BODY_BYTES",
    "SECURITY_HEADERS",
    "BodyLimit",
    "HostCheck",
    "Interrupted",
    "SecurityHeaders",
    "host_allowed",
]

# Request bodies above this size are refused with 413 (a full request is under 2 KiB).
MAX_BODY_BYTES = 64 * 1024
# Seconds a request body may take to arrive (408 beyond).
BODY_SECONDS = 10.0
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        b"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]
_NAMES = {name for name, _ in SECURITY_HEADERS}


async def _send_json(
    send: Send, status: int, detail: str, headers: dict[str, str], **more: Any
) -> None:
    response = JSONResponse({"detail": detail, **more}, status_code=status, headers=headers)
    await response({"type": "http"}, _no_receive, send)


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}


class SecurityHeaders:
    """ASGI middleware: every response carries :data:`SECURITY_HEADERS` (and only once)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _NAMES]
                message["headers"] = [*kept, *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers if scope["type"] == "http" else send)


def host_allowed(host: str | None, names: Iterable[str], port: int) -> bool:
    """Is ``host`` (a Host header) one of ``names``, without a port or with ``port``?

    Examples
    --------
    >>> host_allowed("localhost:8000", ["localhost"], 8000)
    True
    >>> host_allowed("[::1]:8000", ["[::1]"], 8000), host_allowed("LOCALHOST", ["localhost"], 80)
    (True, True)
    >>> host_allowed("evil.example:8000", ["localhost"], 8000)
    False
    >>> host_allowed("localhost:9000", ["localhost"], 8000), host_allowed(None, ["localhost"], 1)
    (False, False)
    >>> host_allowed("localhost", ["localhost"], -1)
    Traceback (most recent call last):
        ...
    ValueError: port must be between 0 and 65535, got -1
    """
    if not 0 <= port <= 65535:
        raise ValueError(f"port must be between 0 and 65535, got {port}")
    if not host:
        return False
    host = host.strip().lower()
    name, _, given = host.rpartition(":") if host.rfind(":") > host.rfind("]") else (host, "", "")
    if given and given != str(port):
        return False
    return name in {n.lower() for n in names}


class HostCheck:
    """ASGI middleware: 400 unless the Host header is one of ``names`` (with ``port``)."""

    def __init__(self, app: ASGIApp, names: Iterable[str], port: int) -> None:
        self.app, self.names, self.port = app, tuple(names), port

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            if not host_allowed(host, self.names, self.port):
                detail = (
                    f"the Host header {host[:100]!r} is not a name of this server "
                    "(quintet serve --allow-host NAME adds one)"
                )
                await _send_json(send, 400, detail, {})
                return
        await self.app(scope, receive, send)


class BodyLimit:
    """ASGI middleware: 413 for bodies over ``limit`` bytes, 408 for bodies slower than ``seconds``.

    The body is read here first (it is small, or refused), then handed on.
    """

    def __init__(
        self, app: ASGIApp, limit: int = MAX_BODY_BYTES, seconds: float = BODY_SECONDS
    ) -> None:
        self.app, self.limit, self.seconds = app, limit, seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._too_large(send)
            return
        messages: list[Message] = []
        size, more = 0, True
        deadline = asyncio.get_running_loop().time() + self.seconds
        while more:
            try:
                left = deadline - asyncio.get_running_loop().time()
                message = await asyncio.wait_for(receive(), timeout=max(left, 0.0))
            except asyncio.TimeoutError:
                detail = f"the request body did not arrive within {self.seconds:g} seconds"
                await _send_json(send, 408, detail, {"connection": "close"})
                return
            messages.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > self.limit:
                await self._too_large(send)
                return
            more = message.get("more_body", False)

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, send: Send) -> None:
        detail = f"the request body is larger than {self.limit} bytes"
        await _send_json(send, 413, detail, {"connection": "close"})


class Interrupted:
    """ASGI middleware: a request cancelled by a forced stop is answered 503 (if it can be)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            await self.app(scope, receive, watched)
        except asyncio.CancelledError:
            # The server is stopping now: answer, and end this request quietly.  The body
            # is the one a waiting client's stopped job answers (api.finished_job): which of
            # the two answers depends on timing, what the client reads must not.
            if not started:
                with contextlib.suppress(Exception):  # the client is gone already
                    await _send_json(send, 503, STOPPING, {"connection": "close"}, argument=None)
