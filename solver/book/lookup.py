"""Equilibria through the book: look the deal up first, solve and store it otherwise.

A deal is mapped to its canonical representative by a relabelling ``g`` of
the suits (:mod:`solver.book.canonical`).  A stored solution of the
canonical deal is an equilibrium of this deal once its arrangements are
relabelled back by ``g``'s inverse: relabelling the suits changes no hand's
strength, so every payoff, the value, the bounds and the gap are the same.
A deal not in the book (or stored with a gap above the tolerance asked for)
is solved in its canonical form, stored, and mapped back the same way.

>>> import tempfile, pathlib
>>> from solver.book.store import Book
>>> from solver.game.deal import deal
>>> rules = Rules(position_points=(6, 7))
>>> h = deal(seed=3, rules=rules).holdings[0]
>>> with Book(pathlib.Path(tempfile.mkdtemp()) / "b.sqlite") as book:
...     first = solve_with_book(h, h, "margin", rules, book)
...     again = solve_with_book(h, h, "margin", rules, book)
>>> first.from_book, again.from_book, again.result.value == first.result.value
(False, True, True)
>>> solve_with_book(h, h, "points", rules, None)
Traceback (most recent call last):
    ...
solver.errors.SolverError: payoff 'points' is not margin or win
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

import numpy as np

from solver.book.canonical import INVERSES, canonical_key, holding_of, orbit_sizes, relabel_mixture
from solver.book.recheck import recertified
from solver.book.rows import storable
from solver.book.store import Book, record
from solver.equilibria.equilibrium import (
    DEFAULT_TOLERANCE,
    EquilibriumResult,
    IterationRecord,
    Payoff,
    parse_payoff,
    solve,
)
from solver.errors import BookError
from solver.game.rules import Rules, rules_or_default
from solver.util.checks import check_instance, check_solve_arguments

__all__ = [
    "BookAnswer",
    "book_row",
    "look_up",
    "map_back",
    "orbit_of",
    "solve_canonical",
    "solve_key",
    "solve_with_book",
]


@dataclass(frozen=True)
class BookAnswer:
    """An equilibrium of the deal asked about, and whether the book had it."""

    result: EquilibriumResult
    from_book: bool


def map_back(result: EquilibriumResult, g: int) -> EquilibriumResult:
    """The canonical deal's result as one of the deal that ``g`` maps to it."""
    inverse = int(INVERSES[g])
    row = relabel_mixture(result.row, inverse)
    column = row if result.column == result.row else relabel_mixture(result.column, inverse)
    return replace(result, row=row, column=column)


def solve_canonical(
    key: tuple[int, int],
    rules: Rules,
    payoff: Payoff | str,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    time_limit: float | None = None,
) -> tuple[object, ...] | None:
    """Solve the canonical deal ``key`` and return its book row.

    None when the canonical selection gave up (the book stores canonical
    equilibria only, :func:`~solver.book.rows.record`): the deal stays to do.
    """
    result = solve_key(key, rules, payoff, tolerance=tolerance, time_limit=time_limit)
    return book_row(key, result)


def solve_key(
    key: tuple[int, int],
    rules: Rules,
    payoff: Payoff | str,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    time_limit: float | None = None,
    start: EquilibriumResult | None = None,
) -> EquilibriumResult:
    """The equilibrium of the canonical deal ``key`` the book stores (no ranges: it does not
    store them); ``start``, an equilibrium of the same deal to start from (what build
    workers run: a deal's win game from its margin equilibrium)."""
    return solve(
        holding_of(key[0]),
        holding_of(key[1]),
        rules,
        payoff,
        tolerance=tolerance,
        time_limit=time_limit,
        ranges=False,
        start=start,
    )


def book_row(key: tuple[int, int], result: EquilibriumResult) -> tuple[object, ...] | None:
    """The book row of ``result``, the solution of the canonical deal ``key``; None if the
    book cannot hold it (not canonical, or over its size limit: :func:`~solver.book.rows.storable`).
    """
    return record(key, orbit_of(key), result) if storable(result) else None


