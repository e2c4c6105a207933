"""Issue #25: exact equilibria of many seeded deals, in process, CPU, values checked against main.

Run from the repository root::

    python benchmarks/bench_values.py [--deals N] [--baseline PATH] [--markdown]

For each payoff (margin, win) and discard mode (mirror, independent), one fresh process
per checkout solves deals 1..N (tolerance 1e-9, frontiers cold: the frontier cache is
cleared before each deal; the double oracle's solve, ``canonical=False`` where the
checkout has the canonical selection) and reports the CPU per deal, frontiers included
and the double oracle alone (median, p95, p99, max), how many were certified (gap <=
1e-9) and the largest difference from the values main computed before the issue's
double-oracle work (``tests/support/data/equilibrium_values.json``, 40 deals of each
kind).  With --baseline (another checkout) the checkouts alternate, kind after kind,
under the same load.
"""

import inspect
import json
import time
from typing import Any

import harness as h
import numpy as np

PAYOFFS = ("margin", "win")
MODES = ("mirror", "independent")
TOLERANCE = 1e-9
VALUES = h.REPO_ROOT / "tests" / "support" / "data" / "equilibrium_values.json"


def child(payoff: str, mode: str, deals: int) -> None:
    """Solve deals 1..deals with whichever ``solver`` is on the path; one JSON line."""
    from solver.equilibria.equilibrium import solve
    from solver.game.deal import deal
    from solver.game.rules import Rules
    from solver.response import frontier

    rules = Rules() if mode == "mirror" else Rules(discard_mode="independent")
    # The double oracle's solve: the canonical selection (issue #24, where the checkout
    # has it) is timed against it by bench_canonical.py.
    extra = {"canonical": False} if "canonical" in inspect.signature(solve).parameters else {}
    warm = deal(seed=999_999, rules=Rules(ace_low_straight=True))
    for kind in PAYOFFS:  # the code and the tables, warm
        solve(*warm.holdings, warm.rules, kind)
    runs = []
    for seed in range(1, deals + 1):
        first, second = deal(seed=seed, rules=rules).holdings
        frontier.cached_frontier.cache_clear()
        started = time.process_time()
        for holding in {tuple(sorted(first)), tuple(sorted(second))}:
            frontier.cached_frontier(holding, rules)
        cold = time.process_time() - started
        result = solve(first, second, rules, payoff, tolerance=TOLERANCE, **extra)
        total = time.process_time() - started
        runs.append({"seed": seed, "cpu": total, "solve": total - cold} | _figures(result))
    h.emit(runs=runs)


def _figures(result: Any) -> dict[str, float]:
    return {"value": result.value, "gap": result.gap}


def percentiles(values: list[float]) -> list[str]:
    """Median, p95, p99 and maximum, formatted."""
    array = np.asarray(values)
    points = [np.median(array), *np.percentile(array, [95, 99]), array.max()]
    return [h.seconds(float(p)) for p in points]


def main() -> int:
    cli = h.parser(__doc__, baseline=True).options(int, deals=40)
    args = cli.parse_args()
    if args.child:
        child(args.child[0], args.child[1], int(args.child[2]))
        return 0
    reference = json.loads(VALUES.read_text())
    roots = {"this checkout": h.REPO_ROOT}
    roots |= {"baseline": args.baseline} if args.baseline else {}
    table = h.Table(
        f"Exact equilibria of deals 1..{args.deals}, in process, CPU per deal",
        "payoff; mode; implementation; certified; max |value - main|; with frontiers: median; "
        "p95; p99; max; solve alone: median; p95; p99; max",
        "llllrrrrrrrrr",
    )
    kinds = [(p, m) for p in PAYOFFS for m in MODES]

    def measure(kind: tuple[str, str], name: str) -> dict[str, Any]:
        done = h.fresh(__file__, "--child", *kind, str(args.deals), root=roots[name])
        if done.error or not done.messages:
            raise SystemExit(f"{name} {kind}: {done.error or 'no output'}")
        h.log(f"{name} {kind}: done in {done.wall:.0f} s")
        return {"kind": kind, "runs": done.messages[-1]["runs"]}

    results = h.alternate(kinds, list(roots), measure)
    for index, (payoff, mode) in enumerate(kinds):
        known = reference[f"{payoff}/{mode}"]
        for name in roots:
            runs = results[name][index]["runs"]
            certified = sum(r["gap"] <= TOLERANCE for r in runs)
            differences = [
                abs(r["value"] - known[str(r["seed"])]) for r in runs if str(r["seed"]) in known
            ]
            worst = f"{max(differences):.1e}" if differences else "-"
            cells = [payoff, mode, name, f"{certified}/{len(runs)}", worst]
            cells += percentiles([r["cpu"] for r in runs]) + percentiles([r["solve"] for r in runs])
            table.add("; ".join(cells))
    table.notes = [f"certified: gap <= {TOLERANCE}; main: {reference['revision']}"]
    facts = h.machine([("revision", h.git_revision())], f"--deals {args.deals}")
    h.show([facts, table], args.markdown, "CPU medians are what to quote under load")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
