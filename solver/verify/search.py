"""An exact best response to a mixed strategy: branch and bound over positions.

Against the other player's mixed strategy ``y = {(q_j, b_j)}`` my
arrangement ``a`` meets ``b_j`` with my margin
``M_j(a) = sum_p w_p sign(key(a_p) - key(b_j[p]))`` and earns
``V(a) = sum_j q_j g(M_j(a))``, where ``g`` is the identity (margin payoff)
or 1, 1/2, 0 for a positive, zero, negative margin (win payoff; for player 2
its own win, one minus player 1's payoff).  The search proves
``max_a V(a) <= claim`` or finds an ``a`` beating it.

**Why the pruning is valid.**  ``sign(key(a_p) - key(b_j[p]))`` is
non-decreasing in ``key(a_p)``, and ``g`` is non-decreasing, so ``V`` is
non-decreasing in the key of each position's packet.  Positions are filled
heaviest first; at a node some positions hold packets and the cards ``R``
are left for the others.  Every packet the other positions can receive is a
subset of ``R``, so its key is at most ``top(R)``, the strongest packet
within ``R``.  Giving every unfilled position ``top(R)`` (a packet it could
not have everywhere at once) therefore yields a value at least that of every
arrangement below the node: the node's *optimistic bound*.  A node whose
bound is at most the claim holds no arrangement beating it and is not
searched.  ``top(R)`` is found in the packets sorted strongest first: the
first one within ``R``; when it is not among the first few candidates looked
at, the weakest of those is used, whose key is at least ``top(R)``'s (a
weaker bound, still valid).  What survives is searched to complete
arrangements, each scored exactly.

**Exactness.**  Probabilities are integers over their common denominator
``D`` (``Q_j = q_j D``) and payoffs integers (margins, or ``2 g`` for the win
payoff), so every bound and every value is an integer compared with the
integer part of the claim in the same units: no rounding anywhere.  Integers
are numpy int64 when ``D`` times the largest value fits (always, for the
solver's certificates, whose ``D`` is at most ``10^12``), Python integers
otherwise.  A witness is returned as an arrangement for the caller to score
again in exact fractions.

**Grouping.**  Only the comparison of a packet with the other's keys at a
position matters: the packets fall at position ``p`` into at most ``2 k_p + 1``
classes (below, equal to, or between the ``k_p`` distinct keys the other plays
there), each with one row of signs.  Bounds are computed once per distinct
pair (class of the child's packet, optimistic packet of what is left).  For
the margin payoff the value is a sum over positions and each class is one
number.

>>> search_bound([6, 7], "win", list(range(10)), [(Fraction(1), ((0, 1, 2, 3, 4), (5, 6, 7, 8, 9)))],
...     Fraction(1, 2), key=lambda p: tuple(sorted((c // 4 for c in p), reverse=True))).status
'checked'
>>> search_bound([6, 7], "draw", [], [], Fraction(0), key=len)
Traceback (most recent call last):
    ...
ValueError: payoff 'draw' is not margin or win
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any

import numpy as np

__all__ = ["Search", "search_bound"]

Packets = tuple[tuple[int, ...], ...]

_LOOKAHEAD = 48
"""Candidates scanned for the strongest packet left after a child (see the module)."""
_CHUNK = 512
"""Candidates searched for two disjoint packets (see :func:`_second`)."""
_REPORT_EVERY = 2.0
"""Seconds between progress lines."""


@dataclass(frozen=True)
class Search:
    """What a search established.

    ``status`` is ``"checked"`` (no arrangement beats the claim: proven),
    ``"refuted"`` (``witness`` beats it, by the search's integers: the caller scores
    it again) or ``"unfinished"`` (the time ran out first).  ``nodes`` counts the
    partial arrangements looked at, ``arrangements`` the complete ones scored.
    """

    status: str
    witness: Packets | None
    nodes: int
    arrangements: int
    seconds: float


class _Timeout(Exception):
    pass


class _Clock:
    """The deadline, and a progress line at most every :data:`_REPORT_EVERY` seconds."""

    def __init__(
        self, deadline: float | None, progress: Callable[[str], None] | None, label: str
    ) -> None:
        self.deadline, self.progress, self.label = deadline, progress, label
        self.started = self.last = time.monotonic()
        self.done, self.total = 0, 1

    def tick(self, nodes: int) -> None:
        now = time.monotonic()
        if self.deadline is not None and now > self.deadline:
            raise _Timeout
        if self.progress is not None and now - self.last >= _REPORT_EVERY:
            self.last = now
            self.progress(
                f"{self.label}: {self.done}/{self.total} first-position branches done, "
                f"{nodes} nodes, {now - self.started:.0f} s"
            )


class _Problem:
    """The holding's packets sorted strongest first, their classes and the sign tables."""

    def __init__(
        self,
        points: Sequence[int],
        payoff: str,
        cards: Sequence[int],
        opponent: Sequence[tuple[Fraction, Packets]],
        key: Callable[[tuple[int, ...]], Hashable],
    ) -> None:
        n = len(points)
        packets = list(combinations(sorted(cards), 5))
        keys = [key(p) for p in packets]
        theirs = [[key(b[p]) for _, b in opponent] for p in range(n)]
        everything: list[Any] = sorted(set(keys).union(*map(set, theirs)))
        dense = {k: i for i, k in enumerate(everything)}
        mine = np.array([dense[k] for k in keys], dtype=np.int64)
        order = np.argsort(-mine, kind="stable")  # strongest first
        self.packets = [packets[i] for i in order.tolist()]
        mine = mine[order]
        slot = {c: i for i, c in enumerate(sorted(cards))}
        self.masks = np.array([sum(1 << slot[c] for c in p) for p in self.packets], dtype=np.int64)
        self.by_mask = np.argsort(self.masks)
        common = math.lcm(*(q.denominator for q, _ in opponent))
        self.weights = [q.numerator * (common // q.denominator) for q, _ in opponent]
        self.win = payoff == "win"
        self.common = common
        # Each position's class of every packet, and the class's row of weighted signs.
        self.classes: list[np.ndarray] = []
        self.tables: list[np.ndarray] = []
        for p, w in enumerate(points):
            ranks = np.array([dense[k] for k in theirs[p]], dtype=np.int64)
            distinct = np.unique(ranks)
            below = np.searchsorted(distinct, mine, side="left")
            equal = np.searchsorted(distinct, mine, side="right") > below
            self.classes.append(2 * below + equal)
            at = np.searchsorted(distinct, ranks)  # (m,) index of each b_j's key
            lt, eq = np.divmod(np.arange(2 * len(distinct) + 1), 2)
            signs = np.where(
                at[None, :] < lt[:, None], 1, np.where((at[None, :] == lt[:, None]) & (eq[:, None] == 1), 0, -1)
            )
            self.tables.append(w * signs)
        largest = 2 * common if self.win else common * sum(points)
        self.dtype: Any = np.int64 if largest < 2**62 else object
        q = np.array(self.weights, dtype=self.dtype)
        if not self.win:
            # The margin is a sum over positions: one number per class.
            self.tables = [(t.astype(self.dtype) @ q).reshape(-1, 1) for t in self.tables]
            self.q = np.ones(1, dtype=self.dtype)
        else:
            self.tables = [t.astype(self.dtype) for t in self.tables]
            self.q = q

    def value(self, margins: np.ndarray) -> np.ndarray:
        """Integer values of rows of margins (units ``1/(2D)`` for win, ``1/D`` for margin)."""
        if self.win:
            margins = (np.sign(margins) + 1).astype(self.dtype)
        return margins @ self.q

    def complement(self, masks: np.ndarray) -> np.ndarray:
        """The packet indices of the given masks."""
        return self.by_mask[np.searchsorted(self.masks[self.by_mask], masks)]


def search_bound(
    points: Sequence[int],
    payoff: str,
    cards: Sequence[int],
    opponent: Sequence[tuple[Fraction, Packets]],
    claim: Fraction,
    *,
    key: Callable[[tuple[int, ...]], Hashable],
    deadline: float | None = None,
    progress: Callable[[str], None] | None = None,
    label: str = "bound",
) -> Search:
    """Whether some arrangement of ``cards`` earns more than ``claim`` against ``opponent``.

    ``claim`` is in the searching player's own terms: its margin, or its win
    probability (draws count 1/2).  ``key`` ranks packets (larger is
    stronger).  ``deadline`` is a :func:`time.monotonic` time.  See the module.
    """
    if payoff not in ("margin", "win"):
        raise ValueError(f"payoff {payoff!r} is not margin or win")
    started = time.monotonic()
    problem = _Problem(points, payoff, cards, opponent, key)
    scale = 2 * problem.common if problem.win else problem.common
    threshold = math.floor(claim * scale)  # an integer value beats the claim iff it exceeds this
    order = sorted(range(len(points)), key=lambda p: -points[p])  # heaviest first
    clock = _Clock(deadline, progress, label)
    state = {"nodes": 0, "arrangements": 0}
    m = problem.tables[0].shape[1]
    partial = np.zeros(m, dtype=problem.dtype)
    everything = np.arange(len(problem.packets))
    full = int(np.bitwise_or.reduce(problem.masks))
    try:
        found = _node(problem, order, 0, full, everything, partial, threshold, clock, state, True)
    except _Timeout:
        return Search("unfinished", None, state["nodes"], state["arrangements"], _since(started))
    status = "checked" if found is None else "refuted"
    return Search(status, found, state["nodes"], state["arrangements"], _since(started))


def _since(started: float) -> float:
    return time.monotonic() - started


def _node(
    problem: _Problem,
    order: list[int],
    depth: int,
    left: int,
    candidates: np.ndarray,
    partial: np.ndarray,
    threshold: int,
    clock: _Clock,
    state: dict[str, int],
    root: bool,
) -> Packets | None:
    """A witness beating ``threshold`` below this node, or None (proven: none)."""
    state["nodes"] += 1
    clock.tick(state["nodes"])
    n = len(order)
    position = order[depth]
    masks = problem.masks
    if depth == n - 1:  # one packet left: the cards themselves
        last = problem.complement(np.array([left], dtype=np.int64))
        state["arrangements"] += 1
        margins = partial + problem.tables[position][problem.classes[position][last]]
        if int(problem.value(margins)[0]) > threshold:
            return _witness({position: int(last[0])}, problem, n)
        return None
    mine = problem.tables[position][problem.classes[position][candidates]]  # (c, m)
    if depth == n - 2:  # the last position takes the rest: score every split exactly
        rest = order[n - 1]
        other = problem.complement(left ^ masks[candidates])
        margins = partial + mine + problem.tables[rest][problem.classes[rest][other]]
        values = problem.value(margins)
        state["arrangements"] += len(candidates)
        best = int(np.argmax(values))
        if int(values[best]) > threshold:
            return _witness({position: int(candidates[best]), rest: int(other[best])}, problem, n)
        return None
    # The strongest packet within what each child leaves (see the module).
    head = candidates[:_LOOKAHEAD]
    apart = (masks[candidates][:, None] & masks[head][None, :]) == 0
    first = apart.argmax(axis=1)
    top = np.where(apart.any(axis=1), head[first], head[-1])
    # Only one of the other positions can get it: the rest are at most the second level.
    second = np.maximum(top, _second(problem, candidates))
    rest = order[depth + 1 :]
    size = len(problem.packets)
    combo = (problem.classes[position][candidates] * size + top) * size + second
    distinct, inverse = np.unique(combo, return_inverse=True)
    cls, tops = np.divmod(distinct, size * size)
    tops, seconds = np.divmod(tops, size)
    margins = partial + problem.tables[position][cls]
    gain = None
    for p in rest:
        low = problem.tables[p][problem.classes[p][seconds]]
        margins = margins + low
        extra = problem.tables[p][problem.classes[p][tops]] - low
        gain = extra if gain is None else np.maximum(gain, extra)
    bounds = problem.value(margins + gain)[inverse.ravel()]
    alive = np.nonzero(bounds > threshold)[0]
    alive = alive[np.argsort(-bounds[alive], kind="stable")]
    if root:
        clock.total = len(alive)
    del mine
    for i in alive.tolist():
        chosen = int(candidates[i])
        taken = masks[chosen]
        below = candidates[(masks[candidates] & taken) == 0]
        found = _node(
            problem,
            order,
            depth + 1,
            left ^ int(taken),
            below,
            partial + problem.tables[position][problem.classes[position][chosen]],
            threshold,
            clock,
            state,
            False,
        )
        if found is not None:
            packets = list(found)
            packets[position] = problem.packets[chosen]
            return tuple(packets)
        if root:
            clock.done += 1
    return None


def _second(problem: _Problem, candidates: np.ndarray) -> int:
    """An index into the sorted packets at most as strong as two disjoint packets can both be.

    The first candidate disjoint from an earlier one; if none is among the first
    :data:`_CHUNK`, the last of those (weaker or equal: a valid, looser level).
    """
    head = problem.masks[candidates[:_CHUNK]]
    apart = np.tril((head[:, None] & head[None, :]) == 0, k=-1).any(axis=1)
    found = np.nonzero(apart)[0]
    return int(candidates[found[0] if found.size else len(head) - 1])


def _witness(chosen: dict[int, int], problem: _Problem, n: int) -> Packets:
    """An arrangement with the chosen positions filled (the others filled by callers)."""
    return tuple(problem.packets[chosen[p]] if p in chosen else () for p in range(n))
