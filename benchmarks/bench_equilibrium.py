"""Benchmark of the strategy frontier, the best response over it and the equilibrium solver.

Run from the repository root::

    python benchmarks/bench_equilibrium.py [--mirror-deals N] [--independent-deals M]
        [--seed S] [--time-limit T] [--workers W] [--markdown]

Deals: ``N`` mirror deals ``deal(seed=S + i)`` and ``M`` independent deals
``deal(seed=S + 1000 + i, Rules(discard_mode="independent"))``.

Each deal runs in a fresh child process (this script with ``--child``), so its
frontiers are *cold*: the process-wide store of rank-state frontiers starts
empty.  The child first warms up untimed on the ace-low ranking, whose store
is a different one (numpy, the evaluator's tables, OR-Tools, the code paths),
then measures, printing one JSON line per measurement:

1. the frontier of each holding, ``cached_frontier(holding, rules)`` (wall and
   CPU time; ``Frontier.strategies()`` timed apart).  *Warm* frontiers come from
   one child per mode computing ``frontier`` deal after deal, each holding
   finding the store as the earlier deals left it.
2. player 0's margin best response to player 1, against ``Opponent.random`` and
   the greedy arrangement: over the frontier (``frontier_best_response``, the
   frontier cached by an untimed first call) and by CP-SAT (``best_response``).
3. the equilibrium of each payoff (``DoubleOracle`` iterated to the tolerance
   1e-9, then ``result()``, as ``solve`` does), record by record; the time in
   the restricted-game LPs and in the best responses comes from the records'
   ``lp_seconds`` and ``oracle_seconds``, the frontier time inside the solve
   from ``EquilibriumResult.frontier_seconds``.  A child still running after
   its deadline is killed; the solve in progress shows as KILLED.
4. the convergence of the first mirror deal, margin.

Targets (reported, never asserted): frontier median <= 1 s; best response over
the frontier <= 20 ms; equilibria exact (gap <= 1e-6), median total <= 5 s,
p95 <= 20 s.  The agreement of the two best responses is a test
(``tests/test_frontier.py``); here it is reported.
"""

# ruff: noqa: RUF005  (table rows are built by concatenating groups of cells)

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from harness import (
    Table,
    emit,
    fresh,
    git_revision,
    load_average,
    log,
    machine,
    median,
    met,
    ms,
    p95,
    parser,
    seconds,
    show,
    spread,
    timed,
    version,
)

import solver
from solver.app.arguments import non_negative_int, positive_float, positive_int
from solver.equilibria.equilibrium import DoubleOracle, Payoff
from solver.game.deal import deal
from solver.game.evaluator import hand_table
from solver.game.rules import DiscardMode, Rules
from solver.models.heuristics import greedy_arrangement
from solver.models.opponents import Objective, Opponent
from solver.models.packets import check_holding
from solver.response.best_response import best_response
from solver.response.frontier import cached_frontier, frontier
from solver.response.frontier_response import frontier_best_response
from solver.response.rank_frontier import rank_frontiers

MODES = ("mirror", "independent")
PAYOFFS = (Payoff.MARGIN, Payoff.WIN)
OPPONENTS = ("random", "greedy")
TOLERANCE = 1e-9
WARMUP_SEED = 20_000_000


# --------------------------------------------------------------------------- the child process


def rules_of(mode: str) -> Rules:
    return Rules(discard_mode=DiscardMode(mode))


def holdings_of(mode: str, seed: int) -> list[tuple[int, tuple[int, ...]]]:
    """(player, holding) of each distinct holding of the deal: one in mirror mode."""
    rules = rules_of(mode)
    first, second = (check_holding(h, rules) for h in deal(seed=seed, rules=rules).holdings)
    return [(0, first)] if first == second else [(0, first), (1, second)]


def opponent_of(name: str, holding: tuple[int, ...], rules: Rules) -> Opponent:
    if name == "random":
        return Opponent.random(holding, rules)
    return Opponent.known(greedy_arrangement(holding, rules), rules)


