"""Benchmark of the restricted-game solvers of the double oracle: warm simplex, HiGHS, GLOP.

Run from the repository root::

    python benchmarks/bench_simplex.py [--deals N] [--first I] [--time-limit S]
        [--replay-deals R] [--save-games PATH] [--markdown]

1. Win equilibria of tournament deals I .. I+N-1 (seed 2026, mirror) with and without the
   warm simplex, frontiers cached, BLAS on one thread, engines alternating, S seconds per
   solve (N = 0: skipped).
2. The double oracle's real LP sequence replayed: the win equilibria of deals I .. I+R-1
   are solved once with every restricted game's change recorded (rows and columns added,
   the sets restricted, a guessed start), then the sequence is replayed on the project's
   warm simplex, on HiGHS kept warm (highspy: variables and constraints added to and
   deleted from one loaded model) and on GLOP from scratch; time per LP (its changes and
   its solve) and accuracy (the gap the strategies certify, and the value against the
   warm simplex's).
3. ``--save-games PATH``: deals I and I+1's recorded restricted games (win, mirror; margin, its two
   holdings), the middle and the last of each run, to an ``.npz`` (``tests/support/data/restricted_games.npz``).
"""

import itertools
import pickle
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import harness as h
import numpy as np
from threadpoolctl import threadpool_limits

import solver
from solver.app.arguments import non_negative_int, positive_float
from solver.equilibria.equilibrium import DealDoubleOracle
from solver.game.deal import deal_seed
from solver.lp import MatrixGameLP, MatrixGameSolution
from solver.models.packets import check_holding

ENGINES = {"warm simplex": True, "GLOP from scratch": False}
REPLAYED = ("warm simplex", "HiGHS kept warm", "GLOP from scratch")
HIGHS_TOLERANCE = 1e-9  # HiGHS's primal and dual feasibility tolerances (default 1e-7)


class RecordingLP(MatrixGameLP):
    """A matrix game that records every change and solve the double oracle makes."""

    def __init__(self, like: MatrixGameLP) -> None:
        super().__init__(like.baseline, like.lowest, like.warm, like.options)
        self.events: list[tuple] = []
        self.games: list[np.ndarray] = []  # every game solved

    def add_row(self, payoffs: np.ndarray | list[float]) -> None:
        super().add_row(payoffs)
        self.events.append(("row", np.array(payoffs, dtype=np.float64)))

    def add_column(self, payoffs: np.ndarray | list[float]) -> None:
        super().add_column(payoffs)
        self.events.append(("column", np.array(payoffs, dtype=np.float64)))

    def restrict(self, rows: list[int], columns: list[int]) -> None:
        super().restrict(rows, columns)
        self.events.append(("restrict", list(rows), list(columns)))

    def guess(self, row: np.ndarray, column: np.ndarray) -> None:
        super().guess(row, column)
        self.events.append(("guess", np.array(row), np.array(column)))

    def solve(self) -> MatrixGameSolution:
        self.events.append(("solve",))
        self.games.append(self.matrix())
        return super().solve()


class HighsGame:
    """The row player's program (as GLOP's: ``x`` and ``v``) loaded once in HiGHS.

    A new row strategy is a new variable, a new column strategy a new constraint;
    a restriction deletes both; HiGHS re-optimizes from its last basis.
    """

    def __init__(self, baseline: float) -> None:
        import highspy

        self._highspy, self.baseline = highspy, baseline
        self.model = highspy.Highs()
        self.model.setOptionValue("output_flag", False)
        for name in ("primal_feasibility_tolerance", "dual_feasibility_tolerance"):
            self.model.setOptionValue(name, HIGHS_TOLERANCE)
        infinite = highspy.kHighsInf
        none = np.zeros(0, dtype=np.int32)
        self.model.addCol(1.0, -infinite, infinite, 0, none, np.zeros(0))  # v
        self.model.addRow(1.0, 1.0, 0, none, np.zeros(0))  # sum x = 1
        self.model.changeObjectiveSense(highspy.ObjSense.kMaximize)
        self.rows = self.columns = 0

    def _entries(self, payoffs: np.ndarray, first: float) -> tuple[np.ndarray, np.ndarray]:
        shifted = payoffs - self.baseline
        nonzero = np.flatnonzero(shifted)
        return np.concatenate([[0], 1 + nonzero]).astype(np.int32), np.r_[first, shifted[nonzero]]

    def add_row(self, payoffs: np.ndarray) -> None:
        index, value = self._entries(payoffs, 1.0)
        self.model.addCol(0.0, 0.0, self._highspy.kHighsInf, index.size, index, value)
        self.rows += 1

    def add_column(self, payoffs: np.ndarray) -> None:
        index, value = self._entries(payoffs, -1.0)
        self.model.addRow(0.0, self._highspy.kHighsInf, index.size, index, value)
        self.columns += 1

    def restrict(self, rows: list[int], columns: list[int]) -> None:
        for kept, size, delete in (
            (rows, self.rows, self.model.deleteCols),
            (columns, self.columns, self.model.deleteRows),
        ):
            mask = np.ones(size, dtype=bool)
            mask[kept] = False
            dropped = (1 + np.flatnonzero(mask)).astype(np.int32)
            if dropped.size:
                delete(dropped.size, dropped)
        self.rows, self.columns = len(rows), len(columns)

    def solve(self) -> tuple[np.ndarray, np.ndarray, float]:
        self.model.run()
        if self.model.getModelStatus() != self._highspy.HighsModelStatus.kOptimal:
            raise RuntimeError(f"HiGHS: {self.model.getModelStatus()}")
        solution = self.model.getSolution()
        row = np.maximum(np.asarray(solution.col_value)[1:], 0.0)
        column = np.maximum(-np.asarray(solution.row_dual)[1:], 0.0)
        value = self.model.getInfo().objective_function_value + self.baseline
        return row / row.sum(), column / column.sum(), value


