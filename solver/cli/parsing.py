"""The parser of ``quintet``: one-line usage errors, the options every command shares.

>>> parser = Parser(prog="quintet")
>>> parser.error("bad")
Traceback (most recent call last):
    ...
solver.errors.UsageError: quintet: bad
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from solver.errors import UsageError
from solver.util.language import Lang

__all__ = ["NOTATION", "Formatter", "Parser", "add_command_parser", "unrecognized"]

NOTATION = """\
card notation (case-insensitive, separated by spaces or commas):
  ranks  7 8 9 10 (or T) J Q K A;  Russian 7 8 9 10 В Д К Т
  suits  c d h s;  ♣ ♦ ♥ ♠;  Russian т/к (♣) б (♦) ч (♥) п (♠)
  e.g.   As  10h  Ts  Q♥  Дч  Тп  (Latin T is a ten, Cyrillic Т an ace)
arrangements: five packets of five cards, position 1 first, separated by |
  e.g.   "7c 7d 7h 7s 8c | 8d 8h 8s 9c 9d | ... "
"""


def _columns() -> int:
    """The terminal's width as :func:`shutil.get_terminal_size` finds it: ``$COLUMNS``, else
    the terminal's, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


class Formatter(argparse.RawDescriptionHelpFormatter):
    """argparse's raw-description help formatter, its width found without importing shutil.

    argparse makes a formatter for every argument it adds (to check the
    argument's metavar), and the default one imports :mod:`shutil` (and with
    it zlib, bz2 and lzma) for the terminal's width: 4 ms of every command's
    start.  The width is the same as the default's: the terminal's, less 2.

    >>> Formatter("quintet", width=40)._width
    40
    >>> Formatter("quintet", width=-1)
    Traceback (most recent call last):
        ...
    ValueError: a help width must be positive, got -1
    """

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        if width is not None and width <= 0:
            raise ValueError(f"a help width must be positive, got {width}")
        width = _columns() - 2 if width is None else width
        super().__init__(prog, indent_increment, max_help_position, width)


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, not usage plus message (help by :class:`Formatter`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        # argparse joins raw arguments into some messages: keep it one line.
        raise UsageError(f"{self.prog}: {message}".replace("\n", "\\n"))

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        # argparse's own says only "unrecognized arguments": say what was probably meant.
        argv = list(sys.argv[1:] if args is None else args)
        parsed, extras = self.parse_known_args(argv, namespace)
        if extras:
            command = getattr(parsed, "command", None)
            prog = self.prog if command is None else f"{self.prog} {command}"  # names the command
            message = unrecognized(argv, extras, command, getattr(parsed, "no_json", None))
            raise UsageError(f"{prog}: {message}".replace("\n", "\\n"))
        return parsed

    def _print_message(self, message: str, file: Any = None) -> None:
        # argparse drops an OSError here (help or version to a full device would exit 0):
        # write and flush, and let the command's output check see the failure.
        if message:
            stream = file or sys.stderr
            stream.write(message)
            stream.flush()


def _is_cards(token: str) -> bool:
    """Whether ``token`` reads as one or more cards (``As``, ``10h``, ``Тп``, ``As,Kd``)."""
    from solver.errors import QuintetError
    from solver.game.cards import parse_cards  # only on this error's path: start-up stays fast

    if token.startswith("-"):
        return False
    try:
        return len(parse_cards(token)) > 0
    except QuintetError:
        return False


def unrecognized(
    argv: Sequence[str], extras: Sequence[str], command: str | None, no_json: str | None = None
) -> str:
    """The message for the arguments ``extras`` of ``argv`` that no option took.

    Cards typed without quotes (each a separate argument) get the command
    line with every run of them quoted; ``--json`` where the command has none
    (``no_json``: why) gets the reason.

    >>> unrecognized(["suggest", "As", "Kd", "Qh"], ["Kd", "Qh"], "suggest")
    'unrecognized arguments: Kd Qh; quote the cards as one argument: quintet suggest "As Kd Qh"'
    >>> unrecognized(["train", "--json"], ["--json"], "train", "--json is not here")
    '--json is not here'
    >>> unrecognized(["eval", "As", "x"], ["x"], "eval")
    'unrecognized arguments: x'
    """
    import shlex  # only on this error's path, like the card parser

    message = f"unrecognized arguments: {' '.join(extras)}"
    if no_json is not None and list(extras) == ["--json"]:
        return no_json
    if command is None or not all(_is_cards(word) for word in extras):
        return message
    words = list(argv)
    start = words.index(command) + 1 if command in words else 0
    shown, run = [shlex.quote(word) for word in words[:start]], []
    for word in [*words[start:], "--"]:  # "--" ends the last run
        if _is_cards(word):
            run.append(word)
            continue
        if run:
            shown.append(f'"{" ".join(run)}"' if len(run) > 1 else shlex.quote(run[0]))
            run = []
        shown.append(shlex.quote(word))
    suggestion = " ".join(["quintet", *shown[:-1]])
    return f"{message}; quote the cards as one argument: {suggestion}"


def _add_output_options(parser: argparse.ArgumentParser, *, json: bool = True) -> None:
    if json:
        parser.add_argument("--json", action="store_true", help="print JSON (ASCII card codes)")
    else:
        parser.set_defaults(json=False)
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
    commands: Any, name: str, help_text: str, *, rules: bool = True, no_json: str | None = None
) -> argparse.ArgumentParser:
    """A (sub-)command's parser in ``commands`` (an ``add_subparsers`` action), with the
    output options (``--json`` unless ``no_json`` says why not, ``--lang``) and, with
    ``rules``, the rule options."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        help=help_text,
        description=help_text,
        epilog=NOTATION,
        formatter_class=Formatter,
    )
    _add_output_options(parser, json=no_json is None)
    if no_json is not None:
        parser.set_defaults(no_json=no_json)
    if rules:
        _add_rule_options(parser)
    return parser
