"""The suite's harness: cases as data, timing, fresh processes, statistics, tables.

A case runs in this process (its alternatives alternating, so they share the load) and
starts fresh processes through :func:`probe` (``benchmarks/probes.py``, which imports
the ``solver`` of the checkout it is given: this one or ``--baseline``'s).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent
PROBES = Path(__file__).with_name("probes.py")


@dataclass(frozen=True)
class Case:
    """One benchmark: what it runs, its options at full size, the quick overrides, the
    alternatives it compares side by side in the same run, and the function measuring it."""

    name: str
    title: str
    runs: str
    full: dict[str, Any]
    quick: dict[str, Any]
    alternatives: tuple[str, ...]
    measure: Callable[[Run], list[Table]]

    def options(self, quick: bool = False, settings: Sequence[str] = ()) -> dict[str, Any]:
        """The options of a run: full sizes, the quick ones, then ``NAME=VALUE`` settings."""
        chosen = self.full | (self.quick if quick else {})
        for setting in settings:
            name, _, text = setting.partition("=")
            if name not in self.full:
                raise ValueError(
                    f"{self.name}: no option {name!r} (options: {', '.join(self.full)})"
                )
            chosen[name] = type(self.full[name])(text)
        return chosen


@dataclass
class Run:
    """A case's run: its options and the checkouts measured (``this checkout`` first)."""

    options: dict[str, Any]
    roots: dict[str, Path]

    def __getattr__(self, name: str) -> Any:
        try:
            return self.options[name]
        except KeyError:
            raise AttributeError(name) from None

    def words(self, name: str) -> list[str]:  # a comma-separated option
        return [word for word in str(self.options[name]).split(",") if word]


