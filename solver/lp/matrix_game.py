"""Zero-sum matrix games, solved by linear programming (OR-Tools GLOP, or warm simplex).

The row player picks a mixed strategy ``x`` to maximize the worst case
``min_j (x^T A)_j``; as a linear program::

    maximize v   subject to   sum_i A[i, j] x_i - v >= 0   for every column j,
                              sum_i x_i = 1,  x >= 0.

The column player's equilibrium strategy ``y`` is the dual of the column
constraints.  Any pair of strategies certifies bounds on the game value:
``min_j (x^T A)_j <= value <= max_i (A y)_i``; the gap between them is what
either player could gain by deviating.

:class:`MatrixGameLP` keeps the matrix between solves and grows it a row
or a column at a time, as the double oracle (:mod:`solver.equilibria.double_oracle`)
needs, optionally re-optimizing from the last basis with the warm simplex of
:mod:`solver.lp.simplex`; :func:`solve_matrix_game` solves a whole matrix at
once with GLOP.

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
from functools import lru_cache
from typing import Any

import numpy as np

from solver.errors import SimplexError, SolverError
from solver.lp.options import DEFAULT_OPTIONS, LPOptions
from solver.lp.simplex import WarmSimplex

__all__ = [
    "MatrixGameLP",
    "MatrixGameSolution",
    "glop_parameters",
    "one_blas_thread",
    "solve_matrix_game",
]


def glop_parameters(options: LPOptions = DEFAULT_OPTIONS) -> tuple[str, ...]:
    """GLOP's settings, tried in turn until one solves the program.

    Tight tolerances first (equilibria are certified to 1e-9 by default);
    rarely they make GLOP give up on a degenerate game, and looser ones follow.

    >>> glop_parameters()[0]
    'primal_feasibility_tolerance:1e-12 dual_feasibility_tolerance:1e-12'
    >>> glop_parameters(LPOptions(glop_feasibility=-1.0))
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: glop_feasibility must be a positive finite number, got -1.0
    """
    tight = options.glop_feasibility
    return (
        f"primal_feasibility_tolerance:{tight:g} dual_feasibility_tolerance:{tight:g}",
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


def _request(matrix: np.ndarray, parameters: str) -> Any:
    """The row player's program for ``matrix`` as a GLOP request.

    Variables ``x_0 .. x_{m-1}`` and ``v`` (last); constraint 0 is
    ``sum x = 1``, constraint ``1 + j`` is column ``j``'s.  Zero payoffs are
    not stored.
    """
    from ortools.linear_solver import linear_solver_pb2

    m = matrix.shape[0]
    request = linear_solver_pb2.MPModelRequest()
    request.solver_type = linear_solver_pb2.MPModelRequest.GLOP_LINEAR_PROGRAMMING
    request.solver_specific_parameters = parameters
    model = request.model
    model.maximize = True
    for _ in range(m):
        x = model.variable.add()
        x.lower_bound, x.upper_bound = 0.0, 1.0
    value = model.variable.add()
    value.lower_bound, value.upper_bound = -np.inf, np.inf
    value.objective_coefficient = 1.0
    # The probabilities sum to one.
    total = model.constraint.add()
    total.lower_bound = total.upper_bound = 1.0
    total.var_index.extend(range(m))
    total.coefficient.extend([1.0] * m)
    # Against every column, the row player's expected payoff is at least v.
    for column in matrix.T:
        constraint = model.constraint.add()
        constraint.lower_bound, constraint.upper_bound = 0.0, np.inf
        nonzero = np.flatnonzero(column)
        constraint.var_index.extend([*nonzero.tolist(), m])
        constraint.coefficient.extend([*column[nonzero].tolist(), -1.0])
    return request


def _solve_lp(
    matrix: np.ndarray, baseline: float = 0.0, options: LPOptions = DEFAULT_OPTIONS
) -> MatrixGameSolution:
    """Solve the game ``matrix`` (at least 1 x 1) by one GLOP program.

    The program sees ``matrix - baseline``: adding a constant to every payoff
    moves the value by it and leaves the strategies alone, and payoffs equal
    to ``baseline`` become zeros the program does not store.
    """
    from ortools.linear_solver import linear_solver_pb2, pywraplp

    m = matrix.shape[0]
    for parameters in glop_parameters(options):
        response = linear_solver_pb2.MPSolutionResponse()
        pywraplp.Solver.SolveWithProto(_request(matrix - baseline, parameters), response)
        if response.status == linear_solver_pb2.MPSOLVER_OPTIMAL:
            break
    else:
        raise SolverError(f"the linear program was not solved (status {response.status})")
    values = np.asarray(response.variable_value)
    row = _normalized(values[:m])
    column = _normalized(-np.asarray(response.dual_value)[1:])
    return MatrixGameSolution(
        row=row,
        column=column,
        value=float(values[m]) + baseline + 0.0,  # no negative zero
        lower=float((row @ matrix).min()),
        upper=float((matrix @ column).max()),
    )


class MatrixGameLP:
    """A matrix game grown (or pruned) between solves, and solved on demand.

    The double oracle adds rows and columns between solves.  Two engines:

    * ``warm=False``: each :meth:`solve` builds a GLOP program afresh from
      the numpy matrix, one constraint per column with its non-zero payoffs
      (GLOP cannot warm-start a program that gained both variables and
      constraints).
    * ``warm=True``: a :class:`solver.lp.simplex.WarmSimplex` keeps the last
      optimal basis and re-optimizes from it, which pays off on large,
      degenerate games (the win payoff's) whose solves from scratch dominate.
      Its answer is used only if the bounds its strategies certify on the
      matrix agree to :attr:`LPOptions.warm_gap <solver.lp.options.LPOptions.warm_gap>`; otherwise (and whenever it gives up)
      GLOP solves the game, :attr:`fallbacks` counts it, and the simplex
      restarts.

    Parameters
    ----------
    baseline
        The most frequent payoff, if known: GLOP stores it as zero.
    lowest
        A lower bound on every payoff to come, if known: it fixes the warm
        simplex's shift once (a payoff below it costs a restart).
    warm
        Use the warm simplex.
    options
        Tolerances (:class:`~solver.lp.options.LPOptions`).

    >>> lp = MatrixGameLP()
    >>> lp.add_column([1.0])  # a payoff for a row that does not exist yet
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: a new column needs one payoff per row (0 rows), got 1
    >>> lp.add_row([])
    >>> lp.add_column([2.0])
    >>> lp.solve().value
    2.0
    >>> warm = MatrixGameLP.from_matrix([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0]], warm=True)
    >>> warm.add_row([-1.0, 1.0, 0.0])
    >>> solution = warm.solve()
    >>> round(solution.value, 12) + 0.0, solution.gap < 1e-9, warm.fallbacks
    (0.0, True, 0)
    """

    def __init__(
        self,
        baseline: float = 0.0,
        lowest: float | None = None,
        warm: bool = False,
        options: LPOptions = DEFAULT_OPTIONS,
    ) -> None:
        self.baseline = baseline
        self.lowest = lowest
        self.warm = warm
        self.options = options
        self._storage = np.zeros((0, 0))
        self._rows = 0
        self._columns = 0
        self._simplex: WarmSimplex | None = None
        self._guess: tuple[np.ndarray, np.ndarray] | None = None  # see guess()
        self.fallbacks = 0  # solves the warm simplex handed to GLOP

    @classmethod
    def from_matrix(
        cls,
        payoff: np.ndarray | list[list[float]],
        baseline: float = 0.0,
        lowest: float | None = None,
        warm: bool = False,
        options: LPOptions = DEFAULT_OPTIONS,
    ) -> MatrixGameLP:
        """A program holding the whole matrix ``payoff`` (rows x columns)."""
        lp = cls(baseline, lowest, warm, options)
        lp._storage = np.array(payoff, dtype=np.float64, ndmin=2)
        lp._rows, lp._columns = lp._storage.shape
        return lp

    def restrict(self, rows: list[int], columns: list[int]) -> None:
        """Keep only ``rows`` and ``columns`` (positions, in their new order)."""
        kept = self._storage[np.ix_(rows, columns)]
        if self._simplex is not None:
            try:
                self._simplex.restrict(kept, np.asarray(rows), np.asarray(columns))
            except SimplexError:
                self._simplex = None
        self._storage = kept
        self._rows, self._columns = kept.shape

    def guess(self, row: np.ndarray, column: np.ndarray) -> None:
        """An approximate equilibrium of the current game, to start the next solve from.

        Used by the warm simplex if it starts afresh at that solve
        (:meth:`WarmSimplex.crash`): the strategies of probability at least
        :attr:`~solver.lp.options.LPOptions.crash_share` of uniform, as many on each side, most likely first,
        make its first basis.  A guess for a game that has grown since is
        dropped.

        >>> lp = MatrixGameLP.from_matrix([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0]], warm=True)
        >>> lp.guess(np.array([0.5, 0.5]), np.array([0.2, 0.3, 0.5]))
        >>> lp.guess(np.array([1.0]), np.array([0.2, 0.3, 0.5]))
        Traceback (most recent call last):
            ...
        solver.errors.SolverError: a guess needs non-negative weights, not all zero, for 2 x 3 strategies
        """
        row, column = np.asarray(row, dtype=np.float64), np.asarray(column, dtype=np.float64)
        if (row.shape[0], column.shape[0]) != self.shape or not all(
            (p >= 0).all() and p.sum() > 0 for p in (row, column)
        ):
            raise SolverError(
                "a guess needs non-negative weights, not all zero, "
                f"for {self._rows} x {self._columns} strategies"
            )
        self._guess = (row / row.sum(), column / column.sum())

    def _new_simplex(self, matrix: np.ndarray) -> WarmSimplex:
        """A warm simplex for ``matrix``, from the guessed basis if there is one."""
        lowest = float(matrix.min())
        if self.lowest is not None:
            lowest = min(lowest, self.lowest)
        simplex = WarmSimplex(shift=1.0 - lowest, options=self.options)
        guess, self._guess = self._guess, None
        if guess is None or (guess[0].shape[0], guess[1].shape[0]) != matrix.shape:
            return simplex
        count = min(int((p >= self.options.crash_share / p.shape[0]).sum()) for p in guess)
        rows, columns = (np.argsort(-p, kind="stable")[:count] for p in guess)
        try:
            simplex.crash(matrix, rows, columns)
        except SimplexError:  # a singular guess: from the slack basis
            return WarmSimplex(shift=1.0 - lowest, options=self.options)
        return simplex

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, columns) so far."""
        return self._rows, self._columns

    def _reserve(self, rows: int, columns: int) -> None:
        """Grow the storage (doubling) to hold ``rows`` x ``columns``."""
        have = self._storage.shape
        if rows <= have[0] and columns <= have[1]:
            return
        grown = np.zeros((max(rows, 2 * have[0]), max(columns, 2 * have[1])))
        grown[: self._rows, : self._columns] = self.matrix()
        self._storage = grown

    def add_row(self, payoffs: np.ndarray | list[float]) -> None:
        """A new row strategy, with its payoff against each existing column."""
        payoffs = np.asarray(payoffs, dtype=np.float64)
        if payoffs.shape != (self._columns,):
            raise SolverError(
                f"a new row needs one payoff per column ({self._columns} columns), "
                f"got {payoffs.shape[0] if payoffs.ndim else 0}"
            )
        self._reserve(self._rows + 1, self._columns)
        self._storage[self._rows, : self._columns] = payoffs
        self._rows += 1

    def add_column(self, payoffs: np.ndarray | list[float]) -> None:
        """A new column strategy, with the payoff of each existing row against it."""
        payoffs = np.asarray(payoffs, dtype=np.float64)
        if payoffs.shape != (self._rows,):
            raise SolverError(
                f"a new column needs one payoff per row ({self._rows} rows), "
                f"got {payoffs.shape[0] if payoffs.ndim else 0}"
            )
        self._reserve(self._rows, self._columns + 1)
        self._storage[: self._rows, self._columns] = payoffs
        self._columns += 1

    def matrix(self) -> np.ndarray:
        """The payoff matrix so far (a copy)."""
        return self._storage[: self._rows, : self._columns].copy()

    def solve(self) -> MatrixGameSolution:
        """Solve the current game."""
        if not self._rows or not self._columns:
            raise SolverError("a matrix game needs at least one row and one column")
        matrix = self._storage[: self._rows, : self._columns]
        if not self.warm:
            return _solve_lp(matrix, self.baseline, self.options)
        guessed = self._simplex is None and self._guess is not None
        if self._simplex is None:
            self._simplex = self._new_simplex(matrix)
        self._guess = None
        try:
            # One BLAS thread: the simplex's products are matrix-vector ones on a
            # few hundred rows, where OpenBLAS's threads cost more than they save.
            with one_blas_thread():
                try:
                    row, column, value = self._simplex.solve(matrix)
                except SimplexError:
                    if not guessed:
                        raise
                    # The guessed basis did not become feasible soon: from the slacks.
                    self._simplex = WarmSimplex(shift=self._simplex.shift, options=self.options)
                    row, column, value = self._simplex.solve(matrix)
        except SimplexError:
            self._simplex = None  # start afresh next time (with a new shift)
        else:
            lower, upper = float((row @ matrix).min()), float((matrix @ column).max())
            if upper - lower <= self.options.warm_gap * max(1.0, abs(value)):
                return MatrixGameSolution(row, column, value + 0.0, lower, upper)
        self.fallbacks += 1
        return _solve_lp(matrix, self.baseline, self.options)


def one_blas_thread() -> Any:
    """A context in which BLAS runs on one thread.

    Matrix-vector products on a few hundred strategies gain nothing from
    OpenBLAS's threads, which spend CPU (and, on a loaded machine, wall
    time) waiting for each other.

    >>> with one_blas_thread():
    ...     float(np.ones(3) @ np.ones(3))
    3.0
    """
    return _blas_controller().limit(limits=1, user_api="blas")


@lru_cache(maxsize=1)
def _blas_controller() -> Any:
    """The process's thread pools (found once: looking them up is slow)."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


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
    return _solve_lp(payoff)
