"""``quintet serve``: the web app on a local port.

This module is the ``serve`` entry of the ``quintet.commands`` entry-point
group (``pyproject.toml``): the command line lists the commands registered
there, so it never imports the web layer, and this module imports FastAPI
and uvicorn only when the command runs.
"""

from __future__ import annotations

import argparse
import threading
import webbrowser

from solver.app.arguments import non_negative_int, positive_float, positive_int
from solver.app.command import Command
from solver.errors import QuintetError

__all__ = ["COMMAND", "serve"]

MISSING_EXTRA = 'quintet serve needs the web extra: pip install "quintet-solver[web]"'


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only)",
    )
    parser.add_argument("--port", type=non_negative_int, default=8000, help="port (default 8000)")
    parser.add_argument("--open", action="store_true", help="open the page in a browser")
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


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    open_browser: bool = False,
    time_limit: float = 120.0,
    jobs: int | None = None,
) -> None:
    """Serve the app until interrupted.

    >>> serve(port=70000)
    Traceback (most recent call last):
        ...
    solver.errors.QuintetError: port must be between 0 and 65535, got 70000
    """
    if not 0 <= port <= 65535:
        raise QuintetError(f"port must be between 0 and 65535, got {port}", argument="port")
    try:
        import uvicorn

        from solver.web.app import create_app
    except ImportError:
        raise QuintetError(MISSING_EXTRA) from None
    app = create_app(max_running=jobs, time_limit=time_limit)
    if open_browser:
        url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(app, host=host, port=port, log_level="warning")


def _serve(args: argparse.Namespace) -> None:
    serve(args.host, args.port, open_browser=args.open, time_limit=args.time_limit, jobs=args.jobs)


COMMAND = Command(
    "serve",
    "serve the web app for players (needs the web extra)",
    _arguments,
    _serve,
    rules=False,
    flags={"port": "--port", "time_limit": "--time-limit", "max_running": "--jobs"},
)
