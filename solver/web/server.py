"""The HTTP server of ``quintet serve``: uvicorn on a socket bound beforehand, stopping cleanly.

The socket is bound here, before uvicorn starts, so that a taken port or
an address that is not this machine's is one line and exit status 2 (not
uvicorn's log line and status 3).  On the first Ctrl-C or SIGTERM the
server stops accepting, ends every job at once (:meth:`JobManager.close
<solver.web.jobs.JobManager.close>`: waiting clients are answered 503) and
exits; a second Ctrl-C cuts the wait short, and a request still in flight
is answered 503 (:class:`~solver.web.guard.Interrupted`), never 500.
"""

from __future__ import annotations

import contextlib
import copy
import errno
import ipaddress
import logging
import signal
import socket
import threading
from collections.abc import Generator
from types import FrameType
from typing import Any

import uvicorn

from solver.errors import ListenError
from solver.web.jobs import JobManager

__all__ = ["GRACE_SECONDS", "bind", "is_loopback", "run", "url_of"]

# Seconds the server waits for its connections to finish once told to stop.
GRACE_SECONDS = 1
HANDLED = (signal.SIGINT, signal.SIGTERM)


def is_loopback(host: str) -> bool:
    """Is ``host`` this machine only (127.0.0.0/8, ::1, localhost)?

    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("::1")
    (True, True, True)
    >>> is_loopback("0.0.0.0"), is_loopback("example.org")
    (False, False)
    >>> is_loopback("")
    Traceback (most recent call last):
        ...
    ValueError: host must not be empty
    """
    if not host:
        raise ValueError("host must not be empty")
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def url_of(host: str, port: int) -> str:
    """The URL a browser on this machine opens for a server on ``host``:``port``.

    >>> url_of("127.0.0.1", 8000), url_of("0.0.0.0", 80), url_of("::", 8000)
    ('http://127.0.0.1:8000/', 'http://127.0.0.1:80/', 'http://[::1]:8000/')
    >>> url_of("localhost", 70000)
    Traceback (most recent call last):
        ...
    ValueError: port must be between 0 and 65535, got 70000
    """
    if not 0 <= port <= 65535:
        raise ValueError(f"port must be between 0 and 65535, got {port}")
    shown = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def bind(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port`` (port 0: a free one), or a :class:`ListenError`.

    >>> sock = bind("127.0.0.1", 0)
    >>> bind("127.0.0.1", sock.getsockname()[1])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    solver.errors.ListenError: port ... is in use: another program (another quintet serve?) ...
    >>> sock.close()
    """
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host.strip("[]") or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except (socket.gaierror, UnicodeError) as error:
        why = getattr(error, "strerror", None) or str(error)
        raise ListenError(f"host {host!r} is not an address to listen on ({why})") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise ListenError(
                f"port {port} is in use: another program (another quintet serve?) listens "
                f"on it; choose another port"
            ) from None
        if error.errno == errno.EADDRNOTAVAIL:
            raise ListenError(f"host {host!r} is not an address of this machine") from None
        raise ListenError(f"cannot listen on {host} port {port}: {error.strerror}") from None
    return sock


class _Server(uvicorn.Server):
    """uvicorn's server, ending the jobs as soon as it is told to stop."""

    def __init__(self, config: uvicorn.Config, jobs: JobManager, ready: str) -> None:
        super().__init__(config)
        self.jobs, self.ready = jobs, ready

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        # Serving, and Ctrl-C handled: the line a user (or a test) waits for.
        print(self.ready, flush=True)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        # Before waiting for connections: their jobs end now, and they are answered 503.
        self.jobs.close()
        await super().shutdown(sockets=sockets)
        if self.force_exit:  # uvicorn then skips the app's shutdown: its task would be
            await self.lifespan.shutdown()  # cancelled, with a traceback on the console

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        # A second signal of either kind forces the exit (uvicorn's own: only SIGINT).
        if self.should_exit:
            self.force_exit = True
        self.should_exit = True

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        # uvicorn's, without raising the signals again afterwards: the server's
        # stop is a normal end (exit status 0), with the jobs' processes gone.
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        original = {sig: signal.signal(sig, self.handle_exit) for sig in HANDLED}
        try:
            yield
        finally:
            for sig, handler in original.items():
                signal.signal(sig, handler)


def run(app: Any, sock: socket.socket, *, ready: str, verbose: bool = False) -> None:
    """Serve ``app`` on ``sock`` until a Ctrl-C or SIGTERM; its jobs end with it.

    ``ready``: the line printed on stdout once the server answers.
    ``verbose``: one line per request on stderr (uvicorn's access log).
    """
    logs = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    logs["handlers"]["access"]["stream"] = "ext://sys.stderr"  # stdout: the URL line only
    config = uvicorn.Config(
        app,
        log_level="warning",
        log_config=logs,
        access_log=verbose,
        server_header=False,
        timeout_graceful_shutdown=GRACE_SECONDS,
    )
    if verbose:
        logging.getLogger("uvicorn.access").setLevel(logging.INFO)
    jobs: JobManager = app.state.jobs
    jobs.start()
    server = _Server(config, jobs, ready)
    try:
        server.run(sockets=[sock])
    finally:
        jobs.shutdown()
        sock.close()
