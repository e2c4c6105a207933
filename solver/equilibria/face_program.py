"""The optimal face's linear program, built from arrays (OR-Tools ``MPModelProto``).

One builder for every program over a player's optimal face: the canonical
strategy's least-cost searches (:mod:`solver.equilibria.canonical`) and,
through them, the probability ranges (:mod:`solver.equilibria.optimal_ranges`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from solver.errors import SolverError

__all__ = ["face_model"]


def face_model(
    payoff: np.ndarray,
    value: float,
    cost: np.ndarray | None = None,
    weight: float | None = None,
) -> Any:
    """The optimal face's linear program as an OR-Tools ``MPModelProto``, built from arrays.

    Variables ``x`` in ``[0, 1]``, one per row of ``payoff``, objective
    coefficients ``cost`` (default none); constraints ``sum(x) = 1`` (the
    first), then one per column ``j``: ``payoff[:, j] . x >= value``.  With
    ``weight``, a last variable ``v`` (within the payoffs' range, objective
    ``-weight``) takes the value's place: ``payoff[:, j] . x - v >= 0``.
    Built from arrays because the modelling API's expressions cost many times
    the solve (profiled: 19 of 24 s on mirror margin deal 4).

    >>> model = face_model(np.array([[1.0, 0.0], [0.0, 1.0]]), 0.5)
    >>> len(model.variable), len(model.constraint), model.constraint[1].lower_bound
    (2, 3, 0.5)
    >>> face_model(np.zeros((0, 2)), 0.5)
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: a face needs a payoff matrix with rows and columns, got shape (0, 2)
    """
    from ortools.linear_solver import linear_solver_pb2

    payoff = np.asarray(payoff, dtype=np.float64)
    if payoff.ndim != 2 or 0 in payoff.shape:
        raise SolverError(
            f"a face needs a payoff matrix with rows and columns, got shape {payoff.shape}"
        )
    model, n = linear_solver_pb2.MPModelProto(), payoff.shape[0]
    for h in (np.zeros(n) if cost is None else cost).tolist():
        x = model.variable.add()
        x.lower_bound, x.upper_bound, x.objective_coefficient = 0.0, 1.0, h
    if weight is not None:
        v = model.variable.add()
        v.lower_bound, v.upper_bound = float(payoff.min()) - 1.0, float(payoff.max()) + 1.0
        v.objective_coefficient = -float(weight)
    total = model.constraint.add()
    total.lower_bound = total.upper_bound = 1.0
    total.var_index.extend(range(n))
    total.coefficient.extend([1.0] * n)
    lower = 0.0 if weight is not None else float(value)
    for column in payoff.T:
        constraint = model.constraint.add()
        constraint.lower_bound, constraint.upper_bound = lower, np.inf
        nonzero = np.flatnonzero(column)
        constraint.var_index.extend(nonzero.tolist())
        constraint.coefficient.extend(column[nonzero].tolist())
        if weight is not None:
            constraint.var_index.append(n)
            constraint.coefficient.append(-1.0)
    return model
