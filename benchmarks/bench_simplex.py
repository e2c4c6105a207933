"""Benchmark of the restricted-game solvers of the double oracle: warm simplex against GLOP.

Run from the repository root::

    python benchmarks/bench_simplex.py [--deals N] [--first I] [--time-limit S] [--markdown]

It solves the win-payoff equilibrium of tournament deals ``I .. I+N-1``
(seed 2026, mirror mode, the deals of ``quintet tournament --seed 2026``)
twice: with the warm-started dense simplex (:mod:`solver.equilibria.simplex`, the
default for win) and with GLOP from scratch at every iteration.  Frontiers
are built first and not timed; BLAS runs one thread, as in tournament
workers.  Each solve is capped at ``S`` seconds; a capped solve is reported
with the gap it certified.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence

from _common import (
    Table,
    format_seconds,
    machine_table,
    non_negative_int,
    percentile_95,
    positive_float,
    positive_int,
    version,
)
from threadpoolctl import threadpool_limits

from solver.equilibria.equilibrium import solve
from solver.game.deal import deal
from solver.game.rules import DEFAULT_RULES
from solver.models.packets import check_holding
from solver.play.tournament import deal_seed
from solver.response.frontier_response import cached_frontier

ENGINES = (("warm simplex", True), ("GLOP from scratch", False))


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=positive_int, default=20)
    parser.add_argument("--first", type=non_negative_int, default=0)
    parser.add_argument("--time-limit", type=positive_float, default=120.0)
    parser.add_argument("--markdown", action="store_true")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Solve every deal with both engines and print the tables."""
    args = parse_args(argv)
    indices = range(args.first, args.first + args.deals)
    machine = machine_table(
        [("ortools", version("ortools")), ("numpy", version("numpy"))],
        f"--deals {args.deals} --first {args.first} --time-limit {args.time_limit:g}",
    )
    per_deal = Table(
        "Win equilibria, seconds per deal",
        ["deal", *(name for name, _ in ENGINES), "ratio"],
        "rrrr",
    )
    seconds: dict[str, list[float]] = {name: [] for name, _ in ENGINES}
    capped: dict[str, int] = {name: 0 for name, _ in ENGINES}
    with threadpool_limits(limits=1):
        for index in indices:
            holding = deal(deal_seed(2026, index)).holdings[0]
            cached_frontier(check_holding(holding, DEFAULT_RULES), DEFAULT_RULES)
            cells = [str(index)]
            for name, warm in ENGINES:
                started = time.perf_counter()
                result = solve(
                    holding, holding, payoff="win", time_limit=args.time_limit, warm_simplex=warm
                )
                elapsed = time.perf_counter() - started
                seconds[name].append(elapsed)
                exact = result.gap <= 1e-9
                capped[name] += not exact
                cells.append(
                    format_seconds(elapsed) + ("" if exact else f" (gap {result.gap:.1e})")
                )
            warm_s, glop_s = (seconds[name][-1] for name, _ in ENGINES)
            cells.append(f"{glop_s / warm_s:.1f}x")
            per_deal.rows.append(cells)
            print(f"  deal {index}: {' / '.join(cells[1:])}", file=sys.stderr)
    summary = Table(
        "Win equilibria: summary", ["engine", "median", "mean", "p95", "max", "capped"], "lrrrrr"
    )
    for name, _ in ENGINES:
        values = seconds[name]
        summary.rows.append(
            [
                name,
                format_seconds(statistics.median(values)),
                format_seconds(statistics.fmean(values)),
                format_seconds(percentile_95(values)),
                format_seconds(max(values)),
                str(capped[name]),
            ]
        )
    total = {name: sum(values) for name, values in seconds.items()}
    summary.notes.append(
        f"total {total['GLOP from scratch'] / total['warm simplex']:.1f}x faster with the warm "
        f"simplex ({format_seconds(total['warm simplex'])} against "
        f"{format_seconds(total['GLOP from scratch'])}); every exact result is certified to 1e-9"
    )
    for table in (machine, summary, per_deal):
        print(table.render(args.markdown))
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
