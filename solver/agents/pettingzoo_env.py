"""Quintet as a PettingZoo parallel environment: two agents arrange at once, one step.

Each episode is one deal, drawn from a pool of seeded deals (``seeds``) by
the environment's random generator (``reset(seed=...)`` makes it
reproducible).  Both agents, ``player_0`` and ``player_1``, act once and
at the same time; an action is an index into the agent's strategy frontier
(:class:`~solver.agents.deals.AgentDeal`), so ``action_space(agent)`` is
``Discrete(n)``, ``n`` the largest frontier of that seat over the pool, and
the observation's ``action_mask`` marks the deal's own frontier.  The
observation also holds both holdings as card bits (``(2, 32)``: the agent's
own first).  The rewards are the payoffs (margin: zero-sum; win: 1, 1/2, 0)
and the episode ends after the step.  An action off the mask is illegal:
its agent loses everything (margin ``-T`` where ``T`` is the total points, win 0),
unless both are, a draw; the info says ``illegal``.  ``aec_env`` is the same
game as a PettingZoo AEC environment.

>>> env = parallel_env(seeds=[1], rules=Rules(position_points=(5, 6, 7)))
>>> observations, infos = env.reset(seed=0)
>>> int(observations["player_0"]["action_mask"].sum()), env.action_space("player_1")
(30, Discrete(30))
>>> env.step({"player_0": 0, "player_1": 3})[1]
{'player_0': -4.0, 'player_1': 4.0}
>>> parallel_env(seeds=[])
Traceback (most recent call last):
    ...
solver.errors.SolverError: seeds: no deal given
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import parallel_to_aec

from solver.agents.deals import AgentDeal, agent_deals
from solver.equilibria.payoff import Payoff, parse_payoff
from solver.errors import SolverError
from solver.game.cards import DECK_SIZE
from solver.game.rules import Rules, rules_or_default

__all__ = ["AGENTS", "QuintetParallelEnv", "aec_env", "observation", "parallel_env"]

AGENTS = ("player_0", "player_1")
RENDER_MODES = ("ansi",)


def observation(game: AgentDeal, seat: int, width: int) -> dict[str, np.ndarray]:
    """Seat ``seat``'s observation of ``game``: holdings (own first) and an action mask of ``width``."""
    holdings = np.zeros((2, DECK_SIZE), np.int8)
    for row, holder in enumerate((seat, 1 - seat)):
        holdings[row, list(game.deal.holdings[holder])] = 1
    mask = np.zeros(width, np.int8)
    mask[: game.sizes[seat]] = 1
    return {"observation": holdings, "action_mask": mask}


def observation_space(width: int) -> spaces.Dict:
    """The space of :func:`observation`."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0, 1, (2, DECK_SIZE), np.int8),
            "action_mask": spaces.Box(0, 1, (width,), np.int8),
        }
    )


class QuintetParallelEnv(ParallelEnv):
    """The parallel environment (see the module).

    Parameters
    ----------
    seeds
        The pool of deals (one seed or several).
    rules
        The rules (default :class:`Rules`).
    payoff
        ``"margin"`` or ``"win"``.
    render_mode
        None or ``"ansi"`` (:meth:`render` returns the deal and the arrangements played).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "quintet_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": True,
    }

    def __init__(
        self,
        seeds: int | Iterable[int] = 0,
        rules: Rules | None = None,
        payoff: Payoff | str = Payoff.MARGIN,
        render_mode: str | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise SolverError(
                f"render_mode {render_mode!r} is not None or 'ansi'", argument="render_mode"
            )
        self.pool = agent_deals(seeds, rules_or_default(rules))
        self.payoff = parse_payoff(payoff)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self.widths = tuple(max(game.sizes[seat] for game in self.pool) for seat in (0, 1))
        self._observation_spaces = {
            agent: observation_space(self.widths[seat]) for seat, agent in enumerate(AGENTS)
        }
        self._action_spaces = {
            agent: spaces.Discrete(self.widths[seat]) for seat, agent in enumerate(AGENTS)
        }
        self.game: AgentDeal = self.pool[0]
        self.played: dict[str, int] = {}
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new deal from the pool (``seed`` reseeds the draw)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game = self.pool[int(self._rng.integers(len(self.pool)))]
        self.agents = list(AGENTS)
        self.played = {}
        observations = {
            agent: observation(self.game, seat, self.widths[seat])
            for seat, agent in enumerate(AGENTS)
        }
        return observations, {agent: {"seed": self.game.seed} for agent in AGENTS}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        """Both agents' actions at once; the episode ends."""
        if not self.agents:
            raise SolverError("actions: the episode is over, call reset()", argument="actions")
        if set(actions) != set(AGENTS):
            raise SolverError(
                f"actions: expected one for each of {', '.join(AGENTS)}, got {sorted(actions)}",
                argument="actions",
            )
        picked = [int(actions[agent]) for agent in AGENTS]
        legal = [0 <= a < self.game.sizes[seat] for seat, a in enumerate(picked)]
        if all(legal):
            paid = self.game.returns(picked[0], picked[1], self.payoff)
        else:
            paid = _forfeit(legal, self.game.rules, self.payoff)
        self.played = dict(zip(AGENTS, picked, strict=True))
        observations = {
            agent: observation(self.game, seat, self.widths[seat])
            for seat, agent in enumerate(AGENTS)
        }
        rewards = dict(zip(AGENTS, paid, strict=True))
        infos = {
            agent: {"seed": self.game.seed, "illegal": not legal[seat]}
            for seat, agent in enumerate(AGENTS)
        }
        self.agents = []
        return (
            observations,
            rewards,
            dict.fromkeys(AGENTS, True),
            dict.fromkeys(AGENTS, False),
            infos,
        )

    def render(self) -> str | None:
        """The deal and what was played (``render_mode="ansi"``), else None."""
        if self.render_mode != "ansi":
            return None
        lines = [f"deal seed {self.game.seed}"]
        for seat, agent in enumerate(AGENTS):
            action = self.played.get(agent)
            if action is None or not 0 <= action < self.game.sizes[seat]:
                shown = "-" if action is None else f"illegal action {action}"
            else:
                shown = self.game.arrangement(seat, action).format(ascii=True)
            lines.append(f"{agent}: {shown}")
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""

    def arrangement(self, agent: str, action: int) -> Any:
        """The arrangement of ``agent``'s ``action`` in the current deal."""
        return self.game.arrangement(AGENTS.index(agent), action)


def _forfeit(legal: list[bool], rules: Rules, payoff: Payoff) -> tuple[float, float]:
    """The payoffs when an action is illegal: its player loses all (both: a draw)."""
    if not any(legal):
        return (0.0, 0.0) if payoff is Payoff.MARGIN else (0.5, 0.5)
    top = float(rules.total_points) if payoff is Payoff.MARGIN else 1.0
    low = -top if payoff is Payoff.MARGIN else 0.0
    return (top, low) if legal[0] else (low, top)


def parallel_env(**kwargs: Any) -> QuintetParallelEnv:
    """The parallel environment (PettingZoo's constructor convention)."""
    return QuintetParallelEnv(**kwargs)


def aec_env(**kwargs: Any) -> AECEnv:
    """The same game as an AEC environment (``pettingzoo.utils.parallel_to_aec``)."""
    return parallel_to_aec(QuintetParallelEnv(**kwargs))