def warm_up(workers: int) -> None:
    """Untimed, on the ace-low ranking: its rank-state store is not the default rules' one."""
    hand_table()
    rules = Rules(ace_low_straight=True)
    first, second = deal(seed=WARMUP_SEED, rules=rules).holdings
    for name in OPPONENTS:
        opponent = opponent_of(name, second, rules)
        frontier_best_response(first, opponent, Objective.MARGIN)
        best_response(first, opponent, Objective.MARGIN, workers=workers)
    for _ in zip(range(3), DoubleOracle(first, second, rules).iterations(), strict=False):
        pass


def measure_frontier(holding: tuple[int, ...], rules: Rules, compute: Any) -> dict:
    run = timed(lambda: compute(holding, rules))
    listed = timed(lambda: run.result.strategies())
    measured = {"profiles": int(run.result.profiles.shape[0])}
    measured |= {"strategies": int(listed.result[0].shape[0]), "strategies_seconds": listed.wall[0]}
    return measured | {"seconds": run.wall[0], "cpu": run.cpu[0]}


def child_deal(mode: str, seed: int, args: Any) -> None:
    """Cold frontiers, both best responses and both equilibria of one deal."""
    warm_up(args.workers)
    rules, holdings = rules_of(mode), holdings_of(mode, seed)
    for player, holding in holdings:
        emit(kind="frontier", player=player, **measure_frontier(holding, rules, cached_frontier))
    mine, theirs = holdings[0][1], holdings[-1][1]
    for name in OPPONENTS:
        opponent = opponent_of(name, theirs, rules)
        frontier_best_response(mine, opponent, Objective.MARGIN)  # untimed: caches the frontier
        fast = timed(lambda o=opponent: frontier_best_response(mine, o, Objective.MARGIN))
        slow = timed(
            lambda o=opponent: best_response(
                mine, o, Objective.MARGIN, time_limit=args.time_limit, workers=args.workers
            )
        )
        emit(
            kind="response_end",
            opponent=name,
            frontier_value=fast.result.value,
            frontier_wall=fast.wall[0],
            frontier_cpu=fast.cpu[0],
            cpsat_value=slow.result.value,
            status=slow.result.status.value,
            cpsat_wall=slow.wall[0],
        )
    for payoff in PAYOFFS:
        emit(kind="start", payoff=payoff.value)
        run = timed(lambda p=payoff: solve_streamed(mine, theirs, rules, p, args.time_limit))
        emit(kind="equilibrium", wall=run.wall[0], cpu=run.cpu[0], **run.result)


def solve_streamed(mine: tuple, theirs: tuple, rules: Rules, payoff: Payoff, limit: float) -> dict:
    """The double oracle iterated as ``solve`` does, each record emitted as it comes."""
    try:
        oracle = DoubleOracle(mine, theirs, rules, payoff)
        for record in oracle.iterations(tolerance=TOLERANCE, time_limit=limit):
            emit(kind="record", **dataclasses.asdict(record))
        result = oracle.result(TOLERANCE)
    except Exception as error:  # reported, and the run goes on
        return {"error": f"{type(error).__name__}: {error}"}
    outcome = {"value": result.value, "gap": result.gap, "converged": result.converged}
    outcome |= {"frontier_seconds": result.frontier_seconds}
    return outcome | {"support": [len(result.row.arrangements), len(result.column.arrangements)]}


def child_warm(mode: str, seeds: list[int]) -> None:
    """Frontiers of the deals in order, in one process: each finds the earlier ones' states."""
    warm_up_frontier = deal(seed=WARMUP_SEED, rules=Rules(ace_low_straight=True)).holdings[0]
    frontier(warm_up_frontier, Rules(ace_low_straight=True))
    hand_table()
    for seed in seeds:
        for player, holding in holdings_of(mode, seed):
            emit(
                kind="frontier",
                seed=seed,
                player=player,
                **measure_frontier(holding, rules_of(mode), frontier),
            )
    levels = rank_frontiers(rules_of(mode)).levels.values()
    states = sum(int(level.keys.shape[0]) for level in levels)
    rows = sum(int(level.rows.shape[0]) for level in levels)
    nbytes = sum(a.nbytes for level in levels for a in vars(level).values() if hasattr(a, "nbytes"))
    emit(kind="store", states=states, rows=rows, nbytes=nbytes)


