"""Grading speed: ``quintet grade`` when the deal's equilibrium is known and when it is solved.

Run from the repository root::

    python benchmarks/bench_grade.py [--deals 20] [--seed 1] [--markdown]

The greedy arrangement of each deal graded by the whole command on an empty book (solved),
again (known: from the book), and by ``grade`` twice in one fresh process (in-process).
"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import harness as h

from solver import deal, grade, greedy_arrangement
from solver.app.arguments import non_negative_int, positive_int

GOALS = {"process solved": 3.0, "process known": 1.0}  # step: goal (seconds)
GOALS |= {"in-process solved": None, "in-process known": None}


def child(seed: int) -> None:
    """In a fresh interpreter (no cache shared across deals): grade twice, no book."""
    mine, theirs = deal(seed).holdings
    arrangement = greedy_arrangement(mine)
    run = h.timed(lambda: grade(arrangement, theirs), repeats=2)
    h.emit(solved=run.wall[0], known=run.wall[1], loss=run.result.equilibrium_loss)


def measure(seed: int, book: Path) -> dict[str, float]:
    """Every timing of one deal (seconds) and its equilibrium loss."""
    arrangement = greedy_arrangement(deal(seed).holdings[0]).format(ascii=True)
    command = [sys.executable, "-m", "solver.cli", "grade", arrangement, "--seed", str(seed)]
    command += ["--book", str(book), "--json"]
    run = h.timed(lambda: subprocess.run(command, capture_output=True, text=True, check=True), 2)
    assert json.loads(run.result.stdout)["book"]["from_book"], "the second grade: from the book"
    inside = h.last(__file__, "--child", str(seed))
    times = [*run.wall, inside["solved"], inside["known"]]
    return dict(zip(GOALS, times, strict=True)) | {"loss": inside["loss"]}


def main() -> int:
    cli = h.parser(__doc__).options(positive_int, deals=20).options(non_negative_int, seed=1)
    args = cli.parse_args()
    if args.child:
        child(int(args.child[0]))
        return 0
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(args.seed, args.seed + args.deals):
            rows.append(measure(seed, Path(folder) / "book.sqlite"))
            h.log(f"seed {seed}: {rows[-1]}")
    facts = h.machine(["ortools"], f"deals={args.deals} seed={args.seed}")
    table = h.Table(
        f"Grading the greedy arrangement of {args.deals} deals",
        "what; median; p95; max; goal",
        "lrrrl",
    )
    for key, goal in GOALS.items():
        values = [row[key] for row in rows]
        verdict = f"<= {goal:g} s: {h.met(h.median(values) <= goal)}" if goal is not None else ""
        table.add(key, *h.spread(values), verdict)
    mean_loss = sum(row["loss"] for row in rows) / len(rows)
    table.notes = [
        "process: the whole `quintet grade` command, start-up included; known: from the book",
        f"mean equilibrium loss of the greedy arrangements: {mean_loss:.3f} points",
    ]
    h.show([facts, table], args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
