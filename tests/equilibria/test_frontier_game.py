"""The deal's payoff oracle (solver.equilibria.frontier_game) against payoffs counted plainly."""

from __future__ import annotations

import numpy as np
import pytest

from solver.equilibria.frontier_game import FrontierGame
from solver.game.deal import deal
from solver.game.rules import Rules


def _plain_payoff(mine: list[int], theirs: list[int], weights: tuple[int, ...], payoff: str) -> int:
    """Points scored less points conceded, position by position; for win, its sign."""
    margin = 0
    for a, b, weight in zip(mine, theirs, weights, strict=True):
        margin += weight if a > b else -weight if a < b else 0
    if payoff == "margin":
        return margin
    return (margin > 0) - (margin < 0)


@pytest.mark.parametrize("payoff", ["win", "margin"])
@pytest.mark.parametrize("mirror", [True, False])
@pytest.mark.parametrize("points", [(3, 4, 5, 6, 7), (10, 20, 30, 40, 50)])
def test_payoffs_match_a_plain_count(payoff, mirror, points):
    rules = Rules(position_points=points)
    first = deal(seed=5, rules=rules).holdings[0]
    second = first if mirror else deal(seed=6, rules=rules).holdings[1]
    game = FrontierGame(first, second, rules, payoff)
    rng = np.random.default_rng(1)
    rows = rng.choice(game.sizes[0], 12, replace=False).tolist()
    columns = rows if mirror else rng.choice(game.sizes[1], 12, replace=False).tolist()
    mine, theirs = game.rows.strengths.tolist(), game.columns.strengths.tolist()

    def plain(i: int, j: int) -> int:
        return _plain_payoff(mine[i], theirs[j], points, payoff)

    game.prepare(rows[:5], columns[5:7])  # some computed ahead, in a batch
    # Columns first: a symmetric game's column may be asked for before its row.
    for j in columns:
        assert game.column_payoffs(rows, j).tolist() == [plain(i, j) for i in rows]
    for i in rows:
        assert game.row_payoffs(i, columns).tolist() == [plain(i, j) for j in columns]