# --------------------------------------------------------------------------- the parent process


def hard_limit(args: Any) -> float:
    """Seconds one solve may run before its child is killed (GLOP has no limit of its own)."""
    return args.time_limit + max(60.0, args.time_limit / 2)


def run_child(args: Any, *task: str) -> tuple[list[dict], str]:
    """The JSON lines of a child process, and what went wrong ("" if nothing)."""
    options = ["--time-limit", str(args.time_limit), "--workers", str(args.workers)]
    deadline = 2 * hard_limit(args) + 2 * args.time_limit + 120
    done = fresh(__file__, "--child", *task, *options, timeout=deadline)
    return done.messages, done.error


def collect(mode: str, seed: int, args: Any, found: dict[str, list[dict]]) -> str:
    """Run one deal's child; file its measurements under frontier, response, equilibrium."""
    messages, error = run_child(args, "deal", mode, str(seed))
    base = {"mode": mode, "seed": seed}
    cold = [m for m in messages if m["kind"] == "frontier"]
    found["frontier"] += [base | m for m in cold]
    cold_seconds, cold_cpu = sum(m["seconds"] for m in cold), sum(m["cpu"] for m in cold)
    for m in messages:
        kind = m.pop("kind")
        if kind == "response_end":
            found["response"].append(base | m | {"strategies": cold[0]["strategies"]})
        elif kind == "start":
            solve = base | {"payoff": m["payoff"], "history": [], "frontier": cold_seconds}
            sizes = [c["strategies"] for c in (cold * 2)[-2:]]  # mirror: one holding, twice
            solve |= {"frontier_cpu": cold_cpu, "sizes": sizes}
            found["equilibrium"].append(solve)
        elif kind == "record":
            found["equilibrium"][-1]["history"].append(m)
        elif kind == "equilibrium":
            found["equilibrium"][-1] |= m | {"done": True}
    last = found["equilibrium"][-1] if found["equilibrium"] else {}
    if error and last.get("seed") == seed and not last.get("done"):
        last |= {"error": error, "killed": error.startswith("killed")}
    return error


def facts(solve: dict) -> dict:
    """What the tables show of one solve."""
    history = solve["history"]
    end = history[-1] if history else {"iteration": 0, "row_strategies": 0}
    end = {"column_strategies": 0, "upper": np.inf, "lower": 0.0} | end
    gap = solve.get("gap", max(0.0, end["upper"] - end["lower"]))
    # A killed solve's time: up to its last record.
    inside = solve.get("wall", end.get("seconds", 0.0)) - solve.get("frontier_seconds", 0.0)
    status = "KILLED" if solve.get("killed") else "ERROR" if solve.get("error") else None
    status = status or ("exact" if solve.get("converged") else "not converged")
    return {
        "status": status,
        "gap": gap,
        "iterations": end["iteration"],
        "last": (end["row_strategies"], end["column_strategies"]),
        "largest": max(
            (max(r["row_strategies"], r["column_strategies"]) for r in history), default=0
        ),
        "solve": inside,
        "total": solve["frontier"] + inside,
        "cpu": solve["frontier_cpu"] + solve.get("cpu", np.nan),
        "lp": sum(r["lp_seconds"] for r in history),
        "oracle": sum(r["oracle_seconds"] for r in history),
    }


def gap_text(value: float) -> str:
    return f"{value:.1e}" if np.isfinite(value) else "inf"


