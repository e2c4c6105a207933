"""The JSON API: the command line's documents over HTTP.

Every endpoint returns the document ``quintet COMMAND --json`` prints for
the same input (the same report functions make both):

=====================  ===============================================
``POST /api/eval``     ``quintet eval``: one packet's combination and strength
``POST /api/deal``     ``quintet deal``: a seeded deal
``POST /api/score``    ``quintet score``: two arrangements compared
``POST /api/suggest``  ``quintet suggest`` (runs as a job, waits for it)
``POST /api/equilibrium``  ``quintet equilibrium`` (runs as a job, waits)
``POST /api/grade``    ``quintet grade``: your arrangement graded (runs as a job, waits)
``POST /api/play``     the computer's arrangement against yours, and the score
``POST /api/jobs/{kind}``  start a suggest, equilibrium, grade or play job (202); analyze:
                       :mod:`solver.web.analysis_api`
``GET /api/jobs/{id}``  a job's state, progress and document
``DELETE /api/jobs/{id}``  cancel a job
``POST /api/holdings`` the page's helper: both holdings, dealt or entered
``GET /api/players``   the computer players (titles, descriptions) and the verdict bands
=====================  ===============================================

Bad input is answered 422 (the request's shape) or 400 (the library's
:class:`~solver.errors.QuintetError`, with its one-line message).  The
request bodies accept exactly what the OpenAPI document calls valid
(:mod:`solver.web.fields`: strict types, ``7.0`` an integer, exact bounds).  A server
with :data:`~solver.web.jobs.MAX_PENDING` unfinished jobs answers new ones
429 with a ``Retry-After``; a server shutting down answers 503 (its waiting
clients too).  Every response and its JSON shape is in the OpenAPI document
(:mod:`solver.web.responses`).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Request, status
from fastapi.responses import JSONResponse
from pydantic import Field

from solver.app.catalog import catalog
from solver.app.limits import MAX_SAMPLES, MAX_SEED, MAX_TOP, MAX_WORKERS
from solver.app.report import deal_report, display_order, hand_report, score_report
from solver.app.requests import (
    EquilibriumRequest,
    GradeRequest,
    Holdings,
    PlayRequest,
    SuggestRequest,
    fixed_from_text,
    fresh_seed,
    holdings,
)
from solver.equilibria.equilibrium import DEFAULT_TOLERANCE, Payoff
from solver.equilibria.simple_strategy import MAX_K
from solver.game.arrangement import Arrangement, score
from solver.game.cards import HAND_SIZE, parse_cards
from solver.game.deal import deal
from solver.game.payloads import cards_payload, rules_payload
from solver.game.rules import DiscardMode, Rules
from solver.models.opponents import Objective
from solver.play.players import PLAYER_NAMES
from solver.play.registry import OPPONENTS
from solver.web.fields import REAL, WHOLE, Body, Seconds
from solver.web.jobs import STOPPING, Job, JobManager, JobState
from solver.web.responses import JOB_ID, JOB_START, JOB_WAIT
from solver.web.speech import page_error, request_language

__all__ = ["finished_job", "job_manager", "router", "wait_for_job"]

router = APIRouter(prefix="/api")

CardText = Annotated[str, Field(max_length=400, examples=["As Ks Qs Js Ts"])]


class RulesIn(Body):
    """The rule options (``--mode``, ``--ace-low-straight``, ``--flush-beats-full-house``)."""

    mode: Literal[tuple(m.value for m in DiscardMode)] = "mirror"  # type: ignore[valid-type]
    ace_low_straight: bool = False
    flush_beats_full_house: bool = False

    def rules(self) -> Rules:
        """The library's rules."""
        return Rules(
            discard_mode=DiscardMode(self.mode),
            ace_low_straight=self.ace_low_straight,
            flush_beats_full_house=self.flush_beats_full_house,
        )


class EvalIn(RulesIn):
    """``quintet eval CARDS``."""

    cards: CardText


class DealIn(RulesIn):
    """``quintet deal --seed N`` (no seed: a fresh one)."""

    # lt, not le=MAX_SEED: 2**63 is exactly a float, so the OpenAPI document states it exactly.
    seed: Annotated[int, Field(ge=0, lt=MAX_SEED + 1), WHOLE] | None = None


