"""The solution book: store, lookups mapped back through the suits, resumable builds."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from solver.book.build import BuildProgress, build, seeded_keys
from solver.book.canonical import INVERSES, canonical_key, relabel
from solver.book.lookup import solve_with_book
from solver.book.store import SCHEMA_VERSION, Book, default_book_path
from solver.equilibria.equilibrium import EquilibriumResult, Payoff, solve
from solver.errors import BookError
from solver.game.deal import deal, deal_seed
from solver.game.rules import Rules
from solver.models.opponents import Objective
from solver.response.frontier_response import frontier_best_response

SMALL = Rules(position_points=(6, 7))
SMALL_INDEPENDENT = Rules(position_points=(6, 7), discard_mode="independent")
THREE = Rules(position_points=(5, 6, 7), discard_mode="independent")


def _bounds(
    result: EquilibriumResult, first: tuple[int, ...], second: tuple[int, ...]
) -> tuple[float, float]:
    """Lower and upper bounds of the value recomputed with exact best responses."""
    rules = result.rules
    objective = Objective.MARGIN if result.payoff is Payoff.MARGIN else Objective.GAME_RESULT
    against_column = frontier_best_response(
        first, result.column.opponent(rules, holding=second), objective
    )
    against_row = frontier_best_response(
        second, result.row.opponent(rules, holding=first), objective
    )
    if result.payoff is Payoff.MARGIN:
        return -against_row.value, against_column.value
    return 1.0 - against_row.value, against_column.value


def test_default_book_follows_xdg_cache_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_book_path() == tmp_path / "quintet-solver" / "book.sqlite"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_book_path() == Path.home() / ".cache" / "quintet-solver" / "book.sqlite"


def test_the_test_suite_never_uses_the_real_cache() -> None:
    assert not str(default_book_path()).startswith(str(Path.home() / ".cache"))


def test_seeded_keys_are_the_series_deals_each_once() -> None:
    keys = seeded_keys(12, 3, SMALL)
    expected = [canonical_key(deal(deal_seed(3, i), SMALL).holdings)[0] for i in range(12)]
    assert keys == list(dict.fromkeys(expected))


@pytest.mark.parametrize(
    ("rules", "payoff"),
    [(SMALL, "margin"), (SMALL, "win"), (THREE, "margin"), (THREE, "win")],
)
def test_a_stored_strategy_mapped_back_is_an_equilibrium_of_the_relabelled_deal(
    tmp_path: Path, rules: Rules, payoff: str
) -> None:
    holdings = deal(11, rules).holdings
    with Book(tmp_path / "b.sqlite") as book:
        stored = solve_with_book(holdings[0], holdings[1], payoff, rules, book)
        assert not stored.from_book
        for g in (0, 7, 23):
            first, second = (tuple(sorted(relabel(h, g))) for h in holdings)
            answer = solve_with_book(first, second, payoff, rules, book)
            assert answer.from_book
            result = answer.result
            # The strategies are of this deal's cards...
            assert result.row.cards == first and result.column.cards == second
            # ...and certified by exact best responses with the stored bounds.
            lower, upper = _bounds(result, first, second)
            assert lower == pytest.approx(result.lower, abs=1e-9)
            assert upper == pytest.approx(result.upper, abs=1e-9)
            assert upper - lower <= 1e-8
            # The same value as solving the relabelled deal afresh.
            assert solve(first, second, rules, payoff).value == pytest.approx(
                result.value, abs=1e-8
            )
        assert book.count() == 1


def test_entries_round_trip(tmp_path: Path) -> None:
    holdings = deal(4, THREE).holdings
    with Book(tmp_path / "b.sqlite") as book:
        solved = solve_with_book(holdings[0], holdings[1], "win", THREE, book).result
        (entry,) = list(book.entries(THREE, "win"))
    key, _ = canonical_key(holdings)
    assert entry.key == key and entry.payoff is Payoff.GAME_RESULT and entry.rules == THREE
    stored = entry.equilibrium()
    assert stored.value == pytest.approx(solved.value)
    assert (stored.lower, stored.upper) == (solved.lower, solved.upper)
    assert stored.row.probabilities == solved.row.probabilities
    # The book solved the canonical deal: its strategies, relabelled, are the ones returned.
    _, g = canonical_key(holdings)
    assert entry.equilibrium(int(INVERSES[g])).row == solved.row


def test_a_worse_gap_never_replaces_a_better_one(tmp_path: Path) -> None:
    holdings = deal(2, THREE).holdings
    with Book(tmp_path / "b.sqlite") as book:
        exact = solve_with_book(holdings[0], holdings[1], "margin", THREE, book).result
        # A looser request is answered from the book; nothing is re-solved.
        assert solve_with_book(
            holdings[0], holdings[1], "margin", THREE, book, tolerance=1.0
        ).from_book
        (entry,) = list(book.entries(THREE, "margin"))
        assert entry.gap == exact.gap


def _refuses_untouched(path: Path, match: str) -> None:
    before = path.read_bytes()
    with pytest.raises(BookError, match=match) as caught:
        Book(path)
    assert caught.value.argument == "book"
    assert path.read_bytes() == before
    assert not Path(f"{path}-wal").exists() and not Path(f"{path}-journal").exists()


def test_a_file_that_is_not_a_book_is_refused_untouched(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n")
    _refuses_untouched(text, "not an SQLite file")
    # (an empty file is what a crash left of a new book: recreated, tests/book/test_opening.py)
    other = tmp_path / "other.sqlite"
    connection = sqlite3.connect(other)
    connection.execute("CREATE TABLE t (x)")
    connection.commit()
    connection.close()
    _refuses_untouched(other, "not a solution book")


def _book_of_schema(path: Path, schema: int) -> None:
    """An empty book at ``path`` that says it has ``schema``, its log folded into the file."""
    Book(path).close()
    connection = sqlite3.connect(path)
    connection.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(schema),))
    connection.commit()
    connection.execute("PRAGMA journal_mode=DELETE")
    connection.close()


def test_a_newer_schema_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "b.sqlite"
    _book_of_schema(path, SCHEMA_VERSION + 1)
    _refuses_untouched(path, "newer than this solver's")


def test_an_older_schema_is_refused_untouched_naming_both_versions(tmp_path: Path) -> None:
    # A schema-1 book holds non-canonical equilibria: never read as if canonical.
    path = tmp_path / "b.sqlite"
    _book_of_schema(path, 1)
    _refuses_untouched(path, f"has schema 1, older than this solver's {SCHEMA_VERSION}")


def test_an_old_book_is_a_notice_and_the_deal_is_solved_without_it(tmp_path: Path) -> None:
    from solver.book.source import EquilibriumSource
    from solver.game.rules import Rules

    path = tmp_path / "b.sqlite"
    _book_of_schema(path, 1)
    two, h = Rules(position_points=(6, 7)), tuple(range(10))
    source = EquilibriumSource(path)
    assert source(h, h, two, "margin").gap <= 1e-9
    assert any("older than this solver's" in w for w in source.warnings)


def _rows(path: Path) -> list[tuple[object, ...]]:
    connection = sqlite3.connect(path)
    try:
        return connection.execute(
            "SELECT rules, payoff, first, second, orbit, value, lower, upper FROM solutions "
            "ORDER BY rules, payoff, first, second"
        ).fetchall()
    finally:
        connection.close()


def test_seeded_build_stores_exactly_the_deals_asked_for(tmp_path: Path) -> None:
    path = tmp_path / "b.sqlite"
    first = build(path, SMALL_INDEPENDENT, ["margin", "win"], deals=6, seed=3, batch=4)
    assert (first.asked, first.stored_before, first.solved) == (12, 0, 12)
    grown = build(path, SMALL_INDEPENDENT, ["margin", "win"], deals=10, seed=3, batch=4)
    assert (grown.asked, grown.stored_before, grown.solved) == (20, 12, 8)
    clean = tmp_path / "clean.sqlite"
    build(clean, SMALL_INDEPENDENT, ["margin", "win"], deals=10, seed=3)
    assert _rows(path) == _rows(clean)
    keys = {(r[2], r[3]) for r in _rows(path)}
    assert keys == set(seeded_keys(10, 3, SMALL_INDEPENDENT))


def test_build_of_every_class_needs_mirror_rules(tmp_path: Path) -> None:
    with pytest.raises(BookError, match=r"^deals"):
        build(tmp_path / "b.sqlite", SMALL_INDEPENDENT, ["margin"], deals=None)


def test_local_pool_build_equals_inline_build(tmp_path: Path) -> None:
    build(tmp_path / "pool.sqlite", SMALL_INDEPENDENT, ["margin"], deals=8, seed=5, jobs=2)
    build(tmp_path / "inline.sqlite", SMALL_INDEPENDENT, ["margin"], deals=8, seed=5)
    assert _rows(tmp_path / "pool.sqlite") == _rows(tmp_path / "inline.sqlite")


_STOPPING_BUILD = textwrap.dedent(
    """
    import sys, threading
    from solver.book.build import build
    from solver.game.rules import Rules
    rules = Rules(position_points=(6, 7), discard_mode="independent")

    def stop_mid_way(progress):
        # Eight solves finished, at least six committed (batches of three):
        # say so, and wait for the SIGKILL.
        if progress.done >= 8:
            print("ready", flush=True)
            threading.Event().wait()

    build(sys.argv[1], rules, ["margin", "win"], deals=int(sys.argv[2]), seed=9, batch=3,
          on_progress=stop_mid_way)
    """
)


def _count(path: Path) -> int:
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            return int(connection.execute("SELECT COUNT(*) FROM solutions").fetchone()[0])
        finally:
            connection.close()
    except sqlite3.Error:
        return 0


def test_a_build_killed_with_sigkill_resumes_to_the_clean_result(tmp_path: Path) -> None:
    path, deals = tmp_path / "killed.sqlite", 40
    command = [sys.executable, "-c", _STOPPING_BUILD, str(path), str(deals)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE)
    try:
        assert process.stdout is not None
        ready = process.stdout.readline()  # the build is mid-way, waiting
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.kill()
        process.wait()
    assert ready == b"ready\n"
    partial = _count(path)
    assert 6 <= partial < 2 * deals
    assert process.returncode == -signal.SIGKILL
    resumed = build(path, SMALL_INDEPENDENT, ["margin", "win"], deals=deals, seed=9)
    assert resumed.stored_before == partial and resumed.solved == 2 * deals - partial
    clean = tmp_path / "clean.sqlite"
    build(clean, SMALL_INDEPENDENT, ["margin", "win"], deals=deals, seed=9)
    assert _rows(path) == _rows(clean)


def test_a_dask_build_survives_a_killed_worker(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    path, deals = tmp_path / "dask.sqlite", 30
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    killed: list[int] = []
    try:
        with distributed.Client(cluster) as client:
            pids = list(client.run(os.getpid).values())

        def kill_a_worker_mid_build(progress: BuildProgress) -> None:
            # Six solves finished, at least five committed (batches of two).
            if not killed and progress.done >= 6:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(_count(path))

        summary = build(
            path,
            SMALL_INDEPENDENT,
            ["margin", "win"],
            deals=deals,
            seed=9,
            backend="dask",
            scheduler=cluster.scheduler_address,
            batch=2,
            on_progress=kill_a_worker_mid_build,
        )
    finally:
        cluster.close()
    assert killed and 4 <= killed[0] < 2 * deals  # the worker died mid-build
    assert summary.solved == 2 * deals
    clean = tmp_path / "clean.sqlite"
    build(clean, SMALL_INDEPENDENT, ["margin", "win"], deals=deals, seed=9)
    assert _rows(path) == _rows(clean)


def test_lookups_decode_what_was_stored(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    with Book(tmp_path / "b.sqlite") as book:
        for seed in rng.integers(0, 10_000, size=3).tolist():
            h = deal(seed, SMALL).holdings
            a = solve_with_book(h[0], h[1], "margin", SMALL, book).result
            b = solve_with_book(h[0], h[1], "margin", SMALL, book).result
            assert a.row == b.row and a.value == b.value


def test_a_corrupt_strategy_is_missing_and_replaced_not_a_wrong_answer(tmp_path: Path) -> None:
    path = tmp_path / "b.sqlite"
    holdings = deal(2, SMALL).holdings
    with Book(path) as book:
        solve_with_book(holdings[0], holdings[1], "margin", SMALL, book)
    connection = sqlite3.connect(path)
    connection.execute("UPDATE solutions SET row_cards = zeroblob(LENGTH(row_cards))")
    connection.commit()
    connection.close()
    with Book(path) as book:
        answer = solve_with_book(holdings[0], holdings[1], "margin", SMALL, book)
        assert not answer.from_book
        assert len(book.notices) == 1 and "is damaged" in book.notices[0]
    with Book(path) as book:  # the damaged row was replaced by the new solve
        again = solve_with_book(holdings[0], holdings[1], "margin", SMALL, book)
        assert again.from_book and again.result.value == answer.result.value
        assert book.notices == []


def test_a_read_only_book_is_a_book_error_on_write(tmp_path: Path) -> None:
    path = tmp_path / "b.sqlite"
    holdings = deal(2, SMALL).holdings
    with Book(path) as book:
        solve_with_book(holdings[0], holdings[1], "margin", SMALL, book)
    with Book(path) as book:
        book.connection.execute("PRAGMA query_only = ON")  # as if the file were read-only
        other = deal(3, SMALL).holdings
        with pytest.raises(BookError, match="cannot write"):
            solve_with_book(other[0], other[1], "margin", SMALL, book)
