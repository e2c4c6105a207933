"""A stored solution is certified again when it is read: its gap is recomputed, not trusted.

The book is a cache, and a cache is untrusted input: a row can be well
formed (:func:`~solver.book.rows.entry` decodes and checks it) and still be
false, a strategy replaced or a gap forged.  :func:`recertified` recomputes
the row's certified bounds from the deal and the stored strategies alone,
an exact best response for each side
(:func:`solver.equilibria.exploitability.certified_bounds`): those are the
bounds a lookup serves and prints, never the stored ones.  A row whose
recomputed bounds are wider than the stored ones by more than
:data:`SLACK`, or whose stored value lies outside them, does not hold:
:class:`~solver.errors.BookError` says why, and the book treats the row as
damaged (reported, solved again, replaced).

>>> from solver.book.rows import entry, record
>>> from solver.book.canonical import holding_of
>>> from solver.equilibria.equilibrium import solve
>>> two = Rules(position_points=(6, 7))
>>> row = record((1023, 1023), 1, solve(holding_of(1023), holding_of(1023), two, "margin"))
>>> recertified(entry(row)).gap < 1e-12
True
>>> forged = row[:5] + (1.0, 1.0, 1.0, 0.0) + row[9:]  # the value of another game
>>> recertified(entry(forged))
Traceback (most recent call last):
    ...
solver.errors.BookError: book: the solution of deal (1023, 1023) does not hold (recomputed from its strategies: certified gap 0, bounds [0, 0]; stored: gap 0, value 1 in [1, 1])
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from solver.book.canonical import holding_of
from solver.book.rows import Entry
from solver.equilibria.exploitability import Strategy, certified_bounds
from solver.equilibria.tolerance import DEFAULT_TOLERANCE
from solver.errors import BookError, QuintetError
from solver.game.evaluator import strength
from solver.game.rules import Rules

__all__ = ["SLACK", "recertified"]

SLACK = DEFAULT_TOLERANCE
"""How far a stored bound may be from its recomputed one (both are sums of floats, which
round differently): the solves' tolerance.  More is a row that does not hold."""


def _strategy(cards: np.ndarray, probabilities: np.ndarray, rules: Rules) -> Strategy:
    return strength(cards, rules).astype(np.int32), probabilities


def recertified(
    entry: Entry, holdings: tuple[tuple[int, ...], tuple[int, ...]] | None = None
) -> Entry:
    """``entry`` with its bounds recomputed from its strategies (what is served as certified).

    Parameters
    ----------
    entry
        A decoded row (:func:`~solver.book.rows.entry`).
    holdings
        The deal asked about, a suit relabelling of the row's canonical one
        (None: the canonical one).  Relabelling changes no strength, so the
        bounds are the same; the deal's own frontiers are then the ones
        computed, which a report of the deal reuses.

    Returns
    -------
    Entry
        The same row, ``lower`` and ``upper`` the recomputed certified bounds.

    Raises
    ------
    BookError
        When the row does not hold: its recomputed bounds are wider than the
        stored ones by more than :data:`SLACK`, or its value lies outside them.
    """
    rules = entry.rules
    row = _strategy(entry.row_cards, entry.row_probabilities, rules)
    column = None
    if entry.column_cards is not None and entry.column_probabilities is not None:
        column = _strategy(entry.column_cards, entry.column_probabilities, rules)
    first, second = holdings or (holding_of(entry.key[0]), holding_of(entry.key[1]))
    try:
        lower, upper = certified_bounds(first, second, rules, entry.payoff, row, column)
    except QuintetError as error:  # decoded rows are checked: a last guard, named like them
        raise BookError(
            f"book: the solution of deal {entry.key} is damaged ({error})", argument="book"
        ) from None
    if (
        lower < entry.lower - SLACK
        or upper > entry.upper + SLACK
        or not lower - SLACK <= entry.value <= upper + SLACK
    ):
        raise BookError(
            f"book: the solution of deal {entry.key} does not hold (recomputed from its "
            f"strategies: certified gap {max(0.0, upper - lower):.3g}, bounds "
            f"[{lower:.6g}, {upper:.6g}]; stored: gap {entry.gap:.3g}, value {entry.value:.6g} "
            f"in [{entry.lower:.6g}, {entry.upper:.6g}])",
            argument="book",
        )
    return replace(entry, lower=lower, upper=upper)