class ScoreIn(RulesIn):
    """``quintet score ARRANGEMENT1 ARRANGEMENT2``."""

    first: Annotated[str, Field(max_length=1000)]
    second: Annotated[str, Field(max_length=1000)]


class HoldingsIn(DealIn):
    """Both holdings: your ``cards`` (and ``opponent_cards``) or dealt from ``seed``."""

    cards: CardText | None = None
    opponent_cards: CardText | None = None

    def holdings(self) -> Holdings:
        """Both holdings, checked (a QuintetError for bad cards)."""
        return holdings(self.cards, self.opponent_cards, self.seed, self.rules())

    def request(self) -> Any:
        """The application layer's request (a QuintetError for bad input)."""
        raise NotImplementedError  # every job input defines its own


class SuggestIn(HoldingsIn):
    """``quintet suggest``; ``against`` is a model name (no files over the web)."""

    against: Literal[tuple(OPPONENTS)] | None = None  # type: ignore[valid-type]
    known: Annotated[str, Field(max_length=1000)] | None = None
    objective: Literal[tuple(o.value for o in Objective)] | None = None  # type: ignore[valid-type]
    time_limit: Seconds | None = None
    top: Annotated[int, Field(ge=1, le=MAX_TOP), WHOLE] = 1
    fix: Annotated[list[Annotated[str, Field(max_length=400)]], Field(max_length=5)] | None = None
    samples: Annotated[int, Field(ge=1, le=MAX_SAMPLES), WHOLE] | None = None
    workers: Annotated[int, Field(ge=1, le=MAX_WORKERS), WHOLE] | None = None
    engine: Literal["auto", "cpsat", "frontier"] = "auto"
    payoff: Literal[tuple(p.value for p in Payoff)] | None = None  # type: ignore[valid-type]

    def request(self) -> SuggestRequest:
        """The suggest request (``fix``: ``POS=CARDS`` texts)."""
        return SuggestRequest(
            holdings=self.holdings(),
            rules=self.rules(),
            against=self.against,
            known=self.known,
            objective=self.objective,
            payoff=self.payoff,
            time_limit=self.time_limit,
            top=self.top,
            fixed=fixed_from_text(self.fix),
            samples=self.samples,
            workers=self.workers,
            engine=self.engine,
        )


class EquilibriumIn(HoldingsIn):
    """``quintet equilibrium``."""

    payoff: Literal[tuple(p.value for p in Payoff)] = "margin"  # type: ignore[valid-type]
    tolerance: Annotated[float, Field(ge=0, allow_inf_nan=False), REAL] = DEFAULT_TOLERANCE
    time_limit: Seconds | None = None
    certificate: bool = Field(
        False,
        description="also answer the certificate (quintet-certificate/1) under 'certificate': "
        "exact fractions anyone can check with quintet verify",
    )
    ranges: bool = Field(
        False,
        description="also each likely arrangement's probability range over all optimal "
        "strategies (two linear programs each: most of an independent deal's time)",
    )
    max_support: Annotated[int, Field(ge=1, le=MAX_K), WHOLE] | None = Field(
        None,
        description="also the best strategy found that mixes at most this many arrangements, "
        "with its certified exploitability, under 'simple_strategy'",
    )

    def request(self) -> EquilibriumRequest:
        """The equilibrium request."""
        return EquilibriumRequest(
            holdings=self.holdings(),
            rules=self.rules(),
            payoff=self.payoff,
            tolerance=self.tolerance,
            time_limit=self.time_limit,
            with_certificate=self.certificate,
            ranges=self.ranges,
            max_support=self.max_support,
        )


class GradeIn(HoldingsIn):
    """``quintet grade ARRANGEMENT``: your ``arrangement`` ("P1 | ... | P5") of your holding."""

    arrangement: Annotated[str, Field(max_length=1000)]
    payoff: Literal[tuple(p.value for p in Payoff)] = "margin"  # type: ignore[valid-type]

    def request(self) -> GradeRequest:
        """The grade request, its arrangement checked (a 400 before any work starts)."""
        request = GradeRequest(
            holdings=self.holdings(),
            rules=self.rules(),
            arrangement=self.arrangement,
            payoff=self.payoff,
        )
        _check_arrangement(request.arrangement, request.holdings, request.rules)
        return request