def frontier_tables(cold: list[dict], warm: list[dict], stores: dict) -> list[Table]:
    summary = Table(
        "1. Frontier per holding: size and time, cold (empty store) and warm (store left by the "
        "earlier deals)",
        "mode; holdings; median profiles; max profiles; median strategies; max strategies; "
        "cold median; cold p95; cold max; warm median; warm p95; warm max; cold CPU median; "
        "warm CPU median; strategies() median; target median <= 1 s (cold / warm)",
        "l" + "r" * 14 + "l",
    )
    detail = Table(
        "1b. Frontier, every holding",
        "mode; seed; player; profiles; strategies; cold; cold CPU; warm; warm CPU; strategies()",
        "l" + "r" * 9,
    )
    hot_of = {(m["mode"], m["seed"], m["player"]): m for m in warm}
    for mode in MODES:
        group = [m for m in cold if m["mode"] == mode]
        hot = [hot_of[m["mode"], m["seed"], m["player"]] for m in group]
        if not group:
            continue
        profiles, strategies = [m["profiles"] for m in group], [m["strategies"] for m in group]
        cold_s, warm_s = [m["seconds"] for m in group], [m["seconds"] for m in hot]
        summary.rows.append(
            [mode, str(len(group)), f"{median(profiles):,.0f}", f"{max(profiles):,}"]
            + [f"{median(strategies):,.0f}", f"{max(strategies):,}", *spread(cold_s)]
            + [*spread(warm_s), seconds(median([m["cpu"] for m in group]))]
            + [seconds(median([m["cpu"] for m in hot]))]
            + [seconds(median([m["strategies_seconds"] for m in hot]))]
            + [f"{met(median(cold_s) <= 1)} / {met(median(warm_s) <= 1)}"]
        )
        for c, h in zip(group, hot, strict=True):
            detail.rows.append(
                [mode, str(c["seed"]), str(c["player"]), f"{c['profiles']:,}"]
                + [f"{c['strategies']:,}", seconds(c["seconds"]), seconds(c["cpu"])]
                + [seconds(h["seconds"]), seconds(h["cpu"]), seconds(h["strategies_seconds"])]
            )
    store_notes = ", ".join(
        f"{mode}: {s['states']:,} states, {s['rows']:,} rows, {s['nbytes'] / 2**20:.1f} MiB"
        for mode, s in stores.items()
    )
    summary.notes = [
        "profiles: non-dominated sorted strength profiles (Frontier.profiles); strategies: their "
        "distinct orderings (Frontier.strategies()), what best responses and equilibria enumerate.",
        "cold: wall time of cached_frontier(holding, rules) in a fresh process per deal (warmed "
        "up on the ace-low ranking, whose rank-state store is a different one); an independent "
        "deal's second holding finds the first one's states. warm: frontier(holding, rules) in "
        "one process per mode over the deals in order (its first deal is cold in both columns).",
        "CPU: process CPU time of the same call (all threads), less distorted by other processes "
        "than the wall time; the targets are judged on the wall time.",
        "strategies(): wall time of Frontier.strategies() (every ordering, deduplicated), not "
        "part of the frontier time; the equilibrium solver calls it once per holding and solve.",
        f"Store at the end of each warm sequence: {store_notes}.",
        "Independent deals: two holdings each, one row per holding.",
    ]
    return [summary, detail]


