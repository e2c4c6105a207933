"""Double oracle: equilibria of large zero-sum games, from a payoff oracle.

A zero-sum game pays ``u(a, b)`` to the row player when the row player
plays ``a`` and the column player ``b``; the strategy sets may be far too
large to write the matrix down.  Double oracle (McMahan, Gordon and Blum,
2003) needs only an **oracle** (:class:`~solver.equilibria.payoff_oracle.PayoffOracle`)
that gives

* the payoffs ``u(a, b)`` between the strategies restricted so far, and
* each side's best responses to a mixed strategy of the other over the
  restricted set, with their values.

Keep restricted sets ``R`` (rows) and ``C`` (columns), a strategy or a few
each to begin with.  Each iteration

1. solves the restricted game ``u`` on ``R x C`` by linear programming
   (:class:`solver.lp.matrix_game.MatrixGameLP`), giving mixed
   strategies ``x`` over ``R`` and ``y`` over ``C``;
2. asks the oracle for the best responses, certifying bounds on the value
   ``v`` of the whole game::

       lower = min_b u(x, b)  <=  v  <=  max_a u(a, y) = upper

   (``x`` guarantees ``lower`` against every column strategy, ``y``
   concedes at most ``upper`` to every row strategy), and keeps the best
   bounds seen and the strategies that certify them;
3. stops when ``upper - lower`` is at most the tolerance; otherwise adds
   the best responses that beat the restricted value (up to
   ``per_iteration`` per side) to ``R`` and ``C``.

Each strategy is added at most once between prunings, and the sets are
finite, so the iteration ends; at the end neither side can gain by
leaving its restricted set, and the restricted equilibrium is one of the
whole game.

Pruning.  On degenerate games most strategies, once added, stay unused,
and the linear program's cost grows with its size.  When the restricted
sets grow large, strategies unused by the last few solutions are dropped.
A dropped strategy that becomes useful again comes back as a best
response, and is never dropped again: each strategy leaves at most once,
so the iteration cannot cycle.  The certificate never depends on the
restricted sets.

Warm-up.  Early restricted games need not be solved exactly: the bounds
of step 2 hold for any strategies ``x`` and ``y``.  With a
:class:`~solver.equilibria.regret_matching.WarmUp`, they are first solved
approximately by regret matching (cheap matrix-vector products, no
pivots), the sets growing as usual; once the certified gap is below the
warm-up's, the strategies the approximate solution uses are kept (the rest
count as dropped; their probabilities may guess the first exact program's
basis) and the iteration goes on exactly as above, so the result is the
same exact equilibrium.  On large, degenerate games the exact phase then
starts near the support, skipping most of the programs the growth would cost.

Symmetric games (``u(a, b) = -u(b, a)`` over one strategy set) keep one
set: the row solution is optimal for both sides, the value is 0, and
``lower = -upper``.

>>> rps = MatrixOracle(np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]]))
>>> solution = solve_game(rps)
>>> solution.value, solution.gap < 1e-12, np.round(solution.row, 6).tolist()
(0.0, True, [0.333333, 0.333333, 0.333333])
>>> solve_game(rps, tolerance=-1.0)
Traceback (most recent call last):
    ...
solver.errors.SolverError: tolerance must be non-negative, got -1.0
"""

from __future__ import annotations

import numbers
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from solver.equilibria.payoff_oracle import BestResponses, MatrixOracle, PayoffOracle
from solver.equilibria.regret_matching import RegretMatching, WarmUp
from solver.equilibria.restricted_set import RestrictedSet, checked_start
from solver.equilibria.tolerance import DEFAULT_TOLERANCE
from solver.errors import SolverError
from solver.lp import MatrixGameLP, MatrixGameSolution, one_blas_thread
from solver.util.time_limit import check_time_limit

__all__ = [
    "DEFAULT_TOLERANCE",
    "BestResponses",
    "DoubleOracle",
    "IterationRecord",
    "MatrixOracle",
    "PayoffOracle",
    "Solution",
    "WarmUp",
    "solve_game",
]


