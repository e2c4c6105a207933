"""How the CP-SAT models of :mod:`solver.response.cpsat_model` are searched.

* Points and margin (:func:`search`): models pruned to the options that can
  matter near the optimum, widened until the optimum is certified.
* One known opponent arrangement (:func:`search_known`): a decomposition by
  win/tie/loss patterns, most valuable first.
* Win and game (:func:`search_full`): the full model.

Each returns a :class:`Searched`: the :class:`Found` solutions (one option
per free position, what was proved, and the bound in the model's integer
units) and the record of every model it solved, in order.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from itertools import product

import numpy as np

from solver.models.heuristics import greedy_arrangement
from solver.models.opponents import Objective
from solver.models.packets import PacketOptions, realize
from solver.response.cpsat_model import ArrangementModel, ModelOutcome, ModelStatus, Problem
from solver.response.results import ModelSolve, SolveStatus

__all__ = [
    "Found",
    "Searched",
    "greedy_choice",
    "option_of_packet",
    "realized_choice",
    "search",
    "search_full",
    "search_known",
]


def option_of_packet(options: PacketOptions, packet: np.ndarray) -> int:
    """The option index a concrete packet corresponds to."""
    packet = np.sort(packet)
    flush = np.flatnonzero((np.sort(options.flush_cards, axis=1) == packet).all(axis=1))
    if flush.shape[0]:
        return int(flush[0])
    usage = np.bincount(packet >> 2, minlength=8)
    match = np.flatnonzero((options.usage == usage).all(axis=1) & (options.flush_suit < 0))
    return int(match[0])


def realized_choice(problem: Problem, chosen: list[int]) -> list[int]:
    """The options of the packets :func:`~solver.models.packets.realize` builds for ``chosen``.

    They differ from ``chosen`` only when the cards force a multiset packet
    to be a flush (stronger than the model assumed).
    """
    if not chosen:
        return []
    packets = realize(problem.options, chosen)
    return [option_of_packet(problem.options, packet) for packet in packets]


def greedy_choice(problem: Problem) -> list[int]:
    """Greedy packets of the free cards, weakest at the first free position."""
    free_rules = problem.rules.with_points((1,) * len(problem.free_positions))
    greedy = greedy_arrangement(problem.options.holding, free_rules)
    return [option_of_packet(problem.options, np.array(packet)) for packet in greedy.packets]


@dataclass(frozen=True)
class Found:
    """One solution of a search, in the model's integer units."""

    chosen: list[int]
    status: SolveStatus
    bound: float  # integer units, without the fixed constant
    real: list[int] = field(default_factory=list)  # options of the realized packets

    def __post_init__(self) -> None:
        if not self.real:
            self.real.extend(self.chosen)


@dataclass(frozen=True)
class Searched:
    """What a search returns: its solutions, best first, and each model it solved, in order."""

    found: list[Found]
    solves: tuple[ModelSolve, ...] = ()


# The first pruned model's slack: 1/500 of the points at stake (0.05 of the
# default 25 points, in the model's units).  Against most opponents the
# optimum is that close to the sum of the best values at each position, and
# so small a slack keeps few options; when it is not, the slack widens.
_FIRST_SLACK_DIVISOR = 500
_WIDEN = 4  # a pruned model with no arrangement at all widens the slack this much


def search(problem: Problem, k: int, time_limit: float | None, workers: int) -> Searched:
    """The ``k`` best distinct profiles, by CP-SAT on models pruned to what can matter.

    For points and margin, an option whose loss at a position (against the
    best option there) exceeds ``slack`` can only appear in arrangements
    worth less than ``floor = ceiling - slack``, where ``ceiling`` is the sum
    of the best values.  The model restricted to the other options holds
    every arrangement worth ``floor`` or more, so an optimum of it at or above
    the floor is the global optimum.  An optimum below the floor is a real
    arrangement: with the slack widened to ``ceiling - its value`` the next
    model holds everything at least as good, and its optimum is global.  A
    restricted model with no arrangement at all widens the slack fourfold.
    The greedy arrangement is the first incumbent and hint.
    """
    if not problem.free_positions:
        return Searched([Found([], SolveStatus.OPTIMAL, 0.0)])
    single_profile = problem.opponent.has_joint and problem.profiles()[0].shape[0] == 1
    if problem.objective.separable and single_profile and k == 1:
        known = search_known(problem, time_limit, workers)
        if known.found:
            return known
        values, _, _ = problem.coefficients()
        greedy = Found(
            greedy_choice(problem), SolveStatus.FEASIBLE, float(values.max(axis=0).sum())
        )
        return Searched([greedy], known.solves)
    if not problem.objective.separable:
        return search_full(problem, k, time_limit, workers)
    return _PrunedSearch(problem, k, time_limit, workers).run()


