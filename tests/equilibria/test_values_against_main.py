"""Game values stay equal deal by deal to main's before issue #25's double-oracle work.

``tests/support/data/equilibrium_values.json`` holds the values main (fe83559)
computed for 40 seeded deals of each payoff, mirror and independent; the
faster double oracle (float32 regret matching that stops early, the warm
simplex read from a fresh factorization, int16 outcome vectors, a warm-up
for mirror margin games) must find the same values within the certified
gap.  Three deals of each kind here (fast ones, with non-trivial values where
there are any); ``benchmarks/bench_values.py`` checks all 40.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solver.equilibria.equilibrium import solve
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
def test_value_equals_main(payoff: str, mode: str, seed: int) -> None:
    rules = RULES[mode]
    first, second = deal(seed=seed, rules=rules).holdings
    result = solve(first, second, rules, payoff, tolerance=TOLERANCE)
    assert result.gap <= TOLERANCE
    assert result.value == pytest.approx(VALUES[f"{payoff}/{mode}"][str(seed)], abs=TOLERANCE)
