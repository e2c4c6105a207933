"""Where a graded arrangement loses its points: by position, by combination laid.

Let ``y`` be the opponent's equilibrium strategy and ``x`` the row player's.
The expected margin of arrangement ``a`` at position ``k`` against ``y`` is

    u_k(a) = w_k * sum_j y_j * sign(s_k(a) - s_k(b_j))

(``w_k`` the position's points), and ``u(a) = sum_k u_k(a)``.  The game
value is ``v = sum_i x_i u(a_i)``, so the equilibrium loss splits exactly by
position:

    loss_k = sum_i x_i u_k(a_i) - u_k(a),     sum_k loss_k = v - u(a).

A part may be negative (a position won more often than equilibrium play wins
it, paid for elsewhere).  When the grade reports no certified loss (within
the solver's gap) every part is 0, so the parts always add up to the grade's
loss.

Also per position: how often ``a`` concedes it against ``y``, how often the
equilibrium concedes it (``x`` against ``y``), the combination ``a`` lays
there and the combinations ``x`` lays there.

>>> from solver.game.deal import deal
>>> from solver.game.rules import Rules
>>> from solver.analysis.grade import grade
>>> from solver.models.heuristics import greedy_arrangement
>>> rules = Rules(position_points=(6, 7))
>>> mine, theirs = deal(4, rules).holdings
>>> g = grade(greedy_arrangement(mine, rules), theirs, rules)
>>> parts = breakdown(g)
>>> bool(abs(sum(parts.position_loss) - g.equilibrium_loss) < 1e-9)
True
>>> mean_interval([])
Traceback (most recent call last):
    ...
solver.errors.SolverError: values must not be empty
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from solver.analysis.grade import EquilibriumGrade, Grade
from solver.errors import SolverError
from solver.game.evaluator import category, strength
from solver.game.rules import Category

__all__ = ["Breakdown", "Interval", "breakdown", "mean_interval"]

Z95 = 1.959963984540054  # the normal distribution's 97.5% quantile


@dataclass(frozen=True)
class Breakdown:
    """A grade split by position (see the module docstring); tuples indexed by position."""

    position_loss: tuple[float, ...]
    concede: tuple[float, ...]
    equilibrium_concede: tuple[float, ...]
    laid: tuple[Category, ...]
    equilibrium_laid: tuple[dict[Category, float], ...]


def _profiles(cards: np.ndarray, grade: Grade | EquilibriumGrade) -> np.ndarray:
    return np.asarray(strength(cards, grade.rules), dtype=np.int64)


def breakdown(grade: Grade | EquilibriumGrade) -> Breakdown:
    """The :class:`Breakdown` of ``grade`` (its margin equilibrium's strategies); a
    :class:`~solver.analysis.grade.EquilibriumGrade` has all it needs."""
    rules, equilibrium = grade.rules, grade.equilibrium
    n = rules.n_packets
    row = np.array([a.array() for a in equilibrium.row.arrangements]).reshape(-1, n, 5)
    column = np.array([a.array() for a in equilibrium.column.arrangements]).reshape(-1, n, 5)
    x = np.asarray(equilibrium.row.probabilities, dtype=np.float64)
    y = np.asarray(equilibrium.column.probabilities, dtype=np.float64)
    ours, theirs = _profiles(row, grade), _profiles(column, grade)
    mine = np.asarray(grade.arrangement.strengths(rules), dtype=np.int64)
    weights = np.asarray(rules.position_points, dtype=np.float64)
    signs = np.sign(mine[None, :] - theirs)  # (l, n)
    u_mine = weights * (y @ signs)
    eq_signs = np.sign(ours[:, None, :] - theirs[None, :, :])  # (k, l, n)
    u_eq = weights * np.einsum("k,l,kln->n", x, y, eq_signs)
    parts = u_eq - u_mine
    if grade.equilibrium_loss == 0.0:
        parts = np.zeros(n)
    concede = y @ (mine[None, :] < theirs)
    eq_concede = np.einsum("k,l,kln->n", x, y, ours[:, None, :] < theirs[None, :, :])
    kinds = category(row, rules)  # (k, n)
    laid = category(grade.arrangement.array(), rules)
    shares = []
    for position in range(n):
        counts = np.bincount(kinds[:, position], weights=x, minlength=len(Category))
        shares.append({Category(c): float(p) for c, p in enumerate(counts) if p > 0})
    return Breakdown(
        position_loss=tuple(float(p) for p in parts),
        concede=tuple(float(c) for c in concede),
        equilibrium_concede=tuple(float(c) for c in eq_concede),
        laid=tuple(Category(int(c)) for c in laid),
        equilibrium_laid=tuple(shares),
    )


@dataclass(frozen=True)
class Interval:
    """A mean and its 95% interval (normal approximation; the mean alone for one value)."""

    mean: float
    low: float
    high: float
    n: int


def mean_interval(values: Sequence[float]) -> Interval:
    """The mean of ``values`` with a 95% interval, ``mean +- 1.96 s / sqrt(n)``.

    >>> i = mean_interval([1.0, 2.0, 3.0])
    >>> round(i.mean, 3), round(i.low, 3), round(i.high, 3)
    (2.0, 0.868, 3.132)
    """
    if len(values) == 0:
        raise SolverError("values must not be empty", argument="values")
    array = np.asarray(values, dtype=np.float64)
    mean = float(array.mean())
    if len(array) < 2:
        return Interval(mean, mean, mean, 1)
    half = Z95 * float(array.std(ddof=1)) / math.sqrt(len(array))
    return Interval(mean, mean - half, mean + half, len(array))
