"""The order of five-card hands by their ranks alone: what a rule set's strengths are made of.

A hand's strength depends only on its multiset of ranks and whether it is a
flush (see :mod:`solver.game.evaluator`).  :func:`ranking` holds, for each of
the 784 rank multisets, the strength and category of a plain hand and of a
flush with those ranks: a few kilobytes built in a millisecond, from which
the table of all 201,376 hands is made, and from which a batch of hands is
valued without that table (a command evaluating one hand, or a holding's
packets, need not enumerate every hand).

>>> table = ranking()
>>> table.n_strengths, int(table.multiset_strength[0])
(840, 780)
>>> multiset_index(np.array([5, 0, 0, 0, 0, 0, 0, 0]))
Traceback (most recent call last):
    ...
solver.errors.CardError: not a five-card rank multiset: [5 0 0 0 0 0 0 0]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement

import numpy as np

from solver.errors import CardError
from solver.game.cards import HAND_SIZE, N_RANKS, N_SUITS
from solver.game.rules import Category, Rules, rules_or_default

__all__ = ["Ranking", "multiset_index", "multiset_lookup", "rank_multisets", "ranking"]


@lru_cache(maxsize=1)
def rank_multisets() -> np.ndarray:
    """The 784 multisets of five ranks a hand can hold, as rank counts.

    Row ``m`` is the count of each rank (7 first) in multiset ``m``; rows are
    sorted by their base-5 key ``sum(count[r] * 5**r)``.  A hand that is not
    a flush has a strength that depends only on its multiset.

    >>> multisets = rank_multisets()
    >>> multisets.shape, multisets[0].tolist()
    ((784, 8), [4, 1, 0, 0, 0, 0, 0, 0])
    """
    # Every multiset of five ranks, at most four of a rank (there are four suits).
    chosen = np.array(list(combinations_with_replacement(range(N_RANKS), HAND_SIZE)))
    counts = (chosen[:, :, None] == np.arange(N_RANKS)).sum(axis=1)
    counts = counts[counts.max(axis=1) <= N_SUITS]
    order = np.argsort(counts @ (5 ** np.arange(N_RANKS)))
    multisets = counts[order].astype(np.int8)
    multisets.setflags(write=False)
    return multisets


@lru_cache(maxsize=1)
def multiset_lookup() -> tuple[np.ndarray, np.ndarray]:
    """Base-5 power of each rank, and the multiset index of each base-5 key (-1: none).

    A hand's multiset is ``index[powers[ranks].sum()]``, its ranks ``card >> 2``.

    >>> powers, index = multiset_lookup()
    >>> int(index[4 * powers[0] + powers[1]]), int(index[5 * powers[0]])
    (0, -1)
    """
    powers = 5 ** np.arange(N_RANKS, dtype=np.int32)
    index = np.full(5**N_RANKS, -1, dtype=np.int32)
    keys = rank_multisets().astype(np.int32) @ powers
    index[keys] = np.arange(keys.shape[0], dtype=np.int32)
    return powers, index


def multiset_index(counts: np.ndarray) -> np.ndarray:
    """Row of :func:`rank_multisets` for rank-count vectors of shape ``(..., 8)``.

    >>> int(multiset_index(np.array([4, 1, 0, 0, 0, 0, 0, 0])))
    0
    >>> multiset_index(np.array([5, 0, 0, 0, 0, 0, 0, 0]))
    Traceback (most recent call last):
        ...
    solver.errors.CardError: not a five-card rank multiset: [5 0 0 0 0 0 0 0]
    """
    counts = np.asarray(counts)
    powers, index = multiset_lookup()
    valid = (counts >= 0).all(axis=-1) & (counts <= 4).all(axis=-1)
    valid &= counts.sum(axis=-1) == HAND_SIZE
    if not np.all(valid):
        bad = counts[~valid][0] if counts.ndim > 1 else counts
        raise CardError(f"not a five-card rank multiset: {bad}")
    return index[counts.astype(np.int64) @ powers]


def _straight_heights(rules: Rules) -> np.ndarray:
    """Height of the straight made by each 8-bit rank set, -1 if none."""
    heights = np.full(1 << N_RANKS, -1, dtype=np.int64)
    for ranks, height in rules.straights():
        heights[sum(1 << r for r in ranks)] = height
    return heights


# Category of a hand without a straight or flush, by (distinct ranks, largest count).
_PATTERN_CATEGORY = np.full((HAND_SIZE + 1, HAND_SIZE + 1), -1, dtype=np.int64)
_PATTERN_CATEGORY[2, 4] = Category.FOUR_OF_A_KIND
_PATTERN_CATEGORY[2, 3] = Category.FULL_HOUSE
_PATTERN_CATEGORY[3, 3] = Category.THREE_OF_A_KIND
_PATTERN_CATEGORY[3, 2] = Category.TWO_PAIR
_PATTERN_CATEGORY[4, 2] = Category.PAIR
_PATTERN_CATEGORY[5, 1] = Category.HIGH_CARD


def _multiset_keys(rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Order keys and categories of each rank multiset, as a non-flush and as a flush."""
    counts = rank_multisets().astype(np.int64)
    present = counts > 0
    distinct = present.sum(axis=1)
    height = _straight_heights(rules)[present @ (1 << np.arange(N_RANKS))]
    is_straight = height >= 0

    plain = _PATTERN_CATEGORY[distinct, counts.max(axis=1)]
    plain = np.where(is_straight, Category.STRAIGHT, plain)
    flush = np.where(is_straight, Category.STRAIGHT_FLUSH, Category.FLUSH)

    # Tie-break: ranks ordered by (count, rank), highest first, as base-8 digits.
    group_key = np.where(present, counts * N_RANKS + np.arange(N_RANKS), -1)
    ordered = -np.sort(-group_key, axis=1)[:, :HAND_SIZE]
    digits = np.where(ordered >= 0, ordered % N_RANKS, 0)
    tie_break = digits @ (N_RANKS ** np.arange(HAND_SIZE - 1, -1, -1))
    tie_break = np.where(is_straight, height, tie_break)

    order_position = np.empty(len(Category), dtype=np.int64)
    order_position[list(rules.category_order())] = np.arange(len(Category))
    scale = N_RANKS**HAND_SIZE
    plain_key = order_position[plain] * scale + tie_break
    flush_key = np.where(distinct == HAND_SIZE, order_position[flush] * scale + tie_break, -1)
    return plain_key, flush_key, plain, flush


