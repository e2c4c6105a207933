"""The vertex of a value program recomputed from its structure alone (no input value).

A point ``(x, v)`` of ``{x in simplex, payoff^T x >= v}`` that a linear
program returned is a vertex: its support ``S`` (``x`` above
:attr:`~solver.lp.options.LPOptions.support`) and tight set ``B`` (slack at
most :attr:`~solver.lp.options.LPOptions.tight`) determine it, as the solution of
``[A_SB^T, -1; 1^T, 0] (x_S, v) = (0, 1)``.  Solving that system, with the
strategies in a fixed (canonical) order, gives numbers that depend on the
vertex only, not on the path that found it: what makes the canonical
equilibrium the same to rounding on every solver path
(:mod:`solver.equilibria.canonical`).

>>> payoff = np.array([[1.0, -1.0], [-1.0, 1.0]])
>>> structural_vertex(payoff, np.array([0.5 + 1e-13, 0.5 - 1e-13]), 0.0).round(12).tolist()
[0.5, 0.5]
>>> structural_vertex(payoff, np.array([1.0, 0.0]), 0.0) is None  # not a point of the face
True
"""

from __future__ import annotations

import numpy as np

from solver.lp.options import DEFAULT_OPTIONS, LPOptions

__all__ = ["structural_vertex"]


def _least_squares(system: np.ndarray, target: np.ndarray, rank: float) -> np.ndarray | None:
    """The least-squares solution of a system of full column rank (Householder QR), else None.

    QR, not the SVD of ``numpy.linalg.lstsq``: far quicker on these systems
    of hundreds of rows.  A rank QR does not reveal shows as a large
    residual, which the caller checks; ``rank`` is the least QR pivot
    (relative to the largest) of a system of full rank.
    """
    rows, columns = system.shape
    if rows < columns:
        return None
    q, r = np.linalg.qr(system)
    diagonal = np.abs(np.diag(r))
    if not diagonal.min() > rank * diagonal.max():  # also NaN
        return None
    return np.linalg.solve(r, q.T @ target)


def structural_vertex(
    payoff: np.ndarray, x: np.ndarray, value: float, options: LPOptions = DEFAULT_OPTIONS
) -> np.ndarray | None:
    """The vertex ``(x, v)`` of the value program that ``x`` approximates, from its structure.

    Support ``S`` (``x`` above ``options.support``), tight set ``B`` (slack at
    most ``options.tight``), and ``[A_SB^T, -1; 1^T, 0] (x_S, v) = (0, 1)``
    solved by least squares: no input value.  None unless the system has full
    column rank, is consistent, and its solution is feasible and holds
    ``value`` (to ``options.rounding``; payoffs of up to 25 points meet a few
    1e-14).
    """
    support = np.flatnonzero(x > options.support)
    binding = np.flatnonzero(x @ payoff - value <= options.tight)
    system = np.zeros((binding.shape[0] + 1, support.shape[0] + 1))
    system[:-1, :-1] = payoff[np.ix_(support, binding)].T
    system[:-1, -1] = -1.0
    system[-1, :-1] = 1.0
    target = np.zeros(system.shape[0])
    target[-1] = 1.0
    solution = _least_squares(system, target, options.rank)
    if solution is None:
        return None
    exact = np.zeros(payoff.shape[0])
    exact[support], held = solution[:-1], float(solution[-1])
    if (
        np.abs(system @ solution - target).max() > options.rounding
        or exact.min() < -options.rounding
        or (exact @ payoff).min() < held - options.rounding
        or abs(held - value) > options.rounding
    ):
        return None
    return exact
