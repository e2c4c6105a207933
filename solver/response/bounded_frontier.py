"""Rank-state frontiers of one holding, pruned by bounds (branch and bound over levels).

:mod:`solver.response.rank_frontier` computes every non-dominated row of
every rank-count state, but a holding's frontier uses very few of them
(typically under 1% of the rows of the middle levels).  Here the same
level-by-level recursion runs for one holding, and drops the rows that
cannot reach its frontier.

A row ``p`` of a state ``c`` of width ``w`` ends up in complete profiles
``sorted(p + q)``, ``q`` a *completion* of ``c``: the flushes of a flush
plan whose residual leads to ``c`` and the packets chosen above ``c``.

* **Upper bound.**  ``U(c)``, the component-wise maximum of the sorted
  completions of ``c``, is computed top-down before any frontier:

      U(r) = sorted flush strengths of the plans with residual r (max over plans)
      U(c - m) = max over parents c of sorted(U(c) + [strength(m)])

  Sorting is monotone (``q <= q'`` component-wise implies the same of
  ``sorted(p + q)`` and ``sorted(p + q')``), so every complete profile
  through ``p`` is at most ``opt(p) = sorted(p + U(c))``.
* **Lower set.**  ``K``, the complete profiles found so far: the plans whose
  residual has ``w`` packets are complete once level ``w`` is, and lower
  levels come first.

If some ``k`` in ``K`` strictly dominates ``opt(p)``, every profile through
``p`` is strictly dominated by the achievable ``k``, and ``p`` is dropped.
This is exact: a frontier profile ``z`` through rows ``p`` has
``z <= opt(p)``, so ``k > opt(p)`` would give ``k > z``, and ``z`` would
not be on the frontier.  (Per-state Pareto pruning keeps its usual
argument: a row dominating ``p`` reaches a profile at least ``z``.)

The same test runs before any row is built, on coarser bounds: a
(state, multiset) pair's rows are at most ``insert(Q, strength(m))``, ``Q``
the child state's component-wise maximum row, and a state's at most the
maximum over its pairs.  Most states and pairs of the middle levels fall
there, so the rows of few are ever enumerated and Pareto-filtered.

>>> from solver.game.rules import Rules
>>> from solver.game.evaluator import hand_table
>>> strengths = hand_table(Rules()).multiset_strength
>>> key = int(np.array([4, 4, 2, 0, 0, 0, 0, 0]) @ POW5)
>>> plans = {2: (np.array([key]), np.zeros((1, 0), dtype=np.int64))}
>>> store = HoldingFrontiers(strengths, plans, n_packets=2)
>>> store.candidates.tolist()
[[781, 788]]
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from solver.response.pareto import merge_maximal, pareto_keep, ragged_arange, strictly_dominated
from solver.response.rank_frontier import (
    POW5,
    RankLevel,
    insert_sorted,
    multiset_table,
    option_runs,
    trace_row,
)

__all__ = ["POW5", "HoldingFrontiers"]


@dataclass(frozen=True)
class _Stage:
    """The states of one level, their upper bounds, and their (state, multiset) options."""

    keys: np.ndarray  # (S,) sorted
    upper: np.ndarray  # (S, n_packets - width) sorted completion bounds (no columns at
    # level 1 unless a plan is all flushes: unread there)
    witness: np.ndarray  # (S, n_packets - width) one achievable sorted completion
    state: np.ndarray  # (pairs,) index of the state (runs: pairs are by state)
    multiset: np.ndarray  # (pairs,) multiset removed
    n_options: np.ndarray  # (S,) pairs of each state
    columns: np.ndarray  # (n_packets - width, S) the upper bounds by column
    child_index: np.ndarray | None = None  # (pairs,) its index among the next stage's keys


_KEY_RANGE = int(POW5[-1]) * 5  # rank-count keys are below 5**8


def _insert_columns(rows: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Each sorted row with its value inserted, column by column: entry ``j`` is
    ``min(max(value, rows[j - 1]), rows[j])`` (no sorting, no positions).

    >>> _insert_columns(np.array([[1, 5], [2, 3]]), np.array([3, 9])).tolist()
    [[1, 3, 5], [2, 3, 9]]
    """
    n, width = rows.shape
    out = np.empty((n, width + 1), dtype=rows.dtype)
    for j in range(width + 1):
        column = values if j == 0 else np.maximum(values, rows[:, j - 1])
        out[:, j] = column if j == width else np.minimum(column, rows[:, j])
    return out