@dataclass(frozen=True, eq=False)
class Ranking:
    """Strength and category of every rank multiset, plain and as a flush, for one rule set.

    Attributes
    ----------
    ranking_key
        ``(ace_low_straight, flush_beats_full_house)`` of the rules it was built for.
    multiset_strength, multiset_category
        ``(784,)`` int32 and uint8: a hand with the ranks of each row of
        :func:`rank_multisets` that is not a flush.
    multiset_flush_strength, multiset_flush_category
        ``(784,)`` int32 and uint8: a flush with those ranks (strength -1 where
        the ranks are not five distinct ones).
    strength_category
        ``(n_strengths,)`` uint8: the category of each strength.
    """

    ranking_key: tuple[bool, bool]
    multiset_strength: np.ndarray
    multiset_category: np.ndarray
    multiset_flush_strength: np.ndarray
    multiset_flush_category: np.ndarray
    strength_category: np.ndarray

    @property
    def n_strengths(self) -> int:
        """Number of distinct strengths (840 under the default rules)."""
        return int(self.strength_category.shape[0])


@lru_cache(maxsize=8)
def _ranking(ranking_key: tuple[bool, bool]) -> Ranking:
    rules = Rules(ace_low_straight=ranking_key[0], flush_beats_full_house=ranking_key[1])
    plain_key, flush_key, plain_category, flush_category = _multiset_keys(rules)
    has_flush = flush_key >= 0
    # Sorted distinct keys (not np.unique, which imports numpy.ma: a fifth of start-up).
    keys = np.sort(np.concatenate([plain_key, flush_key[has_flush]]))
    distinct_keys = keys[np.concatenate([[True], keys[1:] != keys[:-1]])]
    plain_strength = np.searchsorted(distinct_keys, plain_key).astype(np.int32)
    flush_strength = np.where(has_flush, np.searchsorted(distinct_keys, flush_key), -1)
    strength_category = np.zeros(distinct_keys.shape[0], dtype=np.uint8)
    strength_category[plain_strength] = plain_category
    strength_category[flush_strength[has_flush]] = flush_category[has_flush]
    table = Ranking(
        ranking_key=ranking_key,
        multiset_strength=plain_strength,
        multiset_category=plain_category.astype(np.uint8),
        multiset_flush_strength=flush_strength.astype(np.int32),
        multiset_flush_category=flush_category.astype(np.uint8),
        strength_category=strength_category,
    )
    for array in (
        table.multiset_strength,
        table.multiset_category,
        table.multiset_flush_strength,
        table.multiset_flush_category,
        table.strength_category,
    ):
        array.setflags(write=False)
    return table


def ranking(rules: Rules | None = None) -> Ranking:
    """The :class:`Ranking` of ``rules`` (built on first use, then cached).

    >>> ranking(Rules(flush_beats_full_house=True)).n_strengths
    840
    """
    return _ranking(rules_or_default(rules).ranking_key)
