"""Benchmark of the solution book: build rate per payoff, bytes per deal, lookup latency.

Run from the repository root::

    python benchmarks/bench_book.py [--margin N] [--win M] [--seed S] [--lookups K] [--markdown]

It builds a book of N seeded mirror deals (margin) and one of M (win), each in a fresh
process (one worker, BLAS on one thread), times K lookups of relabelled stored deals
(``solve_with_book``, ``Book.get``) and projects the full mirror book on 64 and 512 cores.
"""

import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

import harness as h
import numpy as np

from solver import Book, Rules, build_book, deal, solve_equilibrium, solve_with_book
from solver.app.arguments import non_negative_int, positive_int
from solver.book.build import seeded_keys
from solver.book.canonical import canonical_key, holding_of, mirror_class_count, relabel

CORES = (64, 512)
RULES = Rules()


def child(path: Path, payoff: str, deals: int, seed: int, lookups: int) -> None:
    """Build one book, measure its bytes and lookups; one JSON line."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):
        warm = deal(seed=999_999, rules=Rules(ace_low_straight=True))
        solve_equilibrium(*warm.holdings, warm.rules, payoff)
        run = h.timed(lambda: build_book(path, RULES, [payoff], deals=deals, seed=seed))
    with closing(sqlite3.connect(path)) as connection:  # the log folded in, free pages dropped
        connection.execute("VACUUM")
    rng, full, bare = np.random.default_rng(seed), [], []
    with Book(path) as book:
        rows = book.count()
        blobs = sum(len(v) for r in book.rows(RULES, payoff) for v in r if type(v) is bytes)
        keys = [tuple(k) for k in book.keys(RULES, payoff).tolist()]
        for _ in range(lookups):
            key = keys[int(rng.integers(len(keys)))]
            holding = relabel(holding_of(key[0]), int(rng.integers(24)))
            answer = h.timed(lambda x=holding: solve_with_book(x, x, payoff, RULES, book))
            assert answer.result.from_book
            canonical, _ = canonical_key((holding, holding))
            full.append(answer.wall[0])
            bare.append(h.timed(lambda c=canonical: book.get(c, RULES, payoff)).wall[0])
    stored, size = len(seeded_keys(deals, seed, RULES)), path.stat().st_size / rows
    measured = {"wall": run.wall[0], "cpu": run.cpu[0], "stored": stored, "file": size}
    h.emit(**measured, blobs=blobs / rows, full=h.median(full), bare=h.median(bare))


def main() -> int:
    """Build, measure and print the tables."""
    cli = h.parser(__doc__).options(positive_int, margin=40, win=20, lookups=200)
    args = cli.options(non_negative_int, seed=0).parse_args()
    if args.child:
        path, payoff, *numbers = args.child
        child(Path(path), payoff, *map(int, numbers))
        return 0
    facts = h.machine(
        ["ortools", "numpy"],
        f"--margin {args.margin} --win {args.win} --seed {args.seed} --lookups {args.lookups}",
    )
    rates = h.Table(
        "Book build, mirror deals, one worker",
        "payoff; deals; wall; CPU; CPU per deal; deals per core-hour; bytes per deal (file); "
        "strategy bytes per deal; lookup median; SQLite read median",
        "lrrrrrrrrr",
    )
    classes = mirror_class_count()
    projection = h.Table(
        f"Projected full mirror book ({classes:,} classes)",
        ["payoff", *(f"{c} cores" for c in CORES), "size"],
        "lrrr",
    )
    total_seconds = total_bytes = 0.0
    with tempfile.TemporaryDirectory(prefix="bench-book-") as folder:
        for payoff, deals in (("margin", args.margin), ("win", args.win)):
            path = str(Path(folder) / f"{payoff}.sqlite")
            numbers = map(str, (deals, args.seed, args.lookups))
            m = h.last(__file__, "--child", path, payoff, *numbers)
            per_deal = m["cpu"] / m["stored"]
            rates.add(
                f"{payoff}; {m['stored']}; {h.seconds(m['wall'])}; {h.seconds(m['cpu'])}; "
                f"{h.seconds(per_deal)}; {3600 / per_deal:.0f}; {m['file']:,.0f}; "
                f"{m['blobs']:,.0f}; {1e3 * m['full']:.2f} ms; {1e3 * m['bare']:.3f} ms"
            )
            hours = [f"{classes * per_deal / cores / 3600:.1f} h" for cores in CORES]
            projection.add(payoff, *hours, f"{classes * m['file'] / 1e9:.2f} GB")
            total_seconds, total_bytes = total_seconds + per_deal, total_bytes + m["file"]
    hours = [f"{classes * total_seconds / c / 3600:.1f} h" for c in CORES]
    projection.add("both", *hours, f"{classes * total_bytes / 1e9:.2f} GB")
    projection.notes = ["wall time: classes x CPU s per deal / cores; size: classes x file bytes"]
    rates.notes = ["deals per core-hour from the process's CPU time (all its threads)"]
    h.show([facts, rates, projection], args.markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
