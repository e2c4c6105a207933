"""The JSON API of the Analyze and Study pages: ``quintet analyze`` and ``quintet report``.

=====================  ===============================================
``POST /api/analyze``  ``quintet analyze --json``: a history's text, graded
``POST /api/report``   ``quintet report --json``: aggregates over the book
=====================  ===============================================

Bodies are validated into the same requests the command line builds
(:class:`~solver.app.analyze.AnalyzeRequest`, :class:`~solver.app.study.StudyRequest`);
the work runs in a thread, the server's default book answers.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from solver.app.analyze import AnalyzeRequest, analyze
from solver.app.history import MAX_HISTORY_BYTES
from solver.app.limits import MAX_TOP
from solver.app.study import StudyRequest, study
from solver.game.rules import DiscardMode, Rules

__all__ = ["router"]

router = APIRouter(prefix="/api")


class AnalyzeIn(BaseModel):
    """A history's text (JSON Lines or CSV, as ``quintet analyze`` reads) and ``top``."""

    model_config = ConfigDict(extra="forbid")

    history: Annotated[str, Field(max_length=MAX_HISTORY_BYTES)]
    top: Annotated[int, Field(ge=1, le=MAX_TOP)] = 10


class ReportIn(BaseModel):
    """The report's rules, payoff and filter (``--mode``, ``--payoff``, ``--where``)."""

    model_config = ConfigDict(extra="forbid")

    mode: Literal["mirror", "independent"] = "mirror"
    payoff: Literal["margin", "win"] = "margin"
    where: Annotated[str | None, Field(max_length=400)] = None


@router.post("/analyze")
async def analyze_endpoint(body: AnalyzeIn) -> dict[str, Any]:
    """The ``quintet-analysis/1`` document of the history, its warnings as data."""
    request = AnalyzeRequest(content=body.history, top=body.top)
    answer = await asyncio.to_thread(analyze, request)
    return {**answer.document, "warnings": [n.message for n in answer.warnings]}


@router.post("/report")
async def report_endpoint(body: ReportIn) -> dict[str, Any]:
    """The ``quintet-report/1`` document over the server's book."""
    request = StudyRequest(
        rules=Rules(discard_mode=DiscardMode(body.mode)), payoff=body.payoff, where=body.where
    )
    answer = await asyncio.to_thread(study, request)
    return answer.document
