"""Console examples of the documentation pages: found, run and compared as the page shows them.

A console example is a fenced block marked ``console`` in README.md or
docs/*.md: lines ``$ quintet ...`` (a trailing ``\\`` continues a command on the
next line; ``# ...`` is a comment), each followed by what it prints (standard
output and standard error together).  A block preceded by a line
``<!-- example: not run: REASON -->`` is shown but not run (minutes of work,
a cluster, a server); the reason is required.

The rounding dust and the iterations are masked because they are the
machine's: numpy's kernels differ between processors (AVX-512 or not), and
the rounding they leave moves the double oracle's path and its last gap by
a few units of 1e-15.  The equilibrium shown, the canonical one, is the same.

Output is compared line by line after the masks below, applied to the page's
text and to the program's alike, and nothing else:

=========================  ===================================================
mask                       what it hides
=========================  ===================================================
``durations``              ``0.16 s``, ``629.1 s``, ``0.064 s/deal``: a number
                           of seconds
``seconds/deal column``    the second column of a tournament's player table
                           (rows under the header ``player  seconds/deal``)
``book path``              a path ending in ``book.sqlite`` (the user's cache)
``rounding dust``          a number below 1e-12 in e-notation (``3.55e-15``):
                           a certified gap at the floating point's rounding
``iterations``             the count of ``iterations: 18,``: the double
                           oracle's path
``...``                    a line of just ``...`` on the page stands for any
                           number of lines printed (an elided table)
=========================  ===================================================
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

FENCE = re.compile(r"^```console\n(.*?)^```", re.MULTILINE | re.DOTALL)
NOT_RUN = re.compile(r"<!-- example: not run: (\S.*?) -->\s*$")
DURATION = re.compile(r"\b\d+(?:\.\d+)? s(?=/deal\b|\b|$)")
BOOK_PATH = re.compile(r"\S*book\.sqlite\b")
DUST = re.compile(r"(?<![\w.])\d(?:\.\d+)?e-(?:1[2-9]|[2-9]\d|\d{3})\b")
ITERATIONS = re.compile(r"(?<=\biterations: )\d+(?=,)")
ELLIPSIS = "..."


@dataclass(frozen=True)
class Example:
    """One command of a page and the lines the page shows it printing."""

    page: str
    line: int
    command: tuple[str, ...]
    expected: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"{self.page}:{self.line}: {shlex.join(self.command)[:60]}"


@dataclass(frozen=True)
class Block:
    """A console block: its page and line, its examples, and why it is not run (or None)."""

    page: str
    line: int
    examples: tuple[Example, ...]
    not_run: str | None


def blocks(path: Path, root: Path) -> list[Block]:
    """Every console block of the page ``path``."""
    text = path.read_text(encoding="utf-8")
    page = path.relative_to(root).as_posix()
    found = []
    for match in FENCE.finditer(text):
        start = text.count("\n", 0, match.start()) + 1
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        reason = NOT_RUN.search(before)
        found.append(
            Block(page, start, _examples(page, start, match.group(1)), reason and reason.group(1))
        )
    return found


def _examples(page: str, start: int, body: str) -> tuple[Example, ...]:
    examples: list[Example] = []
    lines = body.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            raise ValueError(f"{page}:{start + 1 + i}: output before any command")
        first, command = i, lines[i][2:]
        while command.endswith("\\"):
            i += 1
            command = command[:-1] + " " + lines[i].strip()
        i += 1
        output = []
        while i < len(lines) and not lines[i].startswith("$ "):
            output.append(lines[i])
            i += 1
        words = tuple(shlex.split(command, comments=True))
        examples.append(Example(page, start + 1 + first, words, tuple(output)))
    return tuple(examples)


def masked(lines: list[str] | tuple[str, ...]) -> list[str]:
    """The lines with their volatile fields masked (the table in the module docstring)."""
    out: list[str] = []
    in_players = False
    for line in lines:
        line = BOOK_PATH.sub("<book>", DURATION.sub("<seconds> s", line.rstrip()))
        line = ITERATIONS.sub("<n>", DUST.sub("<dust>", line))
        if line.startswith("player ") and "seconds/deal" in line:
            in_players = True
        elif in_players and line and not line.startswith("frontiers") and line != ELLIPSIS:
            cells = line.split(maxsplit=2)
            line = " ".join([cells[0], "<seconds>", *cells[2:]])
        else:
            in_players = in_players and line == ELLIPSIS
        out.append(line)
    return out


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` is ``expected``, each ``...`` line standing for any lines.

    >>> matches(["a", "...", "d"], ["a", "b", "c", "d"]), matches(["a", "d"], ["a", "b", "d"])
    (True, False)
    >>> matches(["...", "c"], ["a", "b", "c"]), matches(["a", "..."], ["a"])
    (True, True)
    """
    if ELLIPSIS not in expected:
        return expected == actual
    cut = expected.index(ELLIPSIS)
    head, rest = expected[:cut], expected[cut + 1 :]
    if actual[:cut] != head:
        return False
    return any(matches(rest, actual[start:]) for start in range(cut, len(actual) + 1))
