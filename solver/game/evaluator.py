"""Strength and category of every five-card hand of the 32-card deck.

All ``C(32, 5) = 201,376`` hands are enumerated once per ranking rule set,
in colexicographic order: the hand with sorted cards ``c0 < c1 < ... < c4``
has index ::

    colex(c) = C(c0, 1) + C(c1, 2) + C(c2, 3) + C(c3, 4) + C(c4, 5)

(the combinatorial number system).  For each index the table stores

* the **category** (:class:`~solver.game.rules.Category`), and
* the **strength**: a small integer, higher beats lower, equal ties.  Under
  the default rules there are 840 distinct strengths, 0 (7-8-9-10-Q high
  card) to 839 (the A-K-Q-J-10 straight flush).

How the strength is built, with no Python loop per hand: count the cards of
each rank; the number of distinct ranks and the largest count give the
pattern (four of a kind, full house, ...); five distinct ranks are a
straight when their rank set is one of the rule set's straights; all suits
equal make a flush.  The tie-break lists the ranks by (count, rank),
highest first, as base-8 digits (the height alone for straights).  Then
``key = position of the category in the rules' order * 8**5 + tie-break``,
and the strengths are the dense ranks of the distinct keys.

Lookups of arbitrary hands turn each hand into a 32-bit card mask and find
its colex index through two 16-bit tables (the colex sum splits into a
contribution of the low 16 cards and one of the high 16 given how many low
cards there are), so no per-hand sort is needed.

>>> import numpy as np
>>> from solver.game.cards import parse_cards
>>> hand = np.array(parse_cards("As Ks Qs Js Ts"))
>>> int(strength(hand)), Category(int(category(hand))).english
(839, 'straight flush')
>>> int(colex_index(np.array([4, 3, 2, 1, 0])))
0
>>> strength(np.array([0, 0, 1, 2, 3]))
Traceback (most recent call last):
    ...
solver.errors.CardError: hands: hand 0 has a repeated card: [0 0 1 2 3]
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from solver.errors import CardError
from solver.game.cards import DECK_SIZE, HAND_SIZE
from solver.game.ranking import multiset_index, multiset_lookup, rank_multisets, ranking
from solver.game.rules import Category, Rules, rules_or_default  # noqa: F401 - Category: doctests
from solver.util.checks import check_int_array

if TYPE_CHECKING:  # imported when a batch first needs the threads: not at start-up
    from concurrent.futures import ThreadPoolExecutor

__all__ = [
    "MAX_HANDS",
    "N_HANDS",
    "HandTable",
    "all_hands",
    "category",
    "colex_index",
    "hand_table",
    "multiset_index",
    "rank_multisets",
    "strength",
]

N_HANDS = 201_376  # C(32, 5)
# The most hands one call values: 16,777,216, some 300 MB of work arrays (a holding has
# 53,130 five-card subsets); a larger batch is refused before anything is copied.
MAX_HANDS = 1 << 24

# BINOM[n, k] = C(n, k) for n <= 32, k <= 5.
_n = np.arange(DECK_SIZE + 1, dtype=np.int64)
BINOM = np.ones((DECK_SIZE + 1, HAND_SIZE + 1), dtype=np.int64)
for _k in range(1, HAND_SIZE + 1):
    BINOM[:, _k] = BINOM[:, _k - 1] * (_n - _k + 1) // _k
BINOM[BINOM < 0] = 0


@lru_cache(maxsize=1)
def all_hands() -> np.ndarray:
    """All 201,376 hands as a read-only ``(N_HANDS, 5)`` uint8 array, colex order.

    Row ``i`` holds the sorted cards of the hand whose colex index is ``i``.

    >>> hands = all_hands()
    >>> hands.shape, hands[0].tolist(), hands[-1].tolist()
    ((201376, 5), [0, 1, 2, 3, 4], [27, 28, 29, 30, 31])
    """
    remaining = np.arange(N_HANDS, dtype=np.int64)
    hands = np.empty((N_HANDS, HAND_SIZE), dtype=np.uint8)
    # Unrank the combinatorial number system, largest card first: c_k is the
    # largest c with C(c, k + 1) <= remaining.
    for k in range(HAND_SIZE, 0, -1):
        column = BINOM[:, k]
        card = np.searchsorted(column, remaining, side="right") - 1
        hands[:, k - 1] = card
        remaining -= column[card]
    hands.setflags(write=False)
    return hands


def _mask_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Tables turning a 32-bit card mask into a colex index, 16 bits at a time.

    ``low[m]`` is the colex contribution of the cards in the low half mask
    ``m``; ``high[p * 2**16 + m]`` that of the high half mask ``m`` when ``p``
    cards lie in the low half; ``popcount[m]`` counts the cards of ``m``.
    Built by doubling: a mask with top bit ``b`` adds ``C(card b, order + 1)``
    to the mask without it, where order is the number of lower cards.
    """
    size = 1 << 16
    popcount = np.zeros(size, dtype=np.int32)
    low = np.zeros(size, dtype=np.int64)
    high = np.zeros((HAND_SIZE + 1, size), dtype=np.int64)
    binom = np.vstack([BINOM, np.zeros((1, HAND_SIZE + 1), dtype=np.int64)])
    for bit in range(16):
        lower = slice(0, 1 << bit)
        upper = slice(1 << bit, 1 << (bit + 1))
        # Orders past the fifth card never occur in a valid hand: clip them.
        order = np.minimum(popcount[lower] + 1, HAND_SIZE)
        popcount[upper] = popcount[lower] + 1
        low[upper] = low[lower] + binom[bit, order]
        for offset in range(HAND_SIZE + 1):
            shifted = np.minimum(popcount[lower] + 1 + offset, HAND_SIZE)
            high[offset, upper] = high[offset, lower] + binom[16 + bit, shifted]
    return low.astype(np.int32), high.reshape(-1).astype(np.int32), popcount


