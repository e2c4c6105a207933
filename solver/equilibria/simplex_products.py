"""The products of :class:`~solver.equilibria.simplex.WarmSimplex`: with its basis inverse,
kept in product form, and with its shifted constraint matrix ``[A' I]``.

The inverse is ``base - left @ right.T``: a dense ``base`` and one rank-one
term per pivot since the last folding (columns ``:updates`` of ``left`` and
``right``).  The games are small and dense, so products with it are dense
matrix-vector products.  Where a pivot needs two, they are two products, not
one of a ``(2, n)`` matrix: OpenBLAS's matrix product packs its operands
first, and on a processor of its Haswell kernels a ``(2, n) @ (n, n)`` product
took 2-4 times as long as two matrix-vector ones (n = 150 to 1,000, one
thread; on mirror win deal 4, 2.35 -> 1.72 s of CPU).  On another machine
the one product had saved 7% of a win solve.

>>> inverse = SimplexProducts()
>>> inverse._base, inverse._updates = np.array([[2.0, 0.0], [0.0, 4.0]]), 1
>>> inverse._left, inverse._right = np.array([[1.0], [0.0]]), np.array([[1.0], [0.0]])
>>> inverse._inverse().tolist(), inverse._ftran(np.array([1.0, 1.0])).tolist()
([[1.0, 0.0], [0.0, 4.0]], [1.0, 4.0])
>>> inverse._ftran(np.ones(3))  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
ValueError: matmul: Input operand 1 has a mismatch in its core dimension 0...
"""

from __future__ import annotations

import numpy as np

__all__ = ["SimplexProducts"]


class SimplexProducts:
    """Products with the basis inverse ``base - left[:, :k] @ right[:, :k].T`` (``k = updates``)
    and with ``[A' I]``, ``A' = payoff + shift``.

    The simplex owns the arrays (it sizes, updates and folds them); this
    class only multiplies.
    """

    _base: np.ndarray
    _left: np.ndarray
    _right: np.ndarray
    _updates: int
    _rows: int
    shift: float

    def _ftran(self, vector: np.ndarray) -> np.ndarray:
        """``B^-1 vector``."""
        k = self._updates
        return self._base @ vector - self._left[:, :k] @ (self._right[:, :k].T @ vector)

    def _ftran_pair(self, first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``B^-1 first`` and ``B^-1 second``."""
        return self._ftran(first), self._ftran(second)

    def _btran(self, vector: np.ndarray) -> np.ndarray:
        """``vector^T B^-1``."""
        k = self._updates
        return vector @ self._base - (vector @ self._left[:, :k]) @ self._right[:, :k].T

    def _inverse_row(self, index: int) -> np.ndarray:
        k = self._updates
        return self._base[index] - self._left[index, :k] @ self._right[:, :k].T

    def _inverse(self) -> np.ndarray:
        k = self._updates
        return self._base - self._left[:, :k] @ self._right[:, :k].T

    def _column_of(self, payoff: np.ndarray, variable: int) -> np.ndarray:
        if variable >= 0:
            return payoff[:, variable] + self.shift
        unit = np.zeros(self._rows)
        unit[-1 - variable] = 1.0
        return unit

    def _times_matrix(self, vector: np.ndarray, payoff: np.ndarray) -> np.ndarray:
        """``vector^T [A' I]``: structural entries, then slacks."""
        return np.concatenate([vector @ payoff + self.shift * vector.sum(), vector])

    def _times_matrix_pair(
        self, first: np.ndarray, second: np.ndarray, payoff: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`_times_matrix` of two vectors."""
        return self._times_matrix(first, payoff), self._times_matrix(second, payoff)
