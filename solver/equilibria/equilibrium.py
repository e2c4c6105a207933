"""Exact equilibria of a deal by double oracle over the strategy frontiers.

Both holdings are public, so a deal is a finite two-player zero-sum game:
each player chooses an arrangement, the payoff is ``margin`` (points scored
minus conceded) or ``win`` (1 for more points, 1/2 for equal, 0 for fewer).
Only frontier strategies matter (:mod:`solver.response.frontier`): every other
arrangement is weakly dominated by one of them, so an equilibrium of the
game restricted to the frontiers is an equilibrium of the whole game, and a
best response over a frontier is a best response over all arrangements.

Double oracle (McMahan, Gordon and Blum, 2003).  Keep a few strategies per
player; solve the restricted matrix game by linear programming
(:mod:`solver.equilibria.matrix_game`: GLOP, or for win games the warm-started simplex
of :mod:`solver.equilibria.simplex`), giving mixed strategies ``x`` and ``y``; find
each player's best response over its whole frontier::

    upper = max_a u(a, y)        lower = min_b u(x, b)

The game value lies in ``[lower, upper]``: ``upper - lower`` is the
certified gap, how much either player could gain by deviating.  Add the
best responses to the restricted game and repeat; when neither best response
gains, the gap is zero and the restricted equilibrium is exact.

Best responses are numpy gathers: for margin the payoff is a sum over
positions, so ``u(a, y) = sum_p w_p (P_y(t_p < a_p) - P_y(t_p > a_p))``
from the per-position distributions of ``y``; for win, each strategy's
outcome against each restricted opponent strategy is stored once (int8) and
the values are one matrix-vector product.

In mirror mode both players hold the same cards: the game is symmetric, its
value is 0 (margin) or 1/2 (win), one strategy set and one best response per
iteration suffice, and the gap is twice the best response's gain.

>>> from solver.game.deal import deal
>>> d = deal(seed=2)
>>> result = solve(d.holdings[0], d.holdings[1], payoff="margin")
>>> result.value, result.gap <= 1e-9
(0.0, True)
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from enum import Enum

import numpy as np

from solver.equilibria.matrix_game import MatrixGameLP
from solver.errors import SolverError
from solver.game.rules import DEFAULT_RULES, Rules
from solver.game.time_limit import check_time_limit
from solver.models.mixture import Mixture
from solver.models.packets import check_holding
from solver.response.frontier import Frontier, cached_frontier

__all__ = [
    "DoubleOracle",
    "EquilibriumResult",
    "IterationRecord",
    "Payoff",
    "solve",
]


class Payoff(str, Enum):
    """What the players of the matrix game are paid."""

    MARGIN = "margin"  # points scored minus points conceded
    WIN = "win"  # 1 for more points, 1/2 for equal, 0 for fewer


@dataclass(frozen=True)
class IterationRecord:
    """One double-oracle iteration.

    ``lower`` and ``upper`` are the best certified bounds on the game value
    so far (in payoff units: points, or probability for win).
    """

    iteration: int
    row_strategies: int
    column_strategies: int
    lower: float
    upper: float
    seconds: float

    @property
    def gap(self) -> float:
        """``upper - lower``."""
        return self.upper - self.lower


@dataclass(frozen=True)
class EquilibriumResult:
    """An equilibrium (or the best strategies found) and its certificate.

    Attributes
    ----------
    payoff, rules
        The game.
    row, column
        Player 1's and player 2's mixed strategies (concrete arrangements).
    value
        The game value: exact by symmetry in mirror mode, else the restricted
        game's value (within ``[lower, upper]``).
    lower, upper
        Certified bounds on the value: ``row`` guarantees at least ``lower``,
        ``column`` concedes at most ``upper``.
    iterations, seconds
        Work done.
    frontier_sizes
        Number of frontier strategies of each player.
    history
        Every iteration's record.
    converged
        Whether the gap reached the tolerance.
    """

    payoff: Payoff
    rules: Rules
    row: Mixture
    column: Mixture
    value: float
    lower: float
    upper: float
    iterations: int
    seconds: float
    frontier_sizes: tuple[int, int]
    history: tuple[IterationRecord, ...]
    converged: bool

    @property
    def gap(self) -> float:
        """Certified gap ``upper - lower``: what a deviation can gain at most."""
        return max(0.0, self.upper - self.lower)

    @property
    def exploitability_percent(self) -> float:
        """The gap as a percentage: of the points at stake (margin) or of a game (win)."""
        scale = self.rules.total_points if self.payoff is Payoff.MARGIN else 1.0
        return 100.0 * self.gap / scale


_PER_ITERATION = {Payoff.MARGIN: 5, Payoff.WIN: 30}
# The warm simplex for the restricted games (solver.equilibria.simplex): about 3x faster
# than GLOP from scratch on win games, whose restricted games reach hundreds
# of strategies; margin games stay small, and GLOP is a little faster there.
_WARM = {Payoff.MARGIN: False, Payoff.WIN: True}
_PRUNE_MEMORY = 5  # iterations a strategy must go unused before it may be dropped
_PRUNE_FROM = 100  # restricted strategies per player before dropping is considered


class _Player:
    """One player's frontier strategies and how to evaluate them."""

    def __init__(self, front: Frontier) -> None:
        self.front = front
        self.strengths, self.profile, self.order = front.strategies()
        self.by_position = np.ascontiguousarray(self.strengths.T)

    @property
    def size(self) -> int:
        return int(self.strengths.shape[0])


