"""Opening a solution book file: created atomically, checked, read-only when it must be.

A book is shared state used by every command by default, so opening one
must never leave it half made and never block:

* the path must be a regular file (checked with :func:`os.stat` before any
  open, so a FIFO or a device is refused at once);
* a new book is built complete in a temporary file of the same directory and
  linked into place, under an exclusive lock of the directory, so concurrent
  creators (other processes) all end up with the same complete book and a
  crash leaves no half-made one;
* a file a crash left empty or half made (an older version created books in
  place: 0 bytes, or an SQLite header and no ``meta``) holds no solution and
  is recognized and recreated the same way; any other file that is not a
  book is refused, never modified;
* a book that cannot be written (permissions, a read-only mount, an
  immutable file) is opened read-only: lookups work, the caller skips stores.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> connection, problem = open_book(folder / "b.sqlite", create=True)
>>> problem, connection.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
(None, ('quintet-book',))
>>> connection.close()
>>> _ = (folder / "empty.sqlite").write_bytes(b"")
>>> open_book(folder / "empty.sqlite", create=True)[1] is None  # left by a crash: recreated
True
>>> open_book(folder, create=True)
Traceback (most recent call last):
    ...
solver.errors.BookError: book: ... is not a regular file (a directory)
"""

from __future__ import annotations

import contextlib
import functools
import os
import sqlite3
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from solver.errors import BookError

try:  # POSIX: an exclusive lock of the directory while a book is created
    import fcntl
except ImportError:  # pragma: no cover - Windows: creation stays atomic, not serialized
    fcntl = None  # type: ignore[assignment]

__all__ = ["FORMAT", "SCHEMA", "SCHEMA_VERSION", "open_book"]

FORMAT = "quintet-book"
SCHEMA_VERSION = 4
"""4: the stored equilibria are the canonical ones (:mod:`solver.equilibria.canonical`),
laid out in the deal's canonical frame of the suits and symmetrized over its
automorphisms (:mod:`solver.equilibria.frontier_game`), so the same for every
relabelling of a deal; 3 held the same strategies laid out in the stored deal's
own suits (the opponent's arrangements could differ from a solve's in cards of
equal rank, and a symmetric deal's were not symmetrized); 2 held the first
selection's (other strategies on independent win deals), 1 whichever
equilibrium the solver found: older books are refused."""
SQLITE_HEADER = b"SQLite format 3\x00"

SCHEMA = """
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

_KINDS = {
    stat.S_IFDIR: "a directory",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def _error(path: Path, why: str) -> BookError:
    return BookError(f"book: {path} {why}", argument="book")


def _reason(error: OSError) -> str:
    return error.strerror or type(error).__name__


def _status(path: Path) -> os.stat_result | None:
    """The file's status (None: missing); anything but a regular file is refused."""
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise _error(path, f"cannot be read ({_reason(error)})") from None
    if not stat.S_ISREG(status.st_mode):
        kind = _KINDS.get(stat.S_IFMT(status.st_mode), "not a file")
        raise _error(path, f"is not a regular file ({kind})")
    return status


def _read_only_uri(path: Path, immutable: bool = False) -> str:
    return f"{path.resolve().as_uri()}?{'immutable=1' if immutable else 'mode=ro'}"


def _read_only(path: Path, timeout: float = 5.0) -> sqlite3.Connection:
    """A read-only connection; ``immutable`` where even that needs a write (WAL, read-only place)."""
    for immutable in (False, True):
        connection = sqlite3.connect(_read_only_uri(path, immutable), uri=True, timeout=timeout)
        try:
            connection.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            return connection
        except sqlite3.OperationalError as error:
            connection.close()
            if immutable or not {"unable to open", "disk I/O"} & set(_words(error)):
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def _words(error: Exception) -> list[str]:
    text = str(error)
    return [w for w in ("unable to open", "disk I/O") if w in text]


Layout = tuple[tuple[tuple[str, str, str], ...], tuple[tuple[object, ...], ...]]


def _layout_of(connection: sqlite3.Connection) -> Layout:
    """The schema's objects (type, name, table) and every table's columns, as SQLite sees them.

    Compared as SQLite parses the schema, not as its text: the same tables
    written with other spacing are the same layout; another column, type,
    key, index, view or trigger is not.
    """
    objects = tuple(sorted(connection.execute("SELECT type, name, tbl_name FROM sqlite_master")))
    columns = tuple(
        tuple(connection.execute("SELECT * FROM pragma_table_xinfo(?)", (name,)))
        for kind, name, _table in objects
        if kind == "table"
    )
    return objects, columns


@functools.cache
def book_layout() -> Layout:
    """The layout of a book of this schema (:data:`SCHEMA`, made in memory)."""
    connection = sqlite3.connect(":memory:")
    try:
        connection.executescript(SCHEMA)
        return _layout_of(connection)
    finally:
        connection.close()


def _tables(path: Path) -> tuple[set[str], dict[str, str], int, Layout, int]:
    """The file's tables, its ``meta`` rows, its number of solutions, its layout and its
    application id plus user version (zero for every book, and for a crash's leftovers):
    a read-only look."""
    connection = _read_only(path)
    try:
        query = "SELECT name FROM sqlite_master WHERE type = 'table'"
        tables = {r[0] for r in connection.execute(query)}
        layout = _layout_of(connection)
        marks = sum(
            abs(int(connection.execute(f"PRAGMA {name}").fetchone()[0]))
            for name in ("application_id", "user_version")
        )
        meta: dict[str, str] = {}
        if "meta" in tables:
            meta = {str(k): str(v) for k, v in connection.execute("SELECT key, value FROM meta")}
        solutions = 0
        if "solutions" in tables:
            solutions = int(connection.execute("SELECT COUNT(*) FROM solutions").fetchone()[0])
    finally:
        connection.close()
    return tables, meta, solutions, layout, marks


