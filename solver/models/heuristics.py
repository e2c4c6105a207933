"""Simple ways to arrange a holding: what a person would do without a solver.

* :func:`random_arrangement`: the cards shuffled and dealt into packets.
* :func:`greedy_arrangement`: build the strongest packet from what remains,
  again and again; lay them out weakest first, so the strongest packet sits
  at the last position, worth the most points.  Among equally strong
  packets it takes the one made of the lowest card ids (lowest suits), so
  the result is deterministic.

>>> from solver.game.deal import deal
>>> holding = deal(seed=3).holdings[0]
>>> a = greedy_arrangement(holding)
>>> s = a.strengths().tolist()
>>> s == sorted(s)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import numpy as np

from solver.game.arrangement import Arrangement
from solver.game.evaluator import strength
from solver.game.rules import Rules, rules_or_default
from solver.models.packets import check_holding, subsets
from solver.util.checks import check_instance

__all__ = [
    "greedy_arrangement",
    "random_arrangement",
    "random_arrangements",
    "random_profiles",
]


def greedy_arrangement(holding: Iterable[int], rules: Rules | None = None) -> Arrangement:
    """The greedy arrangement: strongest packet first, laid out weakest first.

    Parameters
    ----------
    holding
        The player's ``5 * n_packets`` cards.
    rules
        The rules.

    Returns
    -------
    Arrangement

    >>> from solver.game.cards import parse_cards
    >>> greedy_arrangement(parse_cards("As Ks Qs Js Ts 7c 7d 7h 7s 8c"),
    ...                    Rules(position_points=(6, 7))).format()
    '7♣ 7♦ 7♥ 7♠ 8♣ | 10♠ J♠ Q♠ K♠ A♠'
    >>> greedy_arrangement(range(24))
    Traceback (most recent call last):
        ...
    solver.errors.CardError: holding: expected 25 cards, got 24
    """
    rules = rules_or_default(rules)
    return Arrangement(_greedy_packets(check_holding(holding, rules), rules))


@lru_cache(maxsize=256)
def _greedy_packets(holding: tuple[int, ...], rules: Rules) -> tuple[tuple[int, ...], ...]:
    # A tournament deal asks for the same holding's greedy layout several times (the
    # greedy player, the best response to it, the house rule's packets): build it once.
    remaining = np.array(holding, dtype=np.int64)
    strongest_first = []
    for _ in range(rules.n_packets):
        choices = subsets(remaining.shape[0])
        hands = remaining[choices]
        best = int(np.argmax(strength(hands, rules)))  # first maximum: lowest cards
        strongest_first.append(tuple(int(c) for c in hands[best]))
        remaining = np.delete(remaining, choices[best])
    return tuple(reversed(strongest_first))


def random_arrangement(
    holding: Iterable[int], rng: np.random.Generator, rules: Rules | None = None
) -> Arrangement:
    """A uniformly random arrangement of ``holding``.

    >>> a = random_arrangement(range(25), np.random.default_rng(0))
    >>> a.cards == tuple(range(25))
    True
    """
    return random_arrangements(holding, 1, rng, rules)[0]


def _shuffled(
    holding: Iterable[int], n: int, rng: np.random.Generator, rules: Rules | None
) -> np.ndarray:
    """``n`` independent shuffles of the holding, as ``(n, n_packets, 5)`` cards."""
    rules = rules_or_default(rules)
    cards = np.array(check_holding(holding, rules))
    check_instance(rng, np.random.Generator, "rng")
    return rng.permuted(np.tile(cards, (n, 1)), axis=1).reshape(n, rules.n_packets, -1)


def random_arrangements(
    holding: Iterable[int], n: int, rng: np.random.Generator, rules: Rules | None = None
) -> list[Arrangement]:
    """``n`` independent uniformly random arrangements of ``holding``.

    >>> len(random_arrangements(range(25), 3, np.random.default_rng(1)))
    3
    """
    return [Arrangement.from_array(packets) for packets in _shuffled(holding, n, rng, rules)]


def random_profiles(
    holding: Iterable[int], n: int, rng: np.random.Generator, rules: Rules | None = None
) -> np.ndarray:
    """Strength profiles of ``n`` uniformly random arrangements, shape ``(n, n_packets)``.

    >>> random_profiles(range(25), 4, np.random.default_rng(0)).shape
    (4, 5)
    """
    return strength(_shuffled(holding, n, rng, rules), rules).astype(np.int64)
