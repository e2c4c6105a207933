"""The warm simplex (solver.lp.simplex) against GLOP, on games that grow.

Every answer is checked twice: against the value GLOP finds for the same
matrix from scratch, and by the bounds its own strategies certify
(``min_j (x^T A)_j`` and ``max_i (A y)_i``, recomputed here).  The games are
grown as the double oracle grows them: rows and columns together (a
symmetric game), rows or columns alone, one or many at a time, with the
very degenerate {-1, 0, 1} payoffs of the win game.
"""

from __future__ import annotations

import numpy as np
import pytest

from solver.errors import SimplexError
from solver.lp import LPOptions, MatrixGameLP, WarmSimplex, solve_matrix_game

EXACT = 1e-9


def certified_gap(payoff: np.ndarray, row: np.ndarray, column: np.ndarray) -> float:
    for strategy, size in ((row, payoff.shape[0]), (column, payoff.shape[1])):
        assert strategy.shape == (size,)
        assert (strategy >= 0).all() and strategy.sum() == pytest.approx(1.0, abs=1e-12)
    return float((payoff @ column).max() - (row @ payoff).min())


def check(simplex: WarmSimplex, payoff: np.ndarray) -> None:
    row, column, value = simplex.solve(payoff)
    assert certified_gap(payoff, row, column) <= EXACT
    assert value == pytest.approx(solve_matrix_game(payoff).value, abs=EXACT)


def win_game(rng: np.random.Generator, size: int, symmetric: bool) -> np.ndarray:
    """A {-1, 0, 1} payoff matrix with many ties, like the win payoff's."""
    payoff = rng.choice([-1.0, 0.0, 1.0], size=(size, size), p=[0.4, 0.2, 0.4])
    if symmetric:
        payoff = np.triu(payoff, 1)
        payoff = payoff - payoff.T
    return payoff


@pytest.mark.parametrize("seed", range(6))
def test_symmetric_win_games_grown_like_the_double_oracle(seed):
    rng = np.random.default_rng(seed)
    payoff = win_game(rng, 150, symmetric=True)
    simplex = WarmSimplex(shift=2.0, seed=seed)
    size = 1
    while size < payoff.shape[0]:
        size = min(payoff.shape[0], size + int(rng.integers(1, 25)))
        check(simplex, payoff[:size, :size])


@pytest.mark.parametrize("seed", range(3))
def test_frequent_foldings_reprice_correctly(seed):
    # Fold every 4 pivots and invert every 3rd folding: the prices are
    # recomputed at each folding, mid-simplex, many times per solve.
    options = LPOptions(refactor_every=4, invert_every=3)
    rng = np.random.default_rng(200 + seed)
    payoff = win_game(rng, 120, symmetric=seed != 1)
    simplex = WarmSimplex(shift=2.0, seed=seed, options=options)
    size = 1
    while size < payoff.shape[0]:
        size = min(payoff.shape[0], size + int(rng.integers(5, 30)))
        check(simplex, payoff[:size, :size])
    assert simplex.pivots > 12 * size // 10  # enough pivots for many foldings


@pytest.mark.parametrize("seed", range(6))
def test_rows_and_columns_grow_separately(seed):
    rng = np.random.default_rng(100 + seed)
    payoff = rng.integers(-25, 26, size=(90, 70)).astype(np.float64)
    simplex = WarmSimplex(shift=26.0, seed=seed)
    rows, columns = 1, 1
    while rows < 90 or columns < 70:
        if rng.random() < 0.5:
            rows = min(90, rows + int(rng.integers(1, 8)))
        else:
            columns = min(70, columns + int(rng.integers(1, 8)))
        check(simplex, payoff[:rows, :columns])


def test_a_whole_game_at_once_and_solving_again():
    payoff = win_game(np.random.default_rng(7), 120, symmetric=False)
    simplex = WarmSimplex(shift=2.0)
    check(simplex, payoff)
    pivots = simplex.pivots
    check(simplex, payoff)  # already optimal: no pivot
    assert simplex.pivots == pivots


