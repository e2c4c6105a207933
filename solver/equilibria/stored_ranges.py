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
frontier's own arrangements, laid as a solve lays them: the book holds a
suit-relabelled deal's, the same arrangements mapped back since they are laid
in the deal's canonical frame (:mod:`solver.equilibria.frontier_game`), but a
symmetrized strategy's images may come in another order (and a book made by
other code may hold other cards of equal rank), so a report prints the same
text with the book as without it.  Where a stored arrangement has no
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
from solver.equilibria.optimal_ranges import face_ranges, shared_ranges
from solver.errors import SolverError
from solver.models.mixture import Mixture

if TYPE_CHECKING:
    from solver.equilibria.equilibrium import EquilibriumResult

__all__ = ["frontier_arrangements", "with_ranges"]

# Probabilities of the stored and the recomputed pair agree to this much when
# they are the same vertex (the canonical recomputation is exact to ~1e-12).
_SAME = 1e-9


def _same(ids: list[int], probabilities: np.ndarray, strategy: Any) -> bool:
    """Whether the stored strategy (frontier ``ids``) is the recomputed canonical strategy."""
    recomputed = dict(zip(strategy.strategies, strategy.probabilities.tolist(), strict=True))
    for i, p in zip(ids, probabilities.tolist(), strict=True):
        if abs(recomputed.get(i, 0.0) - p) > _SAME:
            return False
    return sum(p > _SAME for p in recomputed.values()) == len(ids)


def _as_frontier(
    player: Any, ids: list[int], probabilities: np.ndarray
) -> tuple[Mixture, list[int], np.ndarray]:
    """The strategy (frontier ``ids``) as the frontier's arrangements in frontier order, with
    each arrangement's strategy and share of it (the player's ``realize``)."""
    order = np.argsort(ids, kind="stable")
    return player.realize([ids[k] for k in order], probabilities[order])


def _by_id(mixture: Mixture, ranges: tuple[Any, ...], player: Any, rules: Any) -> dict[int, Any]:
    """A result's ranges (aligned with its arrangements) by frontier strategy (the
    arrangements of one strategy have equal shares of it, and so equal ranges)."""
    ids = player.ids(mixture, rules, repeated=True) if ranges else None
    return {} if ids is None else dict(zip(ids, ranges, strict=True))


def _on_frontier(
    game: FrontierGame,
    result: EquilibriumResult,
    rows: tuple[list[int], np.ndarray],
    columns: tuple[list[int], np.ndarray],
) -> EquilibriumResult:
    """``result``, its strategies (frontier ids and probabilities) ``rows`` and ``columns``,
    on the frontier's arrangements, its ranges following them."""
    shown = []
    for player, mixture, ranges, strategy in (
        (game.rows, result.row, result.row_ranges, rows),
        (game.columns, result.column, result.column_ranges, columns),
    ):
        by_id = _by_id(mixture, ranges, player, result.rules)
        laid, ids, _ = _as_frontier(player, *strategy)
        shown.append((laid, tuple(by_id.get(i) for i in ids) if by_id else ()))
    return replace(
        result,
        row=shown[0][0],
        column=shown[1][0],
        row_ranges=shown[0][1],
        column_ranges=shown[1][1],
    )


def frontier_arrangements(
    result: EquilibriumResult, first: Iterable[int], second: Iterable[int]
) -> EquilibriumResult:
    """``result`` with each arrangement replaced by its frontier strategy's, in frontier order.

    What a solve of this very deal prints, in its order: a solve of a
    suit-relabelled deal (the book's) mapped back holds the same arrangements,
    but a symmetrized strategy's images may come in another order.  Kept as
    it is when an arrangement is not on the frontier.

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
    rows = game.rows.strategy(result.row, result.rules)
    columns = rows if game.symmetric else game.columns.strategy(result.column, result.rules)
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
    rows = game.rows.strategy(result.row, result.rules)
    columns = rows if game.symmetric else game.columns.strategy(result.column, result.rules)
    if not result.canonical or rows is None or columns is None:
        return result
    value = result.value if result.payoff is Payoff.MARGIN else 2.0 * result.value - 1.0
    start = (
        dict(zip(rows[0], rows[1].tolist(), strict=True)),
        dict(zip(columns[0], columns[1].tolist(), strict=True)),
    )
    try:
        pair = canonical_pair_from(game, rows[0], columns[0], value, start=start)
    except SolverError:
        return result
    if not _same(*rows, pair.row) or not _same(*columns, pair.column):
        return result
    # The stored probabilities (exactly what every lookup gives) on the frontier's
    # arrangements, in frontier order, as a solve without the book prints them; the
    # ranges shared as a solve shares them (optimal_ranges.ranged_mixture).
    row_found = face_ranges(pair, 0)
    column_found = row_found if game.symmetric else face_ranges(pair, 1)
    row = _as_frontier(game.rows, *rows)
    column = row if game.symmetric else _as_frontier(game.columns, *columns)
    return replace(
        result,
        row=row[0],
        column=column[0],
        row_ranges=shared_ranges(row_found, row[1], row[2]),
        column_ranges=shared_ranges(column_found, column[1], column[2]),
    )
