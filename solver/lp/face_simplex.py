"""The optimal face's weighted program on the warm simplex: the canonical search's fast path.

Each round of the canonical strategy's search (:mod:`solver.equilibria.canonical`)
solves the weighted face program over the side's restricted sets::

    minimize h . x - W v   subject to   x >= 0,  1^T x = 1,  P^T x >= v 1,

``P`` the side's payoffs (its strategies by the opponent's), ``h`` the
canonical costs.  Here it is the column player's program of
:class:`~solver.lp.simplex.WarmSimplex` on the opponent's payoffs
``M = -P^T``, shifted by ``s`` so that every entry of ``M + s`` is at least 1::

    maximize c^T q   subject to   (M + s) q <= 1,  q >= 0,   c = K 1 - h.

With ``t = 1^T q`` and ``x = q / t``, a feasible ``q`` guarantees
``v = s - 1 / t`` against every restricted opponent strategy, and
``c^T q = t (K - h . x)``: raising ``v`` by ``dv`` adds ``K t^2 dv``, lowering
``h . x`` by ``dh`` adds ``t dh``, so this program trades value for cost at
``W = K t = K / (s - v)``.  So ``K = W (s - v)`` makes it the face program to
first order, and once ``W`` exceeds the least cost's slope in ``v`` both
programs' optimum is the least-cost optimal vertex at the value (the search
checks the value it reached and raises ``W`` if it fell short, as it does
with GLOP).  The simplex's row duals ``y >= 0`` price a strategy ``i`` by
``c_i - y^T (M_i + s) <= 0``, that is ``h_i - (K - s 1^T y) - sum_j y_j P_ij >= 0``:
the face program's duals are ``lambda = y`` and ``mu = K - s 1^T y``, and the
search prices the strategies outside the sets with them unchanged.

Why.  GLOP solved each side's first face program from scratch, and that was
most of the selection.  The simplex starts instead from the double
oracle's equilibrium (:meth:`~solver.lp.simplex.WarmSimplex.crash`
from its supports), which is usually the canonical vertex of the restricted
game already, so its basis often needs no pivot at all.  The next rounds' strategies
join as rows and columns (the simplex goes on, dual then primal); a larger
``W`` changes the costs only (primal simplex from the last basis).  On any
:class:`~solver.errors.SimplexError` the caller solves with GLOP instead:
the optimum, a vertex, is the same, and :func:`~solver.lp.vertex.structural_vertex`
recomputes it from its structure alone either way.

>>> payoff = np.array([[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0], [1.0, -1.0, 1.0]])  # my 3 x their 3
>>> solve = simplex_program(-1.0)
>>> point = solve(payoff, 0.0, np.array([0.9, 0.5, 0.1]), 1e5)
>>> point.x.round(9).tolist(), round(point.value, 12) + 0.0  # strategy 2 is cheaper than 0
([0.0, 0.5, 0.5], 0.0)
>>> solve(payoff, 0.0, np.zeros(3), None)
Traceback (most recent call last):
    ...
solver.errors.SimplexError: the simplex solves the weighted face program only (a weight, not None)
"""

from __future__ import annotations

import numpy as np

from solver.errors import SimplexError
from solver.lp.face_program import FacePoint, Program
from solver.lp.options import DEFAULT_OPTIONS, LPOptions
from solver.lp.simplex import WarmSimplex

__all__ = ["simplex_program"]


def simplex_program(
    lowest: float | None,
    start: tuple[np.ndarray, np.ndarray] | None = None,
    options: LPOptions = DEFAULT_OPTIONS,
) -> Program:
    """The weighted face programs of one search, solved on one warm simplex (see the module).

    Parameters
    ----------
    lowest
        A lower bound on every payoff the search may meet (the oracle's
        ``lowest``; None: the first program's least), which sets the shift.
    start
        An equilibrium of the first program's game, as probabilities over
        the side's strategies and the opponent's: its supports (probabilities
        above :attr:`~solver.lp.options.LPOptions.support`) crash the
        simplex's first basis.  None: the slack basis.
    options
        Tolerances (:class:`~solver.lp.options.LPOptions`).

    The program raises :class:`~solver.errors.SimplexError` when the simplex
    gives up (its state is then unusable: the caller solves on with GLOP).
    """
    state: dict[str, WarmSimplex] = {}

    def solve(
        payoff: np.ndarray, value: float, cost: np.ndarray, weight: float | None
    ) -> FacePoint:
        if weight is None:
            raise SimplexError(
                "the simplex solves the weighted face program only (a weight, not None)"
            )
        theirs = -payoff.T  # the opponent's payoffs: its strategies are the rows
        simplex = state.get("simplex")
        if simplex is None:
            least = float(theirs.min()) if lowest is None else min(float(theirs.min()), lowest)
            simplex = state["simplex"] = WarmSimplex(shift=1.0 - least, options=options)
            if start is not None and (start[0].shape[0], start[1].shape[0]) == payoff.shape:
                try:
                    _crash(simplex, theirs, *start)
                except SimplexError:  # a singular guess: from the slack basis
                    simplex = state["simplex"] = WarmSimplex(shift=1.0 - least, options=options)
        factor = float(weight) * (simplex.shift - value)
        _, q, conceded = simplex.solve(theirs, factor - cost)
        duals = np.maximum(simplex.duals, 0.0)
        return FacePoint(q, -conceded, duals, factor - simplex.shift * float(duals.sum()))

    return solve


def _crash(simplex: WarmSimplex, theirs: np.ndarray, mine: np.ndarray, their: np.ndarray) -> None:
    """Crash the first basis from an equilibrium: as many of each support, most likely first."""
    support = simplex.options.support
    columns = np.argsort(-mine, kind="stable")[: int((mine > support).sum())]
    rows = np.argsort(-their, kind="stable")[: int((their > support).sum())]
    count = min(columns.size, rows.size)
    simplex.crash(theirs, rows[:count], columns[:count])
