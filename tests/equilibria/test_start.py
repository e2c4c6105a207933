"""A double oracle started from given strategies (the book solves a deal's win game
from its margin equilibrium).

* The generic double oracle takes the first restricted sets it is given, checked.
* A deal's equilibrium started from the other payoff's: the same canonical equilibrium, value
  and certificate as without a start, on mirror and independent deals; the first restricted set
  is the start's likely strategies (so the start is used, not ignored).
* A start off the frontier is ignored; a start of other rules is an error.
* The book's workers solve a deal's margin game first and start its win game from it; an
  equilibrium source starts a deal's game from the other payoff's equilibrium it keeps (in
  either seat).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import solver.book.source as source_module
from solver.book import build
from solver.book.build import _solve_units, seeded_keys
from solver.book.source import EquilibriumSource
from solver.equilibria.double_oracle import DoubleOracle
from solver.equilibria.equilibrium import DealDoubleOracle, solve
from solver.equilibria.frontier_game import FrontierGame
from solver.equilibria.payoff import Payoff, parse_payoff
from solver.equilibria.payoff_oracle import MatrixOracle
from solver.errors import SolverError
from solver.game.deal import deal
from solver.game.rules import Rules
from solver.models.heuristics import random_arrangement
from solver.models.mixture import Mixture

ROCK_PAPER_SCISSORS = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], dtype=float)
MIRROR = Rules()
INDEPENDENT = Rules(discard_mode="independent", position_points=(5, 6, 7))


def test_the_generic_double_oracle_starts_from_the_strategies_given():
    oracle = DoubleOracle(MatrixOracle(ROCK_PAPER_SCISSORS), start=([2, 0], [1]))
    first = next(oracle.iterations())
    assert (first.row_strategies, first.column_strategies) == (2, 1)
    assert oracle.rows.strategies == [2, 0] and oracle.columns.strategies == [1]
    records = list(oracle.iterations())
    assert records[-1].gap <= 1e-12 and abs(oracle.solution().value) <= 1e-12


@pytest.mark.parametrize(
    ("start", "message"),
    [
        (([0, 3], [1]), r"^start: the rows' strategies must be in 0\.\.2$"),
        (([1], [1, 1]), r"^start: the columns' strategies must be distinct, got \[1, 1\]$"),
        (([], [1]), r"^start: no strategy for the rows$"),
        (([1],), r"^start: expected rows and columns, got 1 lists$"),
    ],
)
def test_a_bad_start_is_an_error(start, message):
    with pytest.raises(SolverError, match=message) as caught:
        DoubleOracle(MatrixOracle(ROCK_PAPER_SCISSORS), start=start)
    assert caught.value.argument == "start"


def _likely(result, holdings) -> int:
    # By strategy: a deal with suit automorphisms shows each as several arrangements.
    game = FrontierGame(*holdings, result.rules, result.payoff)
    _, probabilities = game.rows.strategy(result.row, result.rules)
    return int((probabilities >= 1.0 / probabilities.size).sum())


def _same_equilibrium(first, second) -> None:
    assert first.canonical and second.canonical
    # The canonical equilibrium is the path's to rounding (a mirror deal's value is exact).
    assert first.value == pytest.approx(second.value, abs=1e-12)
    assert first.gap <= 1e-9 and second.gap <= 1e-9
    for a, b in ((first.row, second.row), (first.column, second.column)):
        assert a.arrangements == b.arrangements
        np.testing.assert_allclose(a.probabilities, b.probabilities, rtol=0, atol=1e-9)


@pytest.mark.parametrize(
    ("seed", "rules", "payoff", "other"),
    [
        (2, MIRROR, "win", "margin"),
        (5, MIRROR, "margin", "win"),
        (8, INDEPENDENT, "win", "margin"),
        (8, INDEPENDENT, "margin", "win"),
    ],
)
def test_a_start_from_the_other_payoff_gives_the_same_canonical_equilibrium(
    seed, rules, payoff, other
):
    holdings = deal(seed, rules).holdings
    start = solve(*holdings, rules, other, ranges=False)
    plain = solve(*holdings, rules, payoff, ranges=False)
    started = solve(*holdings, rules, payoff, ranges=False, start=start)
    _same_equilibrium(plain, started)
    first = started.history[0]
    assert first.row_strategies == _likely(start, holdings) > 1
    if holdings[0] != holdings[1]:
        assert first.column_strategies > 1


def test_a_start_off_the_frontier_is_ignored_and_one_of_other_rules_is_an_error():
    holdings = deal(4, MIRROR).holdings
    start = solve(*holdings, MIRROR, "margin", ranges=False)
    game = FrontierGame(*holdings, MIRROR, "margin")
    rng = np.random.default_rng(0)
    dominated = (random_arrangement(holdings[0], rng) for _ in range(100))
    off_frontier = next(
        a for a in dominated if game.rows.ids(Mixture((a,), (1.0,)), MIRROR) is None
    )
    likely = start.row.arrangements[:2]
    assert game.rows.ids(Mixture(likely, (0.5, 0.5)), MIRROR) is not None
    mixed = Mixture((*likely, off_frontier), (1 / 3, 1 / 3, 1 / 3))
    off = replace(start, row=mixed, column=mixed)
    oracle = DealDoubleOracle(*holdings, MIRROR, "margin", start=off)
    assert next(oracle.iterations()).row_strategies == 1  # the usual start
    on = replace(start, row=Mixture(likely, (0.5, 0.5)), column=Mixture(likely, (0.5, 0.5)))
    oracle = DealDoubleOracle(*holdings, MIRROR, "margin", start=on)
    assert next(oracle.iterations()).row_strategies == 2
    with pytest.raises(SolverError, match=r"^start: an equilibrium of other rules$"):
        DealDoubleOracle(*holdings, Rules(ace_low_straight=True), "margin", start=start)


def test_the_book_starts_a_deals_win_game_from_its_margin_equilibrium(monkeypatch):
    solved = []
    original = build.solve_key

    def spy(key, rules, payoff, **options):
        result = original(key, rules, payoff, **options)
        start = options.get("start")
        solved.append((key, payoff, None if start is None else start.payoff.value))
        return result

    monkeypatch.setattr(build, "solve_key", spy)
    keys = seeded_keys(2, 0, MIRROR)
    tasks = [(keys[0], "win"), (keys[0], "margin"), (keys[1], "win")]
    rows = _solve_units(tasks, MIRROR, 1e-9)
    assert solved == [
        (keys[0], "margin", None),
        (keys[0], "win", "margin"),
        (keys[1], "win", None),
    ]
    assert sorted((row[2], row[1]) for row in rows) == sorted(
        (key[0], payoff) for key, payoff in tasks
    )


@pytest.mark.parametrize("swapped", [False, True])
def test_a_source_starts_a_deals_game_from_the_other_payoffs_equilibrium_it_keeps(
    monkeypatch, swapped
):
    starts = []
    original = source_module.solve

    def spy(first, second, rules, payoff, **options):
        start = options.get("start")
        if start is not None:  # the start's rows are the row player's arrangements
            assert {a.cards for a in start.row.arrangements} == {tuple(sorted(first))}
        starts.append((parse_payoff(payoff), None if start is None else start.payoff))
        return original(first, second, rules, payoff, **options)

    monkeypatch.setattr(source_module, "solve", spy)
    mine, theirs = deal(8, INDEPENDENT).holdings
    source = EquilibriumSource(use_book=False)
    margin = source(mine, theirs, INDEPENDENT, "margin")
    win = source(*((theirs, mine) if swapped else (mine, theirs)), INDEPENDENT, "win")
    assert starts == [(Payoff.MARGIN, None), (Payoff.GAME_RESULT, Payoff.MARGIN)]
    plain = solve(*((theirs, mine) if swapped else (mine, theirs)), INDEPENDENT, "win")
    _same_equilibrium(win, replace(plain, row_ranges=(), column_ranges=()))
    assert margin.canonical
