"""Run ``quintet`` as a real subprocess (the command-line tests, tests/cli/ and others)."""

from __future__ import annotations

import os
import subprocess
import sys

CLI = [sys.executable, "-m", "solver.cli"]


def quintet(*args: str, timeout: float = 1800, **options) -> subprocess.CompletedProcess:
    """Run ``quintet args`` and capture its text output.

    ``timeout`` bounds a hang; it is no expected duration (a loaded machine is slow).
    """
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=timeout, **options)


def one_line_error(process: subprocess.CompletedProcess, fragment: str, status: int = 2) -> None:
    """The run failed with ``status`` and exactly one line on stderr containing ``fragment``."""
    assert process.returncode == status, (process.returncode, process.stderr)
    lines = process.stderr.strip().splitlines()
    assert len(lines) == 1, process.stderr
    assert fragment in lines[0], lines[0]
    assert "Traceback" not in process.stderr


def environment(**changes: str) -> dict[str, str]:
    """This process's environment with ``changes``."""
    return {**os.environ, **changes}


def write_history(path, deals: int) -> None:
    """A CSV history of ``deals`` seeded deals, each laid out by the greedy arranger."""
    import csv

    from solver.game.deal import deal
    from solver.game.rules import Rules
    from solver.models.heuristics import greedy_arrangement

    rules = Rules()
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["seed", "arrangement"])
        for seed in range(deals):
            laid = greedy_arrangement(deal(seed, rules).holdings[0], rules)
            writer.writerow([seed, laid.format(ascii=True)])
