"""The ``quintet`` command: a thin shell over the library.

Each sub-command parses its arguments, calls the library and prints a
report (:mod:`solver.app.report`), for people or as JSON (``--json``).  Any
input error prints one line on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

from solver.cli import streams
from solver.cli.parsing import NOTATION, Parser, add_command_parser
from solver.errors import UsageError
from solver.util.json_text import to_json
from solver.version import __version__

__all__ = ["build_parser", "main"]

# The request fields every command with holdings shares, as its options.
HOLDINGS_FLAGS = {"opponent_cards": "--opponent-cards", "cards": "CARDS"}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``quintet``."""
    # Imported here so that ``quintet --help`` stays fast.
    from solver.cli import (
        commands,
        commands_analyze,
        commands_book,
        commands_games,
        commands_grade,
        commands_house,
        commands_solve,
        commands_verify,
    )

    parser = Parser(
        prog="quintet",
        description="Quintet: the two-player arrangement poker game. Exact rules, "
        "optimal arrangements and equilibria.",
        epilog=NOTATION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"quintet-solver {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    specs = (
        commands.COMMANDS
        + commands_solve.COMMANDS
        + commands_grade.COMMANDS
        + commands_games.COMMANDS
        + commands_book.COMMANDS
        + commands_house.COMMANDS
        + commands_analyze.COMMANDS
        + commands_verify.COMMANDS
    )
    for spec in specs + plugin_commands():
        command = add_command_parser(sub, spec.name, spec.help, rules=spec.rules)
        spec.add_arguments(command)
        command.set_defaults(handler=spec.run, flags={**HOLDINGS_FLAGS, **spec.flags})
    return parser


def plugin_commands() -> list[Any]:
    """Commands registered by installed packages in the ``quintet.commands`` entry points.

    ``serve`` comes this way from the web layer, which sits above the command
    line: the command line lists it without importing it.
    """
    from importlib.metadata import entry_points

    return [entry.load() for entry in entry_points(group="quintet.commands")]


def _print_json(payload: Any) -> None:
    print(to_json(payload))


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``quintet`` with ``argv``; return the exit status.

    >>> main(["eval", "As Ks Qs Js Ts"])
    A♠ K♠ Q♠ J♠ 10♠: straight flush (strength 839 of 839)
    0
    >>> main(["eval", "As Ks Qs Js 5s"])  # prints the reason on stderr
    2
    """
    from solver.cli.render import error_line
    from solver.errors import QuintetError

    streams.prepare()
    flags: dict[str, str] = {}  # the command's option for each library argument
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        flags = args.flags
        if args.command == "play" and args.json:
            raise UsageError("quintet play: --json is not available in the interactive game")
        if args.json and args.lang != "en":
            print(
                "quintet: warning: --lang applies to the human output, not --json", file=sys.stderr
            )
        handler: Callable[[argparse.Namespace], Any] = args.handler
        output = handler(args)
    except UsageError as error:
        print(f"{error}", file=sys.stderr)
        return 2
    except QuintetError as error:
        print(error_line(error, flags), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("quintet: interrupted", file=sys.stderr)
        return 130
    except OSError as error:
        if not streams.output_failure(error):
            raise
        return _output_failed(error)
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
