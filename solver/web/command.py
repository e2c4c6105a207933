"""``quintet serve``: the web app on a local port.

This module is the ``serve`` entry of the ``quintet.commands`` entry-point
group (``pyproject.toml``): the command line lists the commands registered
there, so it never imports the web layer, and this module imports FastAPI
and uvicorn only when the command runs.

The server prints the URL it serves on (and, with ``--verbose``, one line
per request); warnings of the work it does go to its clients, never to its
console.  It answers only requests whose Host header names it (loopback
names, ``--host`` and each ``--allow-host``).
"""

from __future__ import annotations

import argparse
import sys
import threading
import webbrowser

from solver.app.arguments import non_negative_int, positive_float, positive_int
from solver.app.command import Command
from solver.errors import ListenError, QuintetError, UsageError

__all__ = ["COMMAND", "serve"]

MISSING_EXTRA = 'quintet serve needs the web extra: pip install "quintet-solver[web]"'
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only)",
    )
    parser.add_argument("--port", type=non_negative_int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a name clients may reach the server by, besides 127.0.0.1, localhost and [::1] "
        "(repeatable; for --host 0.0.0.0, the machine's name or address)",
    )
    parser.add_argument("--open", action="store_true", help="open the page in a browser")
    parser.add_argument("--verbose", action="store_true", help="log one line per request on stderr")
    parser.add_argument(
        "--time-limit",
        type=positive_float,
        default=120.0,
        metavar="S",
        help="longest solve of one request, in seconds (default 120)",
    )
    parser.add_argument(
        "--jobs",
        type=positive_int,
        default=None,
        help="solves running at once (default: one per core); others wait",
    )


def _names(host: str, allowed: list[str]) -> list[str]:
    """The Host names the server answers to: loopback, its own host, the allowed ones."""
    names = list(LOOPBACK)
    if host not in ("0.0.0.0", "::", ""):
        names.append(f"[{host}]" if ":" in host and not host.startswith("[") else host)
    return names + [name.strip().lower() for name in allowed if name.strip()]


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    open_browser: bool = False,
    time_limit: float = 120.0,
    jobs: int | None = None,
    allow_hosts: tuple[str, ...] = (),
    verbose: bool = False,
) -> None:
    """Serve the app until interrupted (Ctrl-C or SIGTERM: the jobs end, the server exits).

    Raises :class:`~solver.errors.ListenError` when ``host``:``port`` cannot
    be listened on (taken, not this machine's).

    >>> serve(port=70000)
    Traceback (most recent call last):
        ...
    solver.errors.QuintetError: port must be between 0 and 65535, got 70000
    """
    if not 0 <= port <= 65535:
        raise QuintetError(f"port must be between 0 and 65535, got {port}", argument="port")
    try:
        import uvicorn  # noqa: F401  (the web extra: checked here, used by the server)

        from solver.web import server
        from solver.web.app import create_app
    except ImportError:
        raise QuintetError(MISSING_EXTRA) from None
    sock = server.bind(host, port)
    port = sock.getsockname()[1]
    app = create_app(
        max_running=jobs, time_limit=time_limit, hosts=_names(host, list(allow_hosts)), port=port
    )
    url = server.url_of(host, port)
    if not server.is_loopback(host):
        print(
            f"quintet: warning: listening on {host}, beyond this machine: anyone who can reach "
            "it can use the solver and open duel rooms, over plain HTTP that others on the "
            "network can read (clients must use an allowed host name: --allow-host NAME)",
            file=sys.stderr,
        )
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    server.run(app, sock, ready=f"serving on {url} (Ctrl-C stops)", verbose=verbose)


def _serve(args: argparse.Namespace) -> None:
    try:
        serve(
            args.host,
            args.port,
            open_browser=args.open,
            time_limit=args.time_limit,
            jobs=args.jobs,
            allow_hosts=tuple(args.allow_host),
            verbose=args.verbose,
        )
    except ListenError as error:  # about the address, not a flag: said as it is
        raise UsageError(f"quintet: error: {error}") from None


COMMAND = Command(
    "serve",
    "serve the web app for players (needs the web extra)",
    _arguments,
    _serve,
    rules=False,
    flags={"port": "--port", "time_limit": "--time-limit", "max_running": "--jobs"},
)
