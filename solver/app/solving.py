"""The equilibrium use cases: ``equilibrium`` and equilibrium play (``suggest``'s ``equilibrium``).

Each takes a request (:mod:`solver.app.requests`) and returns an
:class:`~solver.app.answers.Answer`; options that do not apply come back as
warnings.  Equilibria come from one
:class:`~solver.book.source.EquilibriumSource` per request (the book, then a
solve).  Best responses to an opponent model are :mod:`solver.app.suggesting`,
which imports this module only for equilibrium play.

>>> from solver.app.requests import EquilibriumRequest, holdings
>>> from solver.game.rules import Rules
>>> request = EquilibriumRequest(holdings(None, None, 1, Rules()), Rules(), book=BookChoice(enabled=False))
>>> answer = equilibrium(request)
>>> answer.document["gap"] <= 1e-9, answer.document["canonical"]
(True, True)
>>> equilibrium(EquilibriumRequest(request.holdings, Rules(), payoff="points"))
Traceback (most recent call last):
    ...
solver.errors.SolverError: payoff 'points' is not margin or win
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from solver.app.answers import Answer, Notice, answer_of
from solver.app.report import Output
from solver.app.report_book import source_report
from solver.app.report_equilibrium import equilibrium_report
from solver.app.report_simple import simple_lines, simple_payload
from solver.app.report_suggest import suggest_report
from solver.app.requests import BookChoice, EquilibriumRequest, SuggestRequest
from solver.app.suggesting import suggest_context
from solver.book.source import EquilibriumSource
from solver.equilibria.certificate import certificate
from solver.equilibria.equilibrium import EquilibriumResult, IterationRecord
from solver.equilibria.nfg import nfg_text
from solver.equilibria.simple_strategy import SimpleStrategy, simple_strategy
from solver.models.mixture import write_mixture
from solver.play.players import equilibrium_mixture, equilibrium_response
from solver.util.files import atomic_write_text, check_output_path
from solver.util.json_text import to_json
from solver.util.language import Lang

__all__ = ["book_notices", "equilibrium", "equilibrium_play", "source_of"]


def source_of(
    book: BookChoice,
    *,
    tolerance: float | None = None,
    time_limit: float | None = None,
    ranges: bool = False,
) -> EquilibriumSource:
    """The equilibrium source of a request's book choice and limits (``ranges``: for a report)."""
    limits: dict[str, Any] = {"time_limit": time_limit, "ranges": ranges}
    if tolerance is not None:
        limits["tolerance"] = tolerance
    return EquilibriumSource(book.path, use_book=book.enabled, **limits)


def book_notices(source: EquilibriumSource) -> tuple[Notice, ...]:
    """The source's warnings about its book (unusable, read-only, damaged rows) as notices."""
    return tuple(Notice(message) for message in source.warnings)


def equilibrium_play(
    request: SuggestRequest, rng: np.random.Generator, notices: tuple[Notice, ...] = ()
) -> Answer:
    """``suggest`` with ``against="equilibrium"``: an arrangement sampled from the equilibrium.

    ``notices``: the request's warnings so far (the options equilibrium play ignores).
    """
    holdings, rules = request.holdings, request.rules
    payoff = request.payoff or "margin"
    source = source_of(request.book, time_limit=request.time_limit)
    result = source(holdings.mine, holdings.theirs, rules, payoff)
    played = equilibrium_response(
        holdings.mine, holdings.theirs, rules, payoff, rng=rng, equilibrium=result
    )
    context = suggest_context(holdings, rules, f"equilibrium ({payoff} payoff)")
    from_book = bool(source.from_book(holdings.mine, holdings.theirs, rules, payoff))
    return answer_of(
        lambda lang: source_report(
            suggest_report([played], context, lang),
            source.path,
            from_book,
            source.stores,
            lang,
        ),
        notices + book_notices(source),
        kind="suggest",
    )


def equilibrium(
    request: EquilibriumRequest, on_record: Callable[[IterationRecord], None] | None = None
) -> Answer:
    """An exact equilibrium of the deal, with its certificate (``on_record``: each iteration).

    With ``request.out`` the row player's strategy is written as a mixture
    file, with ``request.certificate`` the certificate
    (:func:`solver.equilibria.certificate.certificate`), with ``request.nfg``
    the support game in Gambit's format (:func:`solver.equilibria.nfg.nfg_text`);
    every path is checked before the solve.  With ``request.max_support`` the report
    adds the best strategy found of at most that many arrangements and its certified
    exploitability (:func:`solver.equilibria.simple_strategy.simple_strategy`).
    """
    holdings, rules = request.holdings, request.rules
    for path in (request.out, request.certificate, request.nfg):
        if path is not None:
            check_output_path(path)  # before the solve, not after it
    source = source_of(
        request.book,
        tolerance=request.tolerance,
        time_limit=request.time_limit,
        ranges=request.ranges,
    )
    result: EquilibriumResult = source(
        holdings.mine, holdings.theirs, rules, request.payoff, on_record=on_record
    )
    from_book = bool(source.from_book(holdings.mine, holdings.theirs, rules, request.payoff))
    if request.out:
        write_mixture(equilibrium_mixture(result, holdings.theirs), request.out)
    document = None
    if request.certificate is not None or request.with_certificate:
        document = certificate(result, holdings.mine, holdings.theirs)
        if request.certificate is not None:
            atomic_write_text(request.certificate, to_json(document) + "\n")
    if request.nfg is not None:
        atomic_write_text(request.nfg, nfg_text(result))
    context = suggest_context(holdings, rules, "equilibrium")
    simple = _simple(request, result)

    def report(lang: Lang | str) -> Output:
        output = source_report(
            equilibrium_report(result, context, lang, limit=request.show, from_book=from_book),
            source.path,
            from_book,
            source.stores,
            lang,
        )
        if request.with_certificate:
            output.payload["certificate"] = document
        return output if simple is None else _with_simple(output, simple, lang)

    return answer_of(report, book_notices(source), kind="equilibrium")


def _simple(request: EquilibriumRequest, result: EquilibriumResult) -> SimpleStrategy | None:
    """The simple strategy the request asks for (``max_support``), from its equilibrium."""
    if request.max_support is None:
        return None
    holdings = request.holdings
    return simple_strategy(
        holdings.mine, holdings.theirs, request.rules, request.payoff, request.max_support,
        equilibrium=result,
    )  # fmt: skip


def _with_simple(output: Output, simple: SimpleStrategy, lang: Lang | str) -> Output:
    """The report with the simple strategy's lines (all its few arrangements) and its
    ``simple_strategy`` object."""
    lines = simple_lines(simple, lang, len(simple.strategy.arrangements))
    return replace(
        output,
        text="\n".join([output.text, *lines]),
        payload={**output.payload, "simple_strategy": simple_payload(simple)},
    )
