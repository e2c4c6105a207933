"""The library's input errors in Russian: the command line with ``--lang ru``,
and the web pages (which show them in their own words, tests/web/test_page_words.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from solver.analysis.where import parse_where
from solver.app.analyze import AnalyzeRequest, analyze
from solver.app.error_text import error_text, known_in_russian
from solver.app.requests import holdings
from solver.errors import QuintetError
from solver.game.arrangement import Arrangement
from solver.game.cards import parse_cards
from solver.game.deal import deal
from solver.game.rules import DiscardMode, Rules
from tests.support.cli import quintet

INDEPENDENT = Rules(discard_mode=DiscardMode.INDEPENDENT)
HOLDING = deal(1).holdings[0]
LAYOUT = "As Ah Ad Kh Kd | Kc Qh Qd Qc Jh | Jd Jc Ts Th Td | Tc 9s 9h 9d 9c | 8d 8c 7s 7h 7c"

# What a player can get wrong on the command line or a page, each raising its error.
MISTAKES: dict[str, Callable[[], Any]] = {
    "no suit": lambda: parse_cards("A"),
    "one letter": lambda: parse_cards("X"),
    "rank not in the deck": lambda: parse_cards("5s"),
    "unknown rank": lambda: parse_cards("Xs"),
    "latin B": lambda: parse_cards("Bs"),
    "unknown suit": lambda: parse_cards("Ax"),
    "latin k": lambda: parse_cards("Ak"),
    "duplicate": lambda: parse_cards("As As"),
    "too few": lambda: parse_cards("As Ks", count=25),
    "packets": lambda: Arrangement.parse("As Ks Qs Js Ts", n_packets=5),
    "short packet": lambda: Arrangement.parse("As Ks | Qs Js Ts 9s 8s", n_packets=2),
    "bad card in a packet": lambda: Arrangement.parse("As Ks Qs Js Xs"),
    "twice": lambda: Arrangement(((0, 1, 2, 3, 4), (4, 5, 6, 7, 8))),
    "not the holding": lambda: Arrangement.parse(LAYOUT.replace("7c", "7d")).check(
        deal(2).holdings[0]
    ),
    "opponent needed": lambda: holdings(LAYOUT.replace("|", ""), None, None, INDEPENDENT),
    "opponent alone": lambda: holdings(None, "As", None, Rules()),
    "mirror": lambda: holdings(
        LAYOUT.replace("|", ""), LAYOUT.replace("|", "").replace("7c", "8s"), None, Rules()
    ),
    "seed": lambda: deal(-1),
    "points": lambda: Rules(position_points=(3, 0)),
    "filter name": lambda: parse_where("kings > 1"),
    "filter end": lambda: parse_where("aces >="),
    "filter character": lambda: parse_where("aces >= 3 ; kings"),
    "filter operator": lambda: parse_where("aces 3"),
    "empty history": lambda: analyze(AnalyzeRequest(content="")),
    "history of bad lines": lambda: analyze(
        AnalyzeRequest(content='{"seed": 1}\nnot json\n{"seed": -1, "arrangement": "As"}\n')
    ),
    "history header": lambda: analyze(AnalyzeRequest(content="seed,cards\n1,As\n")),
}


# Request fields (each face names them its own way), the filter's names, a history's columns.
TYPED = {"cards", "where", "fours", "aces", "value", "support", "top"}
TYPED |= {"seed", "holding", "mode", "arrangement", "rules"}  # a history's fields and columns


def _mistake(name: str) -> str:
    with pytest.raises(QuintetError) as raised:
        MISTAKES[name]()
    return str(raised.value)


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_every_input_mistake_has_a_russian_message(name):
    message = _mistake(name)
    assert known_in_russian(message), message
    russian = error_text(message, "ru")
    # Left in Latin letters: only what the player typed (quoted), card names, request fields
    # and the names the filter knows (typed as they are).
    rest = re.sub(r"'[^']*'|\"[^\"]*\"|\b[a-z]+_[a-z_]+\b", "", russian)
    assert set(re.findall(r"[A-Za-z]{3,}", rest)) <= TYPED, russian
    assert error_text(message, "en") == message


def test_the_command_line_speaks_russian_errors_with_its_flags():
    done = quintet("eval", "As Ks Qs Js Xs", "--lang", "ru")
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "quintet: ошибка: карта 'Xs': неизвестное достоинство 'X' "
        "(достоинства: 7 8 9 10 J Q K A или В Д К Т)"
    )
    english = quintet("eval", "As Ks Qs Js Xs")
    assert english.stderr.startswith("quintet: error: card 'Xs': unknown rank 'X'")
    grade = quintet("grade", "--seed", "1", "As Ks Qs Js Ts", "--lang", "ru", "--no-book")
    assert grade.returncode == 2
    assert grade.stderr.strip() == "quintet: ошибка: нужно 5 пакетов через '|', а дано 1"


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (("suggest", "--seed", "x"), "quintet suggest: аргумент --seed: 'x' — не целое число"),
        (("eval",), "quintet eval: нужны аргументы: CARDS"),
        (("suggest", "--seed"), "quintet suggest: аргумент --seed: нужно значение"),
        (
            ("suggest", "--mode", "foo"),
            "quintet suggest: аргумент --mode: недопустимое значение 'foo' "
            "(на выбор: 'mirror', 'independent')",
        ),
        (("eval", "As Ks Qs Js Ts", "extra"), "quintet eval: непонятные аргументы: extra"),
        (("play", "--json"), "quintet play: --json недоступен в интерактивной игре"),
    ],
)
def test_the_command_lines_usage_errors_in_russian(capsys, args, line):
    from solver.cli.main import main

    assert main([*args, "--lang", "ru"]) == 2
    assert capsys.readouterr().err.strip() == line
    assert main(list(args)) == 2
    assert "аргумент" not in capsys.readouterr().err  # English without --lang ru


def test_the_command_lines_warnings_in_russian(capsys):
    from solver.cli.main import main

    assert main(["deal", "--seed", "1", "--json", "--lang", "ru"]) == 0
    assert capsys.readouterr().err.strip() == (
        "quintet: предупреждение: --lang действует на текст, не на --json"
    )
