"""Probability ranges over the whole game's optimal face: right, and the same for a stored answer.

The reference: on reduced games (three and four positions) the whole
payoff matrix between every pair of frontier strategies, and each range's
two linear programs over it solved by HiGHS (scipy), written here apart
from the solver's column-and-constraint generation.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import linprog

from solver.book.source import EquilibriumSource
from solver.equilibria.equilibrium import EquilibriumResult, solve
from solver.equilibria.frontier_game import FrontierGame
from solver.equilibria.stored_ranges import with_ranges
from solver.game.deal import deal
from solver.game.rules import Rules
from tests.support.faces import faces_on_glop

# The ranges are the optimal face's (the weighted search's): the reference's face is the
# one at v - 1e-13 (the value to rounding), HiGHS's tolerances on top.
_CLOSE = 1e-7
_SLACK = 1e-13


def _reference(game: FrontierGame, payoff: np.ndarray, value: float, i: int) -> tuple[float, float]:
    """min and max x_i over {x in simplex : payoff^T x >= value}, by HiGHS."""
    n = payoff.shape[0]
    ends = []
    for sign in (1.0, -1.0):
        c = np.zeros(n)
        c[i] = sign
        found = linprog(
            c,
            A_ub=-payoff.T,
            b_ub=-np.full(payoff.shape[1], value - _SLACK),
            A_eq=np.ones((1, n)),
            b_eq=[1.0],
            bounds=(0, 1),
            method="highs",
        )
        assert found.status == 0
        ends.append(float(found.x[i]))
    return ends[0], ends[1]


def _full_matrix(game: FrontierGame) -> np.ndarray:
    """Player 1's payoff (oracle units) between every pair of frontier strategies."""
    rows = game.rows.strengths[:, None, :]
    columns = game.columns.strengths[None, :, :]
    margins = (np.sign(rows - columns) * np.asarray(game.rules.position_points)).sum(axis=2)
    return margins.astype(np.float64) if game.payoff.value == "margin" else np.sign(margins)


def _frontier_ids(game_player, result_mixture, rules: Rules) -> list[int]:
    table = game_player.strengths
    return [
        int(np.flatnonzero((table == a.strengths(rules)).all(axis=1))[0])
        for a in result_mixture.arrangements
    ]


