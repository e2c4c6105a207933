"""Benchmark of the CP-SAT best response against the direct subset-by-position model.

Run from the repository root::

    python benchmarks/bench_best_response.py [--deals N] [--seed S] [--direct-deals M]
        [--direct-time-limit T] [--mixture-deals L] [--workers W] [--time-limit X] [--markdown]

Points and margin against random and greedy opponents on N mirror deals, the direct model
(a boolean per 5-card subset and position) on M, win against a 200-arrangement mixture on L.
"""

import statistics
import time
from collections.abc import Sequence
from typing import Any

import harness as h
import numpy as np

import solver
from solver import Objective, Opponent, SolveStatus, greedy_arrangement
from solver.app.arguments import non_negative_int, positive_float, positive_int
from solver.models.heuristics import random_arrangements
from solver.models.opponents import position_values

OPPONENTS = ("random", "greedy")
OBJECTIVES = (Objective.POINTS, Objective.MARGIN)
SUMMARY = "deals; median seconds; p95 seconds; median wall; p95 wall; max wall; proven optimal; "
SUMMARY += "mean value"


def opponent_of(name: str, holding: tuple[int, ...]) -> Opponent:
    if name == "random":
        return Opponent.random(holding)
    return Opponent.known(greedy_arrangement(holding))


def ours(holding: tuple[int, ...], opponent: Opponent, objective: Objective, args: Any) -> dict:
    """One timed best response, with the models it solved (``BestResponse.models``)."""
    options = {"time_limit": args.time_limit, "workers": args.workers}
    run = h.timed(lambda: solver.best_response(holding, opponent, objective, **options))
    models = [(m.booleans, m.unpruned, m.seconds) for m in run.result.models]
    return {"result": run.result, "wall": run.wall[0], "models": models}


def optimal(runs: Sequence[dict]) -> int:
    return sum(r["result"].status is SolveStatus.OPTIMAL for r in runs)


def summary_row(runs: Sequence[dict]) -> list[str]:
    inside, walls = [r["result"].seconds for r in runs], [r["wall"] for r in runs]
    value = statistics.fmean(r["result"].value for r in runs)
    cells = [*h.spread(inside)[:2], *h.spread(walls)]
    return [str(len(runs)), *cells, f"{100 * optimal(runs) / len(runs):.0f}%", f"{value:.4f}"]


def direct(holding: tuple[int, ...], opponent: Opponent, objective: Objective, args: Any) -> dict:
    """Build the direct model (a boolean per (5-card subset, position)) and solve it, timed."""
    from ortools.sat.python import cp_model

    def build() -> tuple[cp_model.CpModel, int]:
        table = position_values(opponent, objective)  # (positions, strengths), exact integers
        cards = np.asarray(holding, dtype=np.int64)
        hands = cards[solver.subsets(25).astype(np.int64)]  # (53130, 5), sorted rows
        coefficients = table[:, solver.strength(hands)].T.reshape(-1)  # variable 5 * subset + p
        model = cp_model.CpModel()
        x = [model.new_bool_var("") for _ in range(coefficients.shape[0])]
        for card in cards:
            containing = np.flatnonzero((hands == card).any(axis=1))
            model.add_exactly_one(x[5 * int(i) + p] for i in containing for p in range(5))
        for p in range(5):
            model.add_exactly_one(x[p::5])
        model.maximize(cp_model.LinearExpr.weighted_sum(x, coefficients.tolist()))
        row_of = {tuple(row): i for i, row in enumerate(hands.tolist())}
        greedy = greedy_arrangement(holding).packets
        chosen = {5 * row_of[tuple(sorted(packet))] + p for p, packet in enumerate(greedy)}
        # One call on the proto: add_hint() per variable would add seconds.
        model.proto.solution_hint.vars.extend(range(len(x)))
        model.proto.solution_hint.values.extend(int(k in chosen) for k in range(len(x)))
        return model, int(coefficients[sorted(chosen)].sum())

    built = h.timed(build)
    model, hint = built.result
    cp, lines = cp_model.CpSolver(), []  # the log, only to tell whether presolve finished
    parameters = dict(num_workers=args.workers, random_seed=0, log_search_progress=True)
    parameters |= dict(max_time_in_seconds=args.direct_time_limit, log_to_stdout=False)
    for key, value in parameters.items():
        setattr(cp.parameters, key, value)
    cp.log_callback = lines.append
    run = h.timed(lambda: cp.solve(model))
    solved = run.result in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    presolve = any("Stopped after presolve" in line for line in lines)
    presolve = presolve or not any("Presolved optimization model" in t for t in lines)
    value = round(cp.objective_value) if solved else None
    bound = int(np.floor(cp.best_objective_bound + 1e-6)) if solved else None
    measured = {"build": built.wall[0], "solve": run.wall[0], "status": cp.status_name(run.result)}
    measured |= {"value": value, "bound": bound, "presolve": presolve}
    return measured | {"hint": hint, "total": opponent.total}


