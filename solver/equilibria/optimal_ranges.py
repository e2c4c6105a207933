"""How much an optimal strategy's probabilities may vary: ranges over a matrix game's optimal face.

A player's optimal strategies in a matrix game ``A`` (its payoffs, its
strategies by the opponent's) of value ``v`` are the polytope
``P = {x >= 0 : sum(x) = 1, A^T x >= v}``.  When ``P`` is one point the
optimal strategy is unique; otherwise strategy ``i``'s probability ranges
over ``[min_P x_i, max_P x_i]``, two linear programs (GLOP) per strategy.
The canonical strategy (:mod:`solver.equilibria.canonical`) is one point of
``P``; these ranges say how far another exact equilibrium of the same
restricted game may lie from it.

The face is taken at ``v - `` :data:`TOLERANCE` so that rounding in ``v``
cannot make it empty; the ranges are exact to about that much.

>>> a = np.array([[1.0, 1.0], [1.0, 1.0], [0.0, 2.0]])
>>> [(round(low, 6), round(high, 6)) for low, high in probability_ranges(a, 1.0, [0, 2])]
[(0.0, 1.0), (0.0, 0.0)]
>>> probability_ranges(a, 1.0, [3])
Traceback (most recent call last):
    ...
solver.errors.SolverError: strategy 3 is not one of the game's 3
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from solver.errors import SolverError

__all__ = ["TOLERANCE", "face_model", "probability_ranges"]

TOLERANCE = 1e-9
"""How far below the value the face reaches (the payoff's units)."""


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


def probability_ranges(
    payoff: np.ndarray, value: float, strategies: Sequence[int]
) -> tuple[tuple[float, float], ...]:
    """``(min, max)`` of each listed strategy's probability over the optimal face.

    Parameters
    ----------
    payoff
        The player's payoffs, its strategies by the opponent's.
    value
        The game's value to this player.
    strategies
        Row indices of ``payoff``.
    """
    payoff = np.asarray(payoff, dtype=np.float64)
    for i in strategies:
        if not 0 <= i < payoff.shape[0]:
            raise SolverError(f"strategy {i} is not one of the game's {payoff.shape[0]}")
    from ortools.linear_solver import pywraplp

    solver = pywraplp.Solver.CreateSolver("GLOP")
    if error := solver.LoadModelFromProto(face_model(payoff, value - TOLERANCE)):
        raise SolverError(f"a probability range's linear program was not built: {error}")
    x = solver.variables()
    ranges = []
    for i in strategies:
        ends = []
        for sign in (1.0, -1.0):  # minimize, then maximize
            objective = solver.Objective()
            objective.Clear()
            objective.SetCoefficient(x[i], sign)
            objective.SetMinimization()
            if solver.Solve() != solver.OPTIMAL:
                raise SolverError("a probability range's linear program was not solved")
            ends.append(min(max(x[i].solution_value(), 0.0), 1.0))
        ranges.append((float(ends[0]), float(ends[1])))
    return tuple(ranges)
