"""Grades through the solution book: :class:`EquilibriumSource`, ``grade``, ``train``, ``play``.

The library tests use a two-position independent game (distinct holdings, so
the seats differ, and quick to solve); the command tests a full mirror deal.
Solves are counted by wrapping the one ``solve`` the book calls.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import solver.book.lookup as lookup_module
import solver.book.source as solutions_module
from solver.analysis.grade import grade
from solver.book.canonical import canonical_key
from solver.book.lookup import look_up, solve_with_book
from solver.book.source import DEFAULT_SOURCE, EquilibriumSource
from solver.book.store import Book
from solver.cli.main import main
from solver.equilibria.equilibrium import Payoff
from solver.game.cards import format_cards
from solver.game.deal import deal
from solver.game.rules import Rules
from solver.models.heuristics import greedy_arrangement
from solver.play.interactive import play
from solver.play.training import Series, train

TWO = Rules(position_points=(6, 7), discard_mode="independent")
MINE, THEIRS = deal(2, TWO).holdings
PLAY = [sys.executable, "-m", "solver.cli", "play", "--seed", "1", "--opponent", "greedy"]
GREEDY3 = greedy_arrangement(deal(3).holdings[0]).format(ascii=True)


@pytest.fixture
def solves(monkeypatch: pytest.MonkeyPatch) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every solve the book (or a bookless EquilibriumSource) starts, as (first, second)."""
    calls: list[tuple[tuple[int, ...], tuple[int, ...]]] = []

    def counting(module):
        original = module.solve

        def solve(first, second, *args, **kwargs):
            calls.append((tuple(first), tuple(second)))
            return original(first, second, *args, **kwargs)

        monkeypatch.setattr(module, "solve", solve)

    counting(lookup_module)
    counting(solutions_module)
    return calls


def test_both_seats_of_a_deal_cost_one_solve_and_the_book_keeps_it(tmp_path: Path, solves):
    assert MINE != THEIRS
    path = tmp_path / "b.sqlite"
    solutions = EquilibriumSource(path)
    mine = solutions(MINE, THEIRS, TWO, Payoff.MARGIN)
    theirs = solutions(THEIRS, MINE, TWO, Payoff.MARGIN)
    assert len(solves) == 1
    assert theirs == mine.transposed()
    assert mine.row.cards == MINE and theirs.row.cards == THEIRS
    assert solutions.from_book(MINE, THEIRS, TWO, "margin") is False
    # Another process (a fresh source) finds it in the book, from either seat.
    again = EquilibriumSource(path)
    assert again(THEIRS, MINE, TWO, Payoff.MARGIN).value == pytest.approx(theirs.value)
    assert again.from_book(MINE, THEIRS, TWO, "margin") is True
    assert len(solves) == 1


def test_a_solution_stored_for_the_other_seat_is_turned_around(tmp_path: Path, solves):
    path = tmp_path / "b.sqlite"
    with Book(path) as book:  # e.g. quintet equilibrium with the holdings the other way round
        stored = solve_with_book(THEIRS, MINE, "margin", TWO, book).result
    assert len(solves) == 1
    solutions = EquilibriumSource(path)
    arrangement = greedy_arrangement(MINE, TWO)
    graded = grade(arrangement, THEIRS, TWO, solver=solutions)
    assert len(solves) == 1 and solutions.from_book(MINE, THEIRS, TWO, "margin") is True
    assert graded.equilibrium.row.cards == MINE
    assert graded.equilibrium.value == pytest.approx(-stored.value)
    reference = grade(
        arrangement, THEIRS, TWO, equilibrium=DEFAULT_SOURCE(MINE, THEIRS, TWO, "margin")
    )
    assert graded.equilibrium_loss == pytest.approx(reference.equilibrium_loss, abs=1e-6)
    assert graded.verdict is reference.verdict


def test_without_the_book_nothing_is_stored(tmp_path: Path, solves):
    solutions = EquilibriumSource(tmp_path / "never.sqlite", use_book=False)
    solutions(MINE, THEIRS, TWO, Payoff.MARGIN)
    solutions(THEIRS, MINE, TWO, Payoff.MARGIN)
    assert solutions.path is None and len(solves) == 1
    assert solutions.from_book(MINE, THEIRS, TWO, "margin") is False
    assert not (tmp_path / "never.sqlite").exists()


