"""Pareto-maximal rows of integer arrays, many groups at once, with numpy.

A row ``a`` *dominates* ``b`` when ``a >= b`` in every column and ``a != b``.
:func:`pareto_keep` marks, within each group (segment) of rows, the rows no
other row of the group dominates.  Rows must be distinct within a group
(:func:`unique_rows` makes them so).

Method, for all groups together: sort each group by row sum, highest first
(a dominating row has a larger sum, so it comes first).  Then in rounds,
the first remaining row of every group is kept and removes the rows of its
group that it dominates.  A round is one flat numpy pass over all groups;
the number of rounds is the largest group's frontier size, and most rows
fall to the first few pivots.

>>> rows = np.array([[1, 5], [2, 4], [1, 4], [3, 3], [0, 9], [2, 2]])
>>> groups = np.array([0, 0, 0, 0, 1, 1])
>>> pareto_keep(groups, rows).tolist()
[True, True, False, True, True, True]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "merge_maximal",
    "pack_rows",
    "pareto_keep",
    "ragged_arange",
    "strictly_dominated",
    "unique_rows",
]

_BITS = 10  # strengths are below 1024


def pack_rows(rows: np.ndarray) -> np.ndarray:
    """Each row of small non-negative ints (< 1024, at most 6 columns) as one int64.

    >>> pack_rows(np.array([[1, 2]])).tolist()
    [2049]
    """
    shifts = _BITS * np.arange(rows.shape[1], dtype=np.int64)
    return (rows.astype(np.int64) << shifts).sum(axis=1)


def ragged_arange(lengths: np.ndarray) -> np.ndarray:
    """Concatenation of ``arange(n)`` for each ``n`` in ``lengths``.

    >>> ragged_arange(np.array([2, 0, 3])).tolist()
    [0, 1, 0, 1, 2]
    """
    lengths = np.asarray(lengths, dtype=np.int64)
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.cumsum(lengths) - lengths
    return np.arange(total, dtype=np.int64) - np.repeat(starts, lengths)


def unique_rows(groups: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Indices of the first occurrence of each distinct (group, row).

    >>> unique_rows(np.array([0, 0, 1]), np.array([[1], [1], [1]])).tolist()
    [0, 2]
    >>> unique_rows(np.array([-1, 5, -1]), np.array([[3, 1], [3, 1], [3, 1]])).tolist()
    [0, 1]
    """
    if rows.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    packed = pack_rows(rows)
    shift = _BITS * rows.shape[1]
    if groups.min() >= 0 and shift + int(groups.max()).bit_length() <= 62:
        # Group and row in one int64: one sort (np.unique's first occurrences)
        # where a lexsort of two keys costs twice as much.
        _, first = np.unique((groups.astype(np.int64) << shift) | packed, return_index=True)
        return np.sort(first)
    order = np.lexsort((packed, groups))
    g, p = groups[order], packed[order]
    first = np.ones(order.shape[0], dtype=bool)
    first[1:] = (g[1:] != g[:-1]) | (p[1:] != p[:-1])
    return np.sort(order[first])


# Row sums (at most 5 fields below 1024) are below 5 * 1024 < 2**13: a sort
# key of group * _SUM_RANGE + (_SUM_RANGE - 1 - sum) orders by group, then by
# sum from the highest.
_SUM_RANGE = 1 << 13


def pareto_keep(groups: np.ndarray, rows: np.ndarray, heads: int = 256) -> np.ndarray:
    """Boolean mask of the rows not dominated within their group.

    Parameters
    ----------
    groups
        ``(n,)`` group id of each row.
    rows
        ``(n, k)`` integers in 0..1023, ``k <= 5``; of equal rows one is kept.
    heads
        Rows per group examined in each round.

    Returns
    -------
    numpy.ndarray
        ``(n,)`` bool, in the input order.

    >>> pareto_keep(np.zeros(1), np.array([[1024]]))
    Traceback (most recent call last):
        ...
    ValueError: pareto_keep needs at most 5 columns of integers in 0..1023
    """
    n = rows.shape[0]
    keep = np.zeros(n, dtype=bool)
    if n == 0:
        return keep
    if rows.shape[1] > 5 or (rows.size and (rows.min() < 0 or rows.max() >= 1 << _BITS)):
        raise ValueError("pareto_keep needs at most 5 columns of integers in 0..1023")
    packed, row_sum, guards = _guarded_packing(rows)
    groups = groups.astype(np.int64)
    # A first pass before any sorting: the largest-sum row of each group is
    # maximal, and it removes most of its group.
    candidates = _beaten_by_group_best(groups, row_sum, packed, guards)
    key = groups[candidates] * _SUM_RANGE + (_SUM_RANGE - 1 - row_sum[candidates])
    order = candidates[np.argsort(key, kind="stable")]
    sorted_rows = _SortedRows(packed[order] | guards, packed[order], groups[order], guards)
    active = np.arange(order.shape[0])
    rounds = 0
    while active.shape[0]:
        # One head at first (the first pivots remove most rows), then twice as
        # many each round, so a group with a large frontier needs few rounds.
        width = min(heads, 1 << rounds)
        rounds += 1
        kept, active = sorted_rows.round(active, width)
        keep[order[kept]] = True
    return keep


