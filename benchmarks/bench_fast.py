"""Issue #15: the cold strategy frontier and exact equilibria, this checkout against a baseline.

Run from the repository root::

    python benchmarks/bench_fast.py [--deals N] [--quick] [--baseline PATH] [--seed S] [--markdown]

``--baseline PATH`` is another checkout of the repository (e.g. the commit
before issue #15: ``mkdir /tmp/base && git archive c6fe5cb | tar -x -C /tmp/base``);
without it only this checkout is measured.  Deals: ``N`` mirror deals
``deal(seed=S + i)`` and ``N`` independent ones
``deal(seed=S + 1000 + i, Rules(discard_mode="independent"))``;
``--quick`` is ``N = 4``.

Each deal and implementation runs in a fresh child process (this script with
``--child``, ``PYTHONPATH`` set to the checkout), alternating implementations
deal by deal so that both see the same load.  The child warms up untimed on
the ace-low ranking (imports, numpy, OR-Tools, code paths), then measures,
with every frontier cache emptied before each measurement (*cold*: the
baseline's process-wide rank-state store too):

1. ``frontier(holding, rules)`` of each distinct holding;
2. ``solve(first, second, rules, payoff)`` for margin, then win (frontiers
   included, tolerance 1e-9, no book); *certified* means gap <= 1e-6.
   The last column is the largest difference of the game value from the
   first implementation's on the same deal (equal games, equal values).

``--glop`` adds this checkout with GLOP from scratch for the restricted
games (``warm_simplex=False``) beside its default engine.

Targets (reported, never asserted): frontier median <= 0.15 s, p95 <= 0.4 s;
margin equilibrium median <= 0.3 s; win median <= 1 s, p99 <= 10 s, max <= 30 s.
"""

# ruff: noqa: RUF005  (table rows are built by concatenating groups of cells)

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from _common import (
    REPO_ROOT,
    Table,
    git_revision,
    load_average,
    log,
    machine_table,
    median,
    met,
    p95,
    parser,
    print_tables,
    seconds,
)

TOLERANCE = 1e-9
CERTIFIED = 1e-6
WARMUP_SEED = 999_999


def child(mode: str, seed: int, engine: str = "default") -> None:
    """Measure one deal with whichever ``solver`` is on the path; print one JSON line.

    ``engine`` "glop" solves the restricted games with GLOP from scratch
    (``warm_simplex=False``); "default" leaves the checkout's choice.
    """
    from solver.equilibria.equilibrium import solve
    from solver.game.deal import deal
    from solver.game.rules import Rules
    from solver.response import frontier as frontier_module
    from solver.response import rank_frontier

    def cold() -> None:
        frontier_module.cached_frontier.cache_clear()
        rank_frontier._store.cache_clear()

    warm = deal(seed=WARMUP_SEED, rules=Rules(ace_low_straight=True))
    solve(*warm.holdings, warm.rules, "margin")
    cold()
    rules = Rules(discard_mode=mode)
    d = deal(seed=seed, rules=rules)
    out: dict[str, Any] = {"frontier": []}
    for holding in dict.fromkeys(d.holdings):
        cold()
        started = time.perf_counter()
        frontier_module.frontier(holding, rules)
        out["frontier"].append(time.perf_counter() - started)
    for payoff in ("margin", "win"):
        cold()
        started = time.perf_counter()
        options = {"warm_simplex": False} if engine == "glop" else {}
        result = solve(d.holdings[0], d.holdings[1], rules, payoff, tolerance=TOLERANCE, **options)
        out[payoff] = {
            "seconds": time.perf_counter() - started,
            "gap": result.gap,
            "value": result.value,
        }
    print(json.dumps(out))


def run_child(root: Path, mode: str, seed: int, engine: str) -> dict[str, Any] | None:
    """One deal measured in a fresh process on the checkout ``root``."""
    script = str(Path(__file__).resolve())
    command = [sys.executable, script, "--child", mode, str(seed), engine]
    env = os.environ | {"PYTHONPATH": str(root)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd="/", check=False)
    if done.returncode:
        log(f"{root} {mode} {seed}: {done.stderr[-500:]}")
        return None
    return json.loads(done.stdout.splitlines()[-1])


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values, dtype=np.float64), q))


