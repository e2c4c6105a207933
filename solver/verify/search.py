"""An exact best response to a mixed strategy: a search over the classes of packets.

Against the other player's mixed strategy ``y = {(q_j, b_j)}`` an
arrangement ``a`` meets ``b_j`` with the margin
``M_j(a) = sum_p w_p sign(key(a_p) - key(b_j[p]))`` and earns
``V(a) = sum_j q_j g(M_j(a))``: ``g`` is the identity (margin payoff) or 1,
1/2, 0 for a positive, zero, negative margin (win payoff; player 2 counts its
own win, one minus player 1's payoff).  :func:`search_bound` proves
``max_a V(a) <= claim`` or finds an arrangement beating the claim.

**Classes.**  Only the comparisons of ``a_p`` with the keys the other plays at
``p`` matter: at position ``p`` a packet's *class* is
``2 (number of those keys below it) + (1 if it equals one)``, one of at most
``2 k_p + 1`` (``k_p`` distinct keys).  ``V`` is a function of the vector of
classes, non-decreasing in each (a stronger packet wins or ties more), and
the packets of class at least ``c`` at ``p`` are a prefix of the holding's
packets sorted strongest first.

**The search.**  Positions are taken heaviest first.  A node fixes the class
of the packet at each of the first positions (exactly: a range of the sorted
packets).  It is explored only if

* *feasible*: disjoint packets of the holding have these classes (a
  depth-first search, fewest candidates first, packets of interchangeable
  positions in increasing order; when the packets must cover the holding, a
  card no candidate holds ends the branch); and
* its optimistic value exceeds the claim.  The packets still to place,
  sorted strongest first, are bounded slot by slot: the ``i``-th strongest is
  no stronger than packet ``N_i - 1``, where ``N_i`` is the shortest prefix of
  the sorted packets that holds ``i`` disjoint packets beside packets of the
  fixed classes (any ``i`` strongest packets still to place are such packets,
  so the weakest of them lies at ``N_i - 1`` or later; a binary search, a
  longer prefix never failing where a shorter one succeeds).  Every ordering
  of the slots over the positions left gives each position a *cap*, the class
  there of its slot's packet ``N_i - 1``; the optimistic value is the largest,
  over the orderings, of ``V`` with the fixed classes and every later position
  at its cap.  Slots are searched one at a time, and a node stops as soon as
  its caps so far show it cannot beat the claim (a slot not yet searched takes
  the last one's cap, which is looser); and
* *not dominated*: some ordering's optimistic class vector is not at most,
  position by position, a class vector already reached at the last position
  (which did not beat the claim: by monotonicity neither does anything below it).

At a position the classes are tried from the highest reached down; the
optimistic values fall and the optimistic vectors shrink, so the first class
that fails either test ends the loop.  At the last position the highest class
reached is taken: if it beats the claim its packets are a witness, else its
class vector is remembered for the dominance test.

**Why "none found" is a proof.**  Let ``a`` beat the claim, with classes
``x``.  At each depth but the last, ``a``'s packets still to place, sorted,
take the slots in some ordering, and each is at most its slot's cap, so the
optimistic value of that ordering with ``x_p`` here is at least
``V(x) > claim``; that vector is at least ``x``, which no remembered vector
(none beats the claim) dominates; and ``a`` makes the child feasible.  So the
search descends along ``x`` to the last position, where the highest class
reached is at least ``x_n`` and beats the claim: a witness is returned.
Hence when none is, no arrangement beats the claim.

**Exactness.**  Probabilities are integers over their common denominator
``D``, and values integers (margins, or ``2 g`` for the win payoff) compared
with the integer part of the claim in the same units: no rounding anywhere.
They are numpy int64 when ``D`` times the largest value fits (the solver's
certificates have ``D <= 10^12``), Python integers otherwise.  The caller
scores a witness again in exact fractions.

>>> rank = lambda packet: tuple(sorted((c // 4 for c in packet), reverse=True))
>>> pure = [(Fraction(1), ((0, 1, 2, 3, 4), (5, 6, 7, 8, 9)))]
>>> search_bound([6, 7], "win", range(10), pure, Fraction(1, 2), key=rank).status
'checked'
>>> search_bound([6, 7], "win", range(10), pure, Fraction(1, 3), key=rank).status
'refuted'
>>> search_bound([6, 7], "draw", range(10), pure, Fraction(0), key=rank)
Traceback (most recent call last):
    ...
ValueError: payoff 'draw' is not margin or win
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations
from typing import Any

import numpy as np

from solver.verify.packing import Limits, Packets, Packings, Problem, Rows

__all__ = ["Search", "search_bound"]

_REPORT_EVERY = 2.0
"""Seconds between progress lines."""


@dataclass(frozen=True)
class Search:
    """What a search established.

    ``status`` is ``"checked"`` (no arrangement beats the claim: proven),
    ``"refuted"`` (``witness`` beats it by the search's integers; the caller
    scores it again) or ``"unfinished"`` (the deadline came first).  ``nodes``
    counts class vectors explored, ``feasibility`` the packings searched.
    """

    status: str
    witness: Packets | None
    nodes: int
    feasibility: int
    seconds: float


class _DeadlineError(Exception):
    pass


def search_bound(
    points: Sequence[int],
    payoff: str,
    cards: Iterable[int],
    opponent: Sequence[tuple[Fraction, Packets]],
    claim: Fraction,
    *,
    key: Callable[[tuple[int, ...]], Any],
    deadline: float | None = None,
    progress: Callable[[str], None] | None = None,
    label: str = "bound",
) -> Search:
    """Whether some arrangement of ``cards`` earns more than ``claim`` against ``opponent``.

    ``claim`` is in the searching player's own terms (its margin, or its win
    probability with draws counting 1/2); ``key`` ranks packets (larger is
    stronger); ``deadline`` is a :func:`time.monotonic` time; ``progress``
    receives a line before the search and then at most every two seconds.
    """
    if payoff not in ("margin", "win"):
        raise ValueError(f"payoff {payoff!r} is not margin or win")
    started = time.monotonic()
    search = _Classes(Problem(points, payoff, cards, opponent, key), points, claim)
    search.deadline, search.progress, search.label = deadline, progress, label
    if progress is not None:
        sizes = "/".join(str(search.levels[d][0].size) for d in range(len(points)))
        progress(
            f"{label}: {len(search.problem.packets)} packets against {len(opponent)} "
            f"arrangements, {sizes} classes per position (heaviest first): at most "
            f"{math.prod(search.levels[d][0].size for d in range(len(points) - 1))} "
            "class vectors, far fewer explored"
        )
    try:
        found = search.node(0, np.zeros_like(search.problem.tables[0][0]), ())
    except _DeadlineError:
        found, status = None, "unfinished"
    else:
        status = "checked" if found is None else "refuted"
    return Search(status, found, search.nodes, search.packings.checks, time.monotonic() - started)


class _Classes:
    """The search over class vectors (see the module)."""

    def __init__(self, problem: Problem, points: Sequence[int], claim: Fraction) -> None:
        self.problem = problem
        self.threshold = math.floor(claim * (2 if problem.win else 1) * problem.common)
        self.order = sorted(range(len(points)), key=lambda p: -points[p])  # heaviest first
        self.levels = [problem.levels(p) for p in self.order]
        # Per depth, where the class of a later position changes in the sorted list: a
        # prefix's end matters only up to these (between two, every class is the same).
        self.bounds = [
            np.unique(np.concatenate([self.levels[d][1] for d in range(depth, len(points))]))
            for depth in range(len(points))
        ]
        self.perms = {r: np.array(list(permutations(range(r)))) for r in range(1, len(points) + 1)}
        self.deadline: float | None = None
        # Class vectors (depth order) reached at the last depth, none beating the claim.
        self._found = Rows(len(self.order))
        self.packings = Packings(problem, self.order, self.tick)
        self.progress: Callable[[str], None] | None = None
        self.label = ""
        self.nodes = 0
        self.last = time.monotonic()
        self.done = self.total = 0

    def tick(self) -> None:
        now = time.monotonic()
        if self.deadline is not None and now > self.deadline:
            raise _DeadlineError
        if self.progress is not None and now - self.last >= _REPORT_EVERY:
            self.last = now
            self.progress(
                f"{self.label}: {self.done}/{self.total} classes of the first position done, "
                f"{self.nodes} class vectors, {self.packings.checks} packings searched"
            )

    def node(
        self, depth: int, partial: np.ndarray, limits: Limits, fixed: tuple[int, ...] = ()
    ) -> Packets | None:
        """A witness meeting ``limits`` (the packets of the classes ``fixed`` at the first
        depths) and more, or None."""
        self.nodes += 1
        self.tick()
        if limits and self.packings.packing(limits) is None:  # no packets of these exact classes
            return None
        problem, n = self.problem, len(self.order)
        position = self.order[depth]
        classes, counts = self.levels[depth]
        table = problem.tables[position]
        # The sorted-slot caps: the i-th strongest of the packets still to place is no
        # stronger than packet ``ends[i] - 1`` (see the module), so the class of the packet
        # a position gets is at most the class there of the slot it takes.
        if depth == n - 1:  # the highest class reached: a witness if it beats the claim
            top = int(self.caps(limits, depth, 1)[0][0])
            if problem.value(partial + table[top]) > self.threshold:
                return self.packings.packing((*limits, (0, int(counts[classes == top][0]))))
            self._found.add(np.array((*fixed, top)))  # reached, and no better than the claim
            return None
        perms = self.perms[n - depth]  # slot taken by each remaining depth, per ordering
        # Slots are computed one at a time (a later slot costs more packings): a node whose
        # highest class fails with fewer slots' caps fails with all of them.
        for slots in range(1, n - depth + 1):
            caps = self.caps(limits, depth, slots)  # per remaining depth: class per slot
            later = np.stack([caps[k][perms[:, k]] for k in range(1, n - depth)], axis=1)
            rest = np.zeros((perms.shape[0], partial.size), dtype=partial.dtype)
            for k in range(1, n - depth):
                rest = rest + problem.tables[self.order[depth + k]][later[:, k - 1]]
            cap_here = caps[0][perms[:, 0]]
            start = int(np.searchsorted(-classes, -cap_here.max()))  # the highest class reached
            here = np.minimum(classes[start], cap_here)
            if not (problem.value(partial + table[here] + rest) > self.threshold).any():
                return None
            if self.dominated(fixed, here, later):
                return None
        if depth == 0:
            self.total = classes.size - start
        for i in range(start, classes.size):
            here = np.minimum(classes[i], cap_here)
            if not (problem.value(partial + table[here] + rest) > self.threshold).any():
                break  # lower classes earn no more: none beats the claim
            if self.dominated(fixed, here, later):
                break  # lower classes only lower the bounds: all dominated too
            exact = (int(counts[i - 1]) if i else 0, int(counts[i]))  # the packets of class i
            found = self.node(
                depth + 1, partial + table[classes[i]], (*limits, exact), (*fixed, int(classes[i]))
            )
            if found is not None:
                return found
            if depth == 0:
                self.done += 1
        return None

    def dominated(self, fixed: tuple[int, ...], here: np.ndarray, later: np.ndarray) -> bool:
        """Whether every optimistic class vector (one per ordering of the slots) is at most,
        position by position, a vector reached before that earned no more than the claim."""
        found = self._found.rows()
        if not found.shape[0]:
            return False
        head = np.broadcast_to(np.array(fixed, dtype=np.int32), (here.size, len(fixed)))
        vectors = np.column_stack([head, here, later])  # (orderings, depths)
        below = np.all(found[None, :, :] >= vectors[:, None, :], axis=2)
        return bool(np.all(np.any(below, axis=1)))

    def caps(self, limits: Limits, depth: int, slots: int) -> list[np.ndarray]:
        """Per remaining depth, the class there of each sorted slot's weakest possible packet.

        Slot ``i`` (0-based) ends at ``N``, the shortest prefix of the sorted packets holding
        ``i + 1`` disjoint packets that, with packets meeting ``limits``, leave a packing:
        the ``i + 1`` strongest packets still to place are such packets, so the weakest of
        them is packet ``N - 1`` or weaker.  ``N`` grows with ``i``; each is a binary search
        over the ends of the groups of equal strength, feasibility being monotone.  Only the
        first ``slots`` are searched; the later ones get the last one's (a looser) cap."""
        remaining = len(self.order) - depth
        bounds = self.bounds[depth]
        ends, low = [], 0
        for slot in range(slots):
            free: Limits = ((0, 0),) * (depth - len(limits))
            high = bounds.size - 1  # every packet: always feasible when limits are
            while low < high:
                middle = (low + high) // 2
                wanted = ((0, int(bounds[middle])),) * (slot + 1)
                if self.packings.packing((*limits, *free, *wanted)) is None:
                    low = middle + 1
                else:
                    high = middle
            ends.append(int(bounds[low]) - 1)
        weakest = np.array(ends + ends[-1:] * (remaining - slots))
        return [self.problem.classes[self.order[d]][weakest] for d in range(depth, len(self.order))]
