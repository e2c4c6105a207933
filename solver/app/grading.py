"""The grading use cases: ``grade`` an arrangement, ``house`` (the house rule's layout, graded),
and ``play`` one game against a computer player.

Every equilibrium comes from one :class:`~solver.book.source.EquilibriumSource`
per request, so the solution book answers ``house`` and ``play`` as it
answers ``grade``, and both seats of a deal cost one solve.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from solver.analysis.grade import Grade, grade
from solver.app.answers import Answer, answer_of
from solver.app.report import Output, score_report
from solver.app.report_book import source_report
from solver.app.report_grade import GradeContext, grade_report
from solver.app.requests import GradeRequest, Holdings, PlayRequest
from solver.app.solving import book_notices, source_of
from solver.app.text import say
from solver.book.source import EquilibriumSource
from solver.equilibria.equilibrium import Payoff
from solver.game.arrangement import Arrangement, score
from solver.game.rules import Rules
from solver.models.house import house_arrangement, house_rule
from solver.play.players import describe_player, player
from solver.play.variation import VARIED_PLAYERS, varied
from solver.util.checks import check_int
from solver.util.language import Lang

__all__ = ["from_book", "grade_arrangement", "house", "play", "with_source"]


def from_book(source: EquilibriumSource, result: Grade) -> bool:
    """Whether every equilibrium ``result`` was graded against came from the book."""
    payoffs = [Payoff.MARGIN] + ([Payoff.GAME_RESULT] if result.win_equilibrium is not None else [])
    mine, theirs, rules = result.arrangement.cards, result.opponent_holding, result.rules
    return all(source.from_book(mine, theirs, rules, payoff) for payoff in payoffs)


def with_source(
    source: EquilibriumSource, result: Grade, report: Callable[[Lang | str], Output]
) -> Callable[[Lang | str], Output]:
    """``report``, saying where the grade's equilibria came from."""
    known = from_book(source, result)
    return lambda lang: source_report(report(lang), source.path, known, source.stores, lang)


def _graded(
    arrangement: Arrangement,
    holdings: Holdings,
    rules: Rules,
    payoff: str,
    source: EquilibriumSource,
) -> tuple[Grade, Callable[[Lang | str], Output]]:
    result = grade(
        arrangement, holdings.theirs, rules, payoff, holding=holdings.mine, solver=source
    )
    context = GradeContext(rules, holdings.mine, holdings.theirs, holdings.seed, holdings.dealt)
    return result, lambda lang: grade_report(result, context, lang)


def grade_arrangement(request: GradeRequest) -> Answer:
    """The grade of ``request.arrangement``: its equilibrium loss, punishment and best fix."""
    rules = request.rules
    arrangement = Arrangement.parse(request.arrangement, n_packets=rules.n_packets)
    source = source_of(request.book, time_limit=request.time_limit)
    result, report = _graded(arrangement, request.holdings, rules, request.payoff, source)
    return answer_of(with_source(source, result, report), book_notices(source), kind="grade")


def house(request: GradeRequest) -> Answer:
    """The house rule's arrangement of ``holdings.mine``, graded (``request.arrangement`` unused).

    The report starts with the rule in words.
    """
    holdings, rules = request.holdings, request.rules
    rule = house_rule(rules.n_packets)
    arrangement = house_arrangement(holdings.mine, rules, rule)
    source = source_of(request.book, time_limit=request.time_limit)
    result, report = _graded(arrangement, holdings, rules, "margin", source)
    words = rule.describe()

    def ruled(lang: Lang | str) -> Output:
        graded = report(lang)
        return Output(
            f"{say('house_rule', lang)}: {rule.describe(lang)}\n{graded.text}",
            {"house_rule": words, **graded.payload},
        )

    return answer_of(with_source(source, result, ruled), book_notices(source), kind="house")


def play(request: PlayRequest) -> Answer:
    """The computer's arrangement against yours, and the score.

    The computer arranges the opponent's holding without seeing yours, with
    the generator ``quintet play`` uses (seeded by the deal's seed, and by the
    request's ``variation`` when given: then the greedy and house players vary
    their layout, :func:`~solver.play.variation.varied`); the equilibrium
    players look the deal up in the book (and store what they solve).
    """
    holdings, rules = request.holdings, request.rules
    source = source_of(request.book, time_limit=request.time_limit)
    computer = player(request.opponent, solver=source)
    mine = Arrangement.parse(request.arrangement, n_packets=rules.n_packets)
    mine.check(holdings.mine, rules)
    variation = request.variation
    if variation is not None:
        check_int(variation, "variation", low=0)
    rng = np.random.default_rng([holdings.seed, 2] + ([] if variation is None else [variation]))
    theirs = computer.arrange(holdings.theirs, holdings.mine, rules, rng)
    if variation is not None and computer.name in VARIED_PLAYERS:
        theirs = varied(theirs, rng, rules)
    outcome = score(mine, theirs, rules)

    def report(lang: Lang | str) -> Output:
        scored = score_report(mine, theirs, outcome, rules, lang)
        payload = {
            "opponent": computer.name,
            "description": {code: describe_player(computer.name, code) for code in ("en", "ru")},
            "seed": holdings.seed,
            "variation": variation,
            "score": scored.payload,
        }
        return Output(scored.text, payload)

    return answer_of(report, book_notices(source), kind="play")
