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
  frontier ids and the payoffs.

Column-and-constraint generation.  With the value ``v``, the row player's
face is ``P = {x in simplex : u(x, b) >= v for every column strategy b}``;
starting from the double oracle's final sets ``R`` (variables) and ``C``
(constraints), repeat:

1. solve ``min h . x`` over ``x`` on ``R`` with the constraints of ``C`` (a
   linear program, GLOP), with duals ``lambda >= 0`` on ``C`` and ``mu`` on
   the sum;
2. add to ``C`` the column strategies with ``u(x, b) < v`` (the oracle's best
   responses to ``x``): ``x`` must hold against the whole game;
3. price the row strategies outside ``R``: ``x_i = 0`` is optimal only if its
   reduced cost ``h_i - sum_j lambda_j u(i, j) - mu`` is non-negative, which
   the oracle's values against the (unnormalized) mixture ``lambda`` give for
   all of them at once; add the most negative;

until neither step adds anything: then ``x`` is optimal over the whole
game.  The column player likewise (in a symmetric game one computation
serves both).  For the win payoff the oracle evaluates exactly only the
strategies near its best response, so step 3 sees only those: there the
choice is canonical as far as those candidates go.

Rounding.  ``v`` from two solver paths may differ by about 1e-14, and ``P``
may be a single point, which a value too high by 1e-14 would make empty.
So the search runs on the slightly larger face at ``v - `` :data:`SLACK`
(where the double oracle's strategy lies), and the final point is
recomputed from the support and the binding constraints it ends with, at
``v`` itself, with strategies in canonical order (their frontier ids), so
two paths that end at the same vertex compute the same numbers.  The
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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from solver.equilibria.double_oracle import DoubleOracle
from solver.equilibria.payoff_oracle import BestResponses, PayoffOracle
from solver.errors import SolverError

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
# The vertex recomputed at v may miss it by rounding: a probability that is 0
# at v and about SLACK on the larger face comes out at -1e-13 (then clipped).
_ROUNDING = 1e-11
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


class _Matrix:
    """The payoffs ``u`` between growing row and column sets, from the oracle."""

    def __init__(self, oracle: PayoffOracle) -> None:
        self.oracle = oracle
        self.rows: list[int] = []
        self.columns: list[int] = []
        self.payoff = np.zeros((0, 0))
        self._cached: set[int] = set()

    def _cache(self, strategy: int) -> None:
        # A symmetric oracle answers best responses over strategies it has
        # seen as columns: every strategy of either set is made one.
        if self.oracle.symmetric and strategy not in self._cached:
            self.oracle.column_payoffs([], strategy)
            self._cached.add(strategy)

    def add(self, rows: Sequence[int], columns: Sequence[int]) -> None:
        """Add the new ``rows`` and ``columns`` (the ones already in are skipped)."""
        for j in columns:
            if j not in self.columns:
                self._cache(j)
                new = np.asarray(self.oracle.column_payoffs(self.rows, j), np.float64)
                self.columns.append(j)
                self.payoff = np.hstack([self.payoff, new.reshape(-1, 1)])
        for i in rows:
            if i not in self.rows:
                self._cache(i)
                new = np.asarray(self.oracle.row_payoffs(i, self.columns), np.float64)
                self.rows.append(i)
                self.payoff = np.vstack([self.payoff, new.reshape(1, -1)])


@dataclass
class _Side:
    """One player's view: its variables, its constraints, and the oracle's answers."""

    mine: Callable[[], list[int]]
    theirs: Callable[[], list[int]]
    payoff: Callable[[], np.ndarray]  # my payoffs, mine x theirs
    add: Callable[[list[int], list[int]], None]  # (mine, theirs)
    check: Callable[[list[int], np.ndarray], BestResponses]  # their payoffs against x
    price: Callable[[list[int], np.ndarray], BestResponses]  # my payoffs against weights


def costs(strategies: Sequence[int] | np.ndarray) -> np.ndarray:
    """The canonical costs ``h`` of frontier strategies: a fixed hash of each id, in ``[0, 1)``.

    >>> costs([0, 1, 2]).round(3).tolist()
    [0.883, 0.567, 0.591]
    >>> costs([-1])
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: strategy ids are non-negative, got -1
    """
    ids = np.asarray(strategies, dtype=np.int64)
    if ids.size and int(ids.min()) < 0:
        raise SolverError(f"strategy ids are non-negative, got {int(ids.min())}")
    # splitmix64's finalizer: a linear hash (id times the golden ratio,
    # modulo 1) made ties, h_a + h_b = h_c + h_d whenever a + b = c + d, and
    # with them two optimal vertices (measured: independent margin deal 2).
    z = ids.astype(np.uint64) + np.uint64(0x9E3779B97F4A7C15)
    with np.errstate(over="ignore"):
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) / float(1 << 53)


