"""What double oracle asks of a game (:class:`PayoffOracle`), and the simplest answer.

A payoff oracle knows a zero-sum game whose strategies are integer ids:
the row player's payoffs ``u(a, b)`` between given strategies, and each
side's best responses to a mixed strategy of the other
(:class:`BestResponses`).  :mod:`solver.equilibria.double_oracle` solves any
game so given; :class:`MatrixOracle` gives a game by its whole payoff
matrix (small games, tests), :class:`solver.equilibria.frontier_game.FrontierGame`
a Quintet deal.

>>> game = MatrixOracle(np.array([[1.0, -1.0], [-1.0, 1.0]]))
>>> game.best_rows([0], np.ones(1)).value
1.0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from solver.errors import SolverError

__all__ = ["BestResponses", "MatrixOracle", "PayoffOracle"]


@dataclass(frozen=True)
class BestResponses:
    """A side's values against a mixed strategy of the other side: its best responses.

    Values are the side's payoffs: ``u`` for rows, ``-u`` for columns.

    Attributes
    ----------
    values
        The values of the candidate strategies; their maximum is the best
        value over *all* the side's strategies.
    strategies
        The candidates' ids, or None when ``values`` covers every strategy
        (``values[s]`` is strategy ``s``'s).

    >>> responses = BestResponses(np.array([1.0, 3.0, 2.0]))
    >>> responses.value, responses.best(2)[0].tolist()
    (3.0, [1, 2])
    >>> BestResponses(np.array([]))
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: best responses need at least one value
    """

    values: np.ndarray
    strategies: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.values.shape[0] == 0:
            raise SolverError("best responses need at least one value")

    @property
    def value(self) -> float:
        """The best value."""
        return float(self.values.max())

    def best(self, count: int) -> tuple[np.ndarray, np.ndarray]:
        """The ``count`` best candidates (or all, if fewer) and their values, best first.

        Ties keep a fixed order (that of :func:`numpy.argpartition`).
        """
        count = min(self.values.shape[0], count)
        top = np.argpartition(-self.values, count - 1)[:count]
        order = top[np.argsort(-self.values[top], kind="stable")]
        ids = order if self.strategies is None else self.strategies[order]
        return ids, self.values[order]


class PayoffOracle(Protocol):
    """What double oracle needs to know about a game.

    Strategies are integer ids.  Payoffs are the row player's ``u(a, b)``.

    Attributes
    ----------
    symmetric
        ``u(a, b) = -u(b, a)`` over one strategy set: only rows are asked.
    baseline
        The most frequent payoff (the linear program stores it as zero).
    lowest
        A lower bound on every payoff, or None.
    """

    symmetric: bool
    baseline: float
    lowest: float | None

    @property
    def sizes(self) -> tuple[int, int]:
        """How many row and column strategies there are (ids ``0 .. n - 1``)."""
        ...

    def initial(self) -> tuple[int, int]:
        """A first row and a first column strategy."""
        ...

    def row_payoffs(self, row: int, columns: Sequence[int]) -> np.ndarray:
        """``u(row, b)`` for each ``b`` in ``columns`` (a new row of the restricted game)."""
        ...

    def column_payoffs(self, rows: Sequence[int], column: int) -> np.ndarray:
        """``u(a, column)`` for each ``a`` in ``rows`` (a new column)."""
        ...

    def best_rows(
        self, columns: Sequence[int], mixed: np.ndarray, above: np.ndarray | None = None
    ) -> BestResponses:
        """Values ``u(a, y)`` of the row strategies ``a``, ``y = mixed`` over ``columns``.

        The candidates include at least the best; with ``above`` (one
        threshold per row strategy), also every strategy ``a`` whose value
        exceeds ``above[a]``, each exactly (the canonical selection's pricing
        needs them all, the double oracle only the best).
        """
        ...

    def best_columns(
        self, rows: Sequence[int], mixed: np.ndarray, above: np.ndarray | None = None
    ) -> BestResponses:
        """Values ``-u(x, b)`` of the column strategies ``b``, ``x = mixed`` over ``rows``.

        ``above`` as for :meth:`best_rows`, per column strategy.
        """
        ...

    def prepare(self, rows: Sequence[int], columns: Sequence[int]) -> None:
        """The strategies about to join the restricted sets (their data may be computed at once)."""
        ...

    def discard(self, rows: Sequence[int], columns: Sequence[int]) -> None:
        """The strategies left the restricted sets (cached data may go)."""
        ...


class MatrixOracle:
    """The oracle of a game given by its whole payoff matrix (small games, tests).

    Starts from row 0 and column 0.  ``symmetric`` games must have
    ``payoff = -payoff.T``.

    >>> MatrixOracle(np.zeros((2, 3)), symmetric=True)
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: a symmetric game needs a square matrix with payoff = -payoff.T
    """

    def __init__(self, payoff: np.ndarray, symmetric: bool = False) -> None:
        self.payoff = np.asarray(payoff, dtype=np.float64)
        if self.payoff.ndim != 2 or 0 in self.payoff.shape:
            raise SolverError(
                f"a matrix game needs at least one row and one column, got shape {self.payoff.shape}"
            )
        square = self.payoff.shape[0] == self.payoff.shape[1]
        if symmetric and not (square and np.array_equal(self.payoff, -self.payoff.T)):
            raise SolverError("a symmetric game needs a square matrix with payoff = -payoff.T")
        self.symmetric = symmetric
        self.baseline = 0.0
        self.lowest: float | None = float(self.payoff.min())

    @property
    def sizes(self) -> tuple[int, int]:
        return int(self.payoff.shape[0]), int(self.payoff.shape[1])

    def initial(self) -> tuple[int, int]:
        return 0, 0

    def row_payoffs(self, row: int, columns: Sequence[int]) -> np.ndarray:
        return self.payoff[row, list(columns)]

    def column_payoffs(self, rows: Sequence[int], column: int) -> np.ndarray:
        return self.payoff[list(rows), column]

    def best_rows(
        self, columns: Sequence[int], mixed: np.ndarray, above: np.ndarray | None = None
    ) -> BestResponses:
        # Every value is exact: ``above`` asks for nothing more.
        return BestResponses(self.payoff[:, list(columns)] @ mixed)

    def best_columns(
        self, rows: Sequence[int], mixed: np.ndarray, above: np.ndarray | None = None
    ) -> BestResponses:
        return BestResponses(-(mixed @ self.payoff[list(rows)]))

    def prepare(self, rows: Sequence[int], columns: Sequence[int]) -> None:
        pass

    def discard(self, rows: Sequence[int], columns: Sequence[int]) -> None:
        pass
