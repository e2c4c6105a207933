"""The runners-up of the frontier engine: honest when cut short, with progress.

Their values are checked against brute force in tests/response/test_best_response.py
(``TOP_SEARCHES``); here: a Ctrl-C or the time limit during the CP-SAT searches keeps the
best found, marked not proven with a bound no better than the previous result's value,
and the progress reports.
"""

from __future__ import annotations

import pytest

from solver.game.cards import parse_cards
from solver.game.rules import Rules
from solver.models.opponents import Objective, Opponent
from solver.response import cpsat_model
from solver.response.best_response import top_responses
from solver.response.frontier_top import TopProgress, frontier_top_responses
from solver.response.results import STOPPED, TIME_LIMIT_REACHED, SolveStatus

RULES = Rules(position_points=(5, 6, 7))
MINE = tuple(parse_cards("7h 7s 8h 8s 9d Tc Ts Jc Jd Js Qh Kc Ks Ad As"))
OPPONENT = Opponent.random(MINE, RULES)


def test_a_ctrl_c_keeps_the_best_found_marked_not_proven(monkeypatch):
    def interrupted(self, time_limit, workers):
        raise KeyboardInterrupt

    monkeypatch.setattr(cpsat_model.ArrangementModel, "solve", interrupted)
    best, second = frontier_top_responses(MINE, OPPONENT, Objective.MARGIN, k=3)
    assert best.status is SolveStatus.OPTIMAL and best.gap == 0
    assert second.status is SolveStatus.FEASIBLE and second.note == STOPPED
    # Nothing below the best is worth more than the best.
    assert second.value <= second.bound == pytest.approx(best.value)
    assert second.strengths != best.strengths


def test_the_time_limit_keeps_the_best_found_marked_not_proven():
    best, second = frontier_top_responses(MINE, OPPONENT, Objective.MARGIN, k=3, time_limit=1e-9)
    assert best.status is SolveStatus.OPTIMAL
    assert second.status is SolveStatus.FEASIBLE and second.note == TIME_LIMIT_REACHED
    assert second.value <= second.bound <= best.value
    # With time, the same runner-up is proven (the frontier's candidate held).
    proven = frontier_top_responses(MINE, OPPONENT, Objective.MARGIN, k=2)[1]
    assert proven.status is SolveStatus.OPTIMAL and proven.gap == 0
    assert proven.value == pytest.approx(second.value, abs=1e-12) or proven.value > second.value


def test_progress_starts_after_the_frontier_and_ends_with_every_result():
    seen: list[TopProgress] = []
    results = frontier_top_responses(MINE, OPPONENT, Objective.POINTS, k=4, on_progress=seen.append)
    assert seen[0].found == 0 and seen[0].searches == 0 and seen[0].strategies > 0
    assert seen[-1].found == len(results) == 4 and seen[-1].k == 4
    assert [p.searches for p in seen] == sorted(p.searches for p in seen)
    assert seen[-1].searches >= 1  # below the best at least once
    assert all(r.status is SolveStatus.OPTIMAL and r.gap == 0 for r in results)


@pytest.mark.parametrize("objective", [Objective.MARGIN, Objective.WIN_PROBABILITY])
def test_the_same_values_as_the_cpsat_search(objective):
    """Both engines' k best values agree (each checked against brute force elsewhere)."""
    rng_args = {"samples": 12}
    frontier = frontier_top_responses(MINE, OPPONENT, objective, k=4, **rng_args)
    cpsat = top_responses(MINE, OPPONENT, objective, k=4, **rng_args)
    assert [r.value for r in frontier] == pytest.approx([r.value for r in cpsat], abs=1e-9)