def our_tables(runs: list[dict], args: Any) -> list[h.Table]:
    """Tables 1, 1b and 1c."""
    figures = h.Table(
        f"1. Our model, points and margin: {args.deals} mirror deals "
        f"(seeds {args.seed}..{args.seed + args.deals - 1}), {args.workers} workers",
        "objective; opponent; " + SUMMARY,
        "ll" + "r" * 8,
    )
    targets = h.Table(
        "1b. Targets (points and margin)", "objective; opponent; target; measured; met", "lllrl"
    )
    for (objective, name), group in h.groups(runs, objective=OBJECTIVES, opponent=OPPONENTS):
        figures.add(objective.value, name, *summary_row(group))
        walls = [r["wall"] for r in group]
        proven, middle, high = optimal(group), h.median(walls), h.p95(walls)
        for target, measured, ok in (
            ("every deal proven optimal", f"{proven}/{len(group)}", proven == len(group)),
            ("median wall <= 0.5 s", h.seconds(middle), middle <= 0.5),
            ("p95 wall <= 2.0 s", h.seconds(high), high <= 2.0),
        ):
            targets.add(objective.value, name, target, measured, h.met(ok))
    figures.notes = ["seconds: result.seconds; wall: the whole call; values out of 25"]
    targets.notes = ["Targets are judged on the wall time, which includes result.seconds."]
    slowest = h.Table(
        "1c. The 8 slowest calls of table 1",
        "seed; objective; opponent; wall; CP-SAT solves; in CP-SAT; "
        "booleans / unpruned, per model (time each); value",
        "rllrrrll",
    )
    for r in sorted(runs, key=lambda r: -r["wall"])[:8]:
        models = ", ".join(f"{b:,}/{f:,} ({s:.2f} s)" for b, f, s in r["models"][:6])
        more = len(r["models"]) - 6
        models += f", ... ({more} more)" if more > 0 else ""
        slowest.add(
            f"{r['seed']}; {r['objective'].value}; {r['opponent']}; {h.seconds(r['wall'])}; "
            f"{len(r['models'])}; {h.seconds(sum(s for _, _, s in r['models']))}; {models}; "
            f"{r['result'].value:.4f}"
        )
    slowest.notes = ["solves: BestResponse.models; booleans / unpruned: pairs kept / all pairs"]
    return [figures, targets, slowest]


def direct_tables(runs: list[dict], args: Any) -> list[h.Table]:
    """Tables 2 and 2b: the direct model next to ours (``run["ours"]``) on the same deals."""
    seeds = sorted({r["seed"] for r in runs})
    summary = h.Table(
        f"2. Direct model (265,650 booleans) vs ours, same {len(seeds)} deals (seeds "
        f"{seeds[0]}..{seeds[-1]}), CP-SAT limit {args.direct_time_limit:g} s, "
        f"{args.workers} workers",
        "objective; opponent; runs; status counts; median build; median solve; p95 solve; "
        "median total; proven optimal; mean value; ours: median wall; ours: p95 wall; "
        "ours: proven optimal; ours: mean value",
        "llrl" + "r" * 10,
    )
    detail = h.Table(
        "2b. Direct model, every run",
        "seed; objective; opponent; build; solve; status; stopped in presolve; direct value; "
        "direct bound; greedy hint; our optimum; ours - direct; our wall",
        "rllrrll" + "r" * 6,
    )
    for (objective, name), group in h.groups(runs, objective=OBJECTIVES, opponent=OPPONENTS):
        statuses = sorted({d["status"] for d in group})
        counts = ", ".join(f"{s} {sum(d['status'] == s for d in group)}" for s in statuses)
        found = [d["value"] / d["total"] for d in group if d["value"] is not None]
        value = f"{statistics.fmean(found):.4f}" if found else "none found"
        value += f" ({len(found)} runs)" if found and len(found) < len(group) else ""
        solves = [d["solve"] for d in group]
        builds, totals = [d["build"] for d in group], [d["build"] + d["solve"] for d in group]
        proven = sum(d["status"] == "OPTIMAL" for d in group)
        mine = summary_row([d["ours"] for d in group])
        summary.add(
            f"{objective.value}; {name}; {len(group)}; {counts}; {h.seconds(h.median(builds))}; "
            f"{h.seconds(h.median(solves))}; {h.seconds(h.p95(solves))}; "
            f"{h.seconds(h.median(totals))}; {100 * proven / len(group):.0f}%; {value}; "
            + "; ".join(mine[3:5] + mine[6:])
        )
        for d in group:
            total, r = d["total"], d["ours"]
            best, proven = r["result"].value, r["result"].status is SolveStatus.OPTIMAL
            value, bound = (
                "-" if d[k] is None else f"{d[k] / total:.4f}" for k in ("value", "bound")
            )
            gap = "-" if d["value"] is None else f"{best - d['value'] / total:.4f}"
            detail.add(
                f"{d['seed']}; {objective.value}; {name}; {h.seconds(d['build'])}; "
                f"{h.seconds(d['solve'])}; {d['status']}; {'yes' if d['presolve'] else 'no'}; "
                f"{value}; {bound}; {d['hint'] / total:.4f}; "
                f"{best:.4f}{'' if proven else ' (not proven)'}; {gap}; {h.seconds(r['wall'])}"
            )
    summary.notes = ["build: model and greedy hint; solve: CpSolver.solve; UNKNOWN: no solution"]
    detail.notes = ["Values out of 25; ours - direct: our optimum less the direct model's best"]
    return [summary, detail]


