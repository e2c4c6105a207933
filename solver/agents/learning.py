"""Learning algorithms of OpenSpiel scored exactly on Quintet deals, beside double oracle.

A deal is a one-shot simultaneous zero-sum game, so the OpenSpiel solvers that fit it
work on its payoff matrix (:meth:`AgentDeal.matrix`; reduced rules keep it small):

* ``regret_matching`` and ``replicator_dynamics``: OpenSpiel's normal-form solvers
  (``algorithms.regret_matching``, and ``algorithms.projected_replicator_dynamics``,
  PSRO's meta-solver), run afresh for each number of iterations (they return only the
  final average strategies);
* ``cfr``, ``cfr_plus``: OpenSpiel's C++ ``CFRSolver`` and ``CFRPlusSolver`` on the
  matrix game made turn-based (player 1 does not see player 0's move); with one
  information state per player, CFR is regret matching there, CFR+ its "plus" variant;
* ``fictitious_play``: OpenSpiel's extensive-form fictitious play (``XFPSolver``) on
  the same turn-based game; it walks the game tree in Python, so it is slow;
* ``double_oracle``: the project's certified double oracle
  (:func:`solver.equilibria.equilibrium.solve`): at each of its iterations, the
  NashConv of its best strategies so far is its certified gap; it stops at an
  equilibrium, whatever the checkpoints.

Every point is the exact NashConv of the algorithm's (average) strategies
(:func:`solver.agents.exploitability.exploitability`) after a number of iterations,
with the process CPU time its iterations took (scoring excluded).

>>> from solver.game.rules import Rules
>>> points = learning_curves([1], Rules(position_points=(5, 6, 7)), "margin",
...                          ["regret_matching", "double_oracle"], [1, 100])
>>> [(p.algorithm, p.iterations, p.nash_conv < 8.0) for p in points][:2]
[('regret_matching', 1, True), ('regret_matching', 100, True)]
>>> points[-1].algorithm, points[-1].nash_conv <= 1e-9
('double_oracle', True)
>>> learning_curves([1], Rules(position_points=(5, 6, 7)), "margin", ["psro"], [1])
Traceback (most recent call last):
    ...
solver.errors.SolverError: algorithms: 'psro' is not one of regret_matching, replicator_dynamics, cfr, cfr_plus, fictitious_play, double_oracle
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import fictitious_play, regret_matching
from open_spiel.python.algorithms import projected_replicator_dynamics as replicator

from solver.agents.deals import AgentDeal, agent_deals
from solver.agents.exploitability import exploitability, mean_and_interval
from solver.equilibria.double_oracle import IterationRecord
from solver.equilibria.equilibrium import solve
from solver.equilibria.payoff import Payoff, parse_payoff
from solver.errors import SolverError
from solver.game.rules import Rules
from solver.util.checks import check_int

__all__ = ["ALGORITHMS", "CurvePoint", "CurveSummary", "learning_curves", "summarize"]

ALGORITHMS = (
    "regret_matching",
    "replicator_dynamics",
    "cfr",
    "cfr_plus",
    "fictitious_play",
    "double_oracle",
)

Pair = tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True)
class CurvePoint:
    """One algorithm's strategies on one deal after some iterations.

    Attributes
    ----------
    algorithm, seed, iterations
        What ran, on which deal, how long.
    nash_conv
        The exact NashConv of its strategies (points, or probability for the win payoff).
    seconds
        CPU time of the iterations (scoring excluded; double oracle: the wall time of its
        records, the frontiers included when not cached).
    """

    algorithm: str
    seed: int | None
    iterations: int
    nash_conv: float
    seconds: float


def learning_curves(
    seeds: int | Iterable[int],
    rules: Rules,
    payoff: Payoff | str,
    algorithms: Sequence[str],
    checkpoints: Sequence[int],
) -> tuple[CurvePoint, ...]:
    """Each algorithm's exact NashConv on each deal after each number of ``checkpoints``.

    Parameters
    ----------
    seeds, rules
        The deals (reduced rules: the payoff matrix is written down).
    payoff
        ``"margin"`` or ``"win"``.
    algorithms
        Names of :data:`ALGORITHMS`.
    checkpoints
        Numbers of iterations, increasing (double oracle: its own iterations up to the
        largest, and the last one).

    Returns
    -------
    tuple of CurvePoint
        By deal, algorithm and checkpoint.
    """
    payoff = parse_payoff(payoff)
    for name in algorithms:
        if name not in ALGORITHMS:
            raise SolverError(
                f"algorithms: {name!r} is not one of {', '.join(ALGORITHMS)}",
                argument="algorithms",
            )
    marks = [check_int(c, "checkpoints", low=1) for c in checkpoints]
    if not marks or marks != sorted(set(marks)):
        raise SolverError(
            f"checkpoints: {list(checkpoints)} is not increasing", argument="checkpoints"
        )
    points: list[CurvePoint] = []
    for game in agent_deals(seeds, rules):
        for name in algorithms:
            for iterations, pair, seconds in _RUNNERS[name](game, payoff, marks):
                conv = (
                    pair
                    if isinstance(pair, float)
                    else exploitability(pair, game, payoff).nash_conv
                )
                points.append(CurvePoint(name, game.seed, iterations, conv, seconds))
    return tuple(points)


@dataclass(frozen=True)
class CurveSummary:
    """One algorithm's NashConv after some iterations, over the deals.

    Attributes
    ----------
    algorithm, iterations
        What ran, how long (a deal whose run stopped earlier counts with its last point:
        double oracle stops at an equilibrium).
    deals
        How many deals.
    nash_conv, low, high
        The mean NashConv and a 95% confidence interval of it (Student's t).
    seconds
        The mean time.
    """

    algorithm: str
    iterations: int
    deals: int
    nash_conv: float
    low: float
    high: float
    seconds: float


def summarize(points: Sequence[CurvePoint]) -> tuple[CurveSummary, ...]:
    """The mean curve of each algorithm over the deals of ``points``.

    >>> points = [CurvePoint("cfr", 1, 1, 2.0, 0.1), CurvePoint("cfr", 2, 1, 4.0, 0.3),
    ...           CurvePoint("double_oracle", 1, 1, 1.0, 0.1),
    ...           CurvePoint("double_oracle", 1, 2, 0.0, 0.2)]
    >>> [(s.algorithm, s.iterations, s.nash_conv, s.seconds) for s in summarize(points)]
    [('cfr', 1, 3.0, 0.2), ('double_oracle', 1, 1.0, 0.1), ('double_oracle', 2, 0.0, 0.2)]
    >>> summarize("cfr")
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: points: expected a sequence of CurvePoint, got 'cfr'
    """
    if not isinstance(points, (list, tuple)) or not all(isinstance(p, CurvePoint) for p in points):
        raise SolverError(
            f"points: expected a sequence of CurvePoint, got {points!r}", argument="points"
        )
    found: list[CurveSummary] = []
    for algorithm in dict.fromkeys(p.algorithm for p in points):
        mine = [p for p in points if p.algorithm == algorithm]
        seeds = list(dict.fromkeys(p.seed for p in mine))
        for iterations in sorted({p.iterations for p in mine}):
            latest = [
                max((p for p in mine if p.seed == seed and p.iterations <= iterations),
                    key=lambda p: p.iterations)
                for seed in seeds
            ]  # fmt: skip
            mean, low, high = mean_and_interval([p.nash_conv for p in latest])
            seconds = float(np.mean([p.seconds for p in latest]))
            found.append(
                CurveSummary(algorithm, iterations, len(latest), mean, max(0.0, low), high, seconds)
            )
    return tuple(found)


Runner = Callable[[AgentDeal, Payoff, list[int]], Iterator[tuple[int, Pair | float, float]]]


def _tensors(game: AgentDeal, payoff: Payoff) -> list[np.ndarray]:
    matrix = game.matrix(payoff)
    total = 0.0 if payoff is Payoff.MARGIN else 1.0
    return [matrix, total - matrix]


def _normal_form(solver: Callable[..., list[np.ndarray]], key: str) -> Runner:
    """A normal-form solver run afresh for each checkpoint (its average strategies)."""

    def run(
        game: AgentDeal, payoff: Payoff, marks: list[int]
    ) -> Iterator[tuple[int, Pair | float, float]]:
        tensors = _tensors(game, payoff)
        for iterations in marks:
            started = time.process_time()
            found = solver(tensors, **{key: iterations})
            yield iterations, _normalized(found[0], found[1]), time.process_time() - started

    return run


def _turn_based(game: AgentDeal, payoff: Payoff) -> pyspiel.Game:
    first, second = _tensors(game, payoff)
    return pyspiel.convert_to_turn_based(
        pyspiel.create_matrix_game(first.tolist(), second.tolist())
    )


def _cfr(kind: Callable[[pyspiel.Game], object]) -> Runner:
    """OpenSpiel's C++ CFR (or CFR+) on the turn-based matrix game: its average policy."""

    def run(
        game: AgentDeal, payoff: Payoff, marks: list[int]
    ) -> Iterator[tuple[int, Pair | float, float]]:
        turn_based = _turn_based(game, payoff)
        started = time.process_time()
        solver = kind(turn_based)
        done = 0
        for iterations in marks:
            for _ in range(iterations - done):
                solver.evaluate_and_update_policy()  # type: ignore[attr-defined]
            done = iterations
            spent = time.process_time() - started
            average = solver.average_policy()  # type: ignore[attr-defined]
            yield iterations, _policy_pair(turn_based, average.get_state_policy, game), spent
            started = time.process_time() - spent

    return run


def _fictitious_play(
    game: AgentDeal, payoff: Payoff, marks: list[int]
) -> Iterator[tuple[int, Pair | float, float]]:
    """OpenSpiel's extensive-form fictitious play on the turn-based matrix game."""
    turn_based = _turn_based(game, payoff)
    started = time.process_time()
    solver = fictitious_play.XFPSolver(turn_based)
    done = 0
    for iterations in marks:
        for _ in range(iterations - done):
            solver.iteration()
        done = iterations
        spent = time.process_time() - started
        average = solver.average_policy()
        pair = _policy_pair(turn_based, average.action_probabilities, game)
        yield iterations, pair, spent
        started = time.process_time() - spent


def _double_oracle(
    game: AgentDeal, payoff: Payoff, marks: list[int]
) -> Iterator[tuple[int, Pair | float, float]]:
    """The project's double oracle: its certified gap at each of its iterations, then its result.

    An iteration's record holds the best certified bounds so far, ``lower = min_b u(x, b)``
    and ``upper = max_a u(a, y)`` of the strategies behind them, so ``upper - lower`` is
    exactly their NashConv; its time is the record's (wall time since the solve began,
    frontiers included).  The last point scores the solve's strategies with
    :func:`exploitability`, as the others are, at the solve's whole time.
    """
    first, second = game.deal.holdings
    records: list[IterationRecord] = []
    result = solve(first, second, game.rules, payoff, canonical=False, ranges=False,
                   on_record=records.append)  # fmt: skip
    for record in records[:-1]:
        if record.iteration <= marks[-1]:
            yield record.iteration, max(0.0, record.upper - record.lower), record.seconds
    pair = (_strategy_of(game, 0, result.row), _strategy_of(game, 1, result.column))
    yield result.iterations, pair, result.seconds


def _strategy_of(game: AgentDeal, player: int, mixture: object) -> np.ndarray:
    probabilities = np.zeros(game.sizes[player])
    for arrangement, p in zip(mixture.arrangements, mixture.probabilities, strict=True):  # type: ignore[attr-defined]
        probabilities[game.action_of(player, arrangement)] += p
    return probabilities


def _policy_pair(
    turn_based: pyspiel.Game,
    probabilities: Callable[[pyspiel.State], Any],
    game: AgentDeal,
) -> Pair:
    """Both players' action probabilities from a policy of the turn-based matrix game."""
    state = turn_based.new_initial_state()
    first = np.zeros(game.sizes[0])
    for action, p in dict(probabilities(state)).items():  # a dict or (action, p) pairs
        first[action] = p
    state.apply_action(0)  # player 1 sees none of player 0's move: any will do
    second = np.zeros(game.sizes[1])
    for action, p in dict(probabilities(state)).items():
        second[action] = p
    return _normalized(first, second)


def _normalized(first: np.ndarray, second: np.ndarray) -> Pair:
    # Averaged strategies sum to 1 within rounding; exploitability wants it exact.
    return first / first.sum(), second / second.sum()


_RUNNERS: dict[str, Runner] = {
    "regret_matching": _normal_form(regret_matching.regret_matching, "iterations"),
    "replicator_dynamics": _normal_form(replicator.projected_replicator_dynamics, "prd_iterations"),
    "cfr": _cfr(pyspiel.CFRSolver),
    "cfr_plus": _cfr(pyspiel.CFRPlusSolver),
    "fictitious_play": _fictitious_play,
    "double_oracle": _double_oracle,
}