def record(index: int, time_limit: float, payoff: str = "win", mirror: bool = True) -> RecordingLP:
    """The equilibrium of deal ``index`` (``mirror``: the first holding on both sides),
    every LP change recorded."""
    holdings = [check_holding(hand) for hand in solver.deal(deal_seed(2026, index)).holdings]
    first, second = holdings[0], holdings[0 if mirror else 1]
    oracle = DealDoubleOracle(first, second, payoff=payoff, warm_simplex=True)
    oracle.lp = lp = RecordingLP(oracle.lp)
    for _ in oracle.iterations(time_limit=time_limit):
        pass
    return lp


def replay(sequence: dict, engine: str, fallbacks: list[int] | None = None) -> list[tuple]:
    """``(seconds, certified gap, value)`` of each LP of a recorded sequence on ``engine``;
    the warm simplex's GLOP fallbacks are appended to ``fallbacks``.

    The seconds are the engine's own CPU seconds (one BLAS thread): its changes since
    the last solve, and the solve.
    """
    baseline, lowest = sequence["baseline"], sequence["lowest"]
    store = MatrixGameLP(baseline, lowest)  # the matrix, for the accuracy only
    if engine == "HiGHS kept warm":
        highs = HighsGame(baseline)
        steps = {"row": highs.add_row, "column": highs.add_column, "restrict": highs.restrict}
        solve = highs.solve
    else:
        game = MatrixGameLP(baseline, lowest, warm=engine == "warm simplex")
        steps = {"row": game.add_row, "column": game.add_column, "restrict": game.restrict}
        steps["guess"] = game.guess

        def solve() -> tuple[np.ndarray, np.ndarray, float]:
            answer = game.solve()
            return answer.row, answer.column, answer.value

    found, took = [], 0.0
    for kind, *data in sequence["events"]:
        started = time.process_time()
        if kind == "solve":
            row, column, value = solve()
            took += time.process_time() - started
            matrix = store.matrix()
            gap = float((matrix @ column).max() - (row @ matrix).min())
            found.append((took, gap, value))
            took = 0.0
            continue
        if kind in steps:
            steps[kind](*data)
        took += time.process_time() - started
        if kind != "guess":
            getattr(store, {"row": "add_row", "column": "add_column"}.get(kind, kind))(*data)
    if fallbacks is not None and engine != "HiGHS kept warm":
        fallbacks.append(game.fallbacks)
    return found


