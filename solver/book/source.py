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
>>> notes = path.with_name("notes.txt"); _ = notes.write_text("hello")
>>> broken = EquilibriumSource(notes)
>>> broken(h, h, two, "margin").value == value, broken.warnings  # doctest: +ELLIPSIS
(True, ('book: ...notes.txt is not a solution book (not an SQLite file); solving without the book',))
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

from solver.book.canonical import canonical_key, holding_of
from solver.book.lookup import look_up, map_back, orbit_of
from solver.book.store import Book, default_book_path, record
from solver.equilibria.equilibrium import (
    DEFAULT_TOLERANCE,
    EquilibriumResult,
    IterationRecord,
    Payoff,
    parse_payoff,
    solve,
)
from solver.equilibria.stored_ranges import frontier_arrangements, with_ranges
from solver.errors import BookError
from solver.game.rules import Rules
from solver.models.packets import check_holding
from solver.util.checks import (
    check_callback,
    check_flags,
    check_int,
    check_path,
    check_solve_arguments,
)

__all__ = ["DEFAULT_SOURCE", "EquilibriumSolver", "EquilibriumSource"]


class EquilibriumSolver(Protocol):
    """Anything that answers ``solver(mine, theirs, rules, payoff)`` with an equilibrium."""

    def __call__(
        self, mine: Iterable[int], theirs: Iterable[int], rules: Rules, payoff: Payoff | str
    ) -> EquilibriumResult:
        """The deal's equilibrium, ``mine`` as the row player."""
        ...


_Key = tuple[tuple[int, ...], tuple[int, ...], Rules, Payoff]


# The most deals an EquilibriumSource keeps in-process (each holds two strategies).
MAX_KEEP = 1_000_000


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
        How many deals to keep in-process (least recently used go first), 0 to
        :data:`MAX_KEEP`.
    canonical
        Whether solves select the canonical equilibrium (the default, what
        the book stores and every report shows; :mod:`solver.equilibria.canonical`).
        False: the double oracle's equilibrium as found (faster, but its path
        follows the processor's rounding: tournaments play the canonical one so
        that their tables do not); such solves are not stored.
    ranges
        Whether solves also give the shown arrangements' probability ranges
        (for a report; about half the canonical selection's time).
    """

    def __init__(
        self,
        book: str | Path | None = None,
        *,
        use_book: bool = True,
        tolerance: float = DEFAULT_TOLERANCE,
        time_limit: float | None = None,
        keep: int = 16,
        canonical: bool = True,
        ranges: bool = False,
    ) -> None:
        check_flags(use_book=use_book, canonical=canonical, ranges=ranges)
        check_solve_arguments(tolerance=tolerance, time_limit=time_limit)
        check_int(keep, "keep", low=0, high=MAX_KEEP)
        if book is not None:
            check_path(book, "book")
        self.path: Path | None = None
        self.canonical, self.ranges = canonical, ranges
        if use_book:
            self.path = Path(book) if book is not None else default_book_path()
        self.tolerance, self.time_limit, self.keep = tolerance, time_limit, keep
        self._kept: OrderedDict[_Key, tuple[EquilibriumResult, bool]] = OrderedDict()
        self._warnings: list[str] = []
        self._unusable = self._read_only = False

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
        check_callback(on_record, "on_record")
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

    @property
    def warnings(self) -> tuple[str, ...]:
        """What went wrong with the book so far, one message each (the answers are still right).

        A book that cannot be read at all (not a book, a FIFO, damaged beyond
        reading) is named once and then left alone: deals are solved without
        it.  A book that cannot be written is read, and solutions are not
        stored.  Each damaged row is named once, then solved again.
        """
        return tuple(self._warnings)

    @property
    def stores(self) -> bool:
        """Whether solves are stored in the book (False: no book, or it cannot be used or written)."""
        return self.path is not None and not (self._unusable or self._read_only)

    def _warn(self, message: str) -> None:
        if message not in self._warnings:
            self._warnings.append(message)

    def _open(self) -> Book | None:
        """The book, or None (warned once) when it cannot be used."""
        if self.path is None or self._unusable:
            return None
        try:
            return Book(self.path)
        except BookError as error:
            self._unusable = True
            self._warn(f"{error}; solving without the book")
            return None

    def _solve(
        self,
        first: tuple[int, ...],
        second: tuple[int, ...],
        rules: Rules,
        payoff: Payoff,
        on_record: Callable[[IterationRecord], None] | None,
    ) -> EquilibriumResult:
        return solve(
            first,
            second,
            rules,
            payoff,
            tolerance=self.tolerance,
            time_limit=self.time_limit,
            canonical=self.canonical,
            ranges=self.ranges,
            on_record=on_record,
            start=self._start(first, second, rules, payoff),
        )

    def _start(
        self, first: tuple[int, ...], second: tuple[int, ...], rules: Rules, payoff: Payoff
    ) -> EquilibriumResult | None:
        """The deal's kept equilibrium of the other payoff, ``first`` as the row player: a
        warm start (a tournament's win game from its margin one, as the book's workers do)."""
        for other in Payoff:
            kept = self._kept.get((min(first, second), max(first, second), rules, other))
            if other is not payoff and kept is not None:
                return kept[0] if first <= second else kept[0].transposed()
        return None

    def _answer(
        self,
        first: tuple[int, ...],
        second: tuple[int, ...],
        rules: Rules,
        payoff: Payoff,
        on_record: Callable[[IterationRecord], None] | None,
    ) -> tuple[EquilibriumResult, bool]:
        book = self._open()
        if book is None:
            return self._solve(first, second, rules, payoff, on_record), False
        try:
            seats = [(first, second)] if first == second else [(first, second), (second, first)]
            for seat, (a, b) in enumerate(seats):
                stored = look_up(a, b, payoff, rules, book, tolerance=self.tolerance)
                if stored is not None:
                    if self.ranges:  # a stored answer has none: from its strategies
                        stored = with_ranges(stored, a, b)
                    return (stored if seat == 0 else stored.transposed()), True
            key, g = canonical_key((first, second))
            canonical = self._solve(
                holding_of(key[0]), holding_of(key[1]), rules, payoff, on_record
            )
            self._store(book, key, canonical)
            mapped = map_back(canonical, g)
            if self.ranges:  # a report: the arrangements a solve of this deal prints
                mapped = frontier_arrangements(mapped, first, second)
            return mapped, False
        except BookError as error:  # the file broke while in use: answer without it
            self._unusable = True
            self._warn(f"{error}; solving without the book")
            return self._solve(first, second, rules, payoff, on_record), False
        finally:
            for notice in book.notices:
                self._warn(notice)
            book.close()

    def _store(self, book: Book, key: tuple[int, int], solved: EquilibriumResult) -> None:
        """Store a solve; a book that cannot be written is warned about once, and skipped."""
        if not solved.canonical:  # the book holds canonical equilibria only (rows.record)
            return
        if not book.writable:
            self._read_only = True
            self._warn(f"book: {book.path} {book.unwritable}; solutions are not stored")
            return
        try:
            book.put([record(key, orbit_of(key), solved)])
        except BookError as error:
            self._read_only = True
            self._warn(f"{error}; solutions are not stored")


DEFAULT_SOURCE = EquilibriumSource(use_book=False)
"""The process's shared source without a book: what library calls use when given none."""
