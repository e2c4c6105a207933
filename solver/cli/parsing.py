"""The parser of ``quintet``: one-line usage errors, the options every command shares.

>>> parser = Parser(prog="quintet")
>>> parser.error("bad")
Traceback (most recent call last):
    ...
solver.errors.UsageError: quintet: bad
"""

from __future__ import annotations

import argparse
from typing import Any, NoReturn

from solver.errors import UsageError
from solver.util.language import Lang

__all__ = ["NOTATION", "Parser", "add_command_parser"]

NOTATION = """\
card notation (case-insensitive, separated by spaces or commas):
  ranks  7 8 9 10 (or T) J Q K A;  Russian 7 8 9 10 В Д К Т
  suits  c d h s;  ♣ ♦ ♥ ♠;  Russian т/к (♣) б (♦) ч (♥) п (♠)
  e.g.   As  10h  Ts  Q♥  Дч  Тп  (Latin T is a ten, Cyrillic Т an ace)
arrangements: five packets of five cards, position 1 first, separated by |
  e.g.   "7c 7d 7h 7s 8c | 8d 8h 8s 9c 9d | ... "
"""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, not usage plus message."""

    def error(self, message: str) -> NoReturn:
        # argparse joins raw arguments into some messages: keep it one line.
        raise UsageError(f"{self.prog}: {message}".replace("\n", "\\n"))


def _add_output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON (ASCII card codes)")
    parser.add_argument(
        "--lang",
        choices=[lang.value for lang in Lang],
        default="en",
        help="language of the human output (default: en)",
    )


def _add_rule_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("rules")
    group.add_argument(
        "--mode",
        choices=["mirror", "independent"],
        default="mirror",
        help="discard mode: the opponent removes the same seven cards (mirror, default) "
        "or turns up seven of its own (independent)",
    )
    group.add_argument(
        "--ace-low-straight",
        action="store_true",
        help="A-7-8-9-10 is the lowest straight (off by default)",
    )
    group.add_argument(
        "--flush-beats-full-house",
        action="store_true",
        help="the flush ranks above the full house, as in Manila poker (off by default)",
    )


def add_command_parser(
    commands: Any, name: str, help_text: str, *, rules: bool = True
) -> argparse.ArgumentParser:
    """A (sub-)command's parser in ``commands`` (an ``add_subparsers`` action), with the
    output options (``--json``, ``--lang``) and, with ``rules``, the rule options."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        help=help_text,
        description=help_text,
        epilog=NOTATION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_output_options(parser)
    if rules:
        _add_rule_options(parser)
    return parser
