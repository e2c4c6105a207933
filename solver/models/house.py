"""A house rule: how to lay out a holding by hand, close to equilibrium play.

The rule, in words (the default :data:`HOUSE_RULE`):

1. **Build the greedy packets.**  Take the strongest five-card combination
   your cards allow, then the strongest of what is left, and so on: five
   packets, ranked from the weakest (1st) to the strongest (5th).
2. **Lay them out weakest to strongest, but put the weakest packet in the
   middle**: position 1 (3 points) gets the 2nd weakest packet, position 2
   the 3rd, position 3 (5 points) the *weakest*, position 4 the 4th and
   position 5 (7 points) the strongest.

The greedy layout (weakest to strongest, :func:`greedy_arrangement`) is the
order ``(0, 1, 2, 3, 4)``.  A :class:`HouseRule` is any such order of packets
built greedily or "thriftily" (:class:`Packets`: the weakest hand of the
strongest combination left, keeping high cards for later packets), with an
optional second order used when the weakest packet is a poor combination
(below ``weak_below``).  The default was chosen by searching that family on
seeded deals against the exact equilibrium (:mod:`solver.analysis.house_search`,
whose docstring says how; the results are in docs/findings.md).

>>> from solver.game.deal import deal
>>> holding = deal(seed=3).holdings[0]
>>> a = house_arrangement(holding)
>>> a.cards == tuple(sorted(holding))
True
>>> house_arrangement(holding, rule=HouseRule(order=(0, 1, 2, 3, 4))) == greedy_arrangement(holding)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

import numpy as np

from solver.errors import QuintetError
from solver.game.arrangement import Arrangement
from solver.game.evaluator import category, strength
from solver.game.rules import DEFAULT_RULES, Category, Rules
from solver.models.heuristics import greedy_arrangement
from solver.models.packets import check_holding, subsets

__all__ = [
    "HOUSE_RULE",
    "HouseRule",
    "Packets",
    "built_packets",
    "house_arrangement",
    "house_rule",
]


class Packets(str, Enum):
    """How the five packets are built, one after the other from what is left."""

    GREEDY = "greedy"  # the strongest hand
    THRIFTY = "thrifty"  # the weakest hand of the strongest combination available


@dataclass(frozen=True)
class HouseRule:
    """Where each greedy packet goes.

    Attributes
    ----------
    order
        ``order[i]`` is the greedy packet laid at position ``i + 1``, packets
        numbered from the weakest (0) to the strongest (``n_packets - 1``).
    weak_order
        The order used instead when the weakest greedy packet's combination
        ranks below ``weak_below`` (None: always ``order``).
    weak_below
        See ``weak_order``.

    >>> HouseRule(order=(0, 1, 2, 3, 4)).describe()
    'greedy packets at positions 1-5: 1 2 3 4 5'
    >>> HouseRule(order=(0, 0, 1, 2, 3))
    Traceback (most recent call last):
        ...
    solver.errors.QuintetError: rule: order (0, 0, 1, 2, 3) is not a permutation of 0..4
    """

    order: tuple[int, ...]
    weak_order: tuple[int, ...] | None = None
    weak_below: Category | None = None
    packets: Packets = Packets.GREEDY

    def __post_init__(self) -> None:
        for name in ("order", "weak_order"):
            value = getattr(self, name)
            if value is not None and sorted(value) != list(range(len(value))):
                raise QuintetError(
                    f"rule: {name} {value} is not a permutation of 0..{len(value) - 1}",
                    argument="rule",
                )
        if (self.weak_order is None) != (self.weak_below is None):
            raise QuintetError("rule: weak_order and weak_below go together", argument="rule")
        if self.weak_order is not None and len(self.weak_order) != len(self.order):
            raise QuintetError("rule: order and weak_order differ in length", argument="rule")

    def describe(self) -> str:
        """The rule in one line (packets numbered 1 = weakest greedy packet)."""
        text = f"{self.packets.value} packets at positions 1-{len(self.order)}: " + " ".join(
            str(i + 1) for i in self.order
        )
        if self.weak_order is not None and self.weak_below is not None:
            text += f"; if the weakest is below {self.weak_below.english}: " + " ".join(
                str(i + 1) for i in self.weak_order
            )
        return text

    def order_for(self, weakest: Category, rules: Rules) -> tuple[int, ...]:
        """The order to use when the weakest greedy packet is a ``weakest``."""
        if self.weak_order is None or self.weak_below is None:
            return self.order
        ranks = rules.category_order()
        if ranks.index(weakest) < ranks.index(self.weak_below):
            return self.weak_order
        return self.order


# Chosen by solver.analysis.house_search.search on training deals (see there).
HOUSE_RULE = HouseRule(order=(1, 2, 0, 3, 4))


def house_rule(n_packets: int = 5) -> HouseRule:
    """The default rule for ``n_packets`` packets: :data:`HOUSE_RULE` for five.

    For reduced games the same idea: the weakest packet in the middle
    position, the others weakest to strongest (greedy for one or two packets).

    >>> house_rule(3).order, house_rule(2).order, house_rule(5) == HOUSE_RULE
    ((1, 0, 2), (0, 1), True)
    """
    if n_packets < 3:
        return HouseRule(order=tuple(range(n_packets)))
    middle = n_packets // 2
    return HouseRule(order=(*range(1, middle + 1), 0, *range(middle + 1, n_packets)))


@lru_cache(maxsize=256)
def _packets(
    holding: tuple[int, ...], rules: Rules, packets: Packets
) -> tuple[tuple[int, ...], ...]:
    # A search lays the same holding out by many rules: build its packets once.
    if packets is Packets.GREEDY:
        return greedy_arrangement(holding, rules).packets
    rank_of = np.empty(len(Category), dtype=np.int64)
    rank_of[[int(c) for c in rules.category_order()]] = np.arange(len(Category))
    remaining = np.array(holding, dtype=np.int64)
    built = []
    for _ in range(rules.n_packets):
        choices = subsets(remaining.shape[0])
        hands = remaining[choices]
        kinds = rank_of[category(hands, rules)]
        values = np.where(kinds == kinds.max(), strength(hands, rules), np.iinfo(np.int64).max)
        best = int(np.argmin(values))  # first minimum: lowest cards
        built.append(tuple(int(c) for c in hands[best]))
        remaining = np.delete(remaining, choices[best])
    return tuple(sorted(built, key=lambda p: int(strength(p, rules))))


def built_packets(
    holding: Iterable[int], rules: Rules | None = None, packets: Packets | str = Packets.GREEDY
) -> tuple[tuple[int, ...], ...]:
    """The packets of ``holding`` built the ``packets`` way, weakest first (cached).

    >>> len(built_packets(range(25))), len(built_packets(range(25), packets="thrifty"))
    (5, 5)
    """
    rules = rules or DEFAULT_RULES
    return _packets(check_holding(holding, rules), rules, Packets(packets))


def house_arrangement(
    holding: Iterable[int], rules: Rules | None = None, rule: HouseRule | None = None
) -> Arrangement:
    """The arrangement the house rule lays out (deterministic: no choice is random).

    Parameters
    ----------
    holding
        The player's ``5 * n_packets`` cards.
    rules
        The rules.
    rule
        The house rule (default :func:`house_rule` of the rules' packets).

    Returns
    -------
    Arrangement

    >>> from solver.game.cards import parse_cards
    >>> house_arrangement(parse_cards("As Ks Qs Js Ts 7c 7d 7h 7s 8c"),
    ...                   Rules(position_points=(6, 7)), HouseRule(order=(1, 0))).format()
    '10♠ J♠ Q♠ K♠ A♠ | 7♣ 7♦ 7♥ 7♠ 8♣'
    >>> house_arrangement(range(24))
    Traceback (most recent call last):
        ...
    solver.errors.CardError: holding: expected 25 cards, got 24
    """
    rules = rules or DEFAULT_RULES
    rule = rule or house_rule(rules.n_packets)
    packets = built_packets(holding, rules, rule.packets)
    if len(rule.order) != len(packets):
        raise QuintetError(
            f"rule: orders {len(rule.order)} packets, the rules have {len(packets)}",
            argument="rule",
        )
    weakest = Category(int(category(packets[0], rules)))
    return Arrangement(tuple(packets[i] for i in rule.order_for(weakest, rules)))
