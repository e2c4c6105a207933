"""OpenSpiel's learning algorithms scored exactly (solver.learning_curves), beside double oracle."""

from __future__ import annotations

import numpy as np
import pytest

import solver
from solver.agents.learning import ALGORITHMS, CurvePoint
from solver.errors import QuintetError, SolverError

SMALL = solver.Rules(position_points=(5, 6, 7))


def test_every_algorithm_learns_and_double_oracle_certifies() -> None:
    points = solver.learning_curves([1], SMALL, "margin", list(ALGORITHMS), [1, 10, 30])
    by = {name: [p for p in points if p.algorithm == name] for name in ALGORITHMS}
    for name in ALGORITHMS[:-1]:
        assert [p.iterations for p in by[name]] == [1, 10, 30]
        assert all(p.nash_conv >= 0 and p.seconds >= 0 for p in by[name])
    for name in ("regret_matching", "cfr", "cfr_plus", "fictitious_play"):
        assert by[name][-1].nash_conv < by[name][0].nash_conv  # they learn
    final = by["double_oracle"][-1]
    assert final.nash_conv <= 1e-9
    assert [p.iterations for p in by["double_oracle"]] == list(range(1, final.iterations + 1))


def test_the_win_payoff_scores_probabilities() -> None:
    points = solver.learning_curves(2, SMALL, "win", ["cfr_plus", "double_oracle"], [1, 20])
    assert all(0 <= p.nash_conv <= 1 for p in points)
    assert points[-1].algorithm == "double_oracle" and points[-1].nash_conv <= 1e-9


def test_summaries_carry_a_finished_deal_at_its_last_point() -> None:
    points = [
        CurvePoint("double_oracle", 1, 1, 4.0, 0.1),
        CurvePoint("double_oracle", 1, 2, 0.0, 0.2),
        CurvePoint("double_oracle", 2, 1, 2.0, 0.1),
        CurvePoint("double_oracle", 2, 2, 1.0, 0.2),
        CurvePoint("double_oracle", 2, 3, 0.0, 0.3),
    ]
    rows = solver.summarize_curves(points)
    assert [(r.iterations, r.nash_conv, r.deals) for r in rows] == [
        (1, 3.0, 2),
        (2, 0.5, 2),
        (3, 0.0, 2),
    ]
    low, high = rows[0].low, rows[0].high
    half = 12.706 * np.std([4.0, 2.0], ddof=1) / np.sqrt(2)
    assert (low, high) == pytest.approx((max(0.0, 3.0 - half), 3.0 + half))


@pytest.mark.parametrize(
    ("algorithms", "checkpoints", "message"),
    [
        (["psro"], [1], "algorithms: 'psro' is not one of regret_matching"),
        (["cfr"], [10, 1], r"checkpoints: \[10, 1\] is not increasing"),
        (["cfr"], [], r"checkpoints: \[\] is not increasing"),
        (["cfr"], [0], r"checkpoints must be in \[1, inf\], got 0"),
    ],
)
def test_bad_arguments(algorithms: list[str], checkpoints: list[int], message: str) -> None:
    with pytest.raises(QuintetError, match=message):
        solver.learning_curves([1], SMALL, "margin", algorithms, checkpoints)


def test_the_full_game_is_refused_for_matrix_solvers() -> None:
    with pytest.raises(SolverError, match=r"payoff matrix of .* cells is over 50,000,000"):
        solver.learning_curves([3], solver.Rules(), "margin", ["regret_matching"], [1])
