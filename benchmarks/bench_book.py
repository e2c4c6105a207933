"""Benchmark of the solution book: build rate per payoff, bytes per deal, lookup latency.

Run from the repository root::

    python benchmarks/bench_book.py [--margin N] [--win M] [--seed S] [--lookups K] [--markdown]

It builds a fresh book of ``N`` seeded mirror deals for the margin payoff and
one of ``M`` for the win payoff (the deals of ``quintet book build --seed S``,
one worker, BLAS on one thread, costs in CPU time).  Each build runs in a
fresh process (this script with ``--child``), warmed up untimed by one solve on
the ace-low ranking, so every deal pays for its frontiers as on a fresh
worker.  Then it times ``K`` lookups through
:func:`solver.book.lookup.solve_with_book` of stored deals with their suits
relabelled at random (canonical key, SQLite read, strategies decoded and
mapped back), and the bare read ``Book.get``.

From the measured cost per deal it projects the full mirror book (every one
of the 156,248 classes, both payoffs) on 64 and 512 cores: classes x cost per
deal / cores, and its size: classes x bytes per deal.
"""

from __future__ import annotations

import sqlite3
import sys
import tempfile
from contextlib import closing
from pathlib import Path

import numpy as np
from harness import Table, emit, fresh, machine, median, parser, seconds, show, timed, version

from solver.app.arguments import non_negative_int, positive_int

CORES = (64, 512)


def child(path: Path, payoff: str, deals: int, seed: int, lookups: int) -> None:
    """Build one book, measure its bytes and lookups; one JSON line."""
    from threadpoolctl import threadpool_limits

    from solver.book.build import build, seeded_keys
    from solver.book.canonical import canonical_key, holding_of, relabel
    from solver.book.lookup import solve_with_book
    from solver.book.store import Book
    from solver.equilibria.equilibrium import solve
    from solver.game.deal import deal
    from solver.game.rules import DEFAULT_RULES, Rules

    with threadpool_limits(limits=1):
        warm = deal(seed=999_999, rules=Rules(ace_low_straight=True))
        solve(*warm.holdings, warm.rules, payoff)
        run = timed(lambda: build(path, DEFAULT_RULES, [payoff], deals=deals, seed=seed))
    with closing(sqlite3.connect(path)) as connection:  # the log folded in, free pages dropped
        connection.execute("VACUUM")
    rng = np.random.default_rng(seed)
    with Book(path) as book:
        rows = book.count()
        blobs = sum(len(v) for r in book.rows(DEFAULT_RULES, payoff) for v in r if type(v) is bytes)
        keys = [tuple(k) for k in book.keys(DEFAULT_RULES, payoff).tolist()]
        full, bare = [], []
        for _ in range(lookups):
            key = keys[int(rng.integers(len(keys)))]
            holding = relabel(holding_of(key[0]), int(rng.integers(24)))
            answer = timed(lambda h=holding: solve_with_book(h, h, payoff, DEFAULT_RULES, book))
            assert answer.result.from_book
            canonical, _ = canonical_key((holding, holding))
            full.append(answer.wall[0])
            bare.append(timed(lambda c=canonical: book.get(c, DEFAULT_RULES, payoff)).wall[0])
    emit(
        wall=run.wall[0],
        cpu=run.cpu[0],
        stored=len(seeded_keys(deals, seed, DEFAULT_RULES)),
        file=path.stat().st_size / rows,
        blobs=blobs / rows,
        full=median(full),
        bare=median(bare),
    )


def main() -> int:
    """Build, measure and print the tables."""
    cli = parser(__doc__)
    cli.add_argument("--margin", type=positive_int, default=40, help="margin deals")
    cli.add_argument("--win", type=positive_int, default=20, help="win deals")
    cli.add_argument("--seed", type=non_negative_int, default=0)
    cli.add_argument("--lookups", type=positive_int, default=200)
    args = cli.parse_args()
    if args.child:
        path, payoff, *numbers = args.child
        child(Path(path), payoff, *map(int, numbers))
        return 0
    from solver.book.canonical import mirror_class_count

    facts = machine(
        [("ortools", version("ortools")), ("numpy", version("numpy"))],
        f"--margin {args.margin} --win {args.win} --seed {args.seed} --lookups {args.lookups}",
    )
    rates = Table(
        "Book build, mirror deals, one worker",
        "payoff; deals; wall; CPU; CPU per deal; deals per core-hour; bytes per deal (file); "
        "strategy bytes per deal; lookup median; SQLite read median",
        "lrrrrrrrrr",
    )
    classes = mirror_class_count()
    projection = Table(
        f"Projected full mirror book ({classes:,} classes)",
        ["payoff", *(f"{c} cores" for c in CORES), "size"],
        "lrrr",
    )
    total_seconds = total_bytes = 0.0
    with tempfile.TemporaryDirectory(prefix="bench-book-") as folder:
        for payoff, deals in (("margin", args.margin), ("win", args.win)):
            path = str(Path(folder) / f"{payoff}.sqlite")
            done = fresh(
                __file__, "--child", path, payoff, str(deals), str(args.seed), str(args.lookups)
            )
            if done.error or not done.messages:
                sys.exit(f"{payoff} build failed: {done.error}")
            m = done.messages[-1]
            per_deal = m["cpu"] / m["stored"]
            rates.add(
                f"{payoff}; {m['stored']}; {seconds(m['wall'])}; {seconds(m['cpu'])}; "
                f"{seconds(per_deal)}; {3600 / per_deal:.0f}; {m['file']:,.0f}; {m['blobs']:,.0f}; "
                f"{1e3 * m['full']:.2f} ms; {1e3 * m['bare']:.3f} ms"
            )
            hours = [f"{classes * per_deal / cores / 3600:.1f} h" for cores in CORES]
            projection.add(payoff, *hours, f"{classes * m['file'] / 1e9:.2f} GB")
            total_seconds, total_bytes = total_seconds + per_deal, total_bytes + m["file"]
    hours = [f"{classes * total_seconds / c / 3600:.1f} h" for c in CORES]
    projection.add("both", *hours, f"{classes * total_bytes / 1e9:.2f} GB")
    projection.notes.append(
        "wall time = classes x CPU seconds per deal / cores (perfect scaling); size = classes "
        "x file bytes per deal"
    )
    rates.notes.append(
        "deals per core-hour from CPU time (the process's, all its threads): on a shared "
        "machine the wall time also counts other users' load"
    )
    show([facts, rates, projection], args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
