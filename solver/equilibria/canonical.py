"""One canonical equilibrium per game: each player's optimal vertex of least canonical cost.

A zero-sum game's optimal strategies form a convex polytope per player (its
*optimal face*); double oracle returns one point of it, which one depending
on the pivoting, the warm-up and the order strategies joined.  Choosing
within the double oracle's *final restricted game* would not be canonical:
different solver paths end with different restricted sets (their supports
differed on 15 of 20 independent margin deals).  So the choice is made over
the face of the *whole* game (every frontier strategy).

Which point.  The first choice was the optimal strategy of least Euclidean
norm (unique, spreads probability over equivalent arrangements).  Measured
on independent margin deals 0-3: over the whole frontier it spreads over
740 (deal 0) and 1,044 / 2,304 (deal 2) arrangements (the frontiers hold many
strategies equivalent against every optimal opponent strategy) and took
2.8 s and 89 s against the solve's 0.24 s and 0.19 s.  So the canonical
strategy is instead the optimal **vertex** minimizing a fixed linear cost
``h . x``, ``h_i`` a hash of the frontier strategy's id in ``[0, 1)``
(:func:`costs`; the frontier and its ids are fixed by the holding and the
rules, bit for bit).  It

* is unique (for costs in general position, as hashed costs are: two
  optimal vertices tie with probability zero);
* is rational (a vertex solves a square linear system with rational data);
* has a small support (at most one more than its binding constraints),
  like the double oracle's own equilibria;
* does not depend on the seat: each player's problem involves only its own
  frontier ids and the payoffs;
* does not depend on the suits' names: a relabelled deal has the same
  frontier ids and payoffs, bit for bit, and its strategies are laid in
  the deal's canonical frame of the suits and mapped back (symmetrized over
  the deal's automorphisms, :mod:`solver.equilibria.frontier_game`).

Column-and-constraint generation.  With the value ``v``, the row player's
face is ``P = {x in simplex : u(x, b) >= v for every column strategy b}``;
starting from the double oracle's final sets ``R`` (variables) and ``C``
(constraints), repeat:

1. solve ``min h . x`` over ``x`` on ``R`` with the constraints of ``C`` (a
   linear program: on the warm simplex, :mod:`solver.lp.face_simplex`,
   or GLOP if that gives up), with duals ``lambda >= 0`` on ``C`` and ``mu`` on
   the sum;
2. add to ``C`` the column strategies with ``u(x, b) < v`` (the oracle's best
   responses to ``x``): ``x`` must hold against the whole game;
3. price the row strategies outside ``R``: ``x_i = 0`` is optimal only if its
   reduced cost ``h_i - sum_j lambda_j u(i, j) - mu`` is non-negative, that
   is if its value against the (unnormalized) mixture ``lambda`` is at most
   ``(h_i - mu) / sum(lambda)``; the oracle evaluates exactly every strategy
   that may exceed its threshold (for the win payoff, whose best responses
   are summed in float32 first, every one within a float32 error bound of
   it, :meth:`~solver.equilibria.frontier_game.FrontierGame.best_rows`), and
   the most negative are added;

until neither step adds anything: then ``x`` is optimal over the whole
game.  The column player likewise (in a symmetric game one computation
serves both).  The search may start from any sets that hold an
equilibrium's supports (:func:`canonical_pair_from`: a stored equilibrium's),
and goes on, with one strategy's probability as the cost, for the
probability ranges over the whole game's optimal face
(:class:`FaceSearch`, :mod:`solver.equilibria.optimal_ranges`).

Rounding.  ``v`` from two solver paths may differ by about 1e-14, and ``P``
may be a single point, which a value too high by 1e-14 would make empty;
so no step takes ``v`` as exact.  The search runs (the same steps) over
``(x, v)`` with ``v`` a variable: ``min h . x - W v`` subject to
``u(x, b) >= v``.  Once the weight ``W`` exceeds the slope of the least
cost in ``v`` at the game's value (the duals' sum ``sum(lambda)`` there),
raising ``v`` to the value pays more than any cost it adds, and the
optimum is ``(x*, v*)``: the least-cost optimal vertex and the value, a
vertex of that program's polyhedron, the same for every such ``W``.  So
``W`` starts at :data:`_FIRST_WEIGHT` and is multiplied by sixteen while
``v`` stays below the value; only the objective changes, and the program
goes on from its last basis.  The programs are solved on the double
oracle's own warm simplex, its first basis crashed from the double oracle's
equilibrium (:mod:`solver.lp.face_simplex`): that basis is usually
optimal already, where GLOP solved each side's first program from scratch
(issue #25: 150 seeded mirror classes, both payoffs, 0.770 -> 0.554 s a
class).  If the simplex gives up, the search goes on from its sets with one
GLOP model (:func:`~solver.lp.face_program.warm_program`): the
optimum, a vertex, is the same.
Until issue #25 a first search at the fixed value ``v - SLACK`` measured
the slope (4e4 to 2.3e5 on mirror win deals 1-12), and its program cost as
much as the weighted one: half of the selection.  Last, ``(x*, v*)`` is
recomputed from its structure alone: support ``S`` (``x > 1e-12``), tight
set ``B`` (slack at most 1e-9) and ``[A_SB^T, -1; 1^T, 0] (x_S, v) = (0,
1)`` solved by least squares (QR), strategies in canonical order (their frontier
ids); no input value enters, so two paths that end at the same vertex
compute the same numbers to rounding (measured: within 6e-14 on 20 deals of
each mode and payoff).  If that system is rank deficient, inconsistent or
infeasible (not met in the tests) the program's own point is kept.  The
result is certified against the whole game like any other strategy pair.

>>> from solver.equilibria.double_oracle import DoubleOracle, MatrixOracle
>>> game = MatrixOracle(np.array([[1.0, 1.0], [1.0, 1.0], [0.0, 2.0]]))
>>> search = DoubleOracle(game)
>>> _ = list(search.iterations())
>>> pair = canonical_pair(game, search)
>>> best = int(np.argmin(costs([0, 1])))
>>> pair.row.strategies[int(np.argmax(pair.row.probabilities))] == best
True
>>> canonical_pair(game, DoubleOracle(game))
Traceback (most recent call last):
    ...
solver.errors.SolverError: the canonical pair needs a finished double oracle
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from solver.equilibria.canonical_costs import costs
from solver.equilibria.double_oracle import DoubleOracle
from solver.equilibria.face_matrix import FaceMatrix
from solver.equilibria.payoff_oracle import BestResponses, PayoffOracle
from solver.errors import SimplexError, SolverError
from solver.lp import (
    FacePoint,
    FaceProgram,
    Program,
    one_blas_thread,
    simplex_program,
    structural_vertex,
    warm_program,
)

__all__ = [
    "SLACK",
    "CanonicalPair",
    "CanonicalStrategy",
    "FaceSearch",
    "canonical_pair",
    "canonical_pair_from",
    "costs",
]

SLACK = 1e-10
"""How far below the value (oracle units) the searched face reaches (see the module)."""

# A constraint violated, or a price positive, by more than this adds a strategy.
_VIOLATION = 1e-11
# How far the weighted search's value may fall short of the game's by rounding.
_ROUNDING = 1e-11
# A restricted strategy this close to the best response's value is one (the search's start).
_TIGHT = 1e-9
# Weights on v tried, the first and each 16 times the last: one must exceed the least
# cost's slope at the value (measured on mirror win deals 1-12: 4e4 to 2.3e5 per unit).
# Not larger: the programs' reduced costs are of the weight's size, and a first weight
# of 1.6e6 (22 of 120 book sides need it) cost the canonical choice its precision: three
# of the twenty-deal margin tests' paths ended at different vertices.
_FIRST_WEIGHT = 1e5
_WEIGHTS = 6
_PER_ROUND = 50  # strategies added per side and round
_MAX_ROUNDS = 200
_MAX_STRATEGIES = 3000  # per side: beyond this the search gives up


@dataclass(frozen=True)
class CanonicalStrategy:
    """One player's canonical strategy over its final restricted sets (sorted ids).

    ``payoff`` is this player's payoff matrix (strategies by opponent
    strategies ``against``); ``guarantee`` what ``probabilities`` secures
    against the whole game (oracle units, this player's payoff).
    """

    strategies: tuple[int, ...]
    probabilities: np.ndarray
    against: tuple[int, ...]
    payoff: np.ndarray
    guarantee: float
    rounds: int


@dataclass(frozen=True)
class CanonicalPair:
    """Both players' canonical strategies (the same object twice in a symmetric game).

    ``search`` continues the search over the whole game's optimal faces
    (:meth:`FaceSearch.probability_range`).
    """

    row: CanonicalStrategy
    column: CanonicalStrategy
    value: float
    search: FaceSearch | None = field(default=None, compare=False, repr=False)


@dataclass
class _Side:
    """One player's view: its variables, its constraints, and the oracle's answers."""

    mine: Callable[[], list[int]]
    theirs: Callable[[], list[int]]
    payoff: Callable[[], np.ndarray]  # my payoffs, mine x theirs
    add: Callable[[list[int], list[int]], None]  # (mine, theirs)
    check: Callable[[list[int], np.ndarray], BestResponses]  # their payoffs against x
    # my payoffs against weights, exact wherever above the thresholds
    price: Callable[[list[int], np.ndarray, np.ndarray], BestResponses]
    costs: np.ndarray  # of all my strategies
    lowest: float | None  # a lower bound on every payoff (the oracle's)


def _new(
    responses: BestResponses, threshold: np.ndarray | float, present: Sequence[int]
) -> list[int]:
    """Up to :data:`_PER_ROUND` strategies whose value exceeds ``threshold``, not in ``present``."""
    values = responses.values - threshold
    ids = np.arange(values.shape[0]) if responses.strategies is None else responses.strategies
    over = np.flatnonzero(values > 0)
    order = over[np.argsort(-values[over], kind="stable")]
    taken = set(present)
    return [int(s) for s in ids[order].tolist() if int(s) not in taken][:_PER_ROUND]


def _search(
    side: _Side,
    value: float,
    weight: float | None = None,
    cost: np.ndarray | None = None,
    *,
    program: Program,
) -> tuple[FacePoint, int]:
    """Column-and-constraint generation (the module's steps 1-3); the last vertex and round.

    At the fixed ``value``, or with ``weight`` over ``(x, v)`` (see the module);
    ``cost`` of every strategy of the side (default its canonical costs; a
    probability range's: the one strategy's); ``program`` solves the restricted
    programs (:func:`~solver.lp.face_program.warm_program`).
    """
    cost = side.costs if cost is None else cost
    for rounds in range(1, _MAX_ROUNDS + 1):
        mine, theirs = side.mine(), side.theirs()
        point = program(side.payoff(), value, cost[mine], weight)
        # Their strategies that x does not hold (their payoff above -v).
        constraints = _new(side.check(mine, point.x), -point.value + _VIOLATION, theirs)
        scale = float(point.duals.sum())
        weights = point.duals / scale if scale > 0 else np.full(len(theirs), 1.0 / len(theirs))
        # Reduced cost h_i - scale * u(i, weights) - mu < 0: value above (h_i - mu) / scale,
        # for every strategy (the oracle evaluates exactly all that may be above).
        threshold = (cost - point.mu + _VIOLATION) / max(scale, 1e-300)
        priced = side.price(theirs, weights, threshold)
        variables = _new(
            priced, threshold if priced.strategies is None else threshold[priced.strategies], mine
        )
        if not constraints and not variables:
            return point, rounds
        side.add(variables, constraints)
        if max(len(side.mine()), len(side.theirs())) > _MAX_STRATEGIES:
            break
    raise SolverError("the canonical strategy's search did not converge")


def _weighted(
    side: _Side, value: float, program: Program, cost: np.ndarray | None = None
) -> tuple[FacePoint, int]:
    """The weighted searches (see the module's *Rounding*): the last vertex, all their rounds."""
    weight, rounds = _FIRST_WEIGHT, 0
    for _ in range(_WEIGHTS):
        point, more = _search(side, value, weight, cost, program=program)
        rounds += more
        if point.value >= value - _ROUNDING:
            return point, rounds
        weight *= 16.0
    raise SolverError("the canonical strategy's search did not reach the value")


def _canonical(
    side: _Side, value: float, start: tuple[np.ndarray, np.ndarray] | None = None
) -> CanonicalStrategy:
    """The side's canonical strategy; ``start`` an equilibrium over its first sets (mine, theirs).

    The programs are solved on the warm simplex, crashed from ``start``
    (:mod:`solver.lp.face_simplex`); if it gives up, the search goes on
    from its sets with GLOP (one model throughout: a larger weight changes the
    objective only, and GLOP goes on from its basis).
    """
    try:
        point, rounds = _weighted(side, value, simplex_program(side.lowest, start))
    except SimplexError:
        point, rounds = _weighted(side, value, warm_program({}, 0))
    mine, theirs = side.mine(), side.theirs()
    order_mine, order_theirs = np.argsort(mine), np.argsort(theirs)
    payoff = side.payoff()[np.ix_(order_mine, order_theirs)]
    found = point.x[order_mine]
    exact = structural_vertex(payoff, found, point.value)
    # Fallback (not met in the tests): the program's own point.
    x = np.clip(found if exact is None else exact, 0.0, None)
    x /= x.sum()
    strategies = tuple(int(mine[k]) for k in order_mine)
    return CanonicalStrategy(
        strategies=strategies,
        probabilities=x,
        against=tuple(int(theirs[k]) for k in order_theirs),
        payoff=payoff,
        guarantee=float(-side.check(list(strategies), x).value),
        rounds=rounds,
    )


@dataclass(frozen=True)
class FaceSearch:
    """The search after the canonical pair, for probability ranges over the whole game's faces."""

    sides: tuple[_Side, _Side]
    value: float
    symmetric: bool
    # Each side's programs, kept loaded and re-solved warm for the next cost: on the
    # simplex (a symmetric game's, started from the canonical pair: see _least), or
    # (otherwise, or once that gave up) GLOP's at the fixed value.
    simplex_programs: dict[int, Program] = field(default_factory=dict, compare=False, repr=False)
    _programs: dict[int, FaceProgram] = field(default_factory=dict, compare=False, repr=False)

    def _least(self, index: int, value: float, cost: np.ndarray) -> FacePoint:
        """The least ``cost`` over side ``index``'s optimal face: weighted, on its simplex
        program if it has one; otherwise, or once that gives up, at ``value - SLACK`` on GLOP.

        Only a symmetric game's side has one: on independent margin deals 0-2 the weighted
        searches over a range's cost (zero but for one strategy: ties everywhere) priced in
        tied strategies by rounding, 50 a round up to 3,000, or met a singular basis.
        """
        side = self.sides[index]
        if (program := self.simplex_programs.get(index)) is not None:
            try:
                return _weighted(side, value, program, cost)[0]
            except (SimplexError, SolverError):  # the simplex gave up, or the search grew
                del self.simplex_programs[index]
        point, _ = _search(
            side, value - SLACK, cost=cost, program=warm_program(self._programs, index)
        )
        return point

    def probability_range(self, player: int, strategy: int) -> tuple[float, float]:
        """Least and greatest probability of ``strategy`` over ``player``'s (0, 1) optimal face.

        Each end is the same column-and-constraint generation as the
        canonical strategy's, with the strategy's probability (or its
        negative) as the cost: in a symmetric game weighted, so the ends are
        the optimal face's to rounding; otherwise (or if the simplex gives
        up) on GLOP over the face at ``v - SLACK``, exact to about that much
        (see :meth:`_least`).  Raises
        :class:`~solver.errors.SolverError` when a search does not converge.
        """
        index = 0 if self.symmetric else player
        side = self.sides[index]
        value = self.value if index == 0 else -self.value
        ends = []
        for sign in (1.0, -1.0):  # least, then greatest
            cost = np.zeros(side.costs.shape[0])
            cost[strategy] = sign
            with one_blas_thread():
                point = self._least(index, value, cost)
            mine = side.mine()
            ends.append(float(point.x[mine.index(strategy)]) if strategy in mine else 0.0)
        return min(max(ends[0], 0.0), 1.0), min(max(ends[1], 0.0), 1.0)


def _sides(oracle: PayoffOracle, matrix: FaceMatrix) -> tuple[_Side, _Side]:
    rows = _Side(
        mine=lambda: matrix.rows,
        theirs=lambda: matrix.columns,
        payoff=lambda: matrix.payoff,
        add=lambda mine, theirs: matrix.add(mine, theirs),
        check=oracle.best_rows if oracle.symmetric else oracle.best_columns,
        price=oracle.best_rows,
        costs=costs(np.arange(oracle.sizes[0])),
        lowest=oracle.lowest,
    )
    columns = _Side(
        mine=lambda: matrix.columns,
        theirs=lambda: matrix.rows,
        payoff=lambda: -matrix.payoff.T,
        add=lambda mine, theirs: matrix.add(theirs, mine),
        check=oracle.best_rows,
        price=oracle.best_columns,
        costs=costs(np.arange(oracle.sizes[1])),
        lowest=oracle.lowest,
    )
    return rows, columns


def canonical_pair(oracle: PayoffOracle, search: DoubleOracle) -> CanonicalPair:
    """Both players' canonical optimal strategies, from a finished double oracle.

    Parameters
    ----------
    oracle
        The game.
    search
        Its double oracle, iterated to the end (its final sets start the search).

    Raises
    ------
    SolverError
        The search did not converge (the caller keeps the double oracle's pair).
    """
    if search.iteration == 0:
        raise SolverError("the canonical pair needs a finished double oracle")
    rows, columns = _best_responses_in(search, oracle.symmetric)
    solution = search.solution()
    start = (
        dict(zip(solution.row_strategies, solution.row.tolist(), strict=True)),
        dict(zip(solution.column_strategies, solution.column.tolist(), strict=True)),
    )
    return canonical_pair_from(oracle, rows, columns, solution.value, start=start)


def _start(
    start: tuple[Mapping[int, float], Mapping[int, float]] | None,
    mine: Sequence[int],
    theirs: Sequence[int],
) -> tuple[np.ndarray, np.ndarray] | None:
    """``start``'s probabilities over a side's first sets (a strategy not in it: 0)."""
    if start is None:
        return None
    return (
        np.array([start[0].get(i, 0.0) for i in mine]),
        np.array([start[1].get(j, 0.0) for j in theirs]),
    )


def _best_responses_in(search: DoubleOracle, symmetric: bool) -> tuple[list[int], list[int]]:
    """The strategies of the double oracle's final sets that are best responses to its solution.

    Only those can have probability in an optimal strategy (complementary
    slackness with the opponent's optimal strategy), so the search starts
    from them; it adds any other strategy it needs, so this only makes its
    first program smaller.  The whole sets when the best solution was not
    found over the final ones.
    """
    solution = search.solution()
    rows = search.rows.strategies
    columns = rows if symmetric else search.columns.strategies
    if list(solution.row_strategies) != rows or list(solution.column_strategies) != columns:
        return [*solution.row_strategies, *rows], [*solution.column_strategies, *columns]
    payoff = search.lp.matrix()
    against_column = payoff @ solution.column  # each row's payoff (the matrix's units)
    against_row = solution.row @ payoff
    kept_rows = np.flatnonzero(against_column >= against_column.max() - _TIGHT)
    kept_columns = np.flatnonzero(against_row <= against_row.min() + _TIGHT)
    return [rows[i] for i in kept_rows.tolist()], [columns[j] for j in kept_columns.tolist()]


def canonical_pair_from(
    oracle: PayoffOracle,
    rows: Sequence[int],
    columns: Sequence[int],
    value: float,
    *,
    start: tuple[Mapping[int, float], Mapping[int, float]] | None = None,
) -> CanonicalPair:
    """Both players' canonical strategies, the search started from ``rows`` and ``columns``.

    ``value`` is the game's value (oracle units); the sets need only hold
    some equilibrium's supports (a stored equilibrium's, say), the search
    adds what the canonical pair needs.  ``start``, an equilibrium (each
    player's probabilities by strategy), gives the search's first basis
    (:mod:`solver.lp.face_simplex`); the result does not depend on it.

    >>> from solver.equilibria.double_oracle import MatrixOracle
    >>> game = MatrixOracle(np.array([[1.0, -1.0], [-1.0, 1.0]]))
    >>> canonical_pair_from(game, [0, 1], [0, 1], 0.0).row.probabilities.round(12).tolist()
    [0.5, 0.5]
    >>> canonical_pair_from(game, [], [0], 0.0)
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: the canonical search needs strategies of both players
    """
    if not rows or not columns:
        raise SolverError("the canonical search needs strategies of both players")
    matrix = FaceMatrix(oracle)
    rows_side, columns_side = _sides(oracle, matrix)
    rows = list(dict.fromkeys(int(i) for i in rows))
    columns = list(dict.fromkeys(int(j) for j in columns))
    if oracle.symmetric:
        rows = columns = list(dict.fromkeys([*rows, *columns]))
    # Systems of a few hundred strategies: BLAS threads only wait for each other (on a
    # loaded machine, the least squares of mirror win deal 9 took 0.35 s instead of 0.03 s).
    with one_blas_thread():
        matrix.add(rows, columns)
        row = _canonical(rows_side, value, _start(start, rows, columns))
        if oracle.symmetric:
            column = row
        else:
            flipped = None if start is None else (start[1], start[0])
            column = _canonical(columns_side, -value, _start(flipped, columns, rows))
    search = FaceSearch((rows_side, columns_side), value, oracle.symmetric)
    if oracle.symmetric:  # the ranges' searches start from the canonical strategy (see _least)
        canonical = dict(zip(row.strategies, row.probabilities.tolist(), strict=True))
        first = _start((canonical, canonical), rows_side.mine(), rows_side.theirs())
        search.simplex_programs[0] = simplex_program(oracle.lowest, first)
    return CanonicalPair(row, column, value, search)
