"""Certified simple strategies: a mix of at most ``k`` arrangements, and exactly what it loses.

An exact equilibrium of a deal may mix dozens or hundreds of arrangements;
a person can remember a few.  For a player (``seat``), a payoff and a
``k``, this module finds a mixed strategy ``x`` over at most ``k``
arrangements and certifies what it loses against a best-responding
opponent.

The certificate.  Player 1's payoff is ``u`` (margin in points, or the win
probability, 1/2 per draw).  ``x`` **guarantees**
``g(x) = min_b u(x, b)``, the minimum over *every* arrangement ``b`` of the
opponent: its frontier holds a best response to anything
(:mod:`solver.response.frontier`), so the minimum over the frontier is
exact (:func:`solver.equilibria.exploitability.values_against`, the
project's exact best responses).  Its **exploitability** is what it
concedes against the game value ``v``::

    exploitability(x) = v - g(x) >= 0

(:mod:`solver.agents.exploitability` calls it the player's loss).  ``v``
comes from the deal's certified equilibrium: exact by symmetry in mirror
deals, within the equilibrium's certified gap (at most 1e-9 by default)
otherwise, and that gap is reported beside it.

The weights of a set.  For a fixed set ``S`` of arrangements, the best
weights solve the linear program ``max_x min_b sum_{a in S} x_a u(a, b)``: the
``|S|`` rows against the opponent's whole frontier.  The frontier has up to
tens of thousands of columns, so they are generated (a one-sided double
oracle, :mod:`solver.equilibria.double_oracle`): solve the matrix game
``S x C`` (:func:`solver.lp.solve_matrix_game`, the
project's linear programs) over the columns ``C`` found so far, find the
opponent's exact best responses to its ``x`` over the whole frontier, add
those that beat the restricted value, and stop when the best response
concedes the restricted value (within 1e-9).  Then ``x`` is optimal for
``S`` and ``g(x)`` is certified.

The sets.  Which ``k`` arrangements is a combinatorial search; it is not
solved exactly.  The candidates (the **pool**) are the equilibrium's own
arrangements (its most likely :data:`POOL` distinct strategies) and, at each
step, the player's best responses to the opponent's threat (the dual ``y``
of the last linear program: the arrangements that would gain most against
it).  **Greedy forward selection**: start empty and add, one at a time, the
candidate whose set scores best; candidates are ranked by their
linear program against the columns found so far (an optimistic score:
fewer columns, fewer constraints), and the best few are certified.  Then a
**swap search**: replace one arrangement of the set by a candidate while
that certifies a better guarantee.  The columns found by any certification
are kept for every later score, so the scores sharpen as the search goes.

What is proven.  Every reported exploitability is certified: the strategy
concedes no more, whatever the opponent does.  That the set is the *best*
``k``-arrangement strategy is not proven, and the result says so
(:attr:`SimpleStrategy.note`), except when the exploitability is 0 within
the certified gap (nothing can do better), for instance when ``k`` is at
least the equilibrium's support.  Larger ``k`` never does worse: the search
for each ``k`` starts from the best set found for smaller ones, and a result
keeps the smaller set's strategy when it is better (mixing fewer
arrangements is allowed).

>>> from solver.game.deal import deal
>>> from solver.game.rules import Rules
>>> rules = Rules(position_points=(6, 7))
>>> first, second = deal(seed=4, rules=rules).holdings
>>> one, two = simple_strategies(first, second, rules, "margin", ks=(1, 2))
>>> one.exploitability >= two.exploitability >= 0.0, len(two.strategy.arrangements) <= 2
(True, True)
>>> simple_strategy(first, second, rules, "margin", k=0)
Traceback (most recent call last):
    ...
solver.errors.SolverError: k must be at least 1, got 0
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from solver.equilibria.equilibrium import EquilibriumResult, solve
from solver.equilibria.payoff import Payoff, parse_payoff
from solver.equilibria.simple_search import TOLERANCE, USED, Certified, Search
from solver.errors import SolverError
from solver.game.rules import Rules, rules_or_default
from solver.models.mixture import Mixture
from solver.models.packets import check_holding
from solver.util.checks import check_instance

__all__ = ["MAX_K", "POOL", "SimpleStrategy", "simple_strategies", "simple_strategy"]

MAX_K = 50
"""The largest ``k`` asked for (a strategy of more arrangements is not simple)."""
POOL = 40
"""The equilibrium's most likely distinct strategies that start the pool."""


