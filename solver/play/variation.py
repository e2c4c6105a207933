"""Seeded variation of a fixed layout: the same plan, not the same cards every time.

The ``greedy`` and ``house`` players lay a holding out the same way every
time, so a player who has seen a deal once knows the computer's packets
exactly.  The web app's table varies them with a seed of its match
(:func:`varied`): a few exchanges of one card between two packets, each kept
only if both packets keep their combination (category), then packets of the
same combination change places.  The plan (which combination sits at which
position) stays the player's; the exact cards, and so kickers and ties,
change from game to game.

>>> from solver.game.deal import deal
>>> from solver.models.house import house_arrangement
>>> laid = house_arrangement(deal(1).holdings[1])
>>> other = varied(laid, np.random.default_rng(5))
>>> sorted(other.cards) == sorted(laid.cards)
True
>>> varied(laid, 5)
Traceback (most recent call last):
    ...
TypeError: rng must be a Generator, got 5
"""

from __future__ import annotations

import numpy as np

from solver.game.arrangement import Arrangement
from solver.game.evaluator import category
from solver.game.rules import Rules, rules_or_default
from solver.util.checks import check_instance, check_int

__all__ = ["SWAPS", "VARIED_PLAYERS", "varied"]

SWAPS = 4
"""Exchanges tried by :func:`varied` (each of one card between two packets)."""

VARIED_PLAYERS = frozenset({"greedy", "house"})
"""The players whose layout is fixed by their rule, varied at the web app's table.

Best responses are not varied: a varied best response is not a best response."""


def _exchanges(n: int, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every exchange of card ``a`` of packet ``i`` with card ``b`` of packet ``j`` (i < j)."""
    i, j = np.triu_indices(n, k=1)
    i, j = np.repeat(i, size * size), np.repeat(j, size * size)
    a = np.tile(np.repeat(np.arange(size), size), i.size // (size * size))
    b = np.tile(np.arange(size), i.size // size)
    return i, a, j, b


def varied(
    arrangement: Arrangement,
    rng: np.random.Generator,
    rules: Rules | None = None,
    swaps: int = SWAPS,
) -> Arrangement:
    """``arrangement`` varied: up to ``swaps`` card exchanges that keep every packet's
    combination, then packets of one combination shuffled among their positions.

    Parameters
    ----------
    arrangement
        The layout to vary.
    rng
        The seeded generator choosing the exchanges (uniformly among those allowed).
    rules
        The rules (the combinations kept are under these).
    swaps
        How many exchanges to make (fewer when no exchange keeps the combinations).

    Returns
    -------
    Arrangement
        The same cards, the same combination at every position.

    >>> from solver.game.cards import parse_cards
    >>> laid = Arrangement.parse("7c 7d 8h 9s Tc | Jd Jh Qs Kc Ad", n_packets=2)
    >>> varied(laid, np.random.default_rng(0), Rules(position_points=(6, 7)), swaps=0) == laid
    True
    >>> varied(laid, np.random.default_rng(0), swaps=-1)
    Traceback (most recent call last):
        ...
    solver.errors.QuintetError: swaps must be in [0, inf], got -1
    """
    check_instance(arrangement, Arrangement, "arrangement")
    check_instance(rng, np.random.Generator, "rng")
    check_int(swaps, "swaps", low=0)
    rules = rules_or_default(rules)
    packets = np.array(arrangement.packets, dtype=np.int64)
    kinds = category(packets, rules)
    i, a, j, b = _exchanges(*packets.shape)
    rows = np.arange(i.size)
    for _ in range(swaps):
        first, second = packets[i], packets[j]
        first[rows, a], second[rows, b] = packets[j, b], packets[i, a]
        keep = (category(first, rules) == kinds[i]) & (category(second, rules) == kinds[j])
        allowed = np.flatnonzero(keep)
        if not allowed.size:
            break
        k = int(rng.choice(allowed))
        packets[i[k], a[k]], packets[j[k], b[k]] = packets[j[k], b[k]], packets[i[k], a[k]]
    # Packets of one combination change places among themselves (strong holdings, full houses
    # and straight flushes, rarely allow an exchange of cards).
    for kind in np.unique(kinds):
        places = np.flatnonzero(kinds == kind)
        packets[places] = packets[rng.permutation(places)]
    return Arrangement(tuple(tuple(sorted(int(c) for c in packet)) for packet in packets))
