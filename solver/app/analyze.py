"""``quintet analyze``: every deal of a history graded exactly, the worst first, the leaks.

Each deal of the history (:mod:`solver.app.history`) is graded by
:func:`solver.analysis.grade.grade` against the deal's margin equilibrium,
which comes from one :class:`~solver.book.source.EquilibriumSource` with the
solution book: a deal solved once (by this run or any before) is looked up,
never solved again.  With ``jobs > 1`` the deals are graded by worker
processes, the deals of one game always by the same worker (so that it is
solved once).  Each finished deal is written to ``csv`` at once (flushed),
so an interrupt (Ctrl-C) keeps every graded row; the answer then covers the
deals graded so far and says so.

The document (``--json``, the web API) has the format ``quintet-analysis/1``:
``summary`` (deals, mean loss with its 95% interval, verdict counts, the
trend first half against second half), ``worst`` (the ``top`` worst deals),
``leaks`` (by position, by combination laid, by the kind of change that
helps: each leak's ``loss`` adds up to the total loss), ``rows`` (every deal),
``bad_lines``.

>>> analyze(AnalyzeRequest(content="", top=0))
Traceback (most recent call last):
    ...
solver.errors.QuintetError: top must be at least 1, got 0
"""

from __future__ import annotations

import csv
import signal
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from solver.analysis.breakdown import Breakdown, breakdown
from solver.analysis.grade import equilibrium_grade
from solver.app.answers import Answer, Notice, answer_of
from solver.app.history import BadLine, PlayedDeal, parse_history, read_history
from solver.app.limits import MAX_JOBS
from solver.app.report_analyze import CSV_HEADER, DealResult, analysis_report, csv_row
from solver.app.requests import DEFAULT_BOOK, BookChoice
from solver.app.solving import source_of
from solver.book.source import EquilibriumSource
from solver.errors import FileError, QuintetError
from solver.util.files import check_output_path

__all__ = ["FORMAT", "AnalyzeRequest", "analyze", "grade_played"]

FORMAT = "quintet-analysis/1"


@dataclass(frozen=True)
class AnalyzeRequest:
    """Analyze the history at ``path`` (or its text ``content``); ``csv``: rows written there."""

    path: str | None = None
    content: str | None = None
    top: int = 10
    csv: str | None = None
    jobs: int = 1
    time_limit: float | None = None
    book: BookChoice = DEFAULT_BOOK


def grade_played(deal: PlayedDeal, source: EquilibriumSource) -> DealResult:
    """One deal graded: the grade's figures and its :class:`Breakdown`.

    Only what the analysis reports is computed (:func:`equilibrium_grade`: the loss, the
    verdict, the best change), never the best responses a whole grade adds, which need
    the strategy frontiers and would cost four fifths of the time.
    """
    result = equilibrium_grade(
        deal.arrangement, deal.theirs, deal.rules, holding=deal.mine, solver=source
    )
    parts: Breakdown = breakdown(result)
    known = source.from_book(deal.mine, deal.theirs, deal.rules, "margin")
    return DealResult(
        deal,
        result.equilibrium_loss,
        result.verdict.value,
        result.equilibrium.value,
        result.value,
        result.change,
        parts,
        bool(known),
    )


def _check(request: AnalyzeRequest) -> None:
    if request.top < 1:
        raise QuintetError(f"top must be at least 1, got {request.top}", argument="top")
    if not 1 <= request.jobs <= MAX_JOBS:
        raise QuintetError(
            f"jobs must be between 1 and {MAX_JOBS}, got {request.jobs}", argument="jobs"
        )
    if (request.path is None) == (request.content is None):
        raise QuintetError("path or content is needed (one of them)", argument="path")
    if request.csv is not None:
        check_output_path(request.csv)


def _quiet_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C


def _grade_group(
    deals: list[PlayedDeal], book: BookChoice, time_limit: float | None
) -> list[DealResult]:
    source = source_of(book, time_limit=time_limit)
    return [grade_played(deal, source) for deal in deals]


def _grouped(deals: list[PlayedDeal]) -> list[list[PlayedDeal]]:
    """The deals by game (both holdings, either seat, and the rules), in first-seen order."""
    groups: dict[object, list[PlayedDeal]] = {}
    for deal in deals:
        key = (min(deal.mine, deal.theirs), max(deal.mine, deal.theirs), deal.rules)
        groups.setdefault(key, []).append(deal)
    return list(groups.values())


def _graded(request: AnalyzeRequest, deals: list[PlayedDeal]) -> Iterator[DealResult]:
    """The deals' results as they finish (in the history's order with one job)."""
    if request.jobs == 1 or len(deals) < 2:
        source = source_of(request.book, time_limit=request.time_limit)
        for deal in deals:
            yield grade_played(deal, source)
        return
    pool = ProcessPoolExecutor(max_workers=request.jobs, initializer=_quiet_worker)
    try:
        pending: set[Future[list[DealResult]]] = {
            pool.submit(_grade_group, group, request.book, request.time_limit)
            for group in _grouped(deals)
        }
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield from future.result()
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


class _Rows:
    """The CSV of the deals graded, one row written and flushed as each finishes."""

    def __init__(self, path: str | None) -> None:
        self.handle: IO[str] | None = None
        if path is not None:
            try:
                self.handle = Path(path).open("w", encoding="utf-8", newline="")  # noqa: SIM115 (kept open: a row per finished deal)
            except OSError as error:
                raise FileError(f"{path}: cannot write: {error.strerror}") from None
            self.write(CSV_HEADER)

    def write(self, row: list[object]) -> None:
        if self.handle is not None:
            csv.writer(self.handle).writerow(row)
            self.handle.flush()

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()


def _history(request: AnalyzeRequest) -> tuple[list[PlayedDeal], list[BadLine]]:
    if request.content is not None:
        return parse_history(request.content)
    return read_history(str(request.path))


def analyze(
    request: AnalyzeRequest, on_progress: Callable[[int, int], None] | None = None
) -> Answer:
    """Grade every deal of the history; ``on_progress(done, total)`` after each deal."""
    _check(request)
    deals, bad = _history(request)
    warnings = [Notice(f"line {b.line}: skipped: {b.reason}") for b in bad]
    results: list[DealResult] = []
    rows = _Rows(request.csv)
    interrupted = False
    try:
        for result in _graded(request, deals):
            results.append(result)
            rows.write(csv_row(result))
            if on_progress is not None:
                on_progress(len(results), len(deals))
    except KeyboardInterrupt:
        interrupted = True
        warnings.append(Notice(f"interrupted: {len(results)} of {len(deals)} deals graded"))
    finally:
        rows.close()
    results.sort(key=lambda r: r.deal.line)
    name = request.path or "(uploaded)"
    return answer_of(
        lambda lang: analysis_report(
            results, bad, name, request.top, interrupted, len(deals), lang
        ),
        tuple(warnings),
        kind="analysis",
    )
