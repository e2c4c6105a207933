"""Benchmark of the solution book: build rate per payoff, bytes per deal, lookup latency.

Run from the repository root::

    python benchmarks/bench_book.py [--margin N] [--win M] [--both B] [--seed S] [--lookups K]
        [--baseline PATH] [--markdown]

It builds a book of N seeded mirror deals (margin), one of M (win) and one of B with both
payoffs (a worker solves both payoffs of a deal together, sharing its frontier; 0 to skip),
each in a fresh process (one worker, BLAS on one thread), times K lookups of relabelled
stored deals (``solve_with_book``, ``Book.get``) and projects the full mirror book on 64 and
512 cores.  With --baseline (another checkout) each build runs there too, right after
this checkout's (same load).
"""

import sqlite3
import sys
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
        payoffs = payoff.split(",")
        for kind in payoffs:
            solve_equilibrium(*warm.holdings, warm.rules, kind)
        run = h.timed(lambda: build_book(path, RULES, payoffs, deals=deals, seed=seed))
    with closing(sqlite3.connect(path)) as connection:  # the log folded in, free pages dropped
        connection.execute("VACUUM")
    rng, full, bare = np.random.default_rng(seed), [], []
    with Book(path) as book:
        rows = book.count()
        rows //= len(payoffs)  # per deal: every payoff's row
        blobs = sum(
            len(v) for p in payoffs for r in book.rows(RULES, p) for v in r if type(v) is bytes
        )
        payoff = payoffs[0]  # lookups: of the first payoff
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
    cli = h.parser(__doc__, baseline=True).options(positive_int, margin=40, win=20, lookups=200)
    args = cli.options(non_negative_int, seed=0, both=20).parse_args()
    if args.child:
        path, payoff, *numbers = args.child
        child(Path(path), payoff, *map(int, numbers))
        return 0
    facts = h.machine(
        ["ortools", "numpy"],
        f"--margin {args.margin} --win {args.win} --both {args.both} --seed {args.seed} "
        f"--lookups {args.lookups}",
    )
    rates = h.Table(
        "Book build, mirror deals, one worker",
        "payoff; implementation; deals; wall; CPU; CPU per deal; deals per core-hour; bytes per deal (file); "
        "strategy bytes per deal; lookup median; SQLite read median",
        "llrrrrrrrrr",
    )
    classes = mirror_class_count()
    projection = h.Table(
        f"Projected full mirror book ({classes:,} classes)",
        ["payoff", *(f"{c} cores" for c in CORES), "size"],
        "lrrr",
    )
    total_seconds = total_bytes = 0.0
    with tempfile.TemporaryDirectory(prefix="bench-book-") as folder:
        builds = [("margin", args.margin), ("win", args.win), ("margin,win", args.both)]
        roots = {"this checkout": h.REPO_ROOT} | (
            {"baseline": args.baseline} if args.baseline else {}
        )
        for payoff, deals in [(p, d) for p, d in builds if d]:
            for name, root in roots.items():
                path = str(Path(folder) / f"{payoff}-{len(name)}.sqlite")
                numbers = map(str, (deals, args.seed, args.lookups))
                done = h.fresh(__file__, "--child", path, payoff, *numbers, root=root)
                if done.error or not done.messages:
                    sys.exit(f"{name} {payoff}: {done.error or 'no output'}")
                m = done.messages[-1]
                per_deal = m["cpu"] / m["stored"]
                rates.add(
                    f"{payoff}; {name}; {m['stored']}; {h.seconds(m['wall'])}; "
                    f"{h.seconds(m['cpu'])}; {h.seconds(per_deal)}; {3600 / per_deal:.0f}; "
                    f"{m['file']:,.0f}; {m['blobs']:,.0f}; {1e3 * m['full']:.2f} ms; "
                    f"{1e3 * m['bare']:.3f} ms"
                )
                if name != "this checkout":
                    continue
                hours = [f"{classes * per_deal / cores / 3600:.1f} h" for cores in CORES]
                projection.add(payoff, *hours, f"{classes * m['file'] / 1e9:.2f} GB")
                if "," not in payoff:
                    total_seconds, total_bytes = total_seconds + per_deal, total_bytes + m["file"]
    hours = [f"{classes * total_seconds / c / 3600:.1f} h" for c in CORES]
    projection.add("margin + win, built apart", *hours, f"{classes * total_bytes / 1e9:.2f} GB")
    projection.notes = ["wall time: classes x CPU s per deal / cores; size: classes x file bytes"]
    rates.notes = ["deals per core-hour from the process's CPU time (all its threads)"]
    h.show([facts, rates, projection], args.markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
