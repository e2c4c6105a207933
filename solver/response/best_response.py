"""The best arrangement against an opponent model, proven optimal by CP-SAT.

Given a player's cards and an opponent model (:mod:`solver.models.opponents`), find
the five packets and their order that maximize the objective, and prove it.
The model (:mod:`solver.response.cpsat_model`) works on packet options, rank
multisets and flushes, not on five-card subsets: a few thousand booleans
where a direct model has 265,650 and does not prove optimality in a minute.

For points and margin, the search starts on a much smaller model: against
most opponents nearly every position is won by the best packets, so an
option that loses more than a small slack at its position, against the
best option there, cannot be part of any arrangement worth more than
``sum of the best values - slack``.  The model without those options and
with that floor on the objective proves the optimum in a fraction of a
second; when its optimum does not reach the floor the slack grows (see
:func:`solver.response.cpsat_search.search`).  The greedy arrangement is the first hint.

Every reported value is an exact rescoring of the returned arrangement; the
bound comes from CP-SAT (widened by the rounding of a mixture's
probabilities to integer weights, when there is one).

>>> from solver.game.deal import deal
>>> from solver.models.opponents import Objective, Opponent
>>> d = deal(seed=5)
>>> result = best_response(d.holdings[0], Opponent.random(d.holdings[1]), Objective.MARGIN)
>>> result.status.value, result.gap < 1e-9
('optimal', True)
>>> best_response(d.holdings[0], Opponent.random(d.holdings[1]), fixed={6: (0, 1, 2, 3, 4)})
Traceback (most recent call last):
    ...
solver.errors.SolverError: fixed: position 6 is not between 1 and 5
"""

from __future__ import annotations

import numbers
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from solver.errors import CardError, SolverError
from solver.game.arrangement import Arrangement, points_against
from solver.game.cards import HAND_SIZE, card_ids, format_cards
from solver.game.evaluator import strength
from solver.game.rules import Rules
from solver.models.heuristics import random_profiles
from solver.models.opponents import (
    Objective,
    Opponent,
    expected_value,
    game_outcome,
    position_stats,
)
from solver.models.packets import check_holding, packet_options, realize
from solver.response.results import BestResponse, Engine, Estimate, ModelSolve, SolveStatus
from solver.util.checks import check_choice, check_instance, check_int
from solver.util.time_limit import check_time_limit

if TYPE_CHECKING:  # the CP-SAT model is imported when a search runs (start-up, issue #25)
    from solver.response.cpsat_model import Problem

__all__ = [
    "MAX_ESTIMATE_SAMPLES",
    "MAX_K",
    "MAX_SAMPLES",
    "MAX_WORKERS",
    "BestResponse",
    "Estimate",
    "FixedSplit",
    "SolveStatus",
    "best_response",
    "estimate_on_fresh_samples",
    "parse_fixed",
    "prepare_opponent",
    "split_fixed",
    "top_responses",
]

DEFAULT_SAMPLES = 200
DEFAULT_EVAL_SAMPLES = 20_000
# The library's bounds (the command line's are tighter, solver.app.limits): past them a
# model or a sample would take gigabytes, a search hours.
MAX_SAMPLES = 100_000  # each sampled arrangement is a scenario of the CP-SAT model
MAX_ESTIMATE_SAMPLES = 10_000_000  # 400 MB of sampled profiles
MAX_K = 1_000  # each one more CP-SAT solve
MAX_WORKERS = 256  # CP-SAT search threads


