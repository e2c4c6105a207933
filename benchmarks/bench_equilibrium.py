"""Benchmark of the strategy frontier, the best response over it and the equilibrium solver.

Run from the repository root::

    python benchmarks/bench_equilibrium.py [--mirror-deals N] [--independent-deals M]
        [--seed S] [--time-limit T] [--workers W] [--markdown]

Each deal in a fresh process: frontiers cold and warm, the margin best response over the
frontier and by CP-SAT, each payoff's exact equilibrium, the first deal's convergence.
"""

import dataclasses
import itertools
import time
from collections.abc import Sequence
from typing import Any

import harness as h
import numpy as np

import solver
from solver import Objective, Opponent, Rules, deal
from solver.app.arguments import non_negative_int, positive_float, positive_int
from solver.equilibria.equilibrium import DealDoubleOracle
from solver.models.packets import check_holding
from solver.response.frontier import frontier
from solver.response.rank_frontier import rank_frontiers

MODES = ("mirror", "independent")
PAYOFFS = ("margin", "win")
OPPONENTS = ("random", "greedy")
TOLERANCE = 1e-9
MARGIN = Objective.MARGIN
WARMUP = deal(seed=20_000_000, rules=Rules(ace_low_straight=True))


def holdings_of(mode: str, seed: int) -> list[tuple[int, tuple[int, ...]]]:
    """(player, holding) of each distinct holding of the deal: one in mirror mode."""
    rules = Rules(discard_mode=mode)
    first, second = (check_holding(h, rules) for h in deal(seed=seed, rules=rules).holdings)
    return [(0, first)] if first == second else [(0, first), (1, second)]


def opponent_of(name: str, holding: tuple[int, ...], rules: Rules) -> Opponent:
    if name == "random":
        return Opponent.random(holding, rules)
    return Opponent.known(solver.greedy_arrangement(holding, rules), rules)


def measure_frontier(holding: tuple[int, ...], rules: Rules, compute: Any) -> dict:
    run = h.timed(lambda: compute(holding, rules))
    listed = h.timed(lambda: run.result.strategies())
    measured = {"profiles": int(run.result.profiles.shape[0]), "cpu": run.cpu[0]}
    measured |= {"strategies": int(listed.result[0].shape[0]), "strategies_seconds": listed.wall[0]}
    return measured | {"seconds": run.wall[0], "kind": "frontier"}


def outcome(name: str, run: h.Timing) -> dict:
    fields = {"value": run.result.value, "wall": run.wall[0], "cpu": run.cpu[0]}
    return {f"{name}_{key}": value for key, value in fields.items()}


def child_deal(mode: str, seed: int, args: Any) -> None:
    """Cold frontiers, both best responses and both equilibria of one deal."""
    solver.hand_table()  # the warm-up, untimed, on the ace-low ranking
    first, second = WARMUP.holdings
    for name in OPPONENTS:
        opponent = opponent_of(name, second, WARMUP.rules)
        solver.frontier_best_response(first, opponent, MARGIN)
        solver.best_response(first, opponent, MARGIN, workers=args.workers)
    list(itertools.islice(DealDoubleOracle(first, second, WARMUP.rules).iterations(), 3))
    rules, holdings = Rules(discard_mode=mode), holdings_of(mode, seed)
    cold = [measure_frontier(holding, rules, solver.cached_frontier) for _, holding in holdings]
    for (player, _), measured in zip(holdings, cold, strict=True):
        h.emit(player=player, **measured)
    mine, theirs = holdings[0][1], holdings[-1][1]
    options = {"time_limit": args.time_limit, "workers": args.workers}
    for name in OPPONENTS:
        opponent = opponent_of(name, theirs, rules)
        solver.frontier_best_response(mine, opponent, MARGIN)  # caches the frontier
        fast = h.timed(lambda o=opponent: solver.frontier_best_response(mine, o, MARGIN))
        slow = h.timed(lambda o=opponent: solver.best_response(mine, o, MARGIN, **options))
        measured = {"strategies": cold[0]["strategies"], "status": slow.result.status.value}
        measured |= outcome("frontier", fast) | outcome("cpsat", slow)
        h.emit(kind="response", opponent=name, **measured)
    sizes = [c["strategies"] for c in (cold * 2)[-2:]]  # mirror: one holding, twice
    spent = {"frontier": sum(c["seconds"] for c in cold)}
    spent["frontier_cpu"] = sum(c["cpu"] for c in cold)
    for payoff in PAYOFFS:
        h.emit(kind="equilibrium", payoff=payoff, sizes=sizes, history=[], **spent)
        run = h.timed(lambda p=payoff: solve_streamed(mine, theirs, rules, p, args.time_limit))
        h.emit(kind="end", wall=run.wall[0], cpu=run.cpu[0], done=True, **run.result)


