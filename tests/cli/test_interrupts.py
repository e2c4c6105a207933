"""Ctrl-C, for real: SIGINT sent to a ``quintet`` subprocess.

* A tournament with ``--csv`` keeps the rows of every finished deal, and
  ``--resume`` plays the others: the final CSV is the one an uninterrupted
  run writes.  With ``--jobs 2`` the workers stop too.
* A CP-SAT solve stopped by Ctrl-C says so (exit 130), it does not report
  its best arrangement so far as an ordinary result.

The signal is sent once the subprocess shows it is at work (a finished deal
in the CSV, a solution found by CP-SAT), never after a fixed pause.
The library side (:mod:`solver.response.interrupt`) is in
tests/response/test_interrupt.py.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from solver.equilibria.equilibrium import solve
from solver.game.deal import deal
from solver.models.mixture import write_mixture
from solver.play.players import equilibrium_mixture
from tests.support.cli import CLI, quintet

PLAYERS = "greedy,random"
DEALS = "4"


def _tournament(csv_path: Path, *extra: str) -> list[str]:
    return [*CLI, "tournament", "--players", PLAYERS, "--deals", DEALS, "--seed", "4",
            "--csv", str(csv_path), *extra]  # fmt: skip


def _wait_for_rows(folder: Path, process: subprocess.Popen) -> None:
    """Until the CSV holds a finished deal (rows are appended to it as deals finish)."""
    deadline = time.monotonic() + 600  # a generous bound, not an expected duration
    while time.monotonic() < deadline:
        for name in os.listdir(folder):
            if name.endswith(".csv") and len((folder / name).read_text().splitlines()) > 1:
                return
        assert process.poll() is None, process.communicate()
        time.sleep(0.02)
    raise AssertionError("no deal finished in 10 minutes")


def _interrupt(command: list[str], folder: Path) -> subprocess.CompletedProcess:
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for_rows(folder, process)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=120)
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def _deals(path: Path) -> set[str]:
    return {line.split(",")[0] for line in path.read_text().splitlines()[1:]}


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("full") / "games.csv"
    process = subprocess.run(_tournament(path), capture_output=True, text=True, timeout=600)
    assert process.returncode == 0, process.stderr
    return path.read_text()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_interrupted_tournament_keeps_its_rows_and_resumes(tmp_path, uninterrupted, jobs):
    path = tmp_path / "games.csv"
    interrupted = _interrupt(_tournament(path, "--jobs", jobs), tmp_path)
    assert interrupted.returncode == 130, interrupted.stderr
    assert "interrupted" in interrupted.stderr and "--resume" in interrupted.stderr
    assert "Traceback" not in interrupted.stderr
    kept = _deals(path)
    assert kept and kept < _deals_of(uninterrupted)  # some deals, not all
    assert [p for p in os.listdir(tmp_path) if p.endswith(".tmp")] == []
    resumed = subprocess.run(
        _tournament(path, "--resume"), capture_output=True, text=True, timeout=600
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"resumed: {len(kept)} deals" in resumed.stdout
    assert path.read_text() == uninterrupted  # every deal, in deal order, same games


def _deals_of(text: str) -> set[str]:
    return {line.split(",")[0] for line in text.splitlines()[1:]}


def _processes_mentioning(marker: str) -> list[int]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                if marker.encode() in handle.read():
                    found.append(int(pid))
        except OSError:
            continue
    return found


def test_two_jobs_stop_their_workers(tmp_path):
    # Many deals: without the stop, the workers would play on for minutes.
    path = tmp_path / "many.csv"
    command = [*CLI, "tournament", "--players", PLAYERS, "--deals", "400", "--jobs", "2",
               "--csv", str(path)]  # fmt: skip
    interrupted = _interrupt(command, tmp_path)
    assert interrupted.returncode == 130, interrupted.stderr
    assert _processes_mentioning(str(path)) == []  # no worker left behind


def test_resume_of_another_tournament_is_refused(tmp_path, uninterrupted):
    path = tmp_path / "games.csv"
    path.write_text(uninterrupted)
    process = quintet("tournament", "--players", PLAYERS, "--deals", DEALS, "--seed", "5",
                      "--csv", str(path), "--resume")  # fmt: skip
    assert process.returncode == 2
    assert "not one of this tournament's deals" in process.stderr
    assert path.read_text() == uninterrupted


def test_resume_of_a_finished_csv_plays_nothing(tmp_path, uninterrupted):
    path = tmp_path / "games.csv"
    path.write_text(uninterrupted)
    process = subprocess.run(_tournament(path, "--resume"), capture_output=True, text=True)
    assert process.returncode == 0, process.stderr
    assert "nothing to play" in process.stdout
    assert path.read_text() == uninterrupted


@pytest.fixture(scope="module")
def equilibrium_file(tmp_path_factory) -> Path:
    """The equilibrium of deal 1 as a mixture: CP-SAT needs seconds per model against it."""
    holdings = deal(1).holdings
    path = tmp_path_factory.mktemp("eq") / "eq.json"
    write_mixture(equilibrium_mixture(solve(*holdings), holdings[1]), path)
    return path


# ``quintet`` (its ``main``, arguments from the command line) with one addition:
# the first solution any CP-SAT search finds is announced on stderr, so the
# test knows a search is running, however long the start-up took.
ANNOUNCING = textwrap.dedent("""
    import sys
    from ortools.sat.python import cp_model
    from solver.cli.main import main
    from solver.response import interrupt

    class Announce(cp_model.CpSolverSolutionCallback):
        said = False

        def on_solution_callback(self):
            if not Announce.said:
                Announce.said = True
                print("searching", file=sys.stderr, flush=True)

    plain = interrupt.solve

    def solve(solver, model):
        original = solver.solve
        solver.solve = lambda model: original(model, Announce())
        return plain(solver, model)

    interrupt.solve = solve
    sys.exit(main())
