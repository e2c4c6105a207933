"""Benchmark of the restricted-game solvers of the double oracle: warm simplex against GLOP.

Run from the repository root::

    python benchmarks/bench_simplex.py [--deals N] [--first I] [--time-limit S] [--markdown]

It solves the win equilibrium of tournament deals ``I .. I+N-1`` (seed 2026,
mirror mode: the deals of ``quintet tournament --seed 2026``) with
``solve(..., warm_simplex=True)`` and ``warm_simplex=False`` (GLOP from scratch
at every iteration), in the same run.  Frontiers are computed first, untimed;
BLAS runs one thread, as in tournament workers.  Each solve is capped at ``S``
seconds; a capped solve shows the gap it certified.
"""

# ruff: noqa: RUF005  (table rows are built by concatenating groups of cells)

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Sequence

from _common import Table, machine_table, p95, parser, print_tables, seconds
from _common import version as installed
from threadpoolctl import threadpool_limits

from solver.app.arguments import non_negative_int, positive_float
from solver.equilibria.equilibrium import solve
from solver.game.deal import deal, deal_seed
from solver.game.rules import DEFAULT_RULES
from solver.models.packets import check_holding
from solver.response.frontier import cached_frontier

ENGINES = {"warm simplex": True, "GLOP from scratch": False}


def main(argv: Sequence[str] | None = None) -> int:
    """Solve every deal with both engines and print the tables."""
    cli = parser(__doc__)
    cli.add_argument("--deals", type=non_negative_int, default=20)
    cli.add_argument("--first", type=non_negative_int, default=0)
    cli.add_argument("--time-limit", type=positive_float, default=120.0)
    args = cli.parse_args(argv)
    machine = machine_table(
        [("ortools", installed("ortools")), ("numpy", installed("numpy"))],
        f"--deals {args.deals} --first {args.first} --time-limit {args.time_limit:g}",
    )
    per_deal = Table("Win equilibria, seconds per deal", ["deal", *ENGINES, "ratio"], "rrrr")
    times: dict[str, list[float]] = {name: [] for name in ENGINES}
    capped = dict.fromkeys(ENGINES, 0)
    with threadpool_limits(limits=1):
        for index in range(args.first, args.first + args.deals):
            holding = check_holding(deal(deal_seed(2026, index)).holdings[0])
            cached_frontier(holding, DEFAULT_RULES)
            cells = [str(index)]
            for name, warm in ENGINES.items():
                started = time.perf_counter()
                result = solve(
                    holding, holding, payoff="win", time_limit=args.time_limit, warm_simplex=warm
                )
                times[name].append(time.perf_counter() - started)
                capped[name] += result.gap > 1e-9
                gap = "" if result.gap <= 1e-9 else f" (gap {result.gap:.1e})"
                cells.append(seconds(times[name][-1]) + gap)
            ratio = times["GLOP from scratch"][-1] / times["warm simplex"][-1]
            per_deal.rows.append([*cells, f"{ratio:.1f}x"])
            print(f"  deal {index}: {' / '.join(cells[1:])}", file=sys.stderr)
    summary = Table("Win equilibria: summary", "engine; median; mean; p95; max; capped", "lrrrrr")
    for name, values in times.items():
        summary.rows.append(
            [name, seconds(statistics.median(values)), seconds(statistics.fmean(values))]
            + [seconds(p95(values)), seconds(max(values)), str(capped[name])]
        )
    warm, glop = sum(times["warm simplex"]), sum(times["GLOP from scratch"])
    summary.notes.append(
        f"total {glop / warm:.1f}x faster with the warm simplex ({seconds(warm)} against "
        f"{seconds(glop)}); every exact result is certified to 1e-9"
    )
    print_tables([machine, summary, per_deal], args.markdown, "")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
