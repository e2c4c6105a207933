"""``quintet book`` and the book options of ``equilibrium`` and ``suggest``."""

from __future__ import annotations

import json
import os
import sqlite3
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from solver.book.canonical import relabel
from solver.cli.main import main
from solver.game.cards import format_cards
from solver.game.deal import deal, deal_seed

SEED = deal_seed(0, 0)  # deal 0 of a build seeded 0


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A book of one seeded deal (margin payoff), built by the command."""
    path = tmp_path_factory.mktemp("book") / "book.sqlite"
    assert main(["book", "build", "--book", str(path), "--deals", "1", "--seed", "0"]) == 0
    return path


def test_stats_count_the_built_deal(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stats = _json(capsys, "book", "stats", "--book", str(built))
    assert stats["deals"] == 1
    (game,) = stats["games"]
    assert game["payoff"] == "margin" and game["classes"] == 156_248
    assert sum(game["combinations_by_position"][0].values()) == pytest.approx(1.0)
    assert game["value"]["mean"] == 0.0  # mirror deals are symmetric


def test_a_rebuild_solves_nothing(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = _json(capsys, "book", "build", "--book", str(built), "--deals", "1")
    assert (report["asked"], report["stored_before"], report["solved"]) == (1, 1, 0)


def test_equilibrium_and_suggest_answer_from_the_book(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = _json(capsys, "equilibrium", "--seed", str(SEED), "--book", str(built))
    assert answer["book"] == {"path": str(built), "from_book": True, "stored": True}
    assert answer["gap"] <= 1e-9
    # The same deal with its suits relabelled is the same class.
    holding = deal(SEED).holdings[0]
    relabelled = format_cards(relabel(holding, 9), ascii=True)
    other = _json(capsys, "equilibrium", relabelled, "--book", str(built))
    assert other["book"]["from_book"] is True
    assert other["value"] == answer["value"]
    suggestion = _json(
        capsys, "suggest", "--seed", str(SEED), "--against", "equilibrium", "--book", str(built)
    )
    assert suggestion["book"]["from_book"] is True
    stats = _json(capsys, "book", "stats", "--book", str(built))
    assert stats["deals"] == 1  # nothing new was stored


def test_no_book_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    answer = _json(capsys, "equilibrium", "--seed", "5", "--no-book", "--tolerance", "1")
    assert answer["book"] is None


def test_the_default_book_is_in_the_cache_directory(_private_cache: Path) -> None:
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "solver.cli",
            "equilibrium",
            "--seed",
            "5",
            "--json",
            "--tolerance",
            "1",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    default = _private_cache / "quintet-solver" / "book.sqlite"
    assert json.loads(done.stdout)["book"] == {
        "path": str(default),
        "from_book": False,
        "stored": True,
    }
    assert default.exists()


@pytest.mark.parametrize(
    ("command", "status", "kind"),
    [
        (["equilibrium", "--seed", "5"], 0, "warning"),  # answered without the book
        (["book", "stats"], 2, "error"),  # the book is the work: an error
        (["book", "check"], 2, "error"),
    ],
)
def test_a_bad_book_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str], status, kind
) -> None:
    bad = tmp_path / "notes.sqlite"
    bad.write_text("my notes\n")
    assert main([*command, "--book", str(bad)]) == status
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"quintet: {kind}: --book: ") and "not a solution book" in err
    assert bad.read_text() == "my notes\n"


def test_build_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = str(tmp_path / "b.sqlite")
    assert main(["book", "build", "--book", book]) == 2  # neither --deals nor --all
    assert main(["book", "build", "--book", book, "--all", "--mode", "independent"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2
    assert "--deals" in lines[0] and lines[1].startswith("quintet: error: --deals")
    assert main(["book", "build", "--book", book, "--deals", "1", "--scheduler", "x:1"]) == 2
    assert "--scheduler" in capsys.readouterr().err


def test_stats_of_a_missing_book_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.sqlite"
    assert main(["book", "stats", "--book", str(missing)]) == 2
    assert "no such file" in capsys.readouterr().err
    assert not missing.exists()


def _copy(built: Path, tmp_path: Path) -> Path:
    path = tmp_path / "book.sqlite"
    with sqlite3.connect(built) as source, sqlite3.connect(path) as target:
        source.backup(target)  # the log folded in: one file
    source.close()
    target.close()
    return path


def _quintet(*argv: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "solver.cli", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def test_a_tampered_row_is_not_printed_as_certified(built: Path, tmp_path: Path) -> None:
    path = _copy(built, tmp_path)
    with sqlite3.connect(path) as connection:  # its first arrangement with probability 1
        cards, probabilities = connection.execute(
            "SELECT row_cards, row_probabilities FROM solutions"
        ).fetchone()
        assert len(probabilities) > 8  # a mixed equilibrium
        connection.execute(
            "UPDATE solutions SET row_cards = ?, row_probabilities = ?",
            (cards[:25], struct.pack("<d", 1.0)),
        )
    connection.close()
    checked = _quintet("book", "check", "--book", str(path))
    assert checked.returncode == 1, checked.stderr
    assert "damaged rows: 1" in checked.stdout and "does not hold" in checked.stdout
    answer = _quintet("equilibrium", "--seed", str(SEED), "--book", str(path), "--json")
    assert answer.returncode == 0, answer.stderr
    (warning,) = answer.stderr.splitlines()
    assert warning.startswith("quintet: warning: --book: the solution of deal (")
    assert "does not hold" in warning and warning.endswith("it is solved again")
    document = json.loads(answer.stdout)
    assert document["book"]["from_book"] is False and document["gap"] <= 1e-9
    assert _quintet("book", "check", "--book", str(path)).returncode == 0  # replaced


def test_a_huge_row_is_reported_by_check_and_skipped_by_stats(built: Path, tmp_path: Path) -> None:
    path = _copy(built, tmp_path)
    with sqlite3.connect(path) as connection:  # well formed: 20,000 arrangements
        cards = connection.execute("SELECT row_cards FROM solutions").fetchone()[0]
        connection.execute(
            "UPDATE solutions SET row_cards = ?, row_probabilities = ?",
            (cards[:25] * 20_000, struct.pack("<20000d", *[1 / 20_000] * 20_000)),
        )
    connection.close()
    checked = _quintet("book", "check", "--book", str(path), "--json")
    assert checked.returncode == 1 and "Traceback" not in checked.stderr, checked.stderr
    (damaged,) = json.loads(checked.stdout)["damaged"]
    assert "implausible" in damaged["why"]
    stats = _quintet("book", "stats", "--book", str(path), "--json")
    assert stats.returncode == 0, stats.stderr
    (warning,) = stats.stderr.splitlines()
    assert warning.startswith("quintet: warning: --book: ") and "implausible" in warning
    assert warning.endswith("left out")
    assert json.loads(stats.stdout)["games"] == []
