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
after a read-only look, and never modified.

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

import os
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np

from solver.book import codec
from solver.book.canonical import CARD_PERMUTATIONS
from solver.equilibria.equilibrium import EquilibriumResult, Payoff
from solver.errors import BookError
from solver.game.rules import DiscardMode, Rules
from solver.version import __version__

__all__ = ["FORMAT", "SCHEMA_VERSION", "Book", "Entry", "default_book_path", "record"]

FORMAT = "quintet-book"
SCHEMA_VERSION = 1
_SQLITE_HEADER = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE solutions (
    rules TEXT NOT NULL,
    payoff TEXT NOT NULL,
    first INTEGER NOT NULL,
    second INTEGER NOT NULL,
    orbit INTEGER NOT NULL,
    value REAL NOT NULL,
    lower REAL NOT NULL,
    upper REAL NOT NULL,
    gap REAL NOT NULL,
    converged INTEGER NOT NULL,
    iterations INTEGER NOT NULL,
    row_frontier INTEGER NOT NULL,
    column_frontier INTEGER NOT NULL,
    row_cards BLOB NOT NULL,
    row_probabilities BLOB NOT NULL,
    column_cards BLOB,
    column_probabilities BLOB,
    solver_version TEXT NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (rules, payoff, first, second)
) WITHOUT ROWID;
"""
_COLUMNS = (
    "rules, payoff, first, second, orbit, value, lower, upper, gap, converged, iterations, "
    "row_frontier, column_frontier, row_cards, row_probabilities, column_cards, "
    "column_probabilities, solver_version, seconds"
)


def default_book_path() -> Path:
    """``$XDG_CACHE_HOME/quintet-solver/book.sqlite`` (``~/.cache`` when unset).

    >>> default_book_path().name
    'book.sqlite'
    """
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "quintet-solver" / "book.sqlite"


def rules_key(rules: Rules) -> str:
    """The rules as the book's key text.

    >>> rules_key(Rules())
    'mirror:3-4-5-6-7:00'
    """
    points = "-".join(str(p) for p in rules.position_points)
    options = f"{int(rules.ace_low_straight)}{int(rules.flush_beats_full_house)}"
    return f"{rules.discard_mode.value}:{points}:{options}"


def rules_from_key(text: str) -> Rules:
    """The inverse of :func:`rules_key`.

    >>> rules_from_key("independent:6-7:10").position_points
    (6, 7)
    """
    mode, points, options = text.split(":")
    return Rules(
        position_points=tuple(int(p) for p in points.split("-")),
        discard_mode=DiscardMode(mode),
        ace_low_straight=options[0] == "1",
        flush_beats_full_house=options[1] == "1",
    )


@dataclass(frozen=True)
class Entry:
    """One stored solution of a canonical deal; strategies as checked arrays.

    ``column_cards`` is None when the column strategy is the row strategy
    (mirror deals).  :meth:`equilibrium` builds the result objects.
    """

    rules: Rules
    payoff: Payoff
    key: tuple[int, int]
    orbit: int
    value: float
    lower: float
    upper: float
    converged: bool
    iterations: int
    frontier_sizes: tuple[int, int]
    seconds: float
    solver_version: str
    row_cards: np.ndarray
    row_probabilities: np.ndarray
    column_cards: np.ndarray | None
    column_probabilities: np.ndarray | None

    @property
    def gap(self) -> float:
        """Certified gap ``upper - lower``."""
        return max(0.0, self.upper - self.lower)

    def equilibrium(self, relabelling: int = 0) -> EquilibriumResult:
        """The stored result, its cards relabelled by ``relabelling`` (0: as stored)."""
        relabel = CARD_PERMUTATIONS[relabelling].astype(np.uint8)
        row = codec.mixture(relabel[self.row_cards], self.row_probabilities)
        column = row
        if self.column_cards is not None and self.column_probabilities is not None:
            column = codec.mixture(relabel[self.column_cards], self.column_probabilities)
        return EquilibriumResult(
            payoff=self.payoff,
            rules=self.rules,
            row=row,
            column=column,
            value=self.value,
            lower=self.lower,
            upper=self.upper,
            iterations=self.iterations,
            seconds=self.seconds,
            frontier_sizes=self.frontier_sizes,
            history=(),
            converged=self.converged,
        )


def _check_existing(path: Path) -> None:
    """Refuse a file that is not a book of a known schema, touching nothing."""
    try:
        with path.open("rb") as handle:
            header = handle.read(len(_SQLITE_HEADER))
    except OSError as error:
        raise BookError(f"book: cannot read {path}: {error.strerror}", argument="book") from None
    if header != _SQLITE_HEADER:
        raise BookError(
            f"book: {path} is not a solution book (not an SQLite file)", argument="book"
        )
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            rows = dict(connection.execute("SELECT key, value FROM meta").fetchall())
        finally:
            connection.close()
    except sqlite3.DatabaseError as error:
        raise BookError(f"book: {path} is not a solution book ({error})", argument="book") from None
    if rows.get("format") != FORMAT:
        raise BookError(
            f"book: {path} is not a solution book (format {rows.get('format')!r})",
            argument="book",
        )
    schema = int(rows.get("schema", "0"))
    if schema > SCHEMA_VERSION:
        raise BookError(
            f"book: {path} has schema {schema}, newer than this solver's {SCHEMA_VERSION}; "
            "upgrade quintet-solver",
            argument="book",
        )


# Insert a row; over a stored one only when the new gap is smaller.
_UPSERT = (
    f"INSERT INTO solutions ({_COLUMNS}) VALUES ({', '.join('?' * 19)}) "
    "ON CONFLICT (rules, payoff, first, second) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in _COLUMNS.split(", ")[4:])
    + " WHERE excluded.gap < solutions.gap"
)


class Book:
    """A solution book file, opened (created when missing) for lookups and stores.

    Parameters
    ----------
    path
        The SQLite file; ``None`` for :func:`default_book_path`.
    create
        Create the file when it is missing (else a missing file is an error).
    """

    def __init__(self, path: str | Path | None = None, *, create: bool = True) -> None:
        self.path = Path(path) if path is not None else default_book_path()
        exists = self.path.exists()
        if exists:
            _check_existing(self.path)
        elif not create:
            raise BookError(f"book: {self.path}: no such file", argument="book")
        else:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise BookError(
                    f"book: cannot create {self.path}: {error.strerror}", argument="book"
                ) from None
        try:
            self.connection = sqlite3.connect(self.path, timeout=30.0)
            self.connection.execute("PRAGMA journal_mode=WAL")
            self.connection.execute("PRAGMA synchronous=NORMAL")
            if not exists:
                self._create()
        except sqlite3.Error as error:
            raise BookError(f"book: cannot open {self.path}: {error}", argument="book") from None

    def _create(self) -> None:
        with self.connection:
            self.connection.executescript(_SCHEMA)
            self.connection.executemany(
                "INSERT INTO meta VALUES (?, ?)",
                [("format", FORMAT), ("schema", str(SCHEMA_VERSION))],
            )

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
        return int(self.connection.execute(query, parameters).fetchone()[0])

    def keys(self, rules: Rules, payoff: Payoff | str) -> np.ndarray:
        """Stored canonical keys of these rules and payoff, ``(n, 2)`` int64."""
        rows = self.connection.execute(
            "SELECT first, second FROM solutions WHERE rules = ? AND payoff = ?",
            (rules_key(rules), Payoff(payoff).value),
        ).fetchall()
        return np.array(rows, dtype=np.int64).reshape(-1, 2)

    def games(self) -> list[tuple[Rules, Payoff]]:
        """The rules and payoffs the book holds solutions of."""
        rows = self.connection.execute(
            "SELECT DISTINCT rules, payoff FROM solutions ORDER BY rules, payoff"
        ).fetchall()
        return [(rules_from_key(r), Payoff(p)) for r, p in rows]

    def get(self, key: tuple[int, int], rules: Rules, payoff: Payoff | str) -> Entry | None:
        """The stored solution of a canonical key, or None."""
        row = self.connection.execute(
            f"SELECT {_COLUMNS} FROM solutions "
            "WHERE rules = ? AND payoff = ? AND first = ? AND second = ?",
            (rules_key(rules), Payoff(payoff).value, int(key[0]), int(key[1])),
        ).fetchone()
        return None if row is None else _entry(row)

    def entries(self, rules: Rules, payoff: Payoff | str) -> Iterator[Entry]:
        """Every stored solution of these rules and payoff, by key."""
        cursor = self.connection.execute(
            f"SELECT {_COLUMNS} FROM solutions WHERE rules = ? AND payoff = ? "
            "ORDER BY first, second",
            (rules_key(rules), Payoff(payoff).value),
        )
        for row in cursor:
            yield _entry(row)

    def rows(self, rules: Rules, payoff: Payoff | str) -> Iterator[tuple[object, ...]]:
        """Raw rows (the columns of the schema), by key: for statistics without decoding."""
        yield from self.connection.execute(
            f"SELECT {_COLUMNS} FROM solutions WHERE rules = ? AND payoff = ? "
            "ORDER BY first, second",
            (rules_key(rules), Payoff(payoff).value),
        )

    def put(self, records: Iterable[tuple[object, ...]]) -> int:
        """Store rows made by :func:`record` in one transaction; a better gap replaces a worse.

        Returns the number of rows written.
        """
        written = 0
        try:
            with self.connection:
                for row in records:
                    cursor = self.connection.execute(_UPSERT, row)
                    written += cursor.rowcount
        except sqlite3.Error as error:  # a read-only file, a full disk...
            raise BookError(f"book: cannot write {self.path}: {error}", argument="book") from None
        return written


def record(
    key: tuple[int, int], orbit: int, result: EquilibriumResult, seconds: float | None = None
) -> tuple[object, ...]:
    """A row of the ``solutions`` table for the solution ``result`` of a canonical deal."""
    row_cards, row_probabilities = codec.encode(result.row)
    column: tuple[bytes | None, bytes | None] = (None, None)
    if key[0] != key[1] or result.column != result.row:
        column = codec.encode(result.column)
    return (
        rules_key(result.rules),
        result.payoff.value,
        int(key[0]),
        int(key[1]),
        int(orbit),
        float(result.value),
        float(result.lower),
        float(result.upper),
        float(result.gap),
        int(result.converged),
        int(result.iterations),
        int(result.frontier_sizes[0]),
        int(result.frontier_sizes[1]),
        row_cards,
        row_probabilities,
        column[0],
        column[1],
        __version__,
        float(result.seconds if seconds is None else seconds),
    )


def _entry(row: tuple[Any, ...]) -> Entry:
    (rules_text, payoff_text, first, second, orbit, value, lower, upper, _gap, converged) = row[:10]
    (iterations, row_frontier, column_frontier, row_cards, row_probabilities) = row[10:15]
    (column_cards, column_probabilities, solver_version, seconds) = row[15:]
    rules = rules_from_key(str(rules_text))
    cards, probabilities = codec.decode(row_cards, row_probabilities, rules.n_packets)
    column: tuple[np.ndarray | None, np.ndarray | None] = (None, None)
    if column_cards is not None:
        column = codec.decode(column_cards, column_probabilities, rules.n_packets)
    return Entry(
        rules=rules,
        payoff=Payoff(str(payoff_text)),
        key=(int(first), int(second)),
        orbit=int(orbit),
        value=float(value),
        lower=float(lower),
        upper=float(upper),
        converged=bool(converged),
        iterations=int(iterations),
        frontier_sizes=(int(row_frontier), int(column_frontier)),
        seconds=float(seconds),
        solver_version=str(solver_version),
        row_cards=cards,
        row_probabilities=probabilities,
        column_cards=column[0],
        column_probabilities=column[1],
    )
