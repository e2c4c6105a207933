"""Relabelling the suits: the 24 permutations, holdings as masks, a deal's canonical frame.

No suit outranks another, so relabelling the suits (one of the 4! = 24
permutations ``g`` of ♣ ♦ ♥ ♠, acting on a card as ``4 * rank + suit ->
4 * rank + g[suit]``) maps a deal to an equivalent one: every hand keeps its
strength, every arrangement its score, every equilibrium stays one once its
arrangements are relabelled too.

A holding is a 32-bit mask (bit ``c`` set when card ``c`` is held).  The
key of a deal is the pair of masks ``(first, second)``, player 1's holding
first (the order of the players is kept: swapping them is another game);
the canonical key is the smallest relabelled pair, lexicographically, over
the 24 relabellings.  Relabelling acts on each rank's four bits on their
own, so the image of a mask is two lookups of its 16-bit halves in a
(24, 65536) table.

A deal's *frame* (:func:`frame`) is every relabelling that maps it to its
canonical key: one when no relabelling but the identity leaves the deal
unchanged, otherwise a coset of its *automorphisms* (the relabellings ``k``
with ``k(deal) = deal``, :func:`automorphisms`), as many as they.  The
solution book (:mod:`solver.book.canonical`) and the canonical equilibrium
(:mod:`solver.equilibria.frontier_game`) both work in it.

>>> key, g = canonical_key((tuple(range(25)), tuple(range(25))))
>>> key == canonical_key((relabel(range(25), 5), relabel(range(25), 5)))[0]
True
>>> len(automorphisms(range(25), range(25)))  # ♦ ♥ ♠ may be permuted: all hold 7 to K
6
>>> canonical_key(((0, 0), (1, 2)))
Traceback (most recent call last):
    ...
solver.errors.CardError: holdings: card 0 appears twice in a holding
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import permutations

import numpy as np

from solver.errors import CardError
from solver.game.cards import DECK_SIZE, N_SUITS

__all__ = [
    "CARD_PERMUTATIONS",
    "INVERSES",
    "SUIT_PERMUTATIONS",
    "automorphisms",
    "canonical_key",
    "canonical_masks",
    "frame",
    "holding_of",
    "mask_of",
    "orbit_sizes",
    "relabel",
    "relabel_masks",
]

SUIT_PERMUTATIONS = np.array(list(permutations(range(N_SUITS))), dtype=np.int64)
"""The 24 relabellings of the suits, ``(24, 4)``; row 0 is the identity."""

CARD_PERMUTATIONS = (
    N_SUITS * (np.arange(DECK_SIZE) // N_SUITS)[None, :]
    + SUIT_PERMUTATIONS[:, np.arange(DECK_SIZE) % N_SUITS]
)
"""Card ``c`` relabelled by ``g`` is ``CARD_PERMUTATIONS[g, c]``, ``(24, 32)``."""

INVERSES = np.array(
    [
        int(np.flatnonzero((np.argsort(p) == SUIT_PERMUTATIONS).all(axis=1))[0])
        for p in SUIT_PERMUTATIONS
    ]
)
"""The index of the inverse of each relabelling."""

_BITS = np.int64(1) << np.arange(DECK_SIZE, dtype=np.int64)


@lru_cache(maxsize=1)
def _half_tables() -> np.ndarray:
    """Image of every 16-bit half-mask (four ranks) under every relabelling, ``(24, 65536)``."""
    halves = np.arange(1 << 16, dtype=np.int64)
    images = CARD_PERMUTATIONS[:, :16]  # the low four ranks; the high ones act alike
    table = np.zeros((len(SUIT_PERMUTATIONS), halves.size), dtype=np.int64)
    for bit in range(16):
        table |= ((halves >> bit) & 1)[None, :] << images[:, bit : bit + 1]
    return table


def relabel_masks(masks: np.ndarray) -> np.ndarray:
    """Every relabelling of each mask: ``(..., 24)`` from ``(...)`` int64 masks."""
    tables = _half_tables()
    masks = np.asarray(masks, dtype=np.int64)[..., None]
    rows = np.arange(len(SUIT_PERMUTATIONS))
    return tables[rows, masks & 0xFFFF] | (tables[rows, (masks >> 16) & 0xFFFF] << 16)


def mask_of(cards: Iterable[int]) -> int:
    """The 32-bit mask of a set of cards.

    >>> mask_of([0, 1, 31])
    2147483651
    >>> mask_of([32])
    Traceback (most recent call last):
        ...
    solver.errors.CardError: holdings: card ids must be in 0..31
    """
    ids = np.fromiter((int(c) for c in cards), dtype=np.int64)
    if ids.size and (ids.min() < 0 or ids.max() >= DECK_SIZE):
        raise CardError(f"holdings: card ids must be in 0..{DECK_SIZE - 1}", argument="holdings")
    if len(set(ids.tolist())) != ids.size:
        duplicate = int(np.flatnonzero(np.bincount(ids) > 1)[0])
        raise CardError(
            f"holdings: card {duplicate} appears twice in a holding", argument="holdings"
        )
    return int(_BITS[ids].sum())


def holding_of(mask: int) -> tuple[int, ...]:
    """The sorted cards of a mask.

    >>> holding_of(2147483651)
    (0, 1, 31)
    """
    return tuple(int(c) for c in np.flatnonzero((int(mask) >> np.arange(DECK_SIZE)) & 1))


def relabel(cards: Iterable[int], g: int) -> tuple[int, ...]:
    """Cards relabelled by relabelling ``g`` (0..23), in the same order.

    >>> relabel((0, 5, 31), 23)  # suits reversed: ♣ <-> ♠, ♦ <-> ♥
    (3, 6, 28)
    """
    return tuple(int(c) for c in CARD_PERMUTATIONS[g, np.fromiter(cards, dtype=np.int64)])


def _images(holdings: tuple[Iterable[int], Iterable[int]]) -> np.ndarray:
    """Both masks under every relabelling, ``(2, 24)``."""
    first, second = (mask_of(h) for h in holdings)
    return relabel_masks(np.array([first, second]))


def canonical_key(
    holdings: tuple[Iterable[int], Iterable[int]],
) -> tuple[tuple[int, int], int]:
    """The canonical key ``(first mask, second mask)`` of a deal, and a relabelling to it.

    Returns ``(key, g)``: relabelling the deal by ``g`` gives the canonical
    deal; relabelling the canonical deal's strategies by ``INVERSES[g]`` gives
    strategies of this deal.  ``g`` is the first of :func:`frame`.
    """
    images = _images(holdings)
    order = np.lexsort((images[1], images[0]))
    g = int(order[0])
    return (int(images[0, g]), int(images[1, g])), g


def frame(holdings: tuple[Iterable[int], Iterable[int]]) -> tuple[tuple[int, int], np.ndarray]:
    """The canonical key of a deal and *every* relabelling to it (ascending).

    As many relabellings as the deal has :func:`automorphisms`: with one
    ``g`` to the key, the others are ``g`` after each automorphism.

    >>> frame(((0, 1), (2, 3)))[1].tolist()  # ♣ ♦ and ♥ ♠: four ways to 7♣ 7♦ / 7♥ 7♠
    [0, 1, 6, 7]
    >>> frame(((0, 40), (1,)))
    Traceback (most recent call last):
        ...
    solver.errors.CardError: holdings: card ids must be in 0..31
    """
    images = _images(holdings)
    key = int(images[0].min()), int(images[1][images[0] == images[0].min()].min())
    return key, np.flatnonzero((images[0] == key[0]) & (images[1] == key[1]))


def automorphisms(first: Iterable[int], second: Iterable[int]) -> np.ndarray:
    """The relabellings (indices into :data:`SUIT_PERMUTATIONS`) that leave the deal unchanged.

    Always the identity (0); the others when both holdings are symmetric under
    a permutation of the suits.

    >>> automorphisms((0, 1, 4, 5), (2, 6)).tolist()  # ♣ <-> ♦
    [0, 6]
    >>> automorphisms((0, 0), (1,))
    Traceback (most recent call last):
        ...
    solver.errors.CardError: holdings: card 0 appears twice in a holding
    """
    images = _images((tuple(first), tuple(second)))
    return np.flatnonzero((images[0] == images[0, 0]) & (images[1] == images[1, 0]))


def canonical_masks(masks: np.ndarray) -> np.ndarray:
    """The canonical (smallest) relabelling of each holding mask (mirror deals)."""
    return relabel_masks(masks).min(axis=-1)


def orbit_sizes(first: np.ndarray, second: np.ndarray | None = None) -> np.ndarray:
    """Number of distinct deals in the orbit of each deal (1 to 24).

    >>> orbit_sizes(np.array([mask_of(range(25))])).tolist()
    [4]
    """
    images = relabel_masks(first)
    if second is not None:
        images = (images << 32) | relabel_masks(second)  # both masks fit in 64 bits as a pair
    ordered = np.sort(images, axis=-1)
    return 1 + (np.diff(ordered, axis=-1) != 0).sum(axis=-1)
