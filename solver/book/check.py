"""Checking a whole solution book: SQLite's integrity check, then every row decoded and
certified again.

Each row is decoded and checked (:func:`~solver.book.rows.entry`: a row over
the size limits is refused unread) and its certified bounds recomputed from
its strategies (:func:`~solver.book.recheck.recertified`: the deal's
frontiers and a best response each, about 0.07 s a row, the frontiers shared
by a deal's two payoffs).  A row that fails either is reported with why.
``on_progress`` sees the rows done at most every ``every`` seconds, and at the
end.

>>> import tempfile, pathlib
>>> from solver.book.build import build
>>> from solver.game.rules import Rules
>>> path = pathlib.Path(tempfile.mkdtemp()) / "b.sqlite"
>>> _ = build(path, Rules(position_points=(6, 7)), ["margin"], deals=2, seed=1)
>>> report = check(path)
>>> seen = []
>>> report = check(path, on_progress=seen.append, every=0.0)
>>> report.rows, report.ok, seen[-1].done, seen[-1].total
(2, True, 2, 2)
>>> check(path.with_name("missing.sqlite"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
solver.errors.BookError: book: ...missing.sqlite: no such file
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from solver.book.opening import SQLITE_HEADER
from solver.book.recheck import recertified
from solver.book.rows import describe_key, entry
from solver.book.store import Book
from solver.errors import BookError

__all__ = ["BookCheck", "CheckProgress", "check"]


@dataclass(frozen=True)
class CheckProgress:
    """Rows checked so far, of ``total``, in ``seconds``."""

    done: int
    total: int
    seconds: float


@dataclass(frozen=True)
class BookCheck:
    """What :func:`check` found: SQLite's own findings, and the damaged rows (why each)."""

    path: Path
    integrity: tuple[str, ...]  # ("ok",) when SQLite finds nothing wrong
    rows: int
    damaged: tuple[tuple[str, str], ...]  # (deal key, why)

    @property
    def ok(self) -> bool:
        """Whether nothing is wrong."""
        return self.integrity == ("ok",) and not self.damaged


def check(
    path: str | Path,
    *,
    limit: int = 100,
    on_progress: Callable[[CheckProgress], None] | None = None,
    every: float = 1.0,
) -> BookCheck:
    """Check the book at ``path`` (opened read-only, never modified).

    ``limit`` bounds the findings kept of each kind (the count of rows is exact).
    A file that is not a book at all is a :class:`~solver.errors.BookError`.
    ``on_progress`` sees the progress at most every ``every`` seconds, and at the end.
    """
    try:
        book = Book(path, create=False, read_only=True)
    except BookError as error:
        if not _sqlite(Path(path)):
            raise
        return BookCheck(Path(path), (str(error), *_integrity(Path(path), limit)), 0, ())
    with book:
        try:
            found = book.connection.execute(f"PRAGMA integrity_check({int(limit)})").fetchall()
            integrity = tuple(str(r[0]) for r in found)
        except sqlite3.DatabaseError as error:
            integrity = (str(error),)
        rows, damaged = 0, list[tuple[str, str]]()
        started = last = time.monotonic()
        total = 0
        try:
            total = book.count()
            for row in book.all_rows():
                rows += 1
                try:
                    recertified(entry(row))
                except BookError as error:
                    if len(damaged) < limit:
                        damaged.append((describe_key(row), str(error)))
                if on_progress is not None and rows < total and time.monotonic() - last >= every:
                    last = time.monotonic()
                    on_progress(CheckProgress(rows, total, last - started))
        except BookError as error:
            integrity += (str(error),)
        if on_progress is not None:
            on_progress(CheckProgress(rows, max(rows, total), time.monotonic() - started))
    return BookCheck(Path(path), integrity, rows, tuple(damaged))


def _sqlite(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def _integrity(path: Path, limit: int) -> tuple[str, ...]:
    """SQLite's findings on a file that does not open as a book (read-only)."""
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            found = connection.execute(f"PRAGMA integrity_check({int(limit)})").fetchall()
        finally:
            connection.close()
    except sqlite3.Error as error:
        return (str(error),)
    return tuple(str(r[0]) for r in found if r[0] != "ok")
