"""Issue #15: the cold strategy frontier and exact equilibria, this checkout against a baseline.

Run from the repository root::

    python benchmarks/bench_fast.py [--deals N] [--quick] [--baseline PATH] [--glop]
        [--seed S] [--markdown]

``--baseline PATH`` is another checkout of the repository (e.g. the commit
before issue #15: ``mkdir /tmp/base && git archive c6fe5cb | tar -x -C /tmp/base``);
without it only this checkout is measured.  ``--glop`` adds this checkout with
GLOP from scratch for the restricted games (``solve(..., warm_simplex=False)``).
Deals: ``N`` mirror deals ``deal(seed=S + i)`` and ``N`` independent ones
``deal(seed=S + 1000 + i, Rules(discard_mode="independent"))``; ``--quick`` is
``N = 4``.

Every measurement runs in a fresh process (this script with ``--child``,
``PYTHONPATH`` set to the checkout), so nothing is cached yet (*cold*), with
public calls only; the implementations alternate measurement by measurement,
so that all see the same load.  The child warms up untimed on the ace-low
ranking (imports, numpy, OR-Tools, code paths; its caches are other keys),
then times one of:

1. ``frontier(holding, rules)`` of one distinct holding of the deal;
2. ``solve(first, second, rules, payoff)``, margin or win (frontiers included,
   tolerance 1e-9, no book); *certified* means gap <= 1e-6.  The last column
   is the largest difference of the game value from the first
   implementation's on the same deal (equal games, equal values).

Targets (reported, never asserted): frontier median <= 0.15 s, p95 <= 0.4 s;
margin equilibrium median <= 0.3 s; win median <= 1 s, p99 <= 10 s, max <= 30 s.
"""

from __future__ import annotations

import sys
from typing import Any

from harness import (
    Table,
    alternate,
    emit,
    fresh,
    git_revision,
    implementations,
    load_average,
    log,
    machine,
    median,
    met,
    p95,
    parser,
    percentile,
    seconds,
    show,
    timed,
)

from solver.app.arguments import non_negative_int, positive_int

TOLERANCE = 1e-9
CERTIFIED = 1e-6
WARMUP_SEED = 999_999
PAYOFFS = ("margin", "win")


def child(mode: str, seed: int, task: str, engine: str) -> None:
    """One measurement with whichever ``solver`` is on the path; one JSON line."""
    from solver.equilibria.equilibrium import solve
    from solver.game.deal import deal
    from solver.game.rules import Rules
    from solver.response.frontier import frontier

    warm = deal(seed=WARMUP_SEED, rules=Rules(ace_low_straight=True))
    rules = Rules(discard_mode=mode)
    holdings = deal(seed=seed, rules=rules).holdings
    if task.startswith("frontier"):
        frontier(warm.holdings[0], warm.rules)
        emit(seconds=timed(lambda: frontier(holdings[int(task[-1])], rules)).wall[0])
        return
    solve(*warm.holdings, warm.rules, "margin")
    options = {"warm_simplex": False} if engine == "glop" else {}
    run = timed(lambda: solve(*holdings, rules, task, tolerance=TOLERANCE, **options))
    emit(seconds=run.wall[0], gap=run.result.gap, value=run.result.value)


def tables(results: dict[str, list[dict[str, Any]]]) -> list[Table]:
    front = Table(
        "Strategy frontier, cold (per holding)",
        "implementation; holdings; median; p95; max; median <= 0.15 s; p95 <= 0.4 s",
        "lrrrrll",
    )
    equilibria = Table(
        "Exact equilibrium, frontiers included, no book (per deal)",
        "implementation; payoff; deals; certified; median; p95; p99; max; target; "
        "max |value - first|",
        "llrrrrrrlr",
    )
    first = {(r["deal"], r["task"]): r for r in next(iter(results.values()), [])}
    for name, runs in results.items():
        times = [r["seconds"] for r in runs if r["task"].startswith("frontier")]
        if times:
            front.add(
                f"{name}; {len(times)}; {seconds(median(times))}; {seconds(p95(times))}; "
                f"{seconds(max(times))}; {met(median(times) <= 0.15)}; {met(p95(times) <= 0.4)}"
            )
        for payoff in PAYOFFS:
            solved = [r for r in runs if r["task"] == payoff]
            if not solved:
                continue
            wall = [s["seconds"] for s in solved]
            certified = sum(s["gap"] <= CERTIFIED for s in solved)
            theirs = [(s["value"], first.get((s["deal"], payoff))) for s in solved]
            differences = [abs(v - f["value"]) for v, f in theirs if f is not None]
            top, p99 = max(wall), percentile(wall, 99)
            ok = median(wall) <= (0.3 if payoff == "margin" else 1)
            ok = ok and (payoff == "margin" or (p99 <= 10 and top <= 30))
            equilibria.add(
                f"{name}; {payoff}; {len(wall)}; {certified}/{len(wall)}; "
                f"{seconds(median(wall))}; {seconds(p95(wall))}; {seconds(p99)}; {seconds(top)}; "
                f"{met(ok)}; " + (f"{max(differences):.1e}" if differences else "-")
            )
    return [front, equilibria]


def main() -> int:
    cli = parser(__doc__, baseline=True)
    cli.add_argument("--deals", type=positive_int, default=100, help="deals per discard mode")
    cli.add_argument("--quick", action="store_true", help="4 deals per mode")
    cli.add_argument("--seed", type=non_negative_int, default=0)
    cli.add_argument("--glop", action="store_true", help="also this checkout with GLOP")
    args = cli.parse_args()
    if args.child:
        mode, seed, task, engine = args.child
        child(mode, int(seed), task, engine)
        return 0
    n = 4 if args.quick else args.deals
    roots = {name: (root, "default") for name, root in implementations(args).items()}
    if args.glop:  # right after this checkout
        glop = {"this checkout, GLOP": (roots["this checkout"][0], "glop")}
        roots = dict(list(roots.items())[:1]) | glop | roots
    load = load_average()
    deals = [("mirror", args.seed + i) for i in range(n)]
    deals += [("independent", args.seed + 1000 + i) for i in range(n)]
    tasks = [(m, s, f"frontier{k}") for m, s in deals for k in range(1 if m == "mirror" else 2)]
    tasks += [(m, s, payoff) for m, s in deals for payoff in PAYOFFS]

    def measure(task: tuple[str, int, str], name: str) -> dict[str, Any] | None:
        mode, seed, what = task
        root, engine = roots[name]
        done = fresh(__file__, "--child", mode, str(seed), what, engine, root=root)
        if done.error or not done.messages:
            log(f"{name} {mode} {seed} {what}: {done.error[-500:]}")
            return None
        log(f"{name} {mode} {seed} {what}: {done.messages[-1]}")
        return done.messages[-1] | {"deal": f"{mode} {seed}", "task": what}

    results = alternate(tasks, list(roots), measure)
    facts = machine(
        [("revision", git_revision()), ("baseline", str(args.baseline or "none"))],
        f"{n} deals per mode, seed {args.seed}, tolerance {TOLERANCE}",
        load=False,
    )
    facts.add("load average at start", load)
    facts.add("load average at end", load_average())
    show([facts, *tables(results)], args.markdown, "medians are what to quote under load")
    return 0


if __name__ == "__main__":
    sys.exit(main())
