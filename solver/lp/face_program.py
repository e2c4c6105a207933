"""The optimal face's linear program, built from arrays (OR-Tools ``MPModelProto``).

One builder for every program over a player's optimal face: the canonical
strategy's least-cost searches (:mod:`solver.equilibria.canonical`) and,
through them, the probability ranges (:mod:`solver.equilibria.optimal_ranges`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.errors import SolverError
from solver.lp.matrix_game import glop_parameters
from solver.lp.options import DEFAULT_OPTIONS, LPOptions

__all__ = ["FacePoint", "FaceProgram", "Program", "face_model", "least_cost", "warm_program"]


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
    the solve.

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


@dataclass(frozen=True)
class FacePoint:
    """A face program's optimum: the point ``x``, the value it holds, the duals
    (``duals`` on the payoff constraints, ``mu`` on the sum)."""

    x: np.ndarray
    value: float
    duals: np.ndarray
    mu: float


def least_cost(
    payoff: np.ndarray, value: float, cost: np.ndarray, options: LPOptions = DEFAULT_OPTIONS
) -> FacePoint:
    """``min cost . x`` over ``x >= 0, sum(x) = 1, payoff^T x >= value`` (GLOP, by a request).

    One program from scratch (:func:`face_model` builds it); the searches
    solve theirs warm (:class:`FaceProgram`, :func:`warm_program`).

    >>> point = least_cost(np.array([[1.0, 0.0], [0.0, 1.0]]), 0.25, np.array([0.0, 1.0]))
    >>> point.x.round(6).tolist(), point.value
    ([0.75, 0.25], 0.25)
    >>> least_cost(np.array([[1.0, 0.0], [0.0, 1.0]]), 0.75, np.zeros(2))
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: the canonical strategy's linear program was not solved
    """
    from ortools.linear_solver import linear_solver_pb2, pywraplp

    request = linear_solver_pb2.MPModelRequest()
    request.solver_type = linear_solver_pb2.MPModelRequest.GLOP_LINEAR_PROGRAMMING
    request.solver_specific_parameters = glop_parameters(options)[0]
    request.model.CopyFrom(face_model(payoff, value, cost))
    response = linear_solver_pb2.MPSolutionResponse()
    pywraplp.Solver.SolveWithProto(request, response)
    if response.status != linear_solver_pb2.MPSOLVER_OPTIMAL:
        raise SolverError("the canonical strategy's linear program was not solved")
    point = np.clip(np.asarray(response.variable_value), 0.0, None)
    duals = np.asarray(response.dual_value)
    return FacePoint(
        point / point.sum(), float(value), np.clip(duals[1:], 0.0, None), float(duals[0])
    )


class FaceProgram:
    """One face program kept loaded in GLOP and solved again for other costs.

    Between solves only the objective changes, so GLOP starts from the last
    optimal basis (primal feasible): a probability range's two ends and the
    next strategy's cost a few pivots each, where a program from scratch costs
    all of them.
    The value is a variable ``v`` fixed at ``value``; :meth:`weigh` frees it
    (the program over ``(x, v)`` of :func:`face_model`'s ``weight``).

    >>> program = FaceProgram(np.array([[1.0, 0.0], [0.0, 1.0]]), 0.25)
    >>> program.solve(np.array([0.0, 1.0])).x.round(6).tolist()
    [0.75, 0.25]
    >>> program.solve(np.array([1.0, 0.0])).x.round(6).tolist()
    [0.25, 0.75]
    >>> program.weigh(4.0, np.array([[1.0, 0.0], [0.0, 1.0]]))
    >>> point = program.solve(np.array([1.0, 0.0]))
    >>> point.x.round(6).tolist(), round(point.value, 6)
    ([0.5, 0.5], 0.5)
    >>> program.solve(np.zeros(3))
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: the program has 2 strategies, got 3 costs
    """

    def __init__(
        self, payoff: np.ndarray, value: float, options: LPOptions = DEFAULT_OPTIONS
    ) -> None:
        from ortools.linear_solver import pywraplp

        self.shape, self.value = payoff.shape, float(value)
        self._solver = pywraplp.Solver.CreateSolver("GLOP")
        # The (x, v) program with v fixed at the value: freeing v later (weigh) changes
        # bounds only, and GLOP goes on from its basis.
        if error := self._solver.LoadModelFromProto(face_model(payoff, value, weight=0.0)):
            raise SolverError(f"a face program was not built: {error}")
        self._solver.SetSolverSpecificParametersAsString(glop_parameters(options)[0])
        *self._x, self._v = self._solver.variables()
        self._v.SetBounds(self.value, self.value)
        self._constraints = list(self._solver.constraints())
        self.weight: float | None = None

    def weigh(self, weight: float | None, payoff: np.ndarray) -> None:
        """Make the value a variable ``v`` with objective ``-weight`` (``face_model``'s ``weight``);
        None fixes it at :attr:`value` again.

        Only ``v``'s bounds and cost change, so the last optimal point stays
        feasible and GLOP starts from its basis (the canonical search's second
        program, near the first's optimum).
        """
        if (weight is None) != (self.weight is None):  # unchanged bounds are left alone
            if weight is None:
                self._v.SetBounds(self.value, self.value)
            else:
                self._v.SetBounds(float(payoff.min()) - 1.0, float(payoff.max()) + 1.0)
        self.weight = None if weight is None else float(weight)

    def grow(self, payoff: np.ndarray) -> None:
        """Take the strategies ``payoff`` adds: its first rows and columns are the program's.

        The new variables and constraints are added to the loaded program, so
        GLOP may start from its last basis, extended (a restricted set only
        grows during a search).
        """
        rows, columns = self.shape
        if payoff.shape[0] < rows or payoff.shape[1] < columns:
            raise SolverError(
                f"a face program of shape {self.shape} cannot shrink to {payoff.shape}"
            )
        for i in range(rows, payoff.shape[0]):
            x = self._solver.NumVar(0.0, 1.0, "")
            self._constraints[0].SetCoefficient(x, 1.0)
            for j in np.flatnonzero(payoff[i, :columns]).tolist():
                self._constraints[j + 1].SetCoefficient(x, float(payoff[i, j]))
            self._x.append(x)
        for j in range(columns, payoff.shape[1]):
            constraint = self._solver.Constraint(0.0, self._solver.infinity())
            for i in np.flatnonzero(payoff[:, j]).tolist():
                constraint.SetCoefficient(self._x[i], float(payoff[i, j]))
            constraint.SetCoefficient(self._v, -1.0)
            self._constraints.append(constraint)
        self.shape = payoff.shape

    def solve(self, cost: np.ndarray) -> FacePoint:
        """``min cost . x`` over the face (see :func:`least_cost`)."""
        if cost.shape[0] != len(self._x):
            raise SolverError(
                f"the program has {len(self._x)} strategies, got {cost.shape[0]} costs"
            )
        objective = self._solver.Objective()
        objective.Clear()
        for i in np.flatnonzero(cost).tolist():
            objective.SetCoefficient(self._x[i], float(cost[i]))
        objective.SetCoefficient(self._v, 0.0 if self.weight is None else -self.weight)
        objective.SetMinimization()
        status = self._solver.Solve()
        if status != self._solver.OPTIMAL:
            raise SolverError(f"the canonical strategy's linear program was not solved ({status})")
        point = np.clip([v.solution_value() for v in self._x], 0.0, None)
        duals = np.array([c.dual_value() for c in self._constraints])
        held = self.value if self.weight is None else float(self._v.solution_value())
        return FacePoint(point / point.sum(), held, np.clip(duals[1:], 0.0, None), float(duals[0]))


# Solves a face program: payoff, value, cost, and the weight on v (None: v fixed at value).
Program = Callable[[np.ndarray, float, np.ndarray, "float | None"], FacePoint]


def warm_program(
    programs: dict[int, FaceProgram], key: int, options: LPOptions = DEFAULT_OPTIONS
) -> Program:
    """Face programs solved on one GLOP model kept in ``programs[key]``, each warm from the last.

    The model grows with the search's sets, takes the value as a variable
    when a ``weight`` comes (:meth:`FaceProgram.weigh`), and is built afresh
    for another fixed value, or if GLOP gives up on it; the optimum is the
    program's, whichever basis it starts from.

    >>> solve, payoff = warm_program({}, 0), np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> solve(payoff, 0.25, np.array([0.0, 1.0]), None).x.round(6).tolist()
    [0.75, 0.25]
    >>> point = solve(payoff, 0.25, np.array([1.0, 0.0]), 4.0)  # v free: raised to 0.5
    >>> point.x.round(6).tolist(), round(point.value, 6)
    ([0.5, 0.5], 0.5)
    >>> solve(np.zeros((0, 2)), 0.5, np.zeros(0), None)
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: a face needs a payoff matrix with rows and columns, got shape (0, 2)
    """

    def solve(
        payoff: np.ndarray, value: float, cost: np.ndarray, weight: float | None
    ) -> FacePoint:
        kept = programs.get(key)
        if kept is None or (weight is None and kept.value != value):
            kept = programs[key] = FaceProgram(payoff, value, options)
        elif kept.shape != payoff.shape:  # the sets grew: a search only adds
            kept.grow(payoff)
        for attempt in range(2):
            kept.weigh(weight, payoff)
            try:
                return kept.solve(cost)
            except SolverError:  # GLOP gave up on the changed program: once more from scratch
                if attempt:
                    raise
                kept = programs[key] = FaceProgram(payoff, value, options)
        raise AssertionError("unreachable")

    return solve
