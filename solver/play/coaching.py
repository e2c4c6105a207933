"""Coaching at the table: equilibrium hints and a session's running summary.

>>> Session().summary("{games} {mine}:{theirs} {loss:.1f} {their_loss:.1f}")
'0 0:0 0.0 0.0'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from solver.analysis.grade import Grade
from solver.book.source import DEFAULT_SOURCE, EquilibriumSolver
from solver.equilibria.equilibrium import Payoff
from solver.game.arrangement import Arrangement, Score
from solver.game.rules import Rules
from solver.models.opponents import Objective
from solver.response.frontier_response import frontier_best_response

__all__ = ["Session", "equilibrium_hint"]


def equilibrium_hint(
    holding: Iterable[int],
    theirs: Iterable[int],
    rules: Rules,
    laid: list[tuple[int, ...]],
    solver: EquilibriumSolver | None = None,
) -> tuple[Arrangement, bool]:
    """An arrangement of the deal's margin equilibrium that keeps the ``laid`` packets.

    The most likely arrangement of the equilibrium whose first packets are
    the ones laid out (as sets of cards); its equilibrium loss is 0.  When
    none is, the best completion of the laid packets against the opponent's
    equilibrium strategy, and False.  ``solver`` gives the deal's equilibrium
    (default :func:`~solver.book.source.DEFAULT_SOURCE`).

    >>> from solver.game.deal import deal
    >>> two = Rules(position_points=(6, 7))
    >>> mine = deal(3, two).holdings[0]
    >>> arrangement, exact = equilibrium_hint(mine, mine, two, [])
    >>> exact, arrangement.cards == tuple(mine)
    (True, True)
    """
    holding = tuple(sorted(int(c) for c in holding))
    opponent_holding = tuple(sorted(int(c) for c in theirs))
    equilibrium = (solver or DEFAULT_SOURCE)(holding, opponent_holding, rules, Payoff.MARGIN)
    wanted = [sorted(packet) for packet in laid]
    order = np.argsort(-np.asarray(equilibrium.row.probabilities), kind="stable")
    for index in order.tolist():
        arrangement = equilibrium.row.arrangements[index]
        if all(sorted(p) == w for p, w in zip(arrangement.packets, wanted, strict=False)):
            return arrangement, True
    fixed = {i + 1: packet for i, packet in enumerate(laid)}
    opponent = equilibrium.column.opponent(rules)
    return frontier_best_response(
        holding, opponent, Objective.MARGIN, fixed=fixed
    ).arrangement, False


@dataclass
class Session:
    """Games played so far: points and equilibrium losses of both sides."""

    games: int = 0
    points: list[int] = field(default_factory=lambda: [0, 0])
    losses: list[float] = field(default_factory=lambda: [0.0, 0.0])

    def add(self, result: Score, mine: Grade, theirs: Grade) -> None:
        """Record one game."""
        self.games += 1
        self.points = [self.points[0] + result.points[0], self.points[1] + result.points[1]]
        self.losses = [
            self.losses[0] + mine.equilibrium_loss,
            self.losses[1] + theirs.equilibrium_loss,
        ]

    def summary(self, template: str) -> str:
        """The session line: ``template`` with games, mine, theirs, loss, their_loss."""
        games = max(self.games, 1)
        return template.format(
            games=self.games,
            mine=self.points[0],
            theirs=self.points[1],
            loss=self.losses[0] / games,
            their_loss=self.losses[1] / games,
        )
