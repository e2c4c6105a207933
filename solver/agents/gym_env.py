"""Quintet as a Gymnasium environment: one agent arranges against a named opponent.

Each episode is one deal drawn from a pool of seeded deals (``seeds``) by
the environment's generator (``reset(seed=...)``).  The agent holds seat
``seat``'s cards; its action is an index into its strategy frontier
(:class:`~solver.agents.deals.AgentDeal`: ``Discrete(n)``, ``n`` the
largest frontier of that seat over the pool, the observation's
``action_mask`` marking the deal's own), and the observation also holds
both holdings as card bits (own first), as in
:mod:`solver.agents.pettingzoo_env`.  The opponent lays out its cards at
the same time; the reward is the agent's payoff (margin or win) and the
episode ends.  An action off the mask is illegal and loses everything
(margin ``-T`` where ``T`` is the total points, win 0); the info says
``illegal`` and shows the opponent's arrangement.

Opponents (``opponent``):

* ``"random"``: a uniformly random arrangement each episode;
* ``"greedy"``, ``"house"``: the greedy arrangement and the house rule's
  (:mod:`solver.models.heuristics`, :mod:`solver.models.house`);
* ``"equilibrium"``: an arrangement drawn from the opponent's side of the
  deal's certified equilibrium (:func:`~solver.agents.deals.equilibrium_of`);
* a :class:`~solver.models.mixture.Mixture` of the opponent's holding (a
  pool of one deal);
* a mixture of these names: ``{"house": 0.5, "equilibrium": 0.5}``, one
  drawn each episode.

>>> env = QuintetEnv(seeds=[1], rules=Rules(position_points=(5, 6, 7)), opponent="greedy")
>>> observation, info = env.reset(seed=0)
>>> int(observation["action_mask"].sum()), info
(30, {'seed': 1})
>>> env.step(3)[1:4]
(4.0, True, False)
>>> QuintetEnv(opponent="clever")
Traceback (most recent call last):
    ...
solver.errors.SolverError: opponent 'clever': expected random, greedy, house, equilibrium, a Mixture or a {name: weight} dict
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from solver.agents.deals import AgentDeal, agent_deals, equilibrium_of, returns_of
from solver.agents.pettingzoo_env import RENDER_MODES, observation, observation_space
from solver.equilibria.payoff import Payoff, parse_payoff
from solver.errors import SolverError
from solver.game.arrangement import Arrangement
from solver.game.rules import Rules, rules_or_default
from solver.models.heuristics import greedy_arrangement, random_arrangement
from solver.models.house import house_arrangement
from solver.models.mixture import Mixture
from solver.util.checks import check_int

__all__ = ["OPPONENT_NAMES", "QuintetEnv"]

OPPONENT_NAMES = ("random", "greedy", "house", "equilibrium")


class QuintetEnv(gymnasium.Env):
    """The single-agent environment (see the module).

    Parameters
    ----------
    seeds
        The pool of deals (one seed or several).
    rules
        The rules (default :class:`Rules`).
    payoff
        ``"margin"`` or ``"win"``.
    opponent
        A name of :data:`OPPONENT_NAMES`, a :class:`Mixture`, or ``{name: weight}``.
    seat
        The agent's seat, 0 or 1.
    render_mode
        None or ``"ansi"``.
    """

    metadata = {"render_modes": list(RENDER_MODES)}  # noqa: RUF012 (gymnasium's own attribute)

    def __init__(
        self,
        seeds: int | Iterable[int] = 0,
        rules: Rules | None = None,
        payoff: Payoff | str = Payoff.MARGIN,
        opponent: str | Mixture | Mapping[str, float] = "equilibrium",
        seat: int = 0,
        render_mode: str | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise SolverError(
                f"render_mode {render_mode!r} is not None or 'ansi'", argument="render_mode"
            )
        self.names, self.weights = _opponents(opponent)
        self.opponent = opponent
        self.pool = agent_deals(seeds, rules_or_default(rules))
        self.payoff = parse_payoff(payoff)
        self.seat = check_int(seat, "seat", low=0, high=1)
        if isinstance(opponent, Mixture):
            holding = self.pool[0].deal.holdings[1 - self.seat]
            if len(self.pool) > 1 or opponent.cards != tuple(sorted(holding)):
                raise SolverError(
                    "opponent: a Mixture is one deal's: a pool of one deal, the opponent's holding",
                    argument="opponent",
                )
        self.render_mode = render_mode
        self.width = max(game.sizes[self.seat] for game in self.pool)
        self.observation_space = observation_space(self.width)
        self.action_space = spaces.Discrete(self.width)
        self.game: AgentDeal = self.pool[0]
        self.last: tuple[int, Arrangement] | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new deal from the pool (``seed`` reseeds the environment's generator)."""
        super().reset(seed=seed)
        self.game = self.pool[int(self.np_random.integers(len(self.pool)))]
        self.last = None
        return observation(self.game, self.seat, self.width), {"seed": self.game.seed}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """The agent's action against the opponent's arrangement; the episode ends."""
        theirs = self._opponent_arrangement()
        rules = self.game.rules
        legal = (
            isinstance(action, (numbers.Integral, np.integer))
            and 0 <= int(action) < self.game.sizes[self.seat]
        )
        if legal:
            mine = self.game.strengths(self.seat)[int(action)]
            paid = returns_of(mine, theirs.strengths(rules), rules, self.payoff)[0]
        else:
            paid = -float(rules.total_points) if self.payoff is Payoff.MARGIN else 0.0
        self.last = (int(action) if legal else -1, theirs)
        info = {
            "seed": self.game.seed,
            "illegal": not legal,
            "opponent": theirs.format(ascii=True),
        }
        return observation(self.game, self.seat, self.width), paid, True, False, info

    def _opponent_arrangement(self) -> Arrangement:
        name = self.names[int(self.np_random.choice(len(self.names), p=self.weights))]
        holding = self.game.deal.holdings[1 - self.seat]
        rules = self.game.rules
        if isinstance(self.opponent, Mixture):
            return self.opponent.sample(self.np_random)
        if name == "random":
            return random_arrangement(holding, self.np_random, rules)
        if name == "greedy":
            return greedy_arrangement(holding, rules)
        if name == "house":
            return house_arrangement(holding, rules)
        equilibrium = equilibrium_of(self.game, self.payoff)
        return (equilibrium.column if self.seat == 0 else equilibrium.row).sample(self.np_random)

    def render(self) -> str | None:
        """The deal and the arrangements played (``render_mode="ansi"``), else None."""
        if self.render_mode != "ansi":
            return None
        lines = [f"deal seed {self.game.seed}"]
        if self.last is not None:
            action, theirs = self.last
            mine = (
                "illegal action"
                if action < 0
                else self.game.arrangement(self.seat, action).format(ascii=True)
            )
            lines += [f"you: {mine}", f"opponent: {theirs.format(ascii=True)}"]
        return "\n".join(lines)


def _opponents(opponent: object) -> tuple[tuple[str, ...], np.ndarray]:
    """The opponent's names and the probability of each (one name: certain)."""
    if isinstance(opponent, Mixture):
        return ("mixture",), np.ones(1)
    if isinstance(opponent, str) and opponent in OPPONENT_NAMES:
        return (opponent,), np.ones(1)
    if (
        isinstance(opponent, Mapping)
        and opponent
        and set(opponent) <= set(OPPONENT_NAMES)
        and all(isinstance(w, numbers.Real) and not isinstance(w, bool) for w in opponent.values())
    ):
        weights = np.array([opponent[name] for name in opponent], dtype=np.float64)
        if np.isfinite(weights).all() and (weights >= 0).all() and weights.sum() > 0:
            return tuple(opponent), weights / weights.sum()
    raise SolverError(
        f"opponent {opponent!r}: expected {', '.join(OPPONENT_NAMES[:-1])}, "
        f"{OPPONENT_NAMES[-1]}, a Mixture or a {{name: weight}} dict",
        argument="opponent",
    )
