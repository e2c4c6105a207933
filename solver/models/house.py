"""A house rule: how to lay out a holding by hand, close to equilibrium play.

The rule, in words (the default :data:`HOUSE_RULE`):

1. **Build the greedy packets.**  Take the strongest five-card combination
   your cards allow, then the strongest of what is left, and so on: five
   packets, numbered from the weakest (1) to the strongest (5).  Lay them out
   2, 3, 1, 4, 5: position 1 (3 points) gets packet 2, position 2 packet 3,
   position 3 (5 points) the *weakest*, position 4 packet 4 and position 5
   (7 points) the strongest.
2. **Build them again, keeping your fours of a kind.**  The same way, but a
   packet may not take some of the cards of a rank you still hold all four
   of (it takes all four or none) -- except a straight flush, which may break
   one such four of a kind (not two).  If every packet left breaks one, break
   as few as you must.  Number these 1 to 5 again and lay them out 2, 1, 4,
   5, 3 (the weakest at position 2, the middle one at position 5).
3. **Play the second layout only if it beats the first** when the two are
   scored against each other position by position, as in the game;
   otherwise play the first.

Measured against the exact margin equilibrium on seeded deals (the
equilibrium loss of ``quintet grade``, points per game, ± 1.96 standard
errors): 0.260 ± 0.069 on the 250 training deals it was chosen on and
0.249 ± 0.055 on 400 other deals, against 0.563 ± 0.114 and 0.621 ± 0.087 for
greedy play, and 0.295 ± 0.056 (greedy 0.638 ± 0.085) on 400 deals of a
third series looked at only after the choice (``validate(400)``).
``measure(250, 400)`` of :mod:`solver.analysis.house_search`
reproduces them (``python -c "from solver.analysis.house_search import
measure; print(measure(250, 400).table())"``; docs/findings.md, "A house rule").

A :class:`HouseRule` is data: how the main packets are built
(:class:`Packets`) and the order they are laid out in, and optionally an
alternative build with its own order, played when it beats the main layout.
The greedy layout (weakest to strongest, :func:`greedy_arrangement`) is the
order ``(0, 1, 2, 3, 4)`` of the greedy packets.

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
from solver.game.arrangement import Arrangement, points_against
from solver.game.cards import DECK_SIZE, HAND_SIZE, N_RANKS, N_SUITS, rank_of
from solver.game.evaluator import category, strength
from solver.game.rules import Category, Rules, rules_or_default
from solver.models.heuristics import greedy_arrangement
from solver.models.packets import check_holding, subsets
from solver.util.checks import check_instance, check_int
from solver.util.language import Lang, Phrase

__all__ = [
    "HOUSE_RULE",
    "HouseRule",
    "Packets",
    "built_packets",
    "house_arrangement",
    "house_rule",
]


class Packets(str, Enum):
    """How the packets are built, one after the other from what is left.

    * ``greedy``: the strongest hand;
    * ``thrifty``: the weakest hand of the strongest combination available;
    * ``fours-first``: a four of a kind while one is left (the strongest,
      with the best kicker), else the strongest hand;
    * ``keep-fours``: the strongest hand that breaks none of the fours of a
      kind still in hand (takes all four cards of such a rank or none);
      breaking as few as it must when every hand breaks one;
    * ``keep-fours-sf``: the same, but a straight flush may break one four
      of a kind (breaking two counts as breaking one).
    """

    GREEDY = "greedy"
    THRIFTY = "thrifty"
    FOURS_FIRST = "fours-first"
    KEEP_FOURS = "keep-fours"
    KEEP_FOURS_SF = "keep-fours-sf"


# The builds and the rule's sentence in words, for the reports (--lang).
_PACKETS_TEXT = {
    Packets.GREEDY: Phrase("greedy", "«жадные»"),
    Packets.THRIFTY: Phrase("thrifty", "«экономные»"),
    Packets.FOURS_FIRST: Phrase("fours-first", "«сначала каре»"),
    Packets.KEEP_FOURS: Phrase("keep-fours", "«не разбивая каре»"),
    Packets.KEEP_FOURS_SF: Phrase("keep-fours-sf", "«не разбивая каре, кроме как покером»"),
}
_RULE_TEXT = Phrase(
    "{packets} packets at positions 1-{n}: {order}", "пакеты {packets} на позициях 1-{n}: {order}"
)
_ALTERNATIVE_TEXT = Phrase(
    "; {packets} packets {order} if they beat that",
    "; пакеты {packets} {order}, если обыгрывают первую раскладку",
)

# How many fours of a kind a straight flush may break for free, by build.
_FREE_BREAKS = {Packets.KEEP_FOURS: 0, Packets.KEEP_FOURS_SF: 1}


def _check_order(name: str, order: tuple[int, ...] | None) -> None:
    if order is not None and (not isinstance(order, tuple) or not order):
        raise TypeError(f"{name} must be a non-empty tuple of packet numbers, got {order!r}")
    for packet in order or ():
        check_int(packet, name)  # 1.0 or True is no packet number
    if order is not None and sorted(order) != list(range(len(order))):
        raise QuintetError(
            f"rule: {name} {order} is not a permutation of 0..{len(order) - 1}", argument="rule"
        )


@dataclass(frozen=True)
class HouseRule:
    """Which packets to build and where each goes.

    Attributes
    ----------
    order
        ``order[i]`` is the packet laid at position ``i + 1``, packets
        numbered from the weakest (0) to the strongest (``n_packets - 1``).
    packets
        How the packets are built.
    alternative, alternative_order
        An alternative build and its order (both or neither): it is played
        when it scores more points than the main layout against it.

    >>> HouseRule(order=(0, 1, 2, 3, 4)).describe()
    'greedy packets at positions 1-5: 1 2 3 4 5'
    >>> HouseRule((1, 2, 0, 3, 4), Packets.GREEDY, Packets.KEEP_FOURS, (1, 3, 4, 2, 0)).describe()
    'greedy packets at positions 1-5: 2 3 1 4 5; keep-fours packets 2 4 5 3 1 if they beat that'
    >>> HouseRule(order=(0, 0, 1, 2, 3))
    Traceback (most recent call last):
        ...
    solver.errors.QuintetError: rule: order (0, 0, 1, 2, 3) is not a permutation of 0..4
    """

    order: tuple[int, ...]
    packets: Packets = Packets.GREEDY
    alternative: Packets | None = None
    alternative_order: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if self.order is None:
            raise TypeError("order must be a non-empty tuple of packet numbers, got None")
        _check_order("order", self.order)
        _check_order("alternative_order", self.alternative_order)
        if (self.alternative is None) != (self.alternative_order is None):
            raise QuintetError(
                "rule: alternative and alternative_order go together", argument="rule"
            )
        if self.alternative_order is not None and len(self.alternative_order) != len(self.order):
            raise QuintetError(
                "rule: order and alternative_order differ in length", argument="rule"
            )

    def describe(self, lang: Lang | str = Lang.EN) -> str:
        """The rule in one line (packets numbered 1 = the weakest), in ``lang``.

        >>> HouseRule((1, 0, 2), Packets.KEEP_FOURS).describe("ru")
        'пакеты «не разбивая каре» на позициях 1-3: 2 1 3'
        """
        text = _RULE_TEXT.text(lang).format(
            packets=_PACKETS_TEXT[self.packets].text(lang),
            n=len(self.order),
            order=" ".join(str(i + 1) for i in self.order),
        )
        if self.alternative is not None and self.alternative_order is not None:
            text += _ALTERNATIVE_TEXT.text(lang).format(
                packets=_PACKETS_TEXT[self.alternative].text(lang),
                order=" ".join(str(i + 1) for i in self.alternative_order),
            )
        return text


# Chosen by solver.analysis.house_search.search on training deals (see there).
HOUSE_RULE = HouseRule((1, 2, 0, 3, 4), Packets.GREEDY, Packets.KEEP_FOURS_SF, (1, 0, 3, 4, 2))


# A player holds at most the deck: six packets.
MAX_PACKETS = DECK_SIZE // HAND_SIZE


def house_rule(n_packets: int = 5) -> HouseRule:
    """The default rule for ``n_packets`` packets: :data:`HOUSE_RULE` for five.

    For reduced games the greedy packets with the weakest in the middle
    position, the others weakest to strongest (greedy for one or two packets).

    >>> house_rule(3).order, house_rule(2).order, house_rule(5) == HOUSE_RULE
    ((1, 0, 2), (0, 1), True)
    """
    check_int(n_packets, "n_packets", low=1, high=MAX_PACKETS)
    if n_packets == len(HOUSE_RULE.order):
        return HOUSE_RULE
    if n_packets < 3:
        return HouseRule(order=tuple(range(n_packets)))
    middle = n_packets // 2
    return HouseRule(order=(*range(1, middle + 1), 0, *range(middle + 1, n_packets)))


def _preference(
    hands: np.ndarray, remaining: np.ndarray, rules: Rules, packets: Packets
) -> np.ndarray:
    """What a build prefers before strength (higher first), one value per hand."""
    if packets is Packets.FOURS_FIRST:
        return (category(hands, rules) == Category.FOUR_OF_A_KIND).astype(np.int64)
    if packets in _FREE_BREAKS:
        # A four of a kind is broken when the hand takes some, not all, of its cards.
        held = np.bincount(np.asarray(rank_of(remaining)), minlength=N_RANKS)
        taken = (np.asarray(rank_of(hands))[..., None] == np.arange(N_RANKS)).sum(axis=1)
        broken = ((held == N_SUITS) & (taken > 0) & (taken < N_SUITS)).sum(axis=1)
        free = np.where(category(hands, rules) == Category.STRAIGHT_FLUSH, _FREE_BREAKS[packets], 0)
        return -np.maximum(broken - free, 0).astype(np.int64)
    return np.zeros(hands.shape[0], dtype=np.int64)


def _thrifty_key(hands: np.ndarray, rules: Rules) -> np.ndarray:
    # The weakest hand of the strongest combination: rank by category, then by -strength.
    place = np.empty(len(Category), dtype=np.int64)  # of each category, weakest first
    place[[int(c) for c in rules.category_order()]] = np.arange(len(Category))
    return place[category(hands, rules)] * (1 << 40) - strength(hands, rules).astype(np.int64)


@lru_cache(maxsize=256)
def _packets(
    holding: tuple[int, ...], rules: Rules, packets: Packets
) -> tuple[tuple[int, ...], ...]:
    # A search lays the same holding out by many rules: build its packets once.
    if packets is Packets.GREEDY:
        return greedy_arrangement(holding, rules).packets
    remaining = np.array(holding, dtype=np.int64)
    built = []
    for _ in range(rules.n_packets):
        choices = subsets(remaining.shape[0])
        hands = remaining[choices]
        if packets is Packets.THRIFTY:
            key = _thrifty_key(hands, rules)
        else:  # strengths are far below 2**40: the preference decides first
            preference = _preference(hands, remaining, rules, packets)
            key = preference * (1 << 40) + strength(hands, rules).astype(np.int64)
        best = int(np.argmax(key))  # first maximum: lowest cards
        built.append(tuple(int(c) for c in hands[best]))
        remaining = np.delete(remaining, choices[best])
    return tuple(sorted(built, key=lambda p: int(strength(p, rules))))


def built_packets(
    holding: Iterable[int], rules: Rules | None = None, packets: Packets | str = Packets.GREEDY
) -> tuple[tuple[int, ...], ...]:
    """The packets of ``holding`` built the ``packets`` way, weakest first (cached).

    >>> len(built_packets(range(25))), len(built_packets(range(25), packets="keep-fours"))
    (5, 5)
    >>> built_packets(range(25), packets="best")
    Traceback (most recent call last):
        ...
    ValueError: 'best' is not a valid Packets
    """
    rules = rules_or_default(rules)
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
    rules = rules_or_default(rules)
    rule = house_rule(rules.n_packets) if rule is None else check_instance(rule, HouseRule, "rule")
    if len(rule.order) != rules.n_packets:
        raise QuintetError(
            f"rule: orders {len(rule.order)} packets, the rules have {rules.n_packets}",
            argument="rule",
        )
    packets = built_packets(holding, rules, rule.packets)
    main = Arrangement(tuple(packets[i] for i in rule.order))
    if rule.alternative is None or rule.alternative_order is None:
        return main
    others = built_packets(holding, rules, rule.alternative)
    alternative = Arrangement(tuple(others[i] for i in rule.alternative_order))
    won, lost = points_against(alternative.strengths(rules), main.strengths(rules), rules)
    return alternative if won > lost else main
