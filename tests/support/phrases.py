"""The phrase tables, the page's (solver/web/static/i18n.js) and the command line's
(every ``Phrase(english, russian)`` in solver/), to find English left in Russian text.

>>> "equilibrium" in english_words(), "seed" in english_words()  # "{seed}" is no Russian word
(True, True)
>>> "canonical" in command_line_words(), "canonical" in english_words()
(True, False)
>>> leftovers("движок frontier"), leftovers("движок frontier", words=command_line_words())
([], ['frontier'])
>>> leftovers("Оценка: лучшая; equilibrium loss 0.000, book: from /tmp/b.sqlite")
['equilibrium', 'loss', 'book', 'from']
>>> leftovers("книга решений: не используется (--no-book); book")
['book']
"""

from __future__ import annotations

import ast
import re
from functools import cache

from tests.support import REPO

I18N = REPO / "solver" / "web" / "static" / "i18n.js"
SOLVER = REPO / "solver"
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_WORD = re.compile(r"[A-Za-z]{3,}")
_PLACEHOLDER = re.compile(r"\{\w+\}")
_FLAG = re.compile(r"--[A-Za-z][\w-]*")


def _words(text: str) -> set[str]:
    # A placeholder, "{seed}", is filled in, not shown: its name is no word of the table.
    strings = (_PLACEHOLDER.sub("", s) for s in _STRING.findall(text))
    return {w.lower() for s in strings for w in _WORD.findall(s)}


def _shown(text: str) -> set[str]:
    """The words of one phrase, its placeholders and flags aside."""
    return {w.lower() for w in _WORD.findall(_FLAG.sub("", _PLACEHOLDER.sub("", text)))}


def _phrases() -> list[tuple[str, str]]:
    """Every ``Phrase("english", "russian")`` written with two string literals in solver/."""
    found = []
    for path in SOLVER.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Phrase"):
                continue
            texts = [a.value for a in node.args if isinstance(a, ast.Constant)]
            if len(node.args) == 2 and all(isinstance(t, str) for t in texts) and len(texts) == 2:
                found.append((texts[0], texts[1]))
    return found


@cache
def english_words() -> frozenset[str]:
    """Words of three letters or more in the page's English table and nowhere in its Russian
    one (so "API", "Enter" or "quintet train --history", written the same in both, are left
    out)."""
    text = I18N.read_text(encoding="utf-8")
    english, russian = text.split("\n  ru: {", 1)
    return frozenset(_words(english) - _words(russian))


@cache
def command_line_words() -> frozenset[str]:
    """The page's English words and those of the command line's phrases not in their Russian."""
    phrases = _phrases()
    english = set().union(*(_shown(e) for e, _ in phrases))
    russian = set().union(*(_shown(r) for _, r in phrases))
    return english_words() | frozenset(english - russian)


def leftovers(
    text: str, allowed: frozenset[str] = frozenset(), words: frozenset[str] | None = None
) -> list[str]:
    """English ``words`` (default: the page's, :func:`english_words`) in ``text``, paths, flags
    and ``allowed`` words aside."""
    # A flag inside a token, "(--no-book)", is a flag too.
    tokens = [_FLAG.sub("", t) for t in text.split() if "/" not in t and not t.startswith("-")]
    found = [w.lower() for t in tokens for w in _WORD.findall(t)]
    english = english_words() if words is None else words
    return [w for w in found if w in english and w not in allowed]
