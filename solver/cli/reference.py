"""The command reference, made from the argument parser itself (the docs site's page).

Every command and sub-command of ``quintet`` with its help, as ``--help``
prints it: the page is generated when the site is built, so it cannot drift
from the options.

>>> page = command_reference()
>>> page.startswith("# Command reference") and "## `quintet suggest`" in page
True
>>> [name for name, _ in commands(build_parser(complete=True))][:3]
['quintet', 'quintet eval', 'quintet deal']
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator

from solver.cli.main import build_parser

__all__ = ["command_reference", "commands"]

WIDTH = "100"  # the help text's line width on the page


def commands(
    parser: argparse.ArgumentParser, name: str = "quintet"
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """``(name, parser)`` of the command and of every sub-command under it, depth first."""
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                yield from commands(sub, f"{name} {sub_name}")


def command_reference() -> str:
    """The Markdown page: one section per command, its ``--help`` text verbatim."""
    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH
    try:
        sections = [
            "# Command reference",
            "",
            "Generated from the argument parser of `quintet` when this site was built: "
            "what `quintet COMMAND --help` prints. What `--json` prints is described in "
            "[the JSON formats](formats.md).",
        ]
        for name, parser in commands(build_parser(complete=True)):
            sections += ["", f"## `{name}`", ""]
            if parser.description and name != "quintet":
                sections += [parser.description, ""]
            sections += ["```text", parser.format_help().rstrip(), "```"]
        return "\n".join(sections) + "\n"
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous
