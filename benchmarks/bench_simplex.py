"""Benchmark of the restricted-game solvers of the double oracle: warm simplex against GLOP.

Run from the repository root::

    python benchmarks/bench_simplex.py [--deals N] [--first I] [--time-limit S] [--markdown]

It solves the win equilibrium of tournament deals ``I .. I+N-1`` (seed 2026,
mirror mode: the deals of ``quintet tournament --seed 2026``) with
``solve(..., warm_simplex=True)`` and ``warm_simplex=False`` (GLOP from scratch
at every iteration), in the same run.  Frontiers are computed first, untimed;
BLAS runs one thread, as in tournament workers; the two engines alternate deal
by deal.  Each solve is capped at ``S`` seconds; a capped solve shows the gap
it certified.
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Sequence

from harness import Table, alternate, log, machine, p95, parser, seconds, show, timed, version
from threadpoolctl import threadpool_limits

from solver.app.arguments import non_negative_int, positive_float, positive_int
from solver.equilibria.equilibrium import solve
from solver.game.deal import deal, deal_seed
from solver.game.rules import DEFAULT_RULES
from solver.models.packets import check_holding
from solver.response.frontier import cached_frontier

ENGINES = {"warm simplex": True, "GLOP from scratch": False}


def main(argv: Sequence[str] | None = None) -> int:
    """Solve every deal with both engines and print the tables."""
    cli = parser(__doc__)
    cli.add_argument("--deals", type=positive_int, default=20)
    cli.add_argument("--first", type=non_negative_int, default=0)
    cli.add_argument("--time-limit", type=positive_float, default=120.0)
    args = cli.parse_args(argv)
    facts = machine(
        [("ortools", version("ortools")), ("numpy", version("numpy"))],
        f"--deals {args.deals} --first {args.first} --time-limit {args.time_limit:g}",
    )
    holdings = {}

    def measure(index: int, engine: str) -> tuple[float, float]:
        if index not in holdings:  # the frontier first, untimed
            holdings[index] = check_holding(deal(deal_seed(2026, index)).holdings[0])
            cached_frontier(holdings[index], DEFAULT_RULES)
        holding, warm = holdings[index], ENGINES[engine]
        options = {"payoff": "win", "time_limit": args.time_limit, "warm_simplex": warm}
        run = timed(lambda: solve(holding, holding, **options))
        log(f"deal {index}, {engine}: {seconds(run.wall[0])}")
        return run.wall[0], run.result.gap

    with threadpool_limits(limits=1):
        runs = alternate(range(args.first, args.first + args.deals), list(ENGINES), measure)
    per_deal = Table("Win equilibria, seconds per deal", ["deal", *ENGINES, "ratio"], "rrrr")
    for k, (warm, glop) in enumerate(zip(*runs.values(), strict=True)):
        cells = [
            seconds(t) + ("" if gap <= 1e-9 else f" (gap {gap:.1e})") for t, gap in (warm, glop)
        ]
        per_deal.add(args.first + k, *cells, f"{glop[0] / warm[0]:.1f}x")
    summary = Table("Win equilibria: summary", "engine; median; mean; p95; max; capped", "lrrrrr")
    for name, found in runs.items():
        values = [t for t, _ in found]
        summary.add(
            f"{name}; {seconds(statistics.median(values))}; {seconds(statistics.fmean(values))}; "
            f"{seconds(p95(values))}; {seconds(max(values))}; {sum(g > 1e-9 for _, g in found)}"
        )
    warm, glop = (sum(t for t, _ in found) for found in runs.values())
    summary.notes.append(
        f"total {glop / warm:.1f}x faster with the warm simplex ({seconds(warm)} against "
        f"{seconds(glop)}); every exact result is certified to 1e-9"
    )
    show([facts, summary, per_deal], args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
