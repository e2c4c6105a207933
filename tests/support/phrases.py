"""The page's own phrase table (solver/web/static/i18n.js), to find English left in Russian text.

>>> "equilibrium" in english_words(), "seed" in english_words()  # "{seed}" is no Russian word
(True, True)
>>> leftovers("Оценка: лучшая; equilibrium loss 0.000, book: from /tmp/b.sqlite")
['equilibrium', 'loss', 'book', 'from']
>>> leftovers("книга решений: не используется (--no-book); book")
['book']
"""

from __future__ import annotations

import re
from functools import cache

from tests.support import REPO

I18N = REPO / "solver" / "web" / "static" / "i18n.js"
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_WORD = re.compile(r"[A-Za-z]{3,}")
_PLACEHOLDER = re.compile(r"\{\w+\}")
_FLAG = re.compile(r"--[A-Za-z][\w-]*")


def _words(text: str) -> set[str]:
    # A placeholder, "{seed}", is filled in, not shown: its name is no word of the table.
    strings = (_PLACEHOLDER.sub("", s) for s in _STRING.findall(text))
    return {w.lower() for s in strings for w in _WORD.findall(s)}


@cache
def english_words() -> frozenset[str]:
    """Words of three letters or more in the English table and nowhere in the Russian one
    (so "API", "Enter" or "quintet train --history", written the same in both, are left out)."""
    text = I18N.read_text(encoding="utf-8")
    english, russian = text.split("\n  ru: {", 1)
    return frozenset(_words(english) - _words(russian))


def leftovers(text: str, allowed: frozenset[str] = frozenset()) -> list[str]:
    """English words of the phrase table in ``text`` (paths, flags and ``allowed`` words aside)."""
    # A flag inside a token, "(--no-book)", is a flag too.
    tokens = [_FLAG.sub("", t) for t in text.split() if "/" not in t and not t.startswith("-")]
    found = [w.lower() for t in tokens for w in _WORD.findall(t)]
    words = english_words()
    return [w for w in found if w in words and w not in allowed]