def test_only_canonical_equilibria_are_stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # Every store (a lookup's, a source's, a build worker's) answers a solve whose
    # canonical selection gave up, and stores nothing.
    for module in (lookup_module, solutions_module):
        original = module.solve
        monkeypatch.setattr(
            module,
            "solve",
            lambda *a, original=original, **k: original(*a, **{**k, "canonical": False}),
        )
    path = tmp_path / "b.sqlite"
    with Book(path) as book:
        answer = solve_with_book(MINE, THEIRS, "margin", TWO, book)
        assert not answer.result.canonical and answer.result.gap <= 1e-9
        assert look_up(MINE, THEIRS, "margin", TWO, book) is None
    assert not EquilibriumSource(path)(MINE, THEIRS, TWO, Payoff.MARGIN).canonical
    with Book(path) as book:
        assert look_up(MINE, THEIRS, "margin", TWO, book) is None
    key = canonical_key((MINE, THEIRS))[0]
    assert lookup_module.solve_canonical(key, TWO, "margin") is None


def scripted(entries: list[str]):
    queue = list(entries)

    def read(prompt: str) -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)

    return read


def test_play_against_eq_margin_solves_the_deal_once(solves):
    """The computer's equilibrium, the hint and both grades share one solve."""
    packet = format_cards(MINE[:5], ascii=True)
    written: list[str] = []
    solutions = EquilibriumSource(use_book=False)
    status = play(
        MINE,
        THEIRS,
        TWO,
        "eq-margin",
        np.random.default_rng(0),
        scripted(["hint", packet]),
        written.append,
        solver=solutions,
    )
    assert status == 0
    assert solves == [(min(MINE, THEIRS), max(MINE, THEIRS))]
    assert any(line.startswith("Hint (an equilibrium arrangement): ") for line in written)


def test_train_grades_through_the_given_solver(tmp_path: Path, solves):
    series = Series(deals=2, seed=4, rules=TWO)
    typed = [
        greedy_arrangement(deal(4 + k, TWO).holdings[0], TWO).format(ascii=True) for k in range(2)
    ]
    path = tmp_path / "b.sqlite"
    for expected_solves in (2, 2):  # the second series finds both deals in the book
        written: list[str] = []
        solutions = EquilibriumSource(path)
        train(
            series,
            scripted(typed),
            written.append,
            describe=lambda g: [f"loss {g.equilibrium_loss:.6f}"],
            solver=solutions,
        )
        assert len(solves) == expected_solves
    assert all(solutions.from_book(*deal(4 + k, TWO).holdings, TWO, "margin") for k in range(2))


def _grade_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["grade", GREEDY3, "--seed", "3", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_grade_command_uses_the_book_and_says_so(tmp_path: Path, capsys):
    book = str(tmp_path / "b.sqlite")
    first = _grade_json(capsys, "--book", book)
    second = _grade_json(capsys, "--book", book)
    fresh = _grade_json(capsys, "--no-book")
    assert first.pop("book") == {"path": book, "from_book": False, "stored": True}
    assert second.pop("book") == {"path": book, "from_book": True, "stored": True}
    assert fresh.pop("book") is None
    expected = grade(greedy_arrangement(deal(3).holdings[0]), deal(3).holdings[1])
    for document in (first, second, fresh):
        assert document["equilibrium_loss"] == pytest.approx(expected.equilibrium_loss, abs=1e-6)
        assert document["verdict"] == expected.verdict.value
    assert main(["grade", GREEDY3, "--seed", "3", "--book", book]) == 0
    assert capsys.readouterr().out.rstrip().endswith(f"book: from {book}")


def test_grade_command_bad_book_is_one_warning_and_an_answer(tmp_path: Path, capsys):
    bad = tmp_path / "notes.sqlite"
    bad.write_text("my notes\n")
    assert main(["grade", GREEDY3, "--book", str(bad)]) == 0
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and captured.err.startswith("quintet: warning: --book: ")
    assert "not a solution book" in captured.err and "solving without the book" in captured.err
    assert "not stored" in captured.out
    assert bad.read_text() == "my notes\n"


def test_play_command_reports_the_book(tmp_path: Path):
    book = tmp_path / "b.sqlite"
    holding = deal(1).holdings[0]
    typed = greedy_arrangement(holding).format(ascii=True)
    proc = subprocess.run(
        [*PLAY, "--book", str(book)],
        input=f"{typed}\nn\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=dict(os.environ, PYTHONIOENCODING="utf-8"),
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    # Both grades (yours and the computer's) are of one deal, solved once and stored.
    assert proc.stdout.count(f"book: solved, stored in {book}") == 2
    assert book.exists()
