"""What the command line prints of the application layer's errors and warnings.

The application layer names request fields (``time_limit``,
``against="equilibrium"``); the command line speaks of its own options.
A field at the start of a message, a field written ``field="value"``, and
the fields a warning lists become the command's flags.

>>> speak('payoff needs against="equilibrium"', {"payoff": "--payoff", "against": "--against"})
'--payoff needs --against equilibrium'
>>> from solver.errors import SolverError
>>> error = SolverError("time_limit must be positive, got -1.0", argument="time_limit")
>>> error_line(error, {"time_limit": "--eq-time-limit"})
'quintet: error: --eq-time-limit must be positive, got -1.0'
>>> error_line(error, {})
'quintet: error: time_limit must be positive, got -1.0'
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence

from solver.app.answers import Answer, Notice
from solver.app.error_text import error_text
from solver.app.report import Output
from solver.errors import QuintetError
from solver.util.language import Lang, Phrase

__all__ = [
    "asked_language",
    "error_line",
    "shown",
    "speak",
    "usage_line",
    "warn",
    "warner",
    "warning_lines",
]

_ERROR = Phrase("error", "ошибка")
_WARNING = Phrase("warning", "предупреждение")


def speak(message: str, flags: Mapping[str, str], fields: Iterable[str] = ()) -> str:
    """``message`` with its request fields spoken as the command's flags (see the module)."""
    for name, flag in flags.items():
        message = re.sub(rf'(?<![\w-]){re.escape(name)}="([^"]*)"', rf"{flag} \1", message)
        if message.startswith(name) and not message[len(name) : len(name) + 1].isalnum():
            message = flag + message[len(name) :]
    for name in fields:
        if name in flags:
            message = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", flags[name], message)
    return message


def error_line(error: QuintetError, flags: Mapping[str, str], lang: Lang | str = Lang.EN) -> str:
    """The one line a library error prints, in ``lang``, speaking of the command's options.

    >>> from solver.errors import CardError
    >>> needed = CardError("opponent_cards are needed in independent mode", argument="opponent_cards")
    >>> error_line(needed, {"opponent_cards": "--opponent"}, "ru")
    'quintet: ошибка: в независимом режиме нужны --opponent'
    """
    # Translated first, then the request's fields become flags (a Russian line may put the
    # argument elsewhere than first: it is then spoken of wherever it stands).
    text = error_text(str(error), lang)
    argument = error.argument
    moved = argument is not None and text != str(error) and not text.startswith(argument)
    fields = (*error.mentions, *([argument] if moved and argument is not None else []))
    return f"quintet: {_ERROR.text(lang)}: {speak(text, flags, fields)}"


def usage_line(message: str, lang: Lang | str = Lang.EN) -> str:
    """A usage error's line (``"quintet CMD: what"``) in ``lang``.

    >>> usage_line("quintet eval: the following arguments are required: CARDS", "ru")
    'quintet eval: нужны аргументы: CARDS'
    """
    program, colon, what = message.partition(": ")
    return f"{program}{colon}{error_text(what, lang)}" if colon else message


def asked_language(argv: Sequence[str]) -> Lang:
    """The ``--lang`` of a command line that could not be parsed (English when none).

    >>> asked_language(["eval", "--lang", "ru"]), asked_language(["eval", "--lang=xx"])
    (<Lang.RU: 'ru'>, <Lang.EN: 'en'>)
    """
    for i, word in enumerate(argv):
        value = word.removeprefix("--lang=") if word.startswith("--lang=") else None
        if word == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        if value == Lang.RU.value:
            return Lang.RU
    return Lang.EN


def warning_lines(
    notices: Iterable[Notice], flags: Mapping[str, str], lang: Lang | str = Lang.EN
) -> list[str]:
    """The lines the command prints on stderr for the answer's warnings, in ``lang``.

    >>> warning_lines([Notice("line 3: skipped: no arrangement")], {}, "ru")
    ['quintet: предупреждение: строка 3 пропущена: нет раскладки']
    """
    word = _WARNING.text(lang)
    return [
        f"quintet: {word}: {speak(error_text(n.message, lang), flags, n.fields)}" for n in notices
    ]


def warn(notices: Iterable[Notice], flags: Mapping[str, str], lang: Lang | str = Lang.EN) -> None:
    """Print the warnings on stderr."""
    for line in warning_lines(notices, flags, lang):
        print(line, file=sys.stderr)


def warner(flags: Mapping[str, str], lang: Lang | str = Lang.EN) -> Callable[[str], None]:
    """A function printing one warning message on stderr (for the interactive sessions)."""
    return lambda message: warn([Notice(message)], flags, lang)


def shown(answer: Answer, args: argparse.Namespace) -> Output:
    """What the command prints of ``answer``: its warnings now, then its text or document."""
    warn(answer.warnings, args.flags, args.lang)
    text = "" if args.json else answer.text(args.lang)
    return Output(text, answer.document)