def response_tables(runs: list[dict]) -> list[Table]:
    summary = Table(
        "2. Best response, margin: over the frontier (frontier already computed) vs CP-SAT",
        "mode; opponent; deals; frontier median; frontier p95; frontier max; frontier CPU median; "
        "CP-SAT median; CP-SAT p95; CP-SAT max; median speed-up; max |difference|; agree; "
        "target <= 20 ms (median / p95)",
        "llr" + "r" * 9 + "ll",
    )
    detail = Table(
        "2b. Best response, every deal",
        "mode; seed; opponent; strategies; frontier; CP-SAT; CP-SAT status; value; difference",
        "lrlrrrlrr",
    )
    for mode in MODES:
        for name in OPPONENTS:
            group = [r for r in runs if r["mode"] == mode and r["opponent"] == name]
            if not group:
                continue
            fast, slow = [r["frontier_wall"] for r in group], [r["cpsat_wall"] for r in group]
            differences = [abs(r["frontier_value"] - r["cpsat_value"]) for r in group]
            summary.rows.append(
                [mode, name, str(len(group)), *spread(fast, ms)]
                + [ms(median([r["frontier_cpu"] for r in group])), *spread(slow, ms)]
                + [f"{median([s / f for s, f in zip(slow, fast, strict=True)]):.0f}x"]
                + [f"{max(differences):.1e}", f"{sum(d < 1e-9 for d in differences)}/{len(group)}"]
                + [f"{met(median(fast) <= 0.02)} / {met(p95(fast) <= 0.02)}"]
            )
            detail.rows += [
                [mode, str(r["seed"]), name, f"{r['strategies']:,}", ms(r["frontier_wall"])]
                + [ms(r["cpsat_wall"]), r["status"], f"{r['frontier_value']:.6f}"]
                + [f"{r['frontier_value'] - r['cpsat_value']:.1e}"]
                for r in group
            ]
    summary.notes = [
        "Player 0 against player 1's holding; objective margin (expected points scored minus "
        "conceded, out of 25). random: Opponent.random; greedy: "
        "Opponent.known(greedy_arrangement(player 1's holding)).",
        "frontier: wall time of frontier_best_response with its frontier cached (one untimed "
        "call first), i.e. the evaluation of every frontier strategy plus rebuilding the "
        "arrangement; CP-SAT: wall time of best_response (model building included).",
        "Both values are exact and should agree to 1e-9 (tests/test_frontier.py checks it).",
    ]
    return [summary, detail]


