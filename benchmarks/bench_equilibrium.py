"""Benchmark of the strategy frontier and the equilibrium solver.

Run from the repository root::

    python benchmarks/bench_equilibrium.py [--mirror-deals N] [--independent-deals M]
        [--seed S] [--time-limit T] [--workers W] [--markdown]

It prints plain-text tables, or GitHub markdown with ``--markdown``.  Times
are quoted as medians and 95th percentiles (``numpy.percentile``, linear
interpolation); the maximum is given next to them for context.  Progress goes
to stderr; stdout holds only the tables.

The deals
---------
``N`` (default 20) seeded mirror deals, ``deal(seed=S + i)`` (both players hold
the same 25 cards), and ``M`` (default 10) seeded independent deals,
``deal(seed=S + 1000 + i, Rules(discard_mode="independent"))`` (the offset
keeps the dealer's cards from repeating a mirror deal's).  Default rules
otherwise.

Each deal runs in a worker process (spawned once, restarted only after it is
killed, see 3), which first warms up untimed on a deal outside the set
(numpy's and the evaluator's tables, OR-Tools' CP-SAT and GLOP, the code
paths), then sends every measurement back as it is made.

What is measured
----------------
1. **Frontier** (:func:`solver.response.frontier.frontier`), per holding (one per
   mirror deal, two per independent deal): its size (non-dominated profiles,
   and strategies = distinct orderings of them, ``Frontier.strategies()``)
   and its wall and process CPU time,

   * *cold*, in the worker: the process-wide store of rank-state frontiers
     is emptied (``solver.response.rank_frontier._store.cache_clear()`` and
     ``solver.response.frontier_response.cached_frontier.cache_clear()``) before each
     holding, so the time includes every rank state the holding needs;
   * *warm*, in the main process after all deals: one sequence per mode over
     the deals in order, the store emptied only at the start of the
     sequence, so each holding finds the store as the earlier deals left it
     (the realistic setting of a process that plays deal after deal; the
     first deal of each sequence is cold as well).

   ``Frontier.strategies()`` (every ordering of every profile, what the best
   response and the equilibrium enumerate) is timed apart.  Target: median
   frontier time <= 1 s per holding, cold and warm.

2. **Best response**, objective margin, player 0 against player 1's holding,
   two opponents: ``Opponent.random`` and the greedy arrangement
   (``Opponent.known(greedy_arrangement(...))``).  Over the frontier
   (:func:`solver.response.frontier_response.frontier_best_response`): one untimed call
   computes and caches the frontier, the second call is timed, so the time
   excludes the frontier.  Against CP-SAT
   (:func:`solver.response.best_response.best_response`, ``--workers`` workers,
   ``--time-limit`` as a safety limit) on the same deal.  Both values are
   exact; they must agree to 1e-9 and CP-SAT must prove its optimum, or the
   script exits with status 1.  Target: best response over the frontier
   <= 20 ms (median and p95).

3. **Equilibrium** (:mod:`solver.equilibria.equilibrium`), for each deal and payoff
   (margin, in points; win, 1 / 1/2 / 0): iterations, the restricted game
   (strategies per player = the LP's size) at the end and at its largest,
   the support of each equilibrium strategy (``len(result.row.arrangements)``
   and column), the certified gap ``upper - lower`` (payoff units), the time
   to the exact solution including the frontier (*total*) and excluding it.
   The frontiers of the deal's holdings are the cold ones of table 1 (an
   independent deal's two holdings each from an empty store, slightly
   pessimistic); each payoff is then solved on the cached frontiers, and
   ``total = cold frontier time + solve time``.  The solve is exactly
   :func:`solver.equilibria.equilibrium.solve` (``DoubleOracle`` iterated to the
   default tolerance 1e-9, then ``result()``), driven record by record so
   that a solve that raises or is killed keeps its history; its time
   includes building the strategy lists and everything else after the
   frontier.  The GLOP solves (``MatrixGameLP.solve``) and the best responses
   (``DoubleOracle._values_against``) are timed inside each solve (methods
   wrapped in memory, in the worker) to tell what a slow deal spends its time
   on.  Targets, per mode and payoff: every gap <= 1e-6, median total <= 5 s,
   p95 total <= 20 s.

   Each solve gets ``--time-limit`` seconds (default 120, frontier
   excluded); a deal that hits it shows as not converged.  The solver checks
   that limit between iterations only, and a GLOP solve has no limit of its
   own: a revision of the solver before the restricted games were pruned
   spun for minutes in one warm-started GLOP solve (mirror deal 20240614,
   win, a 461 x 461 game).  So a solve still running ``T + max(60, T / 2)``
   seconds after its start is killed with its worker process and shows as
   KILLED; a new worker goes on with the deal's remaining payoffs.

4. **Convergence** of the first mirror deal, margin: iteration, restricted
   strategies per player, the best certified lower and upper bounds so far,
   the gap and the elapsed seconds (frontier excluded), every 10th record and
   the last.

Exit status 1 when a frontier best response and CP-SAT disagree (or CP-SAT
does not prove its optimum), or when an equilibrium solve raises or is
killed; the targets are reported as met or not, never asserted.

With the defaults the run takes about three minutes on two cores, most of
it in the equilibria: the slowest, a mirror deal under the win payoff, takes
about 35 s.  Other processes
on the machine distort the wall times (the CPU columns less so): the load
average at the start and the end is printed.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import sys
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
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
import solver.response.frontier_response as frontier_response
import solver.response.rank_frontier as rank_frontier
from solver.equilibria.equilibrium import DoubleOracle, EquilibriumResult, IterationRecord, Payoff
from solver.equilibria.matrix_game import MatrixGameLP
from solver.game.deal import deal
from solver.game.rules import DiscardMode, Rules
from solver.models.heuristics import greedy_arrangement
from solver.models.opponents import Objective, Opponent
from solver.response.best_response import SolveStatus, best_response
from solver.response.frontier import Frontier, frontier
from solver.response.frontier_response import cached_frontier, frontier_best_response

REPO_ROOT = Path(__file__).resolve().parent.parent

INDEPENDENT_SEED_OFFSET = 1000
WARMUP_SEED_OFFSET = 100_000
FRONTIER_MEDIAN_TARGET_S = 1.0
RESPONSE_TARGET_S = 0.020
GAP_TARGET = 1e-6
EQUILIBRIUM_MEDIAN_TARGET_S = 5.0
EQUILIBRIUM_P95_TARGET_S = 20.0
TOLERANCE = 1e-9
AGREEMENT = 1e-9

MODES = ("mirror", "independent")
PAYOFFS = (Payoff.MARGIN, Payoff.WIN)
OPPONENTS = ("random", "greedy")


# --------------------------------------------------------------------------- output


def _ms(seconds: float) -> str:
    return f"{1000 * seconds:.1f} ms" if seconds < 10 else f"{seconds:.1f} s"


def _median(values: Sequence[float]) -> float:
    return float(np.median(np.asarray(values, dtype=np.float64)))


def _gap(value: float) -> str:
    return "inf" if not np.isfinite(value) else f"{value:.1e}"


# --------------------------------------------------------------------------- machine


def machine_header(args: argparse.Namespace) -> Table:
    """Date, machine, versions and run parameters, as a two-column table."""
    return machine_table(
        [
            ("numpy / ortools", f"{np.__version__} / {version('ortools')}"),
            ("quintet-solver", f"{solver.__version__}, git {git_revision()}"),
        ],
        f"mirror-deals={args.mirror_deals} independent-deals={args.independent_deals} "
        f"seed={args.seed} time-limit={args.time_limit:g} s workers={args.workers}",
    )


# --------------------------------------------------------------------------- deals


@dataclass(frozen=True)
class DealCase:
    """One benchmark deal."""

    mode: str
    index: int
    seed: int
    rules: Rules
    holdings: tuple[tuple[int, ...], tuple[int, ...]]

    @property
    def label(self) -> str:
        return f"{self.mode} {self.seed}"

    @property
    def distinct_holdings(self) -> list[tuple[int, tuple[int, ...]]]:
        """(player, holding) of each distinct holding: one in mirror mode, two otherwise."""
        if self.holdings[0] == self.holdings[1]:
            return [(0, self.holdings[0])]
        return [(0, self.holdings[0]), (1, self.holdings[1])]


def make_case(mode: str, index: int, seed: int) -> DealCase:
    """Deal ``seed`` in ``mode`` (``"mirror"`` or ``"independent"``)."""
    rules = Rules(discard_mode=DiscardMode(mode))
    return DealCase(mode, index, seed, rules, deal(seed=seed, rules=rules).holdings)


def make_cases(args: argparse.Namespace) -> list[DealCase]:
    """The mirror deals, then the independent ones."""
    return [
        make_case(mode, i, args.seed + offset + i)
        for mode, count, offset in (
            ("mirror", args.mirror_deals, 0),
            ("independent", args.independent_deals, INDEPENDENT_SEED_OFFSET),
        )
        for i in range(count)
    ]


def clear_store() -> None:
    """Empty the process-wide rank-state store and the frontier cache: a cold start."""
    rank_frontier._store.cache_clear()
    frontier_response.cached_frontier.cache_clear()


def store_size() -> tuple[int, int, int]:
    """(states, rows, bytes) of the rank-state store of the default ranking."""
    store = rank_frontier.rank_frontiers(Rules())
    states = rows = nbytes = 0
    for level in store.levels.values():
        states += int(level.keys.shape[0])
        rows += int(level.rows.shape[0])
        arrays = (level.keys, level.offsets, level.rows, level.choice, level.child)
        nbytes += sum(int(a.nbytes) for a in arrays)
    return states, rows, nbytes


def make_opponent(name: str, holding: tuple[int, ...], rules: Rules) -> Opponent:
    """The random or the greedy opponent on ``holding``."""
    if name == "random":
        return Opponent.random(holding, rules)
    return Opponent.known(greedy_arrangement(holding, rules), rules)


# --------------------------------------------------------------------------- 1. frontier


@dataclass(frozen=True)
class FrontierRun:
    """One frontier computation."""

    case: DealCase
    player: int
    profiles: int
    strategies: int
    seconds: float  # wall time of the call
    cpu: float  # process CPU time of the call
    strategies_seconds: float  # Frontier.strategies()


def measure_frontier(
    holding: tuple[int, ...], rules: Rules, compute: Callable[..., Frontier]
) -> dict[str, Any]:
    """Time ``compute(holding, rules)``; count the frontier's strategies (timed apart)."""
    started, cpu_started = time.perf_counter(), time.process_time()
    front = compute(holding, rules)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    strategies_started = time.perf_counter()
    n_strategies = int(front.strategies()[0].shape[0])
    return {
        "profiles": int(front.profiles.shape[0]),
        "strategies": n_strategies,
        "seconds": seconds,
        "cpu": cpu,
        "strategies_seconds": time.perf_counter() - strategies_started,
    }


