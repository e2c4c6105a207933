"""The JSON API of the Analyze and Study pages: ``quintet analyze`` and ``quintet report``.

==========================  ==========================================================
``POST /api/analyze``       ``quintet analyze --json``: a history's text, graded (a job,
                            waited for)
``POST /api/jobs/analyze``  the same as a job (202): poll ``GET /api/jobs/{id}``, whose
                            progress is ``{"done": deals graded, "total": deals}``;
                            ``DELETE`` cancels it
``POST /api/report``        ``quintet report --json``: aggregates over the book
``POST /api/summary``       ``quintet report --summary --json``: the whole game's
                            statistics shipped with the package (no book needed)
==========================  ==========================================================

Bodies are validated into the same requests the command line builds
(:class:`~solver.app.analyze.AnalyzeRequest`, :class:`~solver.app.study.StudyRequest`);
the server's default book answers.  An analysis runs on the server's job
queue (:mod:`solver.web.jobs`) like the other long requests: in its own
process, one deal after another (the queue shares the cores between jobs),
cancellable, within the server's time limit (the whole analysis, and each
solve of a deal the book lacks); the report runs in a thread.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from solver.app.analyze import AnalyzeRequest
from solver.app.history import MAX_HISTORY_BYTES
from solver.app.limits import MAX_TOP
from solver.app.study import StudyRequest, study
from solver.app.whole_game import WholeGameRequest, whole_game
from solver.errors import BookError, NoBookError
from solver.game.rules import DiscardMode, Rules
from solver.web.api import finished_job, job_manager, wait_for_job
from solver.web.fields import WHOLE, Body
from solver.web.jobs import Job, JobState
from solver.web.responses import JOB_START, JOB_WAIT, ErrorOut

__all__ = ["router"]

router = APIRouter(prefix="/api")


class AnalyzeIn(Body):
    """A history's text (JSON Lines or CSV, as ``quintet analyze`` reads) and ``top``."""

    history: Annotated[str, Field(max_length=MAX_HISTORY_BYTES)]
    top: Annotated[int, Field(ge=1, le=MAX_TOP), WHOLE] = 10

    def request(self) -> AnalyzeRequest:
        """The use case's request: one job's process, no pool of its own (the queue's
        ``max_running`` shares the cores, and a job's process may not start others)."""
        return AnalyzeRequest(content=self.history, top=self.top, jobs=1)


class ReportIn(Body):
    """The report's rules, payoff and filter (``--mode``, ``--payoff``, ``--where``)."""

    mode: Literal["mirror", "independent"] = "mirror"
    payoff: Literal["margin", "win"] = "margin"
    where: Annotated[str | None, Field(max_length=400)] = None


def _start(request: Request, body: AnalyzeIn) -> Job:
    return job_manager(request).submit("analyze", body.request())


@router.post(
    "/analyze", responses=JOB_WAIT, summary="quintet analyze: a history of play graded deal by deal"
)
async def analyze_endpoint(request: Request, body: AnalyzeIn) -> JSONResponse:
    """The ``quintet-analysis/1`` document of the history, its warnings as data (a job,
    waited for)."""
    job = _start(request, body)
    await wait_for_job(request, job)
    if job.state is JobState.DONE and job.result is not None:
        return JSONResponse({**job.result, "warnings": job.warnings})
    return finished_job(job)


@router.post(
    "/jobs/analyze", status_code=202, responses=JOB_START, summary="start analyzing a history"
)
def start_analyze(request: Request, body: AnalyzeIn) -> dict[str, Any]:
    """The new job's status; poll ``GET /api/jobs/{id}`` (progress: deals graded of the
    total; the document in ``result``, the skipped lines in ``warnings``)."""
    return _start(request, body).status()


# The report's own 404 (not the jobs' "no such job").
NO_BOOK: dict[int | str, dict[str, Any]] = {
    404: {"description": "The server has no solution book yet (code no_book)", "model": ErrorOut}
}


@router.post(
    "/report",
    responses=NO_BOOK,
    summary="quintet report: aggregates over the server's solution book",
)
async def report_endpoint(body: ReportIn) -> Any:
    """The ``quintet-report/1`` document over the server's book (404, ``code`` ``no_book``,
    when the server has none: the page says so in its words, never the server's path)."""
    request = StudyRequest(
        rules=Rules(discard_mode=DiscardMode(body.mode)), payoff=body.payoff, where=body.where
    )
    try:
        answer = await asyncio.to_thread(study, request)
    except NoBookError:
        detail = "the server has no solution book yet"
        answer_body = {"detail": detail, "argument": None, "message": None, "code": "no_book"}
        return JSONResponse(answer_body, 404)
    return answer.document


class SummaryIn(Body):
    """The payoff whose figures the summary gives (``--payoff``)."""

    payoff: Literal["margin", "win"] = "margin"


NO_SUMMARY: dict[int | str, dict[str, Any]] = {
    503: {"description": "The shipped summary cannot be read (code no_summary)", "model": ErrorOut}
}


@router.post(
    "/summary",
    responses=NO_SUMMARY,
    summary="quintet report --summary: the whole game's statistics shipped with the package",
)
def summary_endpoint(body: SummaryIn) -> Any:
    """The ``quintet-summary/1`` document of the payoff, with ``warnings``: the parts of the
    file found damaged and left out (503, ``code`` ``no_summary``, when nothing is readable)."""
    try:
        answer = whole_game(WholeGameRequest(payoff=body.payoff))
    except BookError as error:
        answer_body = {
            "detail": str(error),
            "argument": None,
            "message": None,
            "code": "no_summary",
        }
        return JSONResponse(answer_body, 503)
    return {**answer.document, "warnings": [w.message for w in answer.warnings]}
