"""What a use case returns: the JSON document, the text for people, and warnings as data.

The document is what ``--json`` prints and what the web API answers: made
once, here.  The text is rendered on demand in the language asked for.
Warnings are never printed by the application layer: each face shows them
its own way (the command line on stderr, speaking of its options; the web
app in its answer).

>>> answer = Answer({"n": 1}, lambda lang: "one" if lang == "en" else "один")
>>> answer.text("ru"), answer.document, answer.warnings
('один', {'n': 1}, ())
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from solver.app.report import Output
from solver.schemas import versioned
from solver.util.language import Lang, language

__all__ = ["Answer", "Notice", "answer_of"]


@dataclass(frozen=True)
class Notice:
    """A warning: ``message`` names request fields, ``fields`` lists which (for the faces)."""

    message: str
    fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Answer:
    """A use case's result: ``document`` (JSON-ready), ``text(lang)``, ``warnings``."""

    document: dict[str, Any]
    render: Callable[[Lang | str], str]
    warnings: tuple[Notice, ...] = field(default=())

    def text(self, lang: Lang | str = Lang.EN) -> str:
        """The report for people, in ``lang``."""
        return self.render(lang)


def answer_of(
    report: Callable[[Lang | str], Output], warnings: tuple[Notice, ...] = (), *, kind: str
) -> Answer:
    """The answer of a report function of the language: its English payload, its text per language.

    The document is stamped with its format, ``"format": "quintet-KIND/N"``
    (:data:`solver.schemas.FORMATS`): the one place every use case's document
    gets it.

    >>> answer = answer_of(lambda lang: Output(f"text in {lang}", {"x": 1}), kind="deal")
    >>> answer.text("ru"), answer.document
    ('text in ru', {'format': 'quintet-deal/1', 'x': 1})
    >>> answer_of(lambda lang: Output("", {}), kind="nothing")
    Traceback (most recent call last):
        ...
    KeyError: 'nothing'
    """
    english = report(Lang.EN)  # the document's, and the English text: built once

    def text(lang: Lang | str) -> str:
        return english.text if language(lang) is Lang.EN else report(lang).text

    return Answer(versioned(kind, english.payload), text, warnings)