_PRUNE_FROM = 100  # restricted strategies per side before dropping is considered


@dataclass(frozen=True)
class IterationRecord:
    """One double-oracle iteration.

    ``lower`` and ``upper`` are the best certified bounds on the game value
    so far (in payoff units: points, or probability for win).

    Attributes
    ----------
    iteration
        1, 2, ...
    row_strategies, column_strategies
        Sizes of the restricted sets solved in this iteration.
    lower, upper
        The best certified bounds so far.
    seconds
        Wall time since the solve started (for an equilibrium of a deal:
        including the frontiers).
    lp_seconds
        Wall time of this iteration's restricted-game solve (the linear program).
    oracle_seconds
        Wall time of this iteration's best responses (both sides).
    """

    iteration: int
    row_strategies: int
    column_strategies: int
    lower: float
    upper: float
    seconds: float
    lp_seconds: float = 0.0
    oracle_seconds: float = 0.0

    @property
    def gap(self) -> float:
        """``upper - lower``."""
        return self.upper - self.lower


@dataclass(frozen=True)
class Solution:
    """The best strategies found and their certificate (in the oracle's units).

    ``row`` (probabilities over ``row_strategies``) guarantees ``lower``;
    ``column`` (over ``column_strategies``) concedes at most ``upper``;
    ``value`` is the last restricted game's value (0 for symmetric games).
    """

    row_strategies: tuple[int, ...]
    row: np.ndarray
    column_strategies: tuple[int, ...]
    column: np.ndarray
    value: float
    lower: float
    upper: float
    iterations: int

    @property
    def gap(self) -> float:
        """Certified gap ``upper - lower``, never negative."""
        return max(0.0, self.upper - self.lower)


