"""Benchmark of the CP-SAT best response, :func:`solver.response.best_response.best_response`.

Run from the repository root::

    python benchmarks/bench_best_response.py [--deals N] [--seed S] [--direct-deals M]
        [--direct-time-limit T] [--mixture-deals L] [--workers W] [--time-limit X] [--markdown]

It prints plain-text tables, or GitHub markdown with ``--markdown``.  Every
time quoted is a median (p95 and maximum given next to it for context).
Progress goes to stderr; stdout holds only the tables.

What is measured
----------------
1. **Our model, points and margin.**  ``N`` (default 50) seeded mirror deals,
   ``deal(seed=S + i)``; player 0 optimizes against player 1's holding (the
   same 25 cards), for the objectives points and margin, against two
   opponents: ``Opponent.random`` and the greedy arrangement
   (``Opponent.known(greedy_arrangement(...))``), with ``--workers`` CP-SAT
   workers (default 2).  Per (objective, opponent): median and p95 of
   ``result.seconds`` (measured inside ``best_response``) and of the wall time
   of the call, share proven optimal, mean value.  One untimed warm-up solve
   on the deal ``S + N`` (outside the set) loads OR-Tools and the tables
   first.  Each returned arrangement is checked against the holding and its
   value recomputed from ``position_values`` in exact integers.

   The script wraps ``ArrangementModel.solve`` (in memory, restored on exit)
   to count the CP-SAT solves each call makes and the booleans of each model;
   the slowest calls are listed with those counts, which show how far the
   pruning slack of :func:`solver.response.best_response._search` had to grow.

2. **The direct model**, the alternative the optimizer is compared with, on
   the first ``M`` deals (default 3) and the same four (objective, opponent)
   pairs: one boolean per (five-card subset of the 25 cards, position),
   ``C(25, 5) * 5 = 265,650`` of them; each card in exactly one chosen packet,
   each position exactly one packet; maximize ``sum coefficient(strength of the
   subset, position)`` with the same exact integer coefficients as ours
   (:func:`solver.models.opponents.position_values`).  It gets the same start as ours,
   a complete hint with the greedy arrangement, the same workers and seed,
   CP-SAT's default parameters otherwise, and ``--direct-time-limit`` seconds
   (default 10).  Build time (numpy data, variables, constraints, objective,
   hint) and solve time are measured separately.  Its best value must never
   exceed our proven optimum (that would be a bug in ours), its solution must
   be a valid arrangement whose exact value is the objective CP-SAT reports,
   and its bound must not fall below our value: any violation makes the script
   exit with status 1.  A solve that returns no solution (CP-SAT still in
   presolve at the time limit, for one) has no value and no bound; its
   ``best_objective_bound`` is then meaningless and is not used.

3. **Win against a mixture.**  For the first ``L`` deals (default 10), the
   opponent plays one of 200 uniformly random arrangements of its holding with
   probabilities drawn from a flat Dirichlet (both from
   ``numpy.random.default_rng((S, i))``); objective ``Objective.WIN``.

Targets (reported as met or not; never asserted)
-------------------------------------------------
* Points and margin (table 1): every deal proven optimal; median <= 0.5 s and
  p95 <= 2 s, judged on the wall time of the call (which includes
  ``result.seconds``).
* Win against the 200-arrangement mixture (table 3): median <= 10 s (wall).

With the defaults the whole run takes about six to eight minutes on two cores:
roughly half in table 1, half in the direct model (each of its 12 solves uses
its whole time limit plus about three seconds of model building).  Our solver
gets a safety time limit (``--time-limit``, default 60 s) so that one
pathological deal cannot stall the run; a deal that hits it shows as not
proven optimal.  Other processes on the machine distort the times: the load
average at the start and the end is printed.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from _common import (
    Table,
    format_seconds,
    git_revision,
    load_average,
    log,
    machine_table,
    met,
    non_negative_int,
    percentile_95,
    positive_float,
    positive_int,
    version,
)

import solver
from solver.game.arrangement import Arrangement
from solver.game.deal import deal
from solver.game.evaluator import strength
from solver.game.rules import DEFAULT_RULES, Rules
from solver.models.heuristics import greedy_arrangement, random_arrangements
from solver.models.opponents import Objective, Opponent, position_values
from solver.models.packets import subsets
from solver.response.best_response import BestResponse, SolveStatus, best_response
from solver.response.cpsat_model import ArrangementModel

REPO_ROOT = Path(__file__).resolve().parent.parent

MEDIAN_TARGET_S = 0.5
P95_TARGET_S = 2.0
WIN_MEDIAN_TARGET_S = 10.0
MIXTURE_SIZE = 200

OBJECTIVES = (Objective.POINTS, Objective.MARGIN)
OPPONENTS = ("random", "greedy")


# --------------------------------------------------------------------------- output


def _pct(share: float) -> str:
    return f"{100 * share:.0f}%"


# --------------------------------------------------------------------------- machine


def machine_header(args: argparse.Namespace) -> Table:
    """Date, machine, versions and run parameters, as a two-column table."""
    return machine_table(
        [
            ("numpy / ortools", f"{np.__version__} / {version('ortools')}"),
            ("quintet-solver", f"{solver.__version__}, git {git_revision()}"),
        ],
        f"deals={args.deals} seed={args.seed} workers={args.workers} "
        f"time-limit={args.time_limit:g} s direct-deals={args.direct_deals} "
        f"direct-time-limit={args.direct_time_limit:g} s "
        f"mixture-deals={args.mixture_deals}",
    )


# --------------------------------------------------------------------------- our solver


@dataclass(frozen=True)
class ModelSolve:
    """One ``ArrangementModel.solve`` call inside a best response."""

    booleans: int
    full: int  # booleans of the unpruned model: options x free positions
    status: str
    seconds: float


@contextlib.contextmanager
def recording_solves() -> Iterator[list[ModelSolve]]:
    """Record every ``ArrangementModel.solve`` call made inside the block.

    The method is wrapped on the class (in memory only) and restored on exit.
    """
    records: list[ModelSolve] = []
    original = ArrangementModel.solve

    def solve(self: ArrangementModel, time_limit: float | None, workers: int) -> Any:
        started = time.perf_counter()
        outcome = original(self, time_limit, workers)
        full = self.problem.options.n_options * len(self.problem.free_positions)
        seconds = time.perf_counter() - started
        records.append(ModelSolve(len(self.pairs), full, outcome.status, seconds))
        return outcome

    ArrangementModel.solve = solve  # type: ignore[method-assign]
    try:
        yield records
    finally:
        ArrangementModel.solve = original  # type: ignore[method-assign]


@dataclass(frozen=True)
class OurRun:
    """One call of our best response, with what the benchmark checks of it."""

    seed: int
    objective: str
    opponent: str
    result: BestResponse
    wall: float
    exact: int | None  # value in integer units of 1 / total (separable objectives)
    total: int
    solves: tuple[ModelSolve, ...]

    @property
    def optimal(self) -> bool:
        return self.result.status is SolveStatus.OPTIMAL


def exact_value(profile: Sequence[int], table: np.ndarray) -> int:
    """Value of a strength profile in the integer units of ``position_values``."""
    positions = np.arange(len(profile))
    return int(table[positions, np.asarray(profile, dtype=np.int64)].sum())


def run_ours(
    seed: int,
    holding: tuple[int, ...],
    opponent: Opponent,
    opponent_name: str,
    objective: Objective,
    args: argparse.Namespace,
    failures: list[str],
) -> OurRun:
    """Time one best response and check its arrangement."""
    with recording_solves() as solves:
        started = time.perf_counter()
        result = best_response(
            holding, opponent, objective, time_limit=args.time_limit, workers=args.workers
        )
        wall = time.perf_counter() - started
    rules = opponent.rules
    try:
        result.arrangement.check(holding, rules)
    except solver.ArrangementError as error:
        failures.append(f"seed {seed} {objective.value} vs {opponent_name}: {error}")
    exact = None
    if objective.separable:
        table = position_values(opponent, objective)
        exact = exact_value(result.arrangement.strengths(rules).tolist(), table)
        if abs(exact / opponent.total - result.value) > 1e-9:
            failures.append(
                f"seed {seed} {objective.value} vs {opponent_name}: reported value "
                f"{result.value!r} is not the exact {exact}/{opponent.total}"
            )
    return OurRun(
        seed=seed,
        objective=objective.value,
        opponent=opponent_name,
        result=result,
        wall=wall,
        exact=exact,
        total=opponent.total,
        solves=tuple(solves),
    )


def make_opponent(name: str, holding: tuple[int, ...], rules: Rules) -> Opponent:
    """The random or the greedy opponent on ``holding``."""
    if name == "random":
        return Opponent.random(holding, rules)
    return Opponent.known(greedy_arrangement(holding, rules), rules)


def summary_row(label: list[str], runs: Sequence[OurRun]) -> list[str]:
    """Median, p95 and max times, share optimal and mean value of some runs."""
    seconds = [run.result.seconds for run in runs]
    walls = [run.wall for run in runs]
    return [
        *label,
        str(len(runs)),
        format_seconds(statistics.median(seconds)),
        format_seconds(percentile_95(seconds)),
        format_seconds(statistics.median(walls)),
        format_seconds(percentile_95(walls)),
        format_seconds(max(walls)),
        _pct(sum(run.optimal for run in runs) / len(runs)),
        f"{statistics.fmean(run.result.value for run in runs):.4f}",
    ]


SUMMARY_HEADERS = [
    "deals",
    "median seconds",
    "p95 seconds",
    "median wall",
    "p95 wall",
    "max wall",
    "proven optimal",
    "mean value",
]


# --------------------------------------------------------------------------- direct model


@dataclass(frozen=True)
class DirectRun:
    """One solve of the direct model."""

    seed: int
    objective: str
    opponent: str
    build: float  # seconds: numpy data, variables, constraints, objective, hint
    solve: float  # seconds: wall time of CpSolver.solve
    cpsat_wall: float  # CP-SAT's own wall time
    status: str  # CP-SAT status name
    objective_value: int | None  # integer units; None without a solution
    bound: int | None  # integer units; None without a solution
    stopped_in_presolve: bool
    hint_value: int


def build_direct(
    holding: tuple[int, ...], table: np.ndarray, hint: Arrangement, rules: Rules
) -> tuple[Any, list[Any], np.ndarray, int]:
    """The direct model: one boolean per (five-card subset, position).

    Variable ``x[5 * i + p]`` is subset ``i`` (row of ``subsets(25)``) at
    position ``p``.  Returns the model, the variables, the subsets as card ids
    and the integer value of the hint.
    """
    from ortools.sat.python import cp_model

    n_positions = rules.n_packets
    cards = np.asarray(holding, dtype=np.int64)
    hands = cards[subsets(cards.shape[0]).astype(np.int64)]  # (53130, 5), sorted rows
    coefficients = table[:, strength(hands, rules)].T  # (n_subsets, n_positions)

    model = cp_model.CpModel()
    x = [model.new_bool_var("") for _ in range(hands.shape[0] * n_positions)]
    # Each card in exactly one chosen packet.
    for card in cards:
        containing = np.flatnonzero((hands == card).any(axis=1))
        model.add_exactly_one(
            [x[n_positions * int(i) + p] for i in containing for p in range(n_positions)]
        )
    # Each position exactly one packet.
    for p in range(n_positions):
        model.add_exactly_one(x[p::n_positions])
    model.maximize(cp_model.LinearExpr.weighted_sum(x, coefficients.reshape(-1).tolist()))

    # Complete hint: the greedy arrangement, as our solver's first hint.
    row_of = {tuple(int(c) for c in row): i for i, row in enumerate(hands)}
    chosen = {
        n_positions * row_of[tuple(sorted(packet))] + p for p, packet in enumerate(hint.packets)
    }
    # Set on the proto in one call: add_hint() per variable would add 1.5 s here.
    model.proto.solution_hint.vars.extend(var.index for var in x)
    model.proto.solution_hint.values.extend(int(k in chosen) for k in range(len(x)))
    hint_value = int(sum(coefficients[k // n_positions, k % n_positions] for k in chosen))
    return model, x, hands, hint_value


def run_direct(
    seed: int,
    holding: tuple[int, ...],
    opponent: Opponent,
    opponent_name: str,
    objective: Objective,
    args: argparse.Namespace,
    failures: list[str],
) -> DirectRun:
    """Build and solve the direct model; check its solution, if any."""
    from ortools.sat.python import cp_model

    rules = opponent.rules
    n_positions = rules.n_packets
    started = time.perf_counter()
    table = position_values(opponent, objective)
    model, x, hands, hint_value = build_direct(
        holding, table, greedy_arrangement(holding, rules), rules
    )
    build = time.perf_counter() - started

    cp_solver = cp_model.CpSolver()
    cp_solver.parameters.num_workers = args.workers
    cp_solver.parameters.random_seed = 0
    cp_solver.parameters.max_time_in_seconds = args.direct_time_limit
    # The log goes to a list, only to tell whether presolve finished.
    log: list[str] = []
    cp_solver.parameters.log_search_progress = True
    cp_solver.parameters.log_to_stdout = False
    cp_solver.log_callback = log.append
    started = time.perf_counter()
    status = cp_solver.solve(model)
    solve = time.perf_counter() - started
    stopped_in_presolve = any("Stopped after presolve" in line for line in log) or not any(
        "Presolved optimization model" in line for line in log
    )

    value = bound = None
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        value = round(cp_solver.objective_value)
        bound = int(np.floor(cp_solver.best_objective_bound + 1e-6))
        solution = np.fromiter(cp_solver.response_proto.solution, dtype=np.int64)
        picked = np.flatnonzero(solution[: len(x)] > 0)
        packets: list[tuple[int, ...]] = [() for _ in range(n_positions)]
        for k in picked:
            packets[int(k) % n_positions] = tuple(int(c) for c in hands[int(k) // n_positions])
        what = f"seed {seed} {objective.value} vs {opponent_name}, direct model"
        try:
            arrangement = Arrangement(tuple(packets))
            arrangement.check(holding, rules)
            rescored = exact_value(arrangement.strengths(rules).tolist(), table)
            if rescored != value:
                failures.append(f"{what}: objective {value} but the solution is worth {rescored}")
        except solver.ArrangementError as error:
            failures.append(f"{what}: the solution is not an arrangement ({error})")
    return DirectRun(
        seed=seed,
        objective=objective.value,
        opponent=opponent_name,
        build=build,
        solve=solve,
        cpsat_wall=float(cp_solver.wall_time),
        status=cp_solver.status_name(status),
        objective_value=value,
        bound=bound,
        stopped_in_presolve=stopped_in_presolve,
        hint_value=hint_value,
    )


def check_direct(direct: DirectRun, ours: OurRun, failures: list[str]) -> None:
    """The direct model must not beat our proven optimum, nor bound below our value."""
    assert ours.exact is not None
    what = f"seed {direct.seed} {direct.objective} vs {direct.opponent}"
    beaten = direct.objective_value is not None and direct.objective_value > ours.exact
    if beaten and ours.optimal:
        failures.append(
            f"{what}: the direct model found {direct.objective_value}/{ours.total}, "
            f"above our proven optimum {ours.exact}/{ours.total}: a bug in ours"
        )
    if direct.bound is not None and direct.bound < ours.exact:
        failures.append(
            f"{what}: the direct model's bound {direct.bound}/{ours.total} is below our "
            f"value {ours.exact}/{ours.total}"
        )


# --------------------------------------------------------------------------- mixture


def mixture_opponent(seed: int, index: int, holding: tuple[int, ...], rules: Rules) -> Opponent:
    """200 random arrangements of ``holding`` with flat-Dirichlet probabilities."""
    rng = np.random.default_rng((seed, index))
    arrangements = random_arrangements(holding, MIXTURE_SIZE, rng, rules)
    probabilities = rng.dirichlet(np.ones(MIXTURE_SIZE))
    return Opponent.mixture(arrangements, probabilities, rules)


# --------------------------------------------------------------------------- main


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(
        description="Benchmark the quintet-solver CP-SAT best response against the direct "
        "(subset x position) model.",
    )
    parser.add_argument(
        "--deals", type=positive_int, default=50, help="seeded mirror deals (default 50)"
    )
    parser.add_argument(
        "--seed", type=non_negative_int, default=20_240_601, help="first seed (default 20240601)"
    )
    parser.add_argument(
        "--direct-deals",
        type=non_negative_int,
        default=3,
        help="deals for the direct model, the first of the set (default 3; 0 skips it)",
    )
    parser.add_argument(
        "--direct-time-limit",
        type=positive_float,
        default=10.0,
        help="CP-SAT time limit of the direct model, seconds (default 10)",
    )
    parser.add_argument(
        "--mixture-deals",
        type=non_negative_int,
        default=10,
        help="deals for the win objective against a 200-arrangement mixture (default 10; 0 "
        "skips it)",
    )
    parser.add_argument(
        "--workers", type=positive_int, default=2, help="CP-SAT workers (default 2)"
    )
    parser.add_argument(
        "--time-limit",
        type=positive_float,
        default=60.0,
        help="safety time limit of each of our solves, seconds (default 60)",
    )
    parser.add_argument(
        "--markdown", action="store_true", help="print GitHub markdown tables instead of plain text"
    )
    return parser.parse_args(argv)


def _progress(label: str, count: int, total: int, started: float) -> None:
    if count == total or count % 10 == 0:
        log(f"{label}: {count}/{total} deals, {time.perf_counter() - started:.0f} s")


def table_ours(runs: list[OurRun], args: argparse.Namespace) -> tuple[Table, Table]:
    """Table 1 (figures) and 1b (targets)."""
    figures = Table(
        f"1. Our model, points and margin: {args.deals} mirror deals "
        f"(seeds {args.seed}..{args.seed + args.deals - 1}), {args.workers} workers",
        ["objective", "opponent", *SUMMARY_HEADERS],
        "ll" + "r" * len(SUMMARY_HEADERS),
    )
    targets = Table(
        "1b. Targets (points and margin)",
        ["objective", "opponent", "target", "measured", "met"],
        "lllrl",
    )
    for objective in OBJECTIVES:
        for opponent in OPPONENTS:
            group = [r for r in runs if r.objective == objective.value and r.opponent == opponent]
            figures.rows.append(summary_row([objective.value, opponent], group))
            walls = [r.wall for r in group]
            optimal = sum(r.optimal for r in group)
            median, p95 = statistics.median(walls), percentile_95(walls)
            for target, measured, ok in (
                ("every deal proven optimal", f"{optimal}/{len(group)}", optimal == len(group)),
                (
                    f"median wall <= {MEDIAN_TARGET_S} s",
                    format_seconds(median),
                    median <= MEDIAN_TARGET_S,
                ),
                (f"p95 wall <= {P95_TARGET_S} s", format_seconds(p95), p95 <= P95_TARGET_S),
            ):
                targets.rows.append([objective.value, opponent, target, measured, met(ok)])
    figures.notes = [
        "seconds: result.seconds (model building and solving, inside best_response); "
        "wall: the whole call (also the exact rescoring and position statistics).",
        "p95: numpy.percentile(..., 95), linear interpolation.",
        "value: expected points (points) or expected points minus points conceded "
        "(margin), out of 25.",
        "random: Opponent.random (uniformly random arrangement of the same 25 cards); "
        "greedy: Opponent.known(greedy_arrangement(...)).",
        f"Each solve has a safety limit of {args.time_limit:g} s (--time-limit).",
    ]
    targets.notes = ["Targets are judged on the wall time, which includes result.seconds."]
    return figures, targets


def table_slowest(runs: list[OurRun], count: int = 8) -> Table:
    """The slowest calls of table 1, with the CP-SAT solves they made."""
    table = Table(
        f"1c. The {count} slowest calls of table 1",
        [
            "seed",
            "objective",
            "opponent",
            "wall",
            "CP-SAT solves",
            "in CP-SAT",
            "booleans / unpruned, per model (time each)",
            "value",
        ],
        "rllrrrll",
    )
    for run in sorted(runs, key=lambda r: -r.wall)[:count]:
        models = ", ".join(f"{s.booleans:,}/{s.full:,} ({s.seconds:.2f} s)" for s in run.solves[:6])
        if len(run.solves) > 6:
            models += f", ... ({len(run.solves) - 6} more)"
        table.rows.append(
            [
                str(run.seed),
                run.objective,
                run.opponent,
                format_seconds(run.wall),
                str(len(run.solves)),
                format_seconds(sum(s.seconds for s in run.solves)),
                models,
                f"{run.result.value:.4f}",
            ]
        )
    table.notes = [
        "CP-SAT solves: calls of ArrangementModel.solve (each after a model build). Against "
        "a random opponent each successive model keeps more (option, position) pairs (the "
        "pruning slack grows fourfold) until its optimum reaches the floor; against a known "
        "arrangement each solve checks one win/tie/loss pattern.",
        "booleans / unpruned: the model's (option, position) pairs over all of them; equal "
        "numbers mean the model was not pruned at all.",
    ]
    return table


def table_direct(
    direct: list[DirectRun], ours: dict[tuple[int, str, str], OurRun], args: argparse.Namespace
) -> tuple[Table, Table]:
    """Table 2 (summary per objective and opponent) and 2b (every run)."""
    seeds = sorted({d.seed for d in direct})
    summary = Table(
        f"2. Direct model (265,650 booleans) vs ours, same {len(seeds)} deals "
        f"(seeds {seeds[0]}..{seeds[-1]}), CP-SAT limit {args.direct_time_limit:g} s, "
        f"{args.workers} workers",
        [
            "objective",
            "opponent",
            "runs",
            "status counts",
            "median build",
            "median solve",
            "p95 solve",
            "median total",
            "proven optimal",
            "mean value",
            "ours: median wall",
            "ours: p95 wall",
            "ours: proven optimal",
            "ours: mean value",
        ],
        "llrlrrrrrrrrrr",
    )
    detail = Table(
        "2b. Direct model, every run",
        [
            "seed",
            "objective",
            "opponent",
            "build",
            "solve",
            "status",
            "stopped in presolve",
            "direct value",
            "direct bound",
            "greedy hint",
            "our optimum",
            "ours - direct",
            "our wall",
        ],
        "rllrrllrrrrrr",
    )
    for objective in OBJECTIVES:
        for opponent in OPPONENTS:
            group = [d for d in direct if d.objective == objective.value and d.opponent == opponent]
            if not group:
                continue
            mine = [ours[(d.seed, d.objective, d.opponent)] for d in group]
            counts: dict[str, int] = {}
            for d in group:
                counts[d.status] = counts.get(d.status, 0) + 1
            found = [d.objective_value for d in group if d.objective_value is not None]
            total = mine[0].total
            summary.rows.append(
                [
                    objective.value,
                    opponent,
                    str(len(group)),
                    ", ".join(f"{name} {n}" for name, n in sorted(counts.items())),
                    format_seconds(statistics.median(d.build for d in group)),
                    format_seconds(statistics.median(d.solve for d in group)),
                    format_seconds(percentile_95([d.solve for d in group])),
                    format_seconds(statistics.median(d.build + d.solve for d in group)),
                    _pct(sum(d.status == "OPTIMAL" for d in group) / len(group)),
                    (
                        f"{statistics.fmean(v / total for v in found):.4f}"
                        + ("" if len(found) == len(group) else f" ({len(found)} runs)")
                        if found
                        else "none found"
                    ),
                    format_seconds(statistics.median(r.wall for r in mine)),
                    format_seconds(percentile_95([r.wall for r in mine])),
                    _pct(sum(r.optimal for r in mine) / len(mine)),
                    f"{statistics.fmean(r.result.value for r in mine):.4f}",
                ]
            )
            for d, r in zip(group, mine, strict=True):
                detail.rows.append(
                    [
                        str(d.seed),
                        d.objective,
                        d.opponent,
                        format_seconds(d.build),
                        format_seconds(d.solve),
                        d.status,
                        "yes" if d.stopped_in_presolve else "no",
                        "-" if d.objective_value is None else f"{d.objective_value / total:.4f}",
                        "-" if d.bound is None else f"{d.bound / total:.4f}",
                        f"{d.hint_value / total:.4f}",
                        f"{r.result.value:.4f}" + ("" if r.optimal else " (not proven)"),
                        (
                            "-"
                            if d.objective_value is None
                            else f"{(r.exact - d.objective_value) / total:.4f}"  # type: ignore[operator]
                        ),
                        format_seconds(r.wall),
                    ]
                )
    summary.notes = [
        "build: numpy data (strength of the 53,130 subsets, coefficients), 265,650 "
        "variables, 30 exactly-one constraints, objective, complete greedy hint; "
        "solve: CpSolver.solve wall time (CP-SAT default parameters, time limit "
        f"{args.direct_time_limit:g} s, random_seed 0).",
        "mean value: over the runs that returned a solution; status UNKNOWN means no "
        "solution at the time limit (the greedy hint is only a hint: CP-SAT loads it as a "
        "solution after presolve).",
        "ours: the table 1 results on the same deals (their wall times include building "
        "our model).",
        "Checked: a direct solution is a valid arrangement worth exactly its objective, "
        "never above our proven optimum, and its bound is never below our value "
        "(exit status 1 otherwise).",
        "A solve time above the limit means CP-SAT overran it, in presolve when the run "
        "stopped there (the machine may also be loaded: see the load average).",
    ]
    detail.notes = [
        "Values in points out of 25 (exact integers / opponent total); ours - direct: "
        "how much the direct model's best solution is below our optimum.",
        "stopped in presolve: the CP-SAT log shows the time limit hit before the search started.",
    ]
    return summary, detail


def table_mixture(runs: list[OurRun], args: argparse.Namespace) -> tuple[Table, Table]:
    """Table 3 (summary) and 3b (every deal)."""
    seconds = [r.result.seconds for r in runs]
    walls = [r.wall for r in runs]
    median_wall = statistics.median(walls)
    summary = Table(
        f"3. Win against a {MIXTURE_SIZE}-arrangement mixture: {len(runs)} deals "
        f"(seeds {runs[0].seed}..{runs[-1].seed}), {args.workers} workers",
        [
            "objective",
            "opponent",
            *SUMMARY_HEADERS,
            f"target median wall <= {WIN_MEDIAN_TARGET_S:g} s",
        ],
        "ll" + "r" * len(SUMMARY_HEADERS) + "l",
    )
    summary.rows.append(
        [
            *summary_row(["win", "mixture"], runs),
            f"{met(median_wall <= WIN_MEDIAN_TARGET_S)} ({format_seconds(median_wall)})",
        ]
    )
    detail = Table(
        "3b. Win against the mixture, every deal",
        ["seed", "seconds", "wall", "status", "value", "bound", "CP-SAT solves", "booleans"],
        "rrrlrrrr",
    )
    for r in runs:
        detail.rows.append(
            [
                str(r.seed),
                format_seconds(r.result.seconds),
                format_seconds(r.wall),
                r.result.status.value,
                f"{r.result.value:.6f}",
                f"{r.result.bound:.6f}",
                str(len(r.solves)),
                ", ".join(f"{s.booleans:,}" for s in r.solves),
            ]
        )
    summary.notes = [
        f"Opponent: Opponent.mixture of {MIXTURE_SIZE} uniformly random arrangements of its "
        "holding, probabilities from a flat Dirichlet; numpy.random.default_rng((seed, i)) "
        "for deal i.",
        "value: probability of scoring more points than the opponent, exact against the "
        "mixture; the bound is widened by the rounding of the probabilities to integer "
        f"weights (1e-6), so a proven optimum shows a gap of about 5e-5. p95 over "
        f"{len(seconds)} deals interpolates between the two slowest.",
    ]
    return summary, detail


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its tables.

    Parameters
    ----------
    argv
        Command-line arguments (``sys.argv[1:]`` when None).

    Returns
    -------
    int
        0, or 1 if an arrangement is invalid or misvalued, or the direct model
        beats our proven optimum (or bounds below our value).
    """
    args = parse_args(argv)
    started = time.perf_counter()
    rules = DEFAULT_RULES
    failures: list[str] = []
    tables = [machine_header(args)]

    log("warm-up (OR-Tools import, tables) on a deal outside the set")
    warm = deal(seed=args.seed + args.deals, rules=rules)
    for name in OPPONENTS:
        for objective in OBJECTIVES:
            best_response(
                warm.holdings[0],
                make_opponent(name, warm.holdings[1], rules),
                objective,
                workers=args.workers,
                time_limit=args.time_limit,
            )

    # 1. Our model on every deal.
    runs: list[OurRun] = []
    ours: dict[tuple[int, str, str], OurRun] = {}
    phase = time.perf_counter()
    for i in range(args.deals):
        seed = args.seed + i
        game = deal(seed=seed, rules=rules)
        for name in OPPONENTS:
            opponent = make_opponent(name, game.holdings[1], rules)
            for objective in OBJECTIVES:
                run = run_ours(seed, game.holdings[0], opponent, name, objective, args, failures)
                runs.append(run)
                ours[(seed, objective.value, name)] = run
        _progress("our model", i + 1, args.deals, phase)
    figures, targets = table_ours(runs, args)
    tables += [figures, targets, table_slowest(runs)]

    # 2. The direct model on the first deals.
    direct_runs: list[DirectRun] = []
    n_direct = min(args.direct_deals, args.deals)
    phase = time.perf_counter()
    for i in range(n_direct):
        seed = args.seed + i
        game = deal(seed=seed, rules=rules)
        for name in OPPONENTS:
            opponent = make_opponent(name, game.holdings[1], rules)
            for objective in OBJECTIVES:
                log(
                    f"direct model: seed {seed}, {objective.value} vs {name} "
                    f"({time.perf_counter() - phase:.0f} s so far)"
                )
                direct = run_direct(
                    seed, game.holdings[0], opponent, name, objective, args, failures
                )
                check_direct(direct, ours[(seed, objective.value, name)], failures)
                direct_runs.append(direct)
    if direct_runs:
        tables += list(table_direct(direct_runs, ours, args))

    # 3. Win against a mixture.
    mixture_runs: list[OurRun] = []
    phase = time.perf_counter()
    for i in range(args.mixture_deals):
        seed = args.seed + i
        game = deal(seed=seed, rules=rules)
        opponent = mixture_opponent(args.seed, i, game.holdings[1], rules)
        mixture_runs.append(
            run_ours(seed, game.holdings[0], opponent, "mixture", Objective.WIN, args, failures)
        )
        _progress("win vs mixture", i + 1, args.mixture_deals, phase)
    if mixture_runs:
        tables += list(table_mixture(mixture_runs, args))

    print("\n\n".join(table.render(args.markdown) for table in tables))
    print()
    print(
        f"Total benchmark time: {time.perf_counter() - started:.1f} s; "
        f"load average at the end: {load_average()}"
    )
    if failures:
        for failure in failures:
            print(f"FAIL: {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