def test_known_game_values():
    simplex = WarmSimplex(shift=3.0)
    row, column, value = simplex.solve(np.array([[2.0, -1.0], [-1.0, 1.0]]))
    assert value == pytest.approx(0.2, abs=1e-12)
    assert row == pytest.approx([0.4, 0.6], abs=1e-12)
    assert column == pytest.approx([0.4, 0.6], abs=1e-12)


def test_payoffs_below_the_shift_are_refused():
    simplex = WarmSimplex(shift=2.0)
    simplex.solve(np.array([[0.0]]))
    with pytest.raises(SimplexError, match=r"payoff -3.0 is below 1 - shift \(-1.0\)"):
        simplex.solve(np.array([[0.0, -3.0]]))


def test_a_game_may_not_shrink():
    simplex = WarmSimplex(shift=2.0)
    simplex.solve(np.zeros((3, 3)))
    with pytest.raises(SimplexError, match="only grow"):
        simplex.solve(np.zeros((2, 3)))


def test_matrix_game_lp_falls_back_to_glop(monkeypatch):
    """A failing warm simplex costs time, never the answer."""

    def fail(self, payoff):
        raise SimplexError("forced")

    monkeypatch.setattr(WarmSimplex, "solve", fail)
    payoff = win_game(np.random.default_rng(3), 40, symmetric=True)
    lp = MatrixGameLP.from_matrix(payoff, baseline=-1.0, lowest=-1.0, warm=True)
    solution = lp.solve()
    assert lp.fallbacks == 1
    assert solution.gap <= EXACT and solution.value == pytest.approx(0.0, abs=EXACT)


def test_matrix_game_lp_uses_the_warm_simplex():
    rng = np.random.default_rng(11)
    payoff = win_game(rng, 60, symmetric=True)
    lp = MatrixGameLP(baseline=-1.0, lowest=-1.0, warm=True)
    for size in range(60):
        lp.add_row(payoff[size, :size])
        lp.add_column(payoff[: size + 1, size])
        if size % 7 == 6:
            solution = lp.solve()
            assert solution.gap <= EXACT
            assert solution.value == pytest.approx(0.0, abs=EXACT)
    assert lp.fallbacks == 0


def test_a_payoff_below_the_announced_lowest_restarts_the_simplex():
    lp = MatrixGameLP(lowest=0.0, warm=True)
    lp.add_row([])
    lp.add_column([1.0])
    assert lp.solve().value == 1.0
    lp.add_row([-5.0])  # below the announced bound: the simplex restarts, GLOP answers
    solution = lp.solve()
    assert solution.value == pytest.approx(1.0) and lp.fallbacks == 1
    lp.add_column([0.0, 2.0])
    assert lp.solve().value == pytest.approx(solve_matrix_game(lp.matrix()).value, abs=EXACT)


@pytest.mark.parametrize("seed", range(4))
def test_restricting_keeps_a_good_start(seed):
    """Dropping strategies (as the double oracle prunes) then growing again."""
    rng = np.random.default_rng(50 + seed)
    payoff = win_game(rng, 140, symmetric=True)
    simplex = WarmSimplex(shift=2.0, seed=seed)
    order = np.arange(100)
    check(simplex, payoff[:100, :100])
    row, _, _ = simplex.solve(payoff[:100, :100])
    # Keep the support and a few others, in a new order.
    keep = np.union1d(np.flatnonzero(row > 0), rng.choice(100, size=10, replace=False))
    keep = rng.permutation(keep)
    simplex.restrict(payoff[np.ix_(keep, keep)], keep, keep)
    check(simplex, payoff[np.ix_(keep, keep)])
    grown = np.concatenate([order[keep], np.arange(100, 140)])
    check(simplex, payoff[np.ix_(grown, grown)])


