"""Arrangements (five ordered packets) and scoring.

An arrangement is a tuple of packets, position 1 first, each packet five
distinct cards; together the packets hold the player's 25 cards.  Packets
are compared position by position: the stronger packet wins the position's
points (3, 4, 5, 6, 7 by default), equal packets score nothing.

Scoring works on strengths, so the vectorized form
:func:`points_against` scores one arrangement (or many) against many at
numpy speed; :func:`score` is the readable one-game form on top of it.

>>> a = Arrangement.parse("7c 7d 7h 7s 8c | 8d 8h 8s 9c 9d | 9h 9s Tc Td Th "
...                       "| Ts Jc Jd Jh Js | Qc Qd Qh Qs Kc")
>>> b = Arrangement.parse("Ac Ad Ah As Kd | Kh Ks Qc Qd Qh | Qs Jc Jd Jh Js "
...                       "| Tc Td Th Ts 9c | 9d 9h 9s 8c 8d")
>>> s = score(a, b)
>>> s.points, s.margin, s.result.value
((13, 12), 1, 'win')
>>> score(a, b).outcomes == tuple(-o for o in score(b, a).outcomes)
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum

import numpy as np

from solver.errors import ArrangementError, CardError
from solver.game.cards import DECK_SIZE, HAND_SIZE, card_ids, format_cards, parse_cards
from solver.game.evaluator import MAX_HANDS, strength
from solver.game.ranking import ranking
from solver.game.rules import Rules, rules_or_default
from solver.util.checks import check_instance, check_int, check_int_array
from solver.util.language import Lang

__all__ = [
    "MAX_PROFILES",
    "Arrangement",
    "GameResult",
    "Outcome",
    "Score",
    "check_profiles",
    "points_against",
    "score",
]

PACKET_SEPARATOR = "|"
# The most strength profiles (or pairs of them, broadcast) one call scores: some 500 MB
# of work arrays at most; the frontier scores its strategies in blocks below it.
MAX_PROFILES = MAX_HANDS


class Outcome(IntEnum):
    """Outcome of one position, from the first player's side."""

    LOSS = -1
    TIE = 0
    WIN = 1