def solve_streamed(mine: tuple, theirs: tuple, rules: Rules, payoff: str, limit: float) -> dict:
    """The double oracle iterated as ``solve`` does, each record emitted as it comes."""
    try:
        oracle = DealDoubleOracle(mine, theirs, rules, solver.Payoff(payoff))
        for record in oracle.iterations(tolerance=TOLERANCE, time_limit=limit):
            h.emit(kind="record", **dataclasses.asdict(record))
        result = oracle.result(TOLERANCE)
    except Exception as error:  # reported, and the run goes on
        return {"error": f"{type(error).__name__}: {error}"}
    support = [len(result.row.arrangements), len(result.column.arrangements)]
    outcome = {"value": result.value, "gap": result.gap, "converged": result.converged}
    return outcome | {"frontier_seconds": result.frontier_seconds, "support": support}


def child_warm(mode: str, seeds: list[int]) -> None:
    """Frontiers of the deals in order, in one process: each finds the earlier ones' states."""
    frontier(WARMUP.holdings[0], WARMUP.rules)
    solver.hand_table()
    rules = Rules(discard_mode=mode)
    for seed in seeds:
        for player, holding in holdings_of(mode, seed):
            h.emit(seed=seed, player=player, **measure_frontier(holding, rules, frontier))
    levels = rank_frontiers(rules).levels.values()
    states = sum(int(level.keys.shape[0]) for level in levels)
    rows = sum(int(level.rows.shape[0]) for level in levels)
    nbytes = sum(a.nbytes for level in levels for a in vars(level).values() if hasattr(a, "nbytes"))
    h.emit(kind="store", states=states, rows=rows, nbytes=nbytes)


def run_child(args: Any, *task: str) -> h.Child:
    """A child process, killed at a deadline (GLOP has no time limit of its own)."""
    options = ["--time-limit", str(args.time_limit), "--workers", str(args.workers)]
    hard_limit = args.time_limit + max(60.0, args.time_limit / 2)  # per solve
    deadline = 2 * hard_limit + 2 * args.time_limit + 120
    return h.fresh(__file__, "--child", *task, *options, timeout=deadline)


def collect(mode: str, seed: int, args: Any, found: dict[str, list[dict]]) -> str:
    """Run one deal's child; file its measurements under frontier, response, equilibrium."""
    done, base = run_child(args, "deal", mode, str(seed)), {"mode": mode, "seed": seed}
    solves = found["equilibrium"]
    for m in done.messages:
        if m["kind"] == "record":
            solves[-1]["history"].append(m)
        elif m["kind"] == "end":
            solves[-1] |= m
        else:
            found[m["kind"]].append(base | m)
    if done.error and solves and solves[-1]["seed"] == seed and not solves[-1].get("done"):
        solves[-1] |= {"error": done.error, "killed": done.error.startswith("killed")}
    return done.error


def facts(solve: dict) -> dict:
    """What the tables show of one solve (a killed one: up to its last record)."""
    history = solve["history"]
    end = {"iteration": 0, "row_strategies": 0, "column_strategies": 0, "upper": np.inf}
    end |= {"lower": 0.0} | (history[-1] if history else {})
    inside = solve.get("wall", end.get("seconds", 0.0)) - solve.get("frontier_seconds", 0.0)
    status = "KILLED" if solve.get("killed") else "ERROR" if solve.get("error") else None
    status = status or ("exact" if solve.get("converged") else "not converged")
    shown = {"status": status, "gap": solve.get("gap", max(0.0, end["upper"] - end["lower"]))}
    shown |= {"iterations": end["iteration"], "solve": inside, "total": solve["frontier"] + inside}
    shown["last"] = (end["row_strategies"], end["column_strategies"])
    sizes = [max(r["row_strategies"], r["column_strategies"]) for r in history]
    shown["largest"] = max(sizes, default=0)
    shown["cpu"] = solve["frontier_cpu"] + solve.get("cpu", np.nan)
    return shown | {k: sum(r[f"{k}_seconds"] for r in history) for k in ("lp", "oracle")}


