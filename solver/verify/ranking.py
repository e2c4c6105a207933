"""Hand ranking from docs/rules.md, written again from the rules (sorting, not tables).

A card is ``4 * rank + suit`` (rank 0 is the 7, 7 the Ace; suit 0..3).  The
key of a packet is ``(category, ranks...)``: Python's tuple order is the
packet order, and equal keys are equal packets.

>>> packet_key([31, 27, 23, 19, 15])  # A K Q J 10 of spades
(8, 7)
>>> packet_key([28, 29, 30, 31, 0]) > packet_key([24, 25, 26, 0, 1])  # four aces > three kings
True
>>> parse_card("Xs")
Traceback (most recent call last):
    ...
ValueError: card 'Xs' is not a card code
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

__all__ = ["CATEGORIES", "packet_key", "parse_card"]

# Weakest first, as in the rules' table read from the bottom.
CATEGORIES = (
    "high card",
    "one pair",
    "two pairs",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
_RANKS = {"7": 0, "8": 1, "9": 2, "T": 3, "10": 3, "J": 4, "Q": 5, "K": 6, "A": 7}
_SUITS = {"c": 0, "d": 1, "h": 2, "s": 3}


def parse_card(code: str) -> int:
    """The id of an ASCII card code (``As``, ``Tc``, ``10h``).

    >>> parse_card("As"), parse_card("10h")
    (31, 14)
    """
    if not isinstance(code, str) or len(code) < 2:
        raise ValueError(f"card {code!r} is not a card code")
    rank, suit = _RANKS.get(code[:-1].upper()), _SUITS.get(code[-1].lower())
    if rank is None or suit is None:
        raise ValueError(f"card {code!r} is not a card code")
    return 4 * rank + suit


def packet_key(
    cards: Iterable[int], ace_low_straight: bool = False, flush_beats_full_house: bool = False
) -> tuple[int, ...]:
    """The comparison key of a five-card packet under the rule options.

    >>> packet_key([28, 1, 4, 8, 12], ace_low_straight=True)  # A 7 8 9 10, the lowest straight
    (4, 3)
    """
    cards = list(cards)
    ranks = sorted((c // 4 for c in cards), reverse=True)
    flush = len({c % 4 for c in cards}) == 1
    top = None
    if len(set(ranks)) == 5 and ranks[0] - ranks[4] == 4:
        top = ranks[0]
    elif ace_low_straight and set(ranks) == {7, 0, 1, 2, 3}:
        top = 3  # the Ace counts low: the 10 is the top card
    counts = Counter(ranks)
    # Ranks by group size, then by rank: quads then kicker, trips then pair, ...
    grouped = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    if top is not None:
        name = "straight flush" if flush else "straight"
        return (_index(name, flush_beats_full_house), top)
    if shape[0] == 4:
        name = "four of a kind"
    elif shape[:2] == [3, 2]:
        name = "full house"
    elif flush:
        return (_index("flush", flush_beats_full_house), *ranks)
    elif shape[0] == 3:
        name = "three of a kind"
    elif shape[:2] == [2, 2]:
        name = "two pairs"
    elif shape[0] == 2:
        name = "one pair"
    else:
        return (_index("high card", flush_beats_full_house), *ranks)
    return (_index(name, flush_beats_full_house), *grouped)


def _index(name: str, flush_beats_full_house: bool) -> int:
    index = CATEGORIES.index(name)
    if flush_beats_full_house and name in ("flush", "full house"):
        return CATEGORIES.index("full house" if name == "flush" else "flush")
    return index
