"""``--lang ru`` output of play, train and grade holds no English word of the page's phrase table.

The words are those of solver/web/static/i18n.js's English table that its
Russian table does not use too (tests/support/phrases.py).  Allowed: the
commands a player types (named in the Russian help: hint, undo, cards, quit),
the computer player's name as given with ``--opponent``, paths and flags.
"""

from __future__ import annotations

from solver.game.deal import deal
from solver.models.heuristics import greedy_arrangement
from solver.play.registry import PLAYER_NAMES
from tests.support.cli import quintet
from tests.support.phrases import leftovers

TYPED = frozenset(
    {"hint", "undo", "cards", "quit"} | {w for n in PLAYER_NAMES for w in n.split("-")}
)


def _arrangement(seed: int) -> str:
    return greedy_arrangement(deal(seed).holdings[0]).format()


def test_play_in_russian_is_all_russian(tmp_path):
    book = str(tmp_path / "book.sqlite")
    text = f"{_arrangement(5)}\nn\n"
    done = quintet(
        "play", "--lang", "ru", "--seed", "5", "--opponent", "greedy", "--book", book, input=text
    )
    assert done.returncode == 0, done.stderr
    assert "зерно 5" in done.stdout and "книга решений: " in done.stdout
    assert leftovers(done.stdout, TYPED) == []


def test_train_and_grade_in_russian_are_all_russian(tmp_path):
    book = str(tmp_path / "book.sqlite")
    done = quintet(
        "train",
        "--lang",
        "ru",
        "--seed",
        "6",
        "--deals",
        "1",
        "--book",
        book,
        input=f"{_arrangement(6)}\n",
    )
    assert done.returncode == 0, done.stderr
    assert "книга решений: " in done.stdout
    assert leftovers(done.stdout, TYPED) == []
    graded = quintet("grade", "--lang", "ru", "--seed", "6", _arrangement(6), "--book", book)
    assert graded.returncode == 0, graded.stderr
    assert "книга решений: из " in graded.stdout  # solved by train, found in the book now
    assert leftovers(graded.stdout, TYPED) == []


def test_the_check_finds_english():
    assert leftovers("оценка: лучшая; equilibrium loss 0.000") == ["equilibrium", "loss"]
