"""The deal's equilibria for grading: solved once per deal and kept in-process.

A deal seen from either seat is one game: :func:`cached_equilibrium` solves
it with the lower holding first and :func:`transposed` turns the result
around for the other seat.  :data:`EquilibriumSolver` is the signature a
persistent store of solutions can offer in place of :func:`cached_equilibrium`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import lru_cache

from solver.equilibria.equilibrium import EquilibriumResult, Payoff, solve
from solver.errors import SolverError
from solver.game.rules import Rules
from solver.models.packets import check_holding

__all__ = ["EquilibriumSolver", "cached_equilibrium", "transposed"]


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
    try:
        payoff = Payoff(payoff)
    except ValueError:
        raise SolverError(f"payoff {payoff!r} is not margin or win", argument="payoff") from None
    first = check_holding(mine, rules, who="your holding")
    second = check_holding(theirs, rules, who="opponent's holding")
    if first <= second:
        return _solved(first, second, rules, payoff)
    return transposed(_solved(second, first, rules, payoff))