def _insert_into(columns: np.ndarray, values: np.ndarray, out: np.ndarray) -> None:
    """:func:`_insert_columns` on bounds stored by column: ``columns`` is
    ``(width, n)``, ``out`` the ``(width + 1, n)`` result (no temporaries).

    >>> out = np.empty((3, 2), dtype=np.int64)
    >>> _insert_into(np.array([[1, 2], [5, 3]]), np.array([3, 9]), out)
    >>> out.T.tolist()
    [[1, 3, 5], [2, 3, 9]]
    """
    width = columns.shape[0]
    for j in range(width + 1):
        if j == 0:
            out[0] = values if width == 0 else np.minimum(values, columns[0])
            continue
        np.maximum(values, columns[j - 1], out=out[j])
        if j < width:
            np.minimum(out[j], columns[j], out=out[j])


def _group_max(
    keys: np.ndarray, columns: np.ndarray, scores: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Distinct keys (sorted), the component-wise maximum of their rows
    (``columns`` holds the rows by column, and so does the result), for each
    key the index of its last row of largest score (scores are non-negative),
    and the index of each key among the distinct ones.

    Keys index dense arrays (they are below 5**8): no sorting.

    >>> distinct, upper, pick, group = _group_max(
    ...     np.array([7, 3, 7, 7]), np.array([[1, 4, 2, 1]]), np.array([2, 0, 5, 5]))
    >>> distinct.tolist(), upper.tolist(), pick.tolist(), group.tolist()
    ([3, 7], [[4, 2]], [1, 3], [1, 0, 1, 1])
    """
    seen = np.zeros(_KEY_RANGE, dtype=bool)
    seen[keys] = True
    distinct = np.flatnonzero(seen)
    slot = np.empty(_KEY_RANGE, dtype=np.int64)  # read only at the keys written
    slot[distinct] = np.arange(distinct.shape[0])
    group = slot[keys]
    upper = np.zeros((columns.shape[0], distinct.shape[0]), dtype=columns.dtype)
    for j in range(columns.shape[0]):
        np.maximum.at(upper[j], group, columns[j])
    # The largest score of each key, then the last of its rows that reach it
    # (few: a maximum over them), in the scores' own small dtype: no int64
    # temporaries over all rows (their fresh pages cost more than the maxima).
    top = np.zeros(distinct.shape[0], dtype=scores.dtype)
    np.maximum.at(top, group, scores)
    ties = np.flatnonzero(scores == top[group])
    pick = np.zeros(distinct.shape[0], dtype=np.int64)
    np.maximum.at(pick, group[ties], ties)
    return distinct, upper, pick, group


class HoldingFrontiers:
    """The pruned rank-state frontiers of one holding, and its complete profiles.

    Parameters
    ----------
    multiset_strength
        Strength of each rank multiset as a non-flush packet.
    plans
        For each width ``w``: the residual keys of the flush plans leaving
        ``w`` packets, and their sorted flush strengths ``(P, n_packets - w)``.
    n_packets
        Packets per arrangement.

    Attributes
    ----------
    candidates
        Every complete profile kept (sorted rows; a superset of the frontier).
    origin
        ``(plan width, plan index within its width, row within the residual state)``
        of each candidate.
    """

    def __init__(
        self,
        multiset_strength: np.ndarray,
        plans: dict[int, tuple[np.ndarray, np.ndarray]],
        n_packets: int,
    ) -> None:
        self.strength = multiset_strength.astype(np.int64)
        self.strength16 = multiset_strength.astype(np.int16)
        self.n_packets = n_packets
        self.levels: dict[int, RankLevel] = {}
        stages = self._discover(plans)
        known = np.zeros((0, n_packets), dtype=np.int64)
        found, origins = [], []
        below = RankLevel(
            keys=np.zeros(1, dtype=np.int64),
            offsets=np.array([0, 1]),
            rows=np.zeros((1, 0), dtype=np.int16),
            choice=np.zeros(1, dtype=np.int32),
            child=np.zeros(1, dtype=np.int32),
        )
        self.levels[0] = below
        for width in range(n_packets + 1):
            if width:
                below = self._compute(width, stages[width], below, known)
                self.levels[width] = below
                known = merge_maximal(known, self._witnessed(stages[width], below))
            if width in plans:
                rows, origin = self._complete(width, *plans[width])
                found.append(rows)
                origins.append(origin)
                known = merge_maximal(known, rows)
        self.candidates = np.concatenate(found) if found else known
        self.origin = np.concatenate(origins) if origins else np.zeros((0, 3), dtype=np.int64)

    def _discover(self, plans: dict[int, tuple[np.ndarray, np.ndarray]]) -> dict[int, _Stage]:
        """Every state reachable from the plans, top-down, with its bounds and witness."""
        stages: dict[int, _Stage] = {}
        parent: _Stage | None = None
        for width in range(self.n_packets, 0, -1):
            completed = self.n_packets - width
            root_keys, root_rows = plans.get(
                width, (np.zeros(0, dtype=np.int64), np.zeros((0, completed), dtype=np.int64))
            )
            root_rows = root_rows.astype(np.int64)
            n_roots = root_keys.shape[0]
            # Level 1's bounds are read only when a plan is all flushes (its
            # profiles are known before level 1): otherwise only its witnesses are.
            bounded = completed if width > 1 or 0 in plans else 0
            keys, columns, scores = self._candidates(parent, root_keys, root_rows, bounded)
            distinct, bound, pick, group = _group_max(keys, columns, scores)
            if parent is not None:
                stages[width + 1] = replace(parent, child_index=group[n_roots:])
            # The witness of each state: its pick's root flushes or parent witness + packet.
            witness = np.zeros((distinct.shape[0], completed), dtype=np.int64)
            from_root = pick < n_roots
            witness[from_root] = root_rows[pick[from_root]]
            if parent is not None and not from_root.all():
                pair = pick[~from_root] - n_roots
                witness[~from_root] = _insert_columns(
                    parent.witness[parent.state[pair]], self.strength[parent.multiset[pair]]
                )
            n_options, multiset = (
                option_runs(distinct) if width > 1 else (np.zeros_like(distinct), distinct[:0])
            )
            stage = _Stage(
                distinct,
                bound.T.copy(),
                witness,
                np.arange(distinct.shape[0]).repeat(n_options),
                multiset,
                n_options,
                columns=bound,
            )
            stages[width] = parent = stage
        return stages

    def _candidates(
        self, parent: _Stage | None, root_keys: np.ndarray, root_rows: np.ndarray, bounded: int
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A level's rows before grouping by state: the roots, then the parent's pairs
        (their child's key, bound columns, ``bounded`` of them, and witness score)."""
        _, ms_keys, _ = multiset_table()
        n_roots = root_keys.shape[0]
        n = n_roots + (0 if parent is None else parent.state.shape[0])
        # Strengths are below 1024: the bounds are int16 (less memory traffic),
        # by column (the pairs' gathers and maxima run on contiguous columns);
        # scores (sums of at most 5 strengths) too.
        keys = np.empty(n, dtype=np.int64)
        columns = np.empty((bounded, n), dtype=np.int16)
        scores = np.empty(n, dtype=np.int16)
        keys[:n_roots], columns[:, :n_roots] = root_keys, root_rows.T[:bounded]
        scores[:n_roots] = root_rows.sum(axis=1)
        if parent is not None:
            # Pairs come in runs by state: repeats, not gathers, spread the
            # parents' keys, bounds and scores over them.
            added = self.strength16[parent.multiset]
            runs = parent.n_options
            np.subtract(parent.keys.repeat(runs), ms_keys[parent.multiset], out=keys[n_roots:])
            if bounded:
                _insert_into(parent.columns.repeat(runs, axis=1), added, columns[:, n_roots:])
            scored = parent.witness.sum(axis=1).astype(np.int16)
            np.add(scored.repeat(runs), added, out=scores[n_roots:])
        return keys, columns, scores

    def _compute(self, width: int, stage: _Stage, below: RankLevel, known: np.ndarray) -> RankLevel:
        """The pruned frontiers of one level's states, from the level below."""
        _, ms_keys, _ = multiset_table()
        if width == 1:
            multiset = np.searchsorted(ms_keys, stage.keys)
            pair = np.arange(stage.keys.shape[0])
            group = pair
            local = np.zeros(pair.shape[0], dtype=np.int64)
            rows = self.strength[multiset][:, None].astype(np.int16)
        else:
            assert stage.child_index is not None  # set by _discover for every width > 1
            child_state = stage.child_index
            child_sizes = np.diff(below.offsets)
            # Most children are empty: a bool gather over the pairs, then sizes of the few.
            live = np.flatnonzero((child_sizes > 0)[child_state])
            if known.shape[0]:
                live = self._pair_alive(stage, below, live, known)
            sizes = child_sizes[child_state[live]]
            pair = np.repeat(live, sizes)
            local = ragged_arange(sizes)
            child_row = np.repeat(below.offsets[child_state[live]], sizes) + local
            multiset = stage.multiset
            rows = insert_sorted(
                np.take(below.rows, child_row, axis=0), self.strength16[multiset[pair]]
            )
            group = stage.state[pair]
        keep = pareto_keep(group, rows)
        kept = np.flatnonzero(keep)
        if known.shape[0]:
            bound = np.sort(np.concatenate([rows[kept], stage.upper[group[kept]]], axis=1), axis=1)
            kept = kept[~strictly_dominated(bound, known)]
        order = kept[np.argsort(group[kept], kind="stable")]
        counts = np.bincount(group[order], minlength=stage.keys.shape[0])
        return RankLevel(
            keys=stage.keys,
            offsets=np.concatenate([[0], np.cumsum(counts)]),
            rows=rows[order],
            choice=multiset[pair[order]].astype(np.int32),
            child=local[order].astype(np.int32),
        )

    def _pair_alive(
        self, stage: _Stage, below: RankLevel, live: np.ndarray, known: np.ndarray
    ) -> np.ndarray:
        """The pairs of ``live`` (indices of the (state, multiset) pairs whose child
        has rows) that may add a row the bound test keeps.

        Every row of the pair is ``insert(q, strength(m))`` for a row ``q`` of the
        child, at most the child's component-wise maximum ``Q``; so its bound is
        at most ``sorted(Q + [strength(m)] + U(state))``.  If a known profile
        strictly dominates that, it strictly dominates every row's bound (a
        profile above both would equal neither), and the row test would drop
        them all.  Dropping them first changes nothing else: a row dominating a
        kept row has a bound at least as large, so it is kept too.
        """
        assert stage.child_index is not None
        if live.shape[0] == 0:
            return live
        filled = np.flatnonzero(np.diff(below.offsets) > 0)
        # Bounds by column: the gathers and maxima over pairs run on contiguous arrays.
        child_max = np.zeros((below.rows.shape[1], below.keys.shape[0]), dtype=np.int16)
        child_max[:, filled] = np.maximum.reduceat(below.rows, below.offsets[filled], axis=0).T
        every = live.shape[0] == stage.state.shape[0]
        child = stage.child_index if every else stage.child_index[live]
        state = stage.state if every else stage.state[live]
        columns = np.empty((below.rows.shape[1] + 1, live.shape[0]), dtype=np.int16)
        _insert_into(
            np.take(child_max, child, axis=1),
            self.strength16[stage.multiset if every else stage.multiset[live]],
            columns,
        )
        # Whole states first (most fall here): the maximum over a state's pairs
        # bounds each of them.  Pairs are sorted by state, so states are runs.
        starts = np.flatnonzero(np.concatenate([[True], state[1:] != state[:-1]]))
        states = state[starts]
        state_max = np.maximum.reduceat(columns, starts, axis=1).T
        state_bound = np.sort(np.concatenate([state_max, stage.upper[states]], axis=1), axis=1)
        state_alive = np.zeros(stage.keys.shape[0], dtype=bool)
        state_alive[states] = ~strictly_dominated(state_bound, known)
        open_pairs = np.flatnonzero(state_alive[state])
        bound = np.concatenate(
            [
                np.take(columns, open_pairs, axis=1).T,
                np.take(stage.upper, state[open_pairs], axis=0),
            ],
            axis=1,
        )
        return live[open_pairs[~strictly_dominated(np.sort(bound, axis=1), known)]]

    def _witnessed(self, stage: _Stage, level: RankLevel) -> np.ndarray:
        """Achievable complete profiles: each row with its state's witness completion."""
        group = np.repeat(np.arange(stage.keys.shape[0]), np.diff(level.offsets))
        rows = np.concatenate(
            [level.rows.astype(np.int64), np.take(stage.witness, group, axis=0)], axis=1
        )
        return np.sort(rows, axis=1)

    def _complete(
        self, width: int, keys: np.ndarray, flushes: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """The plans of one width, completed: sorted profiles and their origins."""
        level = self.levels[width]
        index = level.find(keys)
        start, sizes = level.offsets[index], level.offsets[index + 1] - level.offsets[index]
        local = ragged_arange(sizes)
        row = np.repeat(start, sizes) + local
        plan = np.repeat(np.arange(keys.shape[0]), sizes)
        rows = np.concatenate(
            [np.take(level.rows, row, axis=0).astype(np.int64), np.take(flushes, plan, axis=0)],
            axis=1,
        )
        origin = np.column_stack([np.full(plan.shape[0], width), plan, local])
        return np.sort(rows, axis=1), origin

    def level(self, width: int) -> RankLevel:
        """The states of a level."""
        return self.levels[width]

    def trace(self, width: int, key: int, row: int) -> list[int]:
        """The multisets of a state's frontier row (``row`` counted within the state)."""
        return trace_row(self.levels.__getitem__, width, key, row)
