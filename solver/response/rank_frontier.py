"""Frontiers of rank-count states: the non-flush part of the strategy frontier.

(The plain recursion, kept as the reference of the bounded one in
:mod:`solver.response.bounded_frontier`, which :func:`solver.response.frontier.frontier`
uses, and for its store of states shared between holdings.)

A *state* is a vector ``c`` of rank counts holding ``5 * w`` cards (``w``
packets, the state's *level*), keyed by ``sum c[r] * 5**r``.  Its frontier
``F(c)`` is the set of non-dominated sorted strength profiles of the ways to
split ``c`` into ``w`` rank multisets, each valued as a non-flush packet:

    F(c) = Pareto( { sorted(p + [strength(m)]) : m <= c a multiset holding
                     the lowest rank of c, p in F(c - m) } )

Choosing the packet of the lowest rank counts each partition once, and a
dominated sub-profile stays dominated after any insertion, so pruning at
every level is exact.

:class:`RankFrontiers` computes all missing states of a level at once (the
states reachable from the requested roots are found top-down, then each
level's candidates are built by numpy gathers and filtered by
:func:`solver.response.pareto.pareto_keep`) and keeps them: the frontier of a state
depends only on its rank counts and the ranking rules, so deals share
them.  Each row remembers the multiset it added and its row in the child
state, which rebuilds concrete packets.

>>> store = rank_frontiers(Rules())
>>> key = int(np.array([4, 4, 2, 0, 0, 0, 0, 0]) @ (5 ** np.arange(8)))
>>> store.ensure({2: {key}})
>>> store.rows(2, key).tolist()
[[781, 788]]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from solver.game.cards import N_RANKS
from solver.game.evaluator import rank_multisets
from solver.game.ranking import ranking
from solver.game.rules import Rules
from solver.response.pareto import pareto_keep, ragged_arange

__all__ = [
    "POW5",
    "RankFrontiers",
    "RankLevel",
    "insert_sorted",
    "multiset_keys",
    "multiset_table",
    "option_runs",
    "options_of",
    "rank_frontiers",
    "trace_row",
]

POW5 = 5 ** np.arange(N_RANKS, dtype=np.int64)


# Rank counts (0..4) packed four bits a rank, with a guard bit (8) in each
# field: ``c >= m`` in every rank exactly when ``(code(c) | _GUARDS) - code(m)``
# keeps every guard (a field never borrows from the next one).
_FIELD_SHIFTS = 4 * np.arange(N_RANKS, dtype=np.int64)
_GUARDS = int((8 << _FIELD_SHIFTS).sum())


def _fit_codes(counts: np.ndarray) -> np.ndarray:
    """Rank counts rows packed for the guard-bit ``<=`` test."""
    return (counts.astype(np.int64) << _FIELD_SHIFTS).sum(axis=-1)


@lru_cache(maxsize=1)
def multiset_table() -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, ...]]:
    """Rank multisets, their keys, and for each rank the multisets whose lowest rank it is."""
    counts = rank_multisets().astype(np.int64)
    lowest = np.argmax(counts > 0, axis=1)
    by_lowest = tuple(np.flatnonzero(lowest == rank) for rank in range(N_RANKS))
    return counts, counts @ POW5, by_lowest


@lru_cache(maxsize=1)
def _multiset_codes() -> np.ndarray:
    return _fit_codes(multiset_table()[0])


@lru_cache(maxsize=1)
def _candidates_by_lowest_count() -> tuple[np.ndarray, ...]:
    """Entry ``5 * r + k``: the multisets of lowest rank ``r`` holding at most ``k`` of it."""
    counts, _, by_lowest = multiset_table()
    return tuple(
        candidates[counts[candidates, rank] <= k]
        for rank, candidates in enumerate(by_lowest)
        for k in range(5)
    )


def multiset_keys() -> np.ndarray:
    """Key of each row of :func:`~solver.game.evaluator.rank_multisets`."""
    return multiset_table()[1]


# A multiset code that fits no state: 5 in the lowest field (counts are at
# most 4; no borrow), padding each candidate list to whole 8-byte words.
_NEVER_FITS = 5
_ONES = np.uint64(0x0101010101010101)


@lru_cache(maxsize=1)
def _padded_candidates() -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """:func:`_candidates_by_lowest_count` padded to multiples of 8: (multisets, codes)."""
    codes = _multiset_codes().astype(np.uint32)
    padded = []
    for candidates in _candidates_by_lowest_count():
        width = -(-candidates.shape[0] // 8) * 8
        ids = np.zeros(width, dtype=np.int64)
        ids[: candidates.shape[0]] = candidates
        fit_codes = np.full(width, _NEVER_FITS, dtype=np.uint32)
        fit_codes[: candidates.shape[0]] = codes[candidates]
        padded.append((ids, fit_codes))
    return tuple(padded)


def _row_counts(fits: np.ndarray) -> np.ndarray:
    """``count_nonzero(fits, axis=1)`` for rows of whole 8-byte words: the bytes
    (0 or 1) of each word summed by one multiplication, a few times faster."""
    words = fits.view(np.uint64)
    return ((words * _ONES) >> np.uint64(56)).sum(axis=1, dtype=np.int64)


def option_runs(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The options of each state as runs: how many each state has, and the
    multisets of all, by state then multiset (:func:`options_of` without the
    state of each pair, which a repeat of the counts gives).

    The fit test runs on 32-bit codes (eight 4-bit fields) against the
    multisets of the state's lowest rank holding at most as many of it as the
    state (states grouped by both), and the pairs of each group are scattered
    to their state's slot (a counting sort: no argsort).

    >>> key = int(np.array([2, 0, 0, 0, 0, 0, 4, 4]) @ POW5)
    >>> n, multisets = option_runs(np.array([key]))
    >>> n.tolist(), multiset_table()[0][multisets[:2]].tolist()
    ([9], [[2, 0, 0, 0, 0, 0, 3, 0], [1, 0, 0, 0, 0, 0, 4, 0]])
    """
    candidates_of = _padded_candidates()
    guards = np.uint32(_GUARDS)
    counts = (keys[:, None] // POW5) % 5
    codes = _fit_codes(counts).astype(np.uint32) | guards
    lowest = np.argmax(counts > 0, axis=1)
    group = lowest * 5 + counts[np.arange(keys.shape[0]), lowest]
    by_group = np.argsort(group, kind="stable")
    found = []
    n_options = np.zeros(keys.shape[0], dtype=np.int64)
    for members in np.split(by_group, np.flatnonzero(np.diff(group[by_group])) + 1):
        if members.shape[0] == 0:
            continue
        candidates, candidate_codes = candidates_of[int(group[members[0]])]
        fits = ((codes[members][:, None] - candidate_codes[None, :]) & guards) == guards
        per_member = _row_counts(fits)
        n_options[members] = per_member
        found.append((members, per_member, fits, candidates))
    start = np.cumsum(n_options) - n_options
    out = np.empty(int(n_options.sum()), dtype=np.int64)
    for members, per_member, fits, candidates in found:
        # Row-major, so by state, then multiset (flat indices beat np.nonzero's
        # pairs); each state's run moves from its place here to its slot.
        flat = np.flatnonzero(fits)
        shift = start[members] - (np.cumsum(per_member) - per_member)
        row_start = np.arange(members.shape[0]) * candidates.shape[0]
        multiset = candidates[flat - row_start.repeat(per_member)]
        out[np.arange(flat.shape[0]) + shift.repeat(per_member)] = multiset
    return n_options, out


def options_of(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(state index, multiset) pairs: multisets that fit and hold the lowest rank.

    Sorted by state, then multiset (see :func:`option_runs`).

    >>> key = int(np.array([1, 0, 0, 0, 0, 0, 4, 0]) @ POW5)
    >>> options_of(np.array([key, key]))[0].tolist()
    [0, 1]
    """
    n_options, multisets = option_runs(keys)
    return np.arange(keys.shape[0]).repeat(n_options), multisets


@dataclass
class RankLevel:
    """Frontiers of the known states of one level, in CSR form sorted by key."""

    keys: np.ndarray  # (S,) sorted keys
    offsets: np.ndarray  # (S + 1,) rows of state s are offsets[s]:offsets[s + 1]
    rows: np.ndarray  # (N, width) int16 sorted strengths
    choice: np.ndarray  # (N,) int32 multiset added at this level
    child: np.ndarray  # (N,) int32 row within the child state c - choice

    @classmethod
    def empty(cls, width: int) -> RankLevel:
        return cls(
            keys=np.zeros(0, dtype=np.int64),
            offsets=np.zeros(1, dtype=np.int64),
            rows=np.zeros((0, width), dtype=np.int16),
            choice=np.zeros(0, dtype=np.int32),
            child=np.zeros(0, dtype=np.int32),
        )

    def find(self, keys: np.ndarray) -> np.ndarray:
        """Index of each key (which must be present)."""
        return np.searchsorted(self.keys, keys)

    def has(self, keys: np.ndarray) -> np.ndarray:
        """Whether each key is known."""
        if self.keys.shape[0] == 0:
            return np.zeros(keys.shape[0], dtype=bool)
        index = np.minimum(np.searchsorted(self.keys, keys), self.keys.shape[0] - 1)
        return self.keys[index] == keys

    def merged(self, other: RankLevel) -> RankLevel:
        """This level with the states of ``other`` (disjoint keys) added."""
        if other.keys.shape[0] == 0:
            return self
        keys = np.concatenate([self.keys, other.keys])
        sizes = np.concatenate([np.diff(self.offsets), np.diff(other.offsets)])
        starts = np.concatenate([self.offsets[:-1], other.offsets[:-1] + self.rows.shape[0]])
        order = np.argsort(keys, kind="stable")
        take = np.repeat(starts[order], sizes[order]) + ragged_arange(sizes[order])
        return RankLevel(
            keys=keys[order],
            offsets=np.concatenate([[0], np.cumsum(sizes[order])]),
            rows=np.concatenate([self.rows, other.rows])[take],
            choice=np.concatenate([self.choice, other.choice])[take],
            child=np.concatenate([self.child, other.child])[take],
        )


_PARALLEL_FROM = 256  # states in a level before it is split over two threads


def _concatenate(parts: list[RankLevel]) -> RankLevel:
    """Levels of consecutive key ranges, as one."""
    offsets = [np.zeros(1, dtype=np.int64)]
    total = 0
    for part in parts:
        offsets.append(part.offsets[1:] + total)
        total += int(part.offsets[-1])
    return RankLevel(
        keys=np.concatenate([part.keys for part in parts]),
        offsets=np.concatenate(offsets),
        rows=np.concatenate([part.rows for part in parts]),
        choice=np.concatenate([part.choice for part in parts]),
        child=np.concatenate([part.child for part in parts]),
    )


def insert_sorted(rows: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Each sorted row with its value inserted in order (no full sort needed).

    >>> insert_sorted(np.array([[1, 5], [2, 3]]), np.array([3, 9])).tolist()
    [[1, 3, 5], [2, 3, 9]]
    """
    n, width = rows.shape
    out = np.empty((n, width + 1), dtype=rows.dtype)
    position = (rows < values[:, None]).sum(axis=1) if width else np.zeros(n, dtype=np.int64)
    for j in range(width + 1):
        before = rows[:, j] if j < width else values
        after = rows[:, j - 1] if j > 0 else values
        out[:, j] = np.where(j < position, before, np.where(j == position, values, after))
    return out


class RankFrontiers:
    """The frontiers of rank-count states computed so far, for one ranking rule set."""

    def __init__(self, multiset_strength: np.ndarray) -> None:
        self.strength = multiset_strength.astype(np.int64)
        self.levels: dict[int, RankLevel] = {
            0: RankLevel(
                keys=np.zeros(1, dtype=np.int64),
                offsets=np.array([0, 1]),
                rows=np.zeros((1, 0), dtype=np.int16),
                choice=np.zeros(1, dtype=np.int32),
                child=np.zeros(1, dtype=np.int32),
            )
        }

    def level(self, width: int) -> RankLevel:
        """The known states of a level."""
        if width not in self.levels:
            self.levels[width] = RankLevel.empty(width)
        return self.levels[width]

    def ensure(self, roots: dict[int, set[int]]) -> None:
        """Compute the frontiers of the given states and everything they need."""
        _, ms_keys, _ = multiset_table()
        top = max(roots, default=0)
        missing: dict[int, np.ndarray] = {}
        carried: set[int] = set()
        for width in range(top, 0, -1):
            wanted = np.array(sorted(roots.get(width, set()) | carried), dtype=np.int64)
            new = wanted[~self.level(width).has(wanted)] if wanted.shape[0] else wanted
            missing[width] = new
            carried = set()
            if width > 1 and new.shape[0]:
                state, multiset = options_of(new)
                carried = set((new[state] - ms_keys[multiset]).tolist())
        for width in range(1, top + 1):
            if missing[width].shape[0]:
                self.levels[width] = self.level(width).merged(self._compute(width, missing[width]))

    def _compute(self, width: int, keys: np.ndarray) -> RankLevel:
        """Frontiers of new states of one level, from the level below."""
        _, ms_keys, _ = multiset_table()
        below = self.level(width - 1)
        if width == 1:
            choice = np.searchsorted(ms_keys, keys)
            return RankLevel(
                keys=keys,
                offsets=np.arange(keys.shape[0] + 1),
                rows=self.strength[choice][:, None].astype(np.int16),
                choice=choice.astype(np.int32),
                child=np.zeros(keys.shape[0], dtype=np.int32),
            )
        # Large levels are cut into chunks of states computed on two threads:
        # the work is numpy calls that release the GIL.
        chunks = np.array_split(keys, 2) if keys.shape[0] >= _PARALLEL_FROM else [keys]
        if len(chunks) == 1:
            return self._compute_chunk(keys, below)
        # Imported here: the thread pool (with threading and logging) is a tenth of a
        # command's imports, and a holding's own frontier never needs it.
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=len(chunks)) as pool:
            parts = list(pool.map(lambda chunk: self._compute_chunk(chunk, below), chunks))
        return _concatenate(parts)

    def _compute_chunk(self, keys: np.ndarray, below: RankLevel) -> RankLevel:
        """Frontiers of some new states of one level (keys sorted)."""
        _, ms_keys, _ = multiset_table()
        state, multiset = options_of(keys)
        child_state = below.find(keys[state] - ms_keys[multiset])
        sizes = below.offsets[child_state + 1] - below.offsets[child_state]
        pair = np.repeat(np.arange(state.shape[0]), sizes)
        local = ragged_arange(sizes)
        child_row = np.repeat(below.offsets[child_state], sizes) + local
        added = self.strength[multiset[pair]].astype(np.int16)
        rows = insert_sorted(below.rows[child_row], added)
        group = state[pair]
        keep = pareto_keep(group, rows)
        order = np.flatnonzero(keep)[np.argsort(group[keep], kind="stable")]
        counts = np.bincount(group[order], minlength=keys.shape[0])
        return RankLevel(
            keys=keys,
            offsets=np.concatenate([[0], np.cumsum(counts)]),
            rows=rows[order],
            choice=multiset[pair[order]].astype(np.int32),
            child=local[order].astype(np.int32),
        )

    def span(self, width: int, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """First row and number of rows of each (known) state."""
        level = self.level(width)
        index = level.find(keys)
        return level.offsets[index], level.offsets[index + 1] - level.offsets[index]

    def rows(self, width: int, key: int) -> np.ndarray:
        """The frontier of one known state."""
        start, size = self.span(width, np.array([key]))
        return self.level(width).rows[int(start[0]) : int(start[0] + size[0])]

    def trace(self, width: int, key: int, row: int) -> list[int]:
        """The multisets of a state's frontier row (``row`` counted within the state)."""
        return trace_row(self.level, width, key, row)


def trace_row(level_of: Callable[[int], RankLevel], width: int, key: int, row: int) -> list[int]:
    """The multisets of frontier row ``row`` of state ``key`` at level ``width``, top down.

    Each row records the multiset it chose and its row in the child state;
    ``level_of(w)`` gives the level of width ``w``.
    """
    _, ms_keys, _ = multiset_table()
    multisets = []
    while width > 0:
        level = level_of(width)
        index = int(level.offsets[level.find(np.array([key]))[0]]) + row
        multisets.append(int(level.choice[index]))
        row = int(level.child[index])
        key -= int(ms_keys[level.choice[index]])
        width -= 1
    return multisets


def rank_frontiers(rules: Rules) -> RankFrontiers:
    """The shared store of rank-state frontiers for the ranking of ``rules``."""
    return _store(rules.ranking_key)


@lru_cache(maxsize=4)
def _store(ranking_key: tuple[bool, bool]) -> RankFrontiers:
    rules = Rules(ace_low_straight=ranking_key[0], flush_beats_full_house=ranking_key[1])
    return RankFrontiers(ranking(rules).multiset_strength)