def equilibrium_tables(solves: list[dict], args: Any) -> list[Table]:
    summary = Table(
        "3. Equilibrium by double oracle: per deal and payoff (total = cold frontier + solve)",
        "mode; payoff; deals; exact; max gap; median iterations; max iterations; "
        "median LP size (last / largest); median support (row / col); max support; total median; "
        "total p95; total max; excl. frontier median; excl. frontier p95; total CPU median; "
        "total CPU p95",
        "ll" + "r" * 15,
    )
    targets = Table(
        "3b. Equilibrium targets (total time, frontier included)",
        "mode; payoff; target; measured; met",
        "lllrl",
    )
    detail = Table(
        "3c. Equilibrium, every solve",
        "mode; seed; payoff; strategies (row / col); status; iterations; LP size (last); "
        "largest LP; support (row / col); gap; value; frontier; solve; total; total CPU; "
        "in GLOP (calls); in best responses",
        "lrlrl" + "r" * 12,
    )
    for mode in MODES:
        for payoff in (p.value for p in PAYOFFS):
            group = [s for s in solves if s["mode"] == mode and s["payoff"] == payoff]
            if not group:
                continue
            shown = [facts(s) for s in group]
            totals, gaps = [f["total"] for f in shown], [f["gap"] for f in shown]
            cpus = [f["cpu"] for f in shown if np.isfinite(f["cpu"])]
            supports = [s["support"] for s in group if "support" in s]
            exact = sum(f["status"] == "exact" for f in shown)
            lp_sizes = f"{median([max(f['last']) for f in shown]):.0f} / "
            lp_sizes += f"{median([f['largest'] for f in shown]):.0f}"
            rows, columns = [s[0] for s in supports], [s[1] for s in supports]
            support = [f"{median(rows):.0f} / {median(columns):.0f}", str(max(rows + columns))]
            summary.rows.append(
                [mode, payoff, str(len(group)), f"{exact}/{len(group)}", gap_text(max(gaps))]
                + [f"{median([f['iterations'] for f in shown]):.0f}"]
                + [str(max(f["iterations"] for f in shown)), lp_sizes]
                + (support if supports else ["-", "-"])
                + [*spread(totals), *spread([f["solve"] for f in shown])[:2]]
                + (spread(cpus)[:2] if cpus else ["-", "-"])
            )
            for target, measured, ok in (
                (
                    "every gap <= 1e-06",
                    f"{sum(g <= 1e-6 for g in gaps)}/{len(gaps)} (max {gap_text(max(gaps))})",
                    max(gaps) <= 1e-6,
                ),
                ("median <= 5 s", seconds(median(totals)), median(totals) <= 5),
                ("p95 <= 20 s", seconds(p95(totals)), p95(totals) <= 20),
            ):
                targets.rows.append([mode, payoff, target, measured, met(ok)])
            for s, f in zip(group, shown, strict=True):
                detail.rows.append(
                    [mode, str(s["seed"]), payoff, " / ".join(f"{n:,}" for n in s["sizes"])]
                    + [f["status"], str(f["iterations"]), " x ".join(map(str, f["last"]))]
                    + [str(f["largest"]), " / ".join(map(str, s.get("support", ["-"])))]
                    + [gap_text(f["gap"]), f"{s['value']:.6f}" if "value" in s else "-"]
                    + [seconds(s["frontier"]), seconds(f["solve"]), seconds(f["total"])]
                    + [seconds(f["cpu"]) if np.isfinite(f["cpu"]) else "-"]
                    + [f"{seconds(f['lp'])} ({f['iterations']})", seconds(f["oracle"])]
                )
    summary.notes = [
        "gap: certified upper - lower bound on the game value when the solve stopped (payoff "
        "units: points out of 25 for margin, probability for win); exact: converged to the "
        f"tolerance {TOLERANCE:g} without error. A solve that raised or was killed shows the gap "
        "of its last iteration record.",
        "LP size: restricted strategies per player (the linear program has that many variables "
        "and constraints), at the last iteration and the largest of any iteration (the solver "
        "drops strategies unused lately, so the last can be smaller); support: arrangements with "
        "positive probability in the equilibrium strategies (len(result.row.arrangements), "
        "column).",
        "total: cold frontier time of the deal's holdings (table 1, cold) + the solve on the "
        "cached frontiers; excl. frontier: the solve alone (its wall time less "
        "result.frontier_seconds); CPU: process CPU time of the same (all threads), less "
        "distorted by other processes.",
        f"Each solve has a time limit of {args.time_limit:g} s (--time-limit), checked between "
        "iterations; a solve that hits it shows as not converged. A deal's child process still "
        "running at its deadline is killed; its solve in progress shows as KILLED.",
        "Mirror deals are symmetric games: value 0 (margin) or 1/2 (win), one strategy set, "
        "LP size row = column.",
        "p95 over few deals interpolates between the slowest ones.",
    ]
    targets.notes = [
        "Targets per mode and payoff; the times include the cold frontier. Solves that raised, "
        "hit the time limit or were killed count with the time they took."
    ]
    detail.notes = [
        "in GLOP: the records' lp_seconds summed, the restricted-game LP (GLOP, or the warm "
        "simplex for win) (calls = iterations); in best responses: the records' oracle_seconds "
        "summed (both players); the rest of the solve is building strategy lists, payoff "
        "columns, rebuilding the LP after dropping strategies, and the final mixtures.",
    ]
    return [summary, targets, detail]