def gap_text(value: float) -> str:
    return f"{value:.1e}" if np.isfinite(value) else "inf"


def frontier_tables(cold: list[dict], warm: list[dict], stores: dict) -> list[h.Table]:
    summary = h.Table(
        "1. Frontier per holding: size and time, cold (empty store) and warm (store left by the "
        "earlier deals)",
        "mode; holdings; median profiles; max profiles; median strategies; max strategies; "
        "cold median; cold p95; cold max; warm median; warm p95; warm max; cold CPU median; "
        "warm CPU median; strategies() median; target median <= 1 s (cold / warm)",
        "l" + "r" * 14 + "l",
    )
    detail = h.Table(
        "1b. Frontier, every holding",
        "mode; seed; player; profiles; strategies; cold; cold CPU; warm; warm CPU; strategies()",
        "l" + "r" * 9,
    )
    hot_of = {(m["mode"], m["seed"], m["player"]): m for m in warm}
    for (mode,), group in h.groups(cold, mode=MODES):
        hot = [hot_of[m["mode"], m["seed"], m["player"]] for m in group]
        profiles, strategies = [m["profiles"] for m in group], [m["strategies"] for m in group]
        cold_s, warm_s = [m["seconds"] for m in group], [m["seconds"] for m in hot]
        cpu = [h.seconds(h.median(m["cpu"] for m in ones)) for ones in (group, hot)]
        summary.add(
            f"{mode}; {len(group)}; {h.median(profiles):,.0f}; {max(profiles):,}; "
            f"{h.median(strategies):,.0f}; {max(strategies):,}; "
            + "; ".join([*h.spread(cold_s), *h.spread(warm_s), *cpu])
            + f"; {h.seconds(h.median(m['strategies_seconds'] for m in hot))}; "
            f"{h.met(h.median(cold_s) <= 1)} / {h.met(h.median(warm_s) <= 1)}"
        )
        for c, w in zip(group, hot, strict=True):
            times = [c["seconds"], c["cpu"], w["seconds"], w["cpu"], w["strategies_seconds"]]
            cells = [mode, c["seed"], c["player"], f"{c['profiles']:,}", f"{c['strategies']:,}"]
            detail.add(*cells, *map(h.seconds, times))
    store_notes = ", ".join(
        f"{mode}: {s['states']:,} states, {s['rows']:,} rows, {s['nbytes'] / 2**20:.1f} MiB"
        for mode, s in stores.items()
    )
    summary.notes = [
        "cold: cached_frontier in a fresh process per deal; warm: frontier(), deals in order",
        f"Store at the end of each warm sequence: {store_notes}.",
    ]
    return [summary, detail]


def response_tables(runs: list[dict]) -> list[h.Table]:
    summary = h.Table(
        "2. Best response, margin: over the frontier (frontier already computed) vs CP-SAT",
        "mode; opponent; deals; frontier median; frontier p95; frontier max; frontier CPU median; "
        "CP-SAT median; CP-SAT p95; CP-SAT max; median speed-up; max |difference|; agree; "
        "target <= 20 ms (median / p95)",
        "llr" + "r" * 9 + "ll",
    )
    detail = h.Table(
        "2b. Best response, every deal",
        "mode; seed; opponent; strategies; frontier; CP-SAT; CP-SAT status; value; difference",
        "lrlrrrlrr",
    )
    for (mode, name), group in h.groups(runs, mode=MODES, opponent=OPPONENTS):
        fast, slow = [r["frontier_wall"] for r in group], [r["cpsat_wall"] for r in group]
        differences = [abs(r["frontier_value"] - r["cpsat_value"]) for r in group]
        speed_up = h.median(s / f for s, f in zip(slow, fast, strict=True))
        summary.add(
            f"{mode}; {name}; {len(group)}; "
            + "; ".join([*h.spread(fast, h.ms), h.ms(h.median(r["frontier_cpu"] for r in group))])
            + f"; {'; '.join(h.spread(slow, h.ms))}; {speed_up:.0f}x; {max(differences):.1e}; "
            f"{sum(d < 1e-9 for d in differences)}/{len(group)}; "
            f"{h.met(h.median(fast) <= 0.02)} / {h.met(h.p95(fast) <= 0.02)}"
        )
        for r in group:
            detail.add(
                f"{mode}; {r['seed']}; {name}; {r['strategies']:,}; {h.ms(r['frontier_wall'])}; "
                f"{h.ms(r['cpsat_wall'])}; {r['status']}; {r['frontier_value']:.6f}; "
                f"{r['frontier_value'] - r['cpsat_value']:.1e}"
            )
    summary.notes = ["Player 0 against player 1's holding; both exact, they should agree to 1e-9"]
    return [summary, detail]


