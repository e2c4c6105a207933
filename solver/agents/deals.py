"""A deal as learning agents see it: each player's actions are its frontier strategies.

Both holdings of a Quintet deal are public and only the arrangements are
hidden, so a deal is a one-shot simultaneous zero-sum game.  Every
arrangement worth playing is on its holding's strategy frontier
(:mod:`solver.response.frontier`: any other arrangement is weakly dominated
by one there), so an agent's action is an index into that frontier: action
``i`` of a player is strategy ``i`` of ``cached_frontier(holding).strategies()``,
whatever the interface (OpenSpiel, PettingZoo, Gymnasium) or the
exploitability's input.

The payoff to player 0 of a pair of actions is the margin (points won minus
points conceded, ``sum_p w_p sign(s_p - t_p)`` over the strengths ``s`` and
``t`` at each position) or, for ``"win"``, 1 for more points, 1/2 for equal,
0 for fewer; player 1 gets ``-margin`` or ``1 - win``.

>>> from solver.game.rules import Rules
>>> game = AgentDeal.dealt(1, Rules(position_points=(5, 6, 7)))
>>> game.sizes
(30, 30)
>>> game.arrangement(0, 0).format()
'7♣ 7♥ 8♣ 8♦ A♠ | 9♣ 9♦ 10♣ 10♦ 10♠ | 9♥ 10♥ J♥ Q♥ K♥'
>>> game.returns(0, 3, "margin"), game.returns(0, 3, "win")
((-4.0, 4.0), (0.0, 1.0))
>>> game.arrangement(0, 30)
Traceback (most recent call last):
    ...
solver.errors.SolverError: action 30 is not one of player 0's 30 frontier strategies
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from solver.equilibria.equilibrium import EquilibriumResult, solve
from solver.equilibria.payoff import Payoff, parse_payoff
from solver.errors import SolverError
from solver.game.arrangement import Arrangement
from solver.game.deal import Deal, deal
from solver.game.rules import Rules, rules_or_default
from solver.response.frontier import Frontier, cached_frontier
from solver.util.checks import check_instance, check_int

__all__ = ["MAX_MATRIX_CELLS", "AgentDeal", "agent_deals", "equilibrium_of", "returns_of"]

# A payoff matrix is written down only up to this many cells (float64: 400 MB);
# the full game's frontiers (tens of thousands each) need best responses instead.
MAX_MATRIX_CELLS = 50_000_000


@dataclass(frozen=True)
class AgentDeal:
    """One deal with both players' frontier strategies as their actions.

    Attributes
    ----------
    deal
        The deal (its seed, rules and holdings).
    """

    deal: Deal

    @classmethod
    def dealt(cls, seed: int, rules: Rules | None = None) -> AgentDeal:
        """The deal of ``seed`` under ``rules`` (:func:`solver.game.deal.deal`)."""
        return cls(deal(seed, rules_or_default(rules)))

    @property
    def rules(self) -> Rules:
        """The deal's rules."""
        return self.deal.rules

    @property
    def seed(self) -> int | None:
        """The deal's seed."""
        return self.deal.seed

    def frontier(self, player: int) -> Frontier:
        """Player ``player``'s frontier (cached)."""
        return cached_frontier(self.deal.holdings[_player(player)], self.rules)

    def strengths(self, player: int) -> np.ndarray:
        """``(n, n_packets)``: each action's packet strengths, position by position (read-only)."""
        return self.frontier(player).strategies()[0]

    @property
    def sizes(self) -> tuple[int, int]:
        """Both players' numbers of actions."""
        return (int(self.strengths(0).shape[0]), int(self.strengths(1).shape[0]))

    def check_action(self, player: int, action: object) -> int:
        """``action`` as an int if it is one of ``player``'s actions, else a :class:`SolverError`."""
        size = self.sizes[_player(player)]
        if (
            isinstance(action, (bool, np.bool_))
            or not isinstance(action, numbers.Integral)
            or not 0 <= int(action) < size
        ):
            raise SolverError(
                f"action {action!r} is not one of player {player}'s {size} frontier strategies",
                argument="action",
            )
        return int(action)

    def arrangement(self, player: int, action: int) -> Arrangement:
        """The arrangement of ``player``'s action ``action`` (its packets in position order)."""
        action = self.check_action(player, action)
        front = self.frontier(player)
        _, profile, order = front.strategies()
        packets = front.packets(int(profile[action]))[order[action]]
        return Arrangement.trusted(packets.tolist())

    def action_of(self, player: int, arrangement: Arrangement) -> int:
        """The action whose strengths ``arrangement`` has (a dominated arrangement has none).

        An :class:`~solver.errors.ArrangementError` if it is not an
        arrangement of ``player``'s holding, a :class:`SolverError` if it is
        not on the frontier.
        """
        check_instance(arrangement, Arrangement, "arrangement")
        arrangement.check(self.deal.holdings[_player(player)], self.rules)
        found = np.flatnonzero(
            (self.strengths(player) == arrangement.strengths(self.rules)).all(axis=1)
        )
        if found.size == 0:
            raise SolverError(
                "arrangement is not on the frontier (another arrangement dominates it)",
                argument="arrangement",
            )
        return int(found[0])

    def returns(self, action0: int, action1: int, payoff: Payoff | str) -> tuple[float, float]:
        """Both players' payoffs when player 0 plays ``action0`` and player 1 ``action1``."""
        first = self.strengths(0)[self.check_action(0, action0)]
        second = self.strengths(1)[self.check_action(1, action1)]
        return returns_of(first, second, self.rules, payoff)

    def matrix(self, payoff: Payoff | str) -> np.ndarray:
        """Player 0's payoff matrix ``(n0, n1)`` (small frontiers only: reduced rules).

        More than :data:`MAX_MATRIX_CELLS` cells is a :class:`SolverError`:
        the full game's frontiers are best played through best responses.
        """
        payoff = parse_payoff(payoff)
        n0, n1 = self.sizes
        if n0 * n1 > MAX_MATRIX_CELLS:
            raise SolverError(
                f"payoff matrix of {n0} x {n1} cells is over {MAX_MATRIX_CELLS:,}",
                argument="payoff matrix",
            )
        margin = np.zeros((n0, n1))
        for p, weight in enumerate(self.rules.position_points):
            column = self.strengths(0)[:, p, None]
            margin += weight * np.sign(column - self.strengths(1)[None, :, p])
        if payoff is Payoff.MARGIN:
            return margin
        return (np.sign(margin) + 1.0) / 2.0


