"""Words shown to people, in English and in Russian.

:class:`Lang` names the two languages.  A :class:`Phrase` holds both versions of one phrase, and :meth:`Phrase.text`
picks one.  Everything that speaks either language (the reports and words of
the command line, the players' descriptions) keeps its words as phrases, so
that choosing by language is written once, here.

>>> points = Phrase("points", "очки")
>>> points.text("en"), points.text(Lang.RU)
('points', 'очки')
>>> points.text("de")
Traceback (most recent call last):
    ...
solver.errors.QuintetError: lang 'de' is not one of: en, ru
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from solver.errors import QuintetError

__all__ = ["Lang", "Phrase", "language"]


class Lang(str, Enum):
    """Language of human-readable output."""

    EN = "en"
    RU = "ru"


def language(lang: Lang | str) -> Lang:
    """``lang`` as a :class:`Lang`.

    >>> language("ru")
    <Lang.RU: 'ru'>
    >>> language("fr")
    Traceback (most recent call last):
        ...
    solver.errors.QuintetError: lang 'fr' is not one of: en, ru
    """
    try:
        return Lang(lang)
    except ValueError:
        choices = ", ".join(item.value for item in Lang)
        raise QuintetError(f"lang {lang!r} is not one of: {choices}", argument="lang") from None


class Phrase(NamedTuple):
    """One phrase in English and in Russian."""

    english: str
    russian: str

    def text(self, lang: Lang | str) -> str:
        """The phrase in ``lang`` (``"en"`` or ``"ru"``).

        >>> Phrase("draw", "ничья").text("ru")
        'ничья'
        """
        return self.russian if language(lang) is Lang.RU else self.english
