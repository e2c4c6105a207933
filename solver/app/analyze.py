"""``quintet analyze``: every deal of a history graded exactly, the worst first, the leaks.

Each deal of the history (:mod:`solver.app.history`) is graded by
:func:`solver.analysis.grade.equilibrium_grade` (the loss, verdict and best
change exactly as :func:`~solver.analysis.grade.grade` gives them) against
the deal's margin equilibrium, which comes from one
:class:`~solver.book.source.EquilibriumSource` with the solution book: a deal
solved once (by this run or any before) is looked up, never solved again.
``jobs`` (default ``"auto"``: one per usable CPU for a long history, none
for a short one) worker processes grade the deals, the deals of one game
always by the same worker, so that it is solved once
(:mod:`solver.app.analyze_jobs`).  Each deal is written to ``csv`` as soon
as it and every deal before it are graded (flushed), so the rows are in the
history's order and an interrupt (Ctrl-C) keeps every graded row; the answer
then covers the deals graded so far and says so.

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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from solver.app.analyze_jobs import Graded, Jobs, check_jobs, grade_played, jobs_for
from solver.app.answers import Answer, Notice, answer_of
from solver.app.history import BadLine, PlayedDeal, parse_history, read_history
from solver.app.report_analyze import CSV_HEADER, DealResult, analysis_report, csv_row
from solver.app.requests import DEFAULT_BOOK, BookChoice
from solver.errors import FileError, QuintetError
from solver.util.files import check_output_path

__all__ = ["FORMAT", "AnalyzeRequest", "analyze", "grade_played"]

FORMAT = "quintet-analysis/1"


@dataclass(frozen=True)
class AnalyzeRequest:
    """Analyze the history at ``path`` (or its text ``content``); ``csv``: rows written there.

    ``jobs``: worker processes, or ``"auto"`` (:func:`~solver.app.analyze_jobs.jobs_for`).
    """

    path: str | None = None
    content: str | None = None
    top: int = 10
    csv: str | None = None
    jobs: Jobs = "auto"
    time_limit: float | None = None
    book: BookChoice = DEFAULT_BOOK


def _check(request: AnalyzeRequest) -> None:
    if request.top < 1:
        raise QuintetError(f"top must be at least 1, got {request.top}", argument="top")
    check_jobs(request.jobs)
    if (request.path is None) == (request.content is None):
        raise QuintetError("path or content is needed (one of them)", argument="path")
    if request.csv is not None:
        check_output_path(request.csv)


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
    if not deals:
        name = request.path or "the history"
        why = (
            f"{len(bad)} line{'s' * (len(bad) != 1)} skipped, the first: line {bad[0].line}: "
            f"{bad[0].reason}"
            if bad
            else "it is empty"
        )
        raise FileError(f"{name}: no deal to grade ({why})")
    warnings = [Notice(f"line {b.line}: skipped: {b.reason}") for b in bad]
    results: list[DealResult] = []
    rows = _Rows(request.csv)
    graded = Graded(deals, jobs_for(request.jobs, len(deals)), request.book, request.time_limit)
    stream = graded.stream()
    interrupted = False
    try:
        for result in stream:
            results.append(result)
            rows.write(csv_row(result))
            if on_progress is not None:
                on_progress(len(results), len(deals))
    except KeyboardInterrupt:
        interrupted = True
        for result in graded.left():  # graded by a worker, not written yet: kept too
            results.append(result)
            rows.write(csv_row(result))
        warnings.append(Notice(f"interrupted: {len(results)} of {len(deals)} deals graded"))
    finally:
        stream.close()  # ends the workers, if any
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
