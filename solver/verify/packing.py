"""Disjoint packets of given strength ranges: the feasibility questions of the search.

The holding's packets are sorted strongest first (:class:`Problem`); a question
gives, per depth (a position of the search), a range of that list, and asks for
disjoint packets, one per limited depth (covering the holding when every depth
is limited: the cards left over can otherwise always be split into packets).
:class:`Packings` answers by a depth-first search, fewest candidates first,
and remembers each answer: a packing found answers any question it meets, and
a question found infeasible answers any narrower one.

>>> rank = lambda packet: tuple(sorted((c // 4 for c in packet), reverse=True))
>>> problem = Problem([6, 7], "margin", range(10), [(Fraction(1), ((0, 1, 2, 3, 4), (5, 6, 7, 8, 9)))], rank)
>>> packings = Packings(problem, [1, 0], lambda: None)
>>> packings.packing(((0, 1), (0, 1)))  # the strongest packet twice: not disjoint
>>> packings.packing(((0, 1), (0, 252)))  # the strongest, and any other: the rest
((0, 1, 2, 3, 7), (4, 5, 6, 8, 9))
>>> Problem([6, 7], "draw", range(10), [], rank)
Traceback (most recent call last):
    ...
ValueError: payoff 'draw' is not margin or win
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from itertools import combinations
from typing import Any

import numpy as np

__all__ = ["Limits", "Packets", "Packings", "Problem", "Rows"]

Packets = tuple[tuple[int, ...], ...]
Limits = tuple[tuple[int, int], ...]
"""Per depth, the range of the sorted packets allowed there; ``(0, 0)``: any."""

_UNKNOWN = "unknown"
_RECENT = 4096
"""Answers remembered that a question is compared with: the latest (a depth-first search
asks about what it just asked about); an answer forgotten is only searched again."""


class Problem:
    """The holding's packets sorted strongest first, their classes and sign tables."""

    def __init__(
        self,
        points: Sequence[int],
        payoff: str,
        cards: Iterable[int],
        opponent: Sequence[tuple[Fraction, Packets]],
        key: Callable[[tuple[int, ...]], Any],
    ) -> None:
        if payoff not in ("margin", "win"):
            raise ValueError(f"payoff {payoff!r} is not margin or win")
        packets = list(combinations(sorted(cards), 5))
        keys = [key(p) for p in packets]
        theirs = [[key(b[p]) for _, b in opponent] for p in range(len(points))]
        dense = {k: i for i, k in enumerate(sorted(set(keys).union(*map(set, theirs))))}
        strength = np.array([dense[k] for k in keys], dtype=np.int64)
        order = np.argsort(-strength, kind="stable")  # strongest first
        self.packets = [packets[i] for i in order.tolist()]
        strength = strength[order]
        self.strength = strength
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


class Packings:
    """Answers to packing questions about ``problem``, depths being ``order``'s positions;
    ``tick`` is called at every step of a search (it may raise to stop it)."""

    def __init__(self, problem: Problem, order: Sequence[int], tick: Callable[[], None]) -> None:
        self.problem, self.order, self.tick = problem, list(order), tick
        self.known: dict[Limits, tuple[tuple[int, int], ...] | None] = {}
        # Packings found (packet index per depth) and limits found infeasible.
        self._fits = Rows(len(self.order))
        self._fail_lows, self._fail_highs = Rows(len(self.order)), Rows(len(self.order))
        self.checks = 0

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
        fits = self._fits.rows(_RECENT)
        if fits.shape[0]:
            hit = np.nonzero(((fits >= low) & (fits < high)).all(axis=1))[0]
            if hit.size:
                chosen = fits[hit[0]]
                return tuple((d, int(chosen[d])) for d in range(len(limits)) if limits[d][1])
        lows, highs = self._fail_lows.rows(_RECENT), self._fail_highs.rows(_RECENT)
        if lows.shape[0] and ((low >= lows) & (high <= highs)).all(axis=1).any():
            return None
        return _UNKNOWN

    def _rows(self, limits: Limits) -> tuple[np.ndarray, np.ndarray]:
        """The limits at every depth as arrays; a free depth is 0 to past every index."""
        wide = len(self.problem.packets) + 1
        pairs = [(lo, hi) if hi else (0, wide) for lo, hi in limits]
        pairs += [(0, wide)] * (len(self.order) - len(limits))
        low, high = np.array(pairs, dtype=np.int32).T
        return low, high

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
        if cover and len(candidates) > 2:  # a card that no candidate holds is never covered
            held = np.bitwise_or.reduce(
                np.concatenate([problem.array[c] for c in candidates.values()])
            )
            if (problem.full ^ used) & ~int(held):
                failed.add(state)
                return None
        if cover and len(candidates) == 2:  # the last packet is the cards left: all at once
            (d, here), (e, _) = sorted(candidates.items(), key=lambda item: item[1].size)
            low, high = ranges[e]
            rest = problem.find(problem.full ^ used ^ problem.array[here])
            fits = np.nonzero((rest >= low) & (rest < high))[0]
            return {d: int(here[fits[0]]), e: int(rest[fits[0]])} if fits.size else None
        depth = min(candidates, key=lambda d: candidates[d].size)
        # Depths of the same range are interchangeable: their packets are taken in
        # increasing order, so each set of packets is tried once, not once per ordering.
        twins = [d for d in candidates if d != depth and ranges[d] == ranges[depth]]
        for i in candidates[depth].tolist():
            mask = problem.masks[i]
            others, shared = {}, {}  # depths of one range share their filtered candidates
            for d, c in candidates.items():
                if d != depth:
                    if ranges[d] not in shared:
                        kept = c[(problem.array[c] & mask) == 0]
                        shared[ranges[d]] = kept[kept > i] if d in twins else kept
                    others[d] = shared[ranges[d]]
            if any(c.size == 0 for c in others.values()):
                continue
            found = self._search(others, ranges, used | mask, cover, failed)
            if found is not None:
                found[depth] = i
                return found
        failed.add(state)
        return None


class Rows:
    """Rows of integers, appended one at a time (the buffer doubles when full); ``dtype``
    narrow enough for fast comparisons (every value must fit it)."""

    def __init__(self, width: int, dtype: Any = np.int32) -> None:
        self._buffer = np.zeros((64, width), dtype=dtype)
        self._count = 0

    def add(self, row: np.ndarray) -> None:
        if self._count == self._buffer.shape[0]:
            self._buffer = np.concatenate([self._buffer, np.zeros_like(self._buffer)])
        self._buffer[self._count] = row
        self._count += 1

    def rows(self, last: int | None = None) -> np.ndarray:
        """The rows, or only the ``last`` ones added."""
        return self._buffer[: self._count][-last:] if last else self._buffer[: self._count]
