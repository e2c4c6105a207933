"""What a face asks for: frozen requests, built from command-line arguments or JSON alike.

A request holds library values (card ids, :class:`~solver.game.rules.Rules`,
numbers) and names of models; nothing in it is command-line syntax.  Errors
raised while building or running one name its fields (``opponent_cards``,
``fixed``, ``time_limit``...), so that each face can speak of its own options.

>>> h = holdings(None, None, 1, Rules())
>>> h.dealt, h.seed, len(h.mine)
(True, 1, 25)
>>> holdings(None, "As", 1, Rules())
Traceback (most recent call last):
    ...
solver.errors.CardError: opponent_cards needs cards (your holding) too
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from solver.equilibria.tolerance import DEFAULT_TOLERANCE
from solver.errors import CardError, SolverError
from solver.game.cards import HAND_SIZE, parse_cards
from solver.game.deal import deal
from solver.game.rules import DiscardMode, Rules

__all__ = [
    "DEFAULT_BOOK",
    "BookChoice",
    "EquilibriumRequest",
    "GradeRequest",
    "Holdings",
    "PlayRequest",
    "SuggestRequest",
    "fixed_from_text",
    "fresh_seed",
    "holdings",
]


def fresh_seed() -> int:
    """A random seed to report, so that any run can be repeated."""
    # From the system's randomness, as secrets would give it (whose hmac import costs 3 ms).
    return int.from_bytes(os.urandom(8), "big") % 10**6


@dataclass(frozen=True)
class Holdings:
    """Both holdings (sorted card ids), and the seed when the game was dealt."""

    mine: tuple[int, ...]
    theirs: tuple[int, ...]
    seed: int
    dealt: bool


def holdings(
    cards: str | None, opponent_cards: str | None, seed: int | None, rules: Rules
) -> Holdings:
    """Both players' cards: parsed from card text, or dealt from ``seed`` (fresh when None).

    In mirror mode the opponent holds the same cards; in independent mode
    ``opponent_cards`` is needed with ``cards``.
    """
    seed = fresh_seed() if seed is None else seed
    n_cards = HAND_SIZE * rules.n_packets
    if cards is None:
        if opponent_cards is not None:
            raise CardError(
                "opponent_cards needs cards (your holding) too", argument="opponent_cards"
            )
        dealt = deal(seed, rules)
        return Holdings(dealt.holdings[0], dealt.holdings[1], seed, True)
    mine = tuple(sorted(parse_cards(cards, count=n_cards)))
    mirror = rules.discard_mode is DiscardMode.MIRROR
    if opponent_cards is not None:
        theirs = tuple(sorted(parse_cards(opponent_cards, count=n_cards)))
    elif mirror:
        theirs = mine
    else:
        raise CardError("opponent_cards are needed in independent mode", argument="opponent_cards")
    if mirror and theirs != mine:
        raise CardError(
            "opponent_cards: in mirror mode both players hold the same cards; "
            "use the independent mode",
            argument="opponent_cards",
        )
    return Holdings(mine, theirs, seed, False)


def fixed_from_text(items: Iterable[str] | None) -> dict[int, tuple[int, ...]]:
    """Packets already decided, from ``POS=CARDS`` texts, as ``{position: cards}``.

    >>> fixed_from_text(["5=As Ks Qs Js Ts"])
    {5: (31, 27, 23, 19, 15)}
    >>> fixed_from_text(["As Ks"])
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: fixed 'As Ks': expected POS=CARDS, e.g. 5="As Ks Qs Js Ts"
    """
    fixed: dict[int, tuple[int, ...]] = {}
    for item in items or []:
        position_text, sep, cards_text = item.partition("=")
        if not sep:
            raise SolverError(
                f'fixed {item!r}: expected POS=CARDS, e.g. 5="As Ks Qs Js Ts"', argument="fixed"
            )
        try:
            position = int(position_text)
        except ValueError:
            raise SolverError(
                f"fixed {item!r}: position {position_text!r} is not a number", argument="fixed"
            ) from None
        if position in fixed:
            raise SolverError(f"fixed: position {position} is fixed twice", argument="fixed")
        fixed[position] = parse_cards(cards_text)
    return fixed


@dataclass(frozen=True)
class BookChoice:
    """Which solution book answers: ``path`` (None: the default book), or none at all."""

    path: str | None = None
    enabled: bool = True


DEFAULT_BOOK = BookChoice()
"""The default book: the user's cache directory's, looked up and stored to."""


@dataclass(frozen=True)
class SuggestRequest:
    """The best arrangement of ``holdings.mine`` against an opponent model.

    ``against`` names the model (see :mod:`solver.play.registry`; None: random,
    or known when ``known`` is given); ``known`` is the opponent's
    arrangement text for ``against="known"``.  ``None`` means "not given":
    options that conflict are refused, options that do not apply are
    reported as warnings.
    """

    holdings: Holdings
    rules: Rules
    against: str | None = None
    known: str | None = None
    objective: str | None = None
    payoff: str | None = None
    time_limit: float | None = None
    top: int = 1
    fixed: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    samples: int | None = None
    workers: int | None = None
    engine: str = "auto"
    book: BookChoice = DEFAULT_BOOK


@dataclass(frozen=True)
class EquilibriumRequest:
    """An exact equilibrium of the deal (``show``: how many arrangements the report lists).

    ``certificate`` is a path to write the certificate document to
    (:mod:`solver.equilibria.certificate`); ``with_certificate`` puts it in
    the answer's document too, under ``"certificate"``.  ``nfg`` is a path
    to write the support game to in Gambit's ``.nfg`` format
    (:mod:`solver.equilibria.nfg`).  ``ranges``: also each listed arrangement's
    probability range over all optimal strategies (two linear programs each, most of an
    independent deal's solve: only when asked).  ``max_support``: also the best strategy
    found that mixes at most that many arrangements, with its certified exploitability
    (:mod:`solver.equilibria.simple_strategy`).
    """

    holdings: Holdings
    rules: Rules
    payoff: str = "margin"
    tolerance: float = DEFAULT_TOLERANCE
    time_limit: float | None = None
    show: int = 10
    out: str | None = None
    book: BookChoice = DEFAULT_BOOK
    certificate: str | None = None
    with_certificate: bool = False
    nfg: str | None = None
    ranges: bool = False
    max_support: int | None = None


@dataclass(frozen=True)
class GradeRequest:
    """The grade of ``arrangement`` (text or parsed) of ``holdings.mine``."""

    holdings: Holdings
    rules: Rules
    arrangement: str
    payoff: str = "margin"
    time_limit: float | None = None
    book: BookChoice = DEFAULT_BOOK


@dataclass(frozen=True)
class PlayRequest:
    """A game of ``arrangement`` against the computer player ``opponent``."""

    holdings: Holdings
    rules: Rules
    arrangement: str
    opponent: str = "eq-margin"
    time_limit: float | None = None
    book: BookChoice = DEFAULT_BOOK
    # A seed of the match (the web app's table): the computer's choices differ from game to
    # game of a deal, and the greedy and house players vary their fixed layout with it.
    variation: int | None = None