@dataclass(frozen=True)
class SimpleStrategy:
    """A mix of at most ``k`` arrangements and its certified exploitability.

    Attributes
    ----------
    payoff, rules
        The game.
    k
        The most arrangements the strategy may mix.
    seat
        The player it is for: 1 (``first``'s holding) or 2.
    strategy
        The arrangements and their weights (at most ``k``).
    guarantee
        ``min_b u(x, b)`` over every opponent arrangement: what it earns at
        least (the seat's own payoff: points, or the win probability).
    value, value_gap
        The game value for the seat and the equilibrium's certified gap (the
        value lies within ``value_gap`` of ``value``; 0 in mirror deals).
    exploitability
        ``value - guarantee`` (never below 0; below 1e-9 counts as 0).
    proven
        Whether no strategy of ``k`` arrangements can do better: the
        exploitability is 0 within the certified gap.
    pool
        How many distinct arrangements the search tried.
    seconds
        Wall time of the search (the equilibrium's solve not included).
    """

    payoff: Payoff
    rules: Rules
    k: int
    seat: int
    strategy: Mixture
    guarantee: float
    value: float
    value_gap: float
    exploitability: float
    proven: bool
    pool: int
    seconds: float

    @property
    def exploitability_percent(self) -> float:
        """The exploitability as a percentage of the points at stake (margin) or of a game (win)."""
        scale = self.rules.total_points if self.payoff is Payoff.MARGIN else 1.0
        return 100.0 * self.exploitability / scale

    @property
    def method(self) -> str:
        """How the arrangements were chosen, in words."""
        return (
            f"greedy selection and swap search over {self.pool} candidate arrangements "
            "(the equilibrium's and best responses), weights by linear program against "
            "every opponent arrangement"
        )

    @property
    def note(self) -> str:
        """What is proven, in words."""
        if self.proven:
            return "proven the best: it concedes nothing (within the certified gap)"
        return (
            f"best found by {self.method}; the exploitability is certified, but this is not "
            f"proven the best {self.k}-arrangement strategy"
        )


def simple_strategy(
    first: Iterable[int],
    second: Iterable[int],
    rules: Rules | None = None,
    payoff: Payoff | str = Payoff.MARGIN,
    k: int = 3,
    *,
    seat: int = 1,
    equilibrium: EquilibriumResult | None = None,
) -> SimpleStrategy:
    """The best strategy found mixing at most ``k`` arrangements, with its certified exploitability.

    Parameters
    ----------
    first, second
        Player 1's and player 2's holdings.
    rules, payoff
        The game (default rules, margin payoff).
    k
        The most arrangements to mix, 1 to :data:`MAX_K`.
    seat
        1 for player 1's strategy, 2 for player 2's.
    equilibrium
        The deal's equilibrium for these holdings, rules and payoff (seen from
        player 1, as :func:`solver.equilibria.equilibrium.solve` gives it);
        solved here when not given.

    Returns
    -------
    SimpleStrategy

    Examples
    --------
    >>> from solver.game.rules import Rules
    >>> rules = Rules(position_points=(6, 7))
    >>> result = simple_strategy(range(10), range(10), rules, "win", k=1)
    >>> result.exploitability, result.proven, len(result.strategy.arrangements)
    (0.0, True, 1)
    >>> simple_strategy(range(10), range(10), rules, "win", k=2, seat=3)
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: seat must be 1 or 2, got 3
    """
    return simple_strategies(
        first, second, rules, payoff, (k,), seat=seat, equilibrium=equilibrium
    )[0]


