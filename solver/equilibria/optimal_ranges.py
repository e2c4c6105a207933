"""How much an optimal strategy's probabilities may vary: ranges over the whole game's optimal face.

A player's optimal strategies in a zero-sum game of value ``v`` form the
polytope ``P = {x in simplex : u(x, b) >= v for every opponent strategy b}``
over *every* frontier strategy.  When ``P`` is one point the optimal
strategy is unique; otherwise strategy ``i``'s probability ranges over
``[min_P x_i, max_P x_i]``.  Each end is a linear program over the whole
game, solved by the same column-and-constraint generation as the canonical
strategy (:mod:`solver.equilibria.canonical`) with ``x_i`` (or ``-x_i``) as
the cost, continued from where the canonical search ended.

Why the whole game and not the double oracle's final restricted game: the
restricted game depends on the solver's path (a stored equilibrium has
none), so ranges over it did too, by up to 0.3 in probability between a
solve and the same equilibrium read back from the book, and with them the
report's "this one is / is not unique" (measured on mirror and independent
margin deals 0-3).  Over the whole game both are properties of the deal.

In a symmetric game (a mirror deal) each end is found as the canonical
strategy is, with ``v`` a variable weighted in the objective (so that
rounding in ``v`` cannot make the face empty), on the warm simplex started
from the canonical pair: the ends are the optimal face's to rounding.
Otherwise, or if the simplex gives up, GLOP solves over the face at
``v - `` :data:`~solver.equilibria.canonical.SLACK`, exact to about that
much times the probability's slope in ``v`` (the two differed by up to 1.1e-6 on
reduced mirror deals of the tests; see
:meth:`~solver.equilibria.canonical.FaceSearch.probability_range` for why
not every game).

>>> from solver.equilibria.canonical import canonical_pair_from
>>> from solver.equilibria.double_oracle import MatrixOracle
>>> game = MatrixOracle(np.array([[1.0, 1.0], [1.0, 1.0], [0.0, 2.0]]))
>>> pair = canonical_pair_from(game, [0], [0, 1], 1.0)
>>> [(round(lo, 6), round(hi, 6)) for lo, hi in face_ranges(pair, 0).values()]
[(0.0, 1.0)]
>>> face_ranges(pair, 2)
Traceback (most recent call last):
    ...
solver.errors.SolverError: player must be 0 (rows) or 1 (columns), got 2
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import SolverError

if TYPE_CHECKING:
    from solver.equilibria.canonical import CanonicalPair
    from solver.models.mixture import Mixture

__all__ = ["RANGED", "face_ranges", "ranged_mixture", "shared_ranges"]

RANGED = 10
"""Ranges are computed for this many of a strategy's most likely arrangements
(two searches each): as many as a report shows by default."""


def face_ranges(pair: CanonicalPair, player: int) -> dict[int, tuple[float, float]]:
    """``(min, max)`` probability of ``player``'s :data:`RANGED` most likely strategies, by id.

    Parameters
    ----------
    pair
        A canonical pair with its search (:func:`~solver.equilibria.canonical.canonical_pair_from`).
    player
        0 for the row player, 1 for the column player.

    Returns
    -------
    dict
        Strategy id to its range over the player's optimal face in the whole
        game; empty when a search does not converge (the strategy stands,
        without ranges).
    """
    if player not in (0, 1):
        raise SolverError(f"player must be 0 (rows) or 1 (columns), got {player}")
    if pair.search is None:
        raise SolverError("the pair has no search to continue")
    strategy = pair.row if player == 0 else pair.column
    kept = np.flatnonzero(strategy.probabilities > 1e-12)
    top = kept[np.argsort(-strategy.probabilities[kept], kind="stable")[:RANGED]].tolist()
    ids = [strategy.strategies[k] for k in top]
    try:
        return {i: pair.search.probability_range(player, i) for i in ids}
    except SolverError:
        return {}


def ranged_mixture(
    player: Any, pair: CanonicalPair, side: int, ranges: bool = True
) -> tuple[Mixture, tuple[tuple[float, float] | None, ...]]:
    """One side of a canonical pair as arrangements, and their ranges (:func:`face_ranges`).

    ``player`` is the side's player of the :class:`~solver.equilibria.frontier_game.FrontierGame`
    (its frontier gives each strategy's arrangement); the ranges follow the
    mixture's order, None where not computed, and are empty when a search
    did not converge (or not asked for: ``ranges=False``).

    >>> from solver.equilibria.canonical import canonical_pair
    >>> from solver.equilibria.equilibrium import DealDoubleOracle
    >>> from solver.game.deal import deal
    >>> from solver.game.rules import Rules
    >>> rules = Rules(position_points=(6, 7))
    >>> search = DealDoubleOracle(*deal(seed=4, rules=rules).holdings, rules)
    >>> _ = list(search.iterations())
    >>> pair = canonical_pair(search.game, search)
    >>> mixture, ranges = ranged_mixture(search.game.rows, pair, 0)
    >>> len(mixture.arrangements) == len(ranges)
    True
    >>> ranged_mixture(search.game.rows, pair, 2)
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: player must be 0 (rows) or 1 (columns), got 2
    """
    found = face_ranges(pair, side) if ranges else {}
    strategy = pair.row if side == 0 else pair.column
    kept = np.flatnonzero(strategy.probabilities > 1e-12)
    mixture, ids, shares = player.realize(
        [strategy.strategies[k] for k in kept], strategy.probabilities[kept]
    )
    return mixture, shared_ranges(found, ids, shares)


def shared_ranges(
    found: dict[int, tuple[float, float]], ids: list[int], shares: np.ndarray
) -> tuple[tuple[float, float] | None, ...]:
    """Each arrangement's range: its strategy's, times the arrangement's share of it.

    A deal with suit automorphisms shows a strategy as its distinct images,
    each an equal share of its probability (the symmetrized vertex,
    :mod:`solver.equilibria.frontier_game`): the range is then over the
    symmetrized optimal strategies, which split every strategy so.

    >>> shared_ranges({7: (0.2, 0.6)}, [7, 7, 9], np.array([0.5, 0.5, 1.0]))
    ((0.1, 0.3), (0.1, 0.3), None)
    >>> shared_ranges({7: (0.2, 0.6)}, [7], np.array([0.5, 0.5]))
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: shares: one per arrangement, got 2 for 1
    """
    if len(ids) != shares.shape[0]:
        raise SolverError(
            f"shares: one per arrangement, got {shares.shape[0]} for {len(ids)}",
            argument="shares",
        )
    if not found:
        return ()
    ranges = []
    for i, share in zip(ids, shares.tolist(), strict=True):
        got = found.get(i)
        ranges.append(None if got is None else (got[0] * share, got[1] * share))
    return tuple(ranges)