def parse_fixed(
    holding: tuple[int, ...], fixed: Mapping[int, Iterable[int]] | None, rules: Rules
) -> dict[int, tuple[int, ...]]:
    """Validate fixed packets: 1-based positions, five held cards each, no overlap."""
    result: dict[int, tuple[int, ...]] = {}
    used: set[int] = set()
    held = set(holding)
    if fixed is not None and not isinstance(fixed, Mapping):
        raise TypeError(f"fixed must be a mapping of positions to cards, got {fixed!r}")
    for position, cards in (fixed or {}).items():
        if isinstance(position, bool) or not isinstance(position, numbers.Integral):
            raise TypeError(f"fixed: position {position!r} is not an integer")
        if not 1 <= int(position) <= rules.n_packets:
            raise SolverError(
                f"fixed: position {position} is not between 1 and {rules.n_packets}",
                argument="fixed",
            )
        try:
            packet = card_ids(cards, who=f"fixed: position {position}")
        except CardError as error:
            raise SolverError(str(error), argument="fixed") from None
        if len(packet) != HAND_SIZE or len(set(packet)) != HAND_SIZE:
            raise SolverError(
                f"fixed: position {position} needs five distinct cards", argument="fixed"
            )
        outside = [c for c in packet if c not in held]
        if outside:
            raise SolverError(
                f"fixed: {format_cards(outside)} at position {position} not in the holding",
                argument="fixed",
            )
        twice = used & set(packet)
        if twice:
            raise SolverError(
                f"fixed: {format_cards(sorted(twice))} fixed in two packets", argument="fixed"
            )
        used.update(packet)
        result[int(position) - 1] = packet
    return result


@dataclass(frozen=True)
class FixedSplit:
    """A holding split into fixed packets and the free cards of the other positions.

    Attributes
    ----------
    fixed
        ``{position (0-based): packet}``, checked by :func:`parse_fixed`.
    free_cards
        The holding's cards in no fixed packet.
    free_positions
        The positions without a fixed packet, in order.
    """

    fixed: dict[int, tuple[int, ...]]
    free_cards: tuple[int, ...]
    free_positions: list[int]

    def fixed_strengths(self, rules: Rules) -> dict[int, int]:
        """The strength of each fixed packet, by position."""
        return {p: int(strength(np.array(packet), rules)) for p, packet in self.fixed.items()}

    def arrangement(self, free_packets: Iterable[Iterable[int]], rules: Rules) -> Arrangement:
        """The arrangement with ``free_packets`` at the free positions, in order."""
        rows: list[tuple[int, ...]] = [() for _ in range(rules.n_packets)]
        for position, packet in zip(self.free_positions, free_packets, strict=True):
            rows[position] = tuple(int(c) for c in packet)
        for position, packet in self.fixed.items():
            rows[position] = packet
        return Arrangement(tuple(rows))


def split_fixed(
    holding: Iterable[int], fixed: Mapping[int, Iterable[int]] | None, rules: Rules
) -> FixedSplit:
    """Check ``holding`` and the ``fixed`` packets (1-based positions), and split.

    >>> split = split_fixed(range(25), {5: range(20, 25)}, Rules())
    >>> split.free_positions, len(split.free_cards)
    ([0, 1, 2, 3], 20)
    >>> split_fixed(range(25), {1: (0, 1)}, Rules())
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: fixed: position 1 needs five distinct cards
    """
    cards = check_holding(holding, rules, who="your holding")
    fixed_packets = parse_fixed(cards, fixed, rules)
    fixed_cards = {c for packet in fixed_packets.values() for c in packet}
    return FixedSplit(
        fixed=fixed_packets,
        free_cards=tuple(c for c in cards if c not in fixed_cards),
        free_positions=[p for p in range(rules.n_packets) if p not in fixed_packets],
    )


def problem_of(
    holding: Iterable[int],
    opponent: Opponent,
    objective: Objective,
    fixed: Mapping[int, Iterable[int]] | None,
) -> Problem:
    """The CP-SAT problem of ``holding`` against ``opponent`` (checked by :func:`split_fixed`).

    >>> problem_of(range(25), Opponent.random(range(7, 32)), Objective.MARGIN, None).free_positions
    [0, 1, 2, 3, 4]
    >>> problem_of(range(24), Opponent.random(range(7, 32)), Objective.MARGIN, None)
    Traceback (most recent call last):
        ...
    solver.errors.CardError: your holding: expected 25 cards, got 24
    """
    rules = opponent.rules
    split = split_fixed(holding, fixed, rules)
    from solver.response.cpsat_model import Problem  # a search is about to run

    return Problem(
        rules=rules,
        objective=objective,
        opponent=opponent,
        options=packet_options(split.free_cards, rules),
        free_positions=split.free_positions,
        fixed=split.fixed,
        fixed_strengths=split.fixed_strengths(rules),
    )


