"""The checks of a certificate, in order; the first that fails is reported.

1. the document: format ``quintet-certificate/1``, the rules, the payoff;
2. both holdings: distinct card codes, five per position (equal in mirror mode);
3. both strategies: probabilities are fractions ``p/q``, positive, summing to
   exactly 1; every arrangement is legal for its player's holding;
4. both best responses are legal;
5. ``value`` is the strategy pair's exact payoff;
6. each best response's ``payoff`` is its exact payoff against the other's strategy;
7. ``lower <= value <= upper``, player 1's best response earns at most
   ``upper``, player 2's holds player 1 to at least ``lower``;
8. no arrangement of either player does better than claimed
   (:mod:`solver.verify.bounds`).

All payoffs are player 1's: margin in points, or win 1, draw 1/2, loss 0.

>>> verify_document({"format": "quintet-mixture/1"})
Traceback (most recent call last):
    ...
solver.errors.NotACertificateError: not a certificate: format is 'quintet-mixture/1', not 'quintet-certificate/1'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from solver.errors import NotACertificateError, VerificationError
from solver.verify.ranking import packet_key, parse_card

__all__ = [
    "FORMAT",
    "Game",
    "NotACertificateError",
    "Report",
    "VerificationError",
    "verify_document",
]

FORMAT = "quintet-certificate/1"
PLAYERS = ("player1", "player2")

Packets = tuple[tuple[int, ...], ...]
Strategy = list[tuple[Fraction, Packets]]


@dataclass
class Report:
    """What was checked (``checked``) and what could not be (``unverified``)."""

    checked: list[str] = field(default_factory=list)
    unverified: list[str] = field(default_factory=list)


@dataclass
class Game:
    """The game of a certificate: position points, ranking options, payoff."""

    points: tuple[int, ...]
    ace_low_straight: bool
    flush_beats_full_house: bool
    mirror: bool
    payoff: str
    _keys: dict[tuple[int, ...], tuple[int, ...]] = field(default_factory=dict)

    def key(self, packet: tuple[int, ...]) -> tuple[int, ...]:
        """The packet's comparison key (cached)."""
        found = self._keys.get(packet)
        if found is None:
            found = packet_key(packet, self.ace_low_straight, self.flush_beats_full_house)
            self._keys[packet] = found
        return found

    def margin(self, a: Packets, b: Packets) -> int:
        """Player 1's margin of arrangement ``a`` against ``b``."""
        total = 0
        for p, x, y in zip(self.points, a, b, strict=True):
            kx, ky = self.key(x), self.key(y)
            total += p if kx > ky else -p if kx < ky else 0
        return total

    def outcome(self, margin: int) -> Fraction:
        """Player 1's payoff of a margin."""
        if self.payoff == "margin":
            return Fraction(margin)
        return Fraction(1) if margin > 0 else Fraction(1, 2) if margin == 0 else Fraction(0)

    def against(self, a: Packets, strategy: Strategy, *, first: bool = True) -> Fraction:
        """Player 1's payoff when ``a`` (player 1's if ``first``) meets ``strategy``."""
        total = Fraction(0)
        for q, b in strategy:
            total += q * self.outcome(self.margin(a, b) if first else self.margin(b, a))
        return total


def _get(document: dict[str, Any], name: str, kind: type) -> Any:
    value = document.get(name)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise VerificationError(f"{name}: missing or not a {kind.__name__}")
    return value


def _game(document: dict[str, Any]) -> Game:
    rules = _get(document, "rules", dict)
    points = rules.get("position_points")
    if not (
        isinstance(points, list)
        and 1 <= len(points) <= 5
        and all(isinstance(p, int) and not isinstance(p, bool) and p > 0 for p in points)
    ):
        raise VerificationError("rules.position_points: not one to five positive integers")
    flags = {}
    for name in ("ace_low_straight", "flush_beats_full_house"):
        if not isinstance(rules.get(name), bool):
            raise VerificationError(f"rules.{name}: not true or false")
        flags[name] = rules[name]
    mode = rules.get("discard_mode")
    if mode not in ("mirror", "independent"):
        raise VerificationError("rules.discard_mode: not mirror or independent")
    payoff = document.get("payoff")
    if payoff not in ("margin", "win"):
        raise VerificationError("payoff: not margin or win")
    return Game(tuple(points), mirror=mode == "mirror", payoff=payoff, **flags)


