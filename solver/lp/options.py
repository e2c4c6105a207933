"""The LP engine's tolerances and pivoting rules, as one frozen options object.

Every threshold the engine compares a number with lives here, named, with
its default (modelled on QuantEcon's ``PivOptions``).  The engines take an
:class:`LPOptions` (default :data:`DEFAULT_OPTIONS`); a study overrides a field
with :func:`dataclasses.replace`, the library never changes one at run time.

>>> DEFAULT_OPTIONS.pivot, DEFAULT_OPTIONS.refactor_every
(1e-09, 64)
>>> replace(DEFAULT_OPTIONS, refactor_every=4).refactor_every
4
>>> LPOptions(pivot=0.0)
Traceback (most recent call last):
    ...
solver.errors.SolverError: pivot must be a positive finite number, got 0.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace

from solver.errors import SolverError

__all__ = ["DEFAULT_OPTIONS", "LPOptions", "replace"]


@dataclass(frozen=True)
class LPOptions:
    """Tolerances and pivoting rules of the warm simplex, the matrix game and the vertex read-out.

    Attributes
    ----------
    refactor_every
        Simplex pivots between foldings of the rank-one updates into the basis inverse.
    invert_every
        Foldings between inversions of the basis from scratch.
    optimality
        A reduced cost above this is improving.
    pivot
        A pivot element at most this (in absolute value) is refused.
    feasibility
        A primal value below minus this is infeasible.
    perturbation
        Size of the random right-hand-side perturbation (relative to 1) that
        keeps the simplex from stalling on degenerate games.
    pivot_agreement
        A pivot is computed from the basis inverse's row and from its column;
        when the two differ by more than this (relatively) the inverse is
        refactored before the pivot is chosen again.
    harris_slack
        Feasibility Harris's ratio test may give up for a larger pivot.
    warm_gap
        The warm simplex's answer is used when the bounds its strategies
        certify are this close (relative to the value, at least 1);
        otherwise GLOP solves the game afresh.
    glop_feasibility
        GLOP's primal and dual feasibility tolerances (its first attempt).
    crash_share
        A guessed equilibrium's strategies of probability at least this
        share of uniform start the warm simplex's first basis.
    support
        A probability above this is in a strategy's support.
    tight
        A constraint with slack at most this holds with equality (vertex read-out).
    rounding
        What the recomputed vertex may miss its equations, bounds and value by.
    rank
        A QR pivot below this (relative to the largest) counts as rank deficient.
    """

    refactor_every: int = 64
    invert_every: int = 4
    optimality: float = 1e-11
    pivot: float = 1e-9
    feasibility: float = 1e-12
    perturbation: float = 1e-7
    pivot_agreement: float = 1e-7
    harris_slack: float = 1e-11
    warm_gap: float = 1e-10
    glop_feasibility: float = 1e-12
    crash_share: float = 0.25
    support: float = 1e-12
    tight: float = 1e-9
    rounding: float = 1e-11
    rank: float = 1e-12

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if field.type == "int":
                if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                    raise SolverError(
                        f"{field.name} must be a positive integer, got {value!r}",
                        argument=field.name,
                    )
            elif (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not (math.isfinite(value) and value > 0)
            ):
                raise SolverError(
                    f"{field.name} must be a positive finite number, got {value!r}",
                    argument=field.name,
                )


DEFAULT_OPTIONS = LPOptions()
"""The defaults: the tolerances every recorded equilibrium was computed with."""