def table_frontier(
    cold: list[FrontierRun], warm: list[FrontierRun], stores: dict[str, tuple[int, int, int]]
) -> tuple[Table, Table]:
    """Table 1 (summary per mode) and 1b (every holding)."""
    summary = Table(
        "1. Frontier per holding: size and time, cold (empty store) and warm (store left by "
        "the earlier deals)",
        [
            "mode",
            "holdings",
            "median profiles",
            "max profiles",
            "median strategies",
            "max strategies",
            "cold median",
            "cold p95",
            "cold max",
            "warm median",
            "warm p95",
            "warm max",
            "cold CPU median",
            "warm CPU median",
            "strategies() median",
            f"target median <= {FRONTIER_MEDIAN_TARGET_S:g} s (cold / warm)",
        ],
        "lrrrrrrrrrrrrrrl",
    )
    detail = Table(
        "1b. Frontier, every holding",
        [
            "mode",
            "seed",
            "player",
            "profiles",
            "strategies",
            "cold",
            "cold CPU",
            "warm",
            "warm CPU",
            "strategies()",
        ],
        "lrrrrrrrrr",
    )
    warm_of = {(r.case.seed, r.case.mode, r.player): r for r in warm}
    for mode in MODES:
        group = [r for r in cold if r.case.mode == mode]
        if not group:
            continue
        hot = [warm_of[(r.case.seed, r.case.mode, r.player)] for r in group]
        cold_s = [r.seconds for r in group]
        warm_s = [r.seconds for r in hot]
        profiles = [r.profiles for r in group]
        strategies = [r.strategies for r in group]
        cold_median, warm_median = _median(cold_s), _median(warm_s)
        summary.rows.append(
            [
                mode,
                str(len(group)),
                f"{_median(profiles):,.0f}",
                f"{max(profiles):,}",
                f"{_median(strategies):,.0f}",
                f"{max(strategies):,}",
                format_seconds(cold_median),
                format_seconds(percentile_95(cold_s)),
                format_seconds(max(cold_s)),
                format_seconds(warm_median),
                format_seconds(percentile_95(warm_s)),
                format_seconds(max(warm_s)),
                format_seconds(_median([r.cpu for r in group])),
                format_seconds(_median([r.cpu for r in hot])),
                format_seconds(_median([r.strategies_seconds for r in hot])),
                f"{met(cold_median <= FRONTIER_MEDIAN_TARGET_S)} / "
                f"{met(warm_median <= FRONTIER_MEDIAN_TARGET_S)}",
            ]
        )
        for r, h in zip(group, hot, strict=True):
            detail.rows.append(
                [
                    mode,
                    str(r.case.seed),
                    str(r.player),
                    f"{r.profiles:,}",
                    f"{r.strategies:,}",
                    format_seconds(r.seconds),
                    format_seconds(r.cpu),
                    format_seconds(h.seconds),
                    format_seconds(h.cpu),
                    format_seconds(h.strategies_seconds),
                ]
            )
    store_notes = ", ".join(
        f"{mode}: {states:,} states, {rows:,} rows, {nbytes / 2**20:.1f} MiB"
        for mode, (states, rows, nbytes) in stores.items()
    )
    summary.notes = [
        "profiles: non-dominated sorted strength profiles (Frontier.profiles); strategies: "
        "their distinct orderings (Frontier.strategies()), what best responses and "
        "equilibria enumerate.",
        "cold: wall time of frontier(holding, rules) right after emptying the rank-state "
        "store; warm: the same call in one sequence per mode over the deals in order, the "
        "store emptied only before the first deal (so that deal is cold in both columns).",
        "CPU: process CPU time of the same call (all threads), less distorted by other "
        "processes than the wall time; the targets are judged on the wall time.",
        "strategies(): wall time of Frontier.strategies() (every ordering, deduplicated), not "
        "part of the frontier time; the equilibrium solver calls it once per holding and solve.",
        f"Store at the end of each warm sequence: {store_notes}.",
        "Independent deals: two holdings each, one row per holding.",
    ]
    return summary, detail


