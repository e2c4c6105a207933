"""No process outlives its command: workers end with a command killed by SIGKILL or SIGTERM.

Each command is started with two workers; once its worker processes exist
(read from ``/proc``, the event waited on), the command is killed, and every
process it had started must be gone: the pools' workers, Dask's local
cluster, the resource tracker.  SIGKILL is what the OOM killer sends;
SIGTERM is a plain ``kill`` or a service manager, and Python does not catch
it either.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.cli import CLI, write_history

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
]

DEADLINE = 300.0  # a bound on waiting for an event, not an expected duration


def _children() -> dict[int, int]:
    """Every process's parent, from /proc."""
    parents = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:  # ended meanwhile
            continue
        # The command name, in parentheses, may hold spaces: the fields follow its last ')'.
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z":  # a zombie has ended; only its parent's wait is missing
            parents[int(entry)] = int(fields[1])
    return parents


def _descendants(root: int) -> set[int]:
    parents = _children()
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pids: set[int]) -> set[int]:
    living = _children()
    return {pid for pid in pids if pid in living}


def _wait_for(condition, what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < deadline, f"waited {DEADLINE:g} s for {what}"
        time.sleep(0.05)


def _command(name: str, tmp_path: Path) -> tuple[list[str], int]:
    """The command line, and how many processes it starts once its workers run."""
    if name == "tournament":
        return [*CLI, "tournament", "--players", "greedy,random", "--deals", "100000",
                "--jobs", "2"], 2  # fmt: skip
    if name == "tournament-dask":
        return [*CLI, "tournament", "--players", "greedy,random", "--deals", "100000",
                "--jobs", "2", "--backend", "dask"], 2  # fmt: skip
    if name == "book-build":
        return [*CLI, "book", "build", "--book", str(tmp_path / "b.sqlite"), "--deals",
                "5000", "--jobs", "2"], 2  # fmt: skip
    history = tmp_path / "h.csv"
    write_history(history, 400)
    return [*CLI, "analyze", str(history), "--no-book", "--jobs", "2"], 2


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
@pytest.mark.parametrize("name", ["tournament", "book-build", "analyze", "tournament-dask"])
def test_the_workers_end_with_their_command(tmp_path, name, sig):
    if name == "tournament-dask":
        pytest.importorskip("distributed")
    command, workers = _command(name, tmp_path)
    process = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")},
    )
    started: set[int] = set()
    try:

        def running() -> bool:
            assert process.poll() is None, f"{name} ended before it was killed"
            started.update(_descendants(process.pid))
            return len(started) >= workers

        _wait_for(running, f"{name}'s {workers} workers")
        process.send_signal(sig)
        process.wait(timeout=DEADLINE)
        started |= _descendants(process.pid)  # started while the signal was on its way
        _wait_for(lambda: not _alive(started), f"{name}'s workers to end after {sig.name}")
    finally:  # a failure leaves nothing running either
        if process.poll() is None:
            process.kill()
            process.wait()
        for pid in _alive(started):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