def convergence_table(solve: dict, every: int = 10) -> Table:
    """Every ``every``-th iteration record of one solve, and the last."""
    history = solve["history"]
    table = Table(
        f"4. Convergence of {solve['mode']} {solve['seed']}, {solve['payoff']} "
        f"({facts(solve)['status']}, {len(history)} iterations)",
        "iteration; strategies (row / col); lower; upper; gap; seconds",
        "rrrrrr",
    )
    for r in [r for r in history if r["iteration"] % every == 0 or r is history[-1]]:
        table.rows.append(
            [str(r["iteration"]), f"{r['row_strategies']} / {r['column_strategies']}"]
            + [f"{r['lower']:+.9f}", f"{r['upper']:+.9f}", gap_text(r["upper"] - r["lower"])]
            + [seconds(r["seconds"])]
        )
    unit = "points" if solve["payoff"] == "margin" else "probability of winning"
    table.notes = [
        f"lower, upper: the best certified bounds on the game value so far ({unit}); strategies: "
        "restricted strategies per player when the iteration's LP was solved; seconds: since the "
        "start of the solve (frontier cached, so excluded).",
    ]
    return table


def failure_table(solves: list[dict]) -> Table:
    """3d: the solves that raised or were killed."""
    table = Table(
        "3d. Solves that raised or were killed",
        "mode; seed; payoff; after iterations; LP size (last); what happened",
        "lrlrrl",
    )
    for s in solves:
        f = facts(s)
        table.rows.append(
            [s["mode"], str(s["seed"]), s["payoff"], str(f["iterations"])]
            + [" x ".join(map(str, f["last"])), s["error"].strip().splitlines()[-1]]
        )
    return table


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark (or, with --child, one child's part) and print its tables."""
    cli = parser(__doc__)
    cli.add_argument("--mirror-deals", type=non_negative_int, default=20)
    cli.add_argument("--independent-deals", type=non_negative_int, default=10)
    cli.add_argument("--seed", type=non_negative_int, default=20_240_601)
    cli.add_argument("--time-limit", type=positive_float, default=120.0)
    cli.add_argument("--workers", type=positive_int, default=2)
    args = cli.parse_args(argv)
    if args.child:
        task, mode, *seeds = args.child
        if task == "deal":
            child_deal(mode, int(seeds[0]), args)
        else:
            child_warm(mode, [int(seed) for seed in seeds])
        return 0
    started = time.perf_counter()
    facts = machine(
        [
            ("numpy / ortools", f"{np.__version__} / {version('ortools')}"),
            ("quintet-solver", f"{solver.__version__}, git {git_revision()}"),
        ],
        f"mirror-deals={args.mirror_deals} independent-deals={args.independent_deals} "
        f"seed={args.seed} time-limit={args.time_limit:g} s workers={args.workers}",
    )
    seeds = {
        "mirror": [args.seed + i for i in range(args.mirror_deals)],
        "independent": [args.seed + 1000 + i for i in range(args.independent_deals)],
    }
    found: dict[str, list[dict]] = {"frontier": [], "response": [], "equilibrium": []}
    failures = []
    for mode in MODES:
        for seed in seeds[mode]:
            log(f"{mode} deal {seed}")
            error = collect(mode, seed, args, found)
            failures += [f"{mode} {seed}: {error}"] if error else []
    warm, stores = [], {}
    for mode in MODES:
        if seeds[mode]:
            log(f"warm frontiers, {mode}")
            messages, error = run_child(args, "warm", mode, *map(str, seeds[mode]))
            warm += [{"mode": mode} | m for m in messages if m["kind"] == "frontier"]
            stores[mode] = next((m for m in messages if m["kind"] == "store"), {})
            failures += [f"warm {mode}: {error}"] if error else []
    tables = [facts]
    if found["frontier"] and stores:
        tables += frontier_tables(found["frontier"], warm, stores)
    if found["response"]:
        tables += response_tables(found["response"])
    solves = found["equilibrium"]
    if solves:
        tables += equilibrium_tables(solves, args)
        broken = [s for s in solves if s.get("error")]
        tables += [failure_table(broken)] if broken else []
        first = [s for s in solves if s["mode"] == "mirror" and s["payoff"] == "margin"]
        tables.append(convergence_table((first or solves)[0]))
    end = f"Total benchmark time: {time.perf_counter() - started:.1f} s; "
    show(tables, args.markdown, end + f"load average at the end: {load_average()}")
    for failure in failures:
        log(f"FAIL: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
