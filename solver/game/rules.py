"""The rules of Quintet as one frozen object, and the combinations.

Everything that varies between rule sets is data here, never a branch in
the evaluator or the solvers:

* ``position_points``: the points for winning the comparison at each
  position, ``(3, 4, 5, 6, 7)`` by default (25 in all).  Fewer positions give
  the reduced games used in tests (``(6, 7)``: two packets, ten cards).
* ``discard_mode``: ``mirror`` (the opponent removes the same seven cards,
  both hold the same 25) or ``independent`` (each player turns up seven of
  its own deck).
* ``ace_low_straight``: A-7-8-9-10 counts as the lowest straight (and
  straight flush).  Off by default: the Ace is never low in the texts.
* ``flush_beats_full_house``: the flush ranks above the full house, as in
  32-card "Manila" poker.  Off by default.

The two ranking options are turned into data by :meth:`Rules.category_order`
(weakest to strongest) and :meth:`Rules.straights` (rank sets and heights).

>>> rules = Rules()
>>> rules.total_points, rules.n_packets, rules.discard_mode.value
(25, 5, 'mirror')
>>> [c.english for c in rules.category_order()][-3:]
['full house', 'four of a kind', 'straight flush']
>>> Rules(position_points=(3, 0, 5, 6, 7))
Traceback (most recent call last):
    ...
solver.errors.RulesError: position points must be positive integers, got (3, 0, 5, 6, 7)
>>> Rules(ace_low_straight="no")
Traceback (most recent call last):
    ...
solver.errors.RulesError: ace_low_straight must be True or False, got 'no'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum

import numpy as np

from solver.errors import RulesError
from solver.game.cards import N_RANKS
from solver.util.language import Lang

__all__ = [
    "DEFAULT_RULES",
    "MAX_POSITION_POINTS",
    "Category",
    "DiscardMode",
    "Rules",
    "rules_or_default",
]

# A named limit: at most 5 positions of at most this many points, so that every
# margin (and its products in the solvers' integer models) is far inside int32.
MAX_POSITION_POINTS = 1000


class DiscardMode(str, Enum):
    """How the second player removes its seven cards (docs/rules.md, "The deal")."""

    MIRROR = "mirror"
    INDEPENDENT = "independent"


class Category(IntEnum):
    """A poker combination.  The value is an identity, not the order.

    The order between categories depends on the rules: see
    :meth:`Rules.category_order`.

    >>> Category.FULL_HOUSE.russian, Category.FULL_HOUSE.english
    ('Фул', 'full house')
    """

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def english(self) -> str:
        """English name."""
        return _ENGLISH[self]

    @property
    def russian(self) -> str:
        """Russian name, as in the original texts (docs/rules.md)."""
        return _RUSSIAN[self]

    def name_in(self, lang: Lang | str) -> str:
        """Name in ``lang`` (``"en"`` or ``"ru"``).

        >>> Category.STRAIGHT_FLUSH.name_in("ru")
        'Покер'
        """
        return self.russian if Lang(lang) is Lang.RU else self.english


_ENGLISH = {
    Category.HIGH_CARD: "high card",
    Category.PAIR: "one pair",
    Category.TWO_PAIR: "two pairs",
    Category.THREE_OF_A_KIND: "three of a kind",
    Category.STRAIGHT: "straight",
    Category.FLUSH: "flush",
    Category.FULL_HOUSE: "full house",
    Category.FOUR_OF_A_KIND: "four of a kind",
    Category.STRAIGHT_FLUSH: "straight flush",
}
_RUSSIAN = {
    Category.HIGH_CARD: "Шанс",
    Category.PAIR: "Пара",
    Category.TWO_PAIR: "Две двойки",
    Category.THREE_OF_A_KIND: "Тройка",
    Category.STRAIGHT: "Стрит",
    Category.FLUSH: "Колер",
    Category.FULL_HOUSE: "Фул",
    Category.FOUR_OF_A_KIND: "Каре",
    Category.STRAIGHT_FLUSH: "Покер",
}

# docs/rules.md, "Combinations, strongest first", listed weakest first.
_DEFAULT_ORDER = (
    Category.HIGH_CARD,
    Category.PAIR,
    Category.TWO_PAIR,
    Category.THREE_OF_A_KIND,
    Category.STRAIGHT,
    Category.FLUSH,
    Category.FULL_HOUSE,
    Category.FOUR_OF_A_KIND,
    Category.STRAIGHT_FLUSH,
)
# Manila order: flush and full house trade places.
_FLUSH_OVER_FULL_HOUSE_ORDER = (
    Category.HIGH_CARD,
    Category.PAIR,
    Category.TWO_PAIR,
    Category.THREE_OF_A_KIND,
    Category.STRAIGHT,
    Category.FULL_HOUSE,
    Category.FLUSH,
    Category.FOUR_OF_A_KIND,
    Category.STRAIGHT_FLUSH,
)
_CATEGORY_ORDERS = {False: _DEFAULT_ORDER, True: _FLUSH_OVER_FULL_HOUSE_ORDER}

# Straights as (ranks, height): five consecutive ranks, height = the top rank
# (rank 0 is the 7, rank 7 the Ace).  The ace-low straight A-7-8-9-10 has the
# 10 as its top card, so it sits below J-10-9-8-7.
_HIGH_STRAIGHTS = tuple((frozenset(range(top - 4, top + 1)), top) for top in range(4, N_RANKS))
_ACE_LOW_STRAIGHT = ((frozenset({7, 0, 1, 2, 3}), 3),)
_STRAIGHTS = {False: _HIGH_STRAIGHTS, True: _ACE_LOW_STRAIGHT + _HIGH_STRAIGHTS}


@dataclass(frozen=True)
class Rules:
    """A complete, immutable rule set.  The defaults follow docs/rules.md exactly.

    Parameters
    ----------
    position_points
        Points for winning each position's comparison, position 1 first.
        Between one and five positive integers.
    discard_mode
        ``"mirror"`` or ``"independent"`` (a :class:`DiscardMode` or its value).
    ace_low_straight
        A-7-8-9-10 is the lowest straight and straight flush.
    flush_beats_full_house
        The flush ranks above the full house.

    >>> Rules(discard_mode="independent").discard_mode
    <DiscardMode.INDEPENDENT: 'independent'>
    >>> Rules(discard_mode="shuffle")
    Traceback (most recent call last):
        ...
    solver.errors.RulesError: discard mode 'shuffle' is not one of: mirror, independent
    """

    position_points: tuple[int, ...] = (3, 4, 5, 6, 7)
    discard_mode: DiscardMode = DiscardMode.MIRROR
    ace_low_straight: bool = False
    flush_beats_full_house: bool = False

    def __post_init__(self) -> None:
        try:
            points = tuple(self.position_points)
        except TypeError:
            raise RulesError(
                f"position points must be positive integers, got {self.position_points!r}"
            ) from None
        if not (
            1 <= len(points) <= 5
            and all(isinstance(p, int) and not isinstance(p, bool) and p > 0 for p in points)
        ):
            raise RulesError(f"position points must be positive integers, got {points}")
        if max(points) > MAX_POSITION_POINTS:
            # CP-SAT coefficients are points * total (total <= ~1e6): the objective stays < 1e10.
            raise RulesError(
                f"position points must be at most {MAX_POSITION_POINTS}, got {max(points)}"
            )
        for name in ("ace_low_straight", "flush_beats_full_house"):
            value = getattr(self, name)
            if not isinstance(value, bool) and not isinstance(value, np.bool_):
                raise RulesError(f"{name} must be True or False, got {value!r}", argument=name)
        object.__setattr__(self, "position_points", points)
        try:
            mode = DiscardMode(self.discard_mode)
        except ValueError:
            choices = ", ".join(m.value for m in DiscardMode)
            raise RulesError(
                f"discard mode {self.discard_mode!r} is not one of: {choices}"
            ) from None
        object.__setattr__(self, "discard_mode", mode)
        object.__setattr__(self, "ace_low_straight", bool(self.ace_low_straight))
        object.__setattr__(self, "flush_beats_full_house", bool(self.flush_beats_full_house))

    @property
    def n_packets(self) -> int:
        """Number of packets (positions) each player lays out."""
        return len(self.position_points)

    @property
    def total_points(self) -> int:
        """Points at stake in one game (25 by default)."""
        return sum(self.position_points)

    @property
    def ranking_key(self) -> tuple[bool, bool]:
        """The options that change hand strengths; evaluator tables are cached on it."""
        return (self.ace_low_straight, self.flush_beats_full_house)

    def category_order(self) -> tuple[Category, ...]:
        """Categories from weakest to strongest under these rules.

        >>> Rules(flush_beats_full_house=True).category_order()[5:7]
        (<Category.FULL_HOUSE: 6>, <Category.FLUSH: 5>)
        """
        return _CATEGORY_ORDERS[self.flush_beats_full_house]

    def straights(self) -> tuple[tuple[frozenset[int], int], ...]:
        """Straights as ``(set of ranks, height)``; a higher height wins.

        >>> len(Rules().straights()), len(Rules(ace_low_straight=True).straights())
        (4, 5)
        """
        return _STRAIGHTS[self.ace_low_straight]

    def with_points(self, position_points: tuple[int, ...]) -> Rules:
        """The same rules with other position points (for reduced games).

        >>> Rules().with_points((6, 7)).n_packets
        2
        """
        return Rules(
            position_points=tuple(position_points),
            discard_mode=self.discard_mode,
            ace_low_straight=self.ace_low_straight,
            flush_beats_full_house=self.flush_beats_full_house,
        )


DEFAULT_RULES = Rules()


def rules_or_default(rules: object) -> Rules:
    """``rules``, or :data:`DEFAULT_RULES` for None; anything else is a :class:`TypeError`.

    Every function that takes ``rules`` reads them through here, so a string
    or a dict is refused by name rather than failing deep inside.

    >>> rules_or_default(None) is DEFAULT_RULES
    True
    >>> rules_or_default("mirror")
    Traceback (most recent call last):
        ...
    TypeError: rules must be a Rules (or None for the defaults), got 'mirror'
    """
    if rules is None:
        return DEFAULT_RULES
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules (or None for the defaults), got {rules!r}")
    return rules
