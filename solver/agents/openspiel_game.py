"""Quintet as an OpenSpiel game: ``pyspiel.load_game("python_quintet")``.

Importing this module registers the game with ``pyspiel.register_game``
(it needs the ``agents`` extra: ``pip install "quintet-solver[agents]"``).
A game is one deal, or a distribution of deals: ``num_deals`` seeds from
``seed`` on, one of them drawn uniformly by a chance node at the start.
Then both players move at once (a simultaneous node): each player's action
is an index into its holding's strategy frontier
(:class:`~solver.agents.deals.AgentDeal`), so ``num_distinct_actions`` is
the largest frontier of the deals and each player's legal actions are the
first ``n`` of them, ``n`` its own frontier's size.  Both holdings are
public: a player's information state is the deal (and, once played, its
own action).  The returns are the margin (zero-sum) or the win (1, 1/2, 0:
constant-sum, 1 in all).

Parameters (all optional): ``seed`` (int, 0), ``num_deals`` (int, 1),
``mode`` (``"mirror"`` or ``"independent"``), ``payoff`` (``"margin"`` or
``"win"``), ``points`` (the positions' points, ``"3_4_5_6_7"``; fewer
positions are the reduced games), ``ace_low_straight`` and
``flush_beats_full_house`` (bool), as in :class:`~solver.game.rules.Rules`.

>>> import pyspiel
>>> game = pyspiel.load_game("python_quintet", {"seed": 1, "points": "5_6_7"})
>>> state = game.new_initial_state()
>>> state.is_simultaneous_node(), state.legal_actions(0)[-1]
(True, 29)
>>> state.apply_actions([0, 3])
>>> state.returns()
[-4.0, 4.0]
>>> pyspiel.load_game("python_quintet", {"payoff": "points"})
Traceback (most recent call last):
    ...
solver.errors.SolverError: payoff 'points' is not margin or win
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import pyspiel

from solver.agents.deals import AgentDeal, agent_deals
from solver.equilibria.payoff import Payoff, parse_payoff
from solver.errors import RulesError, SolverError
from solver.game.cards import DECK_SIZE, format_cards
from solver.game.rules import DiscardMode, Rules
from solver.util.checks import check_choice, check_int

__all__ = [
    "GAME_NAME",
    "QuintetGame",
    "QuintetObserver",
    "QuintetState",
    "game_rules",
    "load",
    "openspiel_game",
]

GAME_NAME = "python_quintet"
# Deals a game may draw from: each one's frontiers are built when the game is (tens of
# milliseconds a holding under the full rules).
MAX_DEALS = 1000

_DEFAULT_PARAMS: dict[str, Any] = {
    "seed": 0,
    "num_deals": 1,
    "mode": "mirror",
    "payoff": "margin",
    "points": "3_4_5_6_7",  # "_": OpenSpiel's game strings split at commas and read 6-7 as a number
    "ace_low_straight": False,
    "flush_beats_full_house": False,
}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Quintet (one deal, arrangements on the strategy frontier)",
    dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    # Margin is zero-sum; the payoff parameter's win is constant-sum (declared per game).
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=_DEFAULT_PARAMS,
)


def game_rules(params: dict[str, Any]) -> Rules:
    """The :class:`Rules` of a game's parameters (``points`` as ``"3_4_5_6_7"``).

    >>> game_rules({"points": "6_7", "mode": "independent"}).position_points
    (6, 7)
    >>> game_rules({"points": "6,7"})
    Traceback (most recent call last):
        ...
    solver.errors.RulesError: points '6,7' is not integers joined by '_', such as '3_4_5_6_7'
    """
    merged = {**_DEFAULT_PARAMS, **params}
    text = str(merged["points"])
    try:
        points = tuple(int(p) for p in text.split("_"))
    except ValueError:
        raise RulesError(
            f"points {text!r} is not integers joined by '_', such as '3_4_5_6_7'",
            argument="points",
        ) from None
    return Rules(
        position_points=points,
        discard_mode=check_choice(merged["mode"], DiscardMode, "mode", RulesError),
        ace_low_straight=merged["ace_low_straight"],
        flush_beats_full_house=merged["flush_beats_full_house"],
    )


class QuintetGame(pyspiel.Game):
    """The game of one deal or of a uniform distribution of deals (see the module)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULT_PARAMS, **(params or {})}
        unknown = sorted(set(params) - set(_DEFAULT_PARAMS))
        if unknown:
            raise SolverError(f"params: unknown {', '.join(unknown)}", argument="params")
        rules, payoff, deals = _setup(tuple(sorted(params.items())))
        win = payoff is Payoff.GAME_RESULT
        total = float(rules.total_points)
        super().__init__(
            _constant_sum_type() if win else _GAME_TYPE,
            pyspiel.GameInfo(
                num_distinct_actions=max(max(d.sizes) for d in deals),
                max_chance_outcomes=len(deals),
                num_players=2,
                min_utility=0.0 if win else -total,
                max_utility=1.0 if win else total,
                utility_sum=1.0 if win else 0.0,
                max_game_length=2,  # the chance draw (when several deals) and one joint move
            ),
            params,
        )

    # The game's data is derived from its parameters, never kept on the object: OpenSpiel
    # copies and unpickles a game from its parameters alone (its Python attributes are lost).
    def _setup(self) -> tuple[Rules, Payoff, tuple[AgentDeal, ...]]:
        return _setup(tuple(sorted(self.get_parameters().items())))

    @property
    def rules(self) -> Rules:
        """The rules."""
        return self._setup()[0]

    @property
    def payoff(self) -> Payoff:
        """The payoff: margin or win."""
        return self._setup()[1]

    @property
    def deals(self) -> tuple[AgentDeal, ...]:
        """The deals the chance node draws from (one: no chance node)."""
        return self._setup()[2]

    def new_initial_state(self) -> QuintetState:
        """The start: a chance node over the deals (when several), else the deal's move."""
        return QuintetState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> QuintetObserver:
        """An observer of states (information state or observation: the same here)."""
        return QuintetObserver(self, iig_obs_type, params)

    def state_for(self, index: int) -> QuintetState:
        """The decision state of deal ``index`` (the chance draw made)."""
        state = self.new_initial_state()
        if state.is_chance_node():
            state.apply_action(check_int(index, "index", low=0, high=len(self.deals) - 1))
        return state