def mixture_tables(runs: list[dict], args: Any) -> list[h.Table]:
    """Tables 3 and 3b: win against the mixture."""
    middle = h.median(r["wall"] for r in runs)
    summary = h.Table(
        f"3. Win against a 200-arrangement mixture: {len(runs)} deals "
        f"(seeds {runs[0]['seed']}..{runs[-1]['seed']}), {args.workers} workers",
        "objective; opponent; " + SUMMARY + "; target median wall <= 10 s",
        "ll" + "r" * 8 + "l",
    )
    summary.add(
        "win", "mixture", *summary_row(runs), f"{h.met(middle <= 10)} ({h.seconds(middle)})"
    )
    detail = h.Table(
        "3b. Win against the mixture, every deal",
        "seed; seconds; wall; status; value; bound; CP-SAT solves; booleans",
        "rrrlrrrr",
    )
    for r in runs:
        result = r["result"]
        detail.add(
            f"{r['seed']}; {h.seconds(result.seconds)}; {h.seconds(r['wall'])}; "
            f"{result.status.value}; {result.value:.6f}; {result.bound:.6f}; {len(r['models'])}; "
            + ", ".join(f"{b:,}" for b, _, _ in r["models"])
        )
    summary.notes = ["Opponent.mixture of 200 random arrangements (flat-Dirichlet); value: P(win)"]
    return [summary, detail]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its tables."""
    cli = h.parser(__doc__).options(positive_int, deals=50)
    cli.options(non_negative_int, seed=20_240_601, direct_deals=3)
    cli.options(positive_float, direct_time_limit=10.0)
    cli.options(non_negative_int, mixture_deals=10).options(positive_int, workers=2)
    args = cli.options(positive_float, time_limit=60.0).parse_args(argv)
    started = time.perf_counter()
    parameters = f"deals={args.deals} seed={args.seed} workers={args.workers} time-limit="
    parameters += f"{args.time_limit:g} s direct-deals={args.direct_deals} direct-time-limit="
    parameters += f"{args.direct_time_limit:g} s mixture-deals={args.mixture_deals}"
    tables = [h.machine(["numpy / ortools", h.package(solver)], parameters)]
    n = max(args.deals, args.mixture_deals)
    holdings = [solver.deal(seed=args.seed + i).holdings for i in range(n)]
    warm = solver.deal(seed=args.seed + args.deals).holdings
    cases = [(objective, name) for objective in OBJECTIVES for name in OPPONENTS]
    for objective, name in cases:  # untimed: OR-Tools, the tables, the code paths
        ours(warm[0], opponent_of(name, warm[1]), objective, args)
    runs = []
    for i, (mine, theirs) in enumerate(holdings[: args.deals]):
        h.log(f"our model: deal {i + 1}/{args.deals}")
        for objective, name in cases:
            run = ours(mine, opponent_of(name, theirs), objective, args)
            runs.append(run | {"seed": args.seed + i, "objective": objective, "opponent": name})
    tables += our_tables(runs, args)
    direct_runs = []
    for run in runs[: len(cases) * min(args.direct_deals, args.deals)]:
        objective, name, seed = run["objective"], run["opponent"], run["seed"]
        h.log(f"direct model: seed {seed}, {objective.value} vs {name}")
        mine, theirs = holdings[seed - args.seed]
        measured = direct(mine, opponent_of(name, theirs), objective, args)
        keys = {key: run[key] for key in ("seed", "objective", "opponent")}
        direct_runs.append(measured | keys | {"ours": run})
    tables += direct_tables(direct_runs, args) if direct_runs else []
    mixture = []
    for i, (mine, theirs) in enumerate(holdings[: args.mixture_deals]):
        h.log(f"win vs mixture: deal {i + 1}/{args.mixture_deals}")
        rng = np.random.default_rng((args.seed, i))
        arrangements = random_arrangements(theirs, 200, rng)
        opponent = Opponent.mixture(arrangements, rng.dirichlet(np.ones(200)))
        run = ours(mine, opponent, Objective.WIN_PROBABILITY, args)
        mixture.append(run | {"seed": args.seed + i})
    tables += mixture_tables(mixture, args) if mixture else []
    h.show(tables, args.markdown, h.elapsed(started))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
