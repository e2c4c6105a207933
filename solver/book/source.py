"""The one source of equilibria: an in-process cache, then the solution book, then a solve.

Every use case that needs "the equilibrium of this deal for this payoff"
(suggesting against equilibrium play, printing the equilibrium, grading, the
house rule's grade, the computer players, tournaments, training) asks an
:class:`EquilibriumSource`, always with the same argument order:
``source(mine, theirs, rules, payoff)``, ``mine`` being the row player.

A deal seen from either seat is one game.  The source keys it by its two
holdings in sorted order, solves it (or looks it up) with the lower holding
first, and hands the other seat the same equilibrium transposed
(:meth:`~solver.equilibria.equilibrium.EquilibriumResult.transposed`).  So
both seats of a deal cost one solve, and a player grading from either seat is
graded against the same equilibrium the other seat is shown.

Where an answer comes from, in order:

1. the in-process cache (the last ``keep`` deals asked about);
2. the solution book (:mod:`solver.book.store`), in either seat, when it holds
   a solution with a gap of at most ``tolerance``;
3. a solve (:func:`solver.equilibria.equilibrium.solve`), stored in the book.

>>> import tempfile, pathlib
>>> from solver.game.rules import Rules
>>> two = Rules(position_points=(6, 7))
>>> h = tuple(range(10))
>>> path = pathlib.Path(tempfile.mkdtemp()) / "b.sqlite"
>>> first = EquilibriumSource(path)
>>> value = first(h, h, two, "margin").value
>>> first.from_book(h, h, two, "margin"), EquilibriumSource(path).from_book(h, h, two, "margin")
(False, None)
>>> again = EquilibriumSource(path)
>>> again(h, h, two, "margin").value == value, again.from_book(h, h, two, "margin")
(True, True)
>>> again(h, h, two, "points")
Traceback (most recent call last):
    ...
solver.errors.SolverError: payoff 'points' is not margin or win
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Protocol

from solver.book.lookup import look_up, solve_with_book
from solver.book.store import Book, default_book_path
from solver.equilibria.equilibrium import (
    DEFAULT_TOLERANCE,
    EquilibriumResult,
    IterationRecord,
    Payoff,
    parse_payoff,
    solve,
)
from solver.game.rules import Rules
from solver.models.packets import check_holding

__all__ = ["DEFAULT_SOURCE", "EquilibriumSolver", "EquilibriumSource"]


class EquilibriumSolver(Protocol):
    """Anything that answers ``solver(mine, theirs, rules, payoff)`` with an equilibrium."""

    def __call__(
        self, mine: Iterable[int], theirs: Iterable[int], rules: Rules, payoff: Payoff | str
    ) -> EquilibriumResult:
        """The deal's equilibrium, ``mine`` as the row player."""
        ...


_Key = tuple[tuple[int, ...], tuple[int, ...], Rules, Payoff]


class EquilibriumSource:
    """Deals' equilibria: kept in-process, looked up in the book, solved and stored when missing.

    Parameters
    ----------
    book
        The book's path (None: :func:`solver.book.store.default_book_path`).
    use_book
        False: no book at all (solve, keep in-process only).
    tolerance, time_limit
        As for :func:`solver.equilibria.equilibrium.solve`; a stored solution
        is used only when its gap is at most ``tolerance``.
    keep
        How many deals to keep in-process (least recently used go first).
    """

    def __init__(
        self,
        book: str | Path | None = None,
        *,
        use_book: bool = True,
        tolerance: float = DEFAULT_TOLERANCE,
        time_limit: float | None = None,
        keep: int = 16,
    ) -> None:
        self.path: Path | None = None
        if use_book:
            self.path = Path(book) if book is not None else default_book_path()
        self.tolerance, self.time_limit, self.keep = tolerance, time_limit, keep
        self._kept: OrderedDict[_Key, tuple[EquilibriumResult, bool]] = OrderedDict()

    def __call__(
        self,
        mine: Iterable[int],
        theirs: Iterable[int],
        rules: Rules,
        payoff: Payoff | str,
        *,
        on_record: Callable[[IterationRecord], None] | None = None,
    ) -> EquilibriumResult:
        """The deal's equilibrium, ``mine`` as the row player.

        ``on_record`` sees each iteration of a solve (nothing when the answer
        was kept or in the book).
        """
        first, second, payoff = self._game(mine, theirs, rules, payoff)
        lower, upper = min(first, second), max(first, second)
        key = (lower, upper, rules, payoff)
        if key in self._kept:
            self._kept.move_to_end(key)
        else:
            self._kept[key] = self._answer(lower, upper, rules, payoff, on_record)
            while len(self._kept) > self.keep:
                self._kept.popitem(last=False)
        result = self._kept[key][0]
        return result if first == lower else result.transposed()

    def from_book(
        self, mine: Iterable[int], theirs: Iterable[int], rules: Rules, payoff: Payoff | str
    ) -> bool | None:
        """Whether the deal's answer came from the book (None: not asked, or forgotten)."""
        first, second, payoff = self._game(mine, theirs, rules, payoff)
        kept = self._kept.get((min(first, second), max(first, second), rules, payoff))
        return None if kept is None else kept[1]

    @staticmethod
    def _game(
        mine: Iterable[int], theirs: Iterable[int], rules: Rules, payoff: Payoff | str
    ) -> tuple[tuple[int, ...], tuple[int, ...], Payoff]:
        """Both holdings (checked, sorted) and the payoff (checked)."""
        payoff = parse_payoff(payoff)
        first = check_holding(mine, rules, who="your holding")
        second = check_holding(theirs, rules, who="opponent's holding")
        return first, second, payoff

    def _answer(
        self,
        first: tuple[int, ...],
        second: tuple[int, ...],
        rules: Rules,
        payoff: Payoff,
        on_record: Callable[[IterationRecord], None] | None,
    ) -> tuple[EquilibriumResult, bool]:
        tolerance, time_limit = self.tolerance, self.time_limit
        if self.path is None:
            result = solve(
                first,
                second,
                rules,
                payoff,
                tolerance=tolerance,
                time_limit=time_limit,
                on_record=on_record,
            )
            return result, False
        with Book(self.path) as book:
            seats = [(first, second)] if first == second else [(first, second), (second, first)]
            for seat, (a, b) in enumerate(seats):
                stored = look_up(a, b, payoff, rules, book, tolerance=tolerance)
                if stored is not None:
                    return (stored if seat == 0 else stored.transposed()), True
            answer = solve_with_book(
                first,
                second,
                payoff,
                rules,
                book,
                tolerance=tolerance,
                time_limit=time_limit,
                on_record=on_record,
            )
        return answer.result, answer.from_book


DEFAULT_SOURCE = EquilibriumSource(use_book=False)
"""The process's shared source without a book: what library calls use when given none."""
