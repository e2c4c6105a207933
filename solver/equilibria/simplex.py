"""A dense, warm-started simplex for matrix games that grow (double oracle).

Shift the payoffs so that every entry of ``A`` is at least 1.  The column
player's program is then in standard form with a feasible slack basis::

    maximize 1^T q   subject to   A q <= 1,  q >= 0,

its optimum is ``1 / value(A)``; the column strategy is ``q / sum(q)`` and
the row strategy is the normalized dual ``p / sum(p)`` of the rows.

The double oracle adds strategies between solves, and the last optimal
basis stays a good start:

* a new **column** is a new variable, nonbasic at zero: the basis stays
  primal feasible, so the primal simplex goes on from it;
* a new **row** is a new constraint whose slack joins the basis: the duals
  (and so dual feasibility) are unchanged, so the dual simplex goes on.

The first game may start from a guessed basis instead of the slacks'
(:meth:`WarmSimplex.crash`, from an approximate equilibrium: on mirror win
deals, the first exact game after double oracle's warm-up took 60-67% fewer pivots).

A solve therefore runs the dual simplex on the new rows, then the primal
simplex on the new columns (this order took about 20% fewer pivots than the
other on win games).  Both price by steepest edge, with exact weight
updates.  The games are small and dense (hundreds of strategies, almost
every payoff non-zero), so the basis inverse is kept explicitly: each pivot
adds a rank-one term, the terms are folded into it every
:data:`REFACTOR_EVERY` pivots, and it is inverted afresh every
:data:`INVERT_EVERY` foldings; sparse LP codes spend more per pivot here.
The prices (reduced costs, and the dual's steepest-edge weights) are
recomputed from the inverse at every folding, not only at inversions: the
dual simplex's ratio tests on win games are almost all ties, and prices
updated pivot after pivot drift enough to choose worse (on mirror deal 4,
about 40% fewer dual pivots and 15% less time with the recomputation).

Win games are very degenerate (many equal payoffs), so every row's
right-hand side is perturbed by a tiny fixed amount, which keeps the
simplex from stalling.  The solution is read for the exact right-hand side;
in the rare case the basis is not feasible for it, a copy is re-optimized.
The answer is not trusted blindly: :class:`~solver.equilibria.matrix_game.MatrixGameLP`
checks the bounds the two strategies certify and falls back to GLOP if they disagree.

>>> simplex = WarmSimplex(shift=2.0)
>>> rps = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])
>>> row, column, value = simplex.solve(rps)
>>> np.round(row, 6).tolist(), np.round(column, 6).tolist(), round(value, 12) + 0.0
([0.333333, 0.333333, 0.333333], [0.333333, 0.333333, 0.333333], 0.0)
>>> simplex.solve(np.column_stack([rps, [-5.0, 0.0, 0.0]]))  # a new column
Traceback (most recent call last):
    ...
solver.errors.SimplexError: payoff -5.0 is below 1 - shift (-1.0): restart with a larger shift
"""

from __future__ import annotations

import numpy as np

from solver.equilibria.ratio_test import harris
from solver.equilibria.simplex_products import SimplexProducts
from solver.errors import SimplexError

__all__ = ["REFACTOR_EVERY", "WarmSimplex"]

# Pivots between foldings of the rank-one updates into the basis inverse,
# and foldings between inversions from scratch.
REFACTOR_EVERY = 64
INVERT_EVERY = 4
# Reduced costs above this count as improving; pivots below this are refused.
_OPTIMALITY_TOLERANCE = 1e-11
_PIVOT_TOLERANCE = 1e-9
# Primal values below -_FEASIBILITY_TOLERANCE are infeasible.
_FEASIBILITY_TOLERANCE = 1e-12
# Size of the right-hand-side perturbation (relative to 1).
_PERTURBATION = 1e-7
# A pivot is computed twice, from the basis inverse's row and from its
# column; when the two disagree by more than this (relatively), rounding has
# built up in the inverse, which is refactored before the pivot is chosen again.
_PIVOT_AGREEMENT = 1e-7