# --------------------------------------------------------------------------- 2. best response


@dataclass(frozen=True)
class ResponseRun:
    """One deal and opponent: the frontier best response and CP-SAT's."""

    case: DealCase
    opponent: str
    strategies: int  # player 0's frontier strategies
    frontier_value: float
    frontier_wall: float
    frontier_cpu: float
    cpsat_value: float
    cpsat_status: str
    cpsat_wall: float

    @property
    def difference(self) -> float:
        return self.frontier_value - self.cpsat_value


def measure_response(case: DealCase, name: str, time_limit: float, workers: int) -> dict[str, Any]:
    """Player 0's margin best response to player 1, over the frontier and by CP-SAT."""
    opponent = make_opponent(name, case.holdings[1], case.rules)
    mine = case.holdings[0]
    frontier_best_response(mine, opponent, Objective.MARGIN)  # computes and caches the frontier
    started, cpu_started = time.perf_counter(), time.process_time()
    over_frontier = frontier_best_response(mine, opponent, Objective.MARGIN)
    frontier_wall = time.perf_counter() - started
    frontier_cpu = time.process_time() - cpu_started
    started = time.perf_counter()
    cpsat = best_response(mine, opponent, Objective.MARGIN, time_limit=time_limit, workers=workers)
    cpsat_wall = time.perf_counter() - started
    return {
        "opponent": name,
        "frontier_value": over_frontier.value,
        "frontier_wall": frontier_wall,
        "frontier_cpu": frontier_cpu,
        "cpsat_value": cpsat.value,
        "cpsat_status": cpsat.status.value,
        "cpsat_wall": cpsat_wall,
    }


def check_response(run: ResponseRun, args: argparse.Namespace, failures: list[str]) -> None:
    """The two values must agree, and CP-SAT must have proven its optimum."""
    what = f"{run.case.label} margin vs {run.opponent}"
    if run.cpsat_status != SolveStatus.OPTIMAL.value:
        failures.append(f"{what}: CP-SAT did not prove its optimum within {args.time_limit:g} s")
    if not abs(run.difference) < AGREEMENT:
        failures.append(
            f"{what}: frontier value {run.frontier_value!r} != CP-SAT value {run.cpsat_value!r}"
        )


