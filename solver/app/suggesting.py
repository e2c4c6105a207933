"""The ``suggest`` use case: the best response to an opponent model, or equilibrium play.

It takes a request (:mod:`solver.app.requests`) and returns an
:class:`~solver.app.answers.Answer`; conflicting options are refused with a
:class:`~solver.errors.SolverError` naming the field, options that do not
apply come back as warnings.  Equilibrium play is :mod:`solver.app.solving`'s,
imported only when asked for: a best response against a model starts
without the book and the double oracle.

>>> from solver.app.requests import SuggestRequest, holdings
>>> from solver.game.rules import Rules
>>> request = SuggestRequest(holdings(None, None, 1, Rules()), Rules(), time_limit=5)
>>> answer = suggest(request)
>>> answer.document["status"], [w.message for w in answer.warnings]
('optimal', ['the frontier engine is exhaustive and ignores time_limit'])
>>> suggest(SuggestRequest(request.holdings, Rules(), against="greedy", known="x"))
Traceback (most recent call last):
    ...
solver.errors.SolverError: known gives the arrangement of against="known", not greedy
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from solver.app.answers import Answer, Notice, answer_of
from solver.app.limits import SAMPLED_TOP_TIME_LIMIT, TOP_TIME_LIMIT
from solver.app.report_suggest import SuggestContext, suggest_report
from solver.app.requests import Holdings, SuggestRequest
from solver.errors import SolverError
from solver.game.rules import Rules
from solver.models.opponents import Objective, Opponent
from solver.play.registry import opponent_model
from solver.response.best_response import DEFAULT_SAMPLES, top_responses
from solver.response.frontier_response import frontier_best_response
from solver.response.frontier_top import TopProgress, frontier_top_responses
from solver.response.results import STOPPED, BestResponse

__all__ = ["sampled_top_limit", "suggest", "suggest_context", "top_time_limit"]


def suggest_context(holdings: Holdings, rules: Rules, against: str) -> SuggestContext:
    """What the user asked, for the report."""
    return SuggestContext(
        rules=rules,
        mine=holdings.mine,
        theirs=holdings.theirs,
        seed=holdings.seed,
        dealt=holdings.dealt,
        against=against,
    )


def _ignored(fields: list[str], why: str) -> tuple[Notice, ...]:
    return (Notice(f"{why} {', '.join(fields)}", tuple(fields)),) if fields else ()


def _equilibrium_play_checks(request: SuggestRequest) -> tuple[Notice, ...]:
    """Refuse what equilibrium play cannot take; the options it ignores."""
    if request.top > 1 or request.fixed:
        raise SolverError(
            'against="equilibrium" takes no top or fixed',
            argument="against",
            mentions=("top", "fixed"),
        )
    if request.objective is not None:
        raise SolverError(
            'objective is not for against="equilibrium", which plays the payoff game',
            argument="objective",
            mentions=("payoff",),
        )
    given = {"samples": request.samples, "workers": request.workers}
    ignored = [name for name, value in given.items() if value]
    if request.engine != "auto":
        ignored.append("engine")
    return _ignored(ignored, 'against="equilibrium" ignores')


def _engine(request: SuggestRequest, against: str) -> tuple[str, tuple[Notice, ...]]:
    """The engine to use (``auto`` is the frontier, with CP-SAT below it for ``top``)."""
    if request.payoff is not None:
        raise SolverError(
            'payoff needs against="equilibrium" (otherwise choose an objective)', argument="payoff"
        )
    engine = request.engine
    if engine == "auto":
        engine = "frontier"
    if engine not in ("cpsat", "frontier"):
        raise SolverError(f"engine {engine!r} is not auto, cpsat or frontier", argument="engine")
    notices: tuple[Notice, ...] = ()
    if engine == "frontier" and request.top == 1:
        given = {"time_limit": request.time_limit, "workers": request.workers}
        notices = _ignored(
            [name for name, value in given.items() if value is not None],
            "the frontier engine is exhaustive and ignores",
        )
    objective = request.objective or "margin"
    if request.samples is not None and (objective in ("points", "margin") or against != "random"):
        notices += (
            Notice(
                "samples applies only to the win or game objective against a random opponent",
                ("samples",),
            ),
        )
    return engine, notices


def sampled_top_limit(
    request: SuggestRequest, objective: Objective, against: str
) -> tuple[float | None, tuple[Notice, ...]]:
    """The time limit of a CP-SAT search, and a warning when it is a default.

    Runners-up of the win or game objective against a random opponent are
    each a CP-SAT solve over every sampled arrangement: minutes, not seconds.
    Without a ``time_limit`` they get :data:`~solver.app.limits.SAMPLED_TOP_TIME_LIMIT`.
    """
    sampled = objective in (Objective.WIN_PROBABILITY, Objective.GAME_RESULT)
    if request.time_limit is not None or request.top <= 1 or not sampled or against != "random":
        return request.time_limit, ()
    limit = SAMPLED_TOP_TIME_LIMIT
    message = (
        f"top {request.top} with the {objective.value} objective against a random opponent "
        f"can run for minutes: time_limit {limit:g} s is used (give time_limit to change it)"
    )
    return limit, (Notice(message, ("top", "time_limit")),)


def top_time_limit(request: SuggestRequest) -> float | None:
    """The time limit of a search for runners-up: the one given, else :data:`TOP_TIME_LIMIT`.

    A single best arrangement (``top`` 1) has no default limit: the frontier is exhaustive
    and takes seconds.
    """
    if request.time_limit is not None or request.top <= 1:
        return request.time_limit
    return TOP_TIME_LIMIT


def _runners_up(
    request: SuggestRequest,
    opponent: Opponent,
    objective: Objective,
    common: dict[str, Any],
    on_progress: Callable[[TopProgress], None] | None,
) -> tuple[list[BestResponse], tuple[Notice, ...]]:
    """The ``top`` best on the frontier engine, and a warning when a Ctrl-C cut them short."""
    results = frontier_top_responses(
        request.holdings.mine,
        opponent,
        objective,
        k=request.top,
        time_limit=top_time_limit(request),
        workers=request.workers or 2,
        on_progress=on_progress,
        **common,
    )
    if results[-1].note != STOPPED:
        return results, ()
    return results, (Notice("interrupted: the last arrangement is the best found, not proven"),)


def suggest(
    request: SuggestRequest, on_progress: Callable[[TopProgress], None] | None = None
) -> Answer:
    """The best arrangement against the model ``request.against``, or equilibrium play.

    ``on_progress`` sees the progress of a search for runners-up (``top`` above 1 on the
    frontier engine): first once the frontier is valued (the estimate), then after each
    CP-SAT model solved and each arrangement settled.  A Ctrl-C during that search keeps
    what was found, the last one marked not proven, with an ``interrupted`` warning.
    """
    holdings, rules = request.holdings, request.rules
    rng = np.random.default_rng([holdings.seed, 1])
    against = request.against or ("known" if request.known is not None else "random")
    if request.known is not None and against != "known":
        raise SolverError(
            f'known gives the arrangement of against="known", not {against}', argument="known"
        )
    if against == "equilibrium":
        notices = _equilibrium_play_checks(request)
        # Imported here: equilibrium play takes the book and the double oracle, which a best
        # response against a model never needs (they are a third of its start-up).
        from solver.app.solving import equilibrium_play

        return equilibrium_play(request, rng, notices)
    engine, notices = _engine(request, against)
    opponent, description = opponent_model(against, holdings.theirs, request.known, rules)
    objective = Objective(request.objective or "margin")
    common: dict[str, Any] = {
        "fixed": dict(request.fixed),
        "samples": request.samples or DEFAULT_SAMPLES,
        "rng": rng,
    }
    if engine == "frontier" and request.top == 1:
        results = [frontier_best_response(holdings.mine, opponent, objective, **common)]
    elif engine == "frontier":
        results, stopped = _runners_up(request, opponent, objective, common, on_progress)
        notices += stopped
    else:
        time_limit, cost = sampled_top_limit(request, objective, against)
        notices += cost
        results = top_responses(
            holdings.mine,
            opponent,
            objective,
            k=request.top,
            time_limit=time_limit if time_limit is not None else top_time_limit(request),
            workers=request.workers or 2,
            **common,
        )
    context = suggest_context(holdings, rules, description)
    return answer_of(lambda lang: suggest_report(results, context, lang), notices, kind="suggest")
