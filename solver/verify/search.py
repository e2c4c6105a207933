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
  depth-first search, fewest candidates first; the cards left over can always
  be split into packets); and
* its optimistic value exceeds the claim: ``V`` of the fixed classes, with
  every later position at the highest class it *reaches*, the highest ``t``
  such that disjoint packets have the fixed classes and one of class at least
  ``t`` there (a binary search: a packet of class at least ``t`` has class at
  least every lower one, so reaching is monotone).  By monotonicity no
  arrangement below the node earns more.

At a position the classes are tried from the highest reached down; the
optimistic values fall, so the first one at most the claim ends the loop.
At the last position a *threshold* is enough: only the lowest class whose
value exceeds the claim is tested, as "class at least that": if no packets
meet it none meet a higher one, and if some do, they earn more than the
claim (monotonicity): a witness.

**Why "none found" is a proof.**  Let ``a`` beat the claim, with classes
``x``.  At each depth but the last, ``x_p`` is reached (``a`` meets the fixed
classes and has ``x_p`` there), passes the value test (the optimistic value
is at least ``V(x) > claim``) and its child is feasible (``a`` again), so the
search descends along ``x`` to the last position, where the lowest beating
threshold is at most ``x_n`` and ``a`` meets it: a witness is returned.
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
from itertools import combinations
from typing import Any

import numpy as np

__all__ = ["Search", "search_bound"]

Packets = tuple[tuple[int, ...], ...]
Limits = tuple[tuple[int, int], ...]
"""Per depth, the range of the sorted packets allowed there; ``(0, 0)``: any."""

_UNKNOWN = "unknown"
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


