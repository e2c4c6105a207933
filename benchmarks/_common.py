"""Helpers shared by the benchmark scripts: tables, progress lines, machine facts.

Not part of the package: the scripts import it as a sibling module.
"""

from __future__ import annotations

import datetime as dt
import importlib.metadata
import os
import platform
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

# The command line's argparse types, shared so that the scripts and quintet agree.
from solver.cli.arguments import non_negative_int, positive_float, positive_int

__all__ = [
    "Table",
    "cpu_model",
    "format_seconds",
    "git_revision",
    "load_average",
    "log",
    "machine_table",
    "met",
    "non_negative_int",
    "percentile_95",
    "positive_float",
    "positive_int",
    "version",
]

REPO_ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Table:
    """A titled table of preformatted cells, rendered as plain text or markdown.

    Parameters
    ----------
    title
        Heading printed above the table.
    headers
        Column headers.
    align
        One character per column: ``"l"`` (left) or ``"r"`` (right).
    rows
        Rows of cells, each as many as ``headers``.
    notes
        Lines printed under the table.
    """

    title: str
    headers: list[str]
    align: str
    rows: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def render(self, markdown: bool) -> str:
        """The table as GitHub markdown (``markdown=True``) or aligned plain text."""
        return self._markdown() if markdown else self._plain()

    def _markdown(self) -> str:
        def line(cells: Sequence[str]) -> str:
            return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

        rule = "|" + "|".join("---:" if a == "r" else ":---" for a in self.align) + "|"
        lines = [f"### {self.title}", "", line(self.headers), rule]
        lines += [line(row) for row in self.rows]
        if self.notes:
            lines.append("")
            lines += [f"- {note}" for note in self.notes]
        return "\n".join(lines)

    def _plain(self) -> str:
        widths = [
            max(len(cell) for cell in column)
            for column in zip(self.headers, *self.rows, strict=True)
        ]

        def line(cells: Sequence[str]) -> str:
            padded = (
                cell.rjust(width) if a == "r" else cell.ljust(width)
                for cell, width, a in zip(cells, widths, self.align, strict=True)
            )
            return "  ".join(padded).rstrip()

        lines = [self.title, "=" * len(self.title), line(self.headers)]
        lines.append("  ".join("-" * width for width in widths))
        lines += [line(row) for row in self.rows]
        lines += [f"  * {note}" for note in self.notes]
        return "\n".join(lines)


def met(ok: bool) -> str:
    return "yes" if ok else "NO"


def log(message: str) -> None:
    """Progress on stderr, so that stdout holds only the tables."""
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for text in cpuinfo:
                if text.startswith("model name"):
                    return text.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _git(*arguments: str) -> str:
    """Standard output of ``git arguments...`` in the repository."""
    return subprocess.run(
        ["git", *arguments],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=10,
    ).stdout


def git_revision() -> str:
    """The short commit of the repository, and which tracked files differ from it."""
    try:
        head = _git("rev-parse", "--short", "HEAD").strip()
        dirty = _git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if not dirty.strip():
        return head
    # Others edit the tree while benchmarks run: say which tracked files differ.
    names = sorted({line[3:].split(" -> ")[-1] for line in dirty.splitlines() if line})
    return f"{head}, modified: {', '.join(names)}"


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, for the tables' headers."""
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:
        return "unknown"
    return f"{one:.2f} / {five:.2f} / {fifteen:.2f} (1 / 5 / 15 min)"


def format_seconds(value: float) -> str:
    """``0.123 s`` below ten seconds, ``12.3 s`` above."""
    return f"{value:.3f} s" if value < 10 else f"{value:.1f} s"


def percentile_95(values: Sequence[float]) -> float:
    """95th percentile, linear interpolation between order statistics (numpy's default)."""
    return float(np.percentile(np.asarray(values, dtype=np.float64), 95))


def machine_table(versions: Sequence[tuple[str, str]], parameters: str, load: bool = True) -> Table:
    """Date, machine, load, Python, the given ``(item, version)`` rows and parameters."""
    cpus = os.cpu_count() or 1
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else cpus
    items = [
        ("date", dt.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M:%S %Z")),
        ("platform", platform.platform()),
        ("CPU", f"{cpu_model()}, {cpus} logical CPUs ({usable} usable)"),
        *([("load average at start", load_average())] if load else []),
        ("python", f"{platform.python_implementation()} {platform.python_version()}"),
        *versions,
        ("parameters", parameters),
    ]
    return Table("Machine", ["item", "value"], "ll", [[key, value] for key, value in items])
