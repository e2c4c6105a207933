"""Policies in every form :func:`solver.agents.exploitability.exploitability` takes, as mixed strategies.

A player's policy on a deal becomes a :data:`~solver.equilibria.exploitability.Strategy`
(the strengths of the arrangements it plays and their probabilities): a
:class:`~solver.models.mixture.Mixture` or an :class:`Arrangement` of its holding, action
probabilities over its frontier strategies (a sequence, an array, an ``{action:
probability}`` dict), or an OpenSpiel policy or a callable ``f(state, player)`` asked at
the deal's decision state of the ``python_quintet`` game.

>>> policy_pair({"player_0": [1.0], "player_1": [0.5, 0.5]})
([1.0], [0.5, 0.5])
>>> policy_pair([0.5, 0.5])
([0.5, 0.5], [0.5, 0.5])
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from solver.agents.deals import AgentDeal
from solver.equilibria.exploitability import Strategy
from solver.equilibria.payoff import Payoff
from solver.errors import SolverError
from solver.game.arrangement import Arrangement
from solver.models.mixture import Mixture

__all__ = ["kind_of", "mixed_strategy", "per_state", "policy_pair"]

# Probabilities must add up to 1 within this (they are then scaled to add up to 1 exactly).
_SUM_TOLERANCE = 1e-6


def policy_pair(policy: object) -> tuple[object, object]:
    """Player 0's and player 1's policies (one policy: the same for both)."""
    if isinstance(policy, Mapping) and set(policy) == {"player_0", "player_1"}:
        return policy["player_0"], policy["player_1"]
    if (
        isinstance(policy, (tuple, list))
        and len(policy) == 2
        and not any(isinstance(side, numbers.Real) for side in policy)
    ):
        return policy[0], policy[1]
    return policy, policy


def per_state(policy: object) -> bool:
    """Whether the policy is asked at each deal's state (OpenSpiel policies, callables)."""
    return hasattr(policy, "action_probabilities") or callable(policy)


def kind_of(pairs: tuple[object, object]) -> str:
    side = next(p for p in pairs if not per_state(p))
    if isinstance(side, Mixture):
        return "mixtures"
    if isinstance(side, Arrangement):
        return "arrangements"
    return "action probabilities"


def mixed_strategy(
    policy: object,
    game: AgentDeal,
    player: int,
    index: int,
    deals: tuple[AgentDeal, ...],
    payoff: Payoff,
) -> Strategy:
    """Player ``player``'s mixed strategy as strengths and probabilities."""
    rules = game.rules
    holding = game.deal.holdings[player]
    if isinstance(policy, Arrangement):
        policy.check(holding, rules)
        return policy.strengths(rules)[None, :].astype(np.int32), np.ones(1)
    if isinstance(policy, Mixture):
        if policy.cards != tuple(sorted(holding)):
            raise SolverError(
                f"policy: player {player}'s mixture is not of its holding", argument="policy"
            )
        strengths = np.array([a.strengths(rules) for a in policy.arrangements], np.int32)
        return strengths, np.asarray(policy.probabilities, np.float64)
    if per_state(policy):
        policy = _ask(policy, game, player, index, deals, payoff)
    probabilities = _probabilities(policy, game.sizes[player], player)
    used = np.flatnonzero(probabilities > 0)
    return game.strengths(player)[used], probabilities[used]


def _ask(
    policy: Any,
    game: AgentDeal,
    player: int,
    index: int,
    deals: tuple[AgentDeal, ...],
    payoff: Payoff,
) -> object:
    """An OpenSpiel policy's or a callable's action probabilities at the deal's state."""
    from solver.agents.openspiel_game import QuintetGame, openspiel_game  # needs open_spiel

    own = getattr(policy, "game", None)
    quintet: QuintetGame
    where = index
    if isinstance(own, QuintetGame):
        matching = [
            i for i, d in enumerate(own.deals) if d.deal == game.deal and own.payoff is payoff
        ]
        if not matching:
            raise SolverError(
                f"policy: its game has no deal of seed {game.seed} with payoff {payoff.value}",
                argument="policy",
            )
        quintet, where = own, matching[0]
    else:
        quintet = openspiel_game(deals, payoff)
    state = quintet.state_for(where)
    ask: Callable[[Any, int], object] = getattr(policy, "action_probabilities", policy)
    return ask(state, player)


def _probabilities(values: object, size: int, player: int) -> np.ndarray:
    """Action probabilities as a checked array of ``size``."""
    if isinstance(values, Mapping):
        probabilities = np.zeros(size)
        for action, probability in values.items():
            if (
                isinstance(action, bool)
                or not isinstance(action, numbers.Integral)
                or not 0 <= int(action) < size
            ):
                raise SolverError(
                    f"policy: action {action!r} is not one of player {player}'s {size} "
                    "frontier strategies",
                    argument="policy",
                )
            probabilities[int(action)] = _number(probability)
    else:
        try:
            probabilities = np.asarray(values, dtype=np.float64)
        except (TypeError, ValueError):
            raise SolverError(
                f"policy: player {player}'s policy {values!r} is not action probabilities",
                argument="policy",
            ) from None
        if probabilities.ndim != 1 or probabilities.shape[0] != size:
            raise SolverError(
                f"policy: {probabilities.size} action probabilities for player {player}'s "
                f"{size} frontier strategies",
                argument="policy",
            )
    if not np.isfinite(probabilities).all() or (probabilities < 0).any():
        raise SolverError(
            f"policy: player {player}'s probabilities must be finite and non-negative",
            argument="policy",
        )
    total = float(probabilities.sum())
    if abs(total - 1.0) > _SUM_TOLERANCE:
        raise SolverError(
            f"policy: player {player}'s probabilities add up to {total:.6g}, not 1",
            argument="policy",
        )
    return probabilities / total


def _number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise SolverError(f"policy: probability {value!r} is not a number", argument="policy")
    return float(value)