def table_response(runs: list[ResponseRun]) -> tuple[Table, Table]:
    """Table 2 (summary per mode and opponent) and 2b (every deal)."""
    summary = Table(
        "2. Best response, margin: over the frontier (frontier already computed) vs CP-SAT",
        [
            "mode",
            "opponent",
            "deals",
            "frontier median",
            "frontier p95",
            "frontier max",
            "frontier CPU median",
            "CP-SAT median",
            "CP-SAT p95",
            "CP-SAT max",
            "median speed-up",
            "max |difference|",
            "agree",
            f"target <= {RESPONSE_TARGET_S * 1000:g} ms (median / p95)",
        ],
        "llrrrrrrrrrrll",
    )
    detail = Table(
        "2b. Best response, every deal",
        [
            "mode",
            "seed",
            "opponent",
            "strategies",
            "frontier",
            "CP-SAT",
            "CP-SAT status",
            "value",
            "difference",
        ],
        "lrlrrrlrr",
    )
    for mode in MODES:
        for name in OPPONENTS:
            group = [r for r in runs if r.case.mode == mode and r.opponent == name]
            if not group:
                continue
            fronts = [r.frontier_wall for r in group]
            cpsats = [r.cpsat_wall for r in group]
            worst = max(abs(r.difference) for r in group)
            agree = sum(abs(r.difference) < AGREEMENT for r in group)
            median, p95 = _median(fronts), percentile_95(fronts)
            summary.rows.append(
                [
                    mode,
                    name,
                    str(len(group)),
                    _ms(median),
                    _ms(p95),
                    _ms(max(fronts)),
                    _ms(_median([r.frontier_cpu for r in group])),
                    _ms(_median(cpsats)),
                    _ms(percentile_95(cpsats)),
                    _ms(max(cpsats)),
                    f"{_median([c / f for c, f in zip(cpsats, fronts, strict=True)]):.0f}x",
                    f"{worst:.1e}",
                    f"{agree}/{len(group)}",
                    f"{met(median <= RESPONSE_TARGET_S)} / {met(p95 <= RESPONSE_TARGET_S)}",
                ]
            )
            for r in group:
                detail.rows.append(
                    [
                        mode,
                        str(r.case.seed),
                        name,
                        f"{r.strategies:,}",
                        _ms(r.frontier_wall),
                        _ms(r.cpsat_wall),
                        r.cpsat_status,
                        f"{r.frontier_value:.6f}",
                        f"{r.difference:.1e}",
                    ]
                )
    summary.notes = [
        "Player 0 against player 1's holding; objective margin (expected points scored minus "
        "conceded, out of 25). random: Opponent.random; greedy: "
        "Opponent.known(greedy_arrangement(player 1's holding)).",
        "frontier: wall time of frontier_best_response with its frontier cached (one untimed "
        "call first), i.e. the evaluation of every frontier strategy plus rebuilding the "
        "arrangement; CP-SAT: wall time of best_response (model building included).",
        f"Both values are exact; they must agree to {AGREEMENT:g} and CP-SAT must prove its "
        "optimum, or the script exits with status 1.",
    ]
    return summary, detail


# --------------------------------------------------------------------------- 3. equilibrium


@dataclass
class Timers:
    """Seconds spent in the GLOP solves and the best responses of one solve."""

    lp_seconds: float = 0.0
    lp_calls: int = 0
    response_seconds: float = 0.0


@contextlib.contextmanager
def timing_internals(timers: Timers) -> Iterator[None]:
    """Time ``MatrixGameLP.solve`` and ``DoubleOracle._values_against`` inside the block.

    The methods are wrapped on their classes (in memory only) and restored on exit.
    """
    original_lp = MatrixGameLP.solve
    original_values = getattr(DoubleOracle, "_values_against", None)

    def lp_solve(self: MatrixGameLP) -> Any:
        started = time.perf_counter()
        try:
            return original_lp(self)
        finally:
            timers.lp_seconds += time.perf_counter() - started
            timers.lp_calls += 1

    def values_against(self: DoubleOracle, *a: Any, **k: Any) -> Any:
        started = time.perf_counter()
        try:
            return original_values(self, *a, **k)  # type: ignore[misc]
        finally:
            timers.response_seconds += time.perf_counter() - started

    MatrixGameLP.solve = lp_solve  # type: ignore[method-assign]
    if original_values is not None:
        DoubleOracle._values_against = values_against  # type: ignore[method-assign]
    try:
        yield
    finally:
        MatrixGameLP.solve = original_lp  # type: ignore[method-assign]
        if original_values is not None:
            DoubleOracle._values_against = original_values  # type: ignore[method-assign]


@dataclass(frozen=True)
class EquilibriumRun:
    """One equilibrium solve, as the worker reported it (or as far as it got)."""

    case: DealCase
    payoff: Payoff
    frontier_seconds: float  # cold, the deal's holdings
    frontier_cpu: float
    solve_seconds: float  # wall, frontier excluded
    solve_cpu: float  # nan when the worker was killed
    history: tuple[IterationRecord, ...]
    error: str = ""
    killed: bool = False
    value: float | None = None
    final_gap: float | None = None  # result.gap; None without a result
    converged: bool = False
    support: tuple[int, int] | None = None
    frontier_sizes: tuple[int, int] | None = None
    lp_seconds: float = float("nan")
    lp_calls: int = 0
    response_seconds: float = float("nan")
    frontier_recomputed: bool = False

    @property
    def total_seconds(self) -> float:
        return self.frontier_seconds + self.solve_seconds

    @property
    def total_cpu(self) -> float:
        return self.frontier_cpu + self.solve_cpu

    @property
    def gap(self) -> float:
        if self.final_gap is not None:
            return self.final_gap
        if self.history:
            return max(0.0, self.history[-1].gap)
        return float("inf")

    @property
    def exact(self) -> bool:
        return self.converged and not self.error and not self.killed

    @property
    def iterations(self) -> int:
        return self.history[-1].iteration if self.history else 0

    @property
    def restricted(self) -> tuple[int, int]:
        """Restricted strategies per player at the last record (the LP's size)."""
        if not self.history:
            return 0, 0
        return self.history[-1].row_strategies, self.history[-1].column_strategies

    @property
    def largest(self) -> int:
        """The largest restricted set of any iteration (the solver drops unused strategies)."""
        return max((max(r.row_strategies, r.column_strategies) for r in self.history), default=0)


