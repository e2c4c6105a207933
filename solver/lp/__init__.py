"""The LP engine: zero-sum matrix games and optimal-face programs, solved warm.

Everything outside this package imports from ``solver.lp`` itself, never
from its modules (an import contract in ``pyproject.toml``), and the
package imports nothing of the solver but :mod:`solver.errors`.  Its one
interface, on a program that grows between solves:

* **add rows, add columns**: :meth:`MatrixGameLP.add_row`,
  :meth:`MatrixGameLP.add_column` (the warm simplex takes the grown matrix:
  :meth:`WarmSimplex.solve`; the face programs take grown sets:
  :meth:`FaceProgram.grow`);
* **restrict**: :meth:`MatrixGameLP.restrict`, :meth:`WarmSimplex.restrict`
  (and a guessed start: :meth:`MatrixGameLP.guess`, :meth:`WarmSimplex.crash`);
* **solve with costs**: :meth:`MatrixGameLP.solve` (the value program),
  :meth:`WarmSimplex.solve` with ``costs`` and :func:`simplex_program`
  (the optimal face's weighted program), :class:`FaceProgram` and
  :func:`least_cost` (GLOP);
* **exact read-out**: the simplex reads its basis for the unperturbed
  program from a fresh factorization, :class:`MatrixGameSolution` carries
  the bounds its strategies certify, and :func:`structural_vertex`
  recomputes a vertex from its support and tight set alone.

Every tolerance is a field of one frozen :class:`LPOptions` (default
:data:`DEFAULT_OPTIONS`), which each engine takes as ``options``.

>>> lp = MatrixGameLP.from_matrix([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0]], warm=True)
>>> lp.add_row([-1.0, 1.0, 0.0])
>>> solution = lp.solve()
>>> round(solution.value, 12) + 0.0, solution.gap <= DEFAULT_OPTIONS.warm_gap
(0.0, True)
>>> lp.add_row([1.0])
Traceback (most recent call last):
    ...
solver.errors.SolverError: a new row needs one payoff per column (3 columns), got 1
"""

from __future__ import annotations

from solver.lp.face_program import (
    FacePoint,
    FaceProgram,
    Program,
    face_model,
    least_cost,
    warm_program,
)
from solver.lp.face_simplex import simplex_program
from solver.lp.matrix_game import (
    MatrixGameLP,
    MatrixGameSolution,
    glop_parameters,
    one_blas_thread,
    solve_matrix_game,
)
from solver.lp.options import DEFAULT_OPTIONS, LPOptions
from solver.lp.simplex import WarmSimplex, harris
from solver.lp.vertex import structural_vertex

__all__ = [
    "DEFAULT_OPTIONS",
    "FacePoint",
    "FaceProgram",
    "LPOptions",
    "MatrixGameLP",
    "MatrixGameSolution",
    "Program",
    "WarmSimplex",
    "face_model",
    "glop_parameters",
    "harris",
    "least_cost",
    "one_blas_thread",
    "simplex_program",
    "solve_matrix_game",
    "structural_vertex",
    "warm_program",
]
