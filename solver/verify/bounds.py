"""That no arrangement does better than a certificate claims: an exact best-response search.

A certificate claims that no arrangement of player 1 earns more than
``upper`` against player 2's strategy, and none of player 2 holds player 1
below ``lower``.  Each claim is checked by :func:`solver.verify.search.search_bound`,
which scores every maximal strength profile of the holding in every order (the
module explains why no other arrangement can do better), for both payoffs and
every number of positions, in integers: there is no floating point in any decision.  Each
bound ends in one of three ways:

* *checked*: the search proved that no arrangement does better (the report
  says how much it searched, and how long it took);
* *failed*: it found an arrangement doing better; the arrangement is checked
  legal and scored again in exact fractions (:meth:`Game.against`), and
  :class:`VerificationError` names it;
* *not checked*: the time ran out first (``time_limit``, by default
  :data:`TIME_LIMIT` seconds for both bounds; the first may take half, the
  second the rest, and a symmetric certificate, whose two bounds are the same
  question, searches once with all of it).  A bound not proven is unknown,
  never false.

>>> check_bounds(Report(), Game((7,), False, False, True, "win"), {}, {}, {}, time_limit=-1)
Traceback (most recent call last):
    ...
ValueError: time_limit -1 is not a positive number of seconds
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solver.errors import VerificationError
from solver.verify.checks import Game, Packets, Report, Strategy
from solver.verify.search import Search, search_bound

__all__ = ["TIME_LIMIT", "check_bounds"]

TIME_LIMIT = 600.0
"""Seconds for both bounds when no ``time_limit`` is given; a bound not proven by then is
reported as not checked (unknown), never as a failure."""
_RANKS, _SUITS = "789TJQKA", "cdhs"


@dataclass(frozen=True)
class _Side:
    """One bound: whose arrangements, against which strategy, the claim (player 1's payoff)
    and the same claim in the player's own terms (what the search maximizes)."""

    player: str
    name: str
    opponent: Strategy
    claim: Fraction
    own: Fraction

    def question(self, holdings: dict[str, frozenset[int]]) -> tuple[Any, ...]:
        return (holdings[self.player], tuple(self.opponent), self.own)


def check_bounds(
    report: Report,
    game: Game,
    holdings: dict[str, frozenset[int]],
    strategies: dict[str, Strategy],
    claims: dict[str, Fraction],
    *,
    time_limit: float | None = None,
    progress: Callable[[str], None] | None = None,
) -> None:
    """Check that neither player can do better than ``claims`` say (see the module).

    ``time_limit``: seconds for both bounds (default :data:`TIME_LIMIT`); ``progress``
    receives a line before each bound and then at most every two seconds.
    """
    budget = TIME_LIMIT if time_limit is None else time_limit
    if not budget > 0:
        raise ValueError(f"time_limit {budget:g} is not a positive number of seconds")
    started = time.monotonic()
    upper, lower = claims["upper"], claims["lower"]
    # Player 2 maximizes its own payoff: one minus player 1's win, or minus the margin.
    sides = (
        _Side("player1", "upper", strategies["player2"], upper, upper),
        _Side("player2", "lower", strategies["player1"], lower, _own(game, lower)),
    )
    # A symmetric certificate asks the same question twice: the one search may take it all.
    symmetric = sides[0].question(holdings) == sides[1].question(holdings)
    asked: dict[tuple[Any, ...], tuple[str, str]] = {}
    for side, share in zip(sides, (1.0 if symmetric else 0.5, 1.0), strict=True):
        question = side.question(holdings)
        if question in asked:
            _repeated(report, side, *asked[question])
            continue
        result = search_bound(
            game.points,
            game.payoff,
            holdings[side.player],
            side.opponent,
            side.own,
            key=game.key,
            deadline=started + budget * share,
            progress=progress,
            label=f"{side.name}: {side.player}'s best response",
        )
        asked[question] = (side.name, result.status)
        _settle(report, game, side, holdings[side.player], result, budget)


def _own(game: Game, claim: Fraction) -> Fraction:
    return 1 - claim if game.payoff == "win" else -claim


def _repeated(report: Report, side: _Side, first: str, status: str) -> None:
    """The second bound of a symmetric certificate: the first's answer."""
    if status == "checked":
        report.checked.append(
            f"{side.name}: no arrangement of {side.player} does better than {side.claim}: the "
            f"same search as {first}'s (the same cards against the same strategy and claim)"
        )
    else:
        report.unverified.append(
            f"{side.name}: that no arrangement of {side.player} does better than claimed: the "
            f"same question as {first}'s, which the search did not finish in time; not a "
            "failure: unknown"
        )


def _settle(
    report: Report,
    game: Game,
    side: _Side,
    holding: frozenset[int],
    result: Search,
    budget: float,
) -> None:
    """Report what the search established about one bound (a refutation raises)."""
    searched = (
        f"{result.profiles} maximal strength profiles, {result.arrangements} arrangements "
        f"scored, {result.seconds:.1f} s"
    )
    if result.status == "unfinished":
        report.unverified.append(
            f"{side.name}: that no arrangement of {side.player} does better than claimed: the "
            f"search reached its time limit ({budget:g} s for both bounds) before finishing "
            f"({searched}); not a failure: unknown"
        )
    elif result.status == "refuted" and result.witness is not None:
        _refuted(report, game, side, holding, result.witness)
    else:
        report.checked.append(
            f"{side.name}: no arrangement of {side.player} does better than {side.claim} "
            f"against the other's strategy ({game.payoff} payoff): proven by scoring "
            f"every maximal strength profile in every order, in integers ({searched})"
        )


def _refuted(
    report: Report, game: Game, side: _Side, holding: frozenset[int], witness: Packets
) -> None:
    """The search's witness, checked legal and scored again in exact fractions: the claim is
    false if it beats it."""
    player, name, opponent, claim = side.player, side.name, side.opponent, side.claim
    cards = [c for packet in witness for c in packet]
    legal = len(witness) == len(game.points) and all(len(p) == 5 for p in witness)
    if not (legal and len(set(cards)) == len(cards) and set(cards) == holding):
        report.unverified.append(f"{name}: the search's answer for {player} is not an arrangement")
        return
    exact = game.against(witness, opponent, first=player == "player1")  # player 1's payoff
    codes = " / ".join(" ".join(_code(c) for c in packet) for packet in witness)
    if (player == "player1" and exact > claim) or (player == "player2" and exact < claim):
        raise VerificationError(
            f"{name}: {player}'s arrangement {codes} gives player 1 {exact} "
            f"(~{float(exact):.12g}) against the other's strategy, beyond the claimed {claim}"
        )
    # The search's integers and the exact fractions disagree: a bug, not a proof either way.
    report.unverified.append(
        f"{name}: the search's arrangement {codes} of {player}, scored again exactly, gives "
        f"player 1 {exact}, within the claim {claim}: the bound is unknown"
    )


def _code(card: int) -> str:
    return _RANKS[card // 4] + _SUITS[card % 4]