def tables(results: dict[str, list[dict[str, Any]]]) -> list[Table]:
    front = Table(
        "Strategy frontier, cold (per holding)",
        "implementation; holdings; median; p95; max; median <= 0.15 s; p95 <= 0.4 s",
        "lrrrrll",
    )
    equilibria = Table(
        "Exact equilibrium, frontiers included, no book (per deal)",
        "implementation; payoff; deals; certified; median; p95; p99; max; target; max |value - first|",
        "llrrrrrrlr",
    )
    # Each implementation's game values against the first one's, deal by deal.
    first = next(iter(results.values()), [])
    for name, runs in results.items():
        times = [t for run in runs for t in run["frontier"]]
        if times:
            front.rows.append(
                [name, str(len(times)), seconds(median(times)), seconds(p95(times))]
                + [seconds(max(times)), met(median(times) <= 0.15), met(p95(times) <= 0.4)]
            )
        for payoff in ("margin", "win"):
            solved = [run[payoff] for run in runs]
            if not solved:
                continue
            wall = [s["seconds"] for s in solved]
            certified = sum(s["gap"] <= CERTIFIED for s in solved)
            theirs = {f["deal"]: f[payoff].get("value") for f in first}
            differences = [
                abs(run[payoff]["value"] - theirs[run["deal"]])
                for run in runs
                if theirs.get(run["deal"]) is not None and "value" in run[payoff]
            ]
            difference = f"{max(differences):.1e}" if differences else "-"
            if payoff == "margin":
                ok = median(wall) <= 0.3
            else:
                ok = median(wall) <= 1 and percentile(wall, 99) <= 10 and max(wall) <= 30
            equilibria.rows.append(
                [name, payoff, str(len(wall)), f"{certified}/{len(wall)}"]
                + [seconds(median(wall)), seconds(p95(wall)), seconds(percentile(wall, 99))]
                + [seconds(max(wall)), met(ok), difference]
            )
    return [front, equilibria]


def main() -> None:
    args_parser = parser(__doc__)
    args_parser.add_argument("--deals", type=int, default=10, help="deals per discard mode")
    args_parser.add_argument("--quick", action="store_true", help="4 deals per mode")
    args_parser.add_argument("--seed", type=int, default=0)
    args_parser.add_argument("--baseline", type=Path, help="another checkout to compare with")
    args_parser.add_argument(
        "--glop", action="store_true", help="also this checkout with GLOP for the restricted games"
    )
    args_parser.add_argument("--child", nargs="+", help=argparse_hidden())
    args = args_parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]), *args.child[2:])
        return
    n = 4 if args.quick else args.deals
    roots = {"this checkout": (REPO_ROOT, "default")}
    if args.glop:
        roots["this checkout, GLOP"] = (REPO_ROOT, "glop")
    if args.baseline:
        roots["baseline"] = (args.baseline.resolve(), "default")
    load = load_average()
    deals = [("mirror", args.seed + i) for i in range(n)]
    deals += [("independent", args.seed + 1000 + i) for i in range(n)]
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in roots}
    for mode, seed in deals:
        for name, (root, engine) in roots.items():
            run = run_child(root, mode, seed, engine)
            if run is not None:
                run["deal"] = f"{mode} {seed}"
                results[name].append(run)
                log(f"{name} {mode} {seed}: {json.dumps(run)}")
    machine = machine_table(
        [("revision", git_revision()), ("baseline", str(args.baseline or "none"))],
        f"{n} deals per mode, seed {args.seed}, tolerance {TOLERANCE}",
        load=False,
    )
    machine.rows.append(["load average at start", load])
    machine.rows.append(["load average at end", load_average()])
    print_tables([machine, *tables(results)], args.markdown, "medians are what to quote under load")


def argparse_hidden() -> str:
    import argparse

    return argparse.SUPPRESS


if __name__ == "__main__":
    main()