def assemble(problem: Problem, chosen: list[int]) -> Arrangement:
    """The arrangement of ``problem``'s fixed packets and the options ``chosen`` (one per
    free position, realized as concrete packets)."""
    packets = realize(problem.options, chosen) if problem.free_positions else np.zeros((0, 5))
    split = FixedSplit(problem.fixed, (), problem.free_positions)
    return split.arrangement(packets, problem.rules)


def objective_of(objective: Objective | str) -> Objective:
    """``objective`` as an :class:`Objective`; a :class:`SolverError` naming it otherwise.

    >>> objective_of("win").name
    'WIN_PROBABILITY'
    >>> objective_of("glory")
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: objective 'glory' is not one of: points, margin, win, game
    """
    return check_choice(objective, Objective, "objective", SolverError)


def prepare_opponent(
    opponent: Opponent,
    objective: Objective,
    samples: int,
    rng: np.random.Generator | None,
    estimate_samples: int = DEFAULT_EVAL_SAMPLES,
) -> Opponent:
    """The model to optimize against: for win or game against a random
    opponent, ``samples`` of its arrangements (drawn by ``rng``, default
    seeded); otherwise ``opponent`` itself.

    Every best response passes here, so the arguments common to them all are
    checked here: ``opponent`` an :class:`Opponent`, ``samples`` an integer
    from 1 to :data:`MAX_SAMPLES`, ``estimate_samples`` one from 1 to
    :data:`MAX_ESTIMATE_SAMPLES`, ``rng`` a numpy Generator or None.

    >>> prepare_opponent("random", Objective.MARGIN, 10, None)
    Traceback (most recent call last):
        ...
    TypeError: opponent must be an Opponent, got 'random'
    """
    check_instance(opponent, Opponent, "opponent")
    check_int(samples, "samples", low=1, high=MAX_SAMPLES)
    check_int(estimate_samples, "estimate_samples", low=1, high=MAX_ESTIMATE_SAMPLES)
    if rng is not None:
        check_instance(rng, np.random.Generator, "rng")
    if objective.separable or opponent.has_joint:
        return opponent
    return opponent.sampled(samples, rng if rng is not None else np.random.default_rng(0))


def estimate_on_fresh_samples(
    profile: np.ndarray,
    opponent: Opponent,
    objective: Objective,
    n_samples: int,
    rng: np.random.Generator | None,
) -> Estimate:
    generator = rng if rng is not None else np.random.default_rng(1)
    theirs = random_profiles(opponent.holding, n_samples, generator, opponent.rules)
    mine, other = points_against(profile, theirs, opponent.rules)
    outcome = game_outcome(mine - other, objective)
    return Estimate(
        mean=float(outcome.mean()),
        stderr=float(outcome.std(ddof=1) / np.sqrt(n_samples)) if n_samples > 1 else float("nan"),
        n_samples=n_samples,
    )


def _result(
    problem: Problem,
    solves: tuple[ModelSolve, ...],
    chosen: list[int],
    status: SolveStatus,
    bound: float,
    seconds: float,
    original: Opponent,
    estimate_samples: int,
    rng: np.random.Generator | None,
) -> BestResponse:
    """Rescore ``chosen`` exactly and package it with ``solves``; ``bound`` in objective units."""
    arrangement = assemble(problem, chosen)
    profile = arrangement.strengths(problem.rules)
    value = float(expected_value(profile, problem.opponent, problem.objective))
    # Mixture probabilities were rounded to integer weights: widen the bound.
    bound += problem.opponent.rounding_error * problem.objective.span(problem.rules)
    note = ""
    if problem.opponent.rounding_error > 0:
        note = "the bound allows for the mixture's probabilities rounded to 1e-6"
    estimate = None
    if not problem.objective.separable and not original.has_joint:
        estimate = estimate_on_fresh_samples(
            profile, original, problem.objective, estimate_samples, rng
        )
        note = f"optimized against {problem.opponent.total} sampled arrangements"
    if not problem.free_positions:
        note = "every packet was fixed"
    return BestResponse(
        arrangement=arrangement,
        strengths=tuple(int(s) for s in profile),
        objective=problem.objective,
        value=value,
        bound=max(bound, value),
        status=status,
        seconds=seconds,
        engine=Engine.CPSAT,
        positions=position_stats(profile, original),
        estimate=estimate,
        note=note,
        models=solves,
    )