def simple_strategies(
    first: Iterable[int],
    second: Iterable[int],
    rules: Rules | None = None,
    payoff: Payoff | str = Payoff.MARGIN,
    ks: Sequence[int] = (1, 2, 3, 5, 10),
    *,
    seat: int = 1,
    equilibrium: EquilibriumResult | None = None,
) -> tuple[SimpleStrategy, ...]:
    """:func:`simple_strategy` for each ``k`` of ``ks``, from one search (in the order of ``ks``).

    Examples
    --------
    >>> from solver.game.rules import Rules
    >>> rules = Rules(position_points=(6, 7))
    >>> [r.k for r in simple_strategies(range(10), range(10), rules, "margin", ks=(2, 1))]
    [2, 1]
    >>> simple_strategies(range(10), range(10), rules, "margin", ks=())
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: ks must name at least one k
    """
    rules = rules_or_default(rules)
    payoff = parse_payoff(payoff)
    ks = _checked_ks(ks)
    if not isinstance(seat, (int, np.integer)) or isinstance(seat, bool) or seat not in (1, 2):
        raise SolverError(f"seat must be 1 or 2, got {seat!r}", argument="seat")
    if equilibrium is not None:
        check_instance(equilibrium, EquilibriumResult, "equilibrium")
    holdings = (
        check_holding(first, rules, who="player 1's holding"),
        check_holding(second, rules, who="player 2's holding"),
    )
    if equilibrium is None:
        equilibrium = solve(*holdings, rules, payoff, ranges=False)
    elif equilibrium.rules != rules or equilibrium.payoff is not payoff:
        raise SolverError(
            "equilibrium: solved for other rules or another payoff", argument="equilibrium"
        )
    if seat == 2:
        holdings, equilibrium = holdings[::-1], equilibrium.transposed()
    search = Search(holdings, rules, payoff, equilibrium, POOL)
    started = time.perf_counter()
    found = search.run(max(ks))
    seconds = time.perf_counter() - started
    results = []
    for k in ks:
        best = max((found[j] for j in range(1, k + 1)), key=lambda c: c.guarantee)
        results.append(_result(search, best, k, seat, seconds))
    return tuple(results)


def _checked_ks(ks: Sequence[int]) -> tuple[int, ...]:
    """``ks`` as ints in ``[1, MAX_K]``."""
    if isinstance(ks, (str, bytes)) or not isinstance(ks, Sequence):
        raise SolverError(f"ks must be a sequence of integers, got {ks!r}", argument="ks")
    if not ks:
        raise SolverError("ks must name at least one k", argument="ks")
    checked = []
    for k in ks:
        if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
            raise SolverError(f"k must be an integer, got {k!r}", argument="k")
        if k < 1:
            raise SolverError(f"k must be at least 1, got {k}", argument="k")
        if k > MAX_K:
            raise SolverError(f"k must be at most {MAX_K}, got {k}", argument="k")
        checked.append(int(k))
    return tuple(checked)


def _result(search: Search, best: Certified, k: int, seat: int, seconds: float) -> SimpleStrategy:
    """``best`` as a :class:`SimpleStrategy` for the seat."""
    used = np.flatnonzero(best.weights > USED)
    rows = [best.rows[i] for i in used.tolist()]
    weights = best.weights[used] / best.weights[used].sum()
    mixture, ids, _ = search.game.rows.realize(rows, weights)
    # One arrangement per strategy: a deal with suit automorphisms realizes a strategy
    # as several images of the same strengths, which pay the same.
    first = sorted({s: i for i, s in reversed(list(enumerate(ids)))}.values())
    strategy = Mixture(
        tuple(mixture.arrangements[i] for i in first),
        tuple(float(w) for w in weights.tolist()),
    )
    equilibrium = search.equilibrium
    exploitability = equilibrium.value - best.guarantee
    proven = exploitability <= TOLERANCE
    return SimpleStrategy(
        payoff=search.payoff,
        rules=search.rules,
        k=k,
        seat=seat,
        strategy=strategy,
        guarantee=best.guarantee,
        value=equilibrium.value,
        value_gap=equilibrium.gap,
        exploitability=0.0 if proven else exploitability,
        proven=proven,
        pool=len(search.pool),
        seconds=seconds,
    )
