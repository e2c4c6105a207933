"""Checking a whole solution book: SQLite's integrity check, then every row decoded.

>>> import tempfile, pathlib
>>> from solver.book.build import build
>>> from solver.game.rules import Rules
>>> path = pathlib.Path(tempfile.mkdtemp()) / "b.sqlite"
>>> _ = build(path, Rules(position_points=(6, 7)), ["margin"], deals=2, seed=1)
>>> report = check(path)
>>> report.rows, report.ok
(2, True)
>>> check(path.with_name("missing.sqlite"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
solver.errors.BookError: book: ...missing.sqlite: no such file
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from solver.book.opening import SQLITE_HEADER
from solver.book.rows import describe_key, entry
from solver.book.store import Book
from solver.errors import BookError

__all__ = ["BookCheck", "check"]


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


def check(path: str | Path, *, limit: int = 100) -> BookCheck:
    """Check the book at ``path`` (opened read-only, never modified).

    ``limit`` bounds the findings kept of each kind (the count of rows is exact).
    A file that is not a book at all is a :class:`~solver.errors.BookError`.
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
        try:
            for row in book.all_rows():
                rows += 1
                try:
                    entry(row)
                except BookError as error:
                    if len(damaged) < limit:
                        damaged.append((describe_key(row), str(error)))
        except BookError as error:
            integrity += (str(error),)
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
