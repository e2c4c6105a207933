"""Correctness of the zero-sum matrix game solver.

Tiny games whose equilibria are known by hand, random games whose solutions
are certified here from the returned strategies alone (``min_j (x^T A)_j``
and ``max_i (A y)_i`` recomputed, not read), invariances of the value, and
the incremental linear program against the one-shot solver.
"""

from __future__ import annotations

import numpy as np
import pytest

from solver.errors import SolverError
from solver.lp import MatrixGameLP, solve_matrix_game

TIGHT = 1e-7


def certify(payoff: np.ndarray, solution) -> tuple[float, float]:
    """Check the strategies are distributions; return the bounds they certify."""
    payoff = np.asarray(payoff, dtype=np.float64)
    row, column = np.asarray(solution.row), np.asarray(solution.column)
    assert row.shape == (payoff.shape[0],) and column.shape == (payoff.shape[1],)
    for strategy in (row, column):
        assert (strategy >= -1e-12).all()
        assert strategy.sum() == pytest.approx(1.0, abs=1e-9)
    lower = float((row @ payoff).min())
    upper = float((payoff @ column).max())
    assert solution.lower == pytest.approx(lower, abs=1e-9)
    assert solution.upper == pytest.approx(upper, abs=1e-9)
    assert solution.gap == pytest.approx(upper - lower, abs=1e-9)
    assert lower - 1e-9 <= solution.value <= upper + 1e-9
    return lower, upper


def check_equilibrium(payoff, value, row=None, column=None):
    solution = solve_matrix_game(np.asarray(payoff, dtype=np.float64))
    lower, upper = certify(payoff, solution)
    assert solution.value == pytest.approx(value, abs=TIGHT)
    assert lower == pytest.approx(value, abs=TIGHT)
    assert upper == pytest.approx(value, abs=TIGHT)
    if row is not None:
        assert np.allclose(solution.row, row, atol=TIGHT)
    if column is not None:
        assert np.allclose(solution.column, column, atol=TIGHT)
    return solution


# ======================================================================= known games


def test_rock_paper_scissors():
    rps = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    third = np.full(3, 1 / 3)
    check_equilibrium(rps, 0.0, third, third)


def test_biased_rock_paper_scissors():
    """Rock beating scissors pays 2; everything else pays 1 as usual.

    Rows and columns R, P, S; payoff to the row player::

            R   P   S
        R   0  -1   2
        P   1   0  -1
        S  -1   1   0

    Row x = (a, b, c) makes every column pay v:
      col R: b - c,  col P: c - a,  col S: 2a - b.
      b - c = c - a and c - a = 2a - b with a + b + c = 1
      give c = 1/3, a = 1/4, b = 5/12, v = 1/12.
    Column y = (p, q, r) makes every row pay v:
      row R: -q + 2r,  row P: p - r,  row S: -p + q
      give r = 1/4, q = 5/12, p = 1/3, v = 1/12.
    Both are completely mixed and det(A) = 1 != 0, so the equilibrium is unique.
    """
    biased = np.array([[0, -1, 2], [1, 0, -1], [-1, 1, 0]])
    check_equilibrium(biased, 1 / 12, [1 / 4, 5 / 12, 1 / 3], [1 / 3, 5 / 12, 1 / 4])


def test_symmetric_biased_game_has_value_zero():
    """Antisymmetric: R beats S for 2 both ways.  x^T A = 0 gives x = (1, 2, 1) / 4."""
    game = np.array([[0, -1, 2], [1, 0, -1], [-2, 1, 0]])
    quarter = [0.25, 0.5, 0.25]
    check_equilibrium(game, 0.0, quarter, quarter)


def test_strictly_dominated_strategies_get_probability_zero():
    """Row 3 is strictly worse than rows 1 and 2; column 3 strictly worse (for the
    column player) than column 1.  What remains is [[3, 1], [1, 3]]: value 2, both 1/2."""
    game = np.array([[3, 1, 4], [1, 3, 5], [0, 0, 1]])
    solution = check_equilibrium(game, 2.0, [0.5, 0.5, 0.0], [0.5, 0.5, 0.0])
    assert solution.row[2] == pytest.approx(0.0, abs=1e-12)
    assert solution.column[2] == pytest.approx(0.0, abs=1e-12)