def _cards(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise VerificationError(f"{where}: not a list of card codes")
    try:
        cards = tuple(parse_card(code) for code in value)
    except ValueError as error:
        raise VerificationError(f"{where}: {error}") from None
    if len(set(cards)) != len(cards):
        raise VerificationError(f"{where}: a card appears twice")
    return cards


def _holdings(document: dict[str, Any], game: Game) -> dict[str, frozenset[int]]:
    found = _get(document, "holdings", dict)
    holdings = {}
    for player in PLAYERS:
        cards = _cards(found.get(player), f"holdings.{player}")
        if len(cards) != 5 * len(game.points):
            raise VerificationError(
                f"holdings.{player}: {len(cards)} cards, not {5 * len(game.points)}"
            )
        holdings[player] = frozenset(cards)
    if game.mirror and holdings["player1"] != holdings["player2"]:
        raise VerificationError("holdings: in mirror mode both players hold the same cards")
    return holdings


def arrangement(value: Any, holding: frozenset[int], n: int, where: str) -> Packets:
    """The packets of an arrangement, checked legal for ``holding``."""
    if not isinstance(value, list) or len(value) != n:
        raise VerificationError(f"{where}: not a list of {n} packets")
    packets = tuple(tuple(sorted(_cards(p, f"{where}[{i}]"))) for i, p in enumerate(value))
    for i, packet in enumerate(packets):
        if len(packet) != 5:
            raise VerificationError(f"{where}[{i}]: {len(packet)} cards, not 5")
    used = [c for packet in packets for c in packet]
    if len(set(used)) != len(used) or set(used) != holding:
        raise VerificationError(f"{where}: the packets do not use exactly the player's holding")
    return packets


def fraction(value: Any, where: str) -> Fraction:
    """An exact fraction written ``"p/q"`` (or an integer ``"p"``)."""
    if not isinstance(value, str):
        raise VerificationError(f"{where}: not a fraction string 'p/q'")
    try:
        return Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise VerificationError(f"{where}: {value!r} is not a fraction 'p/q'") from None


def _strategy(value: Any, holding: frozenset[int], game: Game, where: str) -> Strategy:
    if not isinstance(value, list) or not value:
        raise VerificationError(f"{where}: not a non-empty list")
    strategy: Strategy = []
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            raise VerificationError(f"{where}[{i}]: not an object")
        q = fraction(item.get("probability"), f"{where}[{i}].probability")
        if q <= 0:
            raise VerificationError(f"{where}[{i}].probability: {q} is not positive")
        packets = arrangement(
            item.get("arrangement"), holding, len(game.points), f"{where}[{i}].arrangement"
        )
        strategy.append((q, packets))
    total = sum((q for q, _ in strategy), Fraction(0))
    if total != 1:
        raise VerificationError(f"{where}: the probabilities sum to {total}, not exactly 1")
    return strategy


def _exact(report: Report, name: str, stated: Fraction, actual: Fraction) -> None:
    if stated != actual:
        raise VerificationError(
            f"{name}: the certificate says {stated}, the exact payoff is {actual}"
        )
    report.checked.append(f"{name} = {actual} (~{float(actual):.12g}), exactly")


def verify_document(
    document: Any,
    report: Report | None = None,
    *,
    time_limit: float | None = None,
    progress: Callable[[str], None] | None = None,
) -> Report:
    """Check the certificate ``document`` (parsed JSON); the report of what was checked.

    Raises :class:`NotACertificateError` when it is not one, :class:`VerificationError` at
    the first check that fails.  ``time_limit`` and ``progress`` are the bound search's
    (:func:`solver.verify.bounds.check_bounds`).
    """
    from solver.verify.bounds import check_bounds

    if not isinstance(document, dict) or "format" not in document:
        raise NotACertificateError("not a certificate: no format field")
    if document["format"] != FORMAT:
        raise NotACertificateError(
            f"not a certificate: format is {document['format']!r}, not {FORMAT!r}"
        )
    report = report or Report()
    game = _game(document)
    holdings = _holdings(document, game)
    report.checked.append(f"rules {list(game.points)}, payoff {game.payoff}, holdings legal")
    found = _get(document, "strategies", dict)
    strategies = {p: _strategy(found.get(p), holdings[p], game, f"strategies.{p}") for p in PLAYERS}
    report.checked.append(
        "strategies: every arrangement legal, probabilities positive and summing to exactly 1 "
        f"({len(strategies['player1'])} and {len(strategies['player2'])} arrangements)"
    )
    best = _best_responses(document, holdings, game)
    value = sum(
        (q * game.against(a, strategies["player2"]) for q, a in strategies["player1"]), Fraction(0)
    )
    _exact(report, "value", fraction(document.get("value"), "value"), value)
    claims = {name: fraction(document.get(name), name) for name in ("lower", "upper")}
    _claims(report, game, strategies, best, value, claims)
    check_bounds(
        report, game, holdings, strategies, claims, time_limit=time_limit, progress=progress
    )
    return report


def _best_responses(
    document: dict[str, Any], holdings: dict[str, frozenset[int]], game: Game
) -> dict[str, tuple[Packets, Fraction]]:
    found = _get(document, "best_responses", dict)
    best = {}
    for player in PLAYERS:
        item = found.get(player)
        where = f"best_responses.{player}"
        if not isinstance(item, dict):
            raise VerificationError(f"{where}: not an object")
        packets = arrangement(
            item.get("arrangement"), holdings[player], len(game.points), f"{where}.arrangement"
        )
        best[player] = (packets, fraction(item.get("payoff"), f"{where}.payoff"))
    return best


def _claims(
    report: Report,
    game: Game,
    strategies: dict[str, Strategy],
    best: dict[str, tuple[Packets, Fraction]],
    value: Fraction,
    claims: dict[str, Fraction],
) -> None:
    first, stated_first = best["player1"]
    _exact(
        report,
        "best_responses.player1.payoff",
        stated_first,
        game.against(first, strategies["player2"]),
    )
    second, stated_second = best["player2"]
    _exact(
        report,
        "best_responses.player2.payoff",
        stated_second,
        game.against(second, strategies["player1"], first=False),
    )
    lower, upper = claims["lower"], claims["upper"]
    if not lower <= value <= upper:
        raise VerificationError(f"lower, upper: {lower} <= value {value} <= {upper} does not hold")
    if stated_first > upper:
        raise VerificationError(
            f"upper: {upper} is below player 1's best response's {stated_first}"
        )
    if stated_second < lower:
        raise VerificationError(
            f"lower: {lower} is above player 2's best response's {stated_second}"
        )
    report.checked.append(
        f"lower {lower} <= value <= upper {upper}; gap {float(upper - lower):.3g}, exactly "
        f"{upper - lower}"
    )


def by_position(strategy: Strategy, game: Game, position: int) -> Sequence[tuple[Fraction, Any]]:
    """``(probability, key)`` of the packets a strategy plays at ``position``."""
    return [(q, game.key(packets[position])) for q, packets in strategy]
