"""The solution book's use cases: ``build`` (solve and store what is missing), ``stats``, ``check``.

>>> import tempfile, pathlib
>>> path = str(pathlib.Path(tempfile.mkdtemp()) / "missing.sqlite")
>>> book_stats(BookStatsRequest(path))  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
solver.errors.BookError: book: ...missing.sqlite: no such file
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from solver.app.answers import Answer, Notice, answer_of
from solver.app.report_book import build_report, check_report, stats_report
from solver.book.build import BuildProgress, build
from solver.book.check import CheckProgress, check
from solver.book.estimate import BuildEstimate
from solver.book.stats import book_stats as stats_of
from solver.book.store import Book, default_book_path
from solver.errors import QuintetError
from solver.game.rules import DEFAULT_RULES, Rules

__all__ = [
    "BookBuildRequest",
    "BookCheckRequest",
    "BookStatsRequest",
    "book_stats",
    "build_book",
    "check_book",
]

PAYOFF_CHOICES = {"margin": ("margin",), "win": ("win",), "both": ("margin", "win")}


@dataclass(frozen=True)
class BookBuildRequest:
    """Solve and store ``deals`` seeded deals (None: every mirror class) for ``payoff``.

    ``classes``: with ``deals=None``, a seeded uniform sample of that many
    mirror classes, or a slice ``(start, stop)`` of their enumeration order.
    """

    path: str | None = None
    rules: Rules = DEFAULT_RULES
    payoff: str = "margin"
    deals: int | None = None
    classes: int | tuple[int, int] | None = None
    seed: int = 0
    jobs: int = 1
    backend: str = "local"
    scheduler: str | None = None


@dataclass(frozen=True)
class BookStatsRequest:
    """What the book at ``path`` (None: the default book) holds."""

    path: str | None = None


@dataclass(frozen=True)
class BookCheckRequest:
    """Check the book at ``path`` (None: the default book): SQLite's integrity, every row."""

    path: str | None = None


def build_book(
    request: BookBuildRequest,
    on_progress: Callable[[BuildProgress], None] | None = None,
    on_estimate: Callable[[BuildEstimate], None] | None = None,
) -> Answer:
    """Build the book; ``on_progress`` sees the progress as deals finish (stored at once),
    ``on_estimate`` the build's cost before it starts."""
    if request.payoff not in PAYOFF_CHOICES:
        raise QuintetError(
            f"payoff {request.payoff!r} is not margin, win or both", argument="payoff"
        )
    path = Path(request.path) if request.path else default_book_path()
    summary = build(
        path,
        request.rules,
        list(PAYOFF_CHOICES[request.payoff]),
        deals=request.deals,
        classes=request.classes,
        seed=request.seed,
        jobs=request.jobs,
        backend=request.backend,
        scheduler=request.scheduler,
        on_progress=on_progress,
        on_estimate=on_estimate,
    )
    return answer_of(lambda lang: build_report(summary, path, lang), kind="book-build")


def book_stats(request: BookStatsRequest) -> Answer:
    """The book's coverage, solve times and equilibria ex ante (the book is not created).

    A damaged or implausibly large row is left out, with a warning naming it.
    """
    with Book(request.path, create=False) as book:
        games, path, notices = stats_of(book), book.path, tuple(book.notices)
    warnings = tuple(
        Notice(f"{notice.removesuffix('; it is solved again')}; left out") for notice in notices
    )
    return answer_of(lambda lang: stats_report(games, path, lang), warnings, kind="book-stats")


def check_book(
    request: BookCheckRequest, on_progress: Callable[[CheckProgress], None] | None = None
) -> Answer:
    """SQLite's integrity check, every row decoded and its gap recomputed (read-only).

    The document's ``ok`` says whether nothing is wrong; a file that is not a
    book at all is a :class:`~solver.errors.BookError`.  ``on_progress`` sees
    the rows checked, about every second.
    """
    found = check(request.path or default_book_path(), on_progress=on_progress)
    return answer_of(lambda lang: check_report(found, lang), kind="book-check")
