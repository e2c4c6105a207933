"""The packets a holding can form, reduced to what decides their strength.

A packet that is not a flush has a strength that depends only on its
multiset of ranks; suits matter only for flushes and straight flushes.  So
the packets of a holding fall into two kinds of **options**:

* a **rank multiset** ``m`` with ``m <= c`` (``c`` the holding's rank
  counts): any five cards with those ranks, valued as a non-flush hand;
* a **flush**: five specific cards of one suit (a flush or a straight
  flush).

Choosing one option per position so that the options use exactly the
holding's rank counts, with no card in two flushes, always corresponds to
real arrangements: flush packets take their cards, the other cards are
dealt to the multiset packets by rank.  Such a packet may happen to be a
flush too; that only makes it stronger, and the explicit flush options
already cover that arrangement.  Any two flushes of one suit share a card
(a suit has at most 8), so a holding forms at most one flush per suit.

This reduction turns the 53,130 five-card subsets of a 25-card holding into
a few hundred options, which is what makes exact optimization fast.

>>> from solver.game.cards import parse_cards
>>> options = packet_options(parse_cards("As Ks Qs Js Ts 9s 7h 7d 7c 8c"))
>>> options.n_options > 0, int(options.strength.max())
(True, 839)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np

from solver.errors import ArrangementError, CardError, QuintetError
from solver.game.cards import DECK_SIZE, HAND_SIZE, N_RANKS, N_SUITS, card_ids, format_cards
from solver.game.evaluator import BINOM, multiset_index, rank_multisets, strength
from solver.game.ranking import ranking
from solver.game.rules import Rules, rules_or_default
from solver.util.checks import check_int

__all__ = [
    "MAX_SUBSETS",
    "PacketOptions",
    "check_holding",
    "packet_options",
    "rank_counts",
    "realize",
    "strength_counts",
    "subsets",
]


def check_holding(
    cards: Iterable[int], rules: Rules | None = None, *, who: str = "holding"
) -> tuple[int, ...]:
    """Validate a holding: ``5 * n_packets`` distinct card ids; return them sorted.

    >>> check_holding(range(25))[:3]
    (0, 1, 2)
    >>> check_holding(range(24))
    Traceback (most recent call last):
        ...
    solver.errors.CardError: holding: expected 25 cards, got 24
    """
    rules = rules_or_default(rules)
    held = list(card_ids(cards, who=who))
    expected = HAND_SIZE * rules.n_packets
    if len(held) != expected:
        raise CardError(f"{who}: expected {expected} cards, got {len(held)}")
    if len(set(held)) != len(held):
        repeated = sorted({c for c in held if held.count(c) > 1})
        raise CardError(f"{who}: card {format_cards(repeated[:1])} appears twice")
    if any(not 0 <= c < DECK_SIZE for c in held):
        raise CardError(f"{who}: card ids must be in 0..{DECK_SIZE - 1}")
    return tuple(sorted(held))


def rank_counts(cards: Iterable[int]) -> np.ndarray:
    """Number of cards of each rank (7 first), as an int64 array of 8.

    ``cards`` are distinct card ids (:func:`~solver.game.cards.card_ids`).

    >>> rank_counts([0, 1, 31]).tolist()
    [2, 0, 0, 0, 0, 0, 0, 1]
    >>> rank_counts([0, 32])
    Traceback (most recent call last):
        ...
    solver.errors.CardError: cards: card id 32 out of range 0..31
    """
    ids = np.array(card_ids(cards, who="cards"), dtype=np.int64)
    counted = np.bincount(ids, minlength=DECK_SIZE)
    if ids.size and counted.max() > 1:  # a card counted twice would count its rank twice
        repeated = int(np.argmax(counted > 1))
        raise CardError(f"cards: card {format_cards([repeated])} appears twice", argument="cards")
    return counted.reshape(N_RANKS, N_SUITS).sum(axis=1)


# The most subsets :func:`subsets` makes (C(25, 5) = 53,130 are the packets of a holding).
MAX_SUBSETS = 1 << 21


def subsets(n: int, k: int = HAND_SIZE) -> np.ndarray:
    """All ``k``-subsets of ``range(n)`` in lexicographic order, shape ``(C(n, k), k)``.

    ``n`` is at most 127 (the elements are int8), ``k`` at least 1, and the subsets at
    most :data:`MAX_SUBSETS`, counted before any is made.

    >>> subsets(6).shape, subsets(6)[-1].tolist()
    ((6, 5), [1, 2, 3, 4, 5])
    >>> subsets(3).shape
    (0, 5)
    >>> subsets(200)
    Traceback (most recent call last):
        ...
    solver.errors.QuintetError: n must be in [0, 127], got 200
    """
    # Checked before the cache: subsets(6.0) or subsets(True) would hit the entry of an int.
    n = check_int(n, "n", low=0, high=np.iinfo(np.int8).max)
    k = check_int(k, "k", low=1, high=np.iinfo(np.int8).max)
    if math.comb(n, k) > MAX_SUBSETS:
        raise QuintetError(
            f"n: the {math.comb(n, k)} {k}-subsets of {n} are more than {MAX_SUBSETS}",
            argument="n",
        )
    return _subsets(n, k)


@lru_cache(maxsize=8)
def _subsets(n: int, k: int) -> np.ndarray:
    if 0 < k <= HAND_SIZE and k <= n <= DECK_SIZE:
        out = _lexicographic(n, k)
    else:
        out = np.array(list(combinations(range(n), k)), dtype=np.int8).reshape(-1, k)
    out.setflags(write=False)
    return out


def strength_counts(holding: Iterable[int], rules: Rules | None = None) -> np.ndarray:
    """How many five-card subsets of ``holding`` have each strength, shape ``(n_strengths,)``.

    Counted by rank multiset, not hand by hand: the holding's rank counts
    ``c`` give a multiset ``m`` of ranks ``prod_r C(c_r, m_r)`` subsets; when
    its five ranks are distinct, the suits holding all five give that many
    flushes, counted at the flush strength, the rest at the multiset's (784
    multisets where a holding of 25 cards has 53,130 subsets).

    >>> counts = strength_counts(range(25))
    >>> int(counts.sum()), counts.shape
    (53130, (840,))
    >>> strength_counts(range(4)).sum()
    Traceback (most recent call last):
        ...
    solver.errors.CardError: holding: expected 25 cards, got 4
    """
    rules = rules_or_default(rules)
    cards = np.array(check_holding(holding, rules), dtype=np.int64)
    table = ranking(rules)
    multisets = rank_multisets().astype(np.int64)
    held = np.bincount(cards >> 2, minlength=N_RANKS)
    ways = BINOM[held, multisets].prod(axis=1)
    # The suits that hold every rank of a multiset of five distinct ranks: its flushes.
    in_suit = np.zeros((N_SUITS, N_RANKS), dtype=np.int64)
    in_suit[cards & 3, cards >> 2] = 1
    distinct = multisets.max(axis=1) == 1
    flushes = np.where(distinct, (multisets @ in_suit.T == HAND_SIZE).sum(axis=1), 0)
    counts = np.bincount(
        table.multiset_strength, weights=ways - flushes, minlength=table.n_strengths
    )
    counts += np.bincount(
        table.multiset_flush_strength[distinct],
        weights=flushes[distinct],
        minlength=table.n_strengths,
    )
    return counts.astype(np.int64)


def _lexicographic(n: int, k: int) -> np.ndarray:
    """The ``k``-subsets of ``range(n)`` by unranking, as :func:`subsets` (no Python loop).

    Colexicographic order compares the largest elements first, so mapping each
    element ``x`` to ``n - 1 - x`` turns the colex order of the subsets into
    the reverse of the lexicographic one.
    """
    remaining = np.arange(int(BINOM[n, k]), dtype=np.int64)
    colex = np.empty((remaining.shape[0], k), dtype=np.int8)
    for size in range(k, 0, -1):  # the largest element c: the largest with C(c, size) <= rest
        column = BINOM[:, size]
        element = np.searchsorted(column, remaining, side="right") - 1
        colex[:, size - 1] = element
        remaining -= column[element]
    return np.ascontiguousarray((n - 1) - colex[::-1, ::-1])


@dataclass(frozen=True, eq=False)
class PacketOptions:
    """The options of a holding: rank multisets first, then flushes.

    Attributes
    ----------
    holding
        The sorted cards.
    counts
        ``(8,)`` rank counts of the holding.
    usage
        ``(n_options, 8)`` rank counts each option uses.
    strength
        ``(n_options,)`` strength of each option.
    multiset
        ``(n_options,)`` row of :func:`~solver.game.evaluator.rank_multisets`.
    flush_cards
        ``(n_options, 5)`` cards of flush options, -1 for multiset options.
    flush_suit
        ``(n_options,)`` suit of flush options, -1 for multiset options.
    """

    holding: tuple[int, ...]
    counts: np.ndarray
    usage: np.ndarray
    strength: np.ndarray
    multiset: np.ndarray
    flush_cards: np.ndarray
    flush_suit: np.ndarray

    @property
    def n_options(self) -> int:
        """Number of options."""
        return int(self.strength.shape[0])

    @property
    def is_flush(self) -> np.ndarray:
        """Boolean mask of the flush options."""
        return self.flush_suit >= 0


def packet_options(holding: Iterable[int], rules: Rules | None = None) -> PacketOptions:
    """Every option (rank multiset or flush) a holding can form, with strengths.

    Parameters
    ----------
    holding
        Distinct card ids (any number of at least five).
    rules
        The ranking rules.

    >>> from solver.game.cards import parse_cards
    >>> opts = packet_options(parse_cards("7c 7d 7h 8c 8d"))
    >>> opts.n_options, opts.usage[0].tolist()
    (1, [3, 2, 0, 0, 0, 0, 0, 0])
    >>> packet_options([0, 0, 1, 2, 3])
    Traceback (most recent call last):
        ...
    solver.errors.CardError: holding has a repeated card
    """
    table = ranking(rules)
    cards = sorted(int(c) for c in holding)
    if len(set(cards)) != len(cards):
        raise CardError("holding has a repeated card")
    counts = rank_counts(cards)
    multisets = rank_multisets().astype(np.int64)
    fits = (multisets <= counts).all(axis=1)
    plain_ids = np.flatnonzero(fits)

    flush_rows: list[tuple[int, ...]] = []
    for suit in range(N_SUITS):
        suited = [c for c in cards if c & 3 == suit]
        flush_rows.extend(combinations(suited, HAND_SIZE))
    flush_cards = np.array(flush_rows, dtype=np.int64).reshape(-1, HAND_SIZE)
    flush_usage = rank_counts_rows(flush_cards)
    flush_multiset = multiset_index(flush_usage) if len(flush_rows) else np.zeros(0, dtype=np.int64)
    flush_strength = strength(flush_cards, rules) if len(flush_rows) else np.zeros(0)

    n_plain, n_flush = plain_ids.shape[0], flush_cards.shape[0]
    return PacketOptions(
        holding=tuple(cards),
        counts=counts,
        usage=np.vstack([multisets[plain_ids], flush_usage]).astype(np.int64),
        strength=np.concatenate([table.multiset_strength[plain_ids], flush_strength]).astype(
            np.int64
        ),
        multiset=np.concatenate([plain_ids, flush_multiset]).astype(np.int64),
        flush_cards=np.vstack([np.full((n_plain, HAND_SIZE), -1), flush_cards]).astype(np.int64),
        flush_suit=np.concatenate(
            [np.full(n_plain, -1), flush_cards[:, 0] & 3 if n_flush else np.zeros(0)]
        ).astype(np.int64),
    )


def rank_counts_rows(hands: np.ndarray) -> np.ndarray:
    """Rank counts of each row of an ``(n, 5)`` card array, shape ``(n, 8)``.

    >>> rank_counts_rows(np.array([[0, 1, 4, 8, 31]])).tolist()
    [[2, 1, 1, 0, 0, 0, 0, 1]]
    """
    ranks = np.asarray(hands, dtype=np.int64) >> 2
    return (ranks[..., None] == np.arange(N_RANKS)).sum(axis=-2)


def realize(options: PacketOptions, chosen: Iterable[int]) -> np.ndarray:
    """Concrete packets for one option per position.

    Flush options take their cards; the remaining cards go to the multiset
    options by rank.  Suits are then swapped between multiset packets, where
    possible, so that none of them is an accidental flush (which would only
    make it stronger).

    Parameters
    ----------
    options
        The holding's options.
    chosen
        Option index for each position.

    Returns
    -------
    numpy.ndarray
        ``(n_positions, 5)`` card ids.

    Raises
    ------
    ArrangementError
        If the options do not use exactly the holding's cards.

    >>> from solver.game.cards import parse_cards
    >>> opts = packet_options(parse_cards("7c 7d 7h 8c 8d"))
    >>> realize(opts, [0]).tolist()
    [[0, 1, 2, 4, 5]]
    """
    chosen = [int(k) for k in chosen]
    packets = np.full((len(chosen), HAND_SIZE), -1, dtype=np.int64)
    used_by_flush = _place_flushes(options, chosen, packets)
    free: dict[int, list[int]] = {r: [] for r in range(N_RANKS)}
    for card in options.holding:
        if card not in used_by_flush:
            free[card >> 2].append(card)
    _place_multisets(options, chosen, packets, free)
    if any(free[r] for r in range(N_RANKS)):
        raise ArrangementError("the options leave cards of the holding unused")
    plain = [p for p, k in enumerate(chosen) if options.flush_suit[k] < 0]
    _break_accidental_flushes(packets, plain)
    return packets


def _place_flushes(options: PacketOptions, chosen: list[int], packets: np.ndarray) -> set[int]:
    """Put the flush options' cards in their packets; the cards they use."""
    used_by_flush: set[int] = set()
    for position, k in enumerate(chosen):
        if options.flush_suit[k] >= 0:
            cards = [int(c) for c in options.flush_cards[k]]
            if used_by_flush & set(cards):
                raise ArrangementError("two flush packets share a card")
            used_by_flush.update(cards)
            packets[position] = cards
    return used_by_flush


