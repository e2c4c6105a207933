"""An independent, deliberately simple reference for the ranking of docs/rules.md.

This module shares no code with ``solver``: it imports nothing from it and
works one hand at a time in plain Python, so that the vectorized evaluator
can be checked against it over every hand.

Cards are ints, ``card = 4 * rank + suit``:

* rank 0..7 = 7 8 9 10 J Q K A (7 lowest, Ace highest),
* suit 0..3 = clubs diamonds hearts spades.

The ranking (docs/rules.md, "Combinations, strongest first"), weakest first:
high card, one pair, two pairs, three of a kind, straight, flush, full house,
four of a kind, straight flush.  Options:

* ``ace_low_straight``: A-7-8-9-10 is also a straight (and, suited, a
  straight flush).  It is the lowest one: its top card counts as the 10.
* ``flush_beats_full_house``: the flush ranks above the full house.

Suits never break ties: the key below contains ranks only.

>>> key(parse("As Ks Qs Js Ts")) > key(parse("Ah Kh Qh Jh 9h"))
True
>>> key(parse("As Ks Qs Js Ts")) == key(parse("Ac Kc Qc Jc Tc"))
True
>>> classify(parse("Ac 7d 8h 9s Th"))[0]
'high card'
>>> classify(parse("Ac 7d 8h 9s Th"), ace_low_straight=True)[0]
'straight'
"""

from __future__ import annotations

HIGH_CARD = "high card"
PAIR = "one pair"
TWO_PAIRS = "two pairs"
THREE_OF_A_KIND = "three of a kind"
STRAIGHT = "straight"
FLUSH = "flush"
FULL_HOUSE = "full house"
FOUR_OF_A_KIND = "four of a kind"
STRAIGHT_FLUSH = "straight flush"

ALL_CATEGORIES = (
    HIGH_CARD,
    PAIR,
    TWO_PAIRS,
    THREE_OF_A_KIND,
    STRAIGHT,
    FLUSH,
    FULL_HOUSE,
    FOUR_OF_A_KIND,
    STRAIGHT_FLUSH,
)

SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)

# Only for the doctests and for readable tests: "As", "Th", "7c".
_RANK_LETTERS = "789TJQKA"
_SUIT_LETTERS = "cdhs"


def parse(text: str) -> list[int]:
    """Parse plain ASCII codes such as ``"As Th 7c"`` (a tiny helper for tests).

    >>> parse("7c As")
    [0, 31]
    """
    cards = []
    for token in text.split():
        rank = _RANK_LETTERS.index(token[0].upper())
        suit = _SUIT_LETTERS.index(token[1].lower())
        cards.append(4 * rank + suit)
    return cards


def category_order(flush_beats_full_house: bool = False) -> list[str]:
    """The categories, weakest first, under the given option.

    >>> category_order(True)[5:7]
    ['full house', 'flush']
    """
    order = list(ALL_CATEGORIES)
    if flush_beats_full_house:
        i, j = order.index(FLUSH), order.index(FULL_HOUSE)
        order[i], order[j] = order[j], order[i]
    return order


def straight_top(ranks: list[int], ace_low_straight: bool = False) -> int | None:
    """Top rank of the straight made by five ranks, or None if they are no straight.

    >>> straight_top([JACK, TEN, NINE, EIGHT, SEVEN])
    4
    >>> straight_top([ACE, SEVEN, EIGHT, NINE, TEN]) is None
    True
    >>> straight_top([ACE, SEVEN, EIGHT, NINE, TEN], ace_low_straight=True)
    3
    """
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return None
    if distinct[-1] - distinct[0] == 4:
        return distinct[-1]
    if ace_low_straight and distinct == [SEVEN, EIGHT, NINE, TEN, ACE]:
        return TEN  # the Ace plays low: the 10 is the top card
    return None


def classify(
    cards: list[int] | tuple[int, ...],
    ace_low_straight: bool = False,
    flush_beats_full_house: bool = False,
) -> tuple[str, tuple]:
    """Category name and comparison key of one five-card hand.

    The key is ``(position of the category in the order, tie-break ranks...)``;
    a larger key beats a smaller one, equal keys tie.
    """
    cards = list(cards)
    assert len(cards) == 5 and len(set(cards)) == 5, cards
    assert all(0 <= c < 32 for c in cards), cards

    ranks = [c // 4 for c in cards]
    suits = [c % 4 for c in cards]

    # How many cards of each rank, e.g. {KING: 3, SEVEN: 2}.
    count: dict[int, int] = {}
    for r in ranks:
        count[r] = count.get(r, 0) + 1

    # Ranks grouped by size, bigger groups first, higher ranks first inside a size.
    # This is the tie-break order of every category except the straights.
    groups = sorted(count.items(), key=lambda item: (item[1], item[0]), reverse=True)
    by_group = tuple(rank for rank, _ in groups)
    shape = sorted(count.values(), reverse=True)

    is_flush = len(set(suits)) == 1
    top = straight_top(ranks, ace_low_straight)

    if top is not None and is_flush:
        name, tie_break = STRAIGHT_FLUSH, (top,)
    elif shape == [4, 1]:
        name, tie_break = FOUR_OF_A_KIND, by_group
    elif shape == [3, 2]:
        name, tie_break = FULL_HOUSE, by_group
    elif is_flush:
        name, tie_break = FLUSH, by_group
    elif top is not None:
        name, tie_break = STRAIGHT, (top,)
    elif shape == [3, 1, 1]:
        name, tie_break = THREE_OF_A_KIND, by_group
    elif shape == [2, 2, 1]:
        name, tie_break = TWO_PAIRS, by_group
    elif shape == [2, 1, 1, 1]:
        name, tie_break = PAIR, by_group
    else:
        assert shape == [1, 1, 1, 1, 1]
        name, tie_break = HIGH_CARD, by_group

    level = category_order(flush_beats_full_house).index(name)
    return name, (level, *tie_break)


def key(
    cards: list[int] | tuple[int, ...],
    ace_low_straight: bool = False,
    flush_beats_full_house: bool = False,
) -> tuple:
    """Comparison key only (see :func:`classify`)."""
    return classify(cards, ace_low_straight, flush_beats_full_house)[1]


def compare(a, b, ace_low_straight: bool = False, flush_beats_full_house: bool = False) -> int:
    """1 if hand ``a`` beats ``b``, -1 if it loses, 0 on a tie.

    >>> compare(parse("Kh Kc Kd 7s 7c"), parse("Qs Qc Qd Js Jh"))
    1
    """
    ka = key(a, ace_low_straight, flush_beats_full_house)
    kb = key(b, ace_low_straight, flush_beats_full_house)
    return (ka > kb) - (ka < kb)
