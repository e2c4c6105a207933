"""Zero-sum matrix games, solved by linear programming (OR-Tools GLOP).

The row player picks a mixed strategy ``x`` to maximize the worst case
``min_j (x^T A)_j``; as a linear program::

    maximize v   subject to   sum_i A[i, j] x_i - v >= 0   for every column j,
                              sum_i x_i = 1,  x >= 0.

The column player's equilibrium strategy ``y`` is the dual of the column
constraints.  Any pair of strategies certifies bounds on the game value:
``min_j (x^T A)_j <= value <= max_i (A y)_i``; the gap between them is what
either player could gain by deviating.

:class:`MatrixGameLP` keeps the program between solves and grows it a row
or a column at a time, as the double oracle (:mod:`solver.equilibrium`)
needs; :func:`solve_matrix_game` solves a whole matrix at once.

>>> rps = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
>>> sol = solve_matrix_game(rps)
>>> np.round(sol.row, 6).tolist(), round(sol.value, 9), sol.gap < 1e-9
([0.333333, 0.333333, 0.333333], 0.0, True)
>>> solve_matrix_game(np.zeros((0, 3)))
Traceback (most recent call last):
    ...
solver.errors.SolverError: a matrix game needs at least one row and one column, got shape (0, 3)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.errors import SolverError

__all__ = ["MatrixGameLP", "MatrixGameSolution", "solve_matrix_game"]

# Tight tolerances: equilibria are certified to 1e-9 by default.
_GLOP_PARAMETERS = "primal_feasibility_tolerance:1e-12 dual_feasibility_tolerance:1e-12"
_FALLBACK_PARAMETERS = (
    "primal_feasibility_tolerance:1e-10 dual_feasibility_tolerance:1e-10 use_dual_simplex:true",
    "",
)


@dataclass(frozen=True)
class MatrixGameSolution:
    """Equilibrium strategies of a matrix game and the bounds they certify.

    Attributes
    ----------
    row, column
        Mixed strategies (non-negative, summing to 1).
    value
        The linear program's value.
    lower, upper
        ``min_j (row^T A)_j`` and ``max_i (A column)_i``: the game value lies
        between them.
    """

    row: np.ndarray
    column: np.ndarray
    value: float
    lower: float
    upper: float

    @property
    def gap(self) -> float:
        """``upper - lower``: zero at an exact equilibrium."""
        return self.upper - self.lower


def _normalized(weights: np.ndarray) -> np.ndarray:
    weights = np.clip(weights, 0.0, None)
    total = weights.sum()
    if total <= 0:
        return np.full(weights.shape[0], 1.0 / weights.shape[0])
    return weights / total


class MatrixGameLP:
    """The row player's linear program, grown one row or column at a time.

    >>> lp = MatrixGameLP()
    >>> lp.add_column([1.0])  # a payoff for a row that does not exist yet
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: a new column needs one payoff per row (0 rows), got 1
    >>> lp.add_row([])
    >>> lp.add_column([2.0])
    >>> lp.solve().value
    2.0
    """

    def __init__(self, parameters: str = _GLOP_PARAMETERS) -> None:
        from ortools.linear_solver import pywraplp

        self._solver: Any = pywraplp.Solver.CreateSolver("GLOP")
        self._solver.SetSolverSpecificParametersAsString(parameters)
        self._value = self._solver.NumVar(-self._solver.infinity(), self._solver.infinity(), "v")
        self._total = self._solver.Constraint(1.0, 1.0, "sum_x")
        self._rows: list[Any] = []
        self._columns: list[Any] = []
        self._matrix: list[list[float]] = []
        self._solver.Maximize(self._value)

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, columns) so far."""
        return len(self._rows), len(self._columns)

    def add_row(self, payoffs: np.ndarray | list[float]) -> None:
        """A new row strategy, with its payoff against each existing column."""
        payoffs = np.asarray(payoffs, dtype=np.float64)
        if payoffs.shape != (len(self._columns),):
            raise SolverError(
                f"a new row needs one payoff per column ({len(self._columns)} columns), "
                f"got {payoffs.shape[0] if payoffs.ndim else 0}"
            )
        x = self._solver.NumVar(0.0, 1.0, f"x_{len(self._rows)}")
        self._total.SetCoefficient(x, 1.0)
        for constraint, payoff in zip(self._columns, payoffs, strict=True):
            if payoff:
                constraint.SetCoefficient(x, float(payoff))
        self._rows.append(x)
        self._matrix.append(payoffs.tolist())

    def add_column(self, payoffs: np.ndarray | list[float]) -> None:
        """A new column strategy, with the payoff of each existing row against it."""
        payoffs = np.asarray(payoffs, dtype=np.float64)
        if payoffs.shape != (len(self._rows),):
            raise SolverError(
                f"a new column needs one payoff per row ({len(self._rows)} rows), "
                f"got {payoffs.shape[0] if payoffs.ndim else 0}"
            )
        # Payoff of every row against this column is at least v.
        constraint = self._solver.Constraint(
            0.0, self._solver.infinity(), f"c_{len(self._columns)}"
        )
        constraint.SetCoefficient(self._value, -1.0)
        for x, payoff in zip(self._rows, payoffs, strict=True):
            if payoff:
                constraint.SetCoefficient(x, float(payoff))
        self._columns.append(constraint)
        for row, payoff in zip(self._matrix, payoffs, strict=True):
            row.append(float(payoff))

    def matrix(self) -> np.ndarray:
        """The payoff matrix so far."""
        return np.array(self._matrix, dtype=np.float64).reshape(self.shape)

    def solve(self) -> MatrixGameSolution:
        """Solve the current game."""
        from ortools.linear_solver import pywraplp

        if not self._rows or not self._columns:
            raise SolverError("a matrix game needs at least one row and one column")
        status = self._solver.Solve()
        # Rarely, the tight tolerances make GLOP give up on a degenerate game:
        # rebuild the program with other settings and carry on with it.
        for parameters in _FALLBACK_PARAMETERS:
            if status == pywraplp.Solver.OPTIMAL:
                break
            rebuilt = MatrixGameLP(parameters)
            matrix = self.matrix()
            for _ in range(matrix.shape[0]):
                rebuilt.add_row(np.zeros(0))
            for column in matrix.T:
                rebuilt.add_column(column)
            self.__dict__.update(rebuilt.__dict__)
            status = self._solver.Solve()
        if status != pywraplp.Solver.OPTIMAL:
            raise SolverError(f"the linear program was not solved (status {status})")
        row = _normalized(np.array([x.solution_value() for x in self._rows]))
        column = _normalized(-np.array([c.dual_value() for c in self._columns]))
        matrix = self.matrix()
        return MatrixGameSolution(
            row=row,
            column=column,
            value=float(self._value.solution_value()),
            lower=float((row @ matrix).min()),
            upper=float((matrix @ column).max()),
        )


def solve_matrix_game(payoff: np.ndarray) -> MatrixGameSolution:
    """Equilibrium of the zero-sum game with ``payoff[i, j]`` paid to the row player.

    Parameters
    ----------
    payoff
        ``(m, n)`` matrix, ``m, n >= 1``.

    Returns
    -------
    MatrixGameSolution
    """
    payoff = np.asarray(payoff, dtype=np.float64)
    if payoff.ndim != 2 or payoff.shape[0] == 0 or payoff.shape[1] == 0:
        raise SolverError(
            f"a matrix game needs at least one row and one column, got shape {payoff.shape}"
        )
    lp = MatrixGameLP()
    # Rows first (against no columns), then every column with its payoffs.
    for _ in range(payoff.shape[0]):
        lp.add_row(np.zeros(0))
    for j in range(payoff.shape[1]):
        lp.add_column(payoff[:, j])
    return lp.solve()