def test_one_by_one():
    check_equilibrium([[-3.5]], -3.5, [1.0], [1.0])


def test_single_row_and_single_column():
    # The row player has one choice: the column player takes the smallest payoff.
    check_equilibrium([[4.0, -2.0, 7.0]], -2.0, [1.0], [0.0, 1.0, 0.0])
    # The column player has one choice: the row player takes the largest.
    check_equilibrium([[4.0], [-2.0], [7.0]], 7.0, [0.0, 0.0, 1.0], [1.0])


def test_saddle_point():
    """Row minima 2, 1, 0 and column maxima 4, 2, 6: saddle (row 1, column 2), value 2.

    Only row 1 pays 2 against column 2, and only column 2 holds row 1 to 2: pure and unique.
    """
    game = np.array([[4, 2, 5], [3, 1, 6], [1, 0, 2]])
    check_equilibrium(game, 2.0, [1.0, 0.0, 0.0], [0.0, 1.0, 0.0])


def test_matching_pennies_with_unequal_stakes():
    """[[a, -b], [-c, d]] with a, b, c, d > 0: x1 = (c + d) / s, y1 = (b + d) / s,
    value (ad - bc) / s, s = a + b + c + d.  Here a=3, b=1, c=2, d=4: s = 10."""
    game = np.array([[3, -1], [-2, 4]])
    check_equilibrium(game, (12 - 2) / 10, [0.6, 0.4], [0.5, 0.5])


# ======================================================================= random games


@pytest.mark.parametrize("seed", range(30))
def test_random_games_are_certified(seed):
    rng = np.random.default_rng(seed)
    m, n = (int(v) for v in rng.integers(1, 9, size=2))
    if seed % 3 == 0:
        payoff = rng.integers(-3, 4, size=(m, n)).astype(np.float64)  # ties, degeneracy
    else:
        payoff = rng.normal(size=(m, n)) * 10
    solution = solve_matrix_game(payoff)
    lower, upper = certify(payoff, solution)
    assert upper - lower <= 1e-7
    assert solution.gap <= 1e-7
    # Invariances: shift, positive scale, and swapping the players.
    shifted = solve_matrix_game(payoff + 5.0)
    assert shifted.value == pytest.approx(solution.value + 5.0, abs=1e-7)
    scaled = solve_matrix_game(3.0 * payoff)
    assert scaled.value == pytest.approx(3.0 * solution.value, abs=1e-6)
    swapped = solve_matrix_game(-payoff.T)
    assert swapped.value == pytest.approx(-solution.value, abs=1e-7)
    certify(-payoff.T, swapped)


def test_larger_random_game():
    rng = np.random.default_rng(99)
    payoff = rng.integers(-25, 26, size=(60, 45)).astype(np.float64)
    solution = solve_matrix_game(payoff)
    lower, upper = certify(payoff, solution)
    assert upper - lower <= 1e-7


def test_duplicated_rows_and_columns_do_not_change_the_value():
    rng = np.random.default_rng(3)
    payoff = rng.normal(size=(4, 5))
    base = solve_matrix_game(payoff).value
    bigger = payoff[[0, 1, 1, 2, 3, 3, 3]][:, [0, 0, 1, 2, 3, 4, 4]]
    assert solve_matrix_game(bigger).value == pytest.approx(base, abs=1e-9)


# ======================================================================= incremental LP


