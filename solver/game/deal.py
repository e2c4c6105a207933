"""A seeded deal, following docs/rules.md, "The deal".

1. A lot decides the dealer (player 0 or 1).
2. The dealer shuffles its 32-card deck, the opponent cuts it (the top part
   goes under the rest), and the dealer turns up the top seven cards.
3. Mirror mode: the other player removes the same seven cards from its own
   deck.  Independent mode: it shuffles its own deck, the dealer cuts, and it
   turns up its own top seven.

Each player keeps the other 25 cards (``32 - 5 * n_packets`` are turned up in
general).  Every turned-up card is visible, so both holdings are public.

>>> d = deal(seed=7)
>>> len(d.holdings[0]), d.holdings[0] == d.holdings[1]
(25, True)
>>> deal(seed=7) == d
True
>>> deal(seed=-1)
Traceback (most recent call last):
    ...
solver.errors.RulesError: seed must be a non-negative integer or a numpy Generator, got -1
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.errors import RulesError
from solver.game.cards import DECK_SIZE, HAND_SIZE
from solver.game.rules import DEFAULT_RULES, DiscardMode, Rules
from solver.util.checks import check_instance

__all__ = ["Deal", "deal", "deal_seed", "make_rng"]


@dataclass(frozen=True)
class Deal:
    """The outcome of a deal.

    Attributes
    ----------
    rules
        The rules it followed (its discard mode and number of packets).
    seed
        The integer seed, or ``None`` when a Generator was passed.
    dealer
        Which player dealt (0 or 1).
    cuts
        Where each player's deck was cut (the number of cards moved from top
        to bottom); in mirror mode only the dealer's deck is cut.
    exposed
        The cards each player turned up (sorted), player 0 first.
    holdings
        The cards each player keeps (sorted), player 0 first.
    """

    rules: Rules
    seed: int | None
    dealer: int
    cuts: tuple[int, ...]
    exposed: tuple[tuple[int, ...], tuple[int, ...]]
    holdings: tuple[tuple[int, ...], tuple[int, ...]]


def make_rng(seed: int | np.random.Generator | None) -> np.random.Generator:
    """A numpy Generator from a seed (a non-negative int), a Generator, or None.

    >>> bool(make_rng(3).integers(100) == make_rng(3).integers(100))
    True
    >>> make_rng("x")
    Traceback (most recent call last):
        ...
    solver.errors.RulesError: seed must be a non-negative integer or a numpy Generator, got 'x'
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None or (
        isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and seed >= 0
    ):
        return np.random.default_rng(seed)
    raise RulesError(f"seed must be a non-negative integer or a numpy Generator, got {seed!r}")


def _shuffle_cut_turn(rng: np.random.Generator, n_exposed: int) -> tuple[tuple[int, ...], int]:
    deck = rng.permutation(DECK_SIZE)
    cut = int(rng.integers(1, DECK_SIZE))
    deck = np.roll(deck, -cut)
    return tuple(sorted(int(c) for c in deck[:n_exposed])), cut


def _complement(exposed: tuple[int, ...]) -> tuple[int, ...]:
    hidden = set(exposed)
    return tuple(c for c in range(DECK_SIZE) if c not in hidden)


def deal(seed: int | np.random.Generator | None = None, rules: Rules | None = None) -> Deal:
    """Deal one game.

    Parameters
    ----------
    seed
        A non-negative integer (reproducible), a numpy Generator, or None
        (fresh entropy; the deal then records ``seed=None``).
    rules
        The rules; their discard mode and number of packets matter here.

    Returns
    -------
    Deal

    >>> d = deal(seed=1, rules=Rules(discard_mode="independent"))
    >>> d.rules.discard_mode.value, len(d.exposed[0]), len(d.exposed[1])
    ('independent', 7, 7)
    """
    rules = DEFAULT_RULES if rules is None else check_instance(rules, Rules, "rules")
    rng = make_rng(seed)
    recorded_seed = None if seed is None or isinstance(seed, np.random.Generator) else int(seed)
    n_exposed = DECK_SIZE - HAND_SIZE * rules.n_packets
    dealer = int(rng.integers(2))
    dealer_exposed, dealer_cut = _shuffle_cut_turn(rng, n_exposed)
    cuts: tuple[int, ...]
    if rules.discard_mode is DiscardMode.MIRROR:
        other_exposed, cuts = dealer_exposed, (dealer_cut,)
    else:
        other_exposed, other_cut = _shuffle_cut_turn(rng, n_exposed)
        cuts = (dealer_cut, other_cut)
    exposed = (dealer_exposed, other_exposed) if dealer == 0 else (other_exposed, dealer_exposed)
    holdings = (_complement(exposed[0]), _complement(exposed[1]))
    return Deal(
        rules=rules,
        seed=recorded_seed,
        dealer=dealer,
        cuts=cuts,
        exposed=exposed,
        holdings=holdings,
    )


def deal_seed(seed: int, index: int) -> int:
    """The seed of deal ``index`` of a series seeded ``seed`` (tournaments, book builds).

    Independent of every other deal of the series, so a series can be split
    across processes or resumed in any order.

    >>> deal_seed(1, 0) == deal_seed(1, 0) != deal_seed(1, 1)
    True
    """
    return int(np.random.SeedSequence([seed, index]).generate_state(1)[0])
