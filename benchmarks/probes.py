"""What the suite measures in a fresh process, with whichever ``solver`` is first on the path.

Run by the harness as ``python benchmarks/probes.py NAME JSON-ARGUMENTS``; each probe
prints JSON lines, the last one its measurement.  It imports nothing of the suite, and of
``solver`` only public names an older checkout has too (``--baseline``).
"""

from __future__ import annotations

import inspect
import itertools
import json
import sqlite3
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path
from typing import Any

WARM_SEED = 999_999  # a deal of the ace-low rules: code and tables warm, nothing of the deal


def emit(**fields: Any) -> None:
    print(json.dumps(fields), flush=True)


def timed(call: Any) -> tuple[float, float, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = call()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def cold() -> None:
    """Import, the first hand tables and evaluations of a fresh interpreter, step by step."""
    t = [time.perf_counter()]
    import solver

    solver.hand_table  # noqa: B018  (the package loads its modules on first use)
    t.append(time.perf_counter())
    solver.hand_table()
    t.append(time.perf_counter())
    solver.strength([28, 24, 20, 16, 12])
    t.append(time.perf_counter())
    solver.hand_table(solver.Rules(ace_low_straight=True))
    t.append(time.perf_counter())
    solver.hand_table()
    t.append(time.perf_counter())
    emit(steps=[b - a for a, b in itertools.pairwise(t)])


def solve(mode: str, seed: int, payoff: str, variant: str, time_limit: float) -> None:
    """The cold frontier of each holding, then the equilibrium (frontiers cached), timed.

    ``variant``: ``plain`` the double oracle's solve (``canonical=False`` where the
    checkout has the canonical selection), ``canonical`` the default solve, ``glop``
    the plain solve with GLOP from scratch instead of the warm simplex.
    """
    from solver import Rules, cached_frontier, deal, solve_equilibrium

    known = inspect.signature(solve_equilibrium).parameters
    options: dict[str, Any] = {"time_limit": time_limit, "tolerance": 1e-9}
    options |= {"canonical": False} if variant != "canonical" and "canonical" in known else {}
    options |= {"warm_simplex": False} if variant == "glop" else {}
    warm = deal(seed=WARM_SEED, rules=Rules(ace_low_straight=True))
    solve_equilibrium(*warm.holdings, warm.rules, payoff, **options)
    rules = Rules(discard_mode=mode)
    holdings = deal(seed=seed, rules=rules).holdings
    frontiers = []
    for holding in dict.fromkeys(tuple(sorted(h)) for h in holdings):  # mirror: one holding
        wall, cpu, found = timed(lambda h=holding: cached_frontier(h, rules))
        frontiers.append({"wall": wall, "cpu": cpu, "strategies": len(found.strategies()[0])})
    wall, cpu, result = timed(lambda: solve_equilibrium(*holdings, rules, payoff, **options))
    support = len(result.row.arrangements) + len(result.column.arrangements)
    emit(frontiers=frontiers, wall=wall, cpu=cpu, gap=result.gap, value=result.value,
         iterations=result.iterations, support=support / 2)  # fmt: skip


def book(path: str, payoffs: list[str], deals: int, seed: int, lookups: int) -> None:
    """Build a book of seeded mirror deals (one worker, one BLAS thread), then time lookups of
    relabelled stored deals: the whole answer with the deal's frontiers cold and cached (the
    stored row is certified again on them), and the bare SQLite read."""
    import numpy as np
    from threadpoolctl import threadpool_limits

    from solver import Book, Rules, build_book, cached_frontier, solve_with_book
    from solver.book.canonical import canonical_key, holding_of, relabel

    rules = Rules()
    with threadpool_limits(limits=1), tempfile.TemporaryDirectory() as folder:
        build_book(Path(folder) / "warm.sqlite", rules, payoffs, deals=1, seed=WARM_SEED)
        wall, cpu, _ = timed(lambda: build_book(path, rules, payoffs, deals=deals, seed=seed))
    with closing(sqlite3.connect(path)) as connection:  # the log folded in, free pages dropped
        connection.execute("VACUUM")
    rng, times = np.random.default_rng(seed), {"cold": [], "cached": [], "read": []}
    with Book(path) as stored:
        rows = stored.count() // len(payoffs)
        blobs = sum(len(v) for p in payoffs for r in stored.rows(rules, p) for v in r
                    if type(v) is bytes)  # fmt: skip
        keys = [tuple(k) for k in stored.keys(rules, payoffs[0]).tolist()]
        for _ in range(lookups):
            holding = relabel(
                holding_of(keys[int(rng.integers(len(keys)))][0]), int(rng.integers(24))
            )
            cached_frontier.cache_clear()
            for kind in ("cold", "cached"):
                ask = lambda x=holding: solve_with_book(x, x, payoffs[0], rules, stored)  # noqa: E731
                took, _, answer = timed(ask)
                assert answer.from_book
                times[kind].append(took)
            key = canonical_key((holding, holding))[0]
            times["read"].append(timed(lambda k=key: stored.get(k, rules, payoffs[0]))[0])
    emit(wall=wall, cpu=cpu, rows=rows, file=Path(path).stat().st_size / rows, blobs=blobs / rows,
         **{k: float(np.median(v)) for k, v in times.items()})  # fmt: skip


def grade(seed: int) -> None:
    """Grade the greedy arrangement of deal ``seed`` twice in one process: solved, then known."""
    from solver import deal, greedy_arrangement
    from solver import grade as grading

    mine, theirs = deal(seed).holdings
    arrangement = greedy_arrangement(mine)
    first = timed(lambda: grading(arrangement, theirs))
    second = timed(lambda: grading(arrangement, theirs))
    emit(solved=first[0], known=second[0], loss=second[2].equilibrium_loss)


class HighsGame:
    """The row player's program (``x`` and ``v``) loaded once in HiGHS: a new row strategy
    is a new variable, a new column strategy a new constraint, a restriction deletes both;
    HiGHS re-optimizes from its last basis."""

    def __init__(self, baseline: float, tolerance: float) -> None:
        import highspy
        import numpy as np

        self.np, self.hs, self.baseline = np, highspy, baseline
        self.model = highspy.Highs()
        self.model.setOptionValue("output_flag", False)
        for name in ("primal_feasibility_tolerance", "dual_feasibility_tolerance"):
            self.model.setOptionValue(name, tolerance)
        none = np.zeros(0, dtype=np.int32)
        self.model.addCol(1.0, -highspy.kHighsInf, highspy.kHighsInf, 0, none, np.zeros(0))  # v
        self.model.addRow(1.0, 1.0, 0, none, np.zeros(0))  # sum x = 1
        self.model.changeObjectiveSense(highspy.ObjSense.kMaximize)
        self.rows = self.columns = 0

    def entries(self, payoffs: list[float], first: float) -> tuple[Any, Any]:
        shifted = self.np.asarray(payoffs) - self.baseline
        nonzero = self.np.flatnonzero(shifted)
        index = self.np.concatenate([[0], 1 + nonzero]).astype(self.np.int32)
        return index, self.np.r_[first, shifted[nonzero]]

    def row(self, payoffs: list[float]) -> None:
        index, value = self.entries(payoffs, 1.0)
        self.model.addCol(0.0, 0.0, self.hs.kHighsInf, index.size, index, value)
        self.rows += 1

    def column(self, payoffs: list[float]) -> None:
        index, value = self.entries(payoffs, -1.0)
        self.model.addRow(0.0, self.hs.kHighsInf, index.size, index, value)
        self.columns += 1

    def restrict(self, rows: list[int], columns: list[int]) -> None:
        for kept, size, delete in ((rows, self.rows, self.model.deleteCols),
                                   (columns, self.columns, self.model.deleteRows)):  # fmt: skip
            mask = self.np.ones(size, dtype=bool)
            mask[kept] = False
            if (dropped := (1 + self.np.flatnonzero(mask)).astype(self.np.int32)).size:
                delete(dropped.size, dropped)
        self.rows, self.columns = len(rows), len(columns)

    def solve(self) -> tuple[list[float], list[float], float]:
        self.model.run()
        if self.model.getModelStatus() != self.hs.HighsModelStatus.kOptimal:
            raise RuntimeError(f"HiGHS: {self.model.getModelStatus()}")
        solution = self.model.getSolution()
        row = self.np.maximum(self.np.asarray(solution.col_value)[1:], 0.0)
        column = self.np.maximum(-self.np.asarray(solution.row_dual)[1:], 0.0)
        value = self.model.getInfo().objective_function_value + self.baseline
        return (row / row.sum()).tolist(), (column / column.sum()).tolist(), value


def highs(path: str, tolerance: float) -> None:
    """Replay a recorded LP sequence (JSON) on HiGHS kept warm: this process never loads
    OR-Tools, which bundles another HiGHS of the same library name."""
    from threadpoolctl import threadpool_limits

    sequence = json.loads(Path(path).read_text())
    game, found, took = HighsGame(sequence["baseline"], tolerance), [], 0.0
    steps = {"row": game.row, "column": game.column, "restrict": game.restrict}
    with threadpool_limits(limits=1):
        for kind, *data in sequence["events"]:
            started = time.process_time()
            if kind == "solve":
                row, column, value = game.solve()
                found.append([took + time.process_time() - started, row, column, value])
                took = 0.0
            elif kind in steps:
                steps[kind](*data)
                took += time.process_time() - started
    emit(found=found)


if __name__ == "__main__":
    globals()[sys.argv[1]](**json.loads(sys.argv[2]))
