"""Players: ways of choosing an arrangement, each with a stable name.

A player gets its holding, the opponent's holding, the rules and a seeded
generator, and returns an arrangement (:class:`Player`).  The players:

=============  ==============================================================
name           how it arranges
=============  ==============================================================
``random``     uniformly at random
``greedy``     strongest packet first, weakest at position 1 (:mod:`solver.models.heuristics`)
``house``      the house rule, a fixed layout of built packets (:mod:`solver.models.house`)
``br-random``  best response (margin) to an opponent arranging at random
``br-greedy``  best response (margin) to the opponent's greedy arrangement
``eq-margin``  a sample of its equilibrium strategy, margin payoff
``eq-win``     a sample of its equilibrium strategy, win payoff
=============  ==============================================================

Best responses and equilibria are exact (over the frontiers,
:mod:`solver.response.frontier_response`, :mod:`solver.equilibria.equilibrium`).  Equilibria are
cached per deal, so both seats of a deal solve it once.

>>> from solver.game.deal import deal
>>> d = deal(seed=1)
>>> p = player("greedy")
>>> p.arrange(d.holdings[0], d.holdings[1], Rules(), np.random.default_rng(0)).n_packets
5
>>> player("clever")
Traceback (most recent call last):
    ...
solver.errors.QuintetError: unknown player 'clever' (players: random, greedy, house, br-random, br-greedy, eq-margin, eq-win)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from solver.book.source import DEFAULT_SOURCE, EquilibriumSolver, EquilibriumSource
from solver.equilibria.equilibrium import DEFAULT_TOLERANCE, EquilibriumResult, Payoff, solve
from solver.errors import QuintetError
from solver.game.arrangement import Arrangement
from solver.game.payloads import cards_payload, rules_payload
from solver.game.rules import Rules, rules_or_default
from solver.models.heuristics import (
    greedy_arrangement,
    random_arrangement,
)
from solver.models.house import house_arrangement
from solver.models.mixture import Mixture
from solver.models.opponents import Objective, Opponent, expected_value, position_stats
from solver.play.registry import OPPONENTS
from solver.response.frontier_response import frontier_best_response
from solver.response.results import BestResponse, Engine, SolveStatus
from solver.util.checks import check_callback, check_instance
from solver.util.language import Lang, Phrase
from solver.util.time_limit import check_time_limit

__all__ = [
    "PLAYER_NAMES",
    "Player",
    "describe_player",
    "equilibrium_mixture",
    "equilibrium_response",
    "player",
    "players",
]


class Player(Protocol):
    """Anything that arranges a holding."""

    name: str

    def arrange(
        self,
        holding: Sequence[int],
        opponent_holding: Sequence[int],
        rules: Rules,
        rng: np.random.Generator,
    ) -> Arrangement:
        """The arrangement to play."""
        ...


@dataclass(frozen=True)
class _FunctionPlayer:
    name: str
    description: str
    choose: Callable[[tuple[int, ...], tuple[int, ...], Rules, np.random.Generator], Arrangement]

    def arrange(
        self,
        holding: Sequence[int],
        opponent_holding: Sequence[int],
        rules: Rules,
        rng: np.random.Generator,
    ) -> Arrangement:
        """The arrangement to play."""
        return self.choose(tuple(sorted(holding)), tuple(sorted(opponent_holding)), rules, rng)


def _random(
    mine: tuple[int, ...], theirs: tuple[int, ...], rules: Rules, rng: np.random.Generator
) -> Arrangement:
    return random_arrangement(mine, rng, rules)


def _greedy(
    mine: tuple[int, ...], theirs: tuple[int, ...], rules: Rules, rng: np.random.Generator
) -> Arrangement:
    return greedy_arrangement(mine, rules)


def _house(
    mine: tuple[int, ...], theirs: tuple[int, ...], rules: Rules, rng: np.random.Generator
) -> Arrangement:
    return house_arrangement(mine, rules)


def _br_random(
    mine: tuple[int, ...], theirs: tuple[int, ...], rules: Rules, rng: np.random.Generator
) -> Arrangement:
    opponent = Opponent.random(theirs, rules)
    return frontier_best_response(mine, opponent, Objective.MARGIN).arrangement


def _br_greedy(
    mine: tuple[int, ...], theirs: tuple[int, ...], rules: Rules, rng: np.random.Generator
) -> Arrangement:
    opponent = Opponent.greedy(theirs, rules)
    return frontier_best_response(mine, opponent, Objective.MARGIN).arrangement


def _equilibrium_player(
    payoff: Payoff, solver: EquilibriumSolver
) -> Callable[[tuple[int, ...], tuple[int, ...], Rules, np.random.Generator], Arrangement]:
    def choose(
        mine: tuple[int, ...], theirs: tuple[int, ...], rules: Rules, rng: np.random.Generator
    ) -> Arrangement:
        # The source keeps the deal: both seats (and any grade) cost one solve.
        return solver(mine, theirs, rules, payoff).row.sample(rng)

    return choose


_DESCRIPTIONS = {
    # The players that are also opponent models are described as the models are.
    "random": OPPONENTS["random"],
    "greedy": OPPONENTS["greedy"],
    "house": Phrase(
        "the house rule: greedy packets, or packets that keep fours of a kind if they beat them",
        "домашнее правило: жадные пакеты или пакеты, сохраняющие каре, если они сильнее",
    ),
    "br-random": Phrase(
        "best response (margin) to a random opponent",
        "лучший ответ (перевес) случайному противнику",
    ),
    "br-greedy": Phrase(
        "best response (margin) to the opponent's greedy arrangement",
        "лучший ответ (перевес) жадной раскладке противника",
    ),
    "eq-margin": Phrase(
        "samples its equilibrium strategy (margin payoff)",
        "играет равновесную стратегию (выплата: перевес)",
    ),
    "eq-win": Phrase(
        "samples its equilibrium strategy (win payoff)",
        "играет равновесную стратегию (выплата: победа)",
    ),
}
PLAYER_NAMES = tuple(_DESCRIPTIONS)


def player(
    name: str,
    *,
    equilibrium_time_limit: float | None = None,
    solver: EquilibriumSolver | None = None,
) -> _FunctionPlayer:
    """The player called ``name`` (see the module docstring).

    ``equilibrium_time_limit`` bounds the equilibrium players' solves (seconds
    per deal); by default they are exact.  ``solver``: where the equilibrium
    players get the deal's equilibria (e.g. an
    :class:`~solver.book.source.EquilibriumSource` with a book, shared with the
    grades; its own limits apply, and ``equilibrium_time_limit`` is not used);
    by default the process's :data:`~solver.book.source.DEFAULT_SOURCE`.
    """
    key = check_instance(name, str, "name").strip()
    check_callback(solver, "solver")
    check_time_limit(equilibrium_time_limit, "equilibrium_time_limit")
    if solver is None:
        solver = (
            DEFAULT_SOURCE
            if equilibrium_time_limit is None
            else EquilibriumSource(use_book=False, time_limit=equilibrium_time_limit)
        )
    choices: dict[str, Callable[..., Arrangement]] = {
        "random": _random,
        "greedy": _greedy,
        "house": _house,
        "br-random": _br_random,
        "br-greedy": _br_greedy,
        "eq-margin": _equilibrium_player(Payoff.MARGIN, solver),
        "eq-win": _equilibrium_player(Payoff.GAME_RESULT, solver),
    }
    if key not in choices:
        raise QuintetError(f"unknown player {name!r} (players: {', '.join(PLAYER_NAMES)})")
    return _FunctionPlayer(key, _DESCRIPTIONS[key].english, choices[key])


def describe_player(name: str, lang: Lang | str = Lang.EN) -> str:
    """What a player does, in English or Russian.

    >>> describe_player("random", "ru")
    'раскладывает случайно'
    """
    return _DESCRIPTIONS[player(name).name].text(lang)


def players(names: str | Sequence[str]) -> list[_FunctionPlayer]:
    """Players from a comma-separated list (or a sequence) of names, no repeats.

    >>> [p.name for p in players("greedy, random")]
    ['greedy', 'random']
    >>> players("greedy,greedy")
    Traceback (most recent call last):
        ...
    solver.errors.QuintetError: player 'greedy' is listed twice
    """
    if not isinstance(names, (str, Sequence)) or not all(isinstance(n, str) for n in names):
        raise TypeError(f"players must be names, comma-separated or in a sequence, got {names!r}")
    items = [n.strip() for n in (names.split(",") if isinstance(names, str) else names)]
    items = [n for n in items if n]
    if not items:
        raise QuintetError("no players given")
    chosen: list[_FunctionPlayer] = []
    for name in items:
        if name in [p.name for p in chosen]:
            raise QuintetError(f"player {name!r} is listed twice")
        chosen.append(player(name))
    return chosen


def equilibrium_response(
    first: Iterable[int],
    second: Iterable[int],
    rules: Rules | None = None,
    payoff: Payoff | str = Payoff.MARGIN,
    *,
    rng: np.random.Generator,
    tolerance: float = DEFAULT_TOLERANCE,
    time_limit: float | None = None,
    equilibrium: EquilibriumResult | None = None,
) -> BestResponse:
    """Play the equilibrium: one arrangement sampled from player 1's equilibrium strategy.

    ``equilibrium``: the deal's equilibrium when already known (from a solution
    book), else it is solved.

    Against the opponent's equilibrium strategy every arrangement of the
    support earns the game value, and no opponent can hold player 1 below
    the certified lower bound on average.  The result's value is the
    sampled arrangement's exact value against the opponent's equilibrium
    strategy (margin, or game for the win payoff); its bound is the
    certified upper bound on the game value.
    """
    rules = rules_or_default(rules)
    result = equilibrium or solve(
        first, second, rules, payoff, tolerance=tolerance, time_limit=time_limit
    )
    arrangement = result.row.sample(rng)
    objective = result.payoff.objective
    opponent = result.column.opponent(rules)
    profile = arrangement.strengths(rules)
    return BestResponse(
        arrangement=arrangement,
        strengths=tuple(int(s) for s in profile),
        objective=objective,
        value=float(expected_value(profile, opponent, objective)),
        bound=result.upper,
        status=SolveStatus.OPTIMAL if result.converged else SolveStatus.FEASIBLE,
        seconds=result.seconds,
        engine=Engine.EQUILIBRIUM,
        positions=position_stats(profile, opponent),
        note=(
            f"sampled from an equilibrium of {len(result.row.arrangements)} arrangements; "
            f"game value {result.value:.6g}, certified gap {result.gap:.2g}"
        ),
    )


def equilibrium_mixture(result: EquilibriumResult, opponent_holding: Iterable[int]) -> Mixture:
    """Player 1's equilibrium strategy with its certificate as file metadata."""

    metadata = {
        "kind": "equilibrium",
        "payoff": result.payoff.value,
        "game_value": result.value,
        "lower": result.lower,
        "upper": result.upper,
        "exploitability": result.gap,
        "exploitability_percent": result.exploitability_percent,
        "converged": result.converged,
        "iterations": result.iterations,
        "opponent_holding": cards_payload(sorted(opponent_holding, reverse=True)),
        "rules": rules_payload(result.rules),
    }
    return Mixture(result.row.arrangements, result.row.probabilities, metadata)
