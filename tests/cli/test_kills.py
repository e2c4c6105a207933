"""Finished work survives any kill: SIGKILL and SIGHUP, for real.

A ``quintet tournament --csv FILE`` subprocess is killed once ``FILE`` itself
holds a finished deal (the readiness signal, never a pause); ``FILE`` then
keeps every finished deal, no hidden temporary file is left behind, and
``--resume`` plays only the rest and ends with the CSV an uninterrupted run
writes.  A row cut short by a kill (no end of line) is dropped on resume.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.support.cli import CLI

PLAYERS = "greedy,random"
# More than one deal, so that a run stopped at its first row has some left.
DEALS = "40"


def _tournament(csv_path: Path, *extra: str) -> list[str]:
    return [*CLI, "tournament", "--players", PLAYERS, "--deals", DEALS, "--seed", "7",
            "--csv", str(csv_path), *extra]  # fmt: skip


def _deals(text: str) -> set[str]:
    return {line.split(",")[0] for line in text.splitlines()[1:]}


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("full") / "games.csv"
    process = subprocess.run(_tournament(path), capture_output=True, text=True, timeout=600)
    assert process.returncode == 0, process.stderr
    return path.read_text()


def _kill_after_first_deal(command: list[str], path: Path, sig: signal.Signals) -> int:
    """Start ``command``, wait for a data row in ``path``, send ``sig``; the exit status.

    The run could finish between the look at ``path`` and the signal (a loaded machine
    may not schedule this test for seconds), so the run is looked at only while it is
    stopped (SIGSTOP): a stopped run cannot finish, and ``sig`` reaches it before it
    runs again (SIGCONT delivers the pending signal first).  A run that finished while
    it was let go on (this test not scheduled meanwhile) cannot be killed: it is run
    again, from an empty file, until one is caught running.
    """
    for _ in range(20):
        path.unlink(missing_ok=True)
        status = _kill_once(command, path, sig)
        if status is not None:
            return status
    raise AssertionError("20 runs finished before this test could look at them")


def _default_hangup() -> None:
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def _kill_once(command: list[str], path: Path, sig: signal.Signals) -> int | None:
    """One run of :func:`_kill_after_first_deal`: None if it finished before the signal."""
    process = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        # The signal's default action, even where this test runs under nohup (which
        # leaves SIGHUP ignored in every child, and the run would finish unharmed).
        preexec_fn=_default_hangup,
    )
    deadline = time.monotonic() + 600  # a generous bound, not an expected duration
    while time.monotonic() < deadline:
        process.send_signal(signal.SIGSTOP)
        if process.poll() is not None:  # it ended while let go on: nothing to kill
            assert process.returncode == 0, process.communicate()
            process.communicate()
            return None
        if path.exists() and len(path.read_text().splitlines()) > 1:
            break
        process.send_signal(signal.SIGCONT)
        time.sleep(0.02)  # lets the run go on; no correctness rests on this length
    else:
        raise AssertionError("no deal finished in 10 minutes")
    process.send_signal(sig)
    process.send_signal(signal.SIGCONT)
    process.communicate(timeout=120)
    return process.returncode


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGHUP])
def test_a_killed_tournament_keeps_its_rows_in_the_file_and_resumes(tmp_path, uninterrupted, sig):
    path = tmp_path / "games.csv"
    status = _kill_after_first_deal(_tournament(path), path, sig)
    assert status == -sig  # killed, not finished
    kept = _deals(path.read_text())
    assert kept and kept < _deals(uninterrupted)  # some deals, not all
    assert [p for p in os.listdir(tmp_path) if p.endswith(".tmp")] == []
    resumed = subprocess.run(
        _tournament(path, "--resume"), capture_output=True, text=True, timeout=600
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"resumed: {len(kept)} deals" in resumed.stdout  # each deal's rows in one write
    assert path.read_text() == uninterrupted


@pytest.mark.slow
def test_a_row_cut_short_is_dropped_and_replayed(tmp_path, uninterrupted):
    path = tmp_path / "games.csv"
    lines = uninterrupted.splitlines(keepends=True)
    path.write_text("".join(lines[:4]) + lines[4][:-3])  # the last row cut by a kill
    resumed = subprocess.run(
        _tournament(path, "--resume"), capture_output=True, text=True, timeout=600
    )
    assert resumed.returncode == 0, resumed.stderr
    assert path.read_text() == uninterrupted
