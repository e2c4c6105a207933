"""An exact best response to a mixed strategy: every maximal strength profile, in every order.

Against the other player's mixed strategy ``y = {(q_j, b_j)}`` an
arrangement ``a`` meets ``b_j`` with the margin
``M_j(a) = sum_p w_p sign(key(a_p) - key(b_j[p]))`` and earns
``V(a) = sum_j q_j g(M_j(a))``: ``g`` is the identity (margin payoff) or 1,
1/2, 0 for a positive, zero, negative margin (win payoff; player 2 counts its
own win, one minus player 1's payoff).  :func:`search_bound` proves
``max_a V(a) <= claim`` or finds an arrangement beating the claim.

``V`` depends only on the keys of ``a``'s packets in position order, and
never decreases when a packet gets stronger (each sign can only rise).  So
if every arrangement's *sorted* key profile ``s_1 >= ... >= s_n`` is at most,
component by component, some profile ``m`` in a list ``P``, then the best
value over all arrangements is the best over ``P`` and the ``n!`` orders of
each: arrangement ``a`` puts its ``i``-th strongest packet at ``sigma(i)``;
putting ``m``'s ``i``-th strongest there instead is at least as strong at
every position, so at least as good.  This module computes ``P`` = the
maximal profiles, then scores every ``(m, sigma)`` exactly in integers.

**Computing the maximal profiles.**  The key of a packet
(:func:`solver.verify.ranking.packet_key`) depends on its ranks and on
whether it is a flush, nothing else.  A holding has at most one flush per
suit (a suit has 8 cards).  For each set ``F`` of flushes, one or none per
suit, the other packets are read at the level of rank counts: any split of
the remaining counts into five-card rank multisets is realised by cards,
and a multiset's key read as a non-flush is exact for a packet that is not
a flush and at most the true key for one that is (a flush only adds).  An
arrangement whose flush packets are exactly ``F`` is thus scored exactly in
root ``F``; every other profile a root produces is achieved by real cards
(at least), so nothing is claimed that cannot be played.  Per root, the
profiles of the rank counts ``c`` are

    P(c) = maximal{ sorted(key(m), p) : m a 5-multiset <= c holding c's
                     lowest rank, p in P(c - m) }

(the packet with the lowest rank is chosen first, so each split is counted
once; a dominated partial profile stays dominated when a key is inserted,
so keeping only the maximal ones at every level is exact), memoised on
``c``.  Back-pointers rebuild the packets of a witness.

**Exactness.**  Keys are compared as dense integers (their order in the
sorted list of every key that occurs), probabilities as integers over their
common denominator ``D``, values in units of ``1/D`` (margin) or ``1/(2D)``
(win), against the integer part of the claim in the same units.

>>> from fractions import Fraction
>>> from solver.verify.ranking import packet_key
>>> pure = [(Fraction(1), ((0, 1, 2, 3, 4), (5, 6, 7, 8, 9)))]
>>> search_bound([6, 7], "win", range(10), pure, Fraction(1), key=packet_key).status
'checked'
>>> search_bound([6, 7], "win", range(10), pure, Fraction(1, 2), key=packet_key).witness
((4, 5, 6, 7, 8), (0, 1, 2, 3, 9))
>>> search_bound([6, 7], "draw", range(10), pure, Fraction(0), key=packet_key)
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
from itertools import combinations, permutations, product
from typing import Any

import numpy as np

__all__ = ["Search", "maximal_profiles", "search_bound"]

Packets = tuple[tuple[int, ...], ...]
_RANKS, _SUITS, _SIZE = 8, 4, 5
_REPORT_EVERY = 2.0
"""Seconds between progress lines."""
_CHUNK = 4096
"""Arrangements scored at once against the whole strategy (memory: chunk x strategy)."""


@dataclass(frozen=True)
class Search:
    """What a search established.

    ``status`` is ``"checked"`` (no arrangement beats the claim: proven),
    ``"refuted"`` (``witness`` beats it by the search's integers; the caller
    scores it again) or ``"unfinished"`` (the deadline came first).
    ``profiles`` counts the maximal strength profiles, ``arrangements`` the
    arrangements scored (each profile in every order).
    """

    status: str
    witness: Packets | None
    profiles: int
    arrangements: int
    seconds: float


class _DeadlineError(Exception):
    pass


class _Profiles:
    """The maximal sorted key profiles of a holding, with what realises each."""

    def __init__(self, cards: Sequence[int], key: Callable[[tuple[int, ...]], Any]) -> None:
        self.cards = sorted(cards)
        counts = [0] * _RANKS
        for card in self.cards:
            counts[card // _SUITS] += 1
        # Every rank multiset the counts allow, read as a non-flush (suits spread).
        self.multisets: list[tuple[int, ...]] = [
            m for m in product(range(5), repeat=_RANKS) if sum(m) == _SIZE and _fits(m, counts)
        ]
        self.flushes = [
            f
            for s in range(_SUITS)
            for f in combinations([c for c in self.cards if c % _SUITS == s], _SIZE)
        ]
        self.table = np.array(self.multisets, dtype=np.int64).reshape(-1, _RANKS)
        self.key = key
        self.raw = [key(_spread(m)) for m in self.multisets] + [key(f) for f in self.flushes]
        self._memo: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self.counts = tuple(counts)
        self.deadline: float | None = None
        self.progress: Callable[[str], None] | None = None
        self.label = ""
        self.last = time.monotonic()
        self.roots = self.done = 0

    def tick(self) -> None:
        """Stop at the deadline; a progress line every two seconds."""
        now = time.monotonic()
        if self.deadline is not None and now > self.deadline:
            raise _DeadlineError
        if self.progress is not None and now - self.last >= _REPORT_EVERY:
            self.last = now
            self.progress(
                f"{self.label}: {self.done}/{self.roots} sets of flushes done, "
                f"{len(self._memo)} rank-count states"
            )

    def dense(self, extra: Iterable[Any]) -> dict[Any, int]:
        """Each key's place in the sorted list of this holding's keys and ``extra``."""
        return {k: i for i, k in enumerate(sorted(set(self.raw).union(extra)))}

    def solve(self, dense: dict[Any, int]) -> tuple[np.ndarray, list[Packets]]:
        """The maximal profiles (rows, strongest first) and one packing realising each."""
        if len(dense) >= 4096 or len(self.cards) > 5 * _RANKS:  # rows are packed in 60 bits
            raise ValueError(f"{len(dense)} packet keys, {len(self.cards)} cards: too many")
        self.ordinal = np.array([dense[k] for k in self.raw], dtype=np.int32)
        self._memo.clear()
        by_suit: list[list[int | None]] = [[None] for _ in range(_SUITS)]
        for index, flush in enumerate(self.flushes):
            by_suit[flush[0] % _SUITS].append(len(self.multisets) + index)
        self.roots, self.done = math.prod(len(options) for options in by_suit), 0
        # Each root's rows are first pruned against the maximal rows found so far.
        kept = np.zeros((0, len(self.cards) // _SIZE), dtype=np.int32)
        sources: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
        for choice in product(*by_suit):
            chosen = tuple(f for f in choice if f is not None)
            rest = list(self.counts)
            for f in chosen:
                for card in self.flushes[f - len(self.multisets)]:
                    rest[card // _SUITS] -= 1
            self.done += 1
            # Flushes of the same strengths leaving the same ranks give the same rows.
            same = (tuple(sorted(self.ordinal[list(chosen)].tolist())), tuple(rest))
            if same in seen:
                continue
            seen.add(same)
            sub, _, _ = self._level(tuple(rest))
            head = np.broadcast_to(self.ordinal[list(chosen)], (sub.shape[0], len(chosen)))
            rows = -np.sort(-np.hstack([sub, head]), axis=1)
            fresh = np.flatnonzero(~_beaten(rows, kept))
            if not fresh.size:
                continue
            # Rows no kept row is at least: their maximal ones join, and drop what they beat.
            best = fresh[_maximal(rows[fresh])]
            stays = np.flatnonzero(~_beaten(kept, rows[best]))
            kept = np.vstack([kept[stays], rows[best]])
            sources = [sources[i] for i in stays.tolist()]
            sources += [(chosen, tuple(rest), int(r)) for r in best.tolist()]
        return kept, [self._realise(*source) for source in sources]

    def _level(self, counts: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The maximal profiles of ``counts``, and per row the multiset and the child row."""
        if counts in self._memo:
            return self._memo[counts]
        self.tick()
        if not any(counts):
            result = (np.zeros((1, 0), dtype=np.int32), np.zeros(1, int), np.zeros(1, int))
            self._memo[counts] = result
            return result
        lowest = next(r for r in range(_RANKS) if counts[r])
        here = np.array(counts)
        allowed = np.flatnonzero((self.table[:, lowest] > 0) & np.all(self.table <= here, axis=1))
        children = (here - self.table[allowed]).tolist()
        blocks = [self._level(tuple(child))[0] for child in children]
        sizes = np.array([block.shape[0] for block in blocks])
        pick = np.repeat(allowed, sizes)
        starts = np.cumsum(sizes) - sizes
        child_rows = np.arange(int(sizes.sum())) - np.repeat(starts, sizes)
        rows = -np.sort(-np.column_stack([np.vstack(blocks), self.ordinal[pick]]), axis=1)
        keep = _maximal(rows)
        result = (rows[keep], pick[keep], child_rows[keep])
        self._memo[counts] = result
        return result

    def _realise(self, flushes: tuple[int, ...], counts: tuple[int, ...], row: int) -> Packets:
        """Concrete packets for a root's row: its flushes, then its multisets dealt real cards."""
        used = [c for f in flushes for c in self.flushes[f - len(self.multisets)]]
        pool = {r: [c for c in self.cards if c // _SUITS == r and c not in used] for r in range(8)}
        packets = [(int(self.ordinal[f]), self.flushes[f - len(self.multisets)]) for f in flushes]
        while any(counts):
            _, picks, children = self._memo[counts]
            m = self.multisets[int(picks[row])]
            cards = tuple(sorted(pool[r].pop() for r in range(_RANKS) for _ in range(m[r])))
            packets.append((int(self.ordinal[int(picks[row])]), cards))
            counts, row = tuple(c - k for c, k in zip(counts, m, strict=True)), int(children[row])
        # Strongest first as the profile reads them (a packet dealt as a flush only gains).
        return tuple(cards for _, cards in sorted(packets, key=lambda item: -item[0]))


def _fits(m: Sequence[int], counts: Sequence[int]) -> bool:
    return all(k <= c for k, c in zip(m, counts, strict=True))


def _spread(m: Sequence[int]) -> tuple[int, ...]:
    """Cards with the ranks of ``m`` that are not a flush (the k-th card of a rank gets suit k,
    and five distinct ranks get two suits)."""
    cards = [_SUITS * r + k for r in range(_RANKS) for k in range(m[r])]
    if len(set(c % _SUITS for c in cards)) == 1:
        cards[-1] += 1
    return tuple(cards)


def _maximal(rows: np.ndarray) -> np.ndarray:
    """Indices of the rows no other row is at least, component by component (one of equals).

    Distinct rows are taken by decreasing sum (a row at least another and not equal to it
    has the larger sum, so it comes first): the first left is maximal, and removes every
    row it is at least; the rounds are as many as the maximal rows."""
    if rows.shape[1] == 0:
        return np.zeros(1, dtype=int)
    packed = np.zeros(rows.shape[0], dtype=np.int64)
    for column in range(rows.shape[1]):  # dense ranks are below 4096: 12 bits each
        packed = (packed << 12) | rows[:, column]
    _, first = np.unique(packed, return_index=True)
    left = first[np.argsort(-rows[first].sum(axis=1), kind="stable")]
    kept = []
    while left.size:
        top = left[0]
        kept.append(top)
        left = left[1:][~np.all(rows[left[1:]] <= rows[top], axis=1)]
    return np.array(kept, dtype=int)


def _beaten(rows: np.ndarray, kept: np.ndarray) -> np.ndarray:
    """Which rows some row of ``kept`` is at least (component by component)."""
    if not kept.shape[0]:
        return np.zeros(rows.shape[0], dtype=bool)
    beaten = np.zeros(rows.shape[0], dtype=bool)
    for start in range(0, kept.shape[0], 64):
        block = kept[start : start + 64]
        beaten |= np.all(block[:, None, :] >= rows[None, :, :], axis=2).any(axis=0)
    return beaten


def maximal_profiles(
    cards: Iterable[int], key: Callable[[tuple[int, ...]], Any]
) -> tuple[np.ndarray, list[Packets]]:
    """The maximal sorted key profiles of a holding (dense key ranks, strongest first),
    and a packing of the holding realising each.

    >>> from solver.verify.ranking import packet_key
    >>> rows, packings = maximal_profiles(range(10), packet_key)
    >>> rows.shape[1], len(packings) == rows.shape[0]
    (2, True)
    """
    profiles = _Profiles(list(cards), key)
    return profiles.solve(profiles.dense(()))


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
    stronger) and must depend on the ranks and on being a flush only, as
    :func:`solver.verify.ranking.packet_key` does; ``deadline`` is a
    :func:`time.monotonic` time; ``progress`` receives a line before the search
    and then at most every two seconds.
    """
    if payoff not in ("margin", "win"):
        raise ValueError(f"payoff {payoff!r} is not margin or win")
    started = time.monotonic()
    n = len(points)
    profiles = _Profiles(list(cards), key)
    profiles.deadline, profiles.progress, profiles.label = deadline, progress, label
    theirs = [[key(b[p]) for _, b in opponent] for p in range(n)]
    dense = profiles.dense(k for keys in theirs for k in keys)
    if progress is not None:
        progress(
            f"{label}: the maximal strength profiles of {len(profiles.cards)} cards, then each "
            f"in its {math.factorial(n)} orders against {len(opponent)} arrangements"
        )
    try:
        rows, packings = profiles.solve(dense)
    except _DeadlineError:
        return Search("unfinished", None, 0, 0, time.monotonic() - started)
    orders = np.array(list(permutations(range(n))))
    common = math.lcm(*(q.denominator for q, _ in opponent))
    dtype: Any = np.int64 if (2 if payoff == "win" else sum(points)) * common < 2**62 else object
    q = np.array([q.numerator * (common // q.denominator) for q, _ in opponent]).astype(dtype)
    threshold = math.floor(claim * (2 if payoff == "win" else 1) * common)
    b = np.array([[dense[k] for k in keys] for keys in theirs], dtype=np.int32)  # (n, J)
    arranged = rows[:, orders].reshape(-1, n)  # profile r in order o: row r * n! + o
    best, where = None, -1
    for start in range(0, arranged.shape[0], _CHUNK):
        if deadline is not None and time.monotonic() > deadline:
            return Search("unfinished", None, rows.shape[0], start, time.monotonic() - started)
        block = arranged[start : start + _CHUNK]
        margins = np.zeros((block.shape[0], b.shape[1]), dtype=np.int64)
        for p in range(n):
            margins += points[p] * np.sign(block[:, p, None] - b[None, p, :])
        if payoff == "win":
            margins = np.sign(margins) + 1
        values = margins.astype(dtype) @ q
        top = int(np.argmax(values))
        if best is None or values[top] > best:
            best, where = values[top], start + top
    seconds = time.monotonic() - started
    if best is None or best <= threshold:
        return Search("checked", None, rows.shape[0], arranged.shape[0], seconds)
    profile, order = divmod(where, orders.shape[0])
    witness = tuple(packings[profile][i] for i in orders[order])
    return Search("refuted", witness, rows.shape[0], arranged.shape[0], seconds)