""")


def test_ctrl_c_during_a_cpsat_solve_is_an_interrupt(equilibrium_file):
    # The 100 best arrangements: one CP-SAT search after another, each taking
    # seconds against this mixture.  SIGINT is sent once the first search has
    # found a solution: the model built, CP-SAT searching.
    command = [sys.executable, "-c", ANNOUNCING, "suggest", "--seed", "1",
               "--against", str(equilibrium_file), "--engine", "cpsat", "--top", "100"]  # fmt: skip
    # Unbuffered: reading the announcement takes nothing else from the pipe.
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    assert process.stderr is not None
    guard = threading.Timer(900, process.kill)  # a run that never searches cannot hang
    guard.start()
    try:
        announced = process.stderr.readline()
        assert announced == b"searching\n", (announced, process.communicate())
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=120)
    finally:
        guard.cancel()
        process.kill()  # nothing left running if it did not stop
    assert process.returncode == 130, (stdout, stderr)
    assert stderr.decode().strip() == "quintet: interrupted"
    assert stdout == b""  # no arrangement reported as if the search had finished


# ``quintet`` whose every CP-SAT solve is interrupted as Ctrl-C interrupts it
# (:func:`solver.response.interrupt.solve` raises KeyboardInterrupt from inside).
INTERRUPTED = textwrap.dedent("""
    import sys
    from solver.cli.main import main
    from solver.response import interrupt

    def solve(solver, model):
        raise KeyboardInterrupt

    interrupt.solve = solve
    sys.exit(main())
""")


def test_ctrl_c_during_the_runners_up_prints_what_was_found_not_proven():
    """The frontier engine's ``--top``: the best is proven before any CP-SAT search, the
    runner-up being searched is kept, marked not proven, and the exit status says 130."""
    command = [sys.executable, "-c", INTERRUPTED, "suggest", "--seed", "1", "--top", "3"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 130, done.stderr
    assert "status: proven optimal; engine frontier" in done.stdout
    assert "#2: " in done.stdout and "#3: " not in done.stdout
    assert "best found, not proven optimal (gap " in done.stdout
    assert "(stopped by Ctrl-C: the best found, not proven)" in done.stdout
    assert "quintet: warning: interrupted: the last arrangement is the best found" in done.stderr
