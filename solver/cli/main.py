"""The ``quintet`` command: a thin shell over the library.

Each sub-command parses its arguments, calls the library and prints a
report (:mod:`solver.app.report`), for people or as JSON (``--json``).  Any
input error prints one line on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import Any

from solver.cli import streams
from solver.cli.parsing import NOTATION, Formatter, Parser, add_command_parser
from solver.errors import UsageError
from solver.util.json_text import to_json
from solver.version import __version__

__all__ = ["build_parser", "main"]

# The request fields every command with holdings shares, as its options.
HOLDINGS_FLAGS = {"opponent_cards": "--opponent-cards", "cards": "CARDS"}


# The commands: name, help (what ``quintet --help`` lists, without importing anything)
# and the module whose ``COMMANDS`` holds it, imported only when the command runs.
# Adding a command is one line here.
COMMAND_TABLE: tuple[tuple[str, str, str], ...] = (
    ("eval", "combination and strength of one five-card hand", "commands"),
    ("deal", "deal a seeded game and show both holdings", "commands"),
    ("score", "score two arrangements position by position", "commands"),
    ("suggest", "the best arrangement of your cards against an opponent model, proven optimal", "commands_suggest"),
    ("equilibrium", "an exact equilibrium of the deal: a mixed strategy no opponent can exploit, with its certificate", "commands_equilibrium"),
    ("grade", "grade an arrangement: what it loses against the equilibrium, how it can be punished, and the smallest change that helps most", "commands_grade"),
    ("train", "a series of deals: lay out your packets, see the grade, the suggested change and the equilibrium's most likely arrangements; progress kept in a history file", "commands_grade"),
    ("tournament", "every pair of players on the same seeded deals, each in each seat", "commands_games"),
    ("play", "play a game against the computer: type your packets, then see them compared", "commands_games"),
    ("book", "the solution book: solved canonical deals (build, stats, summary, check)", "commands_book"),
    ("house", "lay out a holding by the house rule (greedy packets, or packets keeping fours of a kind) and grade it", "commands_house"),
    ("analyze", "grade every deal of a history of play (quintet train --history, or a CSV): summary, worst deals first, leaks", "commands_analyze"),
    ("report", "aggregate reports over the solution book (or --deals N seeded deals), weighted by orbit size: combinations and concessions by position, supports, game values", "commands_analyze"),
    ("verify", "check a certificate (quintet equilibrium --certificate) in exact arithmetic, without the solver's code", "commands_verify"),
)  # fmt: skip


def load_command(name: str, module: str) -> Any:
    """The :class:`~solver.app.command.Command` ``name`` of ``solver.cli.MODULE``.

    >>> load_command("eval", "commands").help
    'combination and strength of one five-card hand'
    >>> load_command("serve", "commands")
    Traceback (most recent call last):
        ...
    LookupError: solver.cli.commands has no command 'serve'
    """
    for command in importlib.import_module(f"solver.cli.{module}").COMMANDS:
        if command.name == name:
            return command
    raise LookupError(f"solver.cli.{module} has no command {name!r}")


def build_parser(
    argv: Sequence[str] | None = None, *, complete: bool = False
) -> argparse.ArgumentParser:
    """The argument parser of ``quintet`` for ``argv``: every command is listed, but only
    the command ``argv`` names is imported and given its arguments (the others are names
    with their help, so that ``quintet --help`` and every command start fast).
    ``complete``: every command with all its arguments (the command reference).

    >>> build_parser(["deal"]).parse_args(["deal", "--seed", "3"]).seed
    3
    >>> build_parser(["eval"]).parse_args(["deal", "--seed", "3"])
    Traceback (most recent call last):
        ...
    solver.errors.UsageError: quintet deal: unrecognized arguments: --seed 3
    """
    parser = Parser(
        prog="quintet",
        description="Quintet: the two-player arrangement poker game. Exact rules, "
        "optimal arrangements and equilibria.",
        epilog=NOTATION,
        formatter_class=Formatter,
    )
    parser.add_argument("--version", action="version", version=f"quintet-solver {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    chosen = _command_name(sys.argv[1:] if argv is None else argv)
    modules = {name: module for name, _, module in COMMAND_TABLE}
    plugins = {} if chosen in modules and not complete else {s.name: s for s in plugin_commands()}
    listing = [entry[:2] for entry in COMMAND_TABLE] + [(s.name, s.help) for s in plugins.values()]
    for name, help_text in listing:
        if name != chosen and not complete:
            sub.add_parser(name, help=help_text)
            continue
        spec = plugins[name] if name in plugins else load_command(name, modules[name])
        no_json = getattr(spec, "no_json", None)  # a plugin's Command may predate the field
        command = add_command_parser(sub, name, help_text, rules=spec.rules, no_json=no_json)
        spec.add_arguments(command)
        command.set_defaults(handler=spec.run, flags={**HOLDINGS_FLAGS, **spec.flags})
    return parser


def command_list(parser: argparse.ArgumentParser) -> str:
    """What a bare ``quintet`` prints: the usage and the commands, and where to learn more.

    >>> text = command_list(build_parser(["eval"]))
    >>> "suggest" in text, text.splitlines()[-1]
    (True, 'quintet: give a COMMAND; quintet COMMAND --help shows what it does and its options')
    """
    parser.epilog = None  # the card notation belongs to the commands' help
    return f"{parser.format_help()}\nquintet: give a COMMAND; quintet COMMAND --help shows what it does and its options"


def _no_command(argv: Sequence[str]) -> bool:
    """Whether ``argv`` names no command (and asks for neither help nor the version)."""
    return _command_name(argv) is None and not {"-h", "--help", "--version"} & set(argv)


def _command_name(argv: Sequence[str]) -> str | None:
    """The command ``argv`` names: its first argument that is not an option."""
    words = [word for word in argv if word == "--" or not word.startswith("-")]
    if words[:1] == ["--"]:
        words = words[1:]
    return words[0] if words else None


def plugin_commands() -> list[Any]:
    """Commands registered by installed packages in the ``quintet.commands`` entry points.

    ``serve`` comes this way from the web layer, which sits above the command
    line: the command line lists it without importing it.
    """
    from importlib.metadata import entry_points

    return [entry.load() for entry in entry_points(group="quintet.commands")]


def _print_json(payload: Any) -> None:
    print(to_json(payload))


def _check_output_options(args: argparse.Namespace) -> None:
    """``--lang`` with ``--json`` is a warning (the commands without a document have no
    ``--json``: :class:`~solver.app.command.Command`'s ``no_json``)."""
    if args.json and args.lang != "en":
        from solver.app.answers import Notice
        from solver.cli.render import warn

        warn([Notice("--lang applies to the human output, not --json")], {}, args.lang)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``quintet`` with ``argv``; return the exit status.

    >>> main(["eval", "As Ks Qs Js Ts"])
    A♠ K♠ Q♠ J♠ 10♠: straight flush (strength 839 of 839)
    0
    >>> main(["eval", "As Ks Qs Js 5s"])  # prints the reason on stderr
    2
    """
    from solver.cli.render import asked_language, error_line, usage_line
    from solver.errors import QuintetError

    streams.prepare()
    flags: dict[str, str] = {}  # the command's option for each library argument
    lang = "en"  # the language of the error line (--lang, once the arguments are read)
    try:
        parser = build_parser(argv)
        if _no_command(sys.argv[1:] if argv is None else argv):
            print(command_list(parser), file=sys.stderr)
            return 2
        args = parser.parse_args(argv)
        flags = args.flags
        lang = getattr(args, "lang", "en")
        _check_output_options(args)
        handler: Callable[[argparse.Namespace], Any] = args.handler
        output = handler(args)
    except UsageError as error:  # --lang as the command line asked, though it was not parsed
        asked = asked_language(sys.argv[1:] if argv is None else argv)
        print(usage_line(str(error), asked), file=sys.stderr)
        return 2
    except QuintetError as error:
        print(error_line(error, flags, lang), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("quintet: interrupted", file=sys.stderr)
        return 130
    except OSError as error:
        if not streams.output_failure(error):
            raise
        return _output_failed(error)
    except SystemExit as leaving:  # --help, --version: argparse printed (and flushed) them
        if isinstance(leaving.code, int):
            return leaving.code
        raise
    if output is None:
        return 0
    try:
        if args.json:
            _print_json(output.payload)
        else:
            print(output.text)
        if sys.stdout is not None:
            sys.stdout.flush()
    except OSError as error:
        if not streams.output_failure(error):
            raise
        return _output_failed(error)
    return int(getattr(output, "status", 0))  # verify: 1 when a check failed


def _output_failed(error: OSError) -> int:
    """One line when the output cannot be written; a closed pipe stays quiet."""
    streams.silence_stdout()  # the interpreter's last flush must not fail again
    if not isinstance(error, BrokenPipeError):  # quintet ... | head: the reader left
        print(f"quintet: error: cannot write the output: {error.strerror}", file=sys.stderr)
    return streams.EXIT_OUTPUT
