"""The CP-SAT model behind :mod:`solver.response.best_response`.

Data.  The free cards become packet options (:mod:`solver.models.packets`): every
rank multiset they can form, valued as a non-flush packet, and every flush.
numpy computes each option's integer value at each free position
(:func:`solver.models.opponents.position_values`), or for the win and game
objectives the opponent's strength profiles.

Variables.  ``x[k, p] = 1`` when option ``k`` is the packet at free position
``p``; only the (option, position) pairs that survive pruning get one.  For
win and game also each packet's strength ``S[p]`` and literals
``S[p] >= v`` for the opponent strengths that matter.

Constraints (one family each).  One option per position; the options use
exactly the rank counts of the free cards; at most one flush per suit (two
flushes of one suit always share a card, a suit having at most 8 cards);
the objective reaches the floor, when one is given; no repeat of an earlier
strength profile (for the next-best arrangements).

Objective.  Points and margin: ``sum value[k, p] * x[k, p]``, exact
integers.  Win and game, against each distinct opponent profile ``j`` with
weight ``n_j``: ``margin_j = sum_p w_p * sign(S[p] - t[j, p])``, literals
``win_j => margin_j >= 1`` and (game) ``draw_or_win_j => margin_j >= 0``,
maximizing ``sum_j n_j * win_j`` (game: ``sum_j n_j * (win_j + draw_or_win_j)``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np

from solver.game.rules import Rules
from solver.models.opponents import Objective, Opponent, position_values
from solver.models.packets import PacketOptions
from solver.response import interrupt
from solver.response.results import ModelSolve

__all__ = ["ArrangementModel", "ModelOutcome", "ModelStatus", "Problem"]


@dataclass
class Problem:
    """The data of a best-response problem, after fixed packets are taken out.

    Attributes
    ----------
    rules, objective, opponent
        What is optimized, against which model (with a joint distribution
        for win and game).
    options
        The options of the free cards.
    free_positions
        0-based positions still to fill.
    fixed
        0-based position -> fixed packet.
    fixed_strengths
        0-based position -> strength of its fixed packet.
    """

    rules: Rules
    objective: Objective
    opponent: Opponent
    options: PacketOptions
    free_positions: list[int]
    fixed: dict[int, tuple[int, ...]]
    fixed_strengths: dict[int, int]

    def coefficients(self) -> tuple[np.ndarray, int, int]:
        """For separable objectives: ``(value[k, j], constant, scale)``.

        ``value[k, j]`` is option ``k`` at free position ``j``, in units of
        ``1 / scale``; ``constant`` is the fixed packets' part.
        """
        table = position_values(self.opponent, self.objective)
        values = table[np.array(self.free_positions, dtype=np.int64)][:, self.options.strength].T
        constant = sum(int(table[p, s]) for p, s in self.fixed_strengths.items())
        return values, constant, self.opponent.total

    def profiles(self) -> tuple[np.ndarray, np.ndarray]:
        """For win and game: distinct opponent profiles and their integer weights."""
        opponent = self.opponent
        assert opponent.profiles is not None and opponent.weights is not None
        unique, inverse = np.unique(opponent.profiles, axis=0, return_inverse=True)
        merged = np.zeros(unique.shape[0], dtype=np.int64)
        np.add.at(merged, inverse.reshape(-1), opponent.weights)
        return unique, merged

    @property
    def scale(self) -> int:
        """Denominator of the model's integer objective."""
        factor = 2 if self.objective is Objective.GAME_RESULT else 1
        return factor * self.opponent.total


class ModelStatus(str, Enum):
    """What CP-SAT reported about one model."""

    OPTIMAL = "optimal"  # the optimum, proved
    FEASIBLE = "feasible"  # a solution, not proved optimal (time ran out)
    INFEASIBLE = "infeasible"  # proved: the model has no solution
    UNKNOWN = "unknown"  # no solution found, nothing proved (time ran out)


@dataclass(frozen=True)
class ModelOutcome:
    """What one solve returned (integer objective units), and the model's size and time."""

    status: ModelStatus
    chosen: list[int] | None
    objective: int | None
    bound: float
    solve: ModelSolve