def measure_equilibrium(
    case: DealCase, payoff: Payoff, time_limit: float, send: Callable[[Any], None]
) -> dict[str, Any]:
    """``solve(holdings..., payoff)`` on the cached frontiers, sending each record.

    Exactly :func:`solver.equilibria.equilibrium.solve`, driven record by record so that
    a solve that raises (or is killed) keeps its history.
    """
    timers = Timers()
    result: EquilibriumResult | None = None
    history: list[IterationRecord] = []
    error = ""
    misses = cached_frontier.cache_info().misses
    started, cpu_started = time.perf_counter(), time.process_time()
    with timing_internals(timers):
        try:
            oracle = DoubleOracle(case.holdings[0], case.holdings[1], case.rules, payoff)
            for record in oracle.iterations(tolerance=TOLERANCE, time_limit=time_limit):
                history.append(record)
                send(("record", record))
            result = replace(oracle.result(TOLERANCE), history=tuple(history))
        except Exception as exc:  # reported, and the run goes on
            error = f"{type(exc).__name__}: {exc}"
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    return {
        "solve_seconds": seconds,
        "solve_cpu": cpu,
        "error": error,
        "value": None if result is None else result.value,
        "final_gap": None if result is None else result.gap,
        "converged": result is not None and result.converged,
        "support": (
            None
            if result is None
            else (len(result.row.arrangements), len(result.column.arrangements))
        ),
        "frontier_sizes": None if result is None else result.frontier_sizes,
        "lp_seconds": timers.lp_seconds,
        "lp_calls": timers.lp_calls,
        "response_seconds": timers.response_seconds,
        "frontier_recomputed": cached_frontier.cache_info().misses != misses,
    }


def _status(run: EquilibriumRun) -> str:
    if run.killed:
        return "KILLED"
    if run.error:
        return "ERROR"
    if run.converged:
        return "exact"
    return "not converged"


