"""The ``k`` best arrangements against an opponent model: the frontier, then CP-SAT below it.

Every objective is non-decreasing in each packet's strength.  So an
arrangement whose strength profile is dominated (position by position, and
different) by two others is worth no more than either: it is never needed
among the best two.  In general the ``i``-th best profile, given the
``i - 1`` better ones ``F``, is either

* a frontier strategy not in ``F`` (:mod:`solver.response.frontier`: every
  undominated profile, each exactly valued by one numpy gather), or
* dominated by some ``f`` in ``F`` (a profile dominated by something
  outside ``F`` is worth no more than that, and the undominated profile
  above it is a frontier strategy or in ``F``).

The first is the best frontier strategy not yet found; the second is a
CP-SAT model per ``f`` whose options are capped at ``f``'s strengths, with
``F`` excluded and a floor: it need only find something better than the
frontier's candidate, and for points and margin an option that loses more
than ``ceiling - floor`` against the best option at its position is
dropped, so the models are small and most are infeasible at once.

Exactness.  CP-SAT works in integers: a mixture's probabilities are
rounded to integer weights, which moves a value by at most
``rounding_error * span`` (:class:`~solver.models.opponents.Opponent`).
Each model's floor is lowered by that much, every solution is rescored
exactly and excluded, and the search below ``f`` ends when CP-SAT proves
that nothing left can beat the best exact value (gap 0), or nothing left
beats it in the rounded weights (the rounding could hide at most the
tolerance: proven up to it, the gap says how much; the ties of a mixture
are not enumerated one model at a time).  A search the time limit or a
Ctrl-C cut short is feasible, with the bound ``min(value of the previous
result, what CP-SAT proved)``.

>>> from solver.game.deal import deal
>>> from solver.models.opponents import Opponent
>>> d = deal(seed=5)
>>> best, second = frontier_top_responses(d.holdings[0], Opponent.random(d.holdings[1]), k=2)
>>> best.value >= second.value, second.status.value, second.gap
(True, 'optimal', 0.0)
>>> frontier_top_responses(d.holdings[0], Opponent.random(d.holdings[1]), k=0)
Traceback (most recent call last):
    ...
solver.errors.SolverError: k must be at least 1, got 0
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from solver.models.opponents import Objective, Opponent, position_stats
from solver.response.best_response import (
    DEFAULT_EVAL_SAMPLES,
    DEFAULT_SAMPLES,
    assemble,
    checked_search_arguments,
    estimate_on_fresh_samples,
    objective_of,
    prepare_opponent,
    problem_of,
    split_fixed,
)
from solver.response.frontier_response import frontier_strategies, strategy_values
from solver.response.results import (
    STOPPED,
    TIME_LIMIT_REACHED,
    BestResponse,
    Engine,
    ModelSolve,
    SolveStatus,
)
from solver.util.checks import check_instance

if TYPE_CHECKING:
    from solver.game.arrangement import Arrangement
    from solver.response.cpsat_model import Problem

__all__ = ["STOPPED", "TIME_LIMIT_REACHED", "TopProgress", "frontier_top_responses"]

# Exact values closer than this are equal (float sums of the same terms in another order).
_EPSILON = 1e-9


@dataclass(frozen=True)
class TopProgress:
    """Where a search for the ``k`` best arrangements is.

    Attributes
    ----------
    found
        Results settled so far (proven or not).
    k
        How many were asked for.
    strategies
        The frontier strategies valued.
    searches
        CP-SAT models solved so far.
    seconds
        Wall time since the start.
    time_limit
        The search's limit in seconds (None: none).
    """

    found: int
    k: int
    strategies: int
    searches: int
    seconds: float
    time_limit: float | None


@dataclass
class _Candidate:
    """The best arrangement known for the rank being searched."""

    profile: tuple[int, ...]
    value: float
    arrangement: Arrangement
    engine: Engine


@dataclass
class _Below:
    """What the searches below the found profiles proved for one rank."""

    proven: bool = True
    bound: float = -math.inf  # exact units: nothing unproven is worth more
    interrupted: bool = False
    solves: list[ModelSolve] = field(default_factory=list)


class _TopSearch:
    """The state of :func:`frontier_top_responses`."""

    def __init__(
        self,
        problem: Problem,
        strategies: tuple[np.ndarray, np.ndarray, Callable[[int], Arrangement]],
        k: int,
        time_limit: float | None,
        workers: int,
        on_progress: Callable[[TopProgress], None] | None,
        started: float,
    ) -> None:
        self.problem, self.k, self.workers = problem, k, workers
        self.full, self.values, self.frontier_arrangement = strategies
        self.ranking = np.argsort(-self.values, kind="stable")
        self.started = started  # the frontier's valuation counts in the progress
        self.time_limit = time_limit
        # The limit bounds the CP-SAT searches, which start now.
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        self.on_progress = on_progress
        self.found: list[tuple[_Candidate, SolveStatus, float, float, str]] = []
        self.seen: set[tuple[int, ...]] = set()
        self.searches = 0
        self.solves: list[ModelSolve] = []
        opponent, objective = problem.opponent, problem.objective
        self.tolerance = opponent.rounding_error * objective.span(problem.rules)
        self.constant = problem.coefficients()[1] if objective.separable else 0

    # --- exact values -------------------------------------------------------------------
    def _exact(self, profile: tuple[int, ...]) -> float:
        row = np.array([profile], dtype=np.int64)
        return float(strategy_values(row, self.problem.opponent, self.problem.objective)[0])

    def _progress(self) -> None:
        if self.on_progress is not None:
            self.on_progress(
                TopProgress(
                    found=len(self.found),
                    k=self.k,
                    strategies=int(self.full.shape[0]),
                    searches=self.searches,
                    seconds=time.perf_counter() - self.started,
                    time_limit=self.time_limit,
                )
            )

    def _remaining(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.perf_counter()

    # --- the frontier's candidate -------------------------------------------------------
    def _frontier_candidate(self) -> _Candidate | None:
        for index in self.ranking:
            profile = tuple(int(s) for s in self.full[index])
            if profile not in self.seen:
                return _Candidate(
                    profile,
                    float(self.values[index]),
                    self.frontier_arrangement(int(index)),
                    Engine.FRONTIER,
                )
        return None

    # --- the searches below the found profiles -----------------------------------------
    def _floor(self, value: float) -> int:
        """The integer floor that every profile worth more than ``value`` exactly reaches."""
        scaled = value * self.problem.scale - self.constant
        if self.tolerance == 0:
            return round(scaled) + 1  # integer values: strictly better is at least one more
        return math.floor(scaled - self.tolerance * self.problem.scale) - 1

    def _upper(self, integer_bound: float) -> float:
        """The exact value no profile of a model with this integer bound exceeds."""
        return (integer_bound + self.constant) / self.problem.scale + self.tolerance

    def _keep(self, cap: tuple[int, ...], floor: int) -> np.ndarray | None:
        """Options at most ``cap`` at each free position (and within the slack): None if empty."""
        problem = self.problem
        caps = np.array([cap[p] for p in problem.free_positions], dtype=np.int64)
        keep = problem.options.strength[:, None] <= caps[None, :]
        if not keep.any(axis=0).all():
            return None
        if problem.objective.separable:
            values = problem.coefficients()[0]
            best = np.where(keep, values, np.iinfo(np.int64).min).max(axis=0)
            slack = int(best.sum()) - floor
            if slack < 0:
                return None  # even the best option everywhere does not reach the floor
            keep &= best[None, :] - values <= slack
        return keep

    def _below(
        self, cap: tuple[int, ...], candidate: _Candidate | None, below: _Below
    ) -> _Candidate | None:
        """The best profile under ``cap`` worth more than ``candidate`` (else ``candidate``)."""
        from solver.response.cpsat_model import ArrangementModel, ModelStatus
        from solver.response.cpsat_search import realized_choice

        problem = self.problem
        free = problem.free_positions
        floor_value = -math.inf if candidate is None else candidate.value
        floor = None if candidate is None else self._floor(floor_value)
        keep = self._keep(cap, floor if floor is not None else np.iinfo(np.int64).min // 4)
        if keep is None:
            return candidate
        model = ArrangementModel(problem, keep=keep)
        for profile in self.seen:
            model.exclude_strengths([profile[p] for p in free])
        while True:
            if floor is not None:
                model.raise_floor(floor)
            remaining = self._remaining()
            if remaining is not None and remaining <= 0:
                below.proven, below.bound = False, math.inf
                return candidate
            outcome = model.solve(remaining, self.workers)
            self.searches += 1
            below.solves.append(outcome.solve)
            self._progress()
            if outcome.chosen is None:
                if outcome.status is not ModelStatus.INFEASIBLE:
                    below.proven, below.bound = False, math.inf  # out of time, nothing proved
                return candidate
            real = realized_choice(problem, outcome.chosen)
            arrangement = assemble(problem, outcome.chosen)
            profile = tuple(int(s) for s in arrangement.strengths(problem.rules))
            value = self._exact(profile)
            if profile not in self.seen and (
                candidate is None or value > candidate.value + _EPSILON
            ):
                candidate = _Candidate(profile, value, arrangement, Engine.CPSAT)
            model.exclude_profile(outcome.chosen)
            model.exclude_profile(real)
            if candidate is None:
                continue  # it realized as a profile already found: look again without it
            upper = self._upper(outcome.bound)
            if outcome.status is not ModelStatus.OPTIMAL:  # out of time
                below.proven, below.bound = False, max(below.bound, upper)
                return candidate
            if upper <= candidate.value + _EPSILON:
                return candidate  # proven exactly: nothing left is worth more
            if upper - self.tolerance <= candidate.value + _EPSILON:
                # Nothing left is worth more in the model's rounded weights: only the
                # rounding could hide a better one, by at most the tolerance (the bound).
                below.bound = max(below.bound, upper)
                return candidate
            floor = self._floor(candidate.value)

    # --- the whole search ---------------------------------------------------------------
    def run(self) -> list[tuple[_Candidate, SolveStatus, float, float, str]]:
        """Settle ranks one by one until ``k`` are found, the profiles run out, or time does."""
        self._progress()
        while len(self.found) < self.k:
            candidate = self._frontier_candidate()
            below = _Below()
            note = ""
            try:
                for earlier, *_ in self.found:
                    candidate = self._below(earlier.profile, candidate, below)
            except KeyboardInterrupt:
                below.proven, below.interrupted = False, True
                note = STOPPED
            self.solves.extend(below.solves)
            if candidate is None:
                break  # every profile found
            previous = self.found[-1][0].value if self.found else candidate.value
            if below.proven:  # exactly, or up to the rounding of a mixture's weights
                # Nothing unfound beats the previous result: a tie with it is exact.
                bound = max(candidate.value, min(previous, below.bound))
                status = SolveStatus.OPTIMAL
            else:
                status = SolveStatus.FEASIBLE
                bound = max(candidate.value, min(previous, below.bound))
                if below.interrupted:
                    bound = max(candidate.value, previous)
                note = note or TIME_LIMIT_REACHED
            seconds = time.perf_counter() - self.started
            self.found.append((candidate, status, bound, seconds, note))
            self.seen.add(candidate.profile)
            self._progress()
            if status is SolveStatus.FEASIBLE:
                break  # out of time, or stopped: the next ranks are not searched
        return self.found


def frontier_top_responses(
    holding: Iterable[int],
    opponent: Opponent,
    objective: Objective = Objective.MARGIN,
    *,
    k: int = 1,
    time_limit: float | None = None,
    workers: int = 2,
    fixed: Mapping[int, Iterable[int]] | None = None,
    samples: int = DEFAULT_SAMPLES,
    estimate_samples: int = DEFAULT_EVAL_SAMPLES,
    rng: np.random.Generator | None = None,
    on_progress: Callable[[TopProgress], None] | None = None,
) -> list[BestResponse]:
    """The ``k`` best arrangements with distinct strength profiles, best first.

    Parameters are those of :func:`~solver.response.best_response.top_responses`;
    ``time_limit`` bounds the CP-SAT searches (the frontier is always
    valued whole), and ``on_progress`` sees a :class:`TopProgress` after
    every model solved and every result settled.  A result the limit or a
    Ctrl-C cut short is :attr:`~SolveStatus.FEASIBLE` with its bound, and
    the search stops there (fewer than ``k`` results).

    >>> from solver.game.cards import parse_cards
    >>> from solver.game.rules import Rules
    >>> rules = Rules(position_points=(6, 7))
    >>> mine = parse_cards("As Ks Qs Js Ts 7c 7d 7h 7s 8c")
    >>> opp = Opponent.random(mine, rules)
    >>> [round(r.value, 4) for r in frontier_top_responses(mine, opp, Objective.POINTS, k=2)]
    [12.8056, 12.7817]
    >>> frontier_top_responses(mine, opp, k=2, workers=0)
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: workers must be at least 1, got 0
    """
    time_limit = checked_search_arguments(k, time_limit, workers)
    started = time.perf_counter()
    rules = check_instance(opponent, Opponent, "opponent").rules
    objective = objective_of(objective)
    split = split_fixed(holding, fixed, rules)
    used = prepare_opponent(opponent, objective, samples, rng, estimate_samples)
    front, full, profile_index, order = frontier_strategies(split, rules)
    values = strategy_values(full, used, objective)

    def arrangement_of(index: int) -> Arrangement:
        free_packets: tuple[tuple[int, ...], ...] = ()
        if front is not None:
            free_packets = front.arrangement(int(profile_index[index]), order[index]).packets
        return split.arrangement(free_packets, rules)

    problem = problem_of(holding, used, objective, fixed)
    search = _TopSearch(
        problem, (full, values, arrangement_of), k, time_limit, workers, on_progress, started
    )
    found = search.run()
    models = (used, opponent, objective)
    return _responses(found, models, int(full.shape[0]), search.solves, estimate_samples, rng)


def _responses(
    found: list[tuple[_Candidate, SolveStatus, float, float, str]],
    models: tuple[Opponent, Opponent, Objective],
    strategies: int,
    solves: list[ModelSolve],
    estimate_samples: int,
    rng: np.random.Generator | None,
) -> list[BestResponse]:
    """The search's results as best responses: statistics, estimates, notes.

    ``models`` is the opponent optimized against, the opponent asked about and the objective.
    """
    used, opponent, objective = models
    results = []
    for candidate, status, bound, seconds, note in found:
        profile = np.array(candidate.profile, dtype=np.int64)
        estimate = None
        if used is not opponent:
            estimate = estimate_on_fresh_samples(
                profile, opponent, objective, estimate_samples, rng
            )
            note = note or f"optimized against {used.total} sampled arrangements"
        source = (
            f"best of {strategies} frontier strategies"
            if candidate.engine is Engine.FRONTIER
            else "found by CP-SAT below a better arrangement"
        )
        results.append(
            BestResponse(
                arrangement=candidate.arrangement,
                strengths=candidate.profile,
                objective=objective,
                value=candidate.value,
                bound=bound,
                status=status,
                seconds=seconds,
                engine=candidate.engine,
                positions=position_stats(profile, opponent),
                estimate=estimate,
                note=note or source,
                models=tuple(solves),
            )
        )
    return results
