"""Probability ranges for an equilibrium known only by its strategies (a stored answer).

A solve gives, for each arrangement a report shows, the range of its
probability over the whole game's optimal strategies
(:mod:`solver.equilibria.optimal_ranges`), continuing the canonical search.
An equilibrium read back from the solution book has no search, only its two
mixtures.  They are the canonical pair (:mod:`solver.equilibria.canonical`),
so the canonical search started from their supports
(:func:`~solver.equilibria.canonical.canonical_pair_from`) ends at the same
vertex, and is continued the same way: the ranges are those of the deal,
whichever way the equilibrium was found.

Each arrangement is identified with the frontier strategy of the same
strength at every position (frontier strategies differ in their strengths,
and payoffs depend on nothing else), and the answer is given with the
frontier's own arrangements: the book holds a suit-relabelled deal's, which
may differ in cards of equal rank, so a report prints the same text with the
book as without it.  Where a stored arrangement has no
frontier strategy, or the search ends at another pair (a book made by other
code), the answer is kept as it is, without ranges: ranges are never shown
for a strategy they were not computed for.

>>> from solver.equilibria.equilibrium import solve
>>> from solver.game.deal import deal
>>> from solver.game.rules import Rules
>>> from dataclasses import replace
>>> rules = Rules(position_points=(6, 7))
>>> d = deal(seed=4, rules=rules)
>>> solved = solve(*d.holdings, rules, ranges=True)
>>> stored = replace(solved, row_ranges=(), column_ranges=())
>>> with_ranges(stored, *d.holdings).row_ranges == solved.row_ranges
True
>>> with_ranges(solved, d.holdings[0], [0] * 10)
Traceback (most recent call last):
    ...
solver.errors.CardError: player 2's holding: card 7♣ appears twice
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.equilibria.canonical import canonical_pair_from
from solver.equilibria.frontier_game import FrontierGame, Payoff
from solver.equilibria.optimal_ranges import face_ranges
from solver.errors import SolverError
from solver.models.mixture import Mixture

if TYPE_CHECKING:
    from solver.equilibria.equilibrium import EquilibriumResult

__all__ = ["frontier_arrangements", "with_ranges"]

# Probabilities of the stored and the recomputed pair agree to this much when
# they are the same vertex (the canonical recomputation is exact to ~1e-12).
_SAME = 1e-9


def _same(ids: list[int], mixture: Mixture, strategy: Any) -> bool:
    """Whether the stored mixture (frontier ``ids``) is the recomputed canonical strategy."""
    recomputed = dict(zip(strategy.strategies, strategy.probabilities.tolist(), strict=True))
    for i, p in zip(ids, mixture.probabilities, strict=True):
        if abs(recomputed.get(i, 0.0) - p) > _SAME:
            return False
    return sum(p > _SAME for p in recomputed.values()) == len(ids)


def _as_frontier(player: Any, mixture: Mixture, ids: list[int]) -> tuple[Mixture, np.ndarray]:
    """``mixture`` (frontier ``ids``) with the frontier's arrangements in frontier order, and that order."""
    order = np.argsort(ids, kind="stable")
    probabilities = np.asarray(mixture.probabilities)[order]
    return player.mixture([ids[k] for k in order], probabilities), order


def _on_frontier(
    game: FrontierGame, result: EquilibriumResult, rows: list[int], columns: list[int]
) -> EquilibriumResult:
    """``result``, its strategies' frontier ids ``rows`` and ``columns``, on the frontier's arrangements."""
    row = _as_frontier(game.rows, result.row, rows)
    column = row if game.symmetric else _as_frontier(game.columns, result.column, columns)
    return replace(
        result,
        row=row[0],
        column=column[0],
        row_ranges=_reordered(result.row_ranges, row[1]),
        column_ranges=_reordered(result.column_ranges, column[1]),
    )


def _reordered(ranges: tuple[Any, ...], order: np.ndarray) -> tuple[Any, ...]:
    return tuple(ranges[k] for k in order.tolist()) if ranges else ()


def frontier_arrangements(
    result: EquilibriumResult, first: Iterable[int], second: Iterable[int]
) -> EquilibriumResult:
    """``result`` with each arrangement replaced by its frontier strategy's, in frontier order.

    What a solve of this very deal prints: a solve of a suit-relabelled deal
    (the book's) mapped back may hold other cards of equal rank.  Kept as it
    is when an arrangement is not on the frontier.

    >>> from solver.equilibria.equilibrium import solve
    >>> from solver.game.deal import deal
    >>> from solver.game.rules import Rules
    >>> rules = Rules(position_points=(6, 7))
    >>> d = deal(seed=4, rules=rules)
    >>> solved = solve(*d.holdings, rules)
    >>> frontier_arrangements(solved, *d.holdings).row == solved.row
    True
    >>> frontier_arrangements(solved, d.holdings[0], [0] * 10)
    Traceback (most recent call last):
        ...
    solver.errors.CardError: player 2's holding: card 7♣ appears twice
    """
    game = FrontierGame(first, second, result.rules, result.payoff)
    rows = game.rows.ids(result.row, result.rules)
    columns = rows if game.symmetric else game.columns.ids(result.column, result.rules)
    if rows is None or columns is None:
        return result
    return _on_frontier(game, result, rows, columns)


def with_ranges(
    result: EquilibriumResult, first: Iterable[int], second: Iterable[int]
) -> EquilibriumResult:
    """``result`` (a canonical equilibrium without ranges) with its shown arrangements' ranges.

    Parameters
    ----------
    result
        A canonical equilibrium of the deal, player 1 holding ``first``.
    first, second
        The holdings.

    Returns
    -------
    EquilibriumResult
        ``result`` with the frontier's arrangements, ``row_ranges`` and
        ``column_ranges`` (or ``result`` itself when the ranges cannot be found
        for its strategies).

    Raises
    ------
    CardError
        A holding is not one of the rules'.
    """
    game = FrontierGame(first, second, result.rules, result.payoff)
    rows = game.rows.ids(result.row, result.rules)
    columns = rows if game.symmetric else game.columns.ids(result.column, result.rules)
    if not result.canonical or rows is None or columns is None:
        return result
    value = result.value if result.payoff is Payoff.MARGIN else 2.0 * result.value - 1.0
    start = (
        dict(zip(rows, np.asarray(result.row.probabilities).tolist(), strict=True)),
        dict(zip(columns, np.asarray(result.column.probabilities).tolist(), strict=True)),
    )
    try:
        pair = canonical_pair_from(game, rows, columns, value, start=start)
    except SolverError:
        return result
    if not _same(rows, result.row, pair.row) or not _same(columns, result.column, pair.column):
        return result
    # The stored probabilities (exactly what every lookup gives) on the frontier's
    # arrangements, in frontier order, as a solve without the book prints them.
    shown = _on_frontier(game, result, rows, columns)
    row_found = face_ranges(pair, 0)
    column_found = row_found if game.symmetric else face_ranges(pair, 1)
    return replace(
        shown,
        row_ranges=tuple(row_found.get(i) for i in sorted(rows)) if row_found else (),
        column_ranges=(tuple(column_found.get(j) for j in sorted(columns)) if column_found else ()),
    )
