"""Strategies in the book's compact form, and back, at numpy speed.

A mixed strategy is stored as two blobs: its arrangements' card ids as
uint8, ``(k, n_packets, 5)`` in C order, and its probabilities as float64.
Reading checks the arrays as a whole in numpy (card ids in range, each
arrangement of distinct cards, all of the same cards, probabilities summing
to 1) and only then builds the Python objects, without validating each
arrangement again: a win strategy has hundreds of arrangements, and
validating them one by one would cost ten times the lookup itself.

>>> from solver.game.arrangement import Arrangement
>>> m = Mixture((Arrangement.from_array(np.arange(10).reshape(2, 5)),), (1.0,))
>>> cards, probabilities = decode(*encode(m), n_packets=2)
>>> mixture(cards, probabilities) == m
True
>>> decode(b"\\x00" * 10, np.ones(1).tobytes(), n_packets=2)
Traceback (most recent call last):
    ...
solver.errors.BookError: book: a stored strategy is corrupt (an arrangement repeats a card)
"""

from __future__ import annotations

import numpy as np

from solver.errors import BookError
from solver.game.arrangement import Arrangement
from solver.game.cards import DECK_SIZE, HAND_SIZE
from solver.models.mixture import Mixture

__all__ = ["decode", "encode", "mixture"]


def encode(strategy: Mixture) -> tuple[bytes, bytes]:
    """Card ids (uint8, arrangement by arrangement) and probabilities (float64) as blobs."""
    cards = np.stack([a.array() for a in strategy.arrangements]).astype(np.uint8)
    probabilities = np.asarray(strategy.probabilities, dtype=np.float64)
    return cards.tobytes(), probabilities.tobytes()


def _corrupt(why: str) -> BookError:
    return BookError(f"book: a stored strategy is corrupt ({why})", argument="book")


def decode(cards: bytes, probabilities: bytes, n_packets: int) -> tuple[np.ndarray, np.ndarray]:
    """The arrays of :func:`encode`'s blobs, checked: ``(k, n_packets, 5)`` uint8 and ``(k,)``."""
    width = n_packets * HAND_SIZE
    flat = np.frombuffer(cards, dtype=np.uint8)
    probs = np.frombuffer(probabilities, dtype=np.float64)
    if flat.size == 0 or flat.size % width or flat.size // width != probs.size:
        raise _corrupt("sizes do not match")
    rows = flat.reshape(-1, width)
    if int(rows.max()) >= DECK_SIZE:
        raise _corrupt("card id out of range")
    ordered = np.sort(rows, axis=1)
    if (ordered[:, 1:] == ordered[:, :-1]).any():
        raise _corrupt("an arrangement repeats a card")
    if (ordered != ordered[0]).any():
        raise _corrupt("arrangements of different cards")
    if not np.isfinite(probs).all() or (probs < 0).any() or abs(float(probs.sum()) - 1) > 1e-6:
        raise _corrupt("bad probabilities")
    return rows.reshape(-1, n_packets, HAND_SIZE), probs


def mixture(cards: np.ndarray, probabilities: np.ndarray) -> Mixture:
    """The Mixture of checked arrays (from :func:`decode`, possibly relabelled)."""
    # Checked as arrays already (decode): build the objects without validating them again.
    arrangements = [Arrangement.trusted(packets) for packets in cards.tolist()]
    return Mixture.trusted(arrangements, probabilities.tolist())
