"""Helpers shared by the benchmark scripts: tables, statistics, machine facts.

Not part of the package: the scripts import it as a sibling module.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.metadata
import os
import platform
import statistics
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Table:
    """A titled table of preformatted cells, rendered as markdown or plain text.

    ``headers`` is a list or one string separated by ``"; "``; ``align`` has one
    character per column: ``"l"`` (left) or ``"r"`` (right).
    """

    title: str
    headers: list[str] | str
    align: str
    rows: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if isinstance(self.headers, str):
            self.headers = self.headers.split("; ")

    def render(self, markdown: bool) -> str:
        """The table as GitHub markdown (``markdown=True``) or aligned plain text."""
        if markdown:
            rule = "|" + "|".join("---:" if a == "r" else ":---" for a in self.align) + "|"
            lines = [f"### {self.title}", "", _md_line(self.headers), rule]
            lines += [_md_line(row) for row in self.rows]
            return "\n".join(lines + ([""] if self.notes else []) + [f"- {n}" for n in self.notes])
        widths = [max(map(len, column)) for column in zip(self.headers, *self.rows, strict=True)]

        def line(cells: Sequence[str]) -> str:
            padded = zip(cells, widths, self.align, strict=True)
            return "  ".join(c.rjust(w) if a == "r" else c.ljust(w) for c, w, a in padded).rstrip()

        lines = [
            self.title,
            "=" * len(self.title),
            line(self.headers),
            "  ".join("-" * w for w in widths),
        ]
        return "\n".join(
            lines + [line(row) for row in self.rows] + [f"  * {n}" for n in self.notes]
        )


def _md_line(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def print_tables(tables: Sequence[Table], markdown: bool, footer: str) -> None:
    """Print the tables, then a footer line."""
    print("\n\n".join(table.render(markdown) for table in tables))
    print(f"\n{footer}")


def met(ok: bool) -> str:
    return "yes" if ok else "NO"


def log(message: str) -> None:
    """Progress on stderr, so that stdout holds only the tables."""
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for text in cpuinfo:
                if text.startswith("model name"):
                    return text.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def git_revision() -> str:
    """The short commit of the repository, and which tracked files differ from it."""

    def git(*arguments: str) -> str:
        command = ["git", *arguments]
        return subprocess.run(
            command, cwd=REPO_ROOT, capture_output=True, text=True, check=True, timeout=10
        ).stdout

    try:
        head = git("rev-parse", "--short", "HEAD").strip()
        dirty = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    names = sorted({line[3:].split(" -> ")[-1] for line in dirty.splitlines() if line})
    return f"{head}, modified: {', '.join(names)}" if names else head


def load_average() -> str:
    """The 1, 5 and 15 minute load averages."""
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg()) + " (1 / 5 / 15 min)"
    except OSError:
        return "unknown"


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


def seconds(value: float) -> str:
    """``0.123 s`` below ten seconds, ``12.3 s`` above."""
    return f"{value:.3f} s" if value < 10 else f"{value:.1f} s"


def ms(value: float) -> str:
    """Milliseconds, for values in seconds."""
    return f"{1000 * value:.1f} ms"


def median(values: Sequence[float]) -> float:
    return float(statistics.median(values))


def p95(values: Sequence[float]) -> float:
    """95th percentile, linear interpolation between order statistics (numpy's default)."""
    return float(np.percentile(np.asarray(values, dtype=np.float64), 95))


def spread(values: Sequence[float], fmt=seconds) -> list[str]:  # type: ignore[no-untyped-def]
    """Median, p95 and maximum, formatted."""
    return [fmt(median(values)), fmt(p95(values)), fmt(max(values))]


def parser(doc: str | None) -> argparse.ArgumentParser:
    """An argument parser described by the module docstring's first line, with --markdown."""
    result = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    result.add_argument("--markdown", action="store_true", help="print GitHub markdown tables")
    return result