def _outcomes(
    mine: np.ndarray, theirs: np.ndarray, weights: np.ndarray, payoff: Payoff
) -> np.ndarray:
    """Payoff of each of ``mine`` against one strategy ``theirs`` (k,).

    ``mine`` holds the strategies' strengths position by position, ``(k, N)``.
    Margin in points; win as 2 * (u - 1/2), i.e. 1, 0, -1.  Stored as int8
    when every margin fits (25 points by default), int32 otherwise.
    """
    small = int(weights.sum()) <= np.iinfo(np.int8).max
    margin = np.zeros(mine.shape[1], np.int8 if small else np.int32)
    for strengths, their, weight in zip(mine, theirs.tolist(), weights.tolist(), strict=True):
        margin += weight * np.subtract(strengths > their, strengths < their, dtype=margin.dtype)
    return margin if payoff is Payoff.MARGIN else np.sign(margin).astype(np.int8)


class DoubleOracle:
    """The double-oracle iteration of one deal; iterate :meth:`iterations`.

    Parameters
    ----------
    first, second
        Player 1's and player 2's holdings.
    rules
        The rules (position points and ranking).
    payoff
        ``"margin"`` or ``"win"``.
    per_iteration
        Best responses added per player and iteration (default: 5 for
        margin, 30 for win).
    warm_simplex
        Solve the restricted games with the warm simplex
        (:mod:`solver.equilibria.simplex`) rather than GLOP from scratch (default: for
        win, not for margin).  Either way the result is certified the same.
    """

    def __init__(
        self,
        first: Iterable[int],
        second: Iterable[int],
        rules: Rules | None = None,
        payoff: Payoff | str = Payoff.MARGIN,
        per_iteration: int | None = None,
        warm_simplex: bool | None = None,
    ) -> None:
        self.started = time.perf_counter()
        self.rules = rules or DEFAULT_RULES
        try:
            self.payoff = Payoff(payoff)
        except ValueError:
            raise SolverError(f"payoff {payoff!r} is not margin or win") from None
        # Strategies added per player and iteration: the win payoff's restricted
        # games are degenerate and converge in fewer, larger steps.
        if per_iteration is None:
            per_iteration = _PER_ITERATION[self.payoff]
        if per_iteration < 1:
            raise SolverError(f"per_iteration must be at least 1, got {per_iteration}")
        self.per_iteration = per_iteration
        holdings = (
            check_holding(first, self.rules, who="player 1's holding"),
            check_holding(second, self.rules, who="player 2's holding"),
        )
        self.symmetric = holdings[0] == holdings[1]
        self.rows = _Player(cached_frontier(holdings[0], self.rules))
        self.columns = (
            self.rows if self.symmetric else _Player(cached_frontier(holdings[1], self.rules))
        )
        self.weights = np.asarray(self.rules.position_points, dtype=np.int64)
        # Win outcomes are 1, 0, -1: about half are losses, which the linear
        # program then need not store.
        self._lp_baseline = -1.0 if self.payoff is Payoff.WIN else 0.0
        # Payoffs are at least -1 (win) or minus all the points (margin).
        self._lp_lowest = -1.0 if self.payoff is Payoff.WIN else -float(self.weights.sum())
        if warm_simplex is None:
            warm_simplex = _WARM[self.payoff]
        self.lp = MatrixGameLP(self._lp_baseline, self._lp_lowest, warm_simplex)
        self.row_set: list[int] = []
        self.column_set: list[int] = []
        # Stored outcomes: of every row strategy against each restricted
        # column (and of every column strategy against each restricted row).
        self.against_columns: list[np.ndarray] = []
        self.against_rows: list[np.ndarray] = []
        self.best_lower = -np.inf
        self.best_upper = np.inf
        self.best_row = np.ones(1)
        self.best_column = np.ones(1)
        self.best_row_set: list[int] = []
        self.best_column_set: list[int] = []
        self.lp_value = 0.0
        self.iteration = 0
        self._recent_rows: list[set[int]] = []
        self._recent_columns: list[set[int]] = []
        self._dropped_rows: set[int] = set()
        self._dropped_columns: set[int] = set()

    # The payoff scale: internal values are points (margin) or 2u - 1 (win).
    def _to_payoff(self, value: float) -> float:
        return value if self.payoff is Payoff.MARGIN else (value + 1.0) / 2.0

    def _values_against(
        self,
        player: _Player,
        opponent: _Player,
        support: list[int],
        probabilities: np.ndarray,
        stored: list[np.ndarray],
    ) -> np.ndarray:
        """Payoff to ``player`` of each of its strategies against a mixed strategy."""
        if self.payoff is Payoff.MARGIN:
            # Sum over positions of w_p * (P(t_p < s) - P(t_p > s)), by gathers.
            theirs = opponent.strengths[support]
            values = np.zeros(player.size)
            n_strengths = int(max(player.strengths.max(), theirs.max())) + 2
            for p, w in enumerate(self.weights):
                mass = np.bincount(theirs[:, p], weights=probabilities, minlength=n_strengths)
                below = np.cumsum(mass) - mass
                above = mass.sum() - below - mass
                values += w * (below - above)[player.strengths[:, p]]
            return values
        # Only the mixture's support counts: add up its stored outcome columns
        # in float32 (a gather of every column would copy far more).
        used = np.flatnonzero(probabilities > 0).tolist()
        approximate = np.zeros(player.size, np.float32)
        for j in used:
            approximate += np.float32(probabilities[j]) * stored[j]
        # Re-evaluate the best candidates exactly, in float64 (float32 errors
        # are far below 1e-3, so the exact best is among them).
        count = min(player.size, 4 * self.per_iteration + 16)
        top = np.argpartition(-approximate, count - 1)[:count]
        near = np.union1d(top, np.flatnonzero(approximate >= approximate.max() - 1e-3))
        exact = np.stack([stored[j][near] for j in used], axis=1)
        values = np.full(player.size, -np.inf)
        values[near] = exact.astype(np.float64) @ probabilities[used]
        return values

    def _pick(self, values: np.ndarray, current: list[int], restricted_value: float) -> list[int]:
        """Up to ``per_iteration`` best strategies outside ``current`` that gain."""
        count = min(values.shape[0], len(current) + self.per_iteration)
        top = np.argpartition(-values, count - 1)[:count]
        order = top[np.argsort(-values[top], kind="stable")]
        taken = set(current)
        picks = [
            int(i) for i in order if int(i) not in taken and values[i] > restricted_value + 1e-12
        ]
        return picks[: self.per_iteration]

    def _add_row(self, index: int) -> None:
        self.row_set.append(index)
        payoffs = np.array([stored[index] for stored in self.against_columns], dtype=np.float64)
        self.lp.add_row(payoffs)
        if not self.symmetric:
            # The column player's payoff against the new row strategy.
            self.against_rows.append(
                _outcomes(
                    self.columns.by_position, self.rows.strengths[index], self.weights, self.payoff
                )
            )

    def _add_column(self, index: int) -> None:
        self.column_set.append(index)
        outcomes = _outcomes(
            self.rows.by_position, self.columns.strengths[index], self.weights, self.payoff
        )
        self.against_columns.append(outcomes)
        self.lp.add_column(outcomes[self.row_set])

    def _start(self) -> None:
        # Start from the strategy with the largest strength sum (a strong, plain guess).
        row = int(np.argmax(self.rows.strengths.sum(axis=1)))
        self._add_row(row)
        column = row if self.symmetric else int(np.argmax(self.columns.strengths.sum(axis=1)))
        self._add_column(column)

    def iterations(
        self,
        tolerance: float = 1e-9,
        time_limit: float | None = None,
        max_iterations: int = 100_000,
    ) -> Iterator[IterationRecord]:
        """Run double oracle, yielding a record per iteration, until the gap is small.

        Stops when the certified gap is at most ``tolerance`` (payoff units),
        when ``time_limit`` seconds have passed, or after ``max_iterations``.
        """
        if not tolerance >= 0:  # NaN too
            raise SolverError(
                f"tolerance must be non-negative, got {tolerance}", argument="tolerance"
            )
        if not self.row_set:
            self._start()
        time_limit = check_time_limit(time_limit)
        deadline = None if time_limit is None else self.started + time_limit
        while self.iteration < max_iterations:
            self.iteration += 1
            solution = self.lp.solve()
            self.lp_value = solution.value
            x, y = solution.row, solution.column
            if self.symmetric:
                y = x  # the row solution of a symmetric game is optimal for both
            row_values = self._values_against(
                self.rows, self.columns, self.column_set, y, self.against_columns
            )
            best_row = int(np.argmax(row_values))
            upper = float(row_values[best_row])
            if self.symmetric:
                lower, best_column = -upper, best_row
            else:
                column_values = self._values_against(
                    self.columns, self.rows, self.row_set, x, self.against_rows
                )
                best_column = int(np.argmax(column_values))
                lower = -float(column_values[best_column])
            if lower > self.best_lower:
                self.best_lower, self.best_row, self.best_row_set = lower, x, list(self.row_set)
            if upper < self.best_upper:
                self.best_upper, self.best_column = upper, y
                self.best_column_set = list(self.column_set)
            record = IterationRecord(
                iteration=self.iteration,
                row_strategies=len(self.row_set),
                column_strategies=len(self.column_set),
                lower=self._to_payoff(self.best_lower),
                upper=self._to_payoff(self.best_upper),
                seconds=time.perf_counter() - self.started,
            )
            yield record
            if record.gap <= tolerance:
                return
            if deadline is not None and time.perf_counter() >= deadline:
                return
            self._prune(x, y)
            new_rows = self._pick(row_values, self.row_set, self.lp_value)
            for index in new_rows:
                self._add_row(index)
                if self.symmetric:
                    self._add_column(index)
            new_columns: list[int] = []
            if not self.symmetric:
                new_columns = self._pick(column_values, self.column_set, -self.lp_value)
                for index in new_columns:
                    self._add_column(index)
            if not new_rows and not new_columns:
                return  # numerically converged: nothing new to add

    def _prune(self, x: np.ndarray, y: np.ndarray) -> None:
        """Drop restricted strategies unused lately, when they outnumber the support.

        The linear program's cost grows with its size, and on degenerate
        games (the win payoff) most strategies once added stay unused.  A
        dropped strategy that becomes useful again is re-added by a best
        response, and is never dropped again: each strategy leaves at most
        once, so the iteration cannot cycle.  The certificate never depends
        on the restricted set.
        """
        self._recent_rows.append({self.row_set[i] for i in np.flatnonzero(x > 1e-12)})
        self._recent_columns.append({self.column_set[j] for j in np.flatnonzero(y > 1e-12)})
        del self._recent_rows[:-_PRUNE_MEMORY], self._recent_columns[:-_PRUNE_MEMORY]
        if len(self.row_set) + len(self.column_set) < 2 * _PRUNE_FROM:
            return
        fresh = 2 * self.per_iteration  # the latest additions stay regardless
        used_rows = set().union(*self._recent_rows) | self._dropped_rows
        rows = [
            i
            for k, i in enumerate(self.row_set)
            if i in used_rows or k >= len(self.row_set) - fresh
        ]
        if self.symmetric:
            columns = list(rows)
        else:
            used_columns = set().union(*self._recent_columns) | self._dropped_columns
            columns = [
                j
                for k, j in enumerate(self.column_set)
                if j in used_columns or k >= len(self.column_set) - fresh
            ]
        if 4 * (len(rows) + len(columns)) > 3 * (len(self.row_set) + len(self.column_set)):
            return  # too little to gain
        self._dropped_rows |= set(self.row_set) - set(rows)
        self._dropped_columns |= set(self.column_set) - set(columns)
        keep_columns = [self.column_set.index(j) for j in columns]
        keep_rows = [self.row_set.index(i) for i in rows]
        self.against_columns = [self.against_columns[k] for k in keep_columns]
        if not self.symmetric:
            self.against_rows = [self.against_rows[k] for k in keep_rows]
        self.row_set, self.column_set = rows, columns
        self.lp.restrict(keep_rows, keep_columns)

    def _mixture(self, player: _Player, support: list[int], probabilities: np.ndarray) -> Mixture:
        keep = np.flatnonzero(probabilities > 1e-12)
        probs = probabilities[keep] / probabilities[keep].sum()
        arrangements = tuple(
            player.front.arrangement(int(player.profile[support[i]]), player.order[support[i]])
            for i in keep
        )
        return Mixture(arrangements, tuple(float(p) for p in probs))

    def result(self, tolerance: float = 1e-9) -> EquilibriumResult:
        """The best strategies found and their certificate."""
        # A symmetric game's value is 0 exactly; otherwise the restricted value, clipped.
        value = 0.0 if self.symmetric else min(max(self.lp_value, self.best_lower), self.best_upper)
        lower, upper = self._to_payoff(self.best_lower), self._to_payoff(self.best_upper)
        row = self._mixture(self.rows, self.best_row_set, self.best_row)
        if self.symmetric:
            column = row
        else:
            column = self._mixture(self.columns, self.best_column_set, self.best_column)
        return EquilibriumResult(
            payoff=self.payoff,
            rules=self.rules,
            row=row,
            column=column,
            value=self._to_payoff(value),
            lower=lower,
            upper=upper,
            iterations=self.iteration,
            seconds=time.perf_counter() - self.started,
            frontier_sizes=(self.rows.size, self.columns.size),
            history=(),
            converged=upper - lower <= tolerance,
        )


def solve(
    first: Iterable[int],
    second: Iterable[int],
    rules: Rules | None = None,
    payoff: Payoff | str = Payoff.MARGIN,
    *,
    tolerance: float = 1e-9,
    time_limit: float | None = None,
    warm_simplex: bool | None = None,
) -> EquilibriumResult:
    """An equilibrium of the deal where player 1 holds ``first`` and player 2 ``second``.

    ``warm_simplex`` chooses the restricted games' solver (see :class:`DoubleOracle`).

    >>> solve(range(25), range(25), payoff="points")
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: payoff 'points' is not margin or win
    """
    oracle = DoubleOracle(first, second, rules, payoff, warm_simplex=warm_simplex)
    history = tuple(oracle.iterations(tolerance=tolerance, time_limit=time_limit))
    return replace(oracle.result(tolerance), history=history)
