"""A training series' history file, read as untrusted input and appended safely.

The history (``quintet train --history FILE``) is a regular file of at most
:data:`MAX_TRAIN_HISTORY_BYTES` (a FIFO or a device is refused without being
opened, so nothing blocks).  Every line is one record of the series; a record
that is not (not JSON, another series, a missing field, a deal number that
is not one of the series', a loss that is not finite, an unknown verdict) is
an error ``history FILE: line N: ...``.  A last line without its end of line
(cut short by a crash or a full disk) is dropped with one warning and cut
from the file before the series resumes after the last complete deal.

>>> import tempfile, os
>>> from solver.game.rules import Rules
>>> path = os.path.join(tempfile.mkdtemp(), "h.jsonl")
>>> _ = open(path, "w").write('{"format": "quintet-train/1"')
>>> history = read_history(path, Series(deals=2, seed=5, rules=Rules()))
>>> history.records, history.warnings
([], ('history ...h.jsonl: line 1: cut short (a crash or a full disk?): dropped',))
>>> _ = open(path, "w").write("[1, 2]\\n")
>>> read_history(path, Series(deals=2, seed=5, rules=Rules()))
Traceback (most recent call last):
    ...
solver.errors.QuintetError: history ...h.jsonl: line 1: not a JSON object
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from solver.analysis.grade import Verdict
from solver.errors import FileError, QuintetError
from solver.game.payloads import rules_payload
from solver.game.rules import Rules
from solver.schemas import FORMATS
from solver.util.files import read_text_limited

__all__ = [
    "FORMAT",
    "MAX_TRAIN_HISTORY_BYTES",
    "History",
    "HistoryWriter",
    "Series",
    "read_history",
    "recorded_series",
]

FORMAT = FORMATS["train"]

# A history larger than this is refused (a record is about 2 KB: some 30,000 deals).
MAX_TRAIN_HISTORY_BYTES = 64 * 1024 * 1024

VERDICTS = frozenset(v.value for v in Verdict)


@dataclass(frozen=True)
class Series:
    """A training series: how many deals, from which seed, under which rules."""

    deals: int
    seed: int
    rules: Rules

    def __post_init__(self) -> None:
        if self.deals < 1:
            raise QuintetError(f"deals must be at least 1, got {self.deals}", argument="deals")

    def deal_seed(self, index: int) -> int:
        """The seed of deal ``index`` (from 0)."""
        return self.seed + index

    def header(self) -> dict[str, Any]:
        """What every history line repeats about the series."""
        return {
            "format": FORMAT,
            "seed": self.seed,
            "deals": self.deals,
            "rules": rules_payload(self.rules),
        }


@dataclass(frozen=True)
class History:
    """The checked records of a history, the warnings, and where its complete lines end."""

    records: list[dict[str, Any]] = field(default_factory=list)
    warnings: tuple[str, ...] = ()
    complete_bytes: int | None = None  # None: the file ends with a complete line (or is absent)


def _bad(path: Path, number: int, reason: str) -> QuintetError:
    return QuintetError(f"history {path}: line {number}: {reason}", argument="history")


def _finite(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def _check_record(record: object, series: Series) -> str | None:
    """Why ``record`` is not a record of ``series`` (None if it is one)."""
    if not isinstance(record, dict):
        return "not a JSON object"
    if any(record.get(k) != v for k, v in series.header().items()):
        return (
            "from another series (seed, deals or rules differ from seed "
            f"{series.seed}, {series.deals} deals)"
        )
    index = record.get("deal")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < series.deals:
        return f"deal must be an integer in [0, {series.deals - 1}], got {index!r}"
    if record.get("deal_seed") != series.deal_seed(index):
        return f"deal_seed must be {series.deal_seed(index)} for deal {index}"
    grade = record.get("grade")
    if not isinstance(grade, dict):
        return "grade must be an object"
    if not _finite(grade.get("equilibrium_loss")):
        return f"equilibrium_loss must be a finite number, got {grade.get('equilibrium_loss')!r}"
    if grade.get("verdict") not in VERDICTS:
        return f"verdict must be one of {', '.join(sorted(VERDICTS))}, got {grade.get('verdict')!r}"
    return None


def _parse(line: str) -> object:
    try:
        return json.loads(line)
    except RecursionError:
        return "nested too deeply"
    except ValueError as error:  # not JSON, or an integer of more than 4,300 digits
        return "not JSON" if isinstance(error, json.JSONDecodeError) else f"not JSON ({error})"


def read_history(path: str | Path, series: Series) -> History:
    """The records of ``path`` (none if it is missing), checked against ``series``.

    Raises
    ------
    QuintetError
        ``history FILE: ...``: not a regular file, over the size limit, or a
        line that is not a record of this series.
    """
    path = Path(path)
    if not os.path.lexists(path):
        return History()
    try:
        text = read_text_limited(path, max_bytes=MAX_TRAIN_HISTORY_BYTES)
    except FileError as error:
        raise QuintetError(f"history {error}", argument="history") from None
    lines = text.split("\n")
    last = lines.pop()  # "" when the file ends with an end of line
    records, warnings, complete = [], [], None
    if last:
        number = len(lines) + 1
        warnings.append(
            f"history {path}: line {number}: cut short (a crash or a full disk?): dropped"
        )
        complete = len(text.encode("utf-8")) - len(last.encode("utf-8"))
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        record = _parse(line)
        reason = record if isinstance(record, str) else _check_record(record, series)
        if reason is not None:
            raise _bad(path, number, reason)
        assert isinstance(record, dict)
        records.append(record)
    return History(records, tuple(warnings), complete)


def recorded_series(path: str | Path) -> tuple[int, int] | None:
    """The seed and the deal count of the series ``path`` records (from its first line),
    or None: no such file, no complete line, or a first line that does not say them
    (:func:`read_history` then says what is wrong with it).

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "h.jsonl")
    >>> recorded_series(path) is None
    True
    >>> _ = open(path, "w").write('{"format": "quintet-train/1", "seed": 7, "deals": 4}\\n')
    >>> recorded_series(path)
    (7, 4)
    >>> _ = open(path, "w").write('{"seed": -1, "deals": 4}\\n')
    >>> recorded_series(path) is None
    True
    """
    path = Path(path)
    if not os.path.lexists(path):
        return None
    try:
        text = read_text_limited(path, max_bytes=MAX_TRAIN_HISTORY_BYTES)
    except FileError as error:
        raise QuintetError(f"history {error}", argument="history") from None
    complete = [line for line in text.split("\n")[:-1] if line.strip()]
    record = _parse(complete[0]) if complete else None
    if not isinstance(record, dict):
        return None
    seed, deals = record.get("seed"), record.get("deals")
    if type(seed) is not int or type(deals) is not int:  # not bool, not float
        return None
    return (seed, deals) if seed >= 0 and deals >= 1 else None


class HistoryWriter:
    """The history opened for appending: each record a line, flushed; errors name the file."""

    def __init__(self, path: Path, history: History) -> None:
        self.path = path
        try:
            if history.complete_bytes is not None:
                os.truncate(path, history.complete_bytes)  # the cut line, dropped
            self._handle: IO[str] = path.open("a", encoding="utf-8")
        except OSError as error:
            raise self._error(error) from None

    def _error(self, error: OSError) -> QuintetError:
        reason = error.strerror or type(error).__name__
        return QuintetError(f"history {self.path}: cannot write: {reason}", argument="history")

    def write(self, record: dict[str, Any]) -> None:
        """Append ``record`` as one line, flushed at once (a kill keeps it)."""
        try:
            self._handle.write(json.dumps(record, ensure_ascii=True) + "\n")
            self._handle.flush()
        except OSError as error:
            raise self._error(error) from None

    def close(self) -> None:
        """Close the file (every record is flushed already)."""
        with contextlib.suppress(OSError):
            self._handle.close()