def equilibrium_tables(solves: list[dict], args: Any) -> list[h.Table]:
    summary = h.Table(
        "3. Equilibrium by double oracle: per deal and payoff (total = cold frontier + solve)",
        "mode; payoff; deals; exact; max gap; median iterations; max iterations; "
        "median LP size (last / largest); median support (row / col); max support; total median; "
        "total p95; total max; excl. frontier median; excl. frontier p95; total CPU median; "
        "total CPU p95",
        "ll" + "r" * 15,
    )
    targets = h.Table(
        "3b. Equilibrium targets (total time, frontier included)",
        "mode; payoff; target; measured; met",
        "lllrl",
    )
    detail = h.Table(
        "3c. Equilibrium, every solve",
        "mode; seed; payoff; strategies (row / col); status; iterations; LP size (last); "
        "largest LP; support (row / col); gap; value; frontier; solve; total; total CPU; "
        "in GLOP (calls); in best responses",
        "lrlrl" + "r" * 12,
    )
    for (mode, payoff), group in h.groups(solves, mode=MODES, payoff=PAYOFFS):
        shown = [facts(s) for s in group]
        totals, gaps = [f["total"] for f in shown], [f["gap"] for f in shown]
        cpus = [f["cpu"] for f in shown if np.isfinite(f["cpu"])]
        supports = [s["support"] for s in group if "support" in s]
        rows, columns = [s[0] for s in supports], [s[1] for s in supports]
        support = f"{h.median(rows):.0f} / {h.median(columns):.0f}; {max(rows + columns)}"
        summary.add(
            f"{mode}; {payoff}; {len(group)}; {sum(f['status'] == 'exact' for f in shown)}/"
            f"{len(group)}; {gap_text(max(gaps))}; {h.median(f['iterations'] for f in shown):.0f}; "
            f"{max(f['iterations'] for f in shown)}; {h.median(max(f['last']) for f in shown):.0f} "
            f"/ {h.median(f['largest'] for f in shown):.0f}; {support if supports else '-; -'}; "
            + "; ".join(h.spread(totals) + h.spread([f["solve"] for f in shown])[:2])
            + "; "
            + "; ".join(h.spread(cpus)[:2] if cpus else ["-", "-"])
        )
        proven = f"{sum(g <= 1e-6 for g in gaps)}/{len(gaps)} (max {gap_text(max(gaps))})"
        targets.add(mode, payoff, "every gap <= 1e-06", proven, h.met(max(gaps) <= 1e-6))
        middle, high = h.median(totals), h.p95(totals)
        targets.add(mode, payoff, "median <= 5 s", h.seconds(middle), h.met(middle <= 5))
        targets.add(mode, payoff, "p95 <= 20 s", h.seconds(high), h.met(high <= 20))
        for s, f in zip(group, shown, strict=True):
            value = f"{s['value']:.6f}" if "value" in s else "-"
            detail.add(
                f"{mode}; {s['seed']}; {payoff}; {' / '.join(f'{n:,}' for n in s['sizes'])}; "
                f"{f['status']}; {f['iterations']}; {' x '.join(map(str, f['last']))}; "
                f"{f['largest']}; {' / '.join(map(str, s.get('support', ['-'])))}; "
                f"{gap_text(f['gap'])}; {value}; "
                + "; ".join(map(h.seconds, (s["frontier"], f["solve"], f["total"])))
                + f"; {h.seconds(f['cpu']) if np.isfinite(f['cpu']) else '-'}; "
                f"{h.seconds(f['lp'])} ({f['iterations']}); {h.seconds(f['oracle'])}"
            )
    summary.notes = [
        f"gap: certified upper - lower bound; exact: converged to {TOLERANCE:g} without error",
        "total: cold frontier (table 1) + solve; excl. frontier: less result.frontier_seconds",
        f"Time limit {args.time_limit:g} s per solve; a child past its deadline: KILLED",
    ]
    targets.notes = ["The times include the cold frontier; failed solves count with their time."]
    detail.notes = ["in GLOP: the records' lp_seconds; in best responses: their oracle_seconds"]
    broken = h.Table(
        "3d. Solves that raised or were killed",
        "mode; seed; payoff; after iterations; LP size (last); what happened",
        "lrlrrl",
    )
    for s, f in ((s, facts(s)) for s in solves if s.get("error")):
        last = " x ".join(map(str, f["last"]))
        what = s["error"].strip().splitlines()[-1]
        broken.add(s["mode"], s["seed"], s["payoff"], f["iterations"], last, what)
    return [summary, targets, detail] + ([broken] if broken.rows else [])


