"""The exact payoff of two mixed strategies, every pair of arrangements at once.

Player 1's payoff is ``sum_ij p_i q_j u(a_i, b_j)``.  Scoring each pair in
:class:`~fractions.Fraction` arithmetic costs a few microseconds a pair;
here the comparisons are made in integers, all pairs of a block of rows at
once:

* at each position the packets of both strategies are ranked together
  (dense ranks of their comparison keys), so ``a``'s packet beats ``b``'s
  exactly when its rank is higher;
* ``u`` is the margin ``sum_p w_p sign(rank_a - rank_b)``, or for the win
  payoff ``1 + sign(margin)`` (win 2, draw 1, loss 0: half-units);
* the probabilities become integers over their common denominators ``P``
  and ``Q`` (``p_i = m_i / P``, ``q_j = n_j / Q``), and the value is the
  integer ``sum_i m_i (U n)_i`` over ``P Q`` (over ``2 P Q`` for win), with
  Python integers wherever an int64 could overflow.

The result is exact: no floating point enters.

>>> from solver.verify.checks import Game
>>> packets = (tuple(range(0, 5)), tuple(range(5, 10)))
>>> pure = [(Fraction(1), packets)]
>>> exact_value(Game((6, 7), False, False, False, "margin"), pure, pure)
Fraction(0, 1)
>>> exact_value(Game((6, 7), False, False, False, "win"), pure, pure)
Fraction(1, 2)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from solver.verify.checks import Game, Strategy

__all__ = ["exact_value"]

_BLOCK = 1 << 20  # pairs scored at once: bounds the memory of one block to a few MiB


def _ranks(game: Game, first: Strategy, second: Strategy) -> tuple[np.ndarray, np.ndarray]:
    """Each arrangement's packet rank at each position, both strategies ranked together."""
    n = len(game.points)
    mine = np.empty((len(first), n), dtype=np.int64)
    theirs = np.empty((len(second), n), dtype=np.int64)
    for position in range(n):
        keys = [game.key(a[position]) for _, a in first] + [
            game.key(b[position]) for _, b in second
        ]
        order = {key: rank for rank, key in enumerate(sorted(set(keys)))}
        ranks = np.array([order[key] for key in keys], dtype=np.int64)
        mine[:, position], theirs[:, position] = ranks[: len(first)], ranks[len(first) :]
    return mine, theirs


def _numerators(strategy: Strategy) -> tuple[list[int], int]:
    """The probabilities as integers over their least common denominator."""
    common = math.lcm(*(q.denominator for q, _ in strategy))
    return [q.numerator * (common // q.denominator) for q, _ in strategy], common


def _dot(matrix: np.ndarray, weights: Sequence[int]) -> list[int]:
    """``matrix @ weights`` exactly (int64 when no sum can overflow, else Python integers)."""
    largest = max(abs(w) for w in weights)
    if largest * int(np.abs(matrix).max(initial=0)) * len(weights) < 2**62:
        return (matrix @ np.array(weights, dtype=np.int64)).tolist()
    column: Any = np.array(weights, dtype=object)
    return list(matrix.astype(object) @ column)


def exact_value(game: Game, first: Strategy, second: Strategy) -> Fraction:
    """Player 1's exact payoff when ``first`` (player 1's strategy) meets ``second``."""
    mine, theirs = _ranks(game, first, second)
    points = np.array(game.points, dtype=np.int64)
    rows, row_weights_common = _numerators(first)
    columns, column_common = _numerators(second)
    step = max(1, _BLOCK // max(1, len(second)))
    total = 0
    for start in range(0, len(first), step):
        block = mine[start : start + step]
        margins = (np.sign(block[:, None, :] - theirs[None, :, :]) * points).sum(axis=2)
        payoffs = margins if game.payoff == "margin" else 1 + np.sign(margins)
        weighted = _dot(payoffs, columns)
        total += sum(m * w for m, w in zip(rows[start : start + step], weighted, strict=True))
    scale = row_weights_common * column_common * (1 if game.payoff == "margin" else 2)
    return Fraction(total, scale)
