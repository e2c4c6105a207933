"""Benchmark of the restricted-game solvers of the double oracle: warm simplex against GLOP.

Run from the repository root::

    python benchmarks/bench_simplex.py [--deals N] [--first I] [--time-limit S] [--markdown]

Win equilibria of tournament deals I .. I+N-1 (seed 2026, mirror) with and without the warm
simplex, frontiers cached, BLAS on one thread, engines alternating, S seconds per solve.
"""

import statistics
from collections.abc import Sequence

import harness as h
from threadpoolctl import threadpool_limits

import solver
from solver.app.arguments import non_negative_int, positive_float, positive_int
from solver.game.deal import deal_seed
from solver.models.packets import check_holding

ENGINES = {"warm simplex": True, "GLOP from scratch": False}


def main(argv: Sequence[str] | None = None) -> int:
    """Solve every deal with both engines and print the tables."""
    cli = h.parser(__doc__).options(positive_int, deals=20).options(non_negative_int, first=0)
    args = cli.options(positive_float, time_limit=120.0).parse_args(argv)
    facts = h.machine(
        ["ortools", "numpy"],
        f"--deals {args.deals} --first {args.first} --time-limit {args.time_limit:g}",
    )
    holdings = {}

    def measure(index: int, engine: str) -> tuple[float, float]:
        if index not in holdings:  # the frontier first, untimed
            holdings[index] = check_holding(solver.deal(deal_seed(2026, index)).holdings[0])
            solver.cached_frontier(holdings[index], solver.Rules())
        holding, options = holdings[index], {"warm_simplex": ENGINES[engine]}
        options |= {"payoff": "win", "time_limit": args.time_limit}
        run = h.timed(lambda: solver.solve_equilibrium(holding, holding, **options))
        h.log(f"deal {index}, {engine}: {h.seconds(run.wall[0])}")
        return run.wall[0], run.result.gap

    with threadpool_limits(limits=1):
        runs = h.alternate(range(args.first, args.first + args.deals), list(ENGINES), measure)
    per_deal = h.Table("Win equilibria, seconds per deal", ["deal", *ENGINES, "ratio"], "rrrr")
    for k, (warm, glop) in enumerate(zip(*runs.values(), strict=True)):
        cells = [h.seconds(t) + ("" if g <= 1e-9 else f" (gap {g:.1e})") for t, g in (warm, glop)]
        per_deal.add(args.first + k, *cells, f"{glop[0] / warm[0]:.1f}x")
    summary = h.Table("Win equilibria: summary", "engine; median; mean; p95; max; capped", "lrrrrr")
    for name, found in runs.items():
        values = [t for t, _ in found]
        figures = [h.median(values), statistics.fmean(values), h.p95(values), max(values)]
        summary.add(name, *map(h.seconds, figures), sum(g > 1e-9 for _, g in found))
    warm, glop = (sum(t for t, _ in found) for found in runs.values())
    summary.notes.append(
        f"total {glop / warm:.1f}x faster with the warm simplex ({h.seconds(warm)} against "
        f"{h.seconds(glop)}); every exact result is certified to 1e-9"
    )
    h.show([facts, summary, per_deal], args.markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