def test_matrix_game_lp_restrict_matches_a_fresh_game():
    rng = np.random.default_rng(5)
    payoff = win_game(rng, 80, symmetric=False)
    lp = MatrixGameLP.from_matrix(payoff, lowest=-1.0, warm=True)
    lp.solve()
    rows, columns = [5, 1, 70, 30, 2, 44], [3, 9, 0, 61, 8]
    lp.restrict(rows, columns)
    assert np.array_equal(lp.matrix(), payoff[np.ix_(rows, columns)])
    solution = lp.solve()
    assert solution.value == pytest.approx(
        solve_matrix_game(payoff[np.ix_(rows, columns)]).value, abs=EXACT
    )
    assert lp.fallbacks == 0


def test_products_with_pending_updates_are_those_of_the_explicit_inverse():
    # The inverse in product form (a base less pending rank-one terms) and the
    # shifted matrix [A' I] multiply as the explicit matrices do.
    rng = np.random.default_rng(7)
    payoff = win_game(rng, 40, symmetric=True)
    simplex = WarmSimplex(shift=2.0)
    simplex.solve(payoff[:30, :30])
    simplex.solve(payoff)  # leaves rank-one updates pending
    assert simplex._updates > 0
    inverse = np.linalg.inv(simplex._basis_matrix(payoff))
    vector = rng.random(40)
    np.testing.assert_allclose(simplex._ftran(vector), inverse @ vector, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(simplex._btran(vector), vector @ inverse, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(simplex._inverse_row(3), inverse[3], rtol=1e-9, atol=1e-9)
    explicit = np.hstack([payoff + 2.0, np.eye(40)])
    np.testing.assert_allclose(simplex._times_matrix(vector, payoff), vector @ explicit, rtol=1e-12)


def equilibrium_supports(payoff: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    solution = solve_matrix_game(payoff)
    return np.flatnonzero(solution.row > 1e-9), np.flatnonzero(solution.column > 1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_a_crash_basis_from_the_equilibrium_needs_no_pivot(seed):
    # A generic game's equilibrium has supports of one size, and the basis of
    # y's support with x's rows tight is optimal: the first solve only reads it.
    rng = np.random.default_rng(seed)
    payoff = rng.normal(size=(40, 50))
    rows, columns = equilibrium_supports(payoff)
    assert rows.size == columns.size
    simplex = WarmSimplex(shift=1.0 - payoff.min() + 1.0)
    simplex.crash(payoff, rows, columns)
    check(simplex, payoff)
    assert simplex.pivots == 0


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("symmetric", [True, False])
def test_a_crash_basis_from_a_rough_guess_solves_and_grows(seed, symmetric):
    # Neither primal nor dual feasible: the solve must still end optimal,
    # and the game grow from it as from any other basis.
    rng = np.random.default_rng(seed)
    payoff = win_game(rng, 120, symmetric)
    guess = rng.permutation(80)[:30]
    simplex = WarmSimplex(shift=2.0, seed=seed)
    simplex.crash(payoff[:80, :80], guess, guess if symmetric else rng.permutation(80)[:30])
    check(simplex, payoff[:80, :80])
    check(simplex, payoff)


def test_a_crash_basis_needs_a_new_program_and_a_regular_guess():
    payoff = np.array([[1.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])
    with pytest.raises(SimplexError, match="singular"):
        WarmSimplex(shift=1.0).crash(payoff, np.array([0, 1]), np.array([0, 1]))
    simplex = WarmSimplex(shift=1.0)
    simplex.solve(payoff)
    with pytest.raises(SimplexError, match="new program"):
        simplex.crash(payoff, np.array([0]), np.array([2]))
    with pytest.raises(SimplexError, match="new program"):
        WarmSimplex(shift=0.5).crash(payoff, np.array([0]), np.array([2]))


def test_matrix_game_lp_starts_from_a_guess():
    rng = np.random.default_rng(11)
    payoff = win_game(rng, 60, symmetric=True)
    exact = solve_matrix_game(payoff)
    pivots = []
    for guess in (None, (exact.row, exact.column)):
        lp = MatrixGameLP.from_matrix(payoff, lowest=-1.0, warm=True)
        if guess is not None:
            lp.guess(*guess)
        lp.solve()
        assert lp._simplex is not None
        pivots.append(lp._simplex.pivots)
    assert pivots[1] < pivots[0] / 4  # the equilibrium's basis, or nearly
    for row, column in (
        (exact.row, exact.column),  # the equilibrium itself
        (rng.random(60), rng.random(60)),  # a poor guess
        (np.ones(60), np.ones(60)),  # every strategy: the whole game as the basis
        (np.ones(59), np.ones(59)),  # for the game before it grew: dropped
    ):
        lp = MatrixGameLP.from_matrix(payoff[: row.size, : column.size], lowest=-1.0, warm=True)
        lp.guess(row, column)
        for payoffs in payoff[row.size :, : column.size]:
            lp.add_row(payoffs)
        for payoffs in payoff[:, column.size :].T:
            lp.add_column(payoffs)
        solution = lp.solve()
        assert solution.value == pytest.approx(0.0, abs=EXACT) and solution.gap <= EXACT
        assert lp.fallbacks == 0


def test_a_guess_that_does_not_get_feasible_soon_restarts_from_the_slacks(monkeypatch):
    # No pivot allowed to make the guessed basis feasible: the solve starts
    # again from the slack basis, with no GLOP fallback.
    crash = WarmSimplex.crash

    def no_budget(self, payoff, rows, columns):
        crash(self, payoff, rows, columns)
        self._budget = 0

    monkeypatch.setattr(WarmSimplex, "crash", no_budget)
    rng = np.random.default_rng(3)
    payoff = win_game(rng, 60, symmetric=True)
    lp = MatrixGameLP.from_matrix(payoff, lowest=-1.0, warm=True)
    lp.guess(rng.random(60), rng.random(60))
    solution = lp.solve()
    assert solution.value == pytest.approx(0.0, abs=EXACT) and solution.gap <= EXACT
    assert lp.fallbacks == 0
    fresh = MatrixGameLP.from_matrix(payoff, lowest=-1.0, warm=True)
    fresh.solve()
    assert lp._simplex is not None and fresh._simplex is not None
    assert lp._simplex.pivots == fresh._simplex.pivots  # the slack basis's path


@pytest.mark.parametrize("seed", range(6))
def test_general_costs_reach_the_optimum_highs_finds_and_their_duals_certify_it(seed: int) -> None:
    """``max c^T q`` over ``(A + shift) q <= 1``, grown and with costs changed, against HiGHS."""
    from scipy.optimize import linprog

    rng = np.random.default_rng(seed)
    payoff = win_game(rng, 40, symmetric=seed % 2 == 0)
    simplex = WarmSimplex(shift=2.0)
    for rows, columns, costs in (
        (25, 20, rng.uniform(0.5, 1.5, 20)),
        (40, 40, rng.uniform(0.5, 1.5, 40)),  # grown, under new costs for the new columns
        (40, 40, 1e5 - rng.random(40)),  # costs changed only: the canonical search's shape
    ):
        game = payoff[:rows, :columns]
        _, column, _ = simplex.solve(game, costs[:columns])
        shifted = game + simplex.shift
        best = linprog(-costs[:columns], A_ub=shifted, b_ub=np.ones(rows), method="highs")
        q = column / (shifted @ column).max()  # an optimal q meets some row's bound
        assert costs[:columns] @ q == pytest.approx(-best.fun, rel=1e-9)
        duals = simplex.duals
        assert duals.min() >= -1e-9
        assert (duals @ shifted - costs[:columns]).min() >= -1e-9 * costs.max()  # dual feasible
        assert duals.sum() == pytest.approx(-best.fun, rel=1e-9)  # no duality gap


def test_costs_need_one_entry_per_column() -> None:
    with pytest.raises(SimplexError, match=r"one entry per column \(3\), got shape \(2,\)"):
        WarmSimplex(shift=2.0).solve(np.zeros((2, 3)), np.ones(2))
