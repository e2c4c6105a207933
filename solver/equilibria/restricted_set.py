"""One side's restricted set in double oracle: its strategies, pruning memory and best certificate.

Double oracle (:mod:`solver.equilibria.double_oracle`) keeps one per player
(one in a symmetric game).  Pruning drops a strategy only after it has gone
unused for :data:`PRUNE_MEMORY` iterations, and each strategy at most once: a
strategy dropped and then found again as a best response stays, so the
restricted sets cannot cycle and the search still ends.

>>> side = RestrictedSet(strategies=[4, 7, 9])
>>> side.kept(np.array([0.5, 0.0, 0.5]), fresh=0)  # positions: strategies 4 and 9
[0, 2]
>>> # 4 and 7 are in the set already; 1 beats the threshold (0.05), the others do not
>>> side.picks(BestResponses(np.array([0.0, 0.2, 0.0, 0.0, 0.9, 0.0, 0.0, 0.1])), 0.05, 2)
[1]
>>> checked_start([[3, 1], [0]], (4, 2))
([3, 1], [0])
>>> checked_start([[3, 1], []], (4, 4), symmetric=True)
([3, 1], [3, 1])
>>> checked_start([[3, 3], [0]], (4, 2))
Traceback (most recent call last):
    ...
solver.errors.SolverError: start: the rows' strategies must be distinct, got [3, 3]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from solver.equilibria.payoff_oracle import BestResponses
from solver.errors import SolverError

__all__ = ["PRUNE_MEMORY", "RestrictedSet", "checked_start"]

# A probability above this counts as used (LP solutions carry rounding dust).
_USED = 1e-12
# A best response is added only if it beats the restricted value by more
# than this (below it, the gain is rounding).
_GAIN = 1e-12
PRUNE_MEMORY = 5
"""Iterations a strategy must go unused before it may be dropped."""


@dataclass
class RestrictedSet:
    """One side's restricted set, its pruning memory and its best certificate."""

    strategies: list[int] = field(default_factory=list)
    recent: list[set[int]] = field(default_factory=list)  # used in the last iterations
    dropped: set[int] = field(default_factory=set)  # pruned once: never again
    bound: float = -np.inf  # best guarantee so far (lower for rows, -upper for columns)
    mixed: np.ndarray = field(default_factory=lambda: np.ones(1))  # ... and its strategy
    support: list[int] = field(default_factory=list)  # ... over this restricted set

    def improve(self, bound: float, mixed: np.ndarray) -> None:
        """Keep ``mixed`` (over the current set) if it guarantees more than the best so far."""
        if bound > self.bound:
            self.bound, self.mixed, self.support = bound, mixed, list(self.strategies)

    def kept(self, mixed: np.ndarray, fresh: int) -> list[int]:
        """Remember what ``mixed`` uses; the positions of the strategies pruning would keep."""
        self.recent.append({self.strategies[i] for i in np.flatnonzero(mixed > _USED)})
        del self.recent[:-PRUNE_MEMORY]
        used = set().union(*self.recent) | self.dropped
        newest = len(self.strategies) - fresh
        return [k for k, s in enumerate(self.strategies) if s in used or k >= newest]

    def dropped_before(self) -> np.ndarray:
        """Whether each strategy was dropped once already (it is never dropped again)."""
        return np.array([s in self.dropped for s in self.strategies], dtype=bool)

    def picks(self, responses: BestResponses, threshold: float, per_iteration: int) -> list[int]:
        """Up to ``per_iteration`` best responses outside the set that beat ``threshold``."""
        taken = set(self.strategies)
        ids, values = responses.best(len(self.strategies) + per_iteration)
        picks = [
            int(s)
            for s, v in zip(ids.tolist(), values.tolist(), strict=True)
            if int(s) not in taken and v > threshold + _GAIN
        ]
        return picks[:per_iteration]


def checked_start(
    start: Sequence[Sequence[int]], sizes: tuple[int, int], symmetric: bool = False
) -> tuple[list[int], list[int]]:
    """The rows' and the columns' first strategies, checked: distinct ids within each side's size.

    A symmetric game's columns are its rows (the second list is not read).
    """
    if len(start) != 2:
        raise SolverError(
            f"start: expected rows and columns, got {len(start)} lists", argument="start"
        )
    sides: list[list[int]] = []
    for name, ids, size in zip(("rows", "columns"), start, sizes, strict=True):
        ids = sides[0] if symmetric and sides else [int(i) for i in ids]
        if not ids:
            raise SolverError(f"start: no strategy for the {name}", argument="start")
        if len(set(ids)) != len(ids):
            raise SolverError(
                f"start: the {name}' strategies must be distinct, got {ids}", argument="start"
            )
        if any(not 0 <= i < size for i in ids):
            raise SolverError(
                f"start: the {name}' strategies must be in 0..{size - 1}", argument="start"
            )
        sides.append(ids)
    return sides[0], sides[1]