def table_equilibrium(runs: list[EquilibriumRun], args: argparse.Namespace) -> list[Table]:
    """Table 3 (summary), 3b (targets), 3c (every solve), 3d (failed solves)."""
    summary = Table(
        "3. Equilibrium by double oracle: per deal and payoff (total = cold frontier + solve)",
        [
            "mode",
            "payoff",
            "deals",
            "exact",
            "max gap",
            "median iterations",
            "max iterations",
            "median LP size (last / largest)",
            "median support (row / col)",
            "max support",
            "total median",
            "total p95",
            "total max",
            "excl. frontier median",
            "excl. frontier p95",
            "total CPU median",
            "total CPU p95",
        ],
        "llrrrrrrrrrrrrrrr",
    )
    targets = Table(
        "3b. Equilibrium targets (total time, frontier included)",
        ["mode", "payoff", "target", "measured", "met"],
        "lllrl",
    )
    detail = Table(
        "3c. Equilibrium, every solve",
        [
            "mode",
            "seed",
            "payoff",
            "strategies (row / col)",
            "status",
            "iterations",
            "LP size (last)",
            "largest LP",
            "support (row / col)",
            "gap",
            "value",
            "frontier",
            "solve",
            "total",
            "total CPU",
            "in GLOP (calls)",
            "in best responses",
        ],
        "lrlrlrrrrrrrrrrrr",
    )
    for mode in MODES:
        for payoff in PAYOFFS:
            group = [r for r in runs if r.case.mode == mode and r.payoff is payoff]
            if not group:
                continue
            totals = [r.total_seconds for r in group]
            solves = [r.solve_seconds for r in group]
            cpus = [r.total_cpu for r in group if np.isfinite(r.total_cpu)]
            gaps = [r.gap for r in group]
            supports = [r.support for r in group if r.support is not None]
            exact = sum(r.exact for r in group)
            median, p95 = _median(totals), percentile_95(totals)
            summary.rows.append(
                [
                    mode,
                    payoff.value,
                    str(len(group)),
                    f"{exact}/{len(group)}",
                    _gap(max(gaps)),
                    f"{_median([r.iterations for r in group]):.0f}",
                    str(max(r.iterations for r in group)),
                    f"{_median([max(r.restricted) for r in group]):.0f} / "
                    f"{_median([r.largest for r in group]):.0f}",
                    (
                        f"{_median([s[0] for s in supports]):.0f} / "
                        f"{_median([s[1] for s in supports]):.0f}"
                        if supports
                        else "-"
                    ),
                    str(max(max(s) for s in supports)) if supports else "-",
                    format_seconds(median),
                    format_seconds(p95),
                    format_seconds(max(totals)),
                    format_seconds(_median(solves)),
                    format_seconds(percentile_95(solves)),
                    format_seconds(_median(cpus)) if cpus else "-",
                    format_seconds(percentile_95(cpus)) if cpus else "-",
                ]
            )
            worst = max(gaps)
            for target, measured, ok in (
                (
                    f"every gap <= {GAP_TARGET:g}",
                    f"{sum(g <= GAP_TARGET for g in gaps)}/{len(gaps)} (max {_gap(worst)})",
                    worst <= GAP_TARGET,
                ),
                (
                    f"median <= {EQUILIBRIUM_MEDIAN_TARGET_S:g} s",
                    format_seconds(median),
                    median <= EQUILIBRIUM_MEDIAN_TARGET_S,
                ),
                (
                    f"p95 <= {EQUILIBRIUM_P95_TARGET_S:g} s",
                    format_seconds(p95),
                    p95 <= EQUILIBRIUM_P95_TARGET_S,
                ),
            ):
                targets.rows.append([mode, payoff.value, target, measured, met(ok)])
            for r in group:
                support = r.support
                sizes = r.frontier_sizes
                detail.rows.append(
                    [
                        mode,
                        str(r.case.seed),
                        payoff.value,
                        "?" if sizes is None else " / ".join(f"{n:,}" for n in sizes),
                        _status(r),
                        str(r.iterations),
                        " x ".join(str(n) for n in r.restricted),
                        str(r.largest),
                        "-" if support is None else f"{support[0]} / {support[1]}",
                        _gap(r.gap),
                        "-" if r.value is None else f"{r.value:.6f}",
                        format_seconds(r.frontier_seconds),
                        format_seconds(r.solve_seconds),
                        format_seconds(r.total_seconds),
                        format_seconds(r.total_cpu) if np.isfinite(r.total_cpu) else "-",
                        "-" if r.killed else f"{format_seconds(r.lp_seconds)} ({r.lp_calls})",
                        "-" if r.killed else format_seconds(r.response_seconds),
                    ]
                )
    summary.notes = [
        "gap: certified upper - lower bound on the game value when the solve stopped "
        "(payoff units: points out of 25 for margin, probability for win); exact: converged "
        f"to the tolerance {TOLERANCE:g} without error. A solve that raised or was killed "
        "shows the gap of its last iteration record.",
        "LP size: restricted strategies per player (the GLOP program has that many variables "
        "and constraints), at the last iteration and the largest of any iteration (the solver "
        "drops strategies unused lately, so the last can be smaller); support: arrangements "
        "with positive probability in the equilibrium strategies (len(result.row.arrangements), "
        "column).",
        "total: cold frontier time of the deal's holdings (table 1, cold; both holdings in "
        "independent mode) + the solve on the cached frontiers; excl. frontier: the solve "
        "alone (Frontier.strategies(), the LPs, the best responses, the mixtures); CPU: "
        "process CPU time of the same (all threads), less distorted by other processes.",
        f"Each solve has a time limit of {args.time_limit:g} s (--time-limit), counted without "
        "the frontier and checked between iterations; a solve that hits it shows as not "
        "converged. A solve still running "
        f"{format_seconds(hard_limit(args))} after its start (one iteration overran the limit: GLOP has "
        "none) is killed with its worker process and shows as KILLED.",
        "Mirror deals are symmetric games: value 0 (margin) or 1/2 (win), one strategy set, "
        "LP size row = column.",
        "p95 over few deals interpolates between the slowest ones.",
    ]
    targets.notes = [
        "Targets per mode and payoff; the times include the cold frontier. Solves that "
        "raised, hit the time limit or were killed count with the time they took."
    ]
    detail.notes = [
        "in GLOP: time in MatrixGameLP.solve (calls = iterations); in best responses: time "
        "in DoubleOracle._values_against (both players); the rest of the solve is building "
        "strategy lists, payoff columns (outcomes of every strategy against each new one), "
        "rebuilding the LP after dropping strategies, and the final mixtures.",
    ]
    tables = [summary, targets, detail]
    broken = [r for r in runs if r.error or r.killed or r.frontier_recomputed]
    if broken:
        errors = Table(
            "3d. Solves that raised, were killed, or recomputed a frontier",
            ["mode", "seed", "payoff", "after iterations", "LP size (last)", "what happened"],
            "lrlrrl",
        )
        for r in broken:
            message = r.error or "the solve computed a frontier: excl. frontier is wrong"
            errors.rows.append(
                [
                    r.case.mode,
                    str(r.case.seed),
                    r.payoff.value,
                    str(r.iterations),
                    " x ".join(str(n) for n in r.restricted),
                    message,
                ]
            )
        tables.append(errors)
    return tables


# --------------------------------------------------------------------------- 4. convergence


def table_convergence(run: EquilibriumRun, every: int = 10) -> Table:
    """Every ``every``-th iteration record of one solve, and the last."""
    table = Table(
        f"4. Convergence of {run.case.label}, {run.payoff.value} "
        f"({_status(run)}, {run.iterations} iterations)",
        ["iteration", "strategies (row / col)", "lower", "upper", "gap", "seconds"],
        "rrrrrr",
    )
    records = [r for r in run.history if r.iteration % every == 0]
    if run.history and (not records or records[-1].iteration != run.history[-1].iteration):
        records.append(run.history[-1])
    for record in records:
        table.rows.append(
            [
                str(record.iteration),
                f"{record.row_strategies} / {record.column_strategies}",
                f"{record.lower:+.9f}",
                f"{record.upper:+.9f}",
                _gap(record.gap),
                format_seconds(record.seconds),
            ]
        )
    unit = "points" if run.payoff is Payoff.MARGIN else "probability of winning"
    table.notes = [
        f"lower, upper: the best certified bounds on the game value so far ({unit}); "
        "strategies: restricted strategies per player when the iteration's LP was solved; "
        "seconds: since the start of the solve (frontier cached, so excluded).",
    ]
    if run.error:
        table.notes.append(f"The solve stopped after the last record: {run.error}")
    return table


