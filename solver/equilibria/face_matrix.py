"""The payoffs between a face search's growing row and column sets, asked of the oracle.

The canonical strategy's search (:mod:`solver.equilibria.canonical`) adds up
to fifty strategies per side and round; each round's are asked together (the
win oracle computes its outcome columns several per pass over the frontier,
:meth:`~solver.equilibria.frontier_game.FrontierGame.prepare`) and joined in
one copy of the matrix, not one per strategy.

>>> from solver.equilibria.double_oracle import MatrixOracle
>>> matrix = FaceMatrix(MatrixOracle(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])))
>>> matrix.add([1], [2, 0])
>>> matrix.add([0, 1], [1])
>>> matrix.rows, matrix.columns, matrix.payoff.tolist()
([1, 0], [2, 0, 1], [[6.0, 4.0, 5.0], [3.0, 1.0, 2.0]])
>>> matrix.add([2], [])
Traceback (most recent call last):
    ...
IndexError: index 2 is out of bounds for axis 0 with size 2
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from solver.equilibria.payoff_oracle import PayoffOracle

__all__ = ["FaceMatrix"]


class FaceMatrix:
    """The payoffs ``u`` (the row player's) between growing row and column sets."""

    def __init__(self, oracle: PayoffOracle) -> None:
        self.oracle = oracle
        self.rows: list[int] = []
        self.columns: list[int] = []
        self.payoff = np.zeros((0, 0))
        self._cached: set[int] = set()

    def _cache(self, strategies: Sequence[int]) -> None:
        # A symmetric oracle answers best responses over strategies it has
        # seen as columns: every strategy of either set is made one.
        if self.oracle.symmetric:
            for strategy in strategies:
                if strategy not in self._cached:
                    self.oracle.column_payoffs([], strategy)
                    self._cached.add(strategy)

    def add(self, rows: Sequence[int], columns: Sequence[int]) -> None:
        """Add the new ``rows`` and ``columns`` (the ones already in are skipped).

        The new columns against the old rows, then the new rows against
        every column.
        """
        present_rows, present_columns = set(self.rows), set(self.columns)
        new_columns = [j for j in dict.fromkeys(columns) if j not in present_columns]
        new_rows = [i for i in dict.fromkeys(rows) if i not in present_rows]
        if not new_rows and not new_columns:
            return
        self.oracle.prepare(new_rows, new_columns)
        self._cache([*new_columns, *new_rows])
        if new_columns:
            found = [self.oracle.column_payoffs(self.rows, j) for j in new_columns]
            block = np.asarray(found, np.float64).reshape(len(new_columns), len(self.rows))
            self.payoff = np.hstack([self.payoff, block.T])
            self.columns.extend(new_columns)
        if new_rows:
            found = [self.oracle.row_payoffs(i, self.columns) for i in new_rows]
            block = np.asarray(found, np.float64).reshape(len(new_rows), len(self.columns))
            self.payoff = np.vstack([self.payoff, block])
            self.rows.extend(new_rows)