def returns_of(
    first: np.ndarray, second: np.ndarray, rules: Rules, payoff: Payoff | str
) -> tuple[float, float]:
    """Both players' payoffs when their packets have the strengths ``first`` and ``second``.

    >>> returns_of(np.array([5, 9]), np.array([6, 1]), Rules(position_points=(6, 7)), "win")
    (1.0, 0.0)
    """
    payoff = parse_payoff(payoff)
    margin = float(np.sign(np.asarray(first) - second) @ np.asarray(rules.position_points))
    if payoff is Payoff.MARGIN:
        return margin, -margin
    win = 0.5 if margin == 0 else float(margin > 0)
    return win, 1.0 - win


def equilibrium_of(game: AgentDeal, payoff: Payoff | str) -> EquilibriumResult:
    """The deal's certified equilibrium (not the canonical one: any will do here), kept.

    >>> result = equilibrium_of(AgentDeal.dealt(1, Rules(position_points=(5, 6, 7))), "margin")
    >>> result.value, result.upper - result.lower <= 1e-9
    (0.0, True)
    """
    first, second = game.deal.holdings
    return _equilibrium(first, second, game.rules, parse_payoff(payoff))


@lru_cache(maxsize=256)
def _equilibrium(
    first: tuple[int, ...], second: tuple[int, ...], rules: Rules, payoff: Payoff
) -> EquilibriumResult:
    return solve(first, second, rules, payoff, canonical=False, ranges=False)


def agent_deals(seeds: int | Iterable[int], rules: Rules | None = None) -> tuple[AgentDeal, ...]:
    """The deals of ``seeds`` (one seed or several), checked.

    >>> [d.seed for d in agent_deals(range(2, 4), Rules(position_points=(6, 7)))]
    [2, 3]
    >>> agent_deals([])
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: seeds: no deal given
    """
    rules = rules_or_default(rules)
    if isinstance(seeds, (str, bytes)) or not isinstance(seeds, (numbers.Integral, Iterable)):
        raise SolverError(f"seeds: expected a seed or several, got {seeds!r}", argument="seeds")
    many = not isinstance(seeds, numbers.Integral)
    chosen: Sequence[int] = [check_int(s, "seeds", low=0) for s in (seeds if many else [seeds])]
    if not chosen:
        raise SolverError("seeds: no deal given", argument="seeds")
    return tuple(AgentDeal.dealt(seed, rules) for seed in chosen)


def _player(player: object) -> int:
    if isinstance(player, (bool, np.bool_)) or player not in (0, 1):
        raise SolverError(f"player {player!r} is not 0 or 1", argument="player")
    return 1 if player == 1 else 0
