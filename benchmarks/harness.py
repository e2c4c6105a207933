"""The benchmark harness: timing, fresh processes, machine facts, tables, the command line.

It imports nothing of ``solver``, so that a child process measuring another checkout
(``--baseline PATH``) loads that one's package.
"""

import argparse
import datetime as dt
import importlib.metadata
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Timing:
    """Wall and CPU seconds of each timed call, and the last call's result."""

    wall: list[float]
    cpu: list[float]
    result: Any


def timed(call: Callable[[], Any], repeats: int = 1, warmup: int = 0) -> Timing:
    """``warmup`` untimed calls, then ``repeats`` timed ones (process CPU time: all threads)."""
    result = None
    for _ in range(warmup):
        result = call()
    wall, cpu = [], []
    for _ in range(repeats):
        started, cpu_started = time.perf_counter(), time.process_time()
        result = call()
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started)
    return Timing(wall, cpu, result)


@dataclass
class Child:
    """What a fresh process printed, its wall time, what went wrong ("" if nothing)."""

    stdout: str
    wall: float
    error: str

    @property
    def messages(self) -> list[Any]:  # the JSON lines it printed (emit)
        return [json.loads(line) for line in self.stdout.splitlines() if line[:1] in "{["]


def fresh(*arguments: str, root: Path | None = None, timeout: float | None = None) -> Child:
    """``python ARGUMENTS`` in the checkout ``root`` (first on the path), killed at ``timeout``."""
    root = (root or REPO_ROOT).resolve()
    path = os.environ.get("PYTHONPATH")
    env = os.environ | {"PYTHONPATH": str(root) + (os.pathsep + path if path else "")}
    started = time.perf_counter()
    command = [sys.executable, *arguments]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, env=env, cwd=root, timeout=timeout
        )
        out, error = done.stdout, done.stderr[-2000:] if done.returncode else ""
    except subprocess.TimeoutExpired as expired:
        out = expired.stdout.decode() if isinstance(expired.stdout, bytes) else expired.stdout
        out, error = out or "", f"killed after {timeout:.0f} s"
    return Child(out, time.perf_counter() - started, error)


def last(*arguments: str) -> Any:
    """The last JSON line of a fresh process; exit with its error if it failed."""
    done = fresh(*arguments)
    if done.error or not done.messages:
        sys.exit(f"{' '.join(arguments)}: {done.error or 'no output'}")
    return done.messages[-1]


def emit(**fields: Any) -> None:
    """In a child process: one JSON line for the parent."""
    print(json.dumps(fields), flush=True)


def alternate(
    items: Iterable[Any], alternatives: Sequence[str], measure: Callable[[Any, str], Any]
) -> dict[str, list[Any]]:
    """``measure(item, alternative)`` for every alternative, item after item (same load)."""
    found: dict[str, list[Any]] = {name: [] for name in alternatives}
    for item in items:
        for name in alternatives:
            if (result := measure(item, name)) is not None:
                found[name].append(result)
    return found


def groups(items: Sequence[dict], **keys: Iterable[Any]) -> Iterator[tuple[list[Any], list[dict]]]:
    """``(values, items having them)`` for every combination of the keys' values, if any."""
    combinations: list[list[Any]] = [[]]
    for values in keys.values():
        combinations = [[*c, v] for c in combinations for v in values]
    for values in combinations:
        pairs = list(zip(keys, values, strict=True))
        if group := [item for item in items if all(item[k] == v for k, v in pairs)]:
            yield values, group


def median(values: Iterable[float]) -> float:
    return float(statistics.median(values))


def mean(values: Iterable[float]) -> float:
    return float(statistics.fmean(values))


def p95(values: Sequence[float]) -> float:  # linear interpolation
    return float(np.percentile(np.asarray(values, dtype=np.float64), 95))


def p99(values: Sequence[float]) -> float:  # linear interpolation
    return float(np.percentile(np.asarray(values, dtype=np.float64), 99))


def seconds(value: float) -> str:  # 0.123 s below ten seconds, 12.3 s above
    return f"{value:.3f} s" if value < 10 else f"{value:.1f} s"