CASES = [
    ((5, 6, 7), "mirror", "margin", 0),
    ((5, 6, 7), "independent", "margin", 1),
    ((5, 6, 7), "independent", "win", 2),
    ((4, 5, 6, 7), "mirror", "margin", 0),
    ((4, 5, 6, 7), "independent", "margin", 0),
    pytest.param((4, 5, 6, 7), "mirror", "win", 2, marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("points", "mode", "payoff", "seed"), CASES)
def test_ranges_are_those_of_the_whole_games_optimal_face(points, mode, payoff, seed) -> None:
    rules = Rules(position_points=points, discard_mode=mode)
    first, second = deal(seed=seed, rules=rules).holdings
    result = solve(first, second, rules, payoff, ranges=True)
    game = FrontierGame(first, second, rules, payoff)
    matrix = _full_matrix(game)
    value = result.value if payoff == "margin" else 2 * result.value - 1
    sides = [(result.row, result.row_ranges, game.rows, matrix, value)]
    sides.append((result.column, result.column_ranges, game.columns, -matrix.T, -value))
    checked = 0
    for mixture, ranges, player, payoffs, v in sides:
        ids = _frontier_ids(player, mixture, rules)
        for i, found in zip(ids, ranges, strict=True):
            if found is not None:
                low, high = _reference(game, payoffs, v, i)
                assert abs(found[0] - low) <= _CLOSE and abs(found[1] - high) <= _CLOSE
                checked += 1
    assert checked > 0


def _stored(result: EquilibriumResult) -> EquilibriumResult:
    return replace(result, row_ranges=(), column_ranges=())


@pytest.mark.parametrize(
    ("mode", "payoff", "seed"),
    [
        ("mirror", "margin", 0),
        ("mirror", "margin", 3),
        ("mirror", "win", 3),
        ("independent", "margin", 1),
    ],
)
def test_a_stored_answer_gets_the_solves_ranges(mode: str, payoff: str, seed: int) -> None:
    first, second = deal(seed=seed, rules=Rules(discard_mode=mode)).holdings
    solved = solve(first, second, payoff=payoff, ranges=True)
    again = with_ranges(_stored(solved), first, second)
    assert again.unique == solved.unique
    for a, b in zip(
        (*again.row_ranges, *again.column_ranges),
        (*solved.row_ranges, *solved.column_ranges),
        strict=True,
    ):
        assert (a is None) == (b is None)
        if a is not None and b is not None:
            assert abs(a[0] - b[0]) <= 1e-9 and abs(a[1] - b[1]) <= 1e-9


def test_a_result_that_is_not_canonical_is_left_as_it_is() -> None:
    first, second = deal(seed=1).holdings
    found = solve(first, second, canonical=False)
    assert with_ranges(found, first, second) is found


def test_the_books_answer_has_ranges_when_a_report_asks(tmp_path: Path) -> None:
    rules = Rules(position_points=(4, 5, 6, 7), discard_mode="independent")
    first, second = deal(seed=0, rules=rules).holdings
    book = tmp_path / "book.sqlite"
    stored = EquilibriumSource(book)(first, second, rules, "margin")
    assert stored.row_ranges == ()  # stores and grades do not ask for ranges
    reporting = EquilibriumSource(book, ranges=True)
    answer = reporting(first, second, rules, "margin")
    assert reporting.from_book(first, second, rules, "margin") is True
    solved = solve(first, second, rules, "margin", ranges=True)
    assert answer.row_ranges and answer.unique == solved.unique
    # The other seat: the same stored row, transposed.
    assert reporting(second, first, rules, "margin").column_ranges == answer.row_ranges


@pytest.mark.parametrize(("mode", "seed"), [("mirror", 3), ("independent", 2)])
def test_through_the_book_a_report_prints_what_a_solve_without_it_prints(
    tmp_path: Path, mode: str, seed: int
) -> None:
    """The same arrangements (not only strengths), probabilities and ranges, solved or looked up.

    README's deal (mirror 3): the book solves a suit-relabelled deal, whose
    frontier holds other cards of equal rank (J♣ for J♥), mapped back.
    """
    rules = Rules(discard_mode=mode)
    first, second = deal(seed=seed, rules=rules).holdings
    direct = solve(first, second, rules, ranges=True)
    wanted = dict(zip(direct.row.arrangements, direct.row_ranges, strict=True))
    book = tmp_path / "book.sqlite"
    answers = []
    for _ in range(2):  # solved and stored, then looked up
        source = EquilibriumSource(book, ranges=True)
        answer = source(first, second, rules, "margin")
        assert answer.row.arrangements == direct.row.arrangements
        assert np.allclose(answer.row.probabilities, direct.row.probabilities, rtol=0, atol=1e-12)
        got = dict(zip(answer.row.arrangements, answer.row_ranges, strict=True))
        for arrangement, b in wanted.items():
            a = got[arrangement]
            assert (a is None and b is None) or abs(a[0] - b[0]) + abs(a[1] - b[1]) <= 1e-9
        answers.append(answer)
    assert source.from_book(first, second, rules, "margin") is True
    # What the web and the command line compare exactly: the same floats either way.
    assert answers[0].row == answers[1].row and answers[0].column == answers[1].column


@pytest.mark.parametrize(
    ("mode", "payoff", "seed"), [("mirror", "win", 2), ("mirror", "margin", 0)]
)
def test_ranges_on_glop_when_the_simplex_gives_up_are_the_simplexs(mode, payoff, seed) -> None:
    """Every face program on GLOP (the fallback) gives the same ranges, to the faces' slack
    (GLOP's face is the one at v - 1e-10: up to 1.1e-6 apart from the optimal face's here)."""
    rules = Rules(position_points=(4, 5, 6, 7), discard_mode=mode)
    first, second = deal(seed=seed, rules=rules).holdings
    fast = solve(first, second, rules, payoff, ranges=True)
    with faces_on_glop():
        fallback = solve(first, second, rules, payoff, ranges=True)
    assert fallback.canonical and len(fallback.row_ranges) == len(fast.row_ranges)
    for a, b in zip(fast.row_ranges, fallback.row_ranges, strict=True):
        assert (a is None) == (b is None)
        if a is not None and b is not None:
            assert abs(a[0] - b[0]) <= 1e-5 and abs(a[1] - b[1]) <= 1e-5