class _PrunedSearch:
    """The state of :func:`search` on pruned models (points and margin)."""

    def __init__(self, problem: Problem, k: int, time_limit: float | None, workers: int) -> None:
        self.problem, self.k, self.workers = problem, k, workers
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        values, _, _ = problem.coefficients()
        self.loss = values.max(axis=0)[None, :] - values
        self.ceiling = int(values.max(axis=0).sum())
        self.incumbent = greedy_choice(problem)
        self.lower = int(sum(values[c, j] for j, c in enumerate(self.incumbent)))
        points = problem.scale * problem.rules.total_points
        self.slack = max(1, points // _FIRST_SLACK_DIVISOR)
        self.found: list[Found] = []
        self.solves: list[ModelSolve] = []

    def _profile(self, chosen: list[int]) -> tuple[int, ...]:
        return tuple(int(self.problem.options.strength[c]) for c in chosen)

    def _fallback(self) -> list[Found]:
        return self.found or [Found(self.incumbent, SolveStatus.FEASIBLE, float(self.ceiling))]

    def _remaining(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.perf_counter()

    def run(self) -> Searched:
        """Solve pruned models, widening the slack until ``k`` profiles are certified."""
        return Searched(self._run(), tuple(self.solves))

    def _run(self) -> list[Found]:
        while len(self.found) < self.k:
            self.slack = min(self.slack, self.ceiling - self.lower)
            done = self._search_model()
            if done is not None:
                return done
            if self.deadline is not None and time.perf_counter() >= self.deadline:
                return self._fallback()
        return self.found

    def _solve(self, model: ArrangementModel) -> ModelOutcome:
        outcome = model.solve(self._remaining(), self.workers)
        self.solves.append(outcome.solve)
        return outcome

    def _model(self) -> ArrangementModel:
        """The model of the options within the slack, without the profiles found."""
        keep = self.loss <= self.slack
        model = ArrangementModel(self.problem, keep=keep)
        for earlier in self.found:
            model.exclude_profile(earlier.chosen)
        if all(keep[c, j] for j, c in enumerate(self.incumbent)):
            model.hint(self.incumbent)
        return model

    def _search_model(self) -> list[Found] | None:
        """Certify profiles on one pruned model: the final answer, or None to widen."""
        floor = self.ceiling - self.slack
        model = self._model()
        while len(self.found) < self.k:
            outcome = self._solve(model)
            if outcome.chosen is None:
                if (
                    outcome.status is ModelStatus.INFEASIBLE
                    and self.slack < self.ceiling - self.lower
                ):
                    self.slack = max(1, _WIDEN * self.slack)  # nothing this good: look further
                    return None
                return self._fallback()
            assert outcome.objective is not None
            certified = outcome.objective >= floor or self.slack >= self.ceiling - self.lower
            if outcome.status is ModelStatus.OPTIMAL and certified:
                self._accept(model, outcome.chosen, outcome.objective)
                continue
            if outcome.status is ModelStatus.OPTIMAL:
                # A real arrangement below the floor: everything better lies
                # within slack = ceiling - its value.
                self.incumbent, self.lower = outcome.chosen, int(outcome.objective)
                self.slack = self.ceiling - self.lower
                return None
            # Out of time: outside this model everything is worth < floor.
            bound = min(float(self.ceiling), max(outcome.bound, float(floor - 1)))
            self.found.append(Found(outcome.chosen, SolveStatus.FEASIBLE, bound))
            return self.found
        return self.found

    def _accept(self, model: ArrangementModel, chosen: list[int], objective: int) -> None:
        """Record a certified optimum and exclude its profile from the model."""
        real = realized_choice(self.problem, chosen)
        model.exclude_profile(chosen)
        model.exclude_profile(real)
        if self._profile(real) not in {self._profile(f.real) for f in self.found}:
            self.found.append(Found(chosen, SolveStatus.OPTIMAL, float(objective), real))
        if self._profile(self.incumbent) in (self._profile(chosen), self._profile(real)):
            # The incumbent is excluded now: it no longer bounds the next best.
            self.lower = self.ceiling - int(self.loss.max(axis=0).sum())


def search_full(problem: Problem, k: int, time_limit: float | None, workers: int) -> Searched:
    """The ``k`` best distinct profiles on the full model (win and game objectives)."""
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    greedy = greedy_choice(problem)
    model = ArrangementModel(problem)
    model.hint(greedy)
    found: list[Found] = []
    solves: list[ModelSolve] = []
    while len(found) < k:
        remaining = None if deadline is None else deadline - time.perf_counter()
        outcome = model.solve(remaining, workers)
        solves.append(outcome.solve)
        if outcome.chosen is None:
            if not found and outcome.status is not ModelStatus.INFEASIBLE:
                return Searched([Found(greedy, SolveStatus.FEASIBLE, outcome.bound)], tuple(solves))
            break
        status = (
            SolveStatus.OPTIMAL if outcome.status is ModelStatus.OPTIMAL else SolveStatus.FEASIBLE
        )
        real = realized_choice(problem, outcome.chosen)
        seen = {tuple(problem.options.strength[f.real]) for f in found}
        if tuple(problem.options.strength[real]) not in seen:
            found.append(Found(outcome.chosen, status, outcome.bound, real))
        if status is SolveStatus.FEASIBLE:
            break
        model.exclude_profile(outcome.chosen)
        model.exclude_profile(real)
    return Searched(found, tuple(solves))


def search_known(problem: Problem, time_limit: float | None, workers: int) -> Searched:
    """The best arrangement against one known profile, by outcome patterns.

    Against a known arrangement each position is won, tied or lost, so the
    value depends only on the pattern of outcomes (``3**n`` of them).  Relax
    each pattern to lower bounds on strength (win: above the opponent's
    packet, tie: at least equal, loss: anything) and try them from the most
    valuable down: the first one some arrangement satisfies is optimal, since
    every more valuable pattern was proven impossible.  Feasibility is
    monotone, so a pattern that demands at least as much as an impossible
    one is skipped unsolved.  Each check is a small CP-SAT model with only
    the options that meet the bounds.  No solution (time ran out) is an
    empty :attr:`Searched.found`.
    """
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    options, rules = problem.options, problem.rules
    if not problem.free_positions:
        return Searched([Found([], SolveStatus.OPTIMAL, 0.0)])
    profiles, _ = problem.profiles()
    target = profiles[0, problem.free_positions]
    points = np.array([rules.position_points[p] for p in problem.free_positions])
    loss_value = -1 if problem.objective is Objective.MARGIN else 0  # points lost count for margin
    n_free = len(problem.free_positions)
    # Level 2 = win, 1 = tie or better, 0 = anything.
    patterns = np.array(list(product((2, 1, 0), repeat=n_free)), dtype=np.int64).reshape(-1, n_free)
    worth = ((patterns == 2).astype(np.int64) + loss_value * (patterns == 0)) @ points
    order = np.argsort(-worth, kind="stable")
    impossible: list[np.ndarray] = []
    solves: list[ModelSolve] = []
    above = options.strength[:, None] > target[None, :]
    at_least = options.strength[:, None] >= target[None, :]
    for index in order:
        pattern = patterns[index]
        if any((pattern >= bad).all() for bad in impossible):
            continue
        keep = np.where(pattern == 2, above, np.where(pattern == 1, at_least, True))
        if not keep.any(axis=0).all():
            impossible.append(pattern)
            continue
        remaining = None if deadline is None else deadline - time.perf_counter()
        if remaining is not None and remaining <= 0:
            break
        outcome = ArrangementModel(problem, keep=keep).solve(remaining, workers)
        solves.append(outcome.solve)
        if outcome.chosen is not None:
            total = problem.opponent.total
            found = Found(outcome.chosen, SolveStatus.OPTIMAL, float(worth[index] * total))
            return Searched([found], tuple(solves))
        if outcome.status is ModelStatus.INFEASIBLE:
            impossible.append(pattern)
        else:
            break  # out of time
    return Searched([], tuple(solves))
