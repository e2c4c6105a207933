"""The page's words for the library's errors: its language, and its fields by their names.

The pages send ``Accept-Language`` (their language: ``en`` or ``ru``); an
error the server answers with (a 400, or a job's ``error``) is then in that
language (:func:`~solver.app.error_text.error_text`), and the request fields
it names (``opponent_cards``, ``against="equilibrium"``) are spoken as the
page names them ("the opponent's cards", "карты противника").

>>> page_error("opponent_cards are needed in independent mode", "ru", ["opponent_cards"])
'В независимом режиме нужны карты противника'
>>> page_error("opponent_cards are needed in independent mode", "en")
"The opponent's cards are needed in independent mode"
>>> page_error(3, "en")
Traceback (most recent call last):
    ...
TypeError: message must be a str, got 3
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from solver.app.error_text import error_text
from solver.util.checks import check_instance
from solver.util.language import Lang, Phrase, language

__all__ = ["FIELDS", "page_error", "request_language"]

FIELDS: dict[str, Phrase] = {
    "cards": Phrase("your cards", "ваши карты"),
    "opponent_cards": Phrase("the opponent's cards", "карты противника"),
    "arrangement": Phrase("your packets", "ваши пакеты"),
    "against": Phrase("the opponent model", "модель противника"),
    "objective": Phrase("the objective", "цель"),
    "payoff": Phrase("the payoff", "выигрыш"),
    "seed": Phrase("the seed", "зерно"),
    "time_limit": Phrase("the time limit", "лимит времени"),
    "history": Phrase("the history", "история"),
    "where": Phrase("the filter", "фильтр"),
    "top": Phrase("the number of suggestions", "число предложений"),
    "fixed": Phrase("the fixed packets", "закреплённые пакеты"),
    "room_code": Phrase("the room code", "код комнаты"),
}
"""The request fields a page's error can name, as the page calls them."""


def request_language(accept: str | None) -> Lang:
    """The page's language from its ``Accept-Language`` header (English unless Russian first).

    >>> request_language("ru-RU,ru;q=0.9"), request_language(None)
    (<Lang.RU: 'ru'>, <Lang.EN: 'en'>)
    """
    first = (accept or "").split(",")[0].strip().lower()
    return Lang.RU if first.split(";")[0].split("-")[0] == "ru" else Lang.EN


def page_error(message: str, lang: Lang | str, fields: Iterable[str | None] = ()) -> str:
    """The library's error ``message`` as the page shows it: in ``lang``, fields in its words.

    A field is spoken of as the page names it where the message writes ``field="value"``,
    where it starts the message, and anywhere for the ``fields`` the error names (its
    argument and mentions); elsewhere a name stays (a history's column list, say).

    >>> page_error("cards: expected 25 cards, got 2", "en")
    'Your cards: expected 25 cards, got 2'
    """
    check_instance(message, str, "message")
    lang = language(lang)
    text = error_text(message, lang)
    named = {name for name in fields if name}
    for name, words in FIELDS.items():
        word = words.text(lang)
        text = re.sub(rf'(?<![\w-]){re.escape(name)}="([^"]*)"', rf"{word} «\1»", text)
        if name in named:
            text = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", word, text)
        elif re.match(rf"{re.escape(name)}(?![\w-])", text):
            text = word + text[len(name) :]
    return text[:1].upper() + text[1:]
