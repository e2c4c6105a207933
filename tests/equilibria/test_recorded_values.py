"""Game values stay equal deal by deal to values recorded by the plain double oracle.

``tests/support/data/equilibrium_values.json`` holds the values the plain double oracle
(commit fe83559) computed for 40 seeded deals of each payoff, mirror and independent; the
faster double oracle (float32 regret matching that stops early, the warm
simplex read from a fresh factorization, int16 outcome vectors, a warm-up
for mirror margin games) must find the same values within the certified
gap.  Three deals of each kind in the fast tier (fast ones, with non-trivial values
where there are any), all 40 in the slow tier.  And the
oracle's restricted payoffs (computed from the strengths for margin, from
int16 comparisons summed in int8 for win) against the obvious definition.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from solver.equilibria.equilibrium import solve
from solver.equilibria.frontier_game import FrontierGame
from solver.game.deal import deal
from solver.game.rules import Rules

VALUES = json.loads(
    (Path(__file__).parents[1] / "support" / "data" / "equilibrium_values.json").read_text()
)
RULES = {"mirror": Rules(), "independent": Rules(discard_mode="independent")}
CASES = [
    ("margin", "mirror", (17, 25, 20)),
    ("margin", "independent", (24, 20, 8)),
    ("win", "mirror", (17, 25, 20)),
    ("win", "independent", (20, 17, 15)),
]
TOLERANCE = 1e-9


@pytest.mark.parametrize(
    ("payoff", "mode", "seed"),
    [(payoff, mode, seed) for payoff, mode, seeds in CASES for seed in seeds],
)
def test_value_equals_the_recorded_one(payoff: str, mode: str, seed: int) -> None:
    rules = RULES[mode]
    first, second = deal(seed=seed, rules=rules).holdings
    result = solve(first, second, rules, payoff, tolerance=TOLERANCE)
    assert result.gap <= TOLERANCE
    assert result.value == pytest.approx(VALUES[f"{payoff}/{mode}"][str(seed)], abs=TOLERANCE)


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(k for k in VALUES if "/" in k))
def test_every_recorded_value_is_found_again(kind: str) -> None:
    payoff, mode = kind.split("/")
    rules, fast = RULES[mode], next(s for p, m, s in CASES if (p, m) == (payoff, mode))
    for seed in sorted(set(map(int, VALUES[kind])) - set(fast)):
        result = solve(*deal(seed=seed, rules=rules).holdings, rules, payoff, tolerance=TOLERANCE)
        assert result.gap <= TOLERANCE, seed
        assert result.value == pytest.approx(VALUES[kind][str(seed)], abs=TOLERANCE), seed


def _slow_payoff(rows: np.ndarray, column: np.ndarray, weights: tuple[int, ...], payoff: str):
    """The obvious definition: points won minus conceded, position by position (win: its sign)."""
    margin = np.array(
        [
            sum(
                w * ((a > b) - (a < b))
                for a, b, w in zip(row, column.tolist(), weights, strict=True)
            )
            for row in rows.tolist()
        ]
    )
    return margin if payoff == "margin" else np.sign(margin)


@pytest.mark.parametrize("payoff", ["margin", "win"])
@pytest.mark.parametrize("mode", ["mirror", "independent"])
def test_restricted_payoffs_match_the_definition(payoff: str, mode: str) -> None:
    rules = RULES[mode]
    game = FrontierGame(*deal(seed=5, rules=rules).holdings, rules, payoff)
    rng = np.random.default_rng(0)
    rows = rng.choice(game.rows.size, 40, replace=False).tolist()
    columns = rng.choice(game.columns.size, 30, replace=False).tolist()
    weights = rules.position_points
    for column in columns:  # columns join first: the win rows read their outcomes
        expected = _slow_payoff(
            game.rows.strengths[rows], game.columns.strengths[column], weights, payoff
        )
        assert game.column_payoffs(rows, column).tolist() == expected.tolist()
    for row in rows:
        strengths = game.columns.strengths[columns]
        expected = -_slow_payoff(strengths, game.rows.strengths[row], weights, payoff)
        assert game.row_payoffs(row, columns).tolist() == expected.tolist()
    if payoff == "win":  # the whole frontier's outcome vectors, stored for the best responses
        every = _slow_payoff(
            game.rows.strengths, game.columns.strengths[columns[0]], weights, payoff
        )
        assert game.rows.against[columns[0]].tolist() == every.tolist()