def ms(value: float) -> str:
    return f"{1000 * value:.1f} ms"


def spread(values: Sequence[float], fmt: Callable[[float], str] = seconds) -> list[str]:
    """Median, p95 and maximum, formatted."""
    return [fmt(median(values)), fmt(p95(values)), fmt(max(values))]


def met(ok: bool) -> str:
    return "yes" if ok else "NO"


@dataclass
class Table:
    """A titled table: ``headers`` one string separated by ``"; "``, ``align`` "l" or "r" each."""

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


def show(tables: Sequence[Table], markdown: bool, footer: str = "") -> None:
    print("\n\n".join(table.render(markdown) for table in tables) + f"\n\n{footer}")


def elapsed(started: float, load: bool = True) -> str:
    """The footer: the time since ``started`` (``time.perf_counter``), the load at the end."""
    text = f"Total benchmark time: {time.perf_counter() - started:.1f} s"
    return text + (f"; load average at the end: {load_average()}" if load else "")


def log(message: str) -> None:  # progress on stderr: stdout holds only the tables
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def cpu_model() -> str:
    info = Path("/proc/cpuinfo")
    lines = info.read_text(encoding="utf-8").splitlines() if info.exists() else []
    names = [line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")]
    return names[0] if names else platform.processor() or "unknown"


def git_revision(root: Path = REPO_ROOT) -> str:
    """The short commit of a checkout, and which tracked files differ from it."""

    def git(*arguments: str) -> str:
        command = ["git", *arguments]
        return subprocess.run(
            command, cwd=root, capture_output=True, text=True, check=True, timeout=10
        ).stdout

    try:
        head = git("rev-parse", "--short", "HEAD").strip()
        dirty = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    names = sorted({line[3:].split(" -> ")[-1] for line in dirty.splitlines() if line})
    return f"{head}, modified: {', '.join(names)}" if names else head


def load_average(suffix: str = " (1 / 5 / 15 min)") -> str:
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg()) + suffix
    except OSError:
        return "unknown"


def package(module: Any) -> tuple[str, str]:  # the machine-table row of ``solver``
    return ("quintet-solver", f"{module.__version__}, git {git_revision()}")


def machine(versions: Sequence[str | tuple[str, str]], parameters: str, load: bool = True) -> Table:
    """Date, machine, load, Python, versions (``(item, value)`` or names split by " / ")."""
    cpus = os.cpu_count() or 1
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else cpus
    items = [
        ("date", dt.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M:%S %Z")),
        ("platform", platform.platform()),
        ("CPU", f"{cpu_model()}, {cpus} logical CPUs ({usable} usable)"),
        *([("load average at start", load_average())] if load else []),
        ("python", f"{platform.python_implementation()} {platform.python_version()}"),
        *[
            v if isinstance(v, tuple) else (v, " / ".join(map(version, v.split(" / "))))
            for v in versions
        ],
        ("parameters", parameters),
    ]
    return Table("Machine", ["item", "value"], "ll", [[key, value] for key, value in items])


class Parser(argparse.ArgumentParser):
    """Options described by the module docstring; errors on one line, exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")

    def options(self, kind: Callable[[str], Any], **defaults: Any) -> "Parser":
        """An option ``--name`` (``name`` with dashes) of that type for each ``name=default``."""
        for name, default in defaults.items():
            self.add_argument("--" + name.replace("_", "-"), type=kind, default=default)
        return self


def parser(doc: str | None, baseline: bool = False) -> Parser:
    """A parser with --markdown, the hidden --child (a part in a fresh process), --baseline."""
    text = (doc or "").strip()
    result = Parser(
        description=text.splitlines()[0] if text else None,
        epilog=text.split("\n\n", 1)[-1] if "\n\n" in text else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    result.add_argument("--markdown", action="store_true", help="print GitHub markdown tables")
    result.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    if baseline:
        result.add_argument("--baseline", type=checkout, help="another checkout to measure too")
    return result


def checkout(text: str) -> Path:
    if not (Path(text) / "solver").is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is not a checkout (no solver/ in it)")
    return Path(text).resolve()