class PlayIn(HoldingsIn):
    """A game against a computer ``opponent``: your ``arrangement`` ("P1 | ... | P5")."""

    opponent: Literal[PLAYER_NAMES] = "eq-margin"  # type: ignore[valid-type]
    arrangement: Annotated[str, Field(max_length=1000)]
    time_limit: Seconds | None = None
    # The match's seed for this game: the computer's layout varies from game to game.
    variation: Annotated[int, Field(ge=0, lt=MAX_SEED + 1), WHOLE] | None = None

    def request(self) -> PlayRequest:
        """The play request, its arrangement checked (a 400 before any work starts)."""
        request = PlayRequest(
            holdings=self.holdings(),
            rules=self.rules(),
            arrangement=self.arrangement,
            opponent=self.opponent,
            time_limit=self.time_limit,
            variation=self.variation,
        )
        _check_arrangement(request.arrangement, request.holdings, request.rules)
        return request


def _check_arrangement(text: str, dealt: Holdings, rules: Rules) -> None:
    Arrangement.parse(text, n_packets=rules.n_packets).check(dealt.mine, rules)


@router.post("/eval", summary="quintet eval: combination and strength of one packet")
def eval_packet(body: EvalIn) -> dict[str, Any]:
    """The document of ``quintet eval CARDS --json``."""
    cards = parse_cards(body.cards, count=HAND_SIZE)
    return hand_report(cards, body.rules(), "en").payload


@router.post("/deal", summary="quintet deal: a seeded deal and both holdings")
def deal_game(body: DealIn) -> dict[str, Any]:
    """The document of ``quintet deal --seed N --json``."""
    seed = fresh_seed() if body.seed is None else body.seed
    return deal_report(deal(seed, body.rules()), "en").payload


@router.post("/score", summary="quintet score: two arrangements compared position by position")
def score_game(body: ScoreIn) -> dict[str, Any]:
    """The document of ``quintet score A B --json``."""
    rules = body.rules()
    first = Arrangement.parse(body.first, n_packets=rules.n_packets)
    second = Arrangement.parse(body.second, n_packets=rules.n_packets)
    return score_report(first, second, score(first, second, rules), rules, "en").payload


@router.post("/holdings", summary="both holdings, dealt from a seed or entered (the page's helper)")
def holdings_of(body: HoldingsIn) -> dict[str, Any]:
    """The holdings part of the suggest document: seed, dealt, holding, opponent_holding, rules."""
    dealt = body.holdings()
    return {
        "seed": dealt.seed,
        "dealt": dealt.dealt,
        "holding": cards_payload(display_order(dealt.mine)),
        "opponent_holding": cards_payload(display_order(dealt.theirs)),
        "rules": rules_payload(body.rules()),
    }


@router.get("/players", summary="the computer players and the verdict bands, in both languages")
def players_of() -> dict[str, Any]:
    """Every registry player (name, title, description in en and ru), the recommended one,
    and each verdict's upper limit of equilibrium loss in points."""
    return catalog().document


def job_manager(request: Request) -> JobManager:
    """The app's job manager."""
    manager: JobManager = request.app.state.jobs
    return manager


def _submit(request: Request, kind: str, body: HoldingsIn) -> Job:
    # The request is built and checked here: bad input is a 400 before any work starts.
    # A full queue (429) and a stopping server (503) are answered by the app's handlers.
    return job_manager(request).submit(kind, body.request())


def finished_job(job: Job) -> JSONResponse:
    """The answer for a finished job: its document, or its error with the status code."""
    if job.state is JobState.DONE:
        return JSONResponse(job.result)
    if job.stopped:
        return JSONResponse({"detail": job.error or STOPPING, "argument": None}, 503)
    codes = {
        JobState.ERROR: status.HTTP_400_BAD_REQUEST,
        JobState.TIMEOUT: status.HTTP_504_GATEWAY_TIMEOUT,
        JobState.CANCELLED: status.HTTP_409_CONFLICT,
    }
    code = codes.get(job.state, status.HTTP_500_INTERNAL_SERVER_ERROR)
    return JSONResponse({"detail": job.error or job.state.value, "argument": job.argument}, code)


