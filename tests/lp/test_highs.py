"""The LP engine against HiGHS on restricted games recorded from real double-oracle runs.

``tests/support/data/restricted_games.npz`` holds games the double oracle
solved (``python -m benchmarks lp --set save_games=PATH`` records them: win
payoffs of mirror deals, margin payoffs of two holdings).  Each game is
grown through leading blocks on one warm program (rows and columns added
between solves), then restricted to its even rows and odd columns; at every
solve the value must equal HiGHS's (from scratch, in a process of its own:
``tests/support/highs.py``) to 1e-8, and the exact read-out must be a
certified optimum: the warm simplex itself answered (no GLOP fallback), and
the strategies it read out bound the value from both sides to 1e-10, and the
row strategy is the vertex its structure determines.
"""

from __future__ import annotations

import numpy as np
import pytest

from solver.lp import MatrixGameLP, WarmSimplex, structural_vertex
from tests.support import highs

GAMES = np.load(highs.GAMES)
# The games of some 300 strategies take seconds each: the slow tier.
NAMES = [
    pytest.param(name, marks=pytest.mark.slow) if GAMES[name].shape[0] >= 300 else name
    for name in GAMES.files
]
AGREE = 1e-8  # with HiGHS
CERTIFIED = 1e-10  # the certified gap of the read-out


@pytest.fixture(scope="module")
def highs_values() -> dict[str, float]:
    return highs.answers()


def certified(matrix: np.ndarray, row: np.ndarray, column: np.ndarray, value: float) -> None:
    """The strategies bound the value from both sides, and the row is the vertex its
    support and tight set determine (what the canonical selection reads)."""
    for strategy in (row, column):
        assert strategy.min() >= 0 and abs(strategy.sum() - 1.0) <= 1e-12
    lower, upper = float((row @ matrix).min()), float((matrix @ column).max())
    assert upper - lower <= CERTIFIED * max(1.0, abs(value))
    assert lower - CERTIFIED <= value <= upper + CERTIFIED
    vertex = structural_vertex(matrix, row, value)
    assert vertex is not None and np.abs(vertex - row).max() <= 1e-12


def test_the_recorded_games_are_real_restricted_games():
    assert len(GAMES.files) >= 6
    assert {name.split("_")[0] for name in GAMES.files} == {"win", "margin"}
    assert max(GAMES[name].shape[0] for name in GAMES.files) >= 300


@pytest.mark.parametrize("name", NAMES)
def test_the_engine_agrees_with_highs_and_certifies_its_optimum(name, highs_values):
    game = GAMES[name].astype(np.float64)
    pieces = highs.pieces(game.shape)
    lp, solved = MatrixGameLP(lowest=float(game.min()), warm=True), (0, 0)
    for piece, (rows, columns) in pieces.items():
        if piece == "restricted":
            lp.restrict(rows.tolist(), columns.tolist())
        else:  # the next leading block: its new columns, then its new rows
            for j in range(solved[1], columns.size):
                lp.add_column(game[: solved[0], j])
            for i in range(solved[0], rows.size):
                lp.add_row(game[i, : columns.size])
            solved = (rows.size, columns.size)
        matrix = game[np.ix_(rows, columns)]
        assert np.array_equal(lp.matrix(), matrix)
        solution = lp.solve()
        assert lp.fallbacks == 0, f"{name}/{piece}: the warm simplex handed the game to GLOP"
        assert solution.value == pytest.approx(highs_values[f"{name}/{piece}"], abs=AGREE)
        certified(matrix, solution.row, solution.column, solution.value)


@pytest.mark.parametrize("name", NAMES)
def test_the_simplex_from_scratch_agrees_with_highs(name, highs_values):
    game = GAMES[name].astype(np.float64)
    row, column, value = WarmSimplex(shift=1.0 - float(game.min())).solve(game)
    assert value == pytest.approx(highs_values[f"{name}/grown{highs.STEPS}"], abs=AGREE)
    certified(game, row, column, value)


def test_the_values_compared_differ_from_game_to_game(highs_values):
    # The comparison has teeth: an engine answering one value for all would fail it.
    assert len(highs_values) == len(GAMES.files) * (highs.STEPS + 1)
    values = np.array(list(highs_values.values()))
    assert values.max() - values.min() > 0.5
    assert (np.abs(values) > 1e3 * AGREE).sum() >= len(values) // 2