_Cost = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class _Vertex:
    """A restricted program's optimum: the point, its duals, support and binding set."""

    x: np.ndarray
    duals: np.ndarray
    mu: float
    support: np.ndarray
    binding: np.ndarray


def _least_cost(payoff: np.ndarray, value: float, cost: np.ndarray) -> _Vertex:
    """``min cost . x`` over ``x >= 0, sum(x) = 1, payoff^T x >= value`` (GLOP, by a request).

    The request is built from arrays: the modelling API's expressions cost
    twenty times the solve (profiled: 19 of 24 s on mirror margin deal 4).
    """
    from ortools.linear_solver import linear_solver_pb2, pywraplp

    request = linear_solver_pb2.MPModelRequest()
    request.solver_type = linear_solver_pb2.MPModelRequest.GLOP_LINEAR_PROGRAMMING
    request.solver_specific_parameters = (
        "primal_feasibility_tolerance:1e-12 dual_feasibility_tolerance:1e-12"
    )
    model = request.model
    for h in cost.tolist():
        x = model.variable.add()
        x.lower_bound, x.upper_bound, x.objective_coefficient = 0.0, 1.0, h
    total = model.constraint.add()
    total.lower_bound = total.upper_bound = 1.0
    total.var_index.extend(range(payoff.shape[0]))
    total.coefficient.extend([1.0] * payoff.shape[0])
    for column in payoff.T:
        constraint = model.constraint.add()
        constraint.lower_bound, constraint.upper_bound = float(value), np.inf
        nonzero = np.flatnonzero(column)
        constraint.var_index.extend(nonzero.tolist())
        constraint.coefficient.extend(column[nonzero].tolist())
    response = linear_solver_pb2.MPSolutionResponse()
    pywraplp.Solver.SolveWithProto(request, response)
    if response.status != linear_solver_pb2.MPSOLVER_OPTIMAL:
        raise SolverError("the canonical strategy's linear program was not solved")
    point = np.clip(np.asarray(response.variable_value), 0.0, None)
    duals = np.asarray(response.dual_value)
    lam = np.clip(duals[1:], 0.0, None)
    return _Vertex(point / point.sum(), lam, float(duals[0]), point > 1e-12, lam > 1e-12)


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


def _search(side: _Side, value: float, cost: _Cost = costs) -> tuple[_Vertex, int]:
    """Column-and-constraint generation (the module's steps 1-3); the last vertex and round.

    ``cost`` gives the costs of strategy ids (the canonical hash, or a range's
    one strategy).
    """
    for rounds in range(1, _MAX_ROUNDS + 1):
        mine, theirs = side.mine(), side.theirs()
        point = _least_cost(side.payoff(), value, cost(np.asarray(mine, dtype=np.int64)))
        # Their strategies that x does not hold (their payoff above -value).
        constraints = _new(side.check(mine, point.x), -value + _VIOLATION, theirs)
        scale = float(point.duals.sum())
        weights = point.duals / scale if scale > 0 else np.full(len(theirs), 1.0 / len(theirs))
        priced = side.price(theirs, weights)
        ids = np.arange(priced.values.shape[0]) if priced.strategies is None else priced.strategies
        # Reduced cost h_i - scale * u(i, weights) - mu < 0: value above (h_i - mu) / scale.
        threshold = (cost(ids) - point.mu + _VIOLATION) / max(scale, 1e-300)
        variables = _new(priced, threshold, mine)
        if not constraints and not variables:
            return point, rounds
        side.add(variables, constraints)
        if max(len(side.mine()), len(side.theirs())) > _MAX_STRATEGIES:
            break
    raise SolverError("the canonical strategy's search did not converge")


