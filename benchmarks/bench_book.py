"""Benchmark of the solution book: build rate per payoff, bytes per deal, lookup latency.

Run from the repository root::

    python benchmarks/bench_book.py [--margin N] [--win M] [--seed S] [--lookups K] [--markdown]

It builds a fresh book of ``N`` seeded mirror deals for the margin payoff and
one of ``M`` for the win payoff (the deals of ``quintet book build --seed S``,
one worker, BLAS on one thread, costs in CPU time, the frontier cache emptied before each
build, so every deal pays for its frontiers as on a fresh worker), then
times ``K`` lookups through :func:`solver.book.lookup.solve_with_book` of
stored deals with their suits relabelled at random (canonical key, SQLite
read, strategies decoded and mapped back), and the bare SQLite read.

From the measured cost per deal it projects the full mirror book (every one
of the 156,248 classes, both payoffs) on 64 and 512 cores: classes x cost per
deal / cores, and its size: classes x bytes per deal.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from _common import Table, machine_table, print_tables, seconds, version
from threadpoolctl import threadpool_limits

from solver.app.arguments import positive_int
from solver.book.build import BuildProgress, build, seeded_keys
from solver.book.canonical import canonical_key, holding_of, mirror_class_count, relabel
from solver.book.lookup import solve_with_book
from solver.book.store import Book
from solver.game.rules import DEFAULT_RULES
from solver.response.frontier import cached_frontier

CORES = (64, 512)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--margin", type=positive_int, default=40, help="margin deals")
    parser.add_argument("--win", type=positive_int, default=20, help="win deals")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lookups", type=positive_int, default=200)
    parser.add_argument("--markdown", action="store_true")
    return parser.parse_args(argv)


def _bytes_per_deal(path: Path) -> tuple[float, float]:
    """File bytes per stored deal (log folded in), and strategy blob bytes per deal."""
    with Book(path) as book:
        connection = book.connection
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.execute("VACUUM")
        rows = book.count()
        blobs = connection.execute(
            "SELECT SUM(LENGTH(row_cards) + LENGTH(row_probabilities) "
            "+ COALESCE(LENGTH(column_cards), 0) + COALESCE(LENGTH(column_probabilities), 0)) "
            "FROM solutions"
        ).fetchone()[0]
    return path.stat().st_size / rows, blobs / rows


def _build(path: Path, payoff: str, deals: int, seed: int) -> tuple[float, float]:
    """Wall and CPU seconds of a build (CPU time: what a core-hour buys on a busy machine)."""
    cached_frontier.cache_clear()

    def progress(p: BuildProgress) -> None:
        print(f"  {payoff}: {p.done}/{p.total}, {p.seconds:.0f} s", file=sys.stderr)

    started, cpu = time.perf_counter(), time.process_time()
    build(path, DEFAULT_RULES, [payoff], deals=deals, seed=seed, on_progress=progress)
    return time.perf_counter() - started, time.process_time() - cpu


def _lookups(path: Path, payoff: str, count: int, seed: int) -> tuple[float, float]:
    """Median seconds of a full lookup (relabelled deal) and of the bare SQLite read."""
    rng = np.random.default_rng(seed)
    with Book(path) as book:
        keys = [tuple(k) for k in book.keys(DEFAULT_RULES, payoff).tolist()]
        full, bare = [], []
        for _ in range(count):
            key = keys[int(rng.integers(len(keys)))]
            holding = relabel(holding_of(key[0]), int(rng.integers(24)))
            started = time.perf_counter()
            answer = solve_with_book(holding, holding, payoff, DEFAULT_RULES, book)
            full.append(time.perf_counter() - started)
            assert answer.from_book
            canonical, _ = canonical_key((holding, holding))
            started = time.perf_counter()
            book.get(canonical, DEFAULT_RULES, payoff)
            bare.append(time.perf_counter() - started)
    return statistics.median(full), statistics.median(bare)


def main(argv: Sequence[str] | None = None) -> int:
    """Build, measure and print the tables."""
    args = parse_args(argv)
    machine = machine_table(
        [("ortools", version("ortools")), ("numpy", version("numpy"))],
        f"--margin {args.margin} --win {args.win} --seed {args.seed} --lookups {args.lookups}",
    )
    rates = Table(
        "Book build, mirror deals, one worker",
        [
            "payoff",
            "deals",
            "wall",
            "CPU",
            "CPU per deal",
            "deals per core-hour",
            "bytes per deal (file)",
            "strategy bytes per deal",
            "lookup median",
            "SQLite read median",
        ],
        "lrrrrrrrrr",
    )
    projection = Table(
        f"Projected full mirror book ({mirror_class_count():,} classes)",
        ["payoff", *(f"{c} cores" for c in CORES), "size"],
        "lrrr",
    )
    classes = mirror_class_count()
    totals = {"seconds": 0.0, "bytes": 0.0}
    workdir = Path(tempfile.mkdtemp(prefix="bench-book-"))
    with threadpool_limits(limits=1):
        for payoff, deals in (("margin", args.margin), ("win", args.win)):
            path = workdir / f"{payoff}.sqlite"
            wall, cpu = _build(path, payoff, deals, args.seed)
            stored = len(seeded_keys(deals, args.seed, DEFAULT_RULES))
            per_deal = cpu / stored
            file_bytes, blob_bytes = _bytes_per_deal(path)
            full, bare = _lookups(path, payoff, args.lookups, args.seed)
            rates.rows.append(
                [
                    payoff,
                    str(stored),
                    seconds(wall),
                    seconds(cpu),
                    seconds(per_deal),
                    f"{3600 / per_deal:.0f}",
                    f"{file_bytes:,.0f}",
                    f"{blob_bytes:,.0f}",
                    f"{1e3 * full:.2f} ms",
                    f"{1e3 * bare:.3f} ms",
                ]
            )
            cells = [payoff]
            for cores in CORES:
                cells.append(f"{classes * per_deal / cores / 3600:.1f} h")
            cells.append(f"{classes * file_bytes / 1e9:.2f} GB")
            projection.rows.append(cells)
            totals["seconds"] += per_deal
            totals["bytes"] += file_bytes
    projection.rows.append(
        [
            "both",
            *(f"{classes * totals['seconds'] / c / 3600:.1f} h" for c in CORES),
            f"{classes * totals['bytes'] / 1e9:.2f} GB",
        ]
    )
    projection.notes.append(
        "wall time = classes x CPU seconds per deal / cores (perfect scaling); size = classes "
        "x file bytes per deal"
    )
    rates.notes.append(
        "deals per core-hour from CPU time (the process's, all its threads): on a shared "
        "machine the wall time also counts other users' load"
    )
    print_tables([machine, rates, projection], args.markdown, "")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
