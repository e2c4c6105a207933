"""Exact equilibria of a deal by double oracle over the strategy frontiers.

Both holdings are public, so a deal is a finite two-player zero-sum game:
each player chooses an arrangement, the payoff is ``margin`` (points scored
minus conceded) or ``win`` (1 for more points, 1/2 for equal, 0 for fewer).
Only frontier strategies matter (:mod:`solver.response.frontier`): every other
arrangement is weakly dominated by one of them, so an equilibrium of the
game restricted to the frontiers is an equilibrium of the whole game, and a
best response over a frontier is a best response over all arrangements.

The game is solved by double oracle (:mod:`solver.equilibria.double_oracle`,
where the maths is) with the deal as its payoff oracle
(:mod:`solver.equilibria.frontier_game`, where the best responses are).  The
restricted games are linear programs (:mod:`solver.lp.matrix_game`:
the warm-started simplex of :mod:`solver.lp.simplex`, checked, with
GLOP to fall back on).  The certified bounds
``lower = min_b u(x, b) <= value <= max_a u(a, y) = upper`` hold for the whole
game; ``upper - lower`` is the certified gap, what either player could gain by
deviating.

In mirror mode both players hold the same cards: the game is symmetric, its
value is 0 (margin) or 1/2 (win), one strategy set and one best response per
iteration suffice, and the gap is twice the best response's gain.

>>> from solver.game.deal import deal
>>> d = deal(seed=2)
>>> result = solve(d.holdings[0], d.holdings[1], payoff="margin")
>>> result.value, result.gap <= 1e-9
(0.0, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from solver.equilibria import double_oracle
from solver.equilibria.canonical import canonical_pair
from solver.equilibria.double_oracle import DEFAULT_TOLERANCE, IterationRecord
from solver.equilibria.frontier_game import FrontierGame, Payoff, parse_payoff
from solver.equilibria.optimal_ranges import ranged_mixture
from solver.equilibria.regret_matching import WarmUp
from solver.errors import SolverError
from solver.game.rules import Rules, rules_or_default
from solver.models.mixture import Mixture
from solver.util.checks import check_solve_arguments

__all__ = [
    "DEFAULT_TOLERANCE",
    "DealDoubleOracle",
    "EquilibriumResult",
    "IterationRecord",
    "Payoff",
    "parse_payoff",
    "solve",
]


@dataclass(frozen=True)
class EquilibriumResult:
    """An equilibrium (or the best strategies found) and its certificate.

    Attributes
    ----------
    payoff, rules
        The game.
    row, column
        Player 1's and player 2's mixed strategies (concrete arrangements).
    value
        The game value: exact by symmetry in mirror mode, else the restricted
        game's value (within ``[lower, upper]``).
    lower, upper
        Certified bounds on the value: ``row`` guarantees at least ``lower``,
        ``column`` concedes at most ``upper``.
    iterations, seconds
        Work done (``seconds`` includes ``frontier_seconds``).
    frontier_sizes
        Number of frontier strategies of each player.
    history
        Every iteration's record.
    converged
        Whether the gap reached the tolerance.
    frontier_seconds
        Wall time to get both players' frontiers (cached ones come at once).
    canonical
        Whether ``row`` and ``column`` are the canonical strategies (each
        player's optimal vertex of least hashed cost over the whole game,
        :mod:`solver.equilibria.canonical`), not just an equilibrium.
    row_ranges, column_ranges
        Aligned with the strategies' arrangements: ``(low, high)``, the range
        of that probability over the optimal strategies of the final
        restricted game, for the most likely arrangements (None for the
        others; an arrangement of a symmetrized strategy: its share of the
        strategy's range); empty when not computed.
    canonical_seconds
        Wall time of the canonical selection (included in ``seconds``).
    """

    payoff: Payoff
    rules: Rules
    row: Mixture
    column: Mixture
    value: float
    lower: float
    upper: float
    iterations: int
    seconds: float
    frontier_sizes: tuple[int, int]
    history: tuple[IterationRecord, ...]
    converged: bool
    frontier_seconds: float = 0.0
    canonical: bool = False
    row_ranges: tuple[tuple[float, float] | None, ...] = ()
    column_ranges: tuple[tuple[float, float] | None, ...] = ()
    canonical_seconds: float = 0.0

    @property
    def unique(self) -> bool | None:
        """False when a probability range shows another optimal strategy; None if unknown."""
        ranges = [r for r in (*self.row_ranges, *self.column_ranges) if r is not None]
        if not ranges:
            return None
        return all(high - low <= _UNIQUE for low, high in ranges)

    @property
    def gap(self) -> float:
        """Certified gap ``upper - lower``: what a deviation can gain at most."""
        return max(0.0, self.upper - self.lower)

    @property
    def exploitability_percent(self) -> float:
        """The gap as a percentage: of the points at stake (margin) or of a game (win)."""
        scale = self.rules.total_points if self.payoff is Payoff.MARGIN else 1.0
        return 100.0 * self.gap / scale

    def transposed(self) -> EquilibriumResult:
        """The same equilibrium seen from the other seat (rows and columns exchanged).

        The value and bounds become the other player's: ``-v`` for the margin
        payoff (a zero-sum game), ``1 - v`` for the win payoff (constant sum 1).

        >>> r = solve(range(25), range(25))
        >>> t = r.transposed()
        >>> (t.row, t.value) == (r.column, -r.value), t.transposed() == r
        (True, True)
        """
        if self.payoff is Payoff.MARGIN:
            value, lower, upper = -self.value, -self.upper, -self.lower
        else:
            value, lower, upper = 1 - self.value, 1 - self.upper, 1 - self.lower
        return replace(
            self,
            row=self.column,
            column=self.row,
            value=value,
            lower=lower,
            upper=upper,
            frontier_sizes=self.frontier_sizes[::-1],
            row_ranges=self.column_ranges,
            column_ranges=self.row_ranges,
        )


# A probability range narrower than this is one point (the ranges' own tolerance).
_UNIQUE = 1e-6

# Strategies added per player and iteration, by payoff and by whether the
# game is symmetric (mirror mode: one set of strategies serves both sides).
# The win payoff's restricted games are degenerate and converge in fewer,
# larger steps; 15 or 60 win strategies instead of 30 took no less CPU on
# mirror deals 2 and 5.  Symmetric margin games took 36% less CPU with 10
# than with 5 (30 mirror deals and the two slowest of the tournament's first
# 12), independent ones 12% more.
_PER_ITERATION = {
    (Payoff.MARGIN, True): 10,
    (Payoff.MARGIN, False): 5,
    (Payoff.GAME_RESULT, True): 30,
    (Payoff.GAME_RESULT, False): 30,
}
# Double oracle's warm-up by regret matching (solver.equilibria.regret_matching),
# in the oracle's units (win: 2u - 1, so a gap of 0.01 is 0.5% of a game), for
# the games where it pays: mirror win games, whose restricted games grow to
# hundreds of strategies (30 mirror deals and the tournament's two slowest of
# its first 12, CPU: total 78 -> 40 s, the slowest 27 -> 10.5 s, median
# 0.35 -> 0.30 s); and mirror margin games since regret matching runs in
# float32 and stops early (30 mirror deals, CPU: median 0.100 -> 0.066 s,
# total 5.0 -> 3.8 s at a gap of half a point; independent deals were slower).
# Win games start their first exact program from the warm-up's guess
# (WarmUp.guess; mirror deals 1..40, CPU: the slowest 6.6 -> 6.2 s, total about
# 4% less); margin games do not, where the guess made the first program slower
# (median 0.108 -> 0.13 s: the guessed basis takes thousands of pivots to get feasible).
# With predictive regret matching+ (issue #25: mirror win deals 1-20 but 4, 25% less
# CPU; margin 14%), win games warm up further and keep more: a gap
# of 0.01 instead of 0.02 (mirror deals 4, 6 and 18, CPU: 8.5 -> 6.5 s in all) and
# keep 0.05 instead of 0.5 (the first exact program is larger, the exact phase
# shorter; deals 2, 4, 6, 12, 14 and 18: 0.25 -> 0.05 took 7.1 -> 6.2 s in all,
# deals 1-20 but 4: 6.6 -> 6.1 s); and they prune the warm-up's sets from 600
# strategies (DoubleOracle._prune_warm_up; deals 1-40: total 15.0 -> 12.6 s, the
# slowest 3.2 -> 2.65 s, the median unchanged; 0.03 and 0.1: less gain).
_WARM_UP = {
    (Payoff.MARGIN, True): WarmUp(gap=0.5, iterations=500),
    (Payoff.MARGIN, False): None,
    (Payoff.GAME_RESULT, True): WarmUp(gap=0.01, keep=0.05, guess=True, prune=0.05),
    (Payoff.GAME_RESULT, False): None,
}
# The restricted games are solved by the warm simplex (solver.lp.simplex),
# on one BLAS thread, by default.  On win games, whose restricted games reach hundreds of
# strategies, it wins where it matters (benchmarks/bench_fast.py --glop: the
# slowest of 16 deals 25 s against 179 s for GLOP from scratch; p95 10 s
# against 63 s), while GLOP is a little faster on the small ones (median
# 0.47 s against 0.57 s).  On margin games it is as fast as GLOP on the
# typical deal and faster on the slow ones (30 mirror and 30 independent
# deals, CPU: the slowest mirror deal 2.3 s against 3.8 s, p95 1.9 s
# against 2.9 s; medians equal).


class DealDoubleOracle(double_oracle.DoubleOracle):
    """The double oracle of one deal; iterate :meth:`iterations`, then read :meth:`result`.

    Parameters
    ----------
    first, second
        Player 1's and player 2's holdings.
    rules
        The rules (position points and ranking).
    payoff
        ``"margin"`` or ``"win"``.
    per_iteration
        Best responses added per player and iteration (default: 10 for
        margin in mirror mode, 5 for other margin games, 30 for win).
    warm_simplex
        Solve the restricted games with the warm simplex
        (:mod:`solver.lp.simplex`) rather than GLOP from scratch
        (default: yes).  Either way the result is certified the same.
    warm_up
        Start with restricted games solved approximately where that pays
        (:data:`_WARM_UP`; default: yes).  The result is exact either way.
    start
        An equilibrium of the same deal and rules, of either payoff: the
        restricted game starts with the strategies it plays with at least
        uniform probability (its support's most likely half or so), not with
        one strategy.  A warm start: the certificate (and the canonical
        equilibrium) does not depend on it.  The book solves a deal's win
        game from its margin equilibrium (its first 40 seeded classes, both
        payoffs: 0.514 -> 0.450 s of CPU per class, the same rows).

    >>> DealDoubleOracle(range(25), range(25), per_iteration=0)
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: per_iteration must be at least 1, got 0
    """

    def __init__(
        self,
        first: Iterable[int],
        second: Iterable[int],
        rules: Rules | None = None,
        payoff: Payoff | str = Payoff.MARGIN,
        per_iteration: int | None = None,
        warm_simplex: bool = True,
        warm_up: bool = True,
        start: EquilibriumResult | None = None,
    ) -> None:
        started = time.perf_counter()
        self.rules = rules_or_default(rules)
        self.payoff = parse_payoff(payoff)
        if per_iteration is not None and per_iteration < 1:
            raise SolverError(f"per_iteration must be at least 1, got {per_iteration}")
        self.game = FrontierGame(first, second, self.rules, self.payoff)
        if per_iteration is None:
            per_iteration = _PER_ITERATION[self.payoff, self.game.symmetric]
        self.game.per_iteration = per_iteration
        self.frontier_seconds = time.perf_counter() - started
        super().__init__(
            self.game,
            per_iteration=per_iteration,
            warm_simplex=warm_simplex,
            units=self.game.to_payoff,
            started=started,
            warm_up=_WARM_UP[self.payoff, self.game.symmetric] if warm_up else None,
            start=None if start is None else _likely_strategies(self.game, start),
        )

    def result(self, tolerance: float = DEFAULT_TOLERANCE) -> EquilibriumResult:
        """The best strategies found and their certificate (no history)."""
        solution = self.solution()
        lower, upper = self.game.to_payoff(solution.lower), self.game.to_payoff(solution.upper)
        row = self.game.rows.mixture(solution.row_strategies, solution.row)
        column = (
            row
            if self.game.symmetric
            else self.game.columns.mixture(solution.column_strategies, solution.column)
        )
        return EquilibriumResult(
            payoff=self.payoff,
            rules=self.rules,
            row=row,
            column=column,
            value=self.game.to_payoff(solution.value),
            lower=lower,
            upper=upper,
            iterations=solution.iterations,
            seconds=time.perf_counter() - self.started,
            frontier_sizes=(self.game.rows.size, self.game.columns.size),
            history=(),
            converged=upper - lower <= tolerance,
            frontier_seconds=self.frontier_seconds,
        )

    def canonical_result(
        self, result: EquilibriumResult, tolerance: float, ranges: bool = True
    ) -> EquilibriumResult:
        """``result`` with each player's canonical strategy and its certificate.

        See :mod:`solver.equilibria.canonical`.  ``result`` is kept as it is
        when the selection does not converge or certifies a gap above both
        ``tolerance`` and ``result``'s.  ``ranges``: also each likely
        arrangement's probability range over the whole game's optimal face
        (two searches each, :mod:`solver.equilibria.optimal_ranges`).
        """
        started = time.perf_counter()
        try:
            pair = canonical_pair(self.game, self)
        except SolverError:
            return result
        lower = self.game.to_payoff(pair.row.guarantee)
        upper = self.game.to_payoff(-pair.column.guarantee)
        if upper - lower > max(tolerance, result.gap):
            return result
        row, row_ranges = ranged_mixture(self.game.rows, pair, 0, ranges)
        column, column_ranges = (
            (row, row_ranges)
            if self.game.symmetric
            else ranged_mixture(self.game.columns, pair, 1, ranges)
        )
        seconds = time.perf_counter() - started
        return replace(
            result,
            row=row,
            column=column,
            value=min(max(result.value, lower), upper),
            lower=lower,
            upper=upper,
            seconds=result.seconds + seconds,
            converged=upper - lower <= tolerance,
            canonical=True,
            row_ranges=row_ranges,
            column_ranges=column_ranges,
            canonical_seconds=seconds,
        )


def _likely_strategies(
    game: FrontierGame, start: EquilibriumResult
) -> tuple[list[int], list[int]] | None:
    """``start``'s strategies of at least uniform probability, as ``game``'s frontier ids.

    None (the usual start) where one of its arrangements is not on the frontier.
    """
    if start.rules != game.rules:
        raise SolverError("start: an equilibrium of other rules", argument="start")
    sides = []
    for player, mixture in ((game.rows, start.row), (game.columns, start.column)):
        strategy = player.strategy(mixture, game.rules)
        if strategy is None:
            return None
        ids, probabilities = strategy
        # At least the most likely one: a uniform mixture's probabilities may all be a hair
        # under 1/k (0.16666666666666663 of six), and an empty start is refused.
        floor = min(1.0 / len(ids), float(probabilities.max()))
        sides.append([i for i, p in zip(ids, probabilities.tolist(), strict=True) if p >= floor])
    return sides[0], sides[1]


def solve(
    first: Iterable[int],
    second: Iterable[int],
    rules: Rules | None = None,
    payoff: Payoff | str = Payoff.MARGIN,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    time_limit: float | None = None,
    warm_simplex: bool = True,
    warm_up: bool = True,
    canonical: bool = True,
    ranges: bool = True,
    on_record: Callable[[IterationRecord], None] | None = None,
    start: EquilibriumResult | None = None,
) -> EquilibriumResult:
    """An equilibrium of the deal where player 1 holds ``first`` and player 2 ``second``.

    ``warm_simplex`` and ``warm_up`` choose how the restricted games are
    solved (see :class:`DealDoubleOracle`); ``canonical`` (default) replaces
    the equilibrium found by the canonical one, each player's optimal
    vertex of least hashed cost (:meth:`DealDoubleOracle.canonical_result`),
    the same whatever the solver's path or the seats (measured: within 6e-14
    on 20 deals of each mode and payoff), and the same, relabelled, for every
    relabelling of the suits (laid in the deal's canonical frame of the suits,
    symmetrized over its automorphisms: :mod:`solver.equilibria.frontier_game`); ``ranges``
    (with ``canonical``): each shown arrangement's probability range over the
    whole game's optimal face, for reports (stores and grades do not need it);
    ``on_record`` sees each iteration's record as it is made (progress);
    ``start``: an equilibrium of the same deal to start from (a warm start,
    see :class:`DealDoubleOracle`).

    >>> solve(range(25), range(25), payoff="points")
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: payoff 'points' is not margin or win
    """
    check_solve_arguments(  # before the frontiers are built: seconds of work
        tolerance, time_limit, on_record, start, EquilibriumResult,
        warm_simplex=warm_simplex, warm_up=warm_up, canonical=canonical, ranges=ranges,
    )  # fmt: skip
    oracle = DealDoubleOracle(
        first, second, rules, payoff, warm_simplex=warm_simplex, warm_up=warm_up, start=start
    )
    history = []
    for record in oracle.iterations(tolerance=tolerance, time_limit=time_limit):
        history.append(record)
        if on_record is not None:
            on_record(record)
    result = replace(oracle.result(tolerance), history=tuple(history))
    if canonical and result.converged:
        result = oracle.canonical_result(result, tolerance, ranges)
    return result