class GameResult(str, Enum):
    """Outcome of a game, from the first player's side."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


@dataclass(frozen=True)
class Arrangement:
    """Packets in position order, each a tuple of five card ids.

    Use :meth:`parse` for text and :meth:`from_array` for arrays.

    >>> Arrangement(((0, 1, 2, 3, 4),)).n_packets
    1
    >>> Arrangement(((0, 1, 2, 3, 4), (4, 5, 6, 7, 8)))
    Traceback (most recent call last):
        ...
    solver.errors.ArrangementError: card 8♣ appears twice in the arrangement
    """

    packets: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        if isinstance(self.packets, (str, bytes)) or not isinstance(self.packets, Iterable):
            raise TypeError(
                f"arrangement: packets must be packets of card ids, got {self.packets!r}"
            )
        try:
            packets = tuple(card_ids(packet, who="arrangement") for packet in self.packets)
        except CardError as error:
            raise ArrangementError(str(error)) from None
        if not packets:
            raise ArrangementError("an arrangement needs at least one packet")
        seen: set[int] = set()
        for position, packet in enumerate(packets, start=1):
            if len(packet) != HAND_SIZE:
                raise ArrangementError(
                    f"packet {position} has {len(packet)} cards; a packet has {HAND_SIZE}"
                )
            for card in packet:
                if not 0 <= card < DECK_SIZE:
                    raise ArrangementError(f"card id {card} out of range 0..{DECK_SIZE - 1}")
                if card in seen:
                    raise ArrangementError(
                        f"card {format_cards([card])} appears twice in the arrangement"
                    )
                seen.add(card)
        object.__setattr__(self, "packets", packets)

    @classmethod
    def trusted(cls, packets: Iterable[Iterable[int]]) -> Arrangement:
        """An arrangement of packets already checked, built without checking them again.

        For callers that validate many arrangements at once (the book checks
        its arrays in numpy): the packets must be what :class:`Arrangement`
        would accept, card ids from 0 to 31, five distinct cards a packet and
        no card twice, or the object is not a valid arrangement.

        Parameters
        ----------
        packets
            Packets in position order, each an iterable of five ``int`` card ids.

        Returns
        -------
        Arrangement
            The arrangement, with its packets as tuples of ints, not validated.

        Examples
        --------
        >>> a = Arrangement.trusted([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]])
        >>> a.packets
        ((0, 1, 2, 3, 4), (5, 6, 7, 8, 9))
        >>> a == Arrangement(((0, 1, 2, 3, 4), (5, 6, 7, 8, 9)))
        True
        """
        arrangement = object.__new__(cls)
        object.__setattr__(arrangement, "packets", tuple(map(tuple, packets)))
        return arrangement

    @classmethod
    def parse(cls, text: str, n_packets: int | None = None) -> Arrangement:
        """Parse ``"P1 | P2 | P3 | P4 | P5"``: packets separated by ``|``.

        >>> Arrangement.parse("7c 8c 9c Tc Jc").packets
        ((0, 4, 8, 12, 16),)
        >>> Arrangement.parse("7c 8c 9c Tc | Jc Qc Kc Ac 7d")
        Traceback (most recent call last):
            ...
        solver.errors.ArrangementError: packet 1 ('7c 8c 9c Tc') has 4 cards; a packet has 5
        """
        check_instance(text, str, "text")
        if n_packets is not None:
            check_int(n_packets, "n_packets", low=1, high=DECK_SIZE // HAND_SIZE)
        parts = [part.strip() for part in text.split(PACKET_SEPARATOR)]
        if n_packets is not None and len(parts) != n_packets:
            raise ArrangementError(
                f"expected {n_packets} packets separated by '|', got {len(parts)}"
            )
        packets = []
        for position, part in enumerate(parts, start=1):
            try:
                cards = parse_cards(part)
            except CardError as error:
                raise ArrangementError(f"packet {position}: {error}") from None
            if len(cards) != HAND_SIZE:
                raise ArrangementError(
                    f"packet {position} ({part!r}) has {len(cards)} cards; a packet has {HAND_SIZE}"
                )
            packets.append(cards)
        return cls(tuple(packets))

    @classmethod
    def from_array(cls, array: np.ndarray | Sequence[Sequence[int]]) -> Arrangement:
        """Build from an integer array of shape ``(n_packets, 5)``.

        >>> Arrangement.from_array(np.arange(10).reshape(2, 5)).packets[1]
        (5, 6, 7, 8, 9)
        """
        array = check_int_array(
            array, "array", width=HAND_SIZE, low=0, high=DECK_SIZE - 1, max_rows=DECK_SIZE,
            what="card ids", error=ArrangementError,
        )  # fmt: skip
        if array.ndim != 2:
            raise ArrangementError(
                f"array: an arrangement array has shape (n, 5), got {array.shape}", argument="array"
            )
        return cls(tuple(tuple(row) for row in array))

    @property
    def n_packets(self) -> int:
        """Number of packets."""
        return len(self.packets)

    @property
    def cards(self) -> tuple[int, ...]:
        """All cards, sorted."""
        return tuple(sorted(c for packet in self.packets for c in packet))

    def array(self) -> np.ndarray:
        """The cards as an ``(n_packets, 5)`` int8 array."""
        return np.array(self.packets, dtype=np.int8)

    def strengths(self, rules: Rules | None = None) -> np.ndarray:
        """Strength of each packet, position order.

        >>> Arrangement.parse("As Ks Qs Js Ts").strengths().tolist()
        [839]
        """
        return strength(self.array(), rules).astype(np.int32)

    def check(self, holding: Iterable[int] | None = None, rules: Rules | None = None) -> None:
        """Check the packet count against ``rules`` and the cards against ``holding``.

        >>> a = Arrangement.parse("7c 8c 9c Tc Jc")
        >>> a.check(holding=range(5), rules=Rules(position_points=(7,)))
        Traceback (most recent call last):
            ...
        solver.errors.ArrangementError: the arrangement uses 9♣ 10♣ J♣, not in the holding; it leaves out 7♦ 7♥ 7♠
        """
        rules = rules_or_default(rules)
        if self.n_packets != rules.n_packets:
            raise ArrangementError(
                f"the arrangement has {self.n_packets} packets; the rules need {rules.n_packets}"
            )
        if holding is None:
            return
        held = set(card_ids(holding, who="holding"))
        used = set(self.cards)
        extra = sorted(used - held)
        missing = sorted(held - used)
        if extra or missing:
            parts = []
            if extra:
                parts.append(f"uses {format_cards(extra)}, not in the holding")
            if missing:
                parts.append(f"leaves out {format_cards(missing)}")
            raise ArrangementError("the arrangement " + "; it ".join(parts))

    def format(self, *, ascii: bool = False, lang: Lang | str = Lang.EN) -> str:
        """Packets separated by ``" | "``.

        >>> Arrangement(((0, 1, 2, 3, 4),)).format(ascii=True)
        '7c 7d 7h 7s 8c'
        """
        return f" {PACKET_SEPARATOR} ".join(
            format_cards(packet, ascii=ascii, lang=lang) for packet in self.packets
        )


def points_against(
    mine: np.ndarray, theirs: np.ndarray, rules: Rules | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Points of each side for strength profiles, vectorized with broadcasting.

    Parameters
    ----------
    mine, theirs
        Packet strengths in position order, shapes ``(..., n_packets)`` that
        broadcast together (e.g. one arrangement ``(5,)`` against many ``(M, 5)``):
        integers from 0 to the rules' number of strengths less one, at most
        :data:`MAX_PROFILES` pairs in all.
    rules
        The position points.

    Returns
    -------
    (points_mine, points_theirs)
        Integer arrays of the broadcast leading shape.

    >>> mine = np.array([10, 20, 30, 40, 50])
    >>> theirs = np.array([[10, 20, 30, 40, 50], [0, 99, 0, 99, 0]])
    >>> [p.tolist() for p in points_against(mine, theirs)]
    [[0, 15], [0, 10]]
    >>> points_against(np.zeros(3), np.zeros(3))
    Traceback (most recent call last):
        ...
    solver.errors.ArrangementError: mine: strength profiles have 3 positions; the rules have 5
    """
    rules = rules_or_default(rules)
    # Both shapes first: a profile of the wrong length is the likelier mistake.
    mine, theirs = _shaped(mine, "mine", rules), _shaped(theirs, "theirs", rules)
    mine, theirs = check_profiles(mine, "mine", rules), check_profiles(theirs, "theirs", rules)
    try:
        pairs = math.prod(np.broadcast_shapes(mine.shape, theirs.shape)[:-1])
    except ValueError:
        raise ArrangementError(
            f"mine: shape {mine.shape} does not broadcast with theirs {theirs.shape}",
            argument="mine",
        ) from None
    if pairs > MAX_PROFILES:
        raise ArrangementError(
            f"mine: {pairs} pairs of profiles to score; at most {MAX_PROFILES} a call",
            argument="mine",
        )
    weights = np.asarray(rules.position_points, dtype=np.int64)
    return (mine > theirs) @ weights, (mine < theirs) @ weights


