"""The vertex of a value program recomputed from its structure alone (no input value).

A point ``(x, v)`` of ``{x in simplex, payoff^T x >= v}`` that a linear
program returned is a vertex: its support ``S`` (``x > 1e-12``) and tight
set ``B`` (slack at most 1e-9) determine it, as the solution of
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

__all__ = ["structural_vertex"]

# A constraint this close to holding with equality is tight; a probability above _ZERO is in
# the support; the vertex may miss its equations, bounds and value by _ROUNDING (payoffs of up
# to 25 points: a few 1e-14 are met).
_TIGHT = 1e-9
_ZERO = 1e-12
_ROUNDING = 1e-11
_RANK = 1e-12  # a QR pivot below this (relative to the largest) counts as rank deficient


def _least_squares(system: np.ndarray, target: np.ndarray) -> np.ndarray | None:
    """The least-squares solution of a system of full column rank (Householder QR), else None.

    QR, not the SVD of ``numpy.linalg.lstsq``: a third of the time on these
    systems of hundreds of rows (8 against 25 ms at 450, one BLAS thread).
    A rank QR does not reveal shows as a large residual, which the caller checks.
    """
    rows, columns = system.shape
    if rows < columns:
        return None
    q, r = np.linalg.qr(system)
    diagonal = np.abs(np.diag(r))
    if not diagonal.min() > _RANK * diagonal.max():  # also NaN
        return None
    return np.linalg.solve(r, q.T @ target)


def structural_vertex(payoff: np.ndarray, x: np.ndarray, value: float) -> np.ndarray | None:
    """The vertex ``(x, v)`` of the value program that ``x`` approximates, from its structure.

    Support ``S`` (``x > 0``), tight set ``B`` (slack at most :data:`_TIGHT`),
    and ``[A_SB^T, -1; 1^T, 0] (x_S, v) = (0, 1)`` solved by least squares: no
    input value.  None unless the system has full column rank, is consistent,
    and its solution is feasible and holds ``value`` (to :data:`_ROUNDING`).
    """
    support = np.flatnonzero(x > _ZERO)
    binding = np.flatnonzero(x @ payoff - value <= _TIGHT)
    system = np.zeros((binding.shape[0] + 1, support.shape[0] + 1))
    system[:-1, :-1] = payoff[np.ix_(support, binding)].T
    system[:-1, -1] = -1.0
    system[-1, :-1] = 1.0
    target = np.zeros(system.shape[0])
    target[-1] = 1.0
    solution = _least_squares(system, target)
    if solution is None:
        return None
    exact = np.zeros(payoff.shape[0])
    exact[support], held = solution[:-1], float(solution[-1])
    if (
        np.abs(system @ solution - target).max() > _ROUNDING
        or exact.min() < -_ROUNDING
        or (exact @ payoff).min() < held - _ROUNDING
        or abs(held - value) > _ROUNDING
    ):
        return None
    return exact
