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
from pathlib import Path

from harness import (
    Table,
    emit,
    fresh,
    log,
    machine,
    median,
    met,
    p95,
    parser,
    seconds,
    show,
    timed,
    version,
)

from solver.app.arguments import non_negative_int, positive_int

GOALS = {"process known": 1.0, "process solved": 3.0}


def child(seed: int) -> None:
    """In a fresh interpreter (no cache shared across deals): grade twice, no book."""
    from solver.analysis.grade import grade
    from solver.game.deal import deal
    from solver.models.heuristics import greedy_arrangement

    mine, theirs = deal(seed).holdings
    arrangement = greedy_arrangement(mine)
    run = timed(lambda: grade(arrangement, theirs), repeats=2)
    emit(solved=run.wall[0], known=run.wall[1], loss=run.result.equilibrium_loss)


def measure(seed: int, book: Path) -> dict[str, float]:
    """Every timing of one deal (seconds) and its equilibrium loss."""
    from solver.game.deal import deal
    from solver.models.heuristics import greedy_arrangement

    arrangement = greedy_arrangement(deal(seed).holdings[0]).format(ascii=True)
    command = [sys.executable, "-m", "solver.cli", "grade", arrangement, "--seed", str(seed)]
    command += ["--book", str(book), "--json"]
    run = timed(lambda: subprocess.run(command, capture_output=True, text=True, check=True), 2)
    assert json.loads(run.result.stdout)["book"]["from_book"], "the second grade: from the book"
    done = fresh(__file__, "--child", str(seed))
    if done.error or not done.messages:
        sys.exit(f"seed {seed}: {done.error}")
    inside = done.messages[-1]
    return {
        "process solved": run.wall[0],
        "process known": run.wall[1],
        "in-process solved": inside["solved"],
        "in-process known": inside["known"],
        "loss": inside["loss"],
    }


def main() -> int:
    cli = parser(__doc__)
    cli.add_argument("--deals", type=positive_int, default=20, help="deals (default 20)")
    cli.add_argument("--seed", type=non_negative_int, default=1, help="first seed (default 1)")
    args = cli.parse_args()
    if args.child:
        child(int(args.child[0]))
        return 0
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(args.seed, args.seed + args.deals):
            rows.append(measure(seed, Path(folder) / "book.sqlite"))
            log(f"seed {seed}: {rows[-1]}")
    facts = machine([("ortools", version("ortools"))], f"deals={args.deals} seed={args.seed}")
    table = Table(
        f"Grading the greedy arrangement of {args.deals} deals",
        "what; median; p95; max; goal",
        "lrrrl",
    )
    for key in ("process solved", "process known", "in-process solved", "in-process known"):
        values = [row[key] for row in rows]
        goal = GOALS.get(key)
        verdict = "" if goal is None else f"<= {goal:g} s: {met(median(values) <= goal)}"
        table.add(key, seconds(median(values)), seconds(p95(values)), seconds(max(values)), verdict)
    mean_loss = sum(row["loss"] for row in rows) / len(rows)
    table.notes.append(
        "process: the whole `quintet grade` command, start-up included; known: the "
        "equilibrium read from the solution book, the holding's frontier computed afresh"
    )
    table.notes.append(f"mean equilibrium loss of the greedy arrangements: {mean_loss:.3f} points")
    show([facts, table], args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