class _Problem:
    """The holding's packets sorted strongest first, their classes and sign tables."""

    def __init__(
        self,
        points: Sequence[int],
        payoff: str,
        cards: Iterable[int],
        opponent: Sequence[tuple[Fraction, Packets]],
        key: Callable[[tuple[int, ...]], Any],
    ) -> None:
        packets = list(combinations(sorted(cards), 5))
        keys = [key(p) for p in packets]
        theirs = [[key(b[p]) for _, b in opponent] for p in range(len(points))]
        dense = {k: i for i, k in enumerate(sorted(set(keys).union(*map(set, theirs))))}
        strength = np.array([dense[k] for k in keys], dtype=np.int64)
        order = np.argsort(-strength, kind="stable")  # strongest first
        self.packets = [packets[i] for i in order.tolist()]
        strength = strength[order]
        slot = {c: i for i, c in enumerate(sorted({c for p in packets for c in p}))}
        self.masks = [sum(1 << slot[c] for c in p) for p in self.packets]
        self.index = {mask: i for i, mask in enumerate(self.masks)}
        self.array = np.array(self.masks, dtype=np.int64)
        self.full = (1 << len(slot)) - 1
        self.by_mask = np.argsort(self.array)
        self.sorted_masks = self.array[self.by_mask]
        self.common = math.lcm(*(q.denominator for q, _ in opponent))
        self.win = payoff == "win"
        largest = (2 if self.win else sum(points)) * self.common
        self.dtype: Any = np.int64 if largest < 2**62 else object
        q = np.array([q.numerator * (self.common // q.denominator) for q, _ in opponent])
        self.q = q.astype(self.dtype)
        self.classes: list[np.ndarray] = []  # per position: each packet's class (non-increasing)
        self.tables: list[np.ndarray] = []  # per position: (classes, m) weighted signs
        for weight, keys_there in zip(points, theirs, strict=True):
            ranks = np.array([dense[k] for k in keys_there], dtype=np.int64)
            distinct = np.unique(ranks)
            below = np.searchsorted(distinct, strength, side="left")
            equal = np.searchsorted(distinct, strength, side="right") > below
            self.classes.append(2 * below + equal)
            at = np.searchsorted(distinct, ranks)[None, :]  # where each b_j's key is
            under, tie = np.divmod(np.arange(2 * distinct.size + 1)[:, None], 2)
            signs = np.where(at < under, 1, np.where((at == under) & (tie == 1), 0, -1))
            table = weight * signs.astype(np.int64)  # margins are small: int64 always
            if not self.win:  # the margin is a sum over positions: one number per class
                table = (table.astype(self.dtype) @ self.q).reshape(-1, 1)
            self.tables.append(table)
        if not self.win:
            self.q = np.ones(1, dtype=self.dtype)

    def find(self, masks: np.ndarray) -> np.ndarray:
        """The index of each packet mask (``len(packets)`` where a mask is not a packet)."""
        at = np.minimum(np.searchsorted(self.sorted_masks, masks), len(self.packets) - 1)
        return np.where(self.sorted_masks[at] == masks, self.by_mask[at], len(self.packets))

    def value(self, margins: np.ndarray) -> np.ndarray:
        """Integer values of rows of margins (units ``1/(2D)`` for win, ``1/D`` for margin)."""
        if self.win:
            margins = (np.sign(margins) + 1).astype(self.dtype)
        return margins @ self.q

    def levels(self, position: int) -> tuple[np.ndarray, np.ndarray]:
        """The classes reached at ``position``, highest first, and how many packets reach each."""
        classes = self.classes[position]
        distinct = np.unique(classes)[::-1]
        return distinct, np.searchsorted(-classes, -distinct, side="right")


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
    search = _Classes(_Problem(points, payoff, cards, opponent, key), points, claim)
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
    return Search(status, found, search.nodes, search.checks, time.monotonic() - started)


class _Classes:
    """The search over class vectors (see the module)."""

    def __init__(self, problem: _Problem, points: Sequence[int], claim: Fraction) -> None:
        self.problem = problem
        self.threshold = math.floor(claim * (2 if problem.win else 1) * problem.common)
        self.order = sorted(range(len(points)), key=lambda p: -points[p])  # heaviest first
        self.levels = [problem.levels(p) for p in self.order]
        self.known: dict[Limits, tuple[tuple[int, int], ...] | None] = {}
        self.deadline: float | None = None
        # Packings found (packet index per depth) and limits found infeasible.
        self._fits = _Rows(len(self.order))
        self._fail_lows, self._fail_highs = _Rows(len(self.order)), _Rows(len(self.order))
        self.progress: Callable[[str], None] | None = None
        self.label = ""
        self.nodes = self.checks = 0
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
                f"{self.nodes} class vectors, {self.checks} packings searched"
            )

    def node(self, depth: int, partial: np.ndarray, limits: Limits) -> Packets | None:
        """A witness meeting ``limits`` (at the first depths) and more, or None."""
        self.nodes += 1
        self.tick()
        if limits and self.packing(limits) is None:  # no packets of these exact classes
            return None
        problem, n = self.problem, len(self.order)
        position = self.order[depth]
        classes, counts = self.levels[depth]
        if depth == n - 1:  # the lowest beating threshold: feasible exactly when any is
            values = problem.value(partial + problem.tables[position][classes])
            beating = np.nonzero(values > self.threshold)[0]  # a prefix: lower classes earn less
            if beating.size == 0:
                return None
            return self.packing((*limits, (0, int(counts[beating[-1]]))))
        # The highest class each later position reaches with these classes met.
        reach = [self.highest(limits, d) for d in range(depth, n)]
        rows = partial + problem.tables[position][classes[reach[0] :]]
        for d in range(depth + 1, n):
            rows = rows + problem.tables[self.order[d]][self.levels[d][0][reach[d - depth]]]
        beating = reach[0] + np.nonzero(problem.value(rows) > self.threshold)[0]
        if depth == 0:
            self.total = beating.size
        for i in beating.tolist():
            exact = (int(counts[i - 1]) if i else 0, int(counts[i]))  # the packets of class i
            step = problem.tables[position][classes[i]]
            found = self.node(depth + 1, partial + step, (*limits, exact))
            if found is not None:
                return found
            if depth == 0:
                self.done += 1
        return None

    def highest(self, limits: Limits, depth: int) -> int:
        """The index (in ``levels[depth]``) of the highest class packets meeting ``limits``
        leave within reach at ``depth``: a binary search, feasibility being monotone."""
        counts = self.levels[depth][1]
        between: Limits = ((0, 0),) * (depth - len(limits))
        low, high = 0, counts.size - 1  # the lowest class (every packet) is always in reach
        while low < high:
            middle = (low + high) // 2
            if self.packing((*limits, *between, (0, int(counts[middle])))) is None:
                low = middle + 1
            else:
                high = middle
        return low

    def packing(self, limits: Limits) -> Packets | None:
        """Disjoint packets, the one at depth ``d`` among packets ``limits[d][0]`` (included)
        to ``limits[d][1]`` (excluded) of the sorted list, or None.

        A limit ``(0, 0)`` leaves its depth free; with every depth limited the packets are
        the whole holding.  The result is in position order, free positions empty.
        """
        if limits in self.known:
            found = self.known[limits]
        else:
            known = self._dominated(limits)
            if not isinstance(known, str):
                found = known
            else:
                self.checks += 1
                held = {d: (lo, hi) for d, (lo, hi) in enumerate(limits) if hi}
                # With every depth limited the packets cover the holding.
                chosen = self._dfs(held, 0, len(held) == len(self.order), set())
                found = None if chosen is None else tuple(sorted(chosen.items()))
                self._remember(limits, found)
            self.known[limits] = found
        if found is None:
            return None
        packets: list[tuple[int, ...]] = [()] * len(self.order)
        for d, i in found:
            packets[self.order[d]] = self.problem.packets[i]
        return tuple(packets)

    def _dominated(self, limits: Limits) -> tuple[tuple[int, int], ...] | str | None:
        """A packing found before that meets ``limits``, None if limits at least as loose
        were found infeasible, :data:`_UNKNOWN` if neither is known."""
        low, high = self._rows(limits)
        fits = self._fits.rows()
        if fits.shape[0]:
            hit = np.nonzero(((fits >= low) & (fits < high)).all(axis=1))[0]
            if hit.size:
                chosen = fits[hit[0]]
                return tuple((d, int(chosen[d])) for d in range(len(limits)) if limits[d][1])
        lows, highs = self._fail_lows.rows(), self._fail_highs.rows()
        if lows.shape[0] and ((low >= lows) & (high <= highs)).all(axis=1).any():
            return None
        return _UNKNOWN

    def _rows(self, limits: Limits) -> tuple[np.ndarray, np.ndarray]:
        """The limits at every depth as arrays; a free depth is 0 to past every index."""
        wide = len(self.problem.packets) + 1
        pairs = [(lo, hi) if hi else (0, wide) for lo, hi in limits]
        pairs += [(0, wide)] * (len(self.order) - len(limits))
        return np.array([a for a, _ in pairs]), np.array([b for _, b in pairs])

    def _remember(self, limits: Limits, found: tuple[tuple[int, int], ...] | None) -> None:
        if found is None:
            low, high = self._rows(limits)
            self._fail_lows.add(low)
            self._fail_highs.add(high)
        else:
            row = np.full(len(self.order), len(self.problem.packets))  # fits free limits only
            for d, i in found:
                row[d] = i
            self._fits.add(row)

    def _dfs(
        self,
        levels: dict[int, tuple[int, int]],
        used: int,
        cover: bool,
        failed: set[tuple[tuple[int, ...], int]],
    ) -> dict[int, int] | None:
        """A packet for each depth in ``levels`` (a range of the sorted packets), disjoint
        from ``used`` and each other (with ``cover``, the cards left are the last one)."""
        return self._search(
            {d: np.arange(lo, hi) for d, (lo, hi) in levels.items()}, levels, used, cover, failed
        )

    def _search(
        self,
        candidates: dict[int, np.ndarray],
        ranges: dict[int, tuple[int, int]],
        used: int,
        cover: bool,
        failed: set[tuple[tuple[int, ...], int]],
    ) -> dict[int, int] | None:
        """The depth with the fewest candidates is filled first, and the others'
        candidates filtered at once: one left empty fails the branch (forward checking)."""
        if not candidates:
            return {}
        state = (tuple(candidates), used)
        if state in failed:  # the same cards already failed for the same depths
            return None
        self.tick()
        problem = self.problem
        if cover and len(candidates) == 2:  # the last packet is the cards left: all at once
            (d, here), (e, _) = sorted(candidates.items(), key=lambda item: item[1].size)
            low, high = ranges[e]
            rest = problem.find(problem.full ^ used ^ problem.array[here])
            fits = np.nonzero((rest >= low) & (rest < high))[0]
            return {d: int(here[fits[0]]), e: int(rest[fits[0]])} if fits.size else None
        depth = min(candidates, key=lambda d: candidates[d].size)
        for i in candidates[depth].tolist():
            mask = problem.masks[i]
            others = {
                d: c[(problem.array[c] & mask) == 0] for d, c in candidates.items() if d != depth
            }
            if any(c.size == 0 for c in others.values()):
                continue
            found = self._search(others, ranges, used | mask, cover, failed)
            if found is not None:
                found[depth] = i
                return found
        failed.add(state)
        return None


class _Rows:
    """Rows of integers, appended one at a time (the buffer doubles when full)."""

    def __init__(self, width: int) -> None:
        self._buffer = np.zeros((64, width), dtype=np.int64)
        self._count = 0

    def add(self, row: np.ndarray) -> None:
        if self._count == self._buffer.shape[0]:
            self._buffer = np.concatenate([self._buffer, np.zeros_like(self._buffer)])
        self._buffer[self._count] = row
        self._count += 1

    def rows(self) -> np.ndarray:
        return self._buffer[: self._count]
