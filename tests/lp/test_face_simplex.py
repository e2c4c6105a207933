"""The weighted face program on the warm simplex gives GLOP's least-cost vertex, priced alike."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linprog

from solver.errors import SimplexError
from solver.lp import least_cost, simplex_program, warm_program


def _value(payoff: np.ndarray) -> float:
    """The row player's value of ``payoff`` (HiGHS: max v over x in the simplex, P^T x >= v)."""
    rows, columns = payoff.shape
    found = linprog(
        np.r_[np.zeros(rows), -1.0],
        A_ub=np.c_[-payoff.T, np.ones(columns)],
        b_ub=np.zeros(columns),
        A_eq=np.r_[np.ones(rows), 0.0].reshape(1, -1),
        b_eq=[1.0],
        bounds=[(0, None)] * rows + [(None, None)],
        method="highs",
    )
    return float(-found.fun)


def _weighted(payoff: np.ndarray, value: float, cost: np.ndarray, start=None, solve=None):
    """The canonical search's weight loop on one restricted game (default on the simplex)."""
    solve, weight = solve or simplex_program(-1.0, start), 1e5
    for _ in range(6):
        point = solve(payoff, value, cost, weight)
        if point.value >= value - 1e-11:
            return point
        weight *= 16.0
    raise AssertionError("the value was not reached")


def _game(seed: int) -> np.ndarray:
    """A degenerate {-1, 0, 1} game, symmetric for even seeds, each of whose first two
    strategies comes three times (optimal faces of more than one point)."""
    rng = np.random.default_rng(seed)
    payoff = rng.choice([-1.0, 0.0, 1.0], size=(26, 26), p=[0.35, 0.3, 0.35])
    if seed % 2 == 0:
        payoff = np.triu(payoff, 1) - np.triu(payoff, 1).T
    copies = np.r_[0, 0, 0, 1, 1, 1, 2:26]
    return payoff[np.ix_(copies, copies if seed % 2 == 0 else np.arange(26))]


@pytest.mark.parametrize("seed", range(8))
def test_the_least_cost_vertex_is_glops(seed: int) -> None:
    payoff, cost = _game(seed), np.random.default_rng(100 + seed).random(30)
    value = _value(payoff)
    point = _weighted(payoff, value, cost)
    reference = _weighted(payoff, value, cost, solve=warm_program({}, 0))  # GLOP
    assert cost @ point.x == pytest.approx(cost @ reference.x, abs=1e-12)
    np.testing.assert_allclose(point.x, reference.x, atol=1e-12)
    assert (point.x @ payoff).min() >= value - 1e-11 and point.x.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("seed", range(8))
def test_its_duals_price_every_strategy_as_the_face_program_does(seed: int) -> None:
    """``h_i - mu - P_i . lambda >= 0``, with equality on the support (the search prices by it)."""
    payoff, cost = _game(seed), np.random.default_rng(200 + seed).random(30)
    point = _weighted(payoff, _value(payoff), cost)
    reduced = cost - point.mu - payoff @ point.duals
    scale = 1.0 + float(point.duals.sum())
    assert reduced.min() >= -1e-9 * scale
    assert np.abs(reduced[point.x > 1e-9]).max() <= 1e-9 * scale


def test_a_start_from_an_equilibrium_ends_at_the_same_vertex() -> None:
    payoff, cost = _game(2), np.random.default_rng(7).random(30)
    value = _value(payoff)
    reference = least_cost(payoff, value - 1e-10, np.zeros(30))  # some optimal strategy
    start = (reference.x, reference.x)  # symmetric: the column player's too
    np.testing.assert_allclose(
        _weighted(payoff, value, cost, start).x, _weighted(payoff, value, cost).x, atol=1e-12
    )


def test_it_refuses_the_fixed_value_program() -> None:
    with pytest.raises(SimplexError, match="weighted face program only"):
        simplex_program(-1.0)(np.eye(2), 0.5, np.zeros(2), None)


def test_a_payoff_below_the_bound_is_a_simplex_error() -> None:
    """The caller then solves with GLOP (the bound sets the simplex's shift)."""
    solve = simplex_program(0.0)
    solve(np.eye(2), 0.5, np.zeros(2), 1e5)
    with pytest.raises(SimplexError, match="below 1 - shift"):
        solve(np.c_[np.eye(2), [5.0, 5.0]].T[:, :2].T, 0.5, np.zeros(2), 1e5)