def _shaped(value: object, name: str, rules: Rules) -> np.ndarray:
    """``value`` as an array of shape ``(..., n_packets)``, of any dtype yet."""
    if value is None or isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be strength profiles (integers), got {value!r}")
    try:
        array = np.asarray(value)
    except ValueError:  # ragged lists
        raise ArrangementError(
            f"{name}: strength profiles must be a rectangular array", argument=name
        ) from None
    if array.shape[-1:] != (rules.n_packets,):
        raise ArrangementError(
            f"{name}: strength profiles have {array.shape[-1] if array.ndim else 0} positions; "
            f"the rules have {rules.n_packets}",
            argument=name,
        )
    return array


def check_profiles(value: object, name: str, rules: Rules) -> np.ndarray:
    """Strength profiles checked: integers of shape ``(..., n_packets)``, at most
    :data:`MAX_PROFILES` of them, each strength one of the rules' (0 up to their number).

    >>> check_profiles([[0, 839]], "profiles", Rules(position_points=(6, 7))).shape
    (1, 2)
    >>> check_profiles([0, 840], "profiles", Rules(position_points=(6, 7)))
    Traceback (most recent call last):
        ...
    solver.errors.ArrangementError: profiles: strengths must be in 0..839, got 840
    """
    array = _shaped(value, name, rules)
    return check_int_array(
        array,
        name,
        width=rules.n_packets,
        low=0,
        high=ranking(rules).n_strengths - 1,
        max_rows=MAX_PROFILES,
        what="strengths",
        error=ArrangementError,
    )


@dataclass(frozen=True)
class Score:
    """The result of one game, from the first player's side.

    Attributes
    ----------
    outcomes
        Outcome at each position.
    points
        ``(first player's points, second player's points)``.
    margin
        First player's points minus the second's.
    result
        Win, draw or loss for the first player.
    """

    outcomes: tuple[Outcome, ...]
    points: tuple[int, int]
    margin: int
    result: GameResult


def score(a: Arrangement, b: Arrangement, rules: Rules | None = None) -> Score:
    """Score arrangement ``a`` against ``b``.

    >>> a = Arrangement.parse("As Ks Qs Js Ts")
    >>> b = Arrangement.parse("Ah Kh Qh Jh Th")
    >>> score(a, b, Rules(position_points=(7,))).result.value
    'draw'
    >>> score(a, b)
    Traceback (most recent call last):
        ...
    solver.errors.ArrangementError: the arrangement has 1 packets; the rules need 5
    """
    for name, value in (("a", a), ("b", b)):
        if not isinstance(value, Arrangement):
            raise TypeError(f"{name} must be an Arrangement, got {value!r}")
    rules = rules_or_default(rules)
    a.check(rules=rules)
    b.check(rules=rules)
    mine, theirs = a.strengths(rules), b.strengths(rules)
    points_a, points_b = points_against(mine, theirs, rules)
    margin = int(points_a) - int(points_b)
    result = GameResult.WIN if margin > 0 else GameResult.LOSS if margin < 0 else GameResult.DRAW
    outcomes = tuple(Outcome(int(np.sign(x - y))) for x, y in zip(mine, theirs, strict=True))
    return Score(
        outcomes=outcomes, points=(int(points_a), int(points_b)), margin=margin, result=result
    )