def checked_search_arguments(k: int, time_limit: float | None, workers: int) -> float | None:
    """The checked ``time_limit``; a :class:`SolverError` for ``k`` or ``workers`` below 1
    (a :class:`TypeError` when they are not integers)."""
    check_int(k, "k")
    if k < 1:
        raise SolverError(f"k must be at least 1, got {k}", argument="k")
    check_int(k, "k", high=MAX_K)
    time_limit = check_time_limit(time_limit)
    check_int(workers, "workers")
    if workers < 1:
        raise SolverError(f"workers must be at least 1, got {workers}", argument="workers")
    check_int(workers, "workers", high=MAX_WORKERS)
    return time_limit


def top_responses(
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
) -> list[BestResponse]:
    """The ``k`` best arrangements with distinct strength profiles, best first.

    Parameters are those of :func:`best_response`; ``k`` is how many (1 to :data:`MAX_K`).  Each
    result after the first is optimal among arrangements whose strength
    profile differs from every earlier one.  Fewer than ``k`` are returned
    when the holding has fewer distinct profiles.

    >>> from solver.game.cards import parse_cards
    >>> from solver.models.opponents import Opponent
    >>> rules = Rules(position_points=(6, 7))
    >>> mine = parse_cards("As Ks Qs Js Ts 7c 7d 7h 7s 8c")
    >>> opp = Opponent.random(mine, rules)
    >>> [round(r.value, 4) for r in top_responses(mine, opp, Objective.POINTS, k=2)]
    [12.8056, 12.7817]
    >>> top_responses(mine, opp, k=0)
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: k must be at least 1, got 0
    """
    time_limit = checked_search_arguments(k, time_limit, workers)
    started = time.perf_counter()
    objective = objective_of(objective)
    used = prepare_opponent(opponent, objective, samples, rng, estimate_samples)
    problem = problem_of(holding, used, objective, fixed)
    from solver.response.cpsat_search import search  # CP-SAT: not for the frontier engine

    searched = search(problem, k, time_limit, workers)
    if not searched.found:
        raise SolverError("no arrangement satisfies the fixed packets")
    constant = problem.coefficients()[1] if objective.separable else 0
    return [
        _result(
            problem,
            searched.solves,
            item.chosen,
            item.status,
            (item.bound + constant) / problem.scale,
            time.perf_counter() - started,
            opponent,
            estimate_samples,
            rng,
        )
        for item in searched.found
    ]


def best_response(
    holding: Iterable[int],
    opponent: Opponent,
    objective: Objective = Objective.MARGIN,
    *,
    time_limit: float | None = None,
    workers: int = 2,
    fixed: Mapping[int, Iterable[int]] | None = None,
    samples: int = DEFAULT_SAMPLES,
    estimate_samples: int = DEFAULT_EVAL_SAMPLES,
    rng: np.random.Generator | None = None,
) -> BestResponse:
    """The arrangement of ``holding`` that maximizes ``objective`` against ``opponent``.

    Parameters
    ----------
    holding
        The player's cards.
    opponent
        The opponent model (:class:`~solver.models.opponents.Opponent`); its rules apply.
    objective
        Points, margin, win or game.
    time_limit
        Seconds; on expiry the best arrangement found is returned with its gap.
    workers
        CP-SAT search workers, 1 to :data:`MAX_WORKERS`.
    fixed
        Packets already decided: ``{position (1-based): cards}``.
    samples
        For win or game against a random opponent: how many of its
        arrangements to sample and optimize against (1 to :data:`MAX_SAMPLES`).
    estimate_samples
        How many fresh samples estimate the result's value in that case (1 to
        :data:`MAX_ESTIMATE_SAMPLES`).
    rng
        Generator for the samples (default: seeded, so reproducible).

    Returns
    -------
    BestResponse

    Raises
    ------
    SolverError
        On an invalid or infeasible ``fixed``, a non-positive time limit, or
        no arrangement found in time.
    """
    return top_responses(
        holding,
        opponent,
        objective,
        k=1,
        time_limit=time_limit,
        workers=workers,
        fixed=fixed,
        samples=samples,
        estimate_samples=estimate_samples,
        rng=rng,
    )[0]