@lru_cache(maxsize=64)
def _setup(params: tuple[tuple[str, Any], ...]) -> tuple[Rules, Payoff, tuple[AgentDeal, ...]]:
    """A game's rules, payoff and deals, from its parameters (all of them, sorted)."""
    values = dict(params)
    rules = game_rules(values)
    payoff = parse_payoff(values["payoff"])
    seed = check_int(values["seed"], "seed", low=0)
    count = check_int(values["num_deals"], "num_deals", low=1, high=MAX_DEALS)
    return rules, payoff, agent_deals(range(seed, seed + count), rules)


@lru_cache(maxsize=1)
def _constant_sum_type() -> pyspiel.GameType:
    # GameType is read-only from python: rebuild it with the other utility.
    return pyspiel.GameType(
        short_name=_GAME_TYPE.short_name,
        long_name=_GAME_TYPE.long_name,
        dynamics=_GAME_TYPE.dynamics,
        chance_mode=_GAME_TYPE.chance_mode,
        information=_GAME_TYPE.information,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=_GAME_TYPE.reward_model,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=_DEFAULT_PARAMS,
    )


class QuintetState(pyspiel.State):
    """A state: before the draw (several deals), at the joint move, or played."""

    def __init__(self, game: QuintetGame) -> None:
        super().__init__(game)
        self.index: int | None = 0 if len(game.deals) == 1 else None
        self.actions: tuple[int, int] | None = None

    def _quintet(self) -> QuintetGame:
        game = self.get_game()
        assert isinstance(game, QuintetGame)
        return game

    @property
    def deal(self) -> AgentDeal | None:
        """The deal drawn (None before the draw)."""
        return None if self.index is None else self._quintet().deals[self.index]

    def current_player(self) -> int:
        if self.actions is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.index is None:
            return int(pyspiel.PlayerId.CHANCE)
        return int(pyspiel.PlayerId.SIMULTANEOUS)

    def _legal_actions(self, player: int) -> list[int]:
        if self.deal is None or self.actions is not None:
            return []
        return list(range(self.deal.sizes[player]))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        count = len(self._quintet().deals)
        return [(i, 1.0 / count) for i in range(count)]

    def _apply_action(self, action: int) -> None:
        self.index = int(action)

    def _apply_actions(self, actions: list[int]) -> None:
        deal = self.deal
        assert deal is not None  # OpenSpiel applies joint actions at simultaneous nodes only
        self.actions = (deal.check_action(0, actions[0]), deal.check_action(1, actions[1]))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed {self._quintet().deals[action].seed}"
        if self.deal is None or not 0 <= action < self.deal.sizes[player]:
            return f"action {action}"
        return f"{action}: {self.deal.arrangement(player, action).format(ascii=True)}"

    def is_terminal(self) -> bool:
        return self.actions is not None

    def returns(self) -> list[float]:
        if self.actions is None or self.deal is None:
            return [0.0, 0.0]
        return list(self.deal.returns(*self.actions, self._quintet().payoff))

    def __str__(self) -> str:
        if self.deal is None:
            return "chance: a deal to draw"
        played = "" if self.actions is None else f" actions {self.actions[0]} {self.actions[1]}"
        return f"deal seed {self.deal.seed}{played}"