def _guarded_packing(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Each row packed into one int64 with a guard bit above every 10-bit field.

    ``a >= b`` in every field exactly when ``(a | guards) - b`` keeps all
    guards.  Column by column: faster than reductions along a short last
    axis.  Returns the packed rows, the row sums and the guard bits.
    """
    n = rows.shape[0]
    packed = np.zeros(n, dtype=np.int64)
    row_sum = np.zeros(n, dtype=np.int64)
    guards = 0
    for j in range(rows.shape[1]):
        column = rows[:, j].astype(np.int64)
        packed |= column << ((_BITS + 1) * j)
        row_sum += column
        guards |= 1 << ((_BITS + 1) * j + _BITS)
    return packed, row_sum, guards


@dataclass(frozen=True)
class _SortedRows:
    """Packed rows sorted by group, then by row sum from the highest."""

    guarded: np.ndarray  # packed | guards
    plain: np.ndarray  # packed
    groups: np.ndarray
    guards: int

    def round(self, active: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
        """One round over the ``active`` rows: the rows kept, and those still open.

        Each round takes the first ``width`` remaining rows of every group.
        A head that no earlier head dominates is maximal (every row before
        it is kept or was removed by a kept row), so it is kept and removes
        the rows of its group it dominates.  Larger rounds mean fewer numpy
        passes.
        """
        group = self.groups[active]
        boundary = np.ones(active.shape[0], dtype=bool)
        boundary[1:] = group[1:] != group[:-1]
        group_number = np.cumsum(boundary) - 1
        starts = np.flatnonzero(boundary)
        rank = np.arange(active.shape[0]) - starts[group_number]
        is_head = rank < width
        head = np.flatnonzero(is_head)
        # Heads against the earlier heads of their group.
        counts = rank[head]
        later = np.repeat(head, counts)
        earlier = later - counts.repeat(counts) + ragged_arange(counts)
        beaten = self._dominates(active[earlier], active[later])
        head_alive = np.ones(active.shape[0], dtype=bool)
        head_alive[later[beaten]] = False
        pivots = head[head_alive[head]]
        # The other rows against the new pivots of their group.
        n_pivots = np.bincount(group_number[pivots], minlength=starts.shape[0])
        first_pivot = np.cumsum(n_pivots) - n_pivots
        rest = np.flatnonzero(~is_head)
        sizes = n_pivots[group_number[rest]]
        row = np.repeat(rest, sizes)
        pivot = pivots[np.repeat(first_pivot[group_number[rest]], sizes) + ragged_arange(sizes)]
        removed = self._dominates(active[pivot], active[row])
        dead = np.zeros(active.shape[0], dtype=bool)
        dead[row[removed]] = True
        return active[pivots], active[rest[~dead[rest]]]

    def _dominates(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Whether sorted row ``a`` is >= sorted row ``b`` in every field."""
        return ((self.guarded[a] - self.plain[b]) & self.guards) == self.guards


def _beaten_by_group_best(
    groups: np.ndarray, row_sum: np.ndarray, packed: np.ndarray, guards: int
) -> np.ndarray:
    """Indices of the rows not dominated by their group's first largest-sum row."""
    order = np.argsort(groups, kind="stable")
    sorted_groups = groups[order]
    boundary = np.ones(order.shape[0], dtype=bool)
    boundary[1:] = sorted_groups[1:] != sorted_groups[:-1]
    starts = np.flatnonzero(boundary)
    best_sum = np.maximum.reduceat(row_sum[order], starts)
    group_number = np.cumsum(boundary) - 1
    is_best = row_sum[order] == best_sum[group_number]
    # The first largest-sum row of each group.
    first_best = np.full(starts.shape[0], -1, dtype=np.int64)
    candidates = np.flatnonzero(is_best)
    first_best[group_number[candidates[::-1]]] = candidates[::-1]
    pivot = order[first_best[group_number]]
    beaten = ((packed[pivot] | guards) - packed[order]) & guards == guards
    beaten &= order != pivot
    return np.sort(order[~beaten])


_GUARD_CHUNK = 1 << 20  # (row, other) comparisons per numpy pass of strictly_dominated


def strictly_dominated(rows: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Whether some row of ``others`` dominates each row of ``rows`` (>= everywhere, not equal).

    Both are ``(n, k)`` integers in 0..1023 with ``k <= 5``.

    >>> strictly_dominated(np.array([[1, 2], [3, 3], [2, 5]]), np.array([[3, 3], [1, 9]])).tolist()
    [True, False, False]
    """
    n = rows.shape[0]
    out = np.zeros(n, dtype=bool)
    if n == 0 or others.shape[0] == 0:
        return out
    packed, row_sum, guards = _guarded_packing(rows)
    theirs, their_sum, _ = _guarded_packing(others)
    # Largest sums first, in blocks doubling in size: when most rows are
    # dominated (the usual case in pruning), the first few others decide
    # them, and later blocks only see the rows still open.  A row is only
    # strictly dominated by a larger sum: it leaves once the sums reach its own.
    by_sum = np.argsort(-their_sum, kind="stable")
    theirs, their_sum = theirs[by_sum], their_sum[by_sum]
    guarded = theirs | guards
    open_rows = np.flatnonzero(row_sum < their_sum[0])
    start, block = 0, 4
    while start < theirs.shape[0] and open_rows.shape[0]:
        stop = start + block
        step = max(1, _GUARD_CHUNK // block)
        for first in range(0, open_rows.shape[0], step):
            chunk = open_rows[first : first + step]
            # (others, rows): the reduction runs along the long axis, several
            # times faster than along a short last one.
            mine = packed[None, chunk]
            beats = ((guarded[start:stop, None] - mine) & guards) == guards
            beats &= theirs[start:stop, None] != mine
            out[chunk] = beats.any(axis=0)
        open_rows = open_rows[~out[open_rows]]
        if stop < theirs.shape[0]:
            open_rows = open_rows[row_sum[open_rows] < their_sum[stop]]
        start, block = stop, block * 2
    return out


def _members(values: np.ndarray, pool: np.ndarray) -> np.ndarray:
    """Whether each value is in ``pool`` (non-empty): ``np.isin`` by one sorted
    search, without np.isin's plain ``np.unique``, whose first call imports
    numpy.ma (about 25 ms of a command's start-up).

    >>> _members(np.array([3, 1, 7]), np.array([7, 2, 3])).tolist()
    [True, False, True]
    """
    ordered = np.sort(pool)
    at = np.minimum(np.searchsorted(ordered, values), ordered.shape[0] - 1)
    return ordered[at] == values


_BROADCAST_UP_TO = 400  # new rows compared all against all, rather than by pareto_keep's rounds


def merge_maximal(known: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The non-dominated rows of ``known`` and ``rows``, ``known`` being non-dominated already.

    Same set as ``pareto_keep`` of both, in another order: the new rows equal to
    or dominated by a known one go first (the usual case), the rest are
    filtered among themselves and remove the known rows they dominate.  A few
    broadcast comparisons of packed rows, where a :func:`pareto_keep` of both
    costs a dozen rounds of numpy calls.

    >>> merge_maximal(np.array([[1, 5], [3, 3]]), np.array([[2, 5], [1, 1], [2, 5]])).tolist()
    [[3, 3], [2, 5]]
    >>> merge_maximal(np.zeros((0, 2)), np.array([[1024, 0]]))
    Traceback (most recent call last):
        ...
    ValueError: merge_maximal needs at most 5 columns of integers in 0..1023
    """
    if rows.shape[1] > 5 or (rows.size and (rows.min() < 0 or rows.max() >= 1 << _BITS)):
        raise ValueError("merge_maximal needs at most 5 columns of integers in 0..1023")
    if rows.shape[0] == 0:
        return known
    packed, _, guards = _guarded_packing(rows)
    _, first = np.unique(packed, return_index=True)
    packed = packed[first]
    theirs = _guarded_packing(known)[0]
    if known.shape[0]:
        covered = _members(packed, theirs) | strictly_dominated(rows[first], known)
        first, packed = first[~covered], packed[~covered]
    if packed.shape[0] > _BROADCAST_UP_TO:
        alive = pareto_keep(np.zeros(packed.shape[0], dtype=np.int64), rows[first])
        first, packed = first[alive], packed[alive]
    elif packed.shape[0] > 1:
        at_least = ((packed[:, None] | guards) - packed[None, :]) & guards == guards
        np.fill_diagonal(at_least, False)  # distinct rows: >= is domination
        alive = ~at_least.any(axis=0)
        first, packed = first[alive], packed[alive]
    if known.shape[0] and packed.shape[0]:
        beaten = (((packed[:, None] | guards) - theirs[None, :]) & guards == guards).any(axis=0)
        known = known[~beaten]
    return np.concatenate([known, rows[first]])