def _vertex(
    payoff: np.ndarray, value: float, support: np.ndarray, binding: np.ndarray
) -> np.ndarray:
    """The point of ``support`` where the ``binding`` constraints hold at ``value`` (least squares)."""
    block = payoff[np.ix_(support, binding)]
    system = np.vstack([block.T, np.ones((1, block.shape[0]))])
    target = np.full(system.shape[0], float(value))
    target[-1] = 1.0
    x = np.zeros(payoff.shape[0])
    x[support] = np.linalg.lstsq(system, target, rcond=None)[0]
    return x


def _canonical(side: _Side, value: float) -> CanonicalStrategy:
    """The side's canonical strategy (see the module's *Rounding*)."""
    point, rounds = _search(side, value - SLACK)
    mine, theirs = side.mine(), side.theirs()
    order_mine, order_theirs = np.argsort(mine), np.argsort(theirs)
    payoff = side.payoff()[np.ix_(order_mine, order_theirs)]
    support, binding = point.support[order_mine], point.binding[order_theirs]
    x = _vertex(payoff, value, support, binding)
    if x.min() < -_ROUNDING or (x @ payoff).min() < value - _ROUNDING:
        # Not a vertex at v itself (rounding made the restricted face at v
        # empty, or degenerate): the vertex at v - SLACK, recomputed the same way.
        x = _vertex(payoff, value - SLACK, support, binding)
    x = np.clip(x, 0.0, None)
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

    def probability_range(self, player: int, strategy: int) -> tuple[float, float]:
        """Least and greatest probability of ``strategy`` over ``player``'s (0, 1) optimal face.

        Each end is the same column-and-constraint generation as the
        canonical strategy's, with the strategy's probability as the cost;
        the face is the one at ``v - SLACK``, so the ends are exact to about
        that much.  Raises :class:`~solver.errors.SolverError` when a search
        does not converge.
        """
        side = self.sides[0 if self.symmetric else player]
        value = self.value if player == 0 or self.symmetric else -self.value
        ends = []
        for sign in (1.0, -1.0):  # least, then greatest

            def cost(ids: np.ndarray, sign: float = sign) -> np.ndarray:
                return sign * (ids == strategy).astype(np.float64)

            point, _ = _search(side, value - SLACK, cost)
            mine = side.mine()
            ends.append(float(point.x[mine.index(strategy)]) if strategy in mine else 0.0)
        return min(max(ends[0], 0.0), 1.0), min(max(ends[1], 0.0), 1.0)


def _sides(oracle: PayoffOracle, matrix: _Matrix) -> tuple[_Side, _Side]:
    rows = _Side(
        mine=lambda: matrix.rows,
        theirs=lambda: matrix.columns,
        payoff=lambda: matrix.payoff,
        add=lambda mine, theirs: matrix.add(mine, theirs),
        check=oracle.best_rows if oracle.symmetric else oracle.best_columns,
        price=oracle.best_rows,
    )
    columns = _Side(
        mine=lambda: matrix.columns,
        theirs=lambda: matrix.rows,
        payoff=lambda: -matrix.payoff.T,
        add=lambda mine, theirs: matrix.add(theirs, mine),
        check=oracle.best_rows,
        price=oracle.best_columns,
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
    solution = search.solution()
    strategies = search.rows.strategies
    columns = strategies if oracle.symmetric else search.columns.strategies
    return canonical_pair_from(
        oracle,
        [*solution.row_strategies, *strategies],
        [*solution.column_strategies, *columns],
        solution.value,
    )


def canonical_pair_from(
    oracle: PayoffOracle, rows: Sequence[int], columns: Sequence[int], value: float
) -> CanonicalPair:
    """Both players' canonical strategies, the search started from ``rows`` and ``columns``.

    ``value`` is the game's value (oracle units); the sets need only hold
    some equilibrium's supports (a stored equilibrium's, say), the search
    adds what the canonical pair needs.

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
    matrix = _Matrix(oracle)
    rows_side, columns_side = _sides(oracle, matrix)
    rows = list(dict.fromkeys(int(i) for i in rows))
    columns = list(dict.fromkeys(int(j) for j in columns))
    if oracle.symmetric:
        rows = columns = list(dict.fromkeys([*rows, *columns]))
    matrix.add(rows, columns)
    row = _canonical(rows_side, value)
    column = row if oracle.symmetric else _canonical(columns_side, -value)
    search = FaceSearch((rows_side, columns_side), value, oracle.symmetric)
    return CanonicalPair(row, column, value, search)
