"""``--lang ru`` output of the text reports holds no English word of the page's phrase table.

The words are those of solver/web/static/i18n.js's English table that its
Russian table does not use too (tests/support/phrases.py).  Allowed: the
commands a player types (named in the Russian help: hint, undo, cards, quit),
the computer player's name as given with ``--opponent``, paths and flags.
"""

from __future__ import annotations

import json

import pytest

from solver.game.arrangement import Arrangement
from solver.game.deal import deal
from solver.game.payloads import arrangement_payload
from solver.models.heuristics import greedy_arrangement
from solver.play.players import PLAYER_NAMES
from tests.support.cli import quintet
from tests.support.phrases import command_line_words, leftovers

# The words of the page's phrase table and of the command line's (solver/app/text.py and the others).
WORDS = command_line_words()
TYPED = frozenset(
    {"hint", "undo", "cards", "quit"} | {w for n in PLAYER_NAMES for w in n.split("-")}
)


def _layout(seed: int) -> Arrangement:
    return greedy_arrangement(deal(seed).holdings[0])


def _arrangement(seed: int) -> str:
    return _layout(seed).format()


def test_play_in_russian_is_all_russian(tmp_path):
    book = str(tmp_path / "book.sqlite")
    text = f"{_arrangement(5)}\nn\n"
    done = quintet(
        "play", "--lang", "ru", "--seed", "5", "--opponent", "greedy", "--book", book, input=text
    )
    assert done.returncode == 0, done.stderr
    assert "зерно 5" in done.stdout and "книга решений: " in done.stdout
    assert leftovers(done.stdout, TYPED, WORDS) == []


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
    assert leftovers(done.stdout, TYPED, WORDS) == []
    graded = quintet("grade", "--lang", "ru", "--seed", "6", _arrangement(6), "--book", book)
    assert graded.returncode == 0, graded.stderr
    assert "книга решений: из " in graded.stdout  # solved by train, found in the book now
    assert leftovers(graded.stdout, TYPED, WORDS) == []


def test_the_check_finds_english():
    assert leftovers("оценка: лучшая; equilibrium loss 0.000") == ["equilibrium", "loss"]
    assert leftovers("итераций: 21, converged (--no-book)", words=WORDS) == ["converged"]


def _all_russian(*args: str) -> str:
    """``quintet args --lang ru``'s output, checked to hold no English word of the table."""
    done = quintet(*args, "--lang", "ru")
    assert done.returncode == 0, done.stderr
    assert leftovers(done.stdout, TYPED, WORDS) == [], done.stdout
    return done.stdout


def test_equilibrium_in_russian_is_all_russian_solved_and_from_the_book(tmp_path):
    book = str(tmp_path / "book.sqlite")
    solved = _all_russian("equilibrium", "--seed", "3", "--show", "2", "--ranges", "--book", book)
    assert "книга решений: решено сейчас, сохранено в " in solved
    assert "гарантированная уязвимость: " in solved and "ваша стратегия (раскладок: " in solved
    assert "сходимость достигнута" in solved and "(точно, по симметрии)" in solved
    assert "(ещё раскладок: " in solved and "(в оптимальных стратегиях: " in solved
    looked_up = _all_russian("equilibrium", "--seed", "3", "--show", "2", "--book", book)
    assert "из книги решений, решено ранее (итераций: " in looked_up
    assert "книга решений: из " in looked_up


def test_equilibrium_in_russian_independent_and_win_are_all_russian():
    independent = _all_russian(
        "equilibrium", "--seed", "3", "--show", "1", "--mode", "independent", "--no-book"
    )
    assert "стратегия противника (раскладок: " in independent
    assert "(гарантированно в [" in independent and "не используется (--no-book)" in independent
    win = _all_russian("equilibrium", "--seed", "3", "--show", "1", "--payoff", "win", "--no-book")
    assert "платёж: победа (" in win and "партии)" in win


@pytest.mark.slow
def test_house_report_suggest_and_book_in_russian_are_all_russian(tmp_path):
    book = str(tmp_path / "book.sqlite")
    house = _all_russian("house", "--seed", "3", "--book", book)
    assert "домашнее правило: пакеты «жадные» на позициях 1-5: " in house
    report = _all_russian("report", "--book", book)
    assert "(все сдачи; " in report
    suggest = _all_russian("suggest", "--seed", "3")
    assert "(лучшая из " in suggest
    stats = _all_russian("book", "stats", "--book", book)
    assert "зеркальный режим (очки 3-4-5-6-7), платёж «перевес»: 1 из " in stats
    assert "    позиция 5 (7 очк.): уступает " in stats
    checked = _all_russian("book", "check", "--book", book)
    assert checked.endswith("книга решений в порядке\n")


def test_tournament_in_russian_is_all_russian(tmp_path):
    games = str(tmp_path / "games.csv")
    args = ("tournament", "--players", "random,eq-margin", "--seed", "1", "--csv", games)
    played = _all_russian(*args, "--deals", "1")
    assert "игроков: 2, сдач: 1 (зерно 1, зеркальный режим), процессов: 1, " in played
    assert "random против eq-margin" in played and "парето-фронты (общие для " in played
    resumed = _all_russian(*args, "--deals", "2", "--resume")
    assert "продолжено: сдачи (1) уже были в " in resumed
    assert "играть нечего" in _all_russian(*args, "--deals", "2", "--resume")


def test_analyze_in_russian_is_all_russian(tmp_path):
    history = tmp_path / "history.jsonl"
    record = {"rules": {}, "seed": 6, "arrangement": arrangement_payload(_layout(6))}
    history.write_text(json.dumps(record) + "\n", encoding="utf-8")
    book = str(tmp_path / "book.sqlite")
    analysed = _all_russian("analyze", str(history), "--jobs", "1", "--book", book)
    assert "  строка 1 зерно 6: " in analysed


@pytest.mark.slow
def test_suggest_against_each_model_in_russian_is_all_russian(tmp_path):
    book = str(tmp_path / "book.sqlite")
    played = _all_russian("suggest", "--seed", "3", "--against", "equilibrium", "--book", book)
    assert "против: равновесие (платёж «перевес»)" in played
    assert (
        "движок равновесие" in played and "(выбрана из равновесной стратегии (раскладок: " in played
    )
    greedy = _all_russian("suggest", "--seed", "3", "--against", "greedy")
    assert "против: greedy (" in greedy and "В♥" in greedy.split("против: ")[1]
    sampled = _all_russian("suggest", "--seed", "3", "--objective", "win")
    assert "  на 20000 новых выборках: " in sampled and "(оптимизировано против " in sampled
    mixture = str(tmp_path / "mixture.json")
    _all_russian("equilibrium", "--seed", "3", "--book", book, "--out", mixture)
    against = _all_russian("suggest", "--seed", "3", "--against", mixture, "--top", "2")
    assert "(раскладок: 27)" in against and "движок " in against
