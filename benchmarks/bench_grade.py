"""Grading speed: ``quintet grade`` when the deal's equilibrium is known and when it is solved.

For each of ``--deals`` fixed seeds the greedy arrangement of the deal is graded
(a typical imperfect arrangement: every part of the grade is computed,
including the suggested change).  Measured, per deal:

* in-process, solved: the first ``grade`` call of a fresh process (strategy
  frontiers, the equilibrium, best responses, dominance, 1,260 moves);
* in-process, known: the second call in the same process (the equilibrium
  and frontiers are cached);
* process, solved: the whole ``quintet grade ARRANGEMENT --seed S`` command,
  start-up included;
* process, known: a whole fresh process that imports the package, loads the
  deal's equilibrium from a file (what a persistent solution book would
  provide) and grades: start-up included, no equilibrium solved.  Its parts
  are shown: imports, the holding's strategy frontier (best responses and
  dominance need it, and a fresh process has no cache), the rest of grading.

Goals: known <= 1 s, solved <= 3 s (medians, start-up included).

Usage::

    python benchmarks/bench_grade.py [--deals 20] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Run in a fresh interpreter; the pickled equilibrium stands in for the solution book.
_WORKER = """
import json, pickle, sys, time
started = time.perf_counter()
from solver.analysis.grade import grade
from solver.game.deal import deal
from solver.models.heuristics import greedy_arrangement
mode, seed, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
mine, theirs = deal(seed).holdings
arrangement = greedy_arrangement(mine)
if mode == "known":
    imported = time.perf_counter()
    with open(path, "rb") as handle:
        equilibrium = pickle.load(handle)
    from solver.game.rules import Rules
    from solver.response.frontier import cached_frontier
    cached_frontier(tuple(mine), Rules())  # what grade computes first; timed apart
    frontier = time.perf_counter()
    grade(arrangement, theirs, equilibrium=equilibrium)
    print(json.dumps({"startup": imported - started, "frontier": frontier - imported,
                      "rest": time.perf_counter() - frontier}))
else:
    t0 = time.perf_counter()
    first = grade(arrangement, theirs)
    t1 = time.perf_counter()
    grade(arrangement, theirs)
    t2 = time.perf_counter()
    with open(path, "wb") as handle:
        pickle.dump(first.equilibrium, handle)
    print(json.dumps({"solved": t1 - t0, "known": t2 - t1, "loss": first.equilibrium_loss}))
"""


def _timed(command: list[str]) -> tuple[float, str]:
    started = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, check=True)
    return time.perf_counter() - started, proc.stdout


def measure(seed: int, folder: Path) -> dict[str, float]:
    """Every timing of one deal."""
    from solver.game.deal import deal
    from solver.models.heuristics import greedy_arrangement

    path = str(folder / f"equilibrium-{seed}.pickle")
    _, out = _timed([sys.executable, "-c", _WORKER, "solve", str(seed), path])
    row = json.loads(out)
    row["known_process"], out = _timed([sys.executable, "-c", _WORKER, "known", str(seed), path])
    row.update(json.loads(out))
    arrangement = greedy_arrangement(deal(seed).holdings[0]).format(ascii=True)
    row["solved_process"], _ = _timed(
        [sys.executable, "-m", "solver.cli", "grade", arrangement, "--seed", str(seed)]
    )
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=20, help="deals (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    args = parser.parse_args()
    columns = [
        ("solved", "in-process solved"),
        ("known", "in-process known"),
        ("solved_process", "process solved"),
        ("known_process", "process known"),
        ("startup", "  of which imports"),
        ("frontier", "  of which frontier"),
        ("rest", "  of which grading"),
    ]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(args.seed, args.seed + args.deals):
            row = measure(seed, Path(folder))
            rows.append(row)
            cells = "  ".join(f"{row[key]:8.3f}" for key, _ in columns)
            print(f"seed {seed:4d}  {cells}  loss {row['loss']:.3f}", file=sys.stderr)
    print(f"grading the greedy arrangement of {args.deals} deals (seeds {args.seed}..)")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} CPUs, load average {load} (1, 5, 15 min) at the end")
    print(f"{'what':<20} {'median s':>9} {'p95 s':>7} {'max s':>7}  goal")
    goals = {"known_process": 1.0, "solved_process": 3.0}
    for key, title in columns:
        values = sorted(row[key] for row in rows)
        p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
        median = statistics.median(values)
        goal = goals.get(key)
        verdict = "" if goal is None else f"<= {goal:g} s: {'met' if median <= goal else 'NOT met'}"
        print(f"{title:<20} {median:9.3f} {p95:7.3f} {values[-1]:7.3f}  {verdict}")


if __name__ == "__main__":
    main()
