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

import numpy as np

from solver.errors import SolverError

__all__ = ["TOLERANCE", "probability_ranges"]

TOLERANCE = 1e-9
"""How far below the value the face reaches (the payoff's units)."""


def _solver(payoff: np.ndarray, value: float):  # type: ignore[no-untyped-def]
    from ortools.linear_solver import pywraplp

    solver = pywraplp.Solver.CreateSolver("GLOP")
    x = [solver.NumVar(0.0, 1.0, f"x{i}") for i in range(payoff.shape[0])]
    solver.Add(solver.Sum(x) == 1.0)
    for column in payoff.T:
        nonzero = np.flatnonzero(column).tolist()
        solver.Add(solver.Sum([float(column[i]) * x[i] for i in nonzero]) >= value - TOLERANCE)
    return solver, x


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
    solver, x = _solver(payoff, value)
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
