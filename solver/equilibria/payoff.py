"""What the players of a deal's matrix game are paid: :class:`Payoff`, and its parsing.

Apart from :mod:`solver.equilibria.frontier_game` (which uses it and
re-exports it) so that naming a payoff imports no game: ``quintet suggest``
parses ``--payoff`` without the oracle's modules (2 ms of its start).
"""

from __future__ import annotations

from enum import Enum

from solver.errors import SolverError
from solver.models.opponents import Objective

__all__ = ["Payoff", "parse_payoff"]


class Payoff(str, Enum):
    """What the players of the matrix game are paid.

    ``GAME_RESULT`` pays 1 for more points, ½ for equal, 0 for fewer: the
    best response's :attr:`Objective.GAME_RESULT <solver.models.opponents.Objective>`
    (:attr:`objective` maps one to the other).  Its value stays ``"win"``, the
    name the command line (``--payoff win``), the JSON documents and the
    solution book have always used.

    >>> Payoff("win") is Payoff.GAME_RESULT, Payoff.GAME_RESULT.objective.name
    (True, 'GAME_RESULT')
    """

    MARGIN = "margin"  # points scored minus points conceded
    GAME_RESULT = "win"  # 1 for more points, 1/2 for equal, 0 for fewer

    @property
    def objective(self) -> Objective:
        """The best-response objective that pays the same."""
        return Objective.MARGIN if self is Payoff.MARGIN else Objective.GAME_RESULT


def parse_payoff(payoff: Payoff | str) -> Payoff:
    """The payoff named ``payoff``.

    >>> parse_payoff("win")
    <Payoff.GAME_RESULT: 'win'>
    >>> parse_payoff("points")
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: payoff 'points' is not margin or win
    """
    try:
        return Payoff(payoff)
    except ValueError:
        raise SolverError(f"payoff {payoff!r} is not margin or win", argument="payoff") from None
