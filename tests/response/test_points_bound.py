"""Position points at ``MAX_POSITION_POINTS`` keep the solvers exact.

The CP-SAT coefficients are ``points * total`` (``total``: 53,130 for a
random opponent, about ``MIXTURE_SCALE`` = 10^6 for a mixture), so at 1,000
points the objective stays below 10^10, far inside int64 and the doubles
CP-SAT reports.  Scaling every position's points by 1,000 scales the margin
by 1,000 and leaves the win probability unchanged: the runs at the bound are
checked against the runs at one point a position.
"""

from __future__ import annotations

import numpy as np
import pytest

from solver.game.deal import deal
from solver.game.rules import MAX_POSITION_POINTS, Rules
from solver.models.heuristics import greedy_arrangement, random_arrangement
from solver.models.opponents import Objective, Opponent
from solver.response.best_response import top_responses

ONE = Rules(position_points=(1,) * 5)
TOP = Rules(position_points=(MAX_POSITION_POINTS,) * 5)


def test_margin_at_the_bound_is_the_scaled_margin():
    mine, theirs = deal(3).holdings
    small = top_responses(mine, Opponent.random(theirs, ONE), Objective.MARGIN, k=2)
    large = top_responses(mine, Opponent.random(theirs, TOP), Objective.MARGIN, k=2)
    assert [r.status.value for r in large] == ["optimal", "optimal"]
    for a, b in zip(small, large, strict=True):
        assert b.value == pytest.approx(MAX_POSITION_POINTS * a.value, rel=1e-12)


def test_win_against_a_mixture_at_the_bound_is_unchanged():
    mine, theirs = deal(4).holdings
    rng = np.random.default_rng(0)
    arrangements = [greedy_arrangement(theirs)] + [
        random_arrangement(theirs, rng) for _ in range(5)
    ]
    probabilities = [0.5, 0.2, 0.1, 0.1, 0.05, 0.05]
    values = []
    for rules in (ONE, TOP):
        opponent = Opponent.mixture(arrangements, probabilities, rules=rules)
        best = top_responses(mine, opponent, Objective.WIN_PROBABILITY, k=1)[0]
        assert best.status.value == "optimal"
        values.append(best.value)
    assert values[1] == pytest.approx(values[0], abs=1e-12)
