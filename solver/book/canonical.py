"""Canonical deals under the symmetry of the suits.

No suit outranks another, so relabelling the suits (one of the 4! = 24
permutations ``g`` of ♣ ♦ ♥ ♠, acting on a card as ``4 * rank + suit ->
4 * rank + g[suit]``) maps a deal to an equivalent one: every hand keeps its
strength, every arrangement its score, every equilibrium stays one once its
arrangements are relabelled too.  The deals fall into orbits, and one
representative per orbit is enough.

A holding is a 32-bit mask (bit ``c`` set when card ``c`` is held).  The
key of a deal is the pair of masks ``(first, second)``, player 1's holding
first (the order of the players is kept: swapping them is another game);
the canonical key is the smallest relabelled pair, lexicographically, over
the 24 relabellings.  In mirror mode both masks are the same 25 cards.
The relabellings, masks and keys are the game layer's
(:mod:`solver.game.suits`: the canonical equilibrium is chosen in the same
frame), re-exported here; the book adds the orbits' counts and enumeration.

Counting the orbits (Burnside's lemma): the number of orbits of the sets of
``k`` removed cards is ``(1/24) * sum_g |Fix(g)|``, where a set is fixed by
``g`` when it is a union of ``g``'s cycles on the cards; a suit cycle of
length ``l`` gives eight card cycles of length ``l`` (one per rank), so
``|Fix(g)|`` is the coefficient of ``x^k`` in ``prod (1 + x^l)`` over them.
For pairs of sets (independent mode) a pair is fixed when both sets are, so
``|Fix(g)|`` is squared.

>>> key, g = canonical_key((tuple(range(25)), tuple(range(25))))
>>> key == canonical_key((relabel(range(25), 5), relabel(range(25), 5)))[0]
True
>>> mirror_class_count()
156248
>>> canonical_key(((0, 0), (1, 2)))
Traceback (most recent call last):
    ...
solver.errors.CardError: holdings: card 0 appears twice in a holding
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from math import comb

import numpy as np

from solver.errors import BookError
from solver.game.arrangement import Arrangement
from solver.game.cards import DECK_SIZE, N_RANKS
from solver.game.suits import (
    CARD_PERMUTATIONS,
    INVERSES,
    SUIT_PERMUTATIONS,
    canonical_key,
    canonical_masks,
    holding_of,
    mask_of,
    orbit_sizes,
    relabel,
    relabel_masks,
)
from solver.models.mixture import Mixture

# The relabellings themselves are the game layer's (solver.game.suits), which the
# canonical equilibrium needs below the book; they stay importable from here.
__all__ = [
    "CARD_PERMUTATIONS",
    "INVERSES",
    "SUIT_PERMUTATIONS",
    "canonical_key",
    "canonical_masks",
    "canonical_mirror_holdings",
    "class_count",
    "deal_count",
    "holding_of",
    "mask_of",
    "mirror_class_count",
    "orbit_sizes",
    "relabel",
    "relabel_masks",
    "relabel_mixture",
    "removed_card_masks",
    "sample_mirror_classes",
    "slice_mirror_classes",
]

_BITS = np.int64(1) << np.arange(DECK_SIZE, dtype=np.int64)


def relabel_mixture(mixture: Mixture, g: int) -> Mixture:
    """A mixture with every arrangement's cards relabelled by ``g``."""
    arrays = np.stack([a.array() for a in mixture.arrangements])
    relabelled = CARD_PERMUTATIONS[g][arrays]
    arrangements = tuple(Arrangement.from_array(a) for a in relabelled)
    return Mixture(arrangements, mixture.probabilities, dict(mixture.metadata))


def _fixed_counts(n_removed: int) -> np.ndarray:
    """``|Fix(g)|`` for each relabelling: sets of ``n_removed`` cards made of whole cycles."""
    counts = []
    for perm in SUIT_PERMUTATIONS:
        polynomial = np.zeros(DECK_SIZE + 1, dtype=object)  # exact big integers
        polynomial[0] = 1
        for length in _cycle_lengths(perm):
            for _ in range(N_RANKS):
                shifted = np.zeros_like(polynomial)
                shifted[length:] = polynomial[:-length]
                polynomial = polynomial + shifted
        counts.append(polynomial[n_removed])
    return np.array(counts, dtype=object)


def _cycle_lengths(perm: np.ndarray) -> list[int]:
    seen, lengths = set(), []
    for start in range(len(perm)):
        length, suit = 0, start
        while suit not in seen:
            seen.add(suit)
            suit, length = int(perm[suit]), length + 1
        if length:
            lengths.append(length)
    return lengths


