"""Regret matching+: quick approximate equilibria of matrix games, for double oracle's first phase.

On a zero-sum matrix game ``A`` (payoff ``x^T A y`` to rows), regret
matching+ (Tammelin 2014) plays ``x_t`` proportional to the rows'
cumulative regrets, clipped at zero::

    R_{t+1} = max(0, R_t + A y_t - (x_t^T A y_t) 1),   x_{t+1} = R_{t+1} / sum(R_{t+1}),

and likewise for the columns with ``-A^T``.  The averages of the iterates
weighted by ``t`` converge to an equilibrium, fast at first: a few hundred
iterations (each two matrix-vector products) give strategies within about
a hundredth of the value on the restricted win games of a deal, where an
exact linear program of the same size costs thousands of simplex pivots.

In a symmetric game (``A = -A^T``, one strategy set) the rows play against
themselves: one regret vector, ``y = x``.

Double oracle uses it as a **warm-up** (:class:`WarmUp`): while the
restricted games are solved only approximately, the best responses still
certify valid bounds (the bounds hold for *any* pair of mixed strategies),
and the restricted sets grow towards the equilibrium's support at a small
cost; once the certified gap is small, the strategies the averages use
start the exact phase.  Regrets persist as the game grows (new strategies
start at zero), so each restricted game starts from the last one's state.

>>> rps = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])
>>> matching = RegretMatching(symmetric=True)
>>> matching.grow(3, 3)
>>> x, y = matching.solve(rps, iterations=2000)
>>> bool(np.abs(x - 1 / 3).max() < 0.01), bool((x == y).all())
(True, True)
>>> WarmUp(gap=0.1, iterations=0)
Traceback (most recent call last):
    ...
solver.errors.SolverError: a warm-up needs at least one iteration per restricted game, got 0
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.errors import SolverError

__all__ = ["RegretMatching", "WarmUp"]


@dataclass(frozen=True)
class WarmUp:
    """Double oracle's approximate first phase (see the module docstring).

    Attributes
    ----------
    gap
        The exact phase starts once the certified gap is at most this (in
        the oracle's payoff units).
    iterations
        Regret-matching iterations per restricted game.
    keep
        At the switch, the strategies kept are those whose average
        probability is at least ``keep`` divided by the size of the set.
    """

    gap: float
    iterations: int = 500
    keep: float = 0.5

    def __post_init__(self) -> None:
        if self.iterations < 1:
            raise SolverError(
                f"a warm-up needs at least one iteration per restricted game, got {self.iterations}"
            )
        if not self.gap >= 0 or not self.keep >= 0:
            raise SolverError(
                f"a warm-up's gap and keep must be non-negative, got {self.gap}, {self.keep}"
            )


def _play(regrets: np.ndarray) -> np.ndarray:
    """The strategy proportional to the positive regrets (uniform if none)."""
    total = regrets.sum()
    if total > 0:
        return regrets / total
    return np.full(regrets.shape[0], 1.0 / regrets.shape[0])


class RegretMatching:
    """Regret matching+ on a game that grows between solves.

    Parameters
    ----------
    symmetric
        One strategy set playing against itself (``A = -A^T``).
    """

    def __init__(self, symmetric: bool) -> None:
        self.symmetric = symmetric
        self.row_regrets = np.zeros(0)
        self.column_regrets = np.zeros(0)

    def grow(self, rows: int, columns: int) -> None:
        """New strategies (up to ``rows`` and ``columns``) start with no regret."""
        self.row_regrets = np.pad(self.row_regrets, (0, rows - self.row_regrets.shape[0]))
        self.column_regrets = np.pad(
            self.column_regrets, (0, columns - self.column_regrets.shape[0])
        )

    def solve(self, payoff: np.ndarray, iterations: int) -> tuple[np.ndarray, np.ndarray]:
        """``iterations`` more rounds on ``payoff``; the ``t``-weighted average strategies."""
        rows, columns = payoff.shape
        if (rows, columns) != (self.row_regrets.shape[0], self.column_regrets.shape[0]):
            raise SolverError(
                f"the game is {rows} x {columns} but the regrets are for "
                f"{self.row_regrets.shape[0]} x {self.column_regrets.shape[0]}"
            )
        row_average, column_average = np.zeros(rows), np.zeros(columns)
        x, y = _play(self.row_regrets), _play(self.column_regrets)
        for t in range(1, iterations + 1):
            row_values = payoff @ y
            self.row_regrets = np.maximum(self.row_regrets + row_values - x @ row_values, 0.0)
            if self.symmetric:
                x = y = _play(self.row_regrets)
            else:
                column_values = -(x @ payoff)
                self.column_regrets = np.maximum(
                    self.column_regrets + column_values - y @ column_values, 0.0
                )
                x, y = _play(self.row_regrets), _play(self.column_regrets)
            row_average += t * x
            column_average += t * y
        row_average /= row_average.sum()
        if self.symmetric:
            return row_average, row_average
        return row_average, column_average / column_average.sum()
