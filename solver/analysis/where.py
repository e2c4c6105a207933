"""Filters on deals for aggregate reports: ``--where "straight_flushes>=2 and aces<=3"``.

The grammar (a tiny tokenizer and parser, no ``eval``)::

    filter     := comparison (("and" | ",") comparison)*
    comparison := NAME OP NUMBER
    OP         := ">=" | "<=" | "==" | "!=" | ">" | "<" | "="

Names (features of the deal, from the first player's holding, and of its
stored equilibrium):

==================  ==========================================================
``straight_flushes``  straight flushes the holding contains (any five cards)
``fours``             ranks held in all four suits
``aces``              aces held
``value``             the game value (points, or win probability)
``support``           arrangements in the first player's equilibrium support
``top``               the probability of its most likely arrangement
==================  ==========================================================

>>> f = parse_where("straight_flushes >= 2, aces<3")
>>> [str(c) for c in f.comparisons]
['straight_flushes >= 2', 'aces < 3']
>>> parse_where("aces >> 2")
Traceback (most recent call last):
    ...
solver.errors.QuintetError: where: unexpected '>' at column 7 (expected a number)
>>> parse_where("kings > 1")
Traceback (most recent call last):
    ...
solver.errors.QuintetError: where: unknown name 'kings' (known: straight_flushes, fours, aces, value, support, top)
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from solver.errors import QuintetError
from solver.game.rules import Rules

__all__ = ["NAMES", "WHERE_HELP", "Comparison", "Where", "holding_features", "parse_where"]

NAMES = ("straight_flushes", "fours", "aces", "value", "support", "top")
WHERE_HELP = """\
--where EXPR: comparisons NAME OP NUMBER joined by "and" (or ","); OP is one of
  >= <= == != > < =; NAME is one of
  straight_flushes  straight flushes the holding contains;  fours  ranks held in all
  four suits;  aces  aces held;  value  the game value;  support  arrangements in the
  first player's equilibrium support;  top  its most likely arrangement's probability.
  e.g. --where "straight_flushes>=2 and value>0\""""

_OPS: dict[str, Callable[[float, float], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    "==": operator.eq,
    "=": operator.eq,
    "!=": operator.ne,
    ">": operator.gt,
    "<": operator.lt,
}
_TOKEN = re.compile(
    r"\s*(?:(?P<num>-?\d+(?:\.\d+)?)|(?P<name>[A-Za-z_]\w*)|(?P<op>>=|<=|==|!=|>|<|=)|(?P<sep>,))"
)


@dataclass(frozen=True)
class Comparison:
    """``name op number``."""

    name: str
    op: str
    number: float

    def __str__(self) -> str:
        number = int(self.number) if self.number == int(self.number) else self.number
        return f"{self.name} {self.op} {number}"

    def holds(self, features: Mapping[str, float]) -> bool:
        """Whether the features satisfy the comparison."""
        return _OPS[self.op](features[self.name], self.number)


@dataclass(frozen=True)
class Where:
    """A conjunction of comparisons (none: every deal)."""

    comparisons: tuple[Comparison, ...] = ()

    def holds(self, features: Mapping[str, float]) -> bool:
        """Whether every comparison holds."""
        return all(c.holds(features) for c in self.comparisons)

    def __str__(self) -> str:
        return " and ".join(str(c) for c in self.comparisons) or "all deals"


def _tokens(text: str) -> list[tuple[str, str, int]]:
    tokens, position = [], 0
    while position < len(text):
        if not text[position:].strip():
            break
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            column = position + len(text[position:]) - len(text[position:].lstrip()) + 1
            raise QuintetError(
                f"where: unexpected {text[column - 1]!r} at column {column}", argument="where"
            )
        kind = str(match.lastgroup)
        value = match.group(kind)
        if kind == "name" and value.lower() == "and":
            kind = "sep"
        tokens.append((kind, value, match.start(kind) + 1))
        position = match.end()
    return tokens


def _expect(tokens: list[tuple[str, str, int]], i: int, kind: str, what: str) -> str:
    if i >= len(tokens):
        raise QuintetError(f"where: ends early (expected {what})", argument="where")
    found_kind, value, column = tokens[i]
    if found_kind != kind:
        raise QuintetError(
            f"where: unexpected {value!r} at column {column} (expected {what})", argument="where"
        )
    return value


def parse_where(text: str | None) -> Where:
    """The filter ``text`` (None or blank: every deal); errors name the bad token."""
    if text is None or not text.strip():
        return Where()
    tokens, comparisons, i = _tokens(text), [], 0
    while True:
        name = _expect(tokens, i, "name", "a name")
        if name not in NAMES:
            raise QuintetError(
                f"where: unknown name {name!r} (known: {', '.join(NAMES)})", argument="where"
            )
        op = _expect(tokens, i + 1, "op", "a comparison such as >=")
        number = _expect(tokens, i + 2, "num", "a number")
        comparisons.append(Comparison(name, op, float(number)))
        i += 3
        if i == len(tokens):
            return Where(tuple(comparisons))
        _expect(tokens, i, "sep", '"and"')
        i += 1


def holding_features(cards: Iterable[int], rules: Rules) -> dict[str, float]:
    """The holding's features (card id = 4 * rank + suit, ranks 7 to ace).

    >>> holding_features(range(20, 32), Rules())["straight_flushes"]
    0.0
    >>> holding_features(range(12, 32), Rules())["straight_flushes"]
    4.0
    """
    held = set(cards)
    windows = [list(range(start, start + 5)) for start in range(4)]
    if rules.ace_low_straight:
        windows.append([7, 0, 1, 2, 3])
    flushes = sum(
        all(4 * rank + suit in held for rank in window) for suit in range(4) for window in windows
    )
    fours = sum(all(4 * rank + suit in held for suit in range(4)) for rank in range(8))
    aces = sum(4 * 7 + suit in held for suit in range(4))
    return {"straight_flushes": float(flushes), "fours": float(fours), "aces": float(aces)}
