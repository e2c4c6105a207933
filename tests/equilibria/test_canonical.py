"""The canonical equilibrium: the same strategies whatever the solver's path or the seats."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from solver.equilibria.canonical import canonical_pair, costs
from solver.equilibria.double_oracle import DoubleOracle, MatrixOracle
from solver.equilibria.equilibrium import EquilibriumResult, solve
from solver.equilibria.frontier_game import FrontierGame
from solver.game.deal import deal
from solver.game.rules import Rules
from solver.models.mixture import Mixture
from tests.support.faces import faces_on_glop

# The vertex is recomputed from its support and tight set, with the value an
# unknown: paths agree to rounding (measured: within 6e-14 on 20 deals of each
# mode and payoff).
_TOLERANCE = 1e-12


def _probabilities(m: Mixture) -> dict:
    return dict(zip(m.arrangements, m.probabilities, strict=True))


def _distance(a: EquilibriumResult, b: EquilibriumResult) -> float:
    worst = 0.0
    for x, y in ((a.row, b.row), (a.column, b.column)):
        px, py = _probabilities(x), _probabilities(y)
        worst = max(worst, max(abs(px.get(k, 0.0) - py.get(k, 0.0)) for k in px.keys() | py.keys()))
    return worst


def _paths(mode: str, payoff: str, seed: int) -> list[EquilibriumResult]:
    """The deal solved on every path (no ranges: only the strategies are compared)."""
    first, second = deal(seed=seed, rules=Rules(discard_mode=mode)).holdings
    paths = [
        solve(first, second, payoff=payoff, ranges=False),
        solve(first, second, payoff=payoff, warm_simplex=False, ranges=False),
        solve(first, second, payoff=payoff, warm_up=False, ranges=False),
    ]
    with faces_on_glop():
        paths.append(solve(first, second, payoff=payoff, ranges=False))
    if first != second:  # the seats swapped (a mirror deal's are the same game)
        paths.append(solve(second, first, payoff=payoff, ranges=False).transposed())
    return paths


def _check(mode: str, payoff: str, seeds: range) -> None:
    for seed in seeds:
        results = _paths(mode, payoff, seed)
        assert all(r.canonical and r.gap <= 1e-9 for r in results), (mode, payoff, seed)
        for other in results[1:]:
            assert _distance(results[0], other) <= _TOLERANCE, (mode, payoff, seed)


@pytest.mark.parametrize("payoff", ["margin", "win"])
def test_mirror_canonical_strategy_is_the_same_on_every_path(payoff: str) -> None:
    _check("mirror", payoff, range(3))


@pytest.mark.parametrize("payoff", ["margin", "win"])
def test_independent_canonical_strategy_is_the_same_on_every_path_and_seat(payoff: str) -> None:
    # Independent win deals 0 and 1 ended at pure strategies 1.0 apart while
    # the win pricing saw only the strategies near the best response.
    _check("independent", payoff, range(3))


def test_the_canonical_strategy_does_not_depend_on_the_values_last_digits() -> None:
    # Two optimal rows (0 and 1 equivalent, 2 a mixture of 3 and 4 in value):
    # a face, not a point, and a value off by 1e-13 must not move the vertex.
    payoff = np.array(
        [[3, -1, 2], [3, -1, 2], [1, 1, 1], [2, 0, 1], [0, 2, 1], [-2, -2, 5]], np.float64
    )
    game = MatrixOracle(payoff)
    search = DoubleOracle(game)
    _ = list(search.iterations())
    found = search.solution
    chosen = []
    for offset in (0.0, 1e-13, -1e-13):
        search.solution = lambda offset=offset: replace(found(), value=found().value + offset)
        chosen.append(canonical_pair(game, search))
    for pair in chosen[1:]:
        for mine, first in ((pair.row, chosen[0].row), (pair.column, chosen[0].column)):
            assert mine.strategies == first.strategies
            assert np.abs(mine.probabilities - first.probabilities).max() <= 1e-15
    row = chosen[0].row
    assert min(row.probabilities @ row.payoff) >= found().value - 1e-12


def test_the_win_pricing_sees_every_strategy_over_its_threshold() -> None:
    first, second = deal(seed=2, rules=Rules(discard_mode="independent")).holdings
    game = FrontierGame(first, second, Rules(discard_mode="independent"), "win")
    columns = list(range(0, 40, 3))
    for j in columns:
        game.column_payoffs([], j)
    mixed = np.random.default_rng(0).dirichlet(np.ones(len(columns)))
    exact = np.stack([game.rows.against[j] for j in columns], axis=1) @ mixed
    above = exact + np.random.default_rng(1).uniform(-1e-6, 1e-6, exact.shape[0])
    over = np.flatnonzero(exact > above)
    assert over.size > 100  # more than the best responses' candidates
    plain = game.best_rows(columns, mixed).values
    assert np.isinf(plain[over]).any()  # without thresholds most are not evaluated
    priced = game.best_rows(columns, mixed, above).values
    assert np.abs(priced[over] - exact[over]).max() <= 1e-12
    assert priced.max() == plain.max()  # the best is the same either way


def test_the_canonical_pair_differs_from_the_found_one_and_is_certified() -> None:
    first, second = deal(seed=2, rules=Rules(discard_mode="independent")).holdings
    canonical, found = solve(first, second), solve(first, second, canonical=False)
    assert canonical.canonical and not found.canonical
    assert canonical.gap <= 1e-9 and abs(canonical.value - found.value) <= 1e-9
    assert len(canonical.row_ranges) == len(canonical.row.arrangements)
    assert canonical.unique is False  # this deal has other optimal strategies


def test_costs_are_distinct_and_not_additive() -> None:
    h = costs(range(100_000))
    assert np.unique(h).size == h.size and h.min() >= 0 and h.max() < 1
    # The linear hash this replaced tied h(a) + h(b) = h(c) + h(d) when a + b = c + d.
    assert abs(h[14983] + h[15970] - h[15127] - h[15826]) > 1e-6


# Deals 0-2 are the fast tests'; one item per deal so that workers share them.
@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3, 20))
@pytest.mark.parametrize("mode", ["mirror", "independent"])
@pytest.mark.parametrize("payoff", ["margin", "win"])
def test_twenty_deals_agree_on_every_path(mode: str, payoff: str, seed: int) -> None:
    _check(mode, payoff, range(seed, seed + 1))