class DoubleOracle:
    """Double oracle on one game; iterate :meth:`iterations`, then read :meth:`solution`.

    Parameters
    ----------
    oracle
        The game (:class:`PayoffOracle`).
    per_iteration
        Best responses added per side and iteration.
    warm_simplex
        Solve the restricted games with the warm simplex rather than GLOP
        from scratch (:class:`~solver.lp.matrix_game.MatrixGameLP`).
    units
        The units of the records' bounds and the tolerance, as an
        increasing map from the oracle's payoffs (default: the same).
    started
        :func:`time.perf_counter` at the start of the solve (default: now).
    warm_up
        Solve the first restricted games approximately, by regret matching
        (:mod:`solver.equilibria.regret_matching`), until the certified gap
        is small; then go on exactly from the strategies in use.
    start
        The rows' and the columns' first strategies (a symmetric game's: its
        rows); default: the oracle's ``initial()``.  Only the path depends on them.

    >>> DoubleOracle(MatrixOracle(np.eye(2)), per_iteration=0)
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: per_iteration must be at least 1, got 0
    """

    def __init__(
        self,
        oracle: PayoffOracle,
        *,
        per_iteration: int = 1,
        warm_simplex: bool = False,
        units: Callable[[float], float] | None = None,
        started: float | None = None,
        warm_up: WarmUp | None = None,
        start: Sequence[Sequence[int]] | None = None,
    ) -> None:
        if per_iteration < 1:
            raise SolverError(f"per_iteration must be at least 1, got {per_iteration}")
        self._start = (
            None if start is None else checked_start(start, oracle.sizes, oracle.symmetric)
        )
        self.started = time.perf_counter() if started is None else started
        self.oracle = oracle
        self.per_iteration = per_iteration
        self.units = units if units is not None else float
        self.lp = MatrixGameLP(oracle.baseline, oracle.lowest, warm_simplex)
        self.rows = RestrictedSet()
        # A symmetric game's columns are its rows.
        self.columns = self.rows if oracle.symmetric else RestrictedSet()
        self.lp_value = 0.0
        self.iteration = 0
        self._certified = np.inf  # the last iteration's certified gap (warm-up's rounds)
        # The warm-up and regret matching's state while warming up; None in the exact phase.
        self._warming = None if warm_up is None else (warm_up, RegretMatching(oracle.symmetric))

    def _add_row(self, strategy: int) -> None:
        # Against the columns so far (in a symmetric game, before it joins them).
        payoffs = self.oracle.row_payoffs(strategy, self.columns.strategies)
        self.rows.strategies.append(strategy)
        self.lp.add_row(payoffs)

    def _add_column(self, strategy: int) -> None:
        if not self.oracle.symmetric:
            self.columns.strategies.append(strategy)
        self.lp.add_column(self.oracle.column_payoffs(self.rows.strategies, strategy))

    def _add(self, new_rows: list[int], new_columns: list[int]) -> None:
        self.oracle.prepare(new_rows, new_columns)
        for strategy in new_rows:
            self._add_row(strategy)
            if self.oracle.symmetric:
                self._add_column(strategy)
        for strategy in new_columns:
            self._add_column(strategy)
        if self._warming is not None:
            self._warming[1].grow(*self.lp.shape)

    def _solve_restricted(self) -> MatrixGameSolution:
        """The restricted game's equilibrium: exact, or approximate while warming up."""
        if self._warming is None:
            return self.lp.solve()
        warm_up, matching = self._warming
        payoff = self.lp.matrix()
        x, y = matching.solve(payoff, warm_up.iterations, warm_up.target(self._certified))
        value = 0.0 if self.oracle.symmetric else float(x @ payoff @ y)
        lower, upper = float((x @ payoff).min()), float((payoff @ y).max())
        return MatrixGameSolution(x, y, value, lower, upper)

    def _best_responses(
        self, x: np.ndarray, y: np.ndarray
    ) -> tuple[BestResponses, BestResponses | None]:
        """Both sides' best responses (the columns' is the rows' in a symmetric game)."""
        rows = self.oracle.best_rows(self.columns.strategies, y)
        if self.oracle.symmetric:
            return rows, None
        return rows, self.oracle.best_columns(self.rows.strategies, x)

    def _begin(self, tolerance: float, time_limit: float | None) -> float | None:
        """Check the arguments of :meth:`iterations`, seed an empty restricted game.

        Returns the deadline (``perf_counter`` time), None without a time limit.
        """
        if isinstance(tolerance, bool) or not isinstance(tolerance, numbers.Real):
            raise TypeError(f"tolerance must be a number, got {tolerance!r}")
        if not tolerance >= 0:  # NaN too
            raise SolverError(
                f"tolerance must be non-negative, got {tolerance}", argument="tolerance"
            )
        time_limit = check_time_limit(time_limit)
        if not self.rows.strategies:
            if self._start is None:
                first_row, first_column = self.oracle.initial()
                self._start = [first_row], [first_column]
            rows, columns = self._start
            self._add(rows, [] if self.oracle.symmetric else columns)
        return None if time_limit is None else self.started + time_limit

    def _picks(
        self, best_rows: BestResponses, best_columns: BestResponses | None
    ) -> tuple[list[int], list[int]]:
        """The new row and column strategies to add to the restricted game."""
        new_rows = self.rows.picks(best_rows, self.lp_value, self.per_iteration)
        new_columns = []
        if best_columns is not None:
            new_columns = self.columns.picks(best_columns, -self.lp_value, self.per_iteration)
        return new_rows, new_columns

    def iterations(
        self,
        tolerance: float = DEFAULT_TOLERANCE,
        time_limit: float | None = None,
        max_iterations: int = 100_000,
    ) -> Iterator[IterationRecord]:
        """Run double oracle, yielding a record per iteration, until the gap is small.

        Stops when the certified gap is at most ``tolerance`` (in ``units``),
        when ``time_limit`` seconds have passed since ``started``, after
        ``max_iterations``, or when no best response gains any more.
        """
        deadline = self._begin(tolerance, time_limit)
        while self.iteration < max_iterations:
            # One BLAS thread for the work, not for the caller between records.
            with one_blas_thread():
                record, step = self._iterate()
            yield record
            if record.gap <= tolerance:
                return
            if deadline is not None and time.perf_counter() >= deadline:
                return
            with one_blas_thread():
                if not self._grow(*step):
                    return  # numerically converged: nothing new to add

    def _iterate(self) -> tuple[IterationRecord, tuple]:
        """Solve the restricted game, find the best responses; the record and what grows."""
        self.iteration += 1
        lp_started = time.perf_counter()
        solution = self._solve_restricted()
        oracle_started = time.perf_counter()
        self.lp_value = solution.value
        # The row solution of a symmetric game is optimal for both sides.
        x, y = solution.row, solution.row if self.oracle.symmetric else solution.column
        best_rows, best_columns = self._best_responses(x, y)
        upper = best_rows.value
        lower = -upper if best_columns is None else -best_columns.value
        self._certified = upper - lower
        done = time.perf_counter()
        self.rows.improve(lower, x)
        self.columns.improve(-upper, y)
        record = IterationRecord(
            iteration=self.iteration,
            row_strategies=len(self.rows.strategies),
            column_strategies=len(self.columns.strategies),
            lower=self.units(self.lower),
            upper=self.units(self.upper),
            seconds=done - self.started,
            lp_seconds=oracle_started - lp_started,
            oracle_seconds=done - oracle_started,
        )
        return record, (x, y, best_rows, best_columns)

    def _grow(
        self,
        x: np.ndarray,
        y: np.ndarray,
        best_rows: BestResponses,
        best_columns: BestResponses | None,
    ) -> bool:
        """Prune, add the best responses (or end the warm-up); False when nothing is new."""
        if self._warming is None:
            self._prune(x, y)
        new_rows, new_columns = self._picks(best_rows, best_columns)
        if self._warming is not None and (
            self._certified <= self._warming[0].gap or not (new_rows or new_columns)
        ):
            self._end_warm_up(x, y, self._warming[0])
            return True  # the next restricted game is solved exactly
        if not new_rows and not new_columns:
            return False
        if self._warming is not None:
            self._prune_warm_up(x, y, *self._warming)
        self._add(new_rows, new_columns)
        return True

    @property
    def lower(self) -> float:
        """The best certified lower bound so far (oracle units)."""
        return self.rows.bound

    @property
    def upper(self) -> float:
        """The best certified upper bound so far (oracle units)."""
        if self.oracle.symmetric:
            return -self.rows.bound if np.isfinite(self.rows.bound) else np.inf
        return -self.columns.bound

    def _prune(self, x: np.ndarray, y: np.ndarray) -> None:
        """Drop restricted strategies unused lately, when they outnumber the support.

        Each dropped strategy is remembered and never dropped again (see the
        module docstring).
        """
        fresh = 2 * self.per_iteration  # the latest additions stay regardless
        rows = self.rows.kept(x, fresh)
        columns = rows if self.oracle.symmetric else self.columns.kept(y, fresh)
        before = len(self.rows.strategies) + len(self.columns.strategies)
        if before < 2 * _PRUNE_FROM:
            return
        if 4 * (len(rows) + len(columns)) > 3 * before:
            return  # too little to gain: less than a quarter would go
        self._restrict(rows, columns)

    def _prune_warm_up(
        self, x: np.ndarray, y: np.ndarray, warm_up: WarmUp, matching: RegretMatching
    ) -> None:
        """Drop the strategies the warm-up's averages hardly use, once a side is large.

        Regret matching's rounds cost the set's size squared: on mirror win deals
        1-40, ``prune=0.05`` from 600 strategies took 16% less CPU in all (15.0 ->
        12.6 s), the slowest deal 3.2 -> 2.65 s (see :class:`WarmUp`).
        """
        largest = max(len(self.rows.strategies), len(self.columns.strategies))
        if not warm_up.prune or largest < warm_up.prune_from:
            return

        def kept(side: RestrictedSet, mixed: np.ndarray) -> np.ndarray:
            keep = (mixed >= warm_up.prune / mixed.shape[0]) | side.dropped_before()
            keep[max(len(side.strategies) - 2 * self.per_iteration, 0) :] = True
            return np.flatnonzero(keep)

        rows = kept(self.rows, x)
        columns = rows if self.oracle.symmetric else kept(self.columns, y)
        if rows.size == len(self.rows.strategies) and columns.size == len(self.columns.strategies):
            return
        matching.restrict(rows, columns)
        self._restrict(rows.tolist(), columns.tolist())

    def _end_warm_up(self, x: np.ndarray, y: np.ndarray, warm_up: WarmUp) -> None:
        """Keep the strategies the approximate solution uses; solve exactly from now on.

        A strategy stays if its probability is at least ``warm_up.keep`` over
        the set's size (the most likely one always does); with ``warm_up.guess``
        the kept probabilities guess the first exact program's basis.  This
        one cut may drop a strategy the warm-up's pruning dropped once
        already (keeping those instead took 10% more CPU on mirror win deals
        1-40): the cut happens once, so the sets still cannot cycle.
        """

        def used(mixed: np.ndarray) -> np.ndarray:
            kept = mixed >= warm_up.keep / mixed.shape[0]
            kept[np.argmax(mixed)] = True
            return np.flatnonzero(kept)

        rows, columns = used(x), used(y)  # the same in a symmetric game (x = y)
        self._restrict(rows.tolist(), columns.tolist())
        if warm_up.guess:
            self.lp.guess(x[rows], y[columns])
        self._warming = None

    def _restrict(self, rows: Sequence[int], columns: Sequence[int]) -> None:
        """Keep only the strategies at positions ``rows`` and ``columns``; the others
        count as dropped once."""
        row_ids = [self.rows.strategies[i] for i in rows]
        column_ids = [self.columns.strategies[j] for j in columns]
        dropped_rows = set(self.rows.strategies) - set(row_ids)
        dropped_columns = set(self.columns.strategies) - set(column_ids)
        self.rows.dropped |= dropped_rows
        self.rows.strategies = row_ids
        if not self.oracle.symmetric:
            self.columns.dropped |= dropped_columns
            self.columns.strategies = column_ids
        self.lp.restrict(list(rows), list(columns))
        self.oracle.discard(sorted(dropped_rows), sorted(dropped_columns))

    def solution(self) -> Solution:
        """The best strategies found and their certificate."""
        lower, upper = self.lower, self.upper
        # A symmetric game's value is 0 exactly; otherwise the restricted value, clipped.
        value = 0.0 if self.oracle.symmetric else min(max(self.lp_value, lower), upper)
        column = self.rows if self.oracle.symmetric else self.columns
        return Solution(
            row_strategies=tuple(self.rows.support),
            row=self.rows.mixed,
            column_strategies=tuple(column.support),
            column=column.mixed,
            value=value,
            lower=lower,
            upper=upper,
            iterations=self.iteration,
        )


def solve_game(
    oracle: PayoffOracle,
    *,
    per_iteration: int = 1,
    warm_simplex: bool = False,
    tolerance: float = DEFAULT_TOLERANCE,
    time_limit: float | None = None,
    max_iterations: int = 100_000,
    warm_up: WarmUp | None = None,
) -> Solution:
    """An equilibrium of the game ``oracle`` by double oracle (see :class:`DoubleOracle`)."""
    search = DoubleOracle(
        oracle, per_iteration=per_iteration, warm_simplex=warm_simplex, warm_up=warm_up
    )
    for _ in search.iterations(tolerance, time_limit, max_iterations):
        pass
    return search.solution()
