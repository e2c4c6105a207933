"""Helpers shared by the benchmark scripts: tables, progress lines, machine facts.

Not part of the package: the scripts import it as a sibling module.
"""

from __future__ import annotations

import importlib.metadata
import platform
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["Table", "cpu_model", "log", "met", "version"]


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