async def wait_for_job(request: Request, job: Job) -> None:
    """Wait for ``job`` to finish without blocking the event loop; cancel it if the client
    leaves."""
    while not job.state.finished:
        if await request.is_disconnected():
            job_manager(request).cancel(job.id)
        await asyncio.sleep(0.05)


async def _wait(request: Request, job: Job) -> JSONResponse:
    """Wait for ``job``; its answer."""
    await wait_for_job(request, job)
    return finished_job(job)


@router.post(
    "/suggest", responses=JOB_WAIT, summary="quintet suggest: the best arrangement against a model"
)
async def suggest(request: Request, body: SuggestIn) -> JSONResponse:
    """The document of ``quintet suggest --json`` (a job, waited for)."""
    return await _wait(request, _submit(request, "suggest", body))


@router.post(
    "/equilibrium",
    responses=JOB_WAIT,
    summary="quintet equilibrium: an exact equilibrium of the deal",
)
async def equilibrium(request: Request, body: EquilibriumIn) -> JSONResponse:
    """The document of ``quintet equilibrium --json`` (a job, waited for)."""
    return await _wait(request, _submit(request, "equilibrium", body))


@router.post(
    "/grade",
    responses=JOB_WAIT,
    summary="quintet grade: your arrangement's loss, punishment and fix",
)
async def grade(request: Request, body: GradeIn) -> JSONResponse:
    """The document of ``quintet grade --json`` (a job, waited for: the deal may need solving)."""
    return await _wait(request, _submit(request, "grade", body))


@router.post(
    "/play", responses=JOB_WAIT, summary="the computer's arrangement against yours, and the score"
)
async def play(request: Request, body: PlayIn) -> JSONResponse:
    """``{opponent, description, seed, score}``: score is the ``quintet score --json`` document."""
    return await _wait(request, _submit(request, "play", body))


@router.post("/jobs/suggest", status_code=202, responses=JOB_START, summary="start a suggest job")
def start_suggest(request: Request, body: SuggestIn) -> dict[str, Any]:
    """The new job's status; poll ``GET /api/jobs/{id}``."""
    return _submit(request, "suggest", body).status()


@router.post(
    "/jobs/equilibrium", status_code=202, responses=JOB_START, summary="start an equilibrium job"
)
def start_equilibrium(request: Request, body: EquilibriumIn) -> dict[str, Any]:
    """The new job's status; its progress names the double oracle's iteration and gap."""
    return _submit(request, "equilibrium", body).status()


@router.post(
    "/jobs/grade", status_code=202, responses=JOB_START, summary="start grading an arrangement"
)
def start_grade(request: Request, body: GradeIn) -> dict[str, Any]:
    """The new job's status; poll ``GET /api/jobs/{id}``."""
    return _submit(request, "grade", body).status()


@router.post(
    "/jobs/play", status_code=202, responses=JOB_START, summary="start a game against the computer"
)
def start_play(request: Request, body: PlayIn) -> dict[str, Any]:
    """The new job's status; poll ``GET /api/jobs/{id}``."""
    return _submit(request, "play", body).status()


def _known(request: Request, job_id: str) -> Job:
    job = job_manager(request).get(job_id)
    if job is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no job {job_id!r}")
    return job


@router.get("/jobs/{job_id}", responses=JOB_ID, summary="a job's state, progress and document")
def job_status(request: Request, job_id: str) -> dict[str, Any]:
    """``state`` is queued, running, done (``result`` holds the document), error, failed,
    timeout or cancelled; an ``error`` (bad input) is also in ``message``, in the request's
    language (Accept-Language) and the pages' words."""
    status = _known(request, job_id).status()
    if status["state"] == JobState.ERROR.value and isinstance(status["error"], str):
        lang = request_language(request.headers.get("accept-language"))
        status["message"] = page_error(status["error"], lang, [status["argument"]])
    return status


@router.delete("/jobs/{job_id}", responses=JOB_ID, summary="cancel a job")
def cancel_job(request: Request, job_id: str) -> dict[str, Any]:
    """Cancel the job (its process is ended); its status."""
    job = _known(request, job_id)
    job_manager(request).cancel(job_id)
    job.finished_event.wait(timeout=2)
    return job.status()