# --------------------------------------------------------------------------- main


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(
        description="Benchmark the quintet-solver strategy frontier, the best response over "
        "it and the equilibrium solver.",
    )
    parser.add_argument(
        "--mirror-deals", type=non_negative_int, default=20, help="mirror deals (default 20)"
    )
    parser.add_argument(
        "--independent-deals",
        type=non_negative_int,
        default=10,
        help="independent deals (default 10)",
    )
    parser.add_argument(
        "--seed",
        type=non_negative_int,
        default=20_240_601,
        help="first seed (default 20240601); independent deals start at seed + 1000",
    )
    parser.add_argument(
        "--time-limit",
        type=positive_float,
        default=120.0,
        help="time limit of each equilibrium solve and CP-SAT best response, seconds (default 120)",
    )
    parser.add_argument(
        "--workers", type=positive_int, default=2, help="CP-SAT workers (default 2)"
    )
    parser.add_argument(
        "--markdown", action="store_true", help="print GitHub markdown tables instead of plain text"
    )
    args = parser.parse_args(argv)
    if args.mirror_deals + args.independent_deals == 0:
        parser.error("nothing to do: no mirror and no independent deals")
    return args


# --------------------------------------------------------------------------- worker process


def hard_limit(args: argparse.Namespace) -> float:
    """Seconds after which a solve still running is killed with its worker."""
    return args.time_limit + max(60.0, 0.5 * args.time_limit)


def step_limit(args: argparse.Namespace) -> float:
    """Seconds allowed for any other step of a deal (a frontier, two CP-SAT solves)."""
    return 2 * args.time_limit + 120.0


def warm_up(seed: int, workers: int) -> None:
    """Load the tables, OR-Tools and the code paths on a deal outside the set."""
    rules = Rules()
    game = deal(seed=seed, rules=rules)
    for name in OPPONENTS:
        opponent = make_opponent(name, game.holdings[1], rules)
        frontier_best_response(game.holdings[0], opponent, Objective.MARGIN)
        best_response(game.holdings[0], opponent, Objective.MARGIN, workers=workers)
    oracle = DoubleOracle(game.holdings[0], game.holdings[1], rules, Payoff.MARGIN)
    with contextlib.suppress(Exception):
        for _ in zip(range(3), oracle.iterations(time_limit=10), strict=False):
            pass
    clear_store()


def _worker_main(conn: Any, time_limit: float, workers: int, warmup_seed: int) -> None:
    """The worker process: runs deals on request, sends each measurement back.

    A task is ``(mode, index, seed, payoffs, with_responses)``; the worker
    sends ``("frontier", player, dict)`` per holding, ``("response", dict)``
    per opponent, then per payoff ``("start", payoff)``, ``("record",
    IterationRecord)`` per iteration and ``("equilibrium", dict)``, and
    finally ``("done",)``; ``("crash", traceback)`` before it if a step raised.
    """
    try:
        warm_up(warmup_seed, workers)
        conn.send(("ready",))
        while True:
            task = conn.recv()
            if task is None:
                return
            mode, index, seed, payoffs, with_responses = task
            try:
                case = make_case(mode, index, seed)
                for player, holding in case.distinct_holdings:
                    clear_store()
                    conn.send(
                        ("frontier", player, measure_frontier(holding, case.rules, cached_frontier))
                    )
                if with_responses:
                    for name in OPPONENTS:
                        conn.send(("response", measure_response(case, name, time_limit, workers)))
                for value in payoffs:
                    conn.send(("start", value))
                    measured = measure_equilibrium(case, Payoff(value), time_limit, conn.send)
                    conn.send(("equilibrium", measured))
            except Exception:
                conn.send(("crash", traceback.format_exc()))
            conn.send(("done",))
    except (EOFError, BrokenPipeError, KeyboardInterrupt):
        return


