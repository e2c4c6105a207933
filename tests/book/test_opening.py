"""The book never breaks a command: creation, damage, FIFOs, read-only and full files, for real."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from solver.book.canonical import canonical_key
from solver.book.check import check
from solver.book.source import EquilibriumSource
from solver.book.store import Book
from solver.errors import BookError
from solver.game.deal import deal
from solver.game.rules import Rules

TWO = Rules(position_points=(6, 7))
ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _python(code: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for(path: Path, process: subprocess.Popen[str]) -> None:
    """Until ``path`` exists (the process's readiness signal), or the process ended."""
    deadline = time.monotonic() + 120
    while not path.exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no readiness signal"
        time.sleep(0.01)


def _solved(book: Path | None, seed: int = 2) -> tuple[EquilibriumSource, float]:
    source = EquilibriumSource(book, use_book=book is not None)
    holdings = deal(seed, TWO).holdings
    return source, source(holdings[0], holdings[1], TWO, "margin").value


def test_concurrent_creators_all_succeed(tmp_path: Path) -> None:
    path, go = tmp_path / "new" / "book.sqlite", tmp_path / "go"
    code = """
        import sys, time, pathlib
        go = pathlib.Path(sys.argv[2])
        while not go.exists():
            time.sleep(0.001)
        from solver.book.store import Book
        with Book(sys.argv[1]) as book:
            print(book.count())
    """
    creators = [_python(code, str(path), str(go)) for _ in range(6)]
    time.sleep(0.5)  # let them all import and wait (not a readiness assumption: go gates them)
    go.touch()
    results = [(*p.communicate(timeout=120), p.returncode) for p in creators]
    assert all(status == 0 and out.strip() == "0" for out, _err, status in results), results
    assert not [f for f in path.parent.iterdir() if f.name.endswith(".tmp")]


def test_a_creator_killed_midway_leaves_no_book_and_the_next_one_creates_it(
    tmp_path: Path,
) -> None:
    path, ready = tmp_path / "book.sqlite", tmp_path / "ready"
    code = """
        import sys, time, pathlib
        from solver.book import opening
        write_new = opening._write_new
        def slow(folder, name):
            temporary = write_new(folder, name)
            pathlib.Path(sys.argv[2]).touch()  # the temporary book is made, not yet linked
            time.sleep(600)
            return temporary
        opening._write_new = slow
        opening.open_book(pathlib.Path(sys.argv[1]), create=True)
    """
    creator = _python(code, str(path), str(ready))
    _wait_for(ready, creator)
    creator.send_signal(signal.SIGKILL)
    creator.wait(timeout=60)
    assert not path.exists()  # all or nothing: a crash leaves no half-made book
    # The killed creator held the directory's lock: it died with it.
    with Book(path) as book:
        assert book.count() == 0 and book.writable


def _header_only(path: Path) -> None:
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA user_version = 0")
    connection.execute("VACUUM")  # writes the header page: an SQLite file with no tables
    connection.close()


def _meta_without_rows(path: Path) -> None:
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    connection.commit()
    connection.close()


@pytest.mark.parametrize(
    "leave",
    [lambda p: p.write_bytes(b""), _header_only, _meta_without_rows],
    ids=["empty", "header-only", "meta-without-rows"],
)
def test_what_a_crash_left_of_a_new_book_is_recreated(tmp_path: Path, leave) -> None:
    path = tmp_path / "book.sqlite"
    leave(path)
    source, _value = _solved(path)
    assert source.warnings == () and source.stores
    assert _solved(path)[0].from_book(*deal(2, TWO).holdings, TWO, "margin")
    with Book(path) as book:
        assert book.count() == 1


def test_a_fifo_is_refused_at_once_and_a_command_solves_without_it(tmp_path: Path) -> None:
    fifo = tmp_path / "book.sqlite"
    os.mkfifo(fifo)
    code = """
        import sys
        from solver.book.store import Book
        from solver.errors import BookError
        try:
            Book(sys.argv[1])
        except BookError as error:
            print(error)
    """
    process = _python(code, str(fifo))
    out, err = process.communicate(timeout=60)  # a blocking open would never return
    assert "is not a regular file (a FIFO)" in out, err
    source, value = _solved(fifo)
    assert value == _solved(None)[1]
    assert len(source.warnings) == 1 and "a FIFO" in source.warnings[0]


def _built(tmp_path: Path) -> Path:
    path = tmp_path / "book.sqlite"
    _solved(path)
    return path


@contextlib.contextmanager
def _immutable(path: Path) -> Iterator[None]:
    """``chattr +i`` (root ignores permissions; not the immutable flag)."""
    if shutil.which("chattr") is None:
        pytest.skip("chattr is not installed")
    made = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
    if made.returncode:
        pytest.skip(f"chattr +i is not possible here: {made.stderr.strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_an_immutable_book_is_read_and_not_written(tmp_path: Path) -> None:
    path = _built(tmp_path)
    with Book(path) as book:  # fold the log into the file (as a book at rest is)
        book.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = path.read_bytes()
    with _immutable(path):
        with Book(path) as book:
            assert not book.writable and book.count() == 1
            with pytest.raises(BookError, match="read-only"):
                book.put([])
        source, _ = _solved(path)  # stored: from the book
        assert source.from_book(*deal(2, TWO).holdings, TWO, "margin")
        other, value = _solved(path, seed=3)  # not stored: answered, one warning
        assert value == _solved(None, seed=3)[1]
        assert other.warnings == (f"book: {path} is read-only; solutions are not stored",)
        assert not other.stores
    assert path.read_bytes() == before


def test_a_book_on_a_read_only_mount_is_read(tmp_path: Path) -> None:
    path = _built(tmp_path)
    with Book(path) as book:
        book.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    mount = tmp_path / "ro"
    mount.mkdir()
    made = subprocess.run(
        ["mount", "--bind", "-o", "ro", str(tmp_path), str(mount)], capture_output=True, text=True
    )
    if made.returncode:
        pytest.skip(f"a read-only bind mount is not possible here: {made.stderr.strip()}")
    try:
        source, _ = _solved(mount / "book.sqlite")
        assert source.from_book(*deal(2, TWO).holdings, TWO, "margin")
        other, _ = _solved(mount / "book.sqlite", seed=3)
        assert len(other.warnings) == 1 and "read-only" in other.warnings[0]
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def test_a_full_disk_is_a_warning_and_the_answer(tmp_path: Path) -> None:
    mount = Path(tempfile.mkdtemp(dir=tmp_path))
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
    )
    if made.returncode:
        pytest.skip(f"a small tmpfs cannot be mounted here: {made.stderr.strip()}")
    try:
        book = mount / "book.sqlite"
        _solved(book)  # a book, then the disk fills up
        _fill(mount / "filler")
        source, value = _solved(book, seed=3)  # answered; the store fails: one warning
        assert value == _solved(None, seed=3)[1]
        assert len(source.warnings) == 1 and "full" in source.warnings[0], source.warnings
        assert "not stored" in source.warnings[0]
        assert _solved(book)[0].from_book(*deal(2, TWO).holdings, TWO, "margin")
        book.unlink()
        for sidecar in mount.glob("book.sqlite-*"):
            sidecar.unlink()
        _fill(mount / "filler2")
        source, value = _solved(book)  # a new book cannot be made: one warning
        assert len(source.warnings) == 1 and "cannot be created" in source.warnings[0]
        assert not book.exists() and not list(mount.glob(".book*"))
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def _fill(path: Path) -> None:
    with contextlib.suppress(OSError), open(path, "wb") as filler:
        while True:
            filler.write(b"\0" * 1024)
            filler.flush()


def _damage(path: Path, sql: str, *parameters: object) -> None:
    connection = sqlite3.connect(path)
    connection.execute(sql, parameters)
    connection.commit()
    connection.close()


def _foreign_cards(path: Path) -> None:
    """The stored strategy of another deal: cards the player does not hold."""
    other = _solved(path.with_name("other.sqlite"), seed=5)[0]
    del other
    connection = sqlite3.connect(path.with_name("other.sqlite"))
    cards = connection.execute("SELECT row_cards FROM solutions").fetchone()[0]
    connection.close()
    _damage(path, "UPDATE solutions SET row_cards = ?, row_probabilities = ?", cards, b"")
    connection = sqlite3.connect(path.with_name("other.sqlite"))
    probabilities = connection.execute("SELECT row_probabilities FROM solutions").fetchone()[0]
    connection.close()
    _damage(path, "UPDATE solutions SET row_probabilities = ?", probabilities)


@pytest.mark.parametrize(
    ("damage", "why"),
    [
        (lambda p: _damage(p, "UPDATE solutions SET value = 'abc'"), "not a finite number"),
        (lambda p: _damage(p, "UPDATE solutions SET lower = 1e400"), "not a finite number"),
        (lambda p: _damage(p, "UPDATE solutions SET iterations = 'x'"), "not an integer"),
        (lambda p: _damage(p, "UPDATE solutions SET rules = 'mirror:6-7:2'"), None),
        (lambda p: _damage(p, "UPDATE solutions SET row_probabilities = zeroblob(8)"), "bad"),
        (_foreign_cards, "not the row holding"),
    ],
    ids=["text", "infinite", "count", "rules", "probabilities", "foreign-cards"],
)
def test_a_damaged_row_is_missing_reported_once_and_replaced(tmp_path: Path, damage, why) -> None:
    path = _built(tmp_path)
    value = _solved(None)[1]
    damage(path)
    source, again = _solved(path)
    assert again == value
    holdings = deal(2, TWO).holdings
    assert not source.from_book(*holdings, TWO, "margin")
    if why is not None:  # (a row of other rules is simply not this game's)
        assert len(source.warnings) == 1 and why in source.warnings[0], source.warnings
        assert str(canonical_key(holdings)[0][0]) in source.warnings[0]
        assert not check(path).ok or check(path).damaged == ()
    fixed, _ = _solved(path)
    assert fixed.from_book(*holdings, TWO, "margin") and fixed.warnings == ()


def test_an_unreadable_book_is_one_warning_and_left_untouched(tmp_path: Path) -> None:
    path = _built(tmp_path)
    with Book(path) as book:
        book.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    data[4096 : len(data)] = b"\xff" * (len(data) - 4096)  # overwritten pages
    path.write_bytes(bytes(data))
    source, value = _solved(path)
    assert value == _solved(None)[1]
    assert len(source.warnings) == 1 and str(path) in source.warnings[0]
    assert "solving without the book" in source.warnings[0]
    source(*deal(3, TWO).holdings, TWO, "margin")
    assert len(source.warnings) == 1  # once
    assert path.read_bytes() == bytes(data)
    found = check(path)
    assert not found.ok


def test_book_check_command_reports_damage_and_exits_1(tmp_path: Path) -> None:
    path = _built(tmp_path)
    quintet = [sys.executable, "-m", "solver.cli", "book", "check", "--book", str(path)]
    sound = subprocess.run(quintet, env=ENV, capture_output=True, text=True, timeout=120)
    assert sound.returncode == 0 and "the book is sound" in sound.stdout, sound.stderr
    _damage(path, "UPDATE solutions SET gap = 'x', value = 'y'")
    damaged = subprocess.run(quintet, env=ENV, capture_output=True, text=True, timeout=120)
    assert damaged.returncode == 1, damaged.stderr
    assert "damaged rows: 1" in damaged.stdout and "value 'y'" in damaged.stdout
