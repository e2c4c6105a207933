"""The book is untrusted input: a row is certified again when read, a huge one refused unread,
and a file that is not a book is never written to."""

from __future__ import annotations

import os
import sqlite3
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from solver.book.canonical import canonical_key, holding_of
from solver.book.check import check
from solver.book.lookup import book_row, look_up, solve_with_book
from solver.book.opening import SCHEMA_VERSION
from solver.book.rows import MAX_ARRANGEMENTS, MAX_ROW_BYTES, record, storable
from solver.book.source import EquilibriumSource
from solver.book.stats import book_stats
from solver.book.store import Book
from solver.equilibria.equilibrium import solve
from solver.equilibria.exploitability import certified_bounds
from solver.errors import BookError
from solver.game.deal import deal
from solver.game.evaluator import strength
from solver.game.rules import Rules
from solver.models.mixture import Mixture

RULES = Rules()
SEED = 3  # a mirror deal whose margin equilibrium mixes 27 arrangements


def _solved(path: Path | None, tolerance: float = 1e-9) -> tuple[EquilibriumSource, object]:
    source = EquilibriumSource(path, use_book=path is not None, tolerance=tolerance)
    holdings = deal(SEED, RULES).holdings
    return source, source(holdings[0], holdings[1], RULES, "margin")


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A book holding the deal's margin equilibrium (folded into one file)."""
    path = tmp_path_factory.mktemp("clean") / "book.sqlite"
    _solved(path)
    with Book(path) as book:
        book.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


@pytest.fixture
def book(clean: Path, tmp_path: Path) -> Path:
    path = tmp_path / "book.sqlite"
    path.write_bytes(clean.read_bytes())
    return path


def _row(path: Path) -> tuple[bytes, np.ndarray]:
    with sqlite3.connect(path) as connection:
        cards, probabilities = connection.execute(
            "SELECT row_cards, row_probabilities FROM solutions"
        ).fetchone()
    connection.close()
    return cards, np.frombuffer(probabilities)


def _store(path: Path, cards: bytes, probabilities: np.ndarray, bounds: tuple[float, ...] = ()):
    """Replace the row's (mirror: both players') strategy; ``bounds``: value, lower, upper."""
    connection = sqlite3.connect(path)
    connection.execute(
        "UPDATE solutions SET row_cards = ?, row_probabilities = ?",
        (cards, np.asarray(probabilities, np.float64).tobytes()),
    )
    if bounds:
        value, lower, upper = bounds
        connection.execute(
            "UPDATE solutions SET value = ?, lower = ?, upper = ?, gap = ?",
            (value, lower, upper, upper - lower),
        )
    connection.commit()
    connection.close()


def _key() -> str:
    return str(canonical_key(deal(SEED, RULES).holdings)[0])


def test_a_pure_strategy_with_probability_1_is_refused_reported_and_replaced(book: Path) -> None:
    right = _solved(None)[1]
    cards, probabilities = _row(book)
    assert len(probabilities) > 1
    _store(book, cards[: 5 * 5], np.ones(1))  # its first arrangement, always; row well formed
    found = check(book)
    assert not found.ok and found.integrity == ("ok",)
    ((deal_key, why),) = found.damaged
    assert deal_key == _key() and "does not hold" in why and "stored: gap" in why
    holdings = deal(SEED, RULES).holdings
    with Book(book) as opened:
        assert look_up(*holdings, "margin", RULES, opened) is None
        (notice,) = opened.notices
        assert _key() in notice and notice.endswith("it is solved again")
    source, answer = _solved(book)
    assert not source.from_book(*holdings, RULES, "margin")
    (warning,) = source.warnings
    assert "does not hold" in warning and _key() in warning
    assert answer.value == right.value and answer.gap <= 1e-9
    assert sorted(answer.row.probabilities) == pytest.approx(sorted(right.row.probabilities))
    assert check(book).ok  # replaced by the solve
    again, served = _solved(book)
    assert again.from_book(*holdings, RULES, "margin") and again.warnings == ()
    assert served.row == answer.row


def _perturbed(path: Path) -> tuple[bytes, np.ndarray, tuple[float, float]]:
    """The stored strategy with 5% of its first arrangement's mass moved: not an equilibrium,
    and its true bounds."""
    cards, probabilities = _row(path)
    moved = probabilities.copy()
    shift = 0.05 * moved[0]
    moved[0] -= shift
    moved[1] += shift
    first = holding_of(canonical_key(deal(SEED, RULES).holdings)[0][0])
    array = np.frombuffer(cards, np.uint8).reshape(-1, RULES.n_packets, 5)
    mixed = (strength(array, RULES).astype(np.int32), moved)
    return cards, moved, certified_bounds(first, first, RULES, "margin", mixed, None)


def test_a_forged_small_gap_is_refused_and_an_honest_one_served_as_recomputed(
    book: Path,
) -> None:
    cards, moved, (lower, upper) = _perturbed(book)
    assert 1e-6 < upper - lower < 1.0
    _store(book, cards, moved, (0.0, lower, upper))  # honest: its true gap, over 1e-9
    assert check(book).ok
    honest, served = _solved(book, tolerance=1.0)  # a looser tolerance: served as it is
    assert honest.warnings == () and honest.from_book(*deal(SEED, RULES).holdings, RULES, "margin")
    assert served.gap == pytest.approx(upper - lower, abs=1e-12)
    _store(book, cards, moved, (0.0, -1e-15, 1e-15))  # forged: "certified to 2e-15"
    ((_deal, why),) = check(book).damaged
    assert "does not hold" in why
    source, answer = _solved(book, tolerance=1.0)
    (warning,) = source.warnings
    assert "does not hold" in warning and answer.gap <= 1e-9  # solved again
    assert check(book).ok