class Worker:
    """A worker process (spawned), restarted after it is killed."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.context = multiprocessing.get_context("spawn")
        self.process: Any = None
        self.conn: Any = None

    def ensure(self) -> None:
        """Start the worker if it is not running, and wait for its warm-up."""
        if self.process is not None:
            return
        parent, child = self.context.Pipe()
        self.process = self.context.Process(
            target=_worker_main,
            args=(
                child,
                self.args.time_limit,
                self.args.workers,
                self.args.seed + WARMUP_SEED_OFFSET,
            ),
            daemon=True,
        )
        self.process.start()
        child.close()
        self.conn = parent
        message = self.receive(step_limit(self.args))
        if message != ("ready",):
            self.kill()
            raise RuntimeError(f"the worker process did not start: {message!r}")

    def send(self, task: Any) -> None:
        self.conn.send(task)

    def receive(self, timeout: float) -> Any:
        """The next message, or None after ``timeout`` seconds or if the worker died."""
        try:
            if self.conn.poll(max(0.0, timeout)):
                return self.conn.recv()
        except (EOFError, OSError):
            pass
        return None

    def why_silent(self) -> str:
        if self.process is not None and not self.process.is_alive():
            return f"the worker died (exit code {self.process.exitcode})"
        return "no answer in time"

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.join()
            self.conn.close()
        self.process = self.conn = None

    def close(self) -> None:
        if self.process is None:
            return
        with contextlib.suppress(OSError):
            self.send(None)
        self.process.join(timeout=30)
        if self.process.is_alive():
            self.kill()
        self.process = self.conn = None


@dataclass
class Collected:
    """Everything measured on the deals."""

    cold: list[FrontierRun] = field(default_factory=list)
    responses: list[ResponseRun] = field(default_factory=list)
    equilibria: list[EquilibriumRun] = field(default_factory=list)


def run_case(
    case: DealCase,
    worker: Worker,
    args: argparse.Namespace,
    collected: Collected,
    failures: list[str],
) -> None:
    """One deal in the worker: cold frontiers, best responses, equilibria.

    A solve that overruns :func:`hard_limit` is killed with the worker; a new
    worker then goes on with the remaining payoffs (it recomputes the frontier,
    untimed: the deal's cold frontier time stays the first one).
    """
    pending = list(PAYOFFS)
    first = True
    cold: list[FrontierRun] = []
    while True:
        worker.ensure()
        worker.send((case.mode, case.index, case.seed, [p.value for p in pending], first))
        payoff: Payoff | None = None
        records: list[IterationRecord] = []
        started = deadline = time.perf_counter()
        deadline += step_limit(args)
        while True:
            message = worker.receive(deadline - time.perf_counter())
            now = time.perf_counter()
            if message is None:
                reason = worker.why_silent()
                worker.kill()
                if payoff is None:
                    failures.append(f"{case.label}: {reason} outside an equilibrium solve")
                    return
                failures.append(
                    f"{case.label} {payoff.value}: killed after {now - started:.0f} s ({reason})"
                )
                collected.equilibria.append(
                    EquilibriumRun(
                        case=case,
                        payoff=payoff,
                        frontier_seconds=sum(r.seconds for r in cold),
                        frontier_cpu=sum(r.cpu for r in cold),
                        solve_seconds=now - started,
                        solve_cpu=float("nan"),
                        history=tuple(records),
                        error=f"killed after {now - started:.0f} s: {reason}",
                        killed=True,
                        frontier_sizes=_sizes(cold),
                    )
                )
                log(f"{case.label} {payoff.value}: KILLED after {now - started:.0f} s")
                pending.remove(payoff)
                break
            kind = message[0]
            if kind == "frontier":
                if first:
                    _, player, measured = message
                    run = FrontierRun(case=case, player=player, **measured)
                    cold.append(run)
                    collected.cold.append(run)
                deadline = now + step_limit(args)
            elif kind == "response":
                response = ResponseRun(case=case, strategies=cold[0].strategies, **message[1])
                check_response(response, args, failures)
                collected.responses.append(response)
                deadline = now + step_limit(args)
            elif kind == "start":
                payoff, records, started = Payoff(message[1]), [], now
                deadline = now + hard_limit(args)
            elif kind == "record":
                records.append(message[1])
            elif kind == "equilibrium":
                assert payoff is not None
                measured = dict(message[1])
                measured["frontier_sizes"] = _sizes(cold)
                eq = EquilibriumRun(
                    case=case,
                    payoff=payoff,
                    frontier_seconds=sum(r.seconds for r in cold),
                    frontier_cpu=sum(r.cpu for r in cold),
                    history=tuple(records),
                    **measured,
                )
                if eq.error:
                    failures.append(f"{case.label} {payoff.value}: the solve raised {eq.error}")
                collected.equilibria.append(eq)
                log(
                    f"{case.label} {payoff.value}: {_status(eq)}, {eq.iterations} iterations, "
                    f"LP {max(eq.restricted)} (largest {eq.largest}), gap {_gap(eq.gap)}, "
                    f"total {eq.total_seconds:.1f} s"
                )
                pending.remove(payoff)
                payoff = None
                deadline = now + step_limit(args)
            elif kind == "crash":
                failures.append(f"{case.label}: the worker raised\n{message[1]}")
                pending = []
            elif kind == "done":
                return
        if not pending:
            return
        first = False


def _sizes(cold: list[FrontierRun]) -> tuple[int, int] | None:
    """Frontier strategies of player 0 and player 1 (one holding: the same)."""
    if not cold:
        return None
    return cold[0].strategies, cold[-1].strategies


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its tables.

    Parameters
    ----------
    argv
        Command-line arguments (``sys.argv[1:]`` when None).

    Returns
    -------
    int
        0, or 1 if a frontier best response disagrees with CP-SAT (or CP-SAT does
        not prove its optimum), or an equilibrium solve raises or is killed.
    """
    args = parse_args(argv)
    started = time.perf_counter()
    failures: list[str] = []
    tables = [machine_header(args)]
    cases = make_cases(args)

    # Per deal, in a worker process: cold frontiers, best responses, equilibria.
    log("starting the worker (warm-up on a deal outside the set)")
    worker = Worker(args)
    collected = Collected()
    phase = time.perf_counter()
    try:
        for number, case in enumerate(cases, start=1):
            run_case(case, worker, args, collected, failures)
            log(f"deal {number}/{len(cases)} done, {time.perf_counter() - phase:.0f} s so far")
    finally:
        worker.close()

    # Warm frontiers, in this process: one sequence per mode, the store emptied at its start.
    log("warm frontier pass")
    warm_up_frontier = deal(seed=args.seed + WARMUP_SEED_OFFSET).holdings[0]
    frontier(warm_up_frontier, Rules())  # the evaluator's tables, untimed
    warm: list[FrontierRun] = []
    stores: dict[str, tuple[int, int, int]] = {}
    for mode in MODES:
        group = [case for case in cases if case.mode == mode]
        if not group:
            continue
        clear_store()
        for case in group:
            for player, holding in case.distinct_holdings:
                measured = measure_frontier(holding, case.rules, frontier)
                warm.append(FrontierRun(case=case, player=player, **measured))
        stores[mode] = store_size()

    tables += list(table_frontier(collected.cold, warm, stores))
    if collected.responses:
        tables += list(table_response(collected.responses))
    if collected.equilibria:
        tables += table_equilibrium(collected.equilibria, args)
        first = next(
            (
                r
                for r in collected.equilibria
                if r.case.mode == "mirror" and r.payoff is Payoff.MARGIN
            ),
            collected.equilibria[0],
        )
        tables.append(table_convergence(first))

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