class ArrangementModel:
    """CP-SAT model of one problem (see the module docstring).

    Parameters
    ----------
    problem
        The data.
    keep
        ``(n_options, n_free)`` booleans: which (option, position) pairs get
        a variable; all when None.
    floor
        If given, the integer objective (without the fixed constant) must be
        at least this.
    """

    def __init__(
        self, problem: Problem, keep: np.ndarray | None = None, floor: int | None = None
    ) -> None:
        from ortools.sat.python import cp_model

        self._cp = cp_model
        self.problem = problem
        self.model = cp_model.CpModel()
        options = problem.options
        n_free = len(problem.free_positions)
        if keep is None:
            keep = np.ones((options.n_options, n_free), dtype=bool)
        self.pairs = [(int(k), int(j)) for k, j in zip(*np.nonzero(keep), strict=True)]

        # Variables: x[k, j] = option k at free position j.
        self.x = {(k, j): self.model.new_bool_var(f"x_{k}_{j}") for k, j in self.pairs}
        self.by_position: list[list[tuple[int, Any]]] = [[] for _ in range(n_free)]
        for (k, j), var in self.x.items():
            self.by_position[j].append((k, var))

        # One option per position.
        for j in range(n_free):
            self.model.add_exactly_one(var for _, var in self.by_position[j])

        # The options use exactly the rank counts of the free cards.
        for rank in range(options.counts.shape[0]):
            terms = [
                int(options.usage[k, rank]) * var
                for (k, _), var in self.x.items()
                if options.usage[k, rank]
            ]
            self.model.add(sum(terms) == int(options.counts[rank]))

        # At most one flush per suit.
        for suit in range(4):
            flushes = [var for (k, _), var in self.x.items() if options.flush_suit[k] == suit]
            if len(flushes) > 1:
                self.model.add_at_most_one(flushes)

        self.objective_expr = (
            self._separable_objective() if problem.objective.separable else self._joint_objective()
        )
        self.model.maximize(self.objective_expr)
        # The objective reaches the floor.
        if floor is not None:
            self.model.add(self.objective_expr >= int(floor))

    def _separable_objective(self) -> Any:
        values, _, _ = self.problem.coefficients()
        return sum(int(values[k, j]) * var for (k, j), var in self.x.items() if values[k, j])

    def _joint_objective(self) -> Any:
        problem = self.problem
        options = problem.options
        points = problem.rules.position_points
        profiles, weights = problem.profiles()
        at_least: list[dict[int, Any]] = []
        for j, position in enumerate(problem.free_positions):
            # Strength of the packet at this position.
            values = sorted({int(options.strength[k]) for k, _ in self.by_position[j]})
            packet_strength = self.model.new_int_var_from_domain(
                self._cp.Domain.FromValues(values), f"S_{position}"
            )
            self.model.add(
                packet_strength
                == sum(int(options.strength[k]) * var for k, var in self.by_position[j])
            )
            # Literals S >= v for each opponent strength t (v = t) and t + 1.
            literals: dict[int, Any] = {}
            for threshold in np.unique(profiles[:, position]):
                for v in (int(threshold), int(threshold) + 1):
                    if v not in literals:
                        literal = self.model.new_bool_var(f"S_{position}_ge_{v}")
                        self.model.add(packet_strength >= v).only_enforce_if(literal)
                        self.model.add(packet_strength <= v - 1).only_enforce_if(~literal)
                        literals[v] = literal
            at_least.append(literals)
        game = problem.objective is Objective.GAME_RESULT
        terms = []
        for profile, weight in zip(profiles, weights, strict=True):
            fixed_margin = sum(
                points[p] * int(np.sign(s - profile[p])) for p, s in problem.fixed_strengths.items()
            )
            # sign(S - t) = [S >= t + 1] + [S >= t] - 1.
            margin = fixed_margin + sum(
                points[position]
                * (
                    at_least[j][int(profile[position]) + 1]
                    + at_least[j][int(profile[position])]
                    - 1
                )
                for j, position in enumerate(problem.free_positions)
            )
            win = self.model.new_bool_var("win")
            self.model.add(margin >= 1).only_enforce_if(win)
            # game: (win + draw_or_win) / 2 is 1 for a win and 1/2 for a draw.
            terms.append(int(weight) * win)
            if game:
                draw_or_win = self.model.new_bool_var("draw_or_win")
                self.model.add(margin >= 0).only_enforce_if(draw_or_win)
                terms.append(int(weight) * draw_or_win)
        return sum(terms)

    def hint(self, chosen: list[int]) -> None:
        """Start the search from one option per free position (where kept)."""
        self.model.clear_hints()
        for (k, j), var in self.x.items():
            self.model.add_hint(var, chosen[j] == k)

    def exclude_profile(self, chosen: list[int]) -> None:
        """Forbid the strength profile of ``chosen``: the next solve finds another."""
        self.exclude_strengths([int(self.problem.options.strength[c]) for c in chosen])

    def exclude_strengths(self, free_strengths: list[int]) -> None:
        """Forbid the strengths ``free_strengths`` (one per free position) all at once."""
        strengths = self.problem.options.strength
        same = [var for (k, j), var in self.x.items() if strengths[k] == free_strengths[j]]
        if len(same) >= len(free_strengths):  # fewer: the profile is not in the model anyway
            self.model.add(sum(same) <= len(free_strengths) - 1)

    def raise_floor(self, floor: int) -> None:
        """The integer objective (without the fixed constant) must be at least ``floor``."""
        if isinstance(self.objective_expr, int):  # no term at all: a constant objective
            if self.objective_expr < floor:
                self.model.add_bool_or([])  # the empty clause: infeasible
            return
        self.model.add(self.objective_expr >= int(floor))

    def solve(self, time_limit: float | None, workers: int) -> ModelOutcome:
        """Solve; return the status, the chosen option per position, the bound and the solve's record."""
        cp = self._cp
        solver = cp.CpSolver()
        solver.parameters.num_workers = workers
        solver.parameters.random_seed = 0
        # Probing costs seconds on this model and its cuts do not pay back.
        solver.parameters.cp_model_probing_level = 0
        if time_limit is not None:
            solver.parameters.max_time_in_seconds = max(0.01, float(time_limit))
        started = time.perf_counter()
        status = interrupt.solve(solver, self.model)  # Ctrl-C raises KeyboardInterrupt
        unpruned = self.problem.options.n_options * len(self.problem.free_positions)
        record = ModelSolve(len(self.pairs), unpruned, time.perf_counter() - started)
        if status in (cp.OPTIMAL, cp.FEASIBLE):
            chosen = [
                next(k for k, var in self.by_position[j] if solver.boolean_value(var))
                for j in range(len(self.by_position))
            ]
            return ModelOutcome(
                status=ModelStatus.OPTIMAL if status == cp.OPTIMAL else ModelStatus.FEASIBLE,
                chosen=chosen,
                objective=round(solver.objective_value),
                bound=float(solver.best_objective_bound),
                solve=record,
            )
        name = ModelStatus.INFEASIBLE if status == cp.INFEASIBLE else ModelStatus.UNKNOWN
        return ModelOutcome(
            status=name, chosen=None, objective=None, bound=float("inf"), solve=record
        )
