"""A dense, warm-started simplex for matrix games that grow (double oracle).

Shift the payoffs so that every entry of ``A`` is at least 1: the column
player's program ``maximize 1^T q  subject to  A q <= 1, q >= 0`` then has
a feasible slack basis, its optimum is ``1 / value(A)``, the column strategy
is ``q / sum(q)`` and the row strategy the normalized dual of the rows.

The double oracle adds strategies between solves and the last optimal basis
stays a good start: a new **column** is a variable, nonbasic at zero (the
basis stays primal feasible: the primal simplex goes on); a new **row** is
a constraint whose slack joins the basis (the duals, and so dual
feasibility, are unchanged: the dual simplex goes on).  A solve runs the
dual simplex on the new rows, then the primal on the new columns (fewer
pivots than the other order on win games); the first game may start from a
guessed basis (:meth:`WarmSimplex.crash`).  Both price by steepest edge,
with exact weight updates, and take Harris's ratio test (:func:`harris`).

The games are small and dense, so the basis inverse is kept explicitly as
``base - left[:, :k] @ right[:, :k].T`` (a rank-one term per pivot, folded
into ``base`` every ``options.refactor_every`` pivots, the basis inverted
afresh every ``options.invert_every`` foldings), and the prices are
recomputed at every folding: on win games the dual's ratio tests are almost
all ties, and prices updated pivot after pivot drift enough to choose worse.
The right-hand side is perturbed a little against stalling; the solution is
read for the exact one from a fresh factorization (re-optimized if needed).
:class:`~solver.lp.matrix_game.MatrixGameLP` checks the bounds the
strategies certify and falls back to GLOP if they disagree.

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

from solver.errors import SimplexError
from solver.lp.options import DEFAULT_OPTIONS, LPOptions

__all__ = ["WarmSimplex", "harris"]


def harris(numerators: np.ndarray, pivots: np.ndarray, candidates: np.ndarray, slack: float) -> int:
    """Harris's ratio test: the largest pivot among the near-minimal ratios; -1 if no candidate.

    On degenerate programs many ratios ``numerators[i] / pivots[i]`` tie near
    the least, and the first found may have a tiny pivot that the basis
    inverse pays for in rounding.  Over the ``candidates`` (positive
    ``pivots``, non-negative ``numerators``), each ratio may exceed the least
    by ``slack`` over its pivot; the largest pivot among those is taken.

    >>> harris(np.array([0.0, 1e-13, 1.0]), np.array([1e-6, 1.0, 1.0]), np.array([True] * 3), 1e-11)
    1
    >>> harris(np.array([1.0]), np.array([-1.0]), np.array([False]), 1e-11)
    -1
    """
    sizes = np.where(candidates, pivots, 1.0)
    bound = np.where(candidates, (numerators + slack) / sizes, np.inf).min()
    eligible = candidates & (numerators / sizes <= bound)
    chosen = int(np.argmax(np.where(eligible, pivots, -np.inf)))
    return chosen if eligible[chosen] else -1


class WarmSimplex:
    """The column player's program, kept optimal as rows and columns arrive.

    Parameters
    ----------
    shift
        Added to every payoff; every shifted payoff must be at least 1.
    seed
        Seeds the right-hand-side perturbation (for reproducibility).
    options
        Tolerances and pivoting rules (:class:`~solver.lp.options.LPOptions`).
    """

    def __init__(self, shift: float, seed: int = 0, options: LPOptions = DEFAULT_OPTIONS) -> None:
        self.shift = float(shift)
        self.options = options
        self._rng = np.random.default_rng(seed)
        self._rows = 0
        self._columns = 0
        # basic[k] >= 0: structural column; basic[k] = -1 - i: slack of row i.
        self._basic = np.zeros(0, dtype=np.int64)
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

    # -- the basis inverse, base - left[:, :k] @ right[:, :k].T (k = updates) --
    def _reset_updates(self) -> None:
        """No rank-one terms: the inverse is ``base`` (sized for the current rows)."""
        self._left, self._right = np.zeros((2, self._rows, self.options.refactor_every))
        self._updates = 0

    def _ftran(self, vector: np.ndarray) -> np.ndarray:
        """``B^-1 vector`` (two of them are two calls: OpenBLAS packs a ``(2, n)`` operand, slower)."""
        k = self._updates
        return self._base @ vector - self._left[:, :k] @ (self._right[:, :k].T @ vector)

    def _btran(self, vector: np.ndarray) -> np.ndarray:
        """``vector^T B^-1``."""
        k = self._updates
        return vector @ self._base - (vector @ self._left[:, :k]) @ self._right[:, :k].T

    def _inverse_row(self, index: int) -> np.ndarray:
        k = self._updates
        return self._base[index] - self._left[index, :k] @ self._right[:, :k].T

    def _inverse(self) -> np.ndarray:
        k = self._updates
        return self._base - self._left[:, :k] @ self._right[:, :k].T

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

    # -- the shifted matrix [A' I], A' = payoff + shift ------------------------
    def _column_of(self, payoff: np.ndarray, variable: int) -> np.ndarray:
        if variable >= 0:
            return payoff[:, variable] + self.shift
        unit = np.zeros(self._rows)
        unit[-1 - variable] = 1.0
        return unit

    def _times_matrix(self, vector: np.ndarray, payoff: np.ndarray) -> np.ndarray:
        """``vector^T [A' I]``: structural entries, then slacks."""
        return np.concatenate([vector @ payoff + self.shift * vector.sum(), vector])

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
        if not abs(pivot) > self.options.pivot:  # also catches NaN
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
        if self._updates == self.options.refactor_every:
            self._consolidations += 1
            if self._consolidations < self.options.invert_every:
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
        rhs = 1.0 + self.options.perturbation * self._rng.random(count)
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
        options = self.options
        reduced = self._reduced_costs(payoff)
        # Steepest-edge weights 1 + |B^-1 a_j|^2, updated exactly (Goldfarb and Reid 1977).
        inverse = self._inverse()
        structural = np.square(inverse @ (payoff + self.shift)).sum(axis=0)
        weights = 1.0 + np.concatenate([structural, np.square(inverse).sum(axis=0)])
        basic_flat = self._flat(self._basic)
        for _ in range(limit):
            if self._refreshed:
                reduced, self._refreshed = self._reduced_costs(payoff), False
            scores = np.where(reduced > options.optimality, reduced * reduced / weights, -1.0)
            chosen = int(np.argmax(scores))
            if scores[chosen] < 0:
                return
            entering = self._variable(chosen)
            direction = self._ftran(self._column_of(payoff, entering))
            values = np.maximum(self._values, 0.0)
            leaving = harris(values, direction, direction > options.pivot, options.harris_slack)
            if leaving < 0:
                raise SimplexError("the program looks unbounded")
            inverse_row = self._inverse_row(leaving)
            # The pivot row and the steepest-edge cross products.
            row = self._times_matrix(inverse_row, payoff)
            cross = self._times_matrix(self._btran(direction), payoff)
            ratio = row / direction[leaving]
            if abs(ratio[chosen] - 1.0) > options.pivot_agreement:
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
        options = self.options
        if not self._rows or self._values.min() >= -options.feasibility:
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
                self._values < -options.feasibility, self._values * self._values / norms, -1.0
            )
            leaving = int(np.argmax(scores))
            if scores[leaving] < 0:
                return
            inverse_row = self._inverse_row(leaving)
            alpha = self._times_matrix(inverse_row, payoff)
            alpha[basic_flat] = 0.0
            chosen = harris(-reduced, -alpha, alpha < -options.pivot, options.harris_slack)
            if chosen < 0:
                raise SimplexError("the program looks infeasible")
            entering = self._variable(chosen)
            # The column and the steepest-edge update's B^-1 row.
            direction = self._ftran(self._column_of(payoff, entering))
            across = self._ftran(inverse_row)
            pivot = direction[leaving]
            if abs(pivot - alpha[chosen]) > options.pivot_agreement * (1.0 + abs(pivot)):
                # The row and the column disagree on the pivot: the inverse has
                # drifted.  Refactor and choose again.
                if self._updates == 0:
                    raise SimplexError("the basis is too ill-conditioned")
                self._refactor(payoff)
                continue
            scaled = direction / pivot
            leaving_norm = norms[leaving]
            norms = np.maximum(
                norms - 2.0 * scaled * across + scaled**2 * leaving_norm, options.pivot
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
        programs (:mod:`solver.lp.face_simplex`); the value returned is then
        what the column strategy concedes, :attr:`duals` the rows' duals,
        unnormalized.  Between solves either the costs change or the game
        grows.  Raises :class:`SimplexError` when it gives up, numerical
        trouble included; the state is then unusable.
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
        dropped, starts the next :meth:`solve` (usually optimal or nearly:
        only unused strategies are dropped).  A dropped row whose slack was
        not basic leaves a basic variable too many (the smallest goes); a
        dropped basic column one too few (a kept row's slack comes in).
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
        guess need not be feasible: :meth:`solve` makes it so first, and gives
        up (:class:`SimplexError`) after ``rows + columns`` pivots at that, as
        this does on a used program or a singular guess.
        """
        if self._rows or self._columns or payoff.min() + self.shift < 1.0:
            raise SimplexError("a crash basis needs a new program within the shift")
        self._rows, self._columns = payoff.shape
        self._rhs = 1.0 + self.options.perturbation * self._rng.random(self._rows)
        self._basic = -1 - np.arange(self._rows, dtype=np.int64)
        self._basic[np.asarray(rows, dtype=np.int64)] = columns
        self._reset_updates()
        self._refactor(payoff)
        self._budget = self._rows + self._columns

    def _accurate(self, payoff: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The basis's values and duals for the unperturbed right-hand side, from one fresh LU.

        The running inverse carries the rounding of many pivots, enough on
        games of a few hundred strategies to put the certified bounds 1e-10
        apart; a fresh factorization costs a fraction of a solve.
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
        if values.min() >= -self.options.feasibility:
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
