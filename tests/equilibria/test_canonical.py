"""The canonical equilibrium: the same strategies whatever the solver's path or the seats."""

from __future__ import annotations

import numpy as np
import pytest

from solver.equilibria.canonical import costs
from solver.equilibria.equilibrium import EquilibriumResult, solve
from solver.game.deal import deal
from solver.game.rules import Rules
from solver.models.mixture import Mixture

# Measured (20 deals each): mirror margin and win agree to about 1e-12;
# independent margin deals end at the same vertex, recomputed at values that
# differ by about 1e-14 between paths, which moves probabilities by up to 1e-8.
_MIRROR = 1e-11
_INDEPENDENT = 1e-8


def _probabilities(m: Mixture) -> dict:
    return dict(zip(m.arrangements, m.probabilities, strict=True))


def _distance(a: EquilibriumResult, b: EquilibriumResult) -> float:
    worst = 0.0
    for x, y in ((a.row, b.row), (a.column, b.column)):
        px, py = _probabilities(x), _probabilities(y)
        worst = max(worst, max(abs(px.get(k, 0.0) - py.get(k, 0.0)) for k in px.keys() | py.keys()))
    return worst


def _paths(mode: str, payoff: str, seed: int) -> list[EquilibriumResult]:
    first, second = deal(seed=seed, rules=Rules(discard_mode=mode)).holdings
    return [
        solve(first, second, payoff=payoff),
        solve(first, second, payoff=payoff, warm_simplex=False),
        solve(first, second, payoff=payoff, warm_up=False),
        solve(second, first, payoff=payoff).transposed(),
    ]


def _check(mode: str, payoff: str, seeds: range, tolerance: float) -> None:
    for seed in seeds:
        results = _paths(mode, payoff, seed)
        assert all(r.canonical and r.gap <= 1e-9 for r in results), (mode, payoff, seed)
        for other in results[1:]:
            assert _distance(results[0], other) <= tolerance, (mode, payoff, seed)


@pytest.mark.parametrize("payoff", ["margin", "win"])
def test_mirror_canonical_strategy_is_the_same_on_every_path(payoff: str) -> None:
    _check("mirror", payoff, range(3), _MIRROR)


def test_independent_margin_canonical_strategy_is_the_same_on_every_path_and_seat() -> None:
    _check("independent", "margin", range(3), _INDEPENDENT)


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


# Known to fail (issue #24 open): on deal 13 the paths end at vertices 1.7e-5 apart in
# both margin kinds (a near-tie of the hashed costs, or the face at v - SLACK); strict, so
# that a fix shows here.
_DEAL_13 = pytest.mark.xfail(strict=True, reason="issue #24: deal 13 ends at another vertex")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("mode", "payoff", "tolerance"),
    [
        pytest.param("mirror", "margin", _MIRROR, marks=_DEAL_13),
        ("mirror", "win", _MIRROR),
        pytest.param("independent", "margin", _INDEPENDENT, marks=_DEAL_13),
    ],
)
def test_twenty_deals_agree_on_every_path(mode: str, payoff: str, tolerance: float) -> None:
    _check(mode, payoff, range(20), tolerance)
