"""Best responses over the strategy frontier: a numpy gather, exact.

Every arrangement that can be optimal against some opponent is, up to
equal packet strengths, one of the frontier's strategies
(:mod:`solver.response.frontier`).  So the best response to any opponent model is the
best of those strategies, evaluated all at once:

* points and margin: ``value[i] = sum_p table[p, S[i, p]]`` (one gather);
* win and game: the margin of every strategy against every opponent
  profile, in chunks, weighted by the profiles' probabilities.

The result is proven optimal by exhaustion; its bound equals its value.

>>> from solver.game.deal import deal
>>> from solver.models.opponents import Objective, Opponent
>>> d = deal(seed=5)
>>> r = frontier_best_response(d.holdings[0], Opponent.random(d.holdings[1]), Objective.MARGIN)
>>> r.engine.value, r.status.value, r.gap
('frontier', 'optimal', 0.0)
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping

import numpy as np

from solver.game.arrangement import points_against
from solver.game.rules import Rules
from solver.models.opponents import (
    Objective,
    Opponent,
    expected_value,
    game_outcome,
    position_stats,
    position_value_table,
)
from solver.response.best_response import (
    DEFAULT_EVAL_SAMPLES,
    DEFAULT_SAMPLES,
    FixedSplit,
    estimate_on_fresh_samples,
    objective_of,
    prepare_opponent,
    split_fixed,
)
from solver.response.frontier import Frontier, cached_frontier
from solver.response.results import BestResponse, Engine, SolveStatus
from solver.util.checks import check_instance

__all__ = ["frontier_best_response", "strategy_values"]

_CHUNK = 1 << 22  # strategy-profile comparisons per chunk


def strategy_values(strengths: np.ndarray, opponent: Opponent, objective: Objective) -> np.ndarray:
    """Exact value of every strategy (rows of position strengths) against ``opponent``.

    >>> opp = Opponent.random(range(25))
    >>> strategy_values(np.array([[0, 0, 0, 0, 839]]), opp, Objective.POINTS).round(3).tolist()
    [7.0]
    """
    strengths = np.asarray(strengths, dtype=np.int64)
    if objective.separable:
        table = position_value_table(opponent, objective)
        positions = np.arange(strengths.shape[1])
        return table[positions, strengths].sum(axis=1)
    if opponent.profiles is None or opponent.probabilities is None:
        return expected_value(strengths, opponent, objective)  # raises the clear error
    rows_per_chunk = max(1, _CHUNK // max(1, opponent.profiles.shape[0]))
    values = np.empty(strengths.shape[0])
    for start in range(0, strengths.shape[0], rows_per_chunk):
        block = strengths[start : start + rows_per_chunk]
        mine, theirs = points_against(block[:, None, :], opponent.profiles[None], opponent.rules)
        outcome = game_outcome(mine - theirs, objective)
        values[start : start + rows_per_chunk] = outcome @ opponent.probabilities
    return values


def frontier_strategies(
    split: FixedSplit, rules: Rules
) -> tuple[Frontier | None, np.ndarray, np.ndarray, np.ndarray]:
    """The frontier of the free cards, and its strategies' strengths at every position.

    Returns the frontier (None if every packet is fixed), the strengths
    ``(n_strategies, n_packets)`` with the fixed packets' strengths in
    place, and each strategy's profile index and order.
    """
    if not split.free_positions:
        empty = np.zeros((1, 0), dtype=np.int64)
        front, free_strengths, profile_index, order = None, empty, np.zeros(1, np.int64), empty
    else:
        free_rules = rules.with_points(
            tuple(rules.position_points[p] for p in split.free_positions)
        )
        front = cached_frontier(split.free_cards, free_rules)
        free_strengths, profile_index, order = front.strategies()
    full = np.zeros((free_strengths.shape[0], rules.n_packets), dtype=np.int64)
    full[:, split.free_positions] = free_strengths
    for position, packet_strength in split.fixed_strengths(rules).items():
        full[:, position] = packet_strength
    return front, full, profile_index, order


def frontier_best_response(
    holding: Iterable[int],
    opponent: Opponent,
    objective: Objective = Objective.MARGIN,
    *,
    fixed: Mapping[int, Iterable[int]] | None = None,
    samples: int = DEFAULT_SAMPLES,
    estimate_samples: int = DEFAULT_EVAL_SAMPLES,
    rng: np.random.Generator | None = None,
) -> BestResponse:
    """The best arrangement of ``holding`` against ``opponent``, over the frontier.

    Parameters are those of :func:`solver.response.best_response.best_response`
    (there is no time limit: the search is exhaustive and takes milliseconds
    once the frontier is known).

    >>> from solver.models.opponents import Opponent
    >>> frontier_best_response(range(25), Opponent.random(range(25)), fixed={1: (0, 1)})
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: fixed: position 1 needs five distinct cards
    """
    started = time.perf_counter()
    rules = check_instance(opponent, Opponent, "opponent").rules
    objective = objective_of(objective)
    split = split_fixed(holding, fixed, rules)
    used = prepare_opponent(opponent, objective, samples, rng, estimate_samples)
    front, full, profile_index, order = frontier_strategies(split, rules)
    values = strategy_values(full, used, objective)
    best = int(np.argmax(values))
    free_packets: tuple[tuple[int, ...], ...] = ()
    if front is not None:
        free_packets = front.arrangement(int(profile_index[best]), order[best]).packets
    arrangement = split.arrangement(free_packets, rules)
    profile = arrangement.strengths(rules)
    value = float(expected_value(profile, used, objective))
    estimate, note = None, ""
    if used is not opponent:
        estimate = estimate_on_fresh_samples(profile, opponent, objective, estimate_samples, rng)
        note = f"optimized against {used.total} sampled arrangements"
    return BestResponse(
        arrangement=arrangement,
        strengths=tuple(int(s) for s in profile),
        objective=objective,
        value=value,
        bound=max(value, float(values[best])),
        status=SolveStatus.OPTIMAL,
        seconds=time.perf_counter() - started,
        engine=Engine.FRONTIER,
        positions=position_stats(profile, opponent),
        estimate=estimate,
        note=note or f"best of {full.shape[0]} frontier strategies",
    )