def save_games(path: Path, indices: range, time_limit: float) -> None:
    """Recorded restricted games of the deals (win mirror, margin of both holdings): the
    middle and the last game each run solved, as int8 (their payoffs are small integers)."""
    saved = {}
    for index, (payoff, mirror) in itertools.product(indices, (("win", True), ("margin", False))):
        games = record(index, time_limit, payoff, mirror).games
        for name, game in {"middle": games[len(games) // 2], "last": games[-1]}.items():
            if name == "last" and len(games) < 3:  # the middle game is the last
                continue
            assert np.array_equal(game, np.round(game)) and np.abs(game).max() <= 127
            saved[f"{payoff}_{'mirror' if mirror else 'deal'}{index}_{name}"] = game.astype(np.int8)
            h.log(f"saved {payoff} deal {index} {name}: {game.shape}")
    np.savez_compressed(path, **saved)


def replay_tables(args) -> list[h.Table]:
    """Record the deals' LP sequences, replay them on every engine, tabulate."""
    runs: dict[str, list[tuple[float, float, float]]] = {name: [] for name in REPLAYED}
    fallbacks: list[int] = []  # the warm simplex's, per deal
    for index in range(args.first, args.first + args.replay_deals):
        lp = record(index, args.time_limit)
        h.log(f"deal {index}: {len(lp.games)} LPs recorded, the last {lp.games[-1].shape}")
        sequence = {"events": lp.events, "baseline": lp.baseline, "lowest": lp.lowest}
        for name in REPLAYED:
            if name.startswith("HiGHS"):  # its own process: OR-Tools bundles another HiGHS
                with tempfile.TemporaryDirectory() as folder:
                    path = Path(folder) / "sequence.pickle"
                    path.write_bytes(pickle.dumps(sequence))
                    found = h.last(__file__, "--child", "highs", str(path))["found"]
                runs[name].extend(map(tuple, found))
            else:
                runs[name].extend(
                    replay(sequence, name, fallbacks if name == REPLAYED[0] else None)
                )
    count = len(runs[REPLAYED[0]])
    table = h.Table(
        f"The double oracle's LP sequence replayed: {count} LPs of {args.replay_deals} deals",
        "engine; median per LP; p95 per LP; total; certified gap, max; |value - warm simplex|, max",
        "lrrrrr",
    )
    reference = [value for _, _, value in runs[REPLAYED[0]]]
    for name, found in runs.items():
        times = [t for t, _, _ in found]
        off = max(abs(v - r) for (_, _, v), r in zip(found, reference, strict=True))
        table.add(name, h.ms(h.median(times)), h.ms(h.p95(times)), h.seconds(sum(times)),
                  f"{max(g for _, g, _ in found):.1e}", f"{off:.1e}")  # fmt: skip
    totals = {name: sum(t for t, _, _ in found) for name, found in runs.items()}
    table.notes += [
        "per LP: CPU time of the changes since the last solve (rows, columns, restriction) and the solve; "
        "the warm simplex falls back to GLOP when its bounds disagree, as in the solver "
        f"(here {sum(fallbacks)} of {count} LPs); "
        "HiGHS in a process of its own (OR-Tools bundles another HiGHS of the same soname)",
        f"HiGHS: primal and dual feasibility tolerances {HIGHS_TOLERANCE:g}, strategies "
        "read from its primal values and row duals; GLOP: the solver's own settings",
        "total: HiGHS kept warm "
        f"{totals['HiGHS kept warm'] / totals['warm simplex']:.1f}x, GLOP from scratch "
        f"{totals['GLOP from scratch'] / totals['warm simplex']:.1f}x the warm simplex's time",
    ]
    return [table]


def equilibrium_tables(args) -> list[h.Table]:
    """Whole win equilibria with each engine: per deal and a summary."""
    holdings = {}

    def measure(index: int, engine: str) -> tuple[float, float]:
        if index not in holdings:  # the frontier first, untimed
            holdings[index] = check_holding(solver.deal(deal_seed(2026, index)).holdings[0])
            solver.cached_frontier(holdings[index], solver.Rules())
        holding, options = holdings[index], {"warm_simplex": ENGINES[engine]}
        options |= {"payoff": "win", "time_limit": args.time_limit}
        run = h.timed(lambda: solver.solve_equilibrium(holding, holding, **options))
        h.log(f"deal {index}, {engine}: {h.seconds(run.wall[0])}")
        return run.wall[0], run.result.gap

    runs = h.alternate(range(args.first, args.first + args.deals), list(ENGINES), measure)
    per_deal = h.Table("Win equilibria, seconds per deal", ["deal", *ENGINES, "ratio"], "rrrr")
    for k, (warm, glop) in enumerate(zip(*runs.values(), strict=True)):
        cells = [h.seconds(t) + ("" if g <= 1e-9 else f" (gap {g:.1e})") for t, g in (warm, glop)]
        per_deal.add(args.first + k, *cells, f"{glop[0] / warm[0]:.1f}x")
    summary = h.Table("Win equilibria: summary", "engine; median; mean; p95; max; capped", "lrrrrr")
    for name, found in runs.items():
        values = [t for t, _ in found]
        figures = [h.median(values), statistics.fmean(values), h.p95(values), max(values)]
        summary.add(name, *map(h.seconds, figures), sum(g > 1e-9 for _, g in found))
    warm, glop = (sum(t for t, _ in found) for found in runs.values())
    summary.notes.append(
        f"total {glop / warm:.1f}x faster with the warm simplex ({h.seconds(warm)} against "
        f"{h.seconds(glop)}); every exact result is certified to 1e-9"
    )
    return [summary, per_deal]


def main(argv: Sequence[str] | None = None) -> int:
    """Measure both parts and print the tables."""
    cli = h.parser(__doc__).options(non_negative_int, deals=20, first=0, replay_deals=5)
    cli.add_argument("--save-games", type=Path, default=None, help="write recorded games here")
    args = cli.options(positive_float, time_limit=120.0).parse_args(argv)
    if args.child:  # the HiGHS replay: this process never loads OR-Tools
        with threadpool_limits(limits=1):
            h.emit(found=replay(pickle.loads(Path(args.child[1]).read_bytes()), "HiGHS kept warm"))
        return 0
    facts = h.machine(
        ["ortools", "highspy", "numpy"],
        f"--deals {args.deals} --first {args.first} --time-limit {args.time_limit:g} "
        f"--replay-deals {args.replay_deals}",
    )
    started = time.perf_counter()
    with threadpool_limits(limits=1):
        tables = equilibrium_tables(args) if args.deals else []
        if args.replay_deals:
            tables = replay_tables(args) + tables
        if args.save_games is not None:
            save_games(args.save_games, range(args.first, args.first + 2), args.time_limit)
    h.show([facts, *tables], args.markdown, h.elapsed(started))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
