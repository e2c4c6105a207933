"""Predictive regret matching+ (solver.equilibria.regret_matching) on small games with known
equilibria, and against a plain reference."""

from __future__ import annotations

import numpy as np
import pytest

from solver.equilibria.regret_matching import RegretMatching, WarmUp
from solver.errors import SolverError
from solver.lp import solve_matrix_game


def exploitability(payoff: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    """What the two strategies concede: max_i (A y)_i - min_j (x^T A)_j."""
    return float((payoff @ y).max() - (x @ payoff).min())


def test_matching_pennies_converges_to_one_half():
    pennies = np.array([[1.0, -1.0], [-1.0, 1.0]])
    matching = RegretMatching(symmetric=False)
    matching.grow(2, 2)
    x, y = matching.solve(pennies, iterations=3000)
    assert x == pytest.approx([0.5, 0.5], abs=0.01)
    assert y == pytest.approx([0.5, 0.5], abs=0.01)


@pytest.mark.parametrize("seed", range(5))
def test_random_games_approach_the_value(seed):
    rng = np.random.default_rng(seed)
    payoff = rng.integers(-3, 4, size=(15, 20)).astype(float)
    matching = RegretMatching(symmetric=False)
    matching.grow(*payoff.shape)
    x, y = matching.solve(payoff, iterations=20)
    early = exploitability(payoff, x, y)
    x, y = matching.solve(payoff, iterations=5000)
    late = exploitability(payoff, x, y)
    # Any strategies bound the value from both sides.
    value = solve_matrix_game(payoff).value
    assert (x @ payoff).min() <= value + 1e-12 <= (payoff @ y).max() + 2e-12
    assert late < 0.05 and late < early


def test_symmetric_games_play_one_strategy():
    rng = np.random.default_rng(3)
    upper = np.triu(rng.integers(-1, 2, size=(30, 30)), 1)
    payoff = (upper - upper.T).astype(float)
    matching = RegretMatching(symmetric=True)
    matching.grow(30, 30)
    x, y = matching.solve(payoff, iterations=4000)
    assert x is y
    # The value of a symmetric game is 0: x guarantees nearly that.
    assert (x @ payoff).min() > -0.05


def test_regrets_persist_as_the_game_grows():
    rng = np.random.default_rng(1)
    payoff = rng.integers(-2, 3, size=(8, 8)).astype(float)
    matching = RegretMatching(symmetric=False)
    matching.grow(6, 6)
    matching.solve(payoff[:6, :6], iterations=50)
    before = matching.row_regrets.copy()
    matching.grow(8, 8)
    assert matching.row_regrets[:6].tolist() == before.tolist()
    assert matching.row_regrets[6:].tolist() == [0.0, 0.0]
    x, y = matching.solve(payoff, iterations=10)
    assert x.shape == (8,) and y.shape == (8,)


def test_errors():
    matching = RegretMatching(symmetric=False)
    matching.grow(2, 3)
    with pytest.raises(SolverError, match="the game is 3 x 3 but the regrets are for 2 x 3"):
        matching.solve(np.zeros((3, 3)), iterations=1)
    with pytest.raises(SolverError, match="at least one iteration"):
        WarmUp(gap=0.1, iterations=0)
    with pytest.raises(SolverError, match="non-negative"):
        WarmUp(gap=-1.0)
    with pytest.raises(SolverError, match="non-negative"):
        WarmUp(gap=float("nan"))


@pytest.mark.parametrize("symmetric", [False, True])
def test_rounds_stop_once_the_target_gap_is_reached(symmetric):
    rng = np.random.default_rng(7)
    upper = np.triu(rng.integers(-2, 3, size=(25, 25)), 1)
    payoff = (upper - upper.T if symmetric else rng.integers(-2, 3, size=(25, 25))).astype(float)
    full, early = RegretMatching(symmetric), RegretMatching(symmetric)
    for matching in (full, early):
        matching.grow(25, 25)
    x, y = early.solve(payoff, iterations=5000, target=0.2, check_every=10)
    # Stopped at the first check under the target: well before 5000 rounds, and the
    # averages (float32 products) certify the gap asked for, in float64.
    assert exploitability(payoff, x, y) <= 0.2 + 1e-5
    rounds = next(t for t in range(10, 5001, 10) if _gap_after(payoff, symmetric, t) <= 0.2)
    assert rounds < 5000
    assert early.row_regrets == pytest.approx(_regrets_after(payoff, symmetric, rounds))
    fx, fy = full.solve(payoff, iterations=5000)
    assert exploitability(payoff, fx, fy) <= exploitability(payoff, x, y)


def _gap_after(payoff: np.ndarray, symmetric: bool, rounds: int) -> float:
    matching = RegretMatching(symmetric)
    matching.grow(*payoff.shape)
    return exploitability(payoff, *matching.solve(payoff, iterations=rounds))


def _regrets_after(payoff: np.ndarray, symmetric: bool, rounds: int) -> np.ndarray:
    matching = RegretMatching(symmetric)
    matching.grow(*payoff.shape)
    matching.solve(payoff, iterations=rounds)
    return matching.row_regrets


def test_warm_up_targets():
    warm_up = WarmUp(gap=0.02, relative=0.5)
    assert warm_up.target(1.0) == 0.5 and warm_up.target(0.01) == 0.01
    assert warm_up.target(np.inf) == 0.0  # before any certified gap: every round
    assert WarmUp(gap=0.02, relative=0.0).target(1.0) == 0.0
    with pytest.raises(SolverError, match="relative"):
        WarmUp(gap=0.02, relative=-1.0)


def _reference(payoff: np.ndarray, rounds: int, symmetric: bool) -> tuple[np.ndarray, np.ndarray]:
    """Predictive regret matching+ written out plainly, one pure strategy at a time."""
    rows, columns = payoff.shape

    def play(regrets: list[float], prediction: list[float]) -> list[float]:
        weights = [max(r + m, 0.0) for r, m in zip(regrets, prediction, strict=True)]
        total = sum(weights)
        return [w / total for w in weights] if total > 0 else [1.0 / len(weights)] * len(weights)

    def regrets_of(values: list[float], strategy: list[float]) -> list[float]:
        mean = sum(v * s for v, s in zip(values, strategy, strict=True))
        return [v - mean for v in values]

    regret = {"rows": [0.0] * rows, "columns": [0.0] * columns}
    last = {"rows": [0.0] * rows, "columns": [0.0] * columns}
    sums = {"rows": [0.0] * rows, "columns": [0.0] * columns}
    for t in range(1, rounds + 1):
        x = play(regret["rows"], last["rows"])
        y = x if symmetric else play(regret["columns"], last["columns"])
        values = {
            "rows": [sum(payoff[i, j] * y[j] for j in range(columns)) for i in range(rows)],
            "columns": [-sum(payoff[i, j] * x[i] for i in range(rows)) for j in range(columns)],
        }
        for side, strategy in (("rows", x), ("columns", y)):
            if symmetric and side == "columns":
                continue
            last[side] = regrets_of(values[side], strategy)
            regret[side] = [max(r + m, 0.0) for r, m in zip(regret[side], last[side], strict=True)]
            sums[side] = [a + t * t * s for a, s in zip(sums[side], strategy, strict=True)]
    x, y = (
        np.array(sums[side]) / sum(sums[side])
        for side in ("rows", "rows" if symmetric else "columns")
    )
    return x, y


@pytest.mark.parametrize("symmetric", [False, True])
def test_matches_a_plain_reference(symmetric):
    rng = np.random.default_rng(11)
    upper = np.triu(rng.integers(-2, 3, size=(9, 9)), 1)
    payoff = (upper - upper.T if symmetric else rng.integers(-2, 3, size=(9, 7))).astype(float)
    matching = RegretMatching(symmetric)
    matching.grow(*payoff.shape)
    x, y = matching.solve(payoff, iterations=60)
    # float32 products against exact float64 sums: equal to rounding.
    want_x, want_y = _reference(payoff, 60, symmetric)
    assert x == pytest.approx(want_x, abs=1e-5) and y == pytest.approx(want_y, abs=1e-5)
