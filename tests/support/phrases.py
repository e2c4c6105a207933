"""The phrase tables, the page's (solver/web/static/i18n.js) and the command line's
(every ``Phrase(english, russian)`` in solver/), to find English left in Russian text.

>>> "equilibrium" in english_words(), "seed" in english_words()  # "{seed}" is no Russian word
(True, True)
>>> "canonical" in english_words(), "frontier" in english_words()  # the command line's
(True, True)
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
    """Words of three letters or more in an English table and nowhere in the Russian one
    (so "API", "Enter" or "quintet train --history", written the same in both, are left out)."""
    text = I18N.read_text(encoding="utf-8")
    english, russian = text.split("\n  ru: {", 1)
    page = _words(english) - _words(russian)
    phrases = _phrases()
    command_line = set().union(*(_shown(e) for e, _ in phrases)) - set().union(
        *(_shown(r) for _, r in phrases)
    )
    return frozenset(page | command_line)


def leftovers(text: str, allowed: frozenset[str] = frozenset()) -> list[str]:
    """English words of the phrase table in ``text`` (paths, flags and ``allowed`` words aside)."""
    # A flag inside a token, "(--no-book)", is a flag too.
    tokens = [_FLAG.sub("", t) for t in text.split() if "/" not in t and not t.startswith("-")]
    found = [w.lower() for t in tokens for w in _WORD.findall(t)]
    words = english_words()
    return [w for w in found if w in words and w not in allowed]