class WarmSimplex(SimplexProducts):
    """The column player's program, kept optimal as rows and columns arrive.

    Parameters
    ----------
    shift
        Added to every payoff; every shifted payoff must be at least 1.
    seed
        Seeds the right-hand-side perturbation (for reproducibility).
    """

    def __init__(self, shift: float, seed: int = 0) -> None:
        self.shift = float(shift)
        self._rng = np.random.default_rng(seed)
        self._rows = 0
        self._columns = 0
        # basic[k] >= 0: structural column; basic[k] = -1 - i: slack of row i.
        self._basic = np.zeros(0, dtype=np.int64)
        # The basis inverse is base - left @ right.T: one rank-one term per
        # pivot since the last refactorization.
        self._base = np.zeros((0, 0))
        self._reset_updates()
        self._consolidations = 0  # foldings of updates since the last inversion
        self._values = np.zeros(0)  # of the basic variables
        self._rhs = np.zeros(0)  # 1 + a tiny perturbation per row
        self._refreshed = False  # set when a refactorization recomputed the values
        self._budget: int | None = None  # pivots a crash basis has to become feasible
        self._cost_vector: np.ndarray | None = None  # None: every cost is 1
        self.duals = np.zeros(0)  # the rows' duals at the last solve, unnormalized
        self.pivots = 0

    # -- the basis inverse (its products: SimplexProducts) ------------------
    def _reset_updates(self) -> None:
        """No rank-one terms: the inverse is ``base`` (sized for the current rows)."""
        self._left = np.zeros((self._rows, REFACTOR_EVERY))
        self._right = np.zeros((self._rows, REFACTOR_EVERY))
        self._updates = 0

    def _basis_matrix(self, payoff: np.ndarray) -> np.ndarray:
        matrix = np.zeros((self._rows, self._rows))
        structural = self._basic >= 0
        matrix[:, structural] = payoff[:, self._basic[structural]] + self.shift
        matrix[-1 - self._basic[~structural], np.flatnonzero(~structural)] = 1.0
        return matrix

    def _refactor(self, payoff: np.ndarray) -> None:
        """Invert the basis afresh and recompute the basic values."""
        try:
            self._base = np.linalg.inv(self._basis_matrix(payoff))
        except np.linalg.LinAlgError:
            raise SimplexError("the basis became singular") from None
        self._updates = self._consolidations = 0
        self._values = self._base @ self._rhs
        self._refreshed = True

    # -- the shifted matrix A' = payoff + shift, with the slacks' identity ----
    # (its products: SimplexProducts)
    def _flat(self, variable: np.ndarray | int) -> np.ndarray:
        """Index into ``[structural..., slacks...]`` of encoded variables."""
        variable = np.asarray(variable)
        return np.where(variable >= 0, variable, self._columns - 1 - variable)

    def _variable(self, flat: int) -> int:
        return flat if flat < self._columns else self._columns - 1 - flat

    def _basic_costs(self) -> np.ndarray:
        """``c_B``: the objective's coefficients of the basic variables (slacks: 0)."""
        structural = self._basic >= 0
        return np.where(structural, self._costs[np.where(structural, self._basic, 0)], 0.0)

    def _duals(self) -> np.ndarray:
        """``y = c_B^T B^-1``: the rows' duals."""
        return self._btran(self._basic_costs())

    def _reduced_costs(self, payoff: np.ndarray) -> np.ndarray:
        """``c - y^T [A' I]`` with ``y = c_B^T B^-1``; basic entries exactly 0."""
        duals = self._duals()
        costs = np.concatenate([self._costs, np.zeros(self._rows)])
        reduced = costs - self._times_matrix(duals, payoff)
        reduced[self._flat(self._basic)] = 0.0
        return reduced

    def _pivot(
        self,
        payoff: np.ndarray,
        leaving: int,
        entering: int,
        direction: np.ndarray,
        inverse_row: np.ndarray,
    ) -> None:
        """Basis position ``leaving`` now holds ``entering`` (``direction = B^-1 a``)."""
        pivot = direction[leaving]
        if not abs(pivot) > _PIVOT_TOLERANCE:  # also catches NaN
            raise SimplexError(f"a pivot of {pivot} is too small")
        step = self._values[leaving] / pivot
        self._values -= step * direction
        self._values[leaving] = step
        left = direction / pivot
        left[leaving] -= 1.0 / pivot
        self._left[:, self._updates] = left
        self._right[:, self._updates] = inverse_row
        self._updates += 1
        self._basic[leaving] = entering
        self.pivots += 1
        if self._updates == REFACTOR_EVERY:
            self._consolidations += 1
            if self._consolidations < INVERT_EVERY:
                # Fold the updates into the base: far cheaper than inverting.
                self._base, self._updates = self._inverse(), 0
                self._refreshed = True  # fresh prices: see the module docstring
            else:
                self._refactor(payoff)

    # -- growth ---------------------------------------------------------------
    def _add_rows(self, payoff: np.ndarray, new_rows: int) -> None:
        """Append rows ``self._rows .. new_rows - 1`` with their slacks basic."""
        old, count = self._rows, new_rows - self._rows
        inverse = self._inverse()
        structural = self._basic >= 0
        # Entries of the new rows at the basic columns (slacks: zero).
        rho = np.zeros((count, old))
        rho[:, structural] = payoff[old:new_rows, self._basic[structural]] + self.shift
        base = np.zeros((new_rows, new_rows))
        base[:old, :old] = inverse
        base[old:, :old] = -rho @ inverse
        base[old:, old:] = np.eye(count)
        self._base = base
        rhs = 1.0 + _PERTURBATION * self._rng.random(count)
        self._rhs = np.concatenate([self._rhs, rhs])
        self._values = np.concatenate([self._values, rhs - rho @ self._values])
        self._basic = np.concatenate([self._basic, -1 - np.arange(old, new_rows)])
        self._rows = new_rows
        self._reset_updates()

    # -- the two simplex methods ---------------------------------------------
    def _primal(self, payoff: np.ndarray, limit: int) -> None:
        """Primal simplex from a primal feasible basis to optimality (steepest edge)."""
        if not self._rows:
            return  # nothing bounds the columns yet; the rows will
        reduced = self._reduced_costs(payoff)
        # Steepest-edge weights 1 + |B^-1 a_j|^2, updated exactly (Goldfarb and Reid 1977).
        inverse = self._inverse()
        weights = 1.0 + np.concatenate(
            [
                np.square(inverse @ (payoff + self.shift)).sum(axis=0),
                np.square(inverse).sum(axis=0),
            ]
        )
        basic_flat = self._flat(self._basic)
        for _ in range(limit):
            if self._refreshed:
                reduced, self._refreshed = self._reduced_costs(payoff), False
            scores = np.where(reduced > _OPTIMALITY_TOLERANCE, reduced * reduced / weights, -1.0)
            chosen = int(np.argmax(scores))
            if scores[chosen] < 0:
                return
            entering = self._variable(chosen)
            direction = self._ftran(self._column_of(payoff, entering))
            leaving = harris(np.maximum(self._values, 0.0), direction, direction > _PIVOT_TOLERANCE)
            if leaving < 0:
                raise SimplexError("the program looks unbounded")
            inverse_row = self._inverse_row(leaving)
            # The pivot row and the steepest-edge cross products (the second is
            # wasted on the rare refactorization below).
            row, cross = self._times_matrix_pair(inverse_row, self._btran(direction), payoff)
            ratio = row / direction[leaving]
            if abs(ratio[chosen] - 1.0) > _PIVOT_AGREEMENT:
                # Row and column disagree on the pivot: refactor, choose again.
                if self._updates == 0:
                    raise SimplexError("the basis is too ill-conditioned")
                self._refactor(payoff)
                continue
            entering_weight = 1.0 + direction @ direction
            leaving_flat = int(basic_flat[leaving])
            weights = np.maximum(
                weights - 2.0 * ratio * cross + ratio**2 * entering_weight, 1.0 + ratio**2
            )
            weights[leaving_flat] = max(entering_weight / direction[leaving] ** 2, 1.0)
            reduced -= reduced[chosen] * ratio
            self._pivot(payoff, leaving, entering, direction, inverse_row)
            basic_flat[leaving] = chosen
            # Basic variables price at exactly zero (rounding must not bring them back).
            reduced[basic_flat] = 0.0
        raise SimplexError("the primal simplex took too many pivots")

    def _dual(self, payoff: np.ndarray, limit: int) -> None:
        """Dual simplex from a dual feasible basis to optimality (steepest edge)."""
        if not self._rows or self._values.min() >= -_FEASIBILITY_TOLERANCE:
            return
        reduced = np.minimum(self._reduced_costs(payoff), 0.0)
        # Dual steepest-edge weights |row i of B^-1|^2, updated exactly.
        norms = np.square(self._inverse()).sum(axis=1)
        basic_flat = self._flat(self._basic)
        for _ in range(limit):
            if self._refreshed:
                reduced = np.minimum(self._reduced_costs(payoff), 0.0)
                norms = np.square(self._base).sum(axis=1)
                self._refreshed = False
            scores = np.where(
                self._values < -_FEASIBILITY_TOLERANCE, self._values * self._values / norms, -1.0
            )
            leaving = int(np.argmax(scores))
            if scores[leaving] < 0:
                return
            inverse_row = self._inverse_row(leaving)
            alpha = self._times_matrix(inverse_row, payoff)
            alpha[basic_flat] = 0.0
            chosen = harris(-reduced, -alpha, alpha < -_PIVOT_TOLERANCE)
            if chosen < 0:
                raise SimplexError("the program looks infeasible")
            entering = self._variable(chosen)
            # The column and the steepest-edge update's B^-1 row (the second is
            # wasted on the rare refactorization below).
            direction, across = self._ftran_pair(self._column_of(payoff, entering), inverse_row)
            pivot = direction[leaving]
            if abs(pivot - alpha[chosen]) > _PIVOT_AGREEMENT * (1.0 + abs(pivot)):
                # The row and the column disagree on the pivot: the inverse has
                # drifted.  Refactor and choose again.
                if self._updates == 0:
                    raise SimplexError("the basis is too ill-conditioned")
                self._refactor(payoff)
                continue
            scaled = direction / pivot
            leaving_norm = norms[leaving]
            norms = np.maximum(
                norms - 2.0 * scaled * across + scaled**2 * leaving_norm, _PIVOT_TOLERANCE
            )
            norms[leaving] = leaving_norm / pivot**2
            step = reduced[chosen] / pivot
            leaving_flat = int(basic_flat[leaving])
            reduced = np.minimum(reduced - step * alpha, 0.0)
            reduced[chosen] = 0.0
            reduced[leaving_flat] = min(-step, 0.0)
            self._pivot(payoff, leaving, entering, direction, inverse_row)
            basic_flat[leaving] = chosen
        raise SimplexError("the dual simplex took too many pivots")

    # -- the public step ------------------------------------------------------
    def solve(
        self, payoff: np.ndarray, costs: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, float]:
        """Re-optimize for ``payoff``, which extends the last one by rows and columns.

        Returns the row strategy, the column strategy and the value (of the
        unshifted ``payoff``).  ``costs`` (one per column, default ones)
        replaces the objective ``1^T q`` by ``costs^T q``: the optimal face's
        programs (:mod:`solver.equilibria.face_simplex`); the returned value is
        then what the column strategy concedes, and :attr:`duals` the rows'
        duals, unnormalized.  Between solves the costs may change on a game
        that does not grow (the basis stays primal feasible), or the game may
        grow under the same costs.  Raises :class:`SimplexError` when it gives
        up, numerical trouble included; the state is then unusable.
        """
        if costs is not None and np.shape(costs) != (payoff.shape[1],):
            raise SimplexError(
                f"costs need one entry per column ({payoff.shape[1]}), got shape {np.shape(costs)}"
            )
        try:
            with np.errstate(divide="raise", invalid="raise", over="raise"):
                return self._solve(payoff, costs)
        except (FloatingPointError, ValueError, np.linalg.LinAlgError) as error:
            raise SimplexError(f"numerical trouble: {error}") from None

    @property
    def _costs(self) -> np.ndarray:
        """The objective's coefficients of the structural columns so far."""
        if self._cost_vector is None:
            return np.ones(self._columns)
        return self._cost_vector[: self._columns]

    def _solve(
        self, payoff: np.ndarray, costs: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray, float]:
        rows, columns = payoff.shape
        if rows < self._rows or columns < self._columns:
            raise SimplexError("the game may only grow between solves")
        self._cost_vector = None if costs is None else np.asarray(costs, dtype=np.float64)
        lowest = min(
            float(payoff[:, self._columns :].min(initial=np.inf)),
            float(payoff[self._rows :, :].min(initial=np.inf)),
        )
        if lowest + self.shift < 1.0:
            raise SimplexError(
                f"payoff {lowest} is below 1 - shift ({1.0 - self.shift}): "
                "restart with a larger shift"
            )
        limit = 50 * (rows + columns) + 1000
        # After restrict() or crash() the basis may be infeasible: make it feasible first.
        budget, self._budget = self._budget, None
        self._dual(payoff[: self._rows, : self._columns], limit if budget is None else budget)
        # New rows: their slacks join the basis, which stays dual feasible
        # (for the old columns), so the dual simplex re-optimizes.
        if rows > self._rows:
            self._add_rows(payoff, rows)
            self._dual(payoff[:, : self._columns], limit)
        # New columns: nonbasic at zero, the basis stays primal feasible, so
        # the primal simplex finishes (and solves the first game from scratch).
        self._columns = columns
        self._primal(payoff, limit)
        values, basic, duals = self._exact_solution(payoff, limit)
        structural = basic >= 0
        q = np.zeros(columns)
        q[basic[structural]] = np.maximum(values[structural], 0.0)
        total = q.sum()
        self.duals = duals
        row = np.maximum(duals, 0.0)
        if total <= 0 or row.sum() <= 0:
            raise SimplexError("the program's solution vanished")
        return row / row.sum(), q / total, float(1.0 / total - self.shift)

    def restrict(self, payoff: np.ndarray, rows: np.ndarray, columns: np.ndarray) -> None:
        """Keep only ``rows`` and ``columns`` (old indices, in their new order).

        ``payoff`` is the restricted game.  The old basis, less what was
        dropped, starts the next :meth:`solve`: it is usually optimal or
        nearly so, as the double oracle drops only unused strategies.  A
        dropped row whose slack was not basic leaves one basic variable too
        many (the smallest goes); a dropped basic column leaves one too few
        (the slack of a kept row comes in).
        """
        rows, columns = np.asarray(rows, dtype=np.int64), np.asarray(columns, dtype=np.int64)
        row_of = np.full(self._rows, -1)
        row_of[rows] = np.arange(rows.size)
        column_of = np.full(self._columns, -1)
        column_of[columns] = np.arange(columns.size)
        structural = self._basic >= 0
        renamed = np.where(
            structural,
            column_of[np.where(structural, self._basic, 0)],
            -1 - row_of[np.where(structural, 0, -1 - self._basic)],
        )
        kept = np.where(structural, renamed >= 0, renamed < 0)
        basic, values = renamed[kept], np.abs(self._values[kept])
        if basic.size > rows.size:  # drop the basic variables nearest zero
            basic = basic[np.sort(np.argsort(-values, kind="stable")[: rows.size])]
        elif basic.size < rows.size:  # bring in slacks of rows without one
            without = np.ones(rows.size, dtype=bool)
            without[-1 - basic[basic < 0]] = False  # (np.setdiff1d imports numpy.ma)
            missing = np.flatnonzero(without)[: rows.size - basic.size]
            basic = np.concatenate([basic, -1 - missing])
        self._rhs = self._rhs[rows]
        self._rows, self._columns = rows.size, columns.size
        self._basic = basic.astype(np.int64)
        self._reset_updates()
        self._refactor(payoff)

    def crash(self, payoff: np.ndarray, rows: np.ndarray, columns: np.ndarray) -> None:
        """Start the first solve of ``payoff`` from a guessed basis instead of the slacks'.

        ``columns[k]`` is basic in place of row ``rows[k]``'s slack: an optimal
        basis holds ``y``'s support, and the rows of ``x``'s are tight.  The
        guess need be neither primal nor dual feasible: :meth:`solve` makes it
        feasible first, as after :meth:`restrict`, and gives up
        (:class:`SimplexError`) after ``rows + columns`` pivots at that, as it
        does here on a used program or a singular guess.
        """
        if self._rows or self._columns or payoff.min() + self.shift < 1.0:
            raise SimplexError("a crash basis needs a new program within the shift")
        self._rows, self._columns = payoff.shape
        self._rhs = 1.0 + _PERTURBATION * self._rng.random(self._rows)
        self._basic = -1 - np.arange(self._rows, dtype=np.int64)
        self._basic[np.asarray(rows, dtype=np.int64)] = columns
        self._reset_updates()
        self._refactor(payoff)
        self._budget = self._rows + self._columns

    def _accurate(self, payoff: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The basis's values and duals for the unperturbed right-hand side, from one fresh LU.

        The running inverse carries the rounding of up to
        ``REFACTOR_EVERY * INVERT_EVERY`` pivots, enough on games of a few
        hundred strategies to put the certified bounds 1e-10 apart and send
        the solve to GLOP; a fresh factorization costs a fraction of that.
        """
        basis = self._basis_matrix(payoff)
        ones = np.ones(self._rows)
        costs = self._basic_costs()
        try:
            solved = np.linalg.solve(
                np.stack([basis, basis.T]), np.stack([ones, costs])[:, :, None]
            )
        except np.linalg.LinAlgError:
            raise SimplexError("the basis became singular") from None
        return solved[0, :, 0], solved[1, :, 0]

    def _exact_solution(
        self, payoff: np.ndarray, limit: int
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Basic values, basis and duals for the unperturbed right-hand side (all ones).

        The basis is optimal for the perturbed right-hand side; if it is also
        feasible for the exact one it is optimal there too.  Otherwise a copy
        is re-optimized, and the perturbed state kept for the next warm start.
        """
        values, duals = self._accurate(payoff)
        if values.min() >= -_FEASIBILITY_TOLERANCE:
            return values, self._basic.copy(), duals
        self._base, self._updates = self._inverse(), 0
        saved = (self._rhs, self._base.copy(), self._values.copy(), self._basic.copy())
        self._rhs = np.ones(self._rows)
        self._refactor(payoff)
        self._dual(payoff, limit)
        self._primal(payoff, limit)
        (values, duals), basic = self._accurate(payoff), self._basic.copy()
        self._rhs, self._base, self._values, self._basic = saved
        self._updates = 0
        return values, basic, duals
