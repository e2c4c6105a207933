"""Grading speed: ``quintet grade`` when the deal's equilibrium is known and when it is solved.

For each of ``--deals`` fixed seeds the greedy arrangement of the deal is graded
(a typical imperfect arrangement: every part of the grade is computed,
including the suggested change).  Measured, per deal:

* process, solved: the whole ``quintet grade ARRANGEMENT --seed S --book FILE``
  command on an empty book, start-up included: it solves the deal's
  equilibrium and stores it;
* process, known: the same command again: the equilibrium comes from the book,
  and the fresh process computes the holding's strategy frontier (best
  responses and dominance need it) and grades;
* in-process, solved and known: ``grade`` called twice in one process with no
  book (the second call finds the equilibrium and frontiers cached).

Goals: known <= 1 s, solved <= 3 s (medians of the whole process, start-up
included).

Usage::

    python benchmarks/bench_grade.py [--deals 20] [--seed 1] [--markdown]
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import Table, machine_table, median, met, p95, parser, print_tables, seconds, version

from solver.app.arguments import non_negative_int, positive_int

# One fresh interpreter per deal for the in-process figures (no cache shared across deals).
_IN_PROCESS = """
import json, sys, time
from solver.analysis.grade import grade
from solver.game.deal import deal
from solver.models.heuristics import greedy_arrangement
mine, theirs = deal(int(sys.argv[1])).holdings
arrangement = greedy_arrangement(mine)
t0 = time.perf_counter(); first = grade(arrangement, theirs)
t1 = time.perf_counter(); grade(arrangement, theirs)
t2 = time.perf_counter()
print(json.dumps({"solved": t1 - t0, "known": t2 - t1, "loss": first.equilibrium_loss}))
"""
GOALS = {"process known": 1.0, "process solved": 3.0}


def _timed(command: list[str]) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return time.perf_counter() - started, done.stdout


def measure(seed: int, book: Path) -> dict[str, float]:
    """Every timing of one deal (seconds) and its equilibrium loss."""
    from solver.game.deal import deal
    from solver.models.heuristics import greedy_arrangement

    arrangement = greedy_arrangement(deal(seed).holdings[0]).format(ascii=True)
    command = [sys.executable, "-m", "solver.cli", "grade", arrangement, "--seed", str(seed)]
    command += ["--book", str(book), "--json"]
    solved, _ = _timed(command)
    known, out = _timed(command)
    assert json.loads(out)["book"]["from_book"], "the second grade must come from the book"
    _, out = _timed([sys.executable, "-c", _IN_PROCESS, str(seed)])
    inside = json.loads(out)
    return {
        "process solved": solved,
        "process known": known,
        "in-process solved": inside["solved"],
        "in-process known": inside["known"],
        "loss": inside["loss"],
    }


def main() -> int:
    cli = parser(__doc__)
    cli.add_argument("--deals", type=positive_int, default=20, help="deals (default 20)")
    cli.add_argument("--seed", type=non_negative_int, default=1, help="first seed (default 1)")
    args = cli.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(args.seed, args.seed + args.deals):
            rows.append(measure(seed, Path(folder) / "book.sqlite"))
            print(f"seed {seed}: {rows[-1]}", file=sys.stderr)
    machine = machine_table(
        [("ortools", version("ortools"))], f"deals={args.deals} seed={args.seed}"
    )
    table = Table(
        f"Grading the greedy arrangement of {args.deals} deals",
        "what; median; p95; max; goal",
        "lrrrl",
    )
    for key in ("process solved", "process known", "in-process solved", "in-process known"):
        values = [row[key] for row in rows]
        goal = GOALS.get(key)
        verdict = "" if goal is None else f"<= {goal:g} s: {met(median(values) <= goal)}"
        table.rows.append(
            [key, seconds(median(values)), seconds(p95(values)), seconds(max(values)), verdict]
        )
    mean_loss = sum(row["loss"] for row in rows) / len(rows)
    table.notes.append(
        "process: the whole `quintet grade` command, start-up included; known: the "
        "equilibrium read from the solution book, the holding's frontier computed afresh"
    )
    table.notes.append(f"mean equilibrium loss of the greedy arrangements: {mean_loss:.3f} points")
    print_tables([machine, table], args.markdown, "")
    return 0


if __name__ == "__main__":
    sys.exit(main())
