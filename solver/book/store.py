"""The solution book: solved canonical deals in one SQLite file.

One row per canonical deal (:mod:`solver.book.canonical`), rules and payoff:
the game value, its certified bounds and gap, both players' equilibrium
strategies, the solver version and the solve time.  Strategies are compact:
the arrangements' card ids as a uint8 blob (``k * 5 * n_packets`` bytes,
packet by packet) and their probabilities as a float64 blob.  In mirror
mode the game is symmetric and the column strategy is the row strategy: it
is stored once.

The file uses write-ahead logging and every write is one transaction, so a
process killed at any moment leaves the book as of its last commit.  A
``meta`` table holds the format name and the schema version; a file that is
not a book, or a book of a newer schema, is refused with :class:`BookError`
after a read-only look, and never modified.  Opening
(:mod:`solver.book.opening`) creates a new book atomically, recreates one a
crash left half made, refuses anything but a regular file and falls back to
read-only (:attr:`Book.writable`).  Every row read is checked
(:mod:`solver.book.rows`; a row larger than any solve makes is refused before
its blobs are read): a damaged one is treated as missing, reported once in
:attr:`Book.notices`, and replaced by the next store of its deal.  A lookup
also recomputes the row's certified bounds (:mod:`solver.book.recheck`); a row
that does not hold is rejected the same way (:meth:`Book.reject`).

The default file is ``$XDG_CACHE_HOME/quintet-solver/book.sqlite``, or
``~/.cache/quintet-solver/book.sqlite`` when ``XDG_CACHE_HOME`` is not set.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "book.sqlite"
>>> with Book(path) as book:
...     book.count()
0
>>> _ = path.with_name("notes.txt").write_text("hello")
>>> Book(path.with_name("notes.txt"))
Traceback (most recent call last):
    ...
solver.errors.BookError: book: ... is not a solution book (not an SQLite file)
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np

from solver.book.location import default_book_path
from solver.book.opening import FORMAT, SCHEMA_VERSION, open_book
from solver.book.rows import COLUMNS, SELECTED, Entry, entry, record, rules_from_key, rules_key
from solver.equilibria.equilibrium import Payoff
from solver.errors import BookError
from solver.game.rules import Rules
from solver.util.checks import check_flags, check_path

__all__ = [
    "FORMAT",
    "SCHEMA_VERSION",
    "Book",
    "Entry",
    "default_book_path",
    "record",
    "rules_from_key",
    "rules_key",
]

_COLUMNS = COLUMNS


# Insert a row; over a stored one only when the new gap is smaller.
_UPSERT = (
    f"INSERT INTO solutions ({_COLUMNS}) VALUES ({', '.join('?' * 19)}) "
    "ON CONFLICT (rules, payoff, first, second) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in _COLUMNS.split(", ")[4:])
    + " WHERE excluded.gap < solutions.gap"
)
# Over a damaged row: always.
_REPLACE = f"INSERT OR REPLACE INTO solutions ({_COLUMNS}) VALUES ({', '.join('?' * 19)})"


class Book:
    """A solution book file, opened (created when missing) for lookups and stores.

    Parameters
    ----------
    path
        The SQLite file; ``None`` for :func:`default_book_path`.
    create
        Create the file when it is missing (else a missing file is an error).
    read_only
        Open for lookups only (also what happens when the file cannot be written).

    Attributes
    ----------
    writable
        Whether stores can be made (False: :meth:`put` refuses).
    unwritable
        Why not (``"is read-only"``, ``"cannot be written (...)"``), or ``""``.
    notices
        The damage found by lookups so far, one message per damaged row.
    """

    def __init__(
        self, path: str | Path | None = None, *, create: bool = True, read_only: bool = False
    ) -> None:
        check_flags(create=create, read_only=read_only)
        self.path = check_path(path, "path") if path is not None else default_book_path()
        self.connection, problem = open_book(self.path, create=create, read_only=read_only)
        self.writable = problem is None
        self.unwritable = problem or ""  # why it cannot be written ("is read-only"...)
        self.notices: list[str] = []
        self._damaged: set[tuple[str, str, int, int]] = set()

    def close(self) -> None:
        """Close the file."""
        self.connection.close()

    def __enter__(self) -> Book:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _query(self, query: str, parameters: Iterable[object] = ()) -> list[Any]:
        """All rows of a query; an unreadable file is a :class:`BookError` naming it."""
        try:
            return self.connection.execute(query, tuple(parameters)).fetchall()
        except sqlite3.Error as error:
            raise BookError(
                f"book: {self.path} cannot be read ({error})", argument="book"
            ) from None

    def count(self, rules: Rules | None = None, payoff: Payoff | str | None = None) -> int:
        """Number of stored solutions (of these rules and payoff, when given)."""
        query, parameters = "SELECT COUNT(*) FROM solutions", []
        conditions = []
        if rules is not None:
            conditions.append("rules = ?")
            parameters.append(rules_key(rules))
        if payoff is not None:
            conditions.append("payoff = ?")
            parameters.append(Payoff(payoff).value)
        if conditions:
            query += " WHERE " + " AND ".join(conditions)
        return int(self._query(query, parameters)[0][0])

    def keys(self, rules: Rules, payoff: Payoff | str) -> np.ndarray:
        """Stored canonical keys of these rules and payoff, ``(n, 2)`` int64."""
        rows = self._query(
            "SELECT first, second FROM solutions WHERE rules = ? AND payoff = ?",
            (rules_key(rules), Payoff(payoff).value),
        )
        keys = [(a, b) for a, b in rows if _whole(a) and _whole(b)]
        return np.array(keys, dtype=np.int64).reshape(-1, 2)

    def costs(self, rules: Rules, payoff: Payoff | str) -> tuple[int, float, float]:
        """Rows of these rules and payoff, their mean solve seconds and mean stored
        arrangements (both strategies), read by SQLite without decoding a row."""
        rows = self._query(
            "SELECT COUNT(*), AVG(seconds), "
            "AVG((length(row_cards) + coalesce(length(column_cards), 0)) / 25.0) "
            "FROM solutions WHERE rules = ? AND payoff = ?",
            (rules_key(rules), Payoff(payoff).value),
        )
        count, seconds, arrangements = rows[0]
        return int(count), float(seconds or 0.0), float(arrangements or 0.0)

    def games(self) -> list[tuple[Rules, Payoff]]:
        """The rules and payoffs the book holds solutions of (damaged keys left out)."""
        rows = self._query("SELECT DISTINCT rules, payoff FROM solutions ORDER BY rules, payoff")
        games = []
        for rules_text, payoff in rows:
            try:
                games.append((rules_from_key(rules_text), Payoff(payoff)))
            except (BookError, ValueError):
                self._report(f"book: {self.path}: rows of unknown game {rules_text!r} {payoff!r}")
        return games

    def _report(self, message: str) -> None:
        if message not in self.notices:
            self.notices.append(message)

    def _checked(self, row: tuple[Any, ...]) -> Entry | None:
        """The row's entry, or None (reported, remembered to be replaced) when damaged."""
        try:
            return entry(row)
        except BookError as error:
            self._damaged.add((str(row[0]), str(row[1]), row[2], row[3]))
            self._report(f"{error}; it is solved again")
            return None

    def reject(self, stored: Entry, error: BookError) -> None:
        """Treat a row that decodes but does not hold (:mod:`solver.book.recheck`) as damaged:
        reported once in :attr:`notices`, replaced by the next store of its deal."""
        self._damaged.add((rules_key(stored.rules), stored.payoff.value, *stored.key))
        self._report(f"{error}; it is solved again")

    def get(self, key: tuple[int, int], rules: Rules, payoff: Payoff | str) -> Entry | None:
        """The stored solution of a canonical key, or None (also when damaged: see notices)."""
        rows = self._query(
            f"SELECT {SELECTED} FROM solutions "
            "WHERE rules = ? AND payoff = ? AND first = ? AND second = ?",
            (rules_key(rules), Payoff(payoff).value, int(key[0]), int(key[1])),
        )
        return None if not rows else self._checked(rows[0])

    def entries(self, rules: Rules, payoff: Payoff | str) -> Iterator[Entry]:
        """Every stored solution of these rules and payoff, by key (damaged ones left out)."""
        for row in self.rows(rules, payoff):
            checked = self._checked(row)
            if checked is not None:
                yield checked

    def rows(self, rules: Rules, payoff: Payoff | str) -> Iterator[tuple[object, ...]]:
        """Raw rows (:data:`~solver.book.rows.SELECTED`: a row over the size limit without its
        blobs), by key: unchecked (see :func:`entry`)."""
        try:
            yield from self.connection.execute(
                f"SELECT {SELECTED} FROM solutions WHERE rules = ? AND payoff = ? "
                "ORDER BY first, second",
                (rules_key(rules), Payoff(payoff).value),
            )
        except sqlite3.Error as error:
            raise BookError(
                f"book: {self.path} cannot be read ({error})", argument="book"
            ) from None

    def all_rows(self) -> Iterator[tuple[object, ...]]:
        """Every raw row of the file, whatever its game (for :mod:`solver.book.check`), as
        :meth:`rows` gives them; a deal's payoffs one after the other (checking a row needs
        the deal's frontiers, kept for the next payoff's row)."""
        keys = self._query(
            "SELECT rules, payoff, first, second FROM solutions "
            "ORDER BY rules, first, second, payoff"
        )
        for key in keys:  # one row at a time: a whole book's blobs do not fit a sort
            found = self._query(
                f"SELECT {SELECTED} FROM solutions "
                "WHERE rules = ? AND payoff = ? AND first = ? AND second = ?",
                key,
            )
            if found:
                yield found[0]

    def put(self, records: Iterable[tuple[object, ...]]) -> int:
        """Store rows made by :func:`record` in one transaction; a better gap replaces a worse.

        A row over a damaged one found by a lookup replaces it.  Returns the
        number of rows written.
        """
        if not self.writable:
            raise BookError(f"book: {self.path} {self.unwritable}", argument="book")
        written = 0
        try:
            with self.connection:
                for row in records:
                    damaged = (str(row[0]), str(row[1]), row[2], row[3]) in self._damaged
                    cursor = self.connection.execute(_REPLACE if damaged else _UPSERT, row)
                    written += cursor.rowcount
        except sqlite3.Error as error:  # a read-only file, a full disk...
            raise BookError(f"book: cannot write {self.path}: {error}", argument="book") from None
        return written


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**32