@lru_cache(maxsize=1)
def _colex_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    low, high, popcount = _mask_tables()
    card_bit = (np.uint32(1) << np.arange(DECK_SIZE, dtype=np.uint32)).astype(np.uint32)
    return card_bit, low, high, popcount


def _as_hands(hands: np.ndarray | list[int] | tuple[int, ...]) -> np.ndarray:
    """``hands`` checked: integer card ids of shape ``(..., 5)``, at most :data:`MAX_HANDS`."""
    return check_int_array(
        hands,
        "hands",
        width=HAND_SIZE,
        low=0,
        high=DECK_SIZE - 1,
        max_rows=MAX_HANDS,
        what="card ids",
        error=CardError,
    )


# Large batches are cut into chunks that fit in cache and run on a few
# threads: numpy releases the GIL in these gathers, so two cores give nearly
# twice the throughput.
_CHUNK = 1 << 17
_POOL: ThreadPoolExecutor | None = None


def _pool() -> ThreadPoolExecutor:
    global _POOL
    if _POOL is None:
        from concurrent.futures import ThreadPoolExecutor

        _POOL = ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1)))
    return _POOL


def _card_masks(flat: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Low and high 16-bit card masks of ``(n, 5)`` ids in 0..31, and the low cards' count.

    Raises a :class:`CardError` naming the first hand that repeats a card.
    """
    card_bit, _, _, popcount = _colex_tables()
    if flat.dtype.itemsize > 1:
        flat = flat.astype(np.int8)  # ids are in 0..31: narrow copies are read faster
    columns = flat.T
    mask = np.take(card_bit, columns[0], mode="clip")
    for column in columns[1:]:
        mask |= np.take(card_bit, column, mode="clip")
    low_mask = (mask & np.uint32(0xFFFF)).astype(np.intp)
    high_mask = (mask >> np.uint32(16)).astype(np.intp)
    low_count = np.take(popcount, low_mask, mode="clip")
    distinct = low_count + np.take(popcount, high_mask, mode="clip")
    if int(distinct.min()) != HAND_SIZE:
        first = int(np.argmax(distinct != HAND_SIZE))
        raise CardError(f"hands: hand {first} has a repeated card: {flat[first]}", argument="hands")
    return low_mask, high_mask, low_count


def _colex_chunk(flat: np.ndarray, values: np.ndarray | None) -> np.ndarray:
    """Colex index (or ``values[colex index]``) of a ``(n, 5)`` chunk of valid ids."""
    _, low, high, _ = _colex_tables()
    low_mask, high_mask, low_count = _card_masks(flat)
    low_count <<= 16
    low_count += high_mask
    index = np.take(low, low_mask, mode="clip")
    index += np.take(high, low_count, mode="clip")
    return index if values is None else np.take(values, index, mode="clip")


def _lookup(
    hands: np.ndarray | list[int] | tuple[int, ...], values: np.ndarray | None
) -> np.ndarray:
    array = _as_hands(hands)
    flat = array.reshape(-1, HAND_SIZE)
    if flat.shape[0] == 0:
        dtype = np.int32 if values is None else values.dtype
        return np.zeros(array.shape[:-1], dtype=dtype)
    if flat.shape[0] <= _CHUNK:
        result = _colex_chunk(flat, values)
    else:
        starts = range(0, flat.shape[0], _CHUNK)
        chunks = [flat[start : start + _CHUNK] for start in starts]
        try:
            parts = list(_pool().map(lambda chunk: _colex_chunk(chunk, values), chunks))
        except CardError as error:
            raise _offset_error(error, chunks, values) from None
        result = np.concatenate(parts)
    return result.reshape(array.shape[:-1])


def _offset_error(
    error: CardError, chunks: list[np.ndarray], values: np.ndarray | None
) -> CardError:
    """Re-raise a repeated-card error with the hand number in the whole batch."""
    offset = 0
    for chunk in chunks:
        try:
            _colex_chunk(chunk, values)
        except CardError:
            first = int(np.argmax(_distinct_cards(chunk) != HAND_SIZE))
            return CardError(
                f"hands: hand {offset + first} has a repeated card: {chunk[first]}",
                argument="hands",
            )
        offset += chunk.shape[0]
    return error


def _distinct_cards(flat: np.ndarray) -> np.ndarray:
    ordered = np.sort(flat, axis=1)
    return 1 + (np.diff(ordered, axis=1) != 0).sum(axis=1)


def colex_index(hands: np.ndarray | list[int] | tuple[int, ...]) -> np.ndarray:
    """Colex index of each hand of an integer array of shape ``(..., 5)``.

    Cards may be in any order.  The result has the leading shape.

    Raises
    ------
    CardError
        If ``hands`` is not an integer array of shape ``(..., 5)`` of at most
        :data:`MAX_HANDS` hands, a card id is outside 0..31 or a hand repeats a card.

    >>> colex_index([[0, 1, 2, 3, 4], [31, 30, 29, 28, 27]]).tolist()
    [0, 201375]
    >>> colex_index([0, 1, 2, 3, 32])
    Traceback (most recent call last):
        ...
    solver.errors.CardError: hands: card ids must be in 0..31, got 32
    """
    return _lookup(hands, None)


@dataclass(frozen=True, eq=False)
class HandTable:
    """Strength and category of every hand, for one ranking rule set.

    Attributes
    ----------
    ranking_key
        ``(ace_low_straight, flush_beats_full_house)`` of the rules it was built for.
    strength
        ``(N_HANDS,)`` uint16, indexed by colex index.
    category
        ``(N_HANDS,)`` uint8 :class:`~solver.game.rules.Category` values.
    strength_category
        ``(n_strengths,)`` uint8: the category of each strength.
    strength_example
        ``(n_strengths,)`` int32: the colex index of one hand of each strength.
    multiset_strength
        ``(784,)`` int32: the strength of a hand with the ranks of each row of
        :func:`rank_multisets` that is not a flush.
    multiset_flush_strength
        ``(784,)`` int32: the strength of a flush with those ranks, -1 where
        the ranks are not five distinct ones.
    """

    ranking_key: tuple[bool, bool]
    strength: np.ndarray
    category: np.ndarray
    strength_category: np.ndarray
    strength_example: np.ndarray
    multiset_strength: np.ndarray
    multiset_flush_strength: np.ndarray

    @property
    def n_strengths(self) -> int:
        """Number of distinct strengths (840 under the default rules)."""
        return int(self.strength_category.shape[0])


# The ranking keys whose table of every hand is built, and the hands valued by rank multiset
# before: a lookup by multiset costs about four of the table, so once as many hands as the
# table holds were valued that way, building it pays.
_BUILT: set[tuple[bool, bool]] = set()
_BY_MULTISET: dict[tuple[bool, bool], int] = {}


@lru_cache(maxsize=8)
def _build_table(ranking_key: tuple[bool, bool]) -> HandTable:
    ranks = ranking(Rules(ace_low_straight=ranking_key[0], flush_beats_full_house=ranking_key[1]))
    hands = all_hands()
    powers, index = multiset_lookup()
    multiset = index[powers[hands >> 2].sum(axis=1)]
    suits = hands & 3
    is_flush = (suits == suits[:, :1]).all(axis=1)
    strength_values = np.where(
        is_flush, ranks.multiset_flush_strength[multiset], ranks.multiset_strength[multiset]
    ).astype(np.uint16)
    category_values = np.where(
        is_flush, ranks.multiset_flush_category[multiset], ranks.multiset_category[multiset]
    ).astype(np.uint8)

    first_hand = np.full(ranks.n_strengths, -1, dtype=np.int64)
    first_hand[strength_values[::-1]] = np.arange(N_HANDS - 1, -1, -1)
    table = HandTable(
        ranking_key=ranking_key,
        strength=strength_values,
        category=category_values,
        strength_category=category_values[first_hand],
        strength_example=first_hand.astype(np.int32),
        multiset_strength=ranks.multiset_strength,
        multiset_flush_strength=ranks.multiset_flush_strength,
    )
    for array in (table.strength, table.category, table.strength_category, table.strength_example):
        array.setflags(write=False)
    return table


def hand_table(rules: Rules | None = None) -> HandTable:
    """The table of every hand for ``rules`` (built on first use, then cached).

    >>> table = hand_table()
    >>> table.n_strengths, table.strength.shape
    (840, (201376,))
    """
    key = rules_or_default(rules).ranking_key
    _BUILT.add(key)
    return _build_table(key)


def strength(
    hands: np.ndarray | list[int] | tuple[int, ...], rules: Rules | None = None
) -> np.ndarray:
    """Strength of each hand of an integer array of card ids of shape ``(..., 5)``.

    Higher beats lower; equal strengths tie.  Returns uint16 of the leading shape.

    >>> from solver.game.cards import parse_cards
    >>> a, b = parse_cards("Ac Kc Qc Jc Tc"), parse_cards("Ad Kd Qd Jd Td")
    >>> strength([a, b]).tolist()
    [839, 839]
    >>> strength([1, 2, 3])
    Traceback (most recent call last):
        ...
    solver.errors.CardError: hands must have shape (..., 5), got (3,)
    """
    return _value(hands, rules, strength=True)


def category(
    hands: np.ndarray | list[int] | tuple[int, ...], rules: Rules | None = None
) -> np.ndarray:
    """:class:`~solver.game.rules.Category` value of each hand of shape ``(..., 5)``.

    >>> from solver.game.cards import parse_cards
    >>> Category(int(category(parse_cards("7c 7d 7h 8s 8c")))).english
    'full house'
    """
    return _value(hands, rules, strength=False)


def _value(
    hands: np.ndarray | list[int] | tuple[int, ...], rules: Rules | None, *, strength: bool
) -> np.ndarray:
    """Strength or category: from the table of every hand once it is built (or pays), else
    from the hands' rank multisets (a command valuing a few hands need not build it)."""
    key = rules_or_default(rules).ranking_key
    array = _as_hands(hands)
    valued = _BY_MULTISET.get(key, 0) + array.size // HAND_SIZE
    if key in _BUILT or valued >= N_HANDS:
        _BUILT.add(key)
        table = _build_table(key)
        return _lookup(array, table.strength if strength else table.category)
    _BY_MULTISET[key] = valued
    ranks = ranking(rules)
    if strength:
        plain, flush, dtype = ranks.multiset_strength, ranks.multiset_flush_strength, np.uint16
    else:
        plain, flush, dtype = ranks.multiset_category, ranks.multiset_flush_category, np.uint8
    flat = array.reshape(-1, HAND_SIZE)
    if flat.shape[0] == 0:
        return np.zeros(array.shape[:-1], dtype=dtype)
    _card_masks(flat)  # refuses repeated cards
    powers, index = multiset_lookup()
    multiset = index[powers[flat >> 2].sum(axis=1)]
    suits = flat & 3
    is_flush = (suits == suits[:, :1]).all(axis=1)
    values = np.where(is_flush, flush[multiset], plain[multiset]).astype(dtype)
    return values.reshape(array.shape[:-1])