def _place_multisets(
    options: PacketOptions, chosen: list[int], packets: np.ndarray, free: dict[int, list[int]]
) -> None:
    """Fill the multiset options' packets from the ``free`` cards of each rank (taken out)."""
    for position, k in enumerate(chosen):
        if options.flush_suit[k] >= 0:
            continue
        cards = []
        for rank in range(N_RANKS):
            need = int(options.usage[k, rank])
            if need > len(free[rank]):
                raise ArrangementError("the options use more cards of a rank than the holding has")
            cards.extend(free[rank][:need])
            del free[rank][:need]
        packets[position] = cards


def _break_accidental_flushes(packets: np.ndarray, plain: list[int]) -> None:
    """Swap same-rank cards between multiset packets so none is all one suit."""
    for position in plain:
        suits = packets[position] & 3
        if not (suits == suits[0]).all():
            continue
        for slot in range(HAND_SIZE):
            card = packets[position, slot]
            partner = _swap_partner(packets, plain, position, card)
            if partner is not None:
                other, other_slot = partner
                packets[position, slot], packets[other, other_slot] = (
                    packets[other, other_slot],
                    card,
                )
                break


def _swap_partner(
    packets: np.ndarray, plain: list[int], position: int, card: int
) -> tuple[int, int] | None:
    """A card of the same rank, other suit, in another multiset packet that stays no flush."""
    for other in plain:
        if other == position:
            continue
        for slot in range(HAND_SIZE):
            candidate = int(packets[other, slot])
            if candidate >> 2 != card >> 2 or candidate == card:
                continue
            after = packets[other].copy()
            after[slot] = card
            if not (after & 3 == after[0] & 3).all():
                return other, slot
    return None