def _unfinished(path: Path, status: os.stat_result) -> bool:
    """Whether the file is a book a crash left half made (it holds nothing to lose)."""
    if status.st_size == 0:
        return True
    try:
        with path.open("rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except OSError:
        return False
    if header != SQLITE_HEADER:
        return False
    try:
        tables, meta, solutions, _layout, marks = _tables(path)
    except sqlite3.Error:
        return False
    # Another application's new database (its id or version set) is not a crash's leftover.
    return tables <= {"meta", "solutions"} and "format" not in meta and solutions == 0 and not marks


def check_book(path: Path) -> None:
    """Refuse a file that is not a book of this schema, touching nothing.

    Everything is read through a read-only connection (:func:`_read_only`):
    the header, the ``meta`` rows and the exact layout of the tables.  Only a
    file that passes is ever opened for writing (which switches it to WAL, a
    write to its header).
    """
    try:
        with path.open("rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except OSError as error:
        raise _error(path, f"cannot be read ({_reason(error)})") from None
    if header != SQLITE_HEADER:
        raise _error(path, "is not a solution book (not an SQLite file)")
    try:
        _tables_found, meta, _solutions, layout, _marks = _tables(path)
    except sqlite3.OperationalError as error:  # locked, unreadable...
        raise _error(path, f"cannot be read ({error})") from None
    except sqlite3.Error as error:
        raise _error(path, f"is not a solution book ({error})") from None
    if meta.get("format") != FORMAT:
        raise _error(path, f"is not a solution book (format {meta.get('format')!r})")
    schema = meta.get("schema", "0")
    if not schema.isdigit():
        raise _error(path, f"is not a solution book (schema {schema!r})")
    if int(schema) > SCHEMA_VERSION:
        raise _error(
            path,
            f"has schema {schema}, newer than this solver's {SCHEMA_VERSION}; "
            "upgrade quintet-solver",
        )
    if int(schema) < SCHEMA_VERSION:
        raise _error(
            path,
            f"has schema {schema}, older than this solver's {SCHEMA_VERSION} (its equilibria "
            "are not the canonical ones); delete it, or build a new book, to use a book",
        )
    if layout != book_layout():
        raise _error(
            path, f"is not a solution book (its meta says schema {schema}, its tables differ)"
        )


@contextlib.contextmanager
def _directory_lock(folder: Path) -> Iterator[None]:
    """An exclusive lock of ``folder`` (between processes creating books in it)."""
    if fcntl is None:  # pragma: no cover
        yield
        return
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # releases the lock


def _write_new(folder: Path, name: str) -> str:
    """A complete empty book in a temporary file of ``folder``; its path."""
    descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
    os.close(descriptor)
    try:
        connection = sqlite3.connect(temporary)
        try:
            with connection:
                connection.executescript(SCHEMA)
                connection.executemany(
                    "INSERT INTO meta VALUES (?, ?)",
                    [("format", FORMAT), ("schema", str(SCHEMA_VERSION))],
                )
            connection.execute("PRAGMA journal_mode=WAL")
        finally:
            connection.close()
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        with open(temporary, "rb+") as handle:
            os.fsync(handle.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return temporary


def _create(path: Path) -> None:
    """Create (or recreate, when a crash left it half made) the book at ``path``."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with _directory_lock(path.parent):
            status = _status(path)  # again, now that no other creator runs
            if status is not None and not _unfinished(path, status):
                return  # another process made it meanwhile
            temporary = _write_new(path.parent, path.name)
            try:
                if status is None:
                    os.link(temporary, path)
                else:  # a stale log of the half-made file must not replay onto the new one
                    for suffix in ("-wal", "-shm", "-journal"):
                        with contextlib.suppress(FileNotFoundError):
                            os.unlink(f"{path}{suffix}")
                    os.replace(temporary, path)
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
    except OSError as error:
        raise _error(path, f"cannot be created ({_reason(error)})") from None
    except sqlite3.Error as error:
        raise _error(path, f"cannot be created ({error})") from None


def _writable(path: Path) -> bool:
    # The log files sit beside the book: its directory must be writable too.
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK | os.X_OK)


def _connect(path: Path, read_only: bool) -> tuple[sqlite3.Connection, str | None]:
    """A connection, and why it cannot write (None: it can)."""
    if read_only:
        return _read_only(path, timeout=30.0), "is opened read-only"
    if not _writable(path):
        return _read_only(path, timeout=30.0), "is read-only"
    connection = sqlite3.connect(path, timeout=30.0)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=NORMAL")
        return connection, None
    except sqlite3.OperationalError as error:  # a read-only mount, a full disk...
        connection.close()
        return _read_only(path, timeout=30.0), f"cannot be written ({error})"


def open_book(
    path: Path, *, create: bool, read_only: bool = False
) -> tuple[sqlite3.Connection, str | None]:
    """A connection to the book at ``path``, and why it cannot be written (None: it can)."""
    status = _status(path)
    if status is None and not create:
        raise BookError(f"book: {path}: no such file", argument="book")
    if (status is None or _unfinished(path, status)) and create and not read_only:
        _create(path)
    check_book(path)
    try:
        return _connect(path, read_only)
    except sqlite3.Error as error:
        raise _error(path, f"cannot be opened ({error})") from None
