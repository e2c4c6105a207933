"""The deal's equilibria for grading: solved once per deal and kept in-process.

A deal seen from either seat is one game: :func:`cached_equilibrium` solves
it with the lower holding first and :func:`transposed` turns the result
around for the other seat.  :data:`EquilibriumSolver` is the signature a
persistent store of solutions can offer in place of :func:`cached_equilibrium`;
:class:`BookSolutions` is one: the solution book (:mod:`solver.book`) looked
up in either seat, what is missing solved and stored, every answer kept
in-process with where it came from.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from solver.book.lookup import look_up, solve_with_book
from solver.book.store import Book, default_book_path
from solver.equilibria.equilibrium import DEFAULT_TOLERANCE, EquilibriumResult, Payoff, solve
from solver.errors import SolverError
from solver.game.rules import Rules
from solver.models.packets import check_holding

__all__ = ["BookSolutions", "EquilibriumSolver", "cached_equilibrium", "transposed"]


EquilibriumSolver = Callable[[tuple[int, ...], tuple[int, ...], Rules, Payoff], EquilibriumResult]


def transposed(result: EquilibriumResult) -> EquilibriumResult:
    """The same equilibrium seen from the other seat (rows and columns exchanged).

    >>> h = tuple(range(25))
    >>> r = cached_equilibrium(h, h, Rules(), Payoff.MARGIN)
    >>> transposed(transposed(r)) == r
    True
    """
    if result.payoff is Payoff.MARGIN:
        value, lower, upper = -result.value, -result.upper, -result.lower
    else:
        value, lower, upper = 1 - result.value, 1 - result.upper, 1 - result.lower
    return replace(
        result,
        row=result.column,
        column=result.row,
        value=value,
        lower=lower,
        upper=upper,
        frontier_sizes=result.frontier_sizes[::-1],
    )


@lru_cache(maxsize=16)
def _solved(
    first: tuple[int, ...], second: tuple[int, ...], rules: Rules, payoff: Payoff
) -> EquilibriumResult:
    # Keyed by holdings, rules and payoff: a deal is solved once per process.
    return solve(first, second, rules, payoff)


def cached_equilibrium(
    mine: Iterable[int], theirs: Iterable[int], rules: Rules, payoff: Payoff | str
) -> EquilibriumResult:
    """The deal's exact equilibrium, solved once per deal (either seat) and kept.

    >>> cached_equilibrium(range(25), range(25), Rules(), "points")
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: payoff 'points' is not margin or win
    """
    first, second, payoff = _game(mine, theirs, rules, payoff)
    if first <= second:
        return _solved(first, second, rules, payoff)
    return transposed(_solved(second, first, rules, payoff))


def _game(
    mine: Iterable[int], theirs: Iterable[int], rules: Rules, payoff: Payoff | str
) -> tuple[tuple[int, ...], tuple[int, ...], Payoff]:
    """Both holdings (checked, sorted) and the payoff (checked)."""
    try:
        payoff = Payoff(payoff)
    except ValueError:
        raise SolverError(f"payoff {payoff!r} is not margin or win", argument="payoff") from None
    first = check_holding(mine, rules, who="your holding")
    second = check_holding(theirs, rules, who="opponent's holding")
    return first, second, payoff


_Key = tuple[tuple[int, ...], tuple[int, ...], Rules, Payoff]


class BookSolutions:
    """Deals' equilibria from a solution book, solved and stored when missing, kept in-process.

    An :data:`EquilibriumSolver`: ``solutions(mine, theirs, rules, payoff)``.
    The deal is looked up in the book in either seat (a stored solution of
    the other seat is :func:`transposed`); when neither is there it is
    solved, stored, and kept.  Both seats of a deal share one answer, so the
    computer's equilibrium and both players' grades cost one solve.

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

    >>> import tempfile, pathlib
    >>> two = Rules(position_points=(6, 7))
    >>> h = tuple(range(10))
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "b.sqlite"
    >>> first = BookSolutions(path)
    >>> value = first(h, h, two, "margin").value
    >>> first.from_book(h, h, two, "margin"), BookSolutions(path).from_book(h, h, two, "margin")
    (False, None)
    >>> again = BookSolutions(path)
    >>> again(h, h, two, "margin").value == value, again.from_book(h, h, two, "margin")
    (True, True)
    >>> again(h, h, two, "points")
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: payoff 'points' is not margin or win
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
        self, mine: Iterable[int], theirs: Iterable[int], rules: Rules, payoff: Payoff | str
    ) -> EquilibriumResult:
        """The deal's equilibrium, ``mine`` as the row player."""
        first, second, payoff = _game(mine, theirs, rules, payoff)
        lower, upper = min(first, second), max(first, second)
        key = (lower, upper, rules, payoff)
        if key in self._kept:
            self._kept.move_to_end(key)
        else:
            self._kept[key] = self._answer(lower, upper, rules, payoff)
            while len(self._kept) > self.keep:
                self._kept.popitem(last=False)
        result = self._kept[key][0]
        return result if first == lower else transposed(result)

    def from_book(
        self, mine: Iterable[int], theirs: Iterable[int], rules: Rules, payoff: Payoff | str
    ) -> bool | None:
        """Whether the deal's answer came from the book (None: not asked, or forgotten)."""
        first, second, payoff = _game(mine, theirs, rules, payoff)
        kept = self._kept.get((min(first, second), max(first, second), rules, payoff))
        return None if kept is None else kept[1]

    def _answer(
        self, first: tuple[int, ...], second: tuple[int, ...], rules: Rules, payoff: Payoff
    ) -> tuple[EquilibriumResult, bool]:
        tolerance, time_limit = self.tolerance, self.time_limit
        if self.path is None:
            return solve(
                first, second, rules, payoff, tolerance=tolerance, time_limit=time_limit
            ), False
        with Book(self.path) as book:
            seats = [(first, second)] if first == second else [(first, second), (second, first)]
            for seat, (a, b) in enumerate(seats):
                stored = look_up(a, b, payoff, rules, book, tolerance=tolerance)
                if stored is not None:
                    return (stored if seat == 0 else transposed(stored)), True
            answer = solve_with_book(
                first, second, payoff, rules, book, tolerance=tolerance, time_limit=time_limit
            )
        return answer.result, answer.from_book