@pytest.mark.parametrize("warm", [False, True])
@pytest.mark.parametrize("seed", range(12))
def test_incremental_lp_matches_whole_matrix(seed, warm):
    rng = np.random.default_rng(1000 + seed)
    m, n = (int(v) for v in rng.integers(1, 9, size=2))
    payoff = rng.integers(-5, 6, size=(m, n)).astype(np.float64)
    if seed % 2:
        payoff = rng.normal(size=(m, n))
    # Rows and columns in random order, interleaved at random.
    steps = ["row"] * m + ["column"] * n
    rng.shuffle(steps)
    row_order, column_order = list(rng.permutation(m)), list(rng.permutation(n))
    rows, columns = [], []
    lp = MatrixGameLP(warm=warm)
    for step in steps:
        if step == "row":
            i = int(row_order[len(rows)])
            lp.add_row(payoff[i, columns])
            rows.append(i)
        else:
            j = int(column_order[len(columns)])
            lp.add_column(payoff[rows, j])
            columns.append(j)
        assert lp.shape == (len(rows), len(columns))
        if rows and columns:
            # Solving in between (and growing afterwards) gives the sub-game's value.
            sub = payoff[np.ix_(rows, columns)]
            solution = lp.solve()
            certify(sub, solution)
            assert solution.value == pytest.approx(solve_matrix_game(sub).value, abs=1e-7)
    assert np.array_equal(lp.matrix(), payoff[np.ix_(rows, columns)])
    final = lp.solve()
    whole = solve_matrix_game(payoff)
    assert final.value == pytest.approx(whole.value, abs=1e-7)
    assert final.gap <= 1e-7


@pytest.mark.parametrize("warm", [False, True])
def test_incremental_lp_grows_after_solving(warm):
    lp = MatrixGameLP(warm=warm)
    lp.add_row([])
    lp.add_column([1.0])
    assert lp.solve().value == pytest.approx(1.0)
    lp.add_row([-1.0])  # now [[1], [-1]]: the row player keeps row 1
    assert lp.solve().value == pytest.approx(1.0)
    lp.add_column([-1.0, 1.0])  # matching pennies
    solution = lp.solve()
    assert solution.value == pytest.approx(0.0, abs=1e-9)
    assert np.allclose(solution.row, [0.5, 0.5]) and np.allclose(solution.column, [0.5, 0.5])


# ======================================================================= errors


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0, 0)])
def test_empty_matrix_is_an_error(shape):
    with pytest.raises(SolverError):
        solve_matrix_game(np.zeros(shape))


@pytest.mark.parametrize("bad", [np.zeros(3), np.zeros((2, 2, 2)), np.array(5.0)])
def test_matrix_of_wrong_dimension_is_an_error(bad):
    with pytest.raises(SolverError):
        solve_matrix_game(bad)


def test_wrong_payoff_lengths_are_errors():
    lp = MatrixGameLP()
    with pytest.raises(SolverError):
        lp.add_column([1.0])  # no rows yet
    lp.add_row([])
    with pytest.raises(SolverError):
        lp.add_row([1.0])  # no columns yet
    lp.add_column([2.0])
    with pytest.raises(SolverError):
        lp.add_row([1.0, 2.0])
    with pytest.raises(SolverError):
        lp.add_column([])
    with pytest.raises(SolverError):
        lp.add_column([[1.0]])
    assert lp.shape == (1, 1)  # the failed calls changed nothing
    assert lp.solve().value == pytest.approx(2.0)


def test_solving_an_empty_lp_is_an_error():
    with pytest.raises(SolverError):
        MatrixGameLP().solve()
    lp = MatrixGameLP()
    lp.add_row([])
    with pytest.raises(SolverError):
        lp.solve()


@pytest.mark.parametrize("baseline", [-1.0, 0.5, 3.0])
def test_baseline_moves_nothing_but_storage(baseline):
    # The program stores payoff - baseline; the game and its solution are the same.
    rng = np.random.default_rng(7)
    payoff = rng.integers(-1, 2, size=(6, 5)).astype(np.float64)
    plain = MatrixGameLP.from_matrix(payoff).solve()
    shifted = MatrixGameLP.from_matrix(payoff, baseline).solve()
    certify(payoff, shifted)
    assert shifted.value == pytest.approx(plain.value, abs=1e-9)
    assert shifted.lower == pytest.approx(plain.lower, abs=1e-9)
    assert shifted.upper == pytest.approx(plain.upper, abs=1e-9)