def convergence_table(solve: dict, every: int = 10) -> h.Table:
    """Every ``every``-th iteration record of one solve, and the last."""
    history = solve["history"]
    table = h.Table(
        f"4. Convergence of {solve['mode']} {solve['seed']}, {solve['payoff']} "
        f"({facts(solve)['status']}, {len(history)} iterations)",
        "iteration; strategies (row / col); lower; upper; gap; seconds",
        "rrrrrr",
    )
    for r in [r for r in history if r["iteration"] % every == 0 or r is history[-1]]:
        table.add(
            f"{r['iteration']}; {r['row_strategies']} / {r['column_strategies']}; "
            f"{r['lower']:+.9f}; {r['upper']:+.9f}; {gap_text(r['upper'] - r['lower'])}; "
            + h.seconds(r["seconds"])
        )
    unit = "points" if solve["payoff"] == "margin" else "probability of winning"
    table.notes = [f"lower, upper: certified bounds ({unit}); seconds: since the solve's start"]
    return table


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark (or, with --child, one child's part) and print its tables."""
    cli = h.parser(__doc__)
    cli.options(non_negative_int, mirror_deals=20, independent_deals=10, seed=20_240_601)
    cli.options(positive_float, time_limit=120.0)
    args = cli.options(positive_int, workers=2).parse_args(argv)
    if args.child:
        task, mode, *seeds = args.child
        if task == "deal":
            child_deal(mode, int(seeds[0]), args)
        else:
            child_warm(mode, [int(seed) for seed in seeds])
        return 0
    started = time.perf_counter()
    parameters = f"mirror-deals={args.mirror_deals} independent-deals={args.independent_deals} "
    parameters += f"seed={args.seed} time-limit={args.time_limit:g} s workers={args.workers}"
    tables = [h.machine(["numpy / ortools", h.package(solver)], parameters)]
    seeds = {"mirror": [args.seed + i for i in range(args.mirror_deals)]}
    seeds["independent"] = [args.seed + 1000 + i for i in range(args.independent_deals)]
    found: dict[str, list[dict]] = {"frontier": [], "response": [], "equilibrium": []}
    failures, warm, stores = [], [], {}
    for mode in MODES:
        for seed in seeds[mode]:
            h.log(f"{mode} deal {seed}")
            error = collect(mode, seed, args, found)
            failures += [f"{mode} {seed}: {error}"] if error else []
    for mode in (mode for mode in MODES if seeds[mode]):
        h.log(f"warm frontiers, {mode}")
        done = run_child(args, "warm", mode, *map(str, seeds[mode]))
        warm += [{"mode": mode} | m for m in done.messages if m["kind"] == "frontier"]
        stores[mode] = next((m for m in done.messages if m["kind"] == "store"), {})
        failures += [f"warm {mode}: {done.error}"] if done.error else []
    if found["frontier"] and stores:
        tables += frontier_tables(found["frontier"], warm, stores)
    if found["response"]:
        tables += response_tables(found["response"])
    if solves := found["equilibrium"]:
        tables += equilibrium_tables(solves, args)
        first = [s for s in solves if s["mode"] == "mirror" and s["payoff"] == "margin"]
        tables.append(convergence_table((first or solves)[0]))
    h.show(tables, args.markdown, h.elapsed(started))
    for failure in failures:
        h.log(f"FAIL: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