def orbit_of(key: tuple[int, int]) -> int:
    """The number of deals the canonical deal ``key`` stands for."""
    return int(orbit_sizes(np.array([key[0]]), np.array([key[1]]))[0])


def look_up(
    first: Iterable[int],
    second: Iterable[int],
    payoff: Payoff | str,
    rules: Rules,
    book: Book,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
) -> EquilibriumResult | None:
    """The deal's equilibrium stored in ``book`` (gap at most ``tolerance``), or None.

    The stored row is certified again first (:func:`~solver.book.recheck.recertified`):
    the result's bounds are the recomputed ones, and a row that does not hold is
    rejected (:meth:`~solver.book.store.Book.reject`: a notice naming it; the
    next store of the deal replaces it) and None returned.  Nothing is solved
    or stored.
    """
    holdings = (tuple(first), tuple(second))
    key, g = canonical_key(holdings)
    entry = book.get(key, rules, parse_payoff(payoff))
    if entry is None or entry.gap > tolerance:
        return None
    try:
        entry = recertified(entry, holdings)
    except BookError as error:
        book.reject(entry, error)
        return None
    if entry.gap > tolerance:  # within the slack of the stored gap, yet over the tolerance
        return None
    return entry.equilibrium(int(INVERSES[g]))


def _solve_and_store(
    key: tuple[int, int],
    payoff: Payoff,
    rules: Rules,
    book: Book,
    tolerance: float,
    time_limit: float | None,
    on_record: Callable[[IterationRecord], None] | None,
) -> EquilibriumResult:
    """Solve the canonical deal ``key``, store its solution in ``book`` (if canonical), return it."""
    canonical = solve(
        holding_of(key[0]),
        holding_of(key[1]),
        rules,
        payoff,
        tolerance=tolerance,
        time_limit=time_limit,
        on_record=on_record,
    )
    row = book_row(key, canonical)  # None: the book cannot hold it (rows.storable)
    if row is not None:
        book.put([row])
    return canonical


def solve_with_book(
    first: Iterable[int],
    second: Iterable[int],
    payoff: Payoff | str = Payoff.MARGIN,
    rules: Rules | None = None,
    book: Book | None = None,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    time_limit: float | None = None,
    on_record: Callable[[IterationRecord], None] | None = None,
) -> BookAnswer:
    """An equilibrium of the deal, from ``book`` when it holds one, else solved and stored.

    Parameters
    ----------
    first, second
        Player 1's and player 2's holdings.
    payoff, rules
        The game.
    book
        The solution book; ``None`` solves without one.
    tolerance, time_limit
        As for :func:`solver.equilibria.equilibrium.solve`.  A stored
        solution is used only when its gap, recomputed from its strategies
        (:func:`look_up`), is at most ``tolerance``; a new one replaces a
        stored one only when its gap is smaller, or when the stored one is
        damaged or does not hold (named in ``book.notices``).
    on_record
        Sees each iteration's record of a solve (nothing when the book has the deal).

    Returns
    -------
    BookAnswer
        The result for the deal as given (its own suits) and its source.
    """
    payoff = parse_payoff(payoff)
    rules = rules_or_default(rules)
    check_solve_arguments(tolerance=tolerance, time_limit=time_limit, on_record=on_record)
    if book is not None:
        check_instance(book, Book, "book")
    if book is None:
        result = solve(
            first,
            second,
            rules,
            payoff,
            tolerance=tolerance,
            time_limit=time_limit,
            on_record=on_record,
        )
        return BookAnswer(result, False)
    stored = look_up(first, second, payoff, rules, book, tolerance=tolerance)
    if stored is not None:
        return BookAnswer(stored, True)
    key, g = canonical_key((tuple(first), tuple(second)))
    canonical = _solve_and_store(key, payoff, rules, book, tolerance, time_limit, on_record)
    return BookAnswer(map_back(canonical, g), False)
