"""Issue #15: the cold strategy frontier and exact equilibria, this checkout against a baseline.

Run from the repository root::

    python benchmarks/bench_fast.py [--deals N] [--quick] [--baseline PATH] [--glop]
        [--seed S] [--markdown]

``frontier`` per holding and ``solve`` per deal (tolerance 1e-9, no book) on N mirror and N
independent deals, each in a fresh process; --baseline: another checkout; --glop: also GLOP.
"""

from typing import Any

import harness as h
import numpy as np

from solver.app.arguments import non_negative_int, positive_int

TOLERANCE = 1e-9
CERTIFIED = 1e-6
PAYOFFS = ("margin", "win")


def child(mode: str, seed: int, task: str, engine: str) -> None:
    """One measurement with whichever ``solver`` is on the path (names any checkout has)."""
    from solver.equilibria.equilibrium import solve
    from solver.game.deal import deal
    from solver.game.rules import Rules
    from solver.response.frontier import frontier

    warm = deal(seed=999_999, rules=Rules(ace_low_straight=True))
    rules = Rules(discard_mode=mode)
    holdings = deal(seed=seed, rules=rules).holdings
    if task.startswith("frontier"):
        frontier(warm.holdings[0], warm.rules)
        h.emit(seconds=h.timed(lambda: frontier(holdings[int(task[-1])], rules)).wall[0])
        return
    solve(*warm.holdings, warm.rules, "margin")
    options = {"warm_simplex": False} if engine == "glop" else {}
    run = h.timed(lambda: solve(*holdings, rules, task, tolerance=TOLERANCE, **options))
    h.emit(seconds=run.wall[0], gap=run.result.gap, value=run.result.value)


def tables(results: dict[str, list[dict[str, Any]]]) -> list[h.Table]:
    front = h.Table(
        "Strategy frontier, cold (per holding)",
        "implementation; holdings; median; p95; max; median <= 0.15 s; p95 <= 0.4 s",
        "lrrrrll",
    )
    equilibria = h.Table(
        "Exact equilibrium, frontiers included, no book (per deal)",
        "implementation; payoff; deals; certified; median; p95; p99; max; target; "
        "max |value - first|",
        "llrrrrrrlr",
    )
    first = {(r["deal"], r["task"]): r for r in next(iter(results.values()), [])}
    for name, runs in results.items():
        if times := [r["seconds"] for r in runs if r["task"].startswith("frontier")]:
            verdicts = f"{h.met(h.median(times) <= 0.15)}; {h.met(h.p95(times) <= 0.4)}"
            front.add(f"{name}; {len(times)}; {'; '.join(h.spread(times))}; {verdicts}")
        for (payoff,), solved in h.groups(runs, task=PAYOFFS):
            wall = [s["seconds"] for s in solved]
            certified = sum(s["gap"] <= CERTIFIED for s in solved)
            theirs = [(s["value"], first.get((s["deal"], payoff))) for s in solved]
            differences = [abs(v - f["value"]) for v, f in theirs if f is not None]
            top, p99 = max(wall), float(np.percentile(wall, 99))
            ok = h.median(wall) <= (0.3 if payoff == "margin" else 1)
            ok = ok and (payoff == "margin" or (p99 <= 10 and top <= 30))
            equilibria.add(
                f"{name}; {payoff}; {len(wall)}; {certified}/{len(wall)}; "
                f"{h.seconds(h.median(wall))}; {h.seconds(h.p95(wall))}; {h.seconds(p99)}; "
                f"{h.seconds(top)}; {h.met(ok)}; "
                + (f"{max(differences):.1e}" if differences else "-")
            )
    return [front, equilibria]


def main() -> int:
    cli = h.parser(__doc__, baseline=True).options(positive_int, deals=100)
    cli.add_argument("--quick", action="store_true", help="4 deals per mode")
    cli.add_argument("--glop", action="store_true", help="also this checkout with GLOP")
    args = cli.options(non_negative_int, seed=0).parse_args()
    if args.child:
        mode, seed, task, engine = args.child
        child(mode, int(seed), task, engine)
        return 0
    n = 4 if args.quick else args.deals
    roots = {"this checkout": (h.REPO_ROOT, "default")}
    roots |= {"this checkout, GLOP": (h.REPO_ROOT, "glop")} if args.glop else {}
    roots |= {"baseline": (args.baseline, "default")} if args.baseline else {}
    load = h.load_average()
    deals = [("mirror", args.seed + i) for i in range(n)]
    deals += [("independent", args.seed + 1000 + i) for i in range(n)]
    tasks = [(m, s, f"frontier{k}") for m, s in deals for k in range(1 if m == "mirror" else 2)]
    tasks += [(m, s, payoff) for m, s in deals for payoff in PAYOFFS]

    def measure(task: tuple[str, int, str], name: str) -> dict[str, Any] | None:
        (mode, seed, what), (root, engine) = task, roots[name]
        done = h.fresh(__file__, "--child", mode, str(seed), what, engine, root=root)
        h.log(f"{name} {mode} {seed} {what}: {done.error[-500:] or done.messages[-1:]}")
        if done.error or not done.messages:
            return None
        return done.messages[-1] | {"deal": f"{mode} {seed}", "task": what}

    results = h.alternate(tasks, list(roots), measure)
    facts = h.machine(
        [("revision", h.git_revision()), ("baseline", str(args.baseline or "none"))],
        f"{n} deals per mode, seed {args.seed}, tolerance {TOLERANCE}",
        load=False,
    )
    facts.add("load average at start", load)
    facts.add("load average at end", h.load_average())
    h.show([facts, *tables(results)], args.markdown, "medians are what to quote under load")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