def _huge(path: Path, count: int) -> None:
    """A well-formed row of ``count`` arrangements: the first one, repeated."""
    cards, _probabilities = _row(path)
    _store(path, cards[:25] * count, np.full(count, 1.0 / count))


@pytest.mark.parametrize(
    ("count", "why"),
    [
        (20_000, f"660,000 bytes, over the limit of {MAX_ROW_BYTES:,}"),
        (5_000, f"mixes 5,000 arrangements, over the limit of {MAX_ARRANGEMENTS:,}"),
    ],
    ids=["bytes", "arrangements"],
)
def test_a_huge_row_is_reported_by_check_and_skipped_by_every_reader(
    book: Path, count: int, why: str
) -> None:
    assert MAX_ARRANGEMENTS < 5_000 and 5_000 * 33 < MAX_ROW_BYTES < 20_000 * 33
    _huge(book, count)
    found = check(book)
    ((_deal, reported),) = found.damaged
    assert not found.ok and "implausible" in reported and why in reported
    with Book(book, create=False) as opened:
        assert book_stats(opened) == []  # the game's only row is left out
        (notice,) = opened.notices
        assert "implausible" in notice
        assert list(opened.entries(RULES, "margin")) == []
    source, answer = _solved(book)
    assert "implausible" in source.warnings[0] and answer.gap <= 1e-9
    assert check(book).ok  # replaced by the solve


def _meta_says_book_tables_differ(path: Path, clean: Path) -> None:
    connection = sqlite3.connect(path)
    connection.executescript(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
        "CREATE TABLE solutions (a, b);"
        "INSERT INTO meta VALUES ('format', 'quintet-book'), "
        f"('schema', '{SCHEMA_VERSION}');"  # this solver's schema: only the tables differ
    )
    connection.close()


def _book_with_a_trigger(path: Path, clean: Path) -> None:
    path.write_bytes(clean.read_bytes())
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA journal_mode = DELETE")  # no log beside it: one file to watch
    connection.execute("CREATE TRIGGER t AFTER INSERT ON solutions BEGIN DELETE FROM meta; END")
    connection.commit()
    connection.close()


def _another_app(path: Path, clean: Path) -> None:
    connection = sqlite3.connect(path)
    connection.executescript("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);")
    connection.execute("INSERT INTO notes (text) VALUES ('keep me')")
    connection.commit()
    connection.close()


def _empty_database(path: Path, clean: Path) -> None:
    """Another application's new database: no table yet, its application id set."""
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA application_id = 1234")
    connection.execute("VACUUM")
    connection.close()


def _random_bytes(path: Path, clean: Path) -> None:
    path.write_bytes(np.random.default_rng(0).bytes(8192))


@pytest.mark.parametrize(
    "make",
    [
        _meta_says_book_tables_differ,
        _book_with_a_trigger,
        _another_app,
        _empty_database,
        _random_bytes,
    ],
    ids=[
        "meta-current-other-tables",
        "book-with-trigger",
        "another-app",
        "empty-database",
        "random",
    ],
)
def test_a_file_that_is_not_a_book_is_never_written_to(clean: Path, tmp_path: Path, make) -> None:
    path = tmp_path / "file.sqlite"
    make(path, clean)
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))  # an old mtime: any write changes it
    before, files = path.read_bytes(), sorted(os.listdir(tmp_path))
    with pytest.raises(BookError, match="is not a solution book"):
        Book(path)
    with pytest.raises(BookError, match="is not a solution book"):
        Book(path, create=False, read_only=True)
    source, answer = _solved(path)
    assert answer.gap <= 1e-9 and len(source.warnings) == 1
    assert "is not a solution book" in source.warnings[0] and not source.stores
    try:
        assert not check(path).ok
    except BookError as error:  # not an SQLite file at all
        assert "not an SQLite file" in str(error)
    assert path.read_bytes() == before
    assert os.stat(path).st_mtime_ns == 1_000_000_000
    assert sorted(os.listdir(tmp_path)) == files  # no log, no journal beside it


def test_solve_with_book_replaces_a_row_that_does_not_hold(book: Path) -> None:
    cards, _probabilities = _row(book)
    _store(book, cards[:25], np.ones(1))
    holdings = deal(SEED, RULES).holdings
    with Book(book) as opened:
        answer = solve_with_book(*holdings, "margin", RULES, opened)
        assert not answer.from_book and answer.result.gap <= 1e-9
        (notice,) = opened.notices
        assert "does not hold" in notice
    with Book(book) as opened:
        again = solve_with_book(*holdings, "margin", RULES, opened)
        assert again.from_book and opened.notices == []
        assert again.result.gap <= 1e-9


def test_a_solution_over_the_size_limit_is_not_stored() -> None:
    first, second = deal(SEED, RULES).holdings
    key = canonical_key((first, second))[0]
    result = solve(holding_of(key[0]), holding_of(key[1]), RULES, "margin")
    count = MAX_ARRANGEMENTS + 1
    huge = Mixture.trusted([result.row.arrangements[0]] * count, [1 / count] * count)
    too_large = replace(result, row=huge, column=huge)
    assert storable(result) and not storable(too_large)
    assert book_row(key, too_large) is None
    with pytest.raises(BookError, match="4,097 arrangements, over the book's limit of 4,096"):
        record(key, 1, too_large)