def timed(call: Callable[[], Any]) -> tuple[float, float, Any]:
    """Wall seconds, CPU seconds (this process, all threads) and the result of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = call()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@dataclass
class Child:
    """A fresh process: its output, wall and CPU seconds (its own and its children's)."""

    stdout: str
    wall: float
    cpu: float
    error: str


def process(argv: Sequence[str], root: Path = REPO_ROOT, timeout: float | None = None,
            env: dict[str, str] | None = None) -> Child:  # fmt: skip
    """``python ARGV`` with the checkout ``root`` first on the path, whole-process timed."""
    environment = os.environ | {"PYTHONPATH": str(root), "QUINTET_PROGRESS": "0"} | (env or {})
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    wall, cpu = time.perf_counter(), children_cpu()
    try:
        done = subprocess.run([sys.executable, *argv], capture_output=True, text=True,
                              env=environment, cwd=root, timeout=timeout)  # fmt: skip
        out, error = done.stdout, done.stderr[-2000:] if done.returncode else ""
    except subprocess.TimeoutExpired as expired:
        out, error = str(expired.stdout or ""), f"killed after {timeout:.0f} s"
    return Child(out, time.perf_counter() - wall, children_cpu() - cpu, error)


def probe(
    name: str, root: Path = REPO_ROOT, timeout: float | None = None, **arguments: Any
) -> dict:
    """The last JSON line of ``probes.py NAME`` in a fresh process (``{"error": ...}`` if it failed)."""
    done = process([str(PROBES), name, json.dumps(arguments)], root, timeout)
    log(f"{name} {arguments}: {done.error[-300:] or 'done'} ({done.wall:.1f} s)")
    lines = [
        line for line in done.stdout.splitlines() if line[:1] == "{"
    ]  # probes print JSON lines
    if done.error or not lines:
        return {"error": done.error or "no output"}
    return json.loads(lines[-1]) | {"process_cpu": done.cpu, "process_wall": done.wall}


def command(argv: Sequence[str], root: Path = REPO_ROOT, cache: str | None = None) -> Child:
    """``quintet ARGV`` as a whole process (``XDG_CACHE_HOME=cache``); exits on a failure."""
    env = {"XDG_CACHE_HOME": cache} if cache else None
    done = process(["-m", "solver.cli", *argv], root, 600, env)
    if done.error:
        sys.exit(f"quintet {' '.join(argv)} in {root}: {done.error[-500:]}")
    return done


def alternate(items: Iterable[Any], names: Sequence[str],
              measure: Callable[[Any, str], Any]) -> dict[str, list[Any]]:  # fmt: skip
    """``measure(item, name)`` for every alternative, item after item (the same load)."""
    found: dict[str, list[Any]] = {name: [] for name in names}
    for item in items:
        for name in names:
            if (result := measure(item, name)) is not None:
                found[name].append(result)
    return found


def median(values: Iterable[float]) -> float:
    return float(np.median(np.fromiter(values, dtype=np.float64)))


def pct(values: Iterable[float], q: float) -> float:  # linear interpolation
    return float(np.percentile(np.fromiter(values, dtype=np.float64), q))


def seconds(value: float) -> str:  # 0.123 s below ten seconds, 12.3 s above
    return "-" if not np.isfinite(value) else f"{value:.3f} s" if value < 10 else f"{value:.1f} s"


def ms(value: float) -> str:
    return f"{1000 * value:.1f} ms"


def spread(
    values: Sequence[float], fmt: Callable[[float], str] = seconds, p99: bool = False
) -> list[str]:
    """Median, p95 (and p99) and maximum, formatted."""
    points = [median(values), pct(values, 95), *([pct(values, 99)] if p99 else []), max(values)]
    return [fmt(p) for p in points]


def met(ok: bool) -> str:
    return "yes" if ok else "NO"


@dataclass
class Table:
    """A titled table: ``headers`` one string separated by ``"; "``, ``align`` "l"/"r" each."""

    title: str
    headers: list[str] | str
    align: str
    rows: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if isinstance(self.headers, str):
            self.headers = self.headers.split("; ")

    def add(self, *cells: object) -> None:
        """Append a row: the cells, or one string of cells separated by ``"; "``."""
        if len(cells) == 1 and isinstance(cells[0], str):
            cells = tuple(cells[0].split("; "))
        self.rows.append([str(cell) for cell in cells])

    def render(self, markdown: bool) -> str:
        """The table as GitHub markdown or as aligned plain text."""
        if markdown:
            rule = "|" + "|".join("---:" if a == "r" else ":---" for a in self.align) + "|"
            lines = [f"### {self.title}", "", md_line(self.headers), rule, *map(md_line, self.rows)]
            return "\n".join(lines + ([""] if self.notes else []) + [f"- {n}" for n in self.notes])
        widths = [max(map(len, column)) for column in zip(self.headers, *self.rows, strict=True)]

        def line(cells: Sequence[str]) -> str:
            padded = zip(cells, widths, self.align, strict=True)
            return "  ".join(c.rjust(w) if a == "r" else c.ljust(w) for c, w, a in padded).rstrip()

        lines = [self.title, "=" * len(self.title), line(self.headers)]
        lines += ["  ".join("-" * w for w in widths), *map(line, self.rows)]
        return "\n".join(lines + [f"  * {n}" for n in self.notes])


def md_line(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def log(message: str) -> None:  # progress on stderr: stdout holds only the tables
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def load_average() -> str:
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def git_revision(root: Path = REPO_ROOT) -> str:
    """The short commit of a checkout, "+ changes" if tracked files differ from it."""
    try:

        def git(*arguments: str) -> str:
            return subprocess.run(["git", *arguments], cwd=root, capture_output=True,
                                  text=True, check=True, timeout=10).stdout  # fmt: skip

        dirty = git("status", "--porcelain", "--untracked-files=no").strip()
        return git("rev-parse", "--short", "HEAD").strip() + (" + changes" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def machine() -> str:
    """The machine line: date, CPU, cores, Python, revision, load (1 / 5 / 15 min)."""
    lines = Path("/proc/cpuinfo").read_text().splitlines() if Path("/proc/cpuinfo").exists() else []
    model = next((x.split(":", 1)[1].strip() for x in lines if x.startswith("model name")), "")
    return (f"{dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC, {model or platform.machine()}, "
            f"{os.cpu_count()} logical CPUs, Python {platform.python_version()}, "
            f"git {git_revision()}, load average {load_average()}")  # fmt: skip