def class_count(n_removed: int = 7, pairs: bool = False) -> int:
    """Number of orbits of deals with ``n_removed`` turned-up cards (Burnside's lemma).

    ``pairs``: ordered pairs of holdings (independent mode) rather than one.

    >>> class_count(7) * 24 > comb(32, 7)
    True
    """
    fixed = _fixed_counts(n_removed)
    total = int(sum(f * f for f in fixed)) if pairs else int(sum(fixed))
    return total // len(SUIT_PERMUTATIONS)


def mirror_class_count(n_removed: int = 7) -> int:
    """Number of mirror deals up to the suits' symmetry."""
    return class_count(n_removed)


def deal_count(n_removed: int = 7, pairs: bool = False) -> int:
    """Number of deals (sets, or ordered pairs of sets, of turned-up cards)."""
    single = comb(DECK_SIZE, n_removed)
    return single * single if pairs else single


def removed_card_masks(n_removed: int) -> Iterator[np.ndarray]:
    """Every set of ``n_removed`` cards as a mask, in chunks (by the highest card).

    The sets are built up one card at a time in numpy; the last step is
    streamed, one chunk per highest card, so the whole list (3,365,856 sets
    of seven) never exists at once.

    >>> sum(chunk.size for chunk in removed_card_masks(2)) == comb(32, 2)
    True
    """
    if n_removed == 0:
        yield np.zeros(1, dtype=np.int64)
        return
    # Sets of n_removed - 1 cards, sorted by their highest card ("last").
    masks, last = np.zeros(1, dtype=np.int64), np.full(1, -1, dtype=np.int64)
    for _ in range(n_removed - 1):
        masks, last = _extend(masks, last)
    for card in range(DECK_SIZE):
        # Rows are sorted by last: those below card are a prefix.
        below = int(np.searchsorted(last, card))
        if below:
            yield masks[:below] | _BITS[card]


def _extend(masks: np.ndarray, last: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    parts, lasts = [], []
    for card in range(DECK_SIZE):
        below = int(np.searchsorted(last, card))
        parts.append(masks[:below] | _BITS[card])
        lasts.append(np.full(below, card, dtype=np.int64))
    return np.concatenate(parts), np.concatenate(lasts)


def canonical_mirror_holdings(n_removed: int = 7) -> Iterator[np.ndarray]:
    """The canonical holding mask of every mirror class, in chunks (streamed)."""
    full = (1 << DECK_SIZE) - 1
    for removed in removed_card_masks(n_removed):
        holdings = full ^ removed
        canonical = holdings[canonical_masks(holdings) == holdings]
        if canonical.size:
            yield canonical


def slice_mirror_classes(start: int, stop: int, n_removed: int = 7) -> np.ndarray:
    """Canonical holding masks of classes ``start .. stop - 1`` of the enumeration order.

    The order is :func:`canonical_mirror_holdings`'s; the stream stops once
    ``stop`` classes are passed.

    >>> first = np.concatenate(list(canonical_mirror_holdings()))
    >>> slice_mirror_classes(1, 60).tolist() == first[1:60].tolist()
    True
    >>> slice_mirror_classes(5, 2)
    Traceback (most recent call last):
        ...
    solver.errors.BookError: classes: start 5 is after stop 2
    """
    if not 0 <= start <= stop:
        raise BookError(f"classes: start {start} is after stop {stop}", argument="classes")
    parts, seen = [], 0
    for chunk in canonical_mirror_holdings(n_removed):
        if seen >= stop:
            break
        low, high = max(start - seen, 0), min(stop - seen, chunk.size)
        if low < high:
            parts.append(chunk[low:high])
        seen += chunk.size
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def sample_mirror_classes(count: int, seed: int, n_removed: int = 7) -> np.ndarray:
    """``count`` mirror classes drawn uniformly without replacement (seeded), in draw order.

    Every class is equally likely (not every deal): an average over deals
    weights each drawn class by its orbit size (:func:`orbit_sizes`).  The
    draw order is random, so every prefix is itself a uniform sample: a
    build that solves them in this order and stops early leaves one.

    >>> a, b = sample_mirror_classes(4, 1), sample_mirror_classes(4, 1)
    >>> a.tolist() == b.tolist(), a.size
    (True, 4)
    >>> sample_mirror_classes(0, 1)
    Traceback (most recent call last):
        ...
    solver.errors.BookError: sample: count must be between 1 and 156248, got 0
    """
    total = class_count(n_removed)
    if not 1 <= count <= total:
        raise BookError(
            f"sample: count must be between 1 and {total}, got {count}", argument="sample"
        )
    picks = np.random.default_rng(seed).choice(total, size=count, replace=False, shuffle=True)
    return _every_mirror_class(n_removed)[picks]


@functools.cache
def _every_mirror_class(n_removed: int) -> np.ndarray:
    """Every class's canonical mask, in order (156,248 of them: 1.2 MB, kept once made)."""
    every = np.concatenate(list(canonical_mirror_holdings(n_removed)))
    every.flags.writeable = False
    return every