class QuintetObserver:
    """What a player knows: the deal (both holdings), and its own action once played.

    The tensor: a one-hot of the deal among the game's deals, each player's
    holding as 32 card bits, and the player's own action as a fraction of
    ``num_distinct_actions`` (0 before it moves).
    """

    def __init__(self, game: QuintetGame, iig_obs_type: Any, params: dict[str, Any] | None):
        if params:
            raise SolverError(f"params: observer takes none, got {params!r}", argument="params")
        self.game = game
        count = len(game.deals)
        self.tensor = np.zeros(count + 2 * DECK_SIZE + 1, np.float32)
        self.dict = {
            "deal": self.tensor[:count],
            "holdings": self.tensor[count : count + 2 * DECK_SIZE].reshape(2, DECK_SIZE),
            "own_action": self.tensor[-1:],
        }

    def set_from(self, state: QuintetState, player: int) -> None:
        self.tensor.fill(0.0)
        deal = state.deal
        if deal is None:
            return
        assert state.index is not None
        self.dict["deal"][state.index] = 1.0
        for seat, holding in enumerate(deal.deal.holdings):
            self.dict["holdings"][seat, list(holding)] = 1.0
        if state.actions is not None:
            self.dict["own_action"][0] = state.actions[player] / self.game.num_distinct_actions()

    def string_from(self, state: QuintetState, player: int) -> str:
        deal = state.deal
        if deal is None:
            return "chance"
        mine, theirs = deal.deal.holdings[player], deal.deal.holdings[1 - player]
        text = (
            f"seed {deal.seed} player {player} holds {format_cards(mine, ascii=True)}; "
            f"opponent {format_cards(theirs, ascii=True)}"
        )
        if state.actions is not None:
            text += f"; played {state.actions[player]}"
        return text


def openspiel_game(deals: Sequence[AgentDeal], payoff: Payoff | str) -> QuintetGame:
    """The game of ``deals``: consecutive seeds under one set of rules.

    >>> from solver.agents.deals import agent_deals
    >>> openspiel_game(agent_deals([4, 5]), "win").get_parameters()["seed"]
    4
    >>> openspiel_game(agent_deals([4, 6]), "win")
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: deals: the game's deals are consecutive seeds, not [4, 6]
    """
    seeds = [d.seed for d in deals]
    first = deals[0].rules if deals else None
    if (
        not deals
        or seeds[0] is None
        or seeds != list(range(seeds[0], seeds[0] + len(seeds)))
        or any(d.rules != first for d in deals)
    ):
        raise SolverError(
            f"deals: the game's deals are consecutive seeds, not {seeds}", argument="deals"
        )
    rules = deals[0].rules
    return load(
        seed=seeds[0],
        num_deals=len(deals),
        mode=rules.discard_mode.value,
        payoff=parse_payoff(payoff).value,
        points="_".join(str(p) for p in rules.position_points),
        ace_low_straight=rules.ace_low_straight,
        flush_beats_full_house=rules.flush_beats_full_house,
    )


def load(**params: Any) -> QuintetGame:
    """``pyspiel.load_game("python_quintet", params)``, with Python values.

    >>> load(seed=1, points="5_6_7").deals[0].sizes
    (30, 30)
    """
    game = pyspiel.load_game(GAME_NAME, params)
    assert isinstance(game, QuintetGame)
    return game


pyspiel.register_game(_GAME_TYPE, QuintetGame)
