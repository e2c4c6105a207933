"""Histories of played deals, read for ``quintet analyze``: JSON Lines or CSV.

**JSON Lines** (one object a line): the lines ``quintet train --history``
writes (``{"format": "quintet-train/1", "rules": {...}, "deal_seed": S,
"grade": {"arrangement": [[...], ...]}, ...}``), or plain records
``{"rules": {...}, "seed": S, "arrangement": ...}`` where ``seed`` may be
replaced by ``"holding"`` and ``"opponent_holding"`` (lists of card codes),
``arrangement`` is a list of packets of card codes or the text
``"P1 | P2 | ..."``, and ``"opponent_arrangement"`` is optional.

**CSV** (a header row, then one deal a row; a file whose first character is
not ``{``)::

    seed,holding,opponent_holding,mode,position_points,ace_low_straight,
    flush_beats_full_house,arrangement,opponent_arrangement

Either ``seed`` or ``holding`` (25 cards; ``opponent_holding`` too in
independent mode); ``mode`` is ``mirror`` (default) or ``independent``;
``position_points`` e.g. ``3-4-5-6-7`` (the default); the two options are
``0``/``1`` (default 0); ``arrangement`` is ``"P1 | P2 | P3 | P4 | P5"``;
``opponent_arrangement`` is optional.  Only ``arrangement`` and a deal are
required.

A line that is not a deal (not JSON, a missing field, cards that are not
the holding's) is skipped and reported by its number, never silently.

Files are read as a spreadsheet or an editor saves them: UTF-8 with or
without a byte-order mark (Excel's "CSV UTF-8", Notepad), UTF-16 with its
mark (Excel's "Unicode text"), Windows line ends, blank lines anywhere.

>>> decode_history(b"\\xef\\xbb\\xbfseed,arrangement\\r\\n")
'seed,arrangement\\r\\n'
>>> decode_history("seed".encode("utf-16"))
'seed'
>>> decode_history(b"seed\\xff")
Traceback (most recent call last):
    ...
solver.errors.FileError: history: not UTF-8 or UTF-16 text with a byte-order mark (byte 4)

>>> deals, bad = parse_history('{"seed": 1, "arrangement": "As"}\\nnot json\\n')
>>> len(deals), [b.line for b in bad]
(0, [1, 2])
>>> read_history("/nonexistent.jsonl")
Traceback (most recent call last):
    ...
solver.errors.FileError: /nonexistent.jsonl: no such file
"""

from __future__ import annotations

import codecs
import csv
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.app.requests import holdings
from solver.errors import FileError, QuintetError
from solver.game.arrangement import Arrangement
from solver.game.rules import DiscardMode, Rules
from solver.util.files import read_bytes_limited

__all__ = [
    "CSV_COLUMNS",
    "MAX_HISTORY_BYTES",
    "BadLine",
    "PlayedDeal",
    "decode_history",
    "parse_history",
    "read_history",
]

MAX_HISTORY_BYTES = 64 * 1024 * 1024
CSV_COLUMNS = (
    "seed",
    "holding",
    "opponent_holding",
    "mode",
    "position_points",
    "ace_low_straight",
    "flush_beats_full_house",
    "arrangement",
    "opponent_arrangement",
)


@dataclass(frozen=True)
class PlayedDeal:
    """One deal of a history: where it was, the deal, what was laid (and the opponent's)."""

    line: int
    rules: Rules
    mine: tuple[int, ...]
    theirs: tuple[int, ...]
    seed: int | None
    arrangement: Arrangement
    opponent_arrangement: Arrangement | None = None


@dataclass(frozen=True)
class BadLine:
    """A line skipped, and why."""

    line: int
    reason: str


class _BadLineError(Exception):
    pass


def _rules(record: Mapping[str, Any]) -> Rules:
    given = record.get("rules") or {}
    if not isinstance(given, dict):
        raise _BadLineError("rules must be an object")
    try:
        points = given.get("position_points", record.get("position_points"))
        if isinstance(points, str):
            points = [int(p) for p in points.split("-")]
        options = {
            k: _flag(given.get(k, record.get(k, False)), k)
            for k in ("ace_low_straight", "flush_beats_full_house")
        }
        mode = given.get("discard_mode", record.get("mode")) or "mirror"
        return Rules(
            position_points=tuple(points) if points else (3, 4, 5, 6, 7),
            discard_mode=DiscardMode(mode),
            **options,
        )
    except (TypeError, ValueError, OverflowError) as error:  # QuintetError is a ValueError
        raise _BadLineError(f"bad rules: {error}") from None


def _flag(value: object, name: str) -> bool:
    if isinstance(value, bool):
        return value
    if value in ("", "0", "false", 0, None):
        return False
    if value in ("1", "true", 1):
        return True
    raise _BadLineError(f"{name} must be 0 or 1, got {value!r}")


def _text(value: object) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(p, list) for p in value):
        return " | ".join(" ".join(str(c) for c in packet) for packet in value)
    if isinstance(value, list):
        return " ".join(str(c) for c in value)
    raise _BadLineError(f"expected cards, got {value!r}")


def _seed(value: object) -> int | None:
    if value is None or value == "":
        return None
    try:
        seed = int(str(value))
    except ValueError:
        raise _BadLineError(f"seed {value!r} is not a number") from None
    if seed < 0:
        raise _BadLineError(f"seed must be non-negative, got {seed}")
    return seed


def _deal(record: Mapping[str, Any], line: int) -> PlayedDeal:
    """The deal of one record (a train line, a plain record, a CSV row)."""
    rules = _rules(record)
    grade = record.get("grade")
    arrangement = record.get("arrangement")
    if arrangement is None and isinstance(grade, dict):
        arrangement = grade.get("arrangement")
    text = _text(arrangement)
    if text is None:
        raise _BadLineError("no arrangement")
    seed = _seed(record.get("deal_seed", record.get("seed")))
    cards, opponent = _text(record.get("holding")), _text(record.get("opponent_holding"))
    if cards is None and seed is None:
        raise _BadLineError("neither seed nor holding")
    try:
        dealt = holdings(cards, opponent, seed if cards is None else 0, rules)
        laid = Arrangement.parse(text, n_packets=rules.n_packets)
        laid.check(dealt.mine, rules)
        other_text = _text(record.get("opponent_arrangement"))
        other = None
        if other_text is not None:
            other = Arrangement.parse(other_text, n_packets=rules.n_packets)
            other.check(dealt.theirs, rules)
    except QuintetError as error:
        raise _BadLineError(str(error)) from None
    return PlayedDeal(line, rules, dealt.mine, dealt.theirs, seed, laid, other)


def _json_records(text: str) -> Iterator[tuple[int, Mapping[str, Any] | str]]:
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        # A last line without its end of line is whole when it parses (text pasted or
        # kept by a browser); one that does not was cut short by a crash or a full disk.
        unended = number == len(lines) and not text.endswith("\n")
        try:
            record = json.loads(line)
        except RecursionError:
            yield number, "not JSON (nested too deeply)"
            continue
        except ValueError:  # not JSON, or an integer of more than 4,300 digits
            yield number, "cut short (a crash or a full disk?)" if unended else "not JSON"
            continue
        yield number, record if isinstance(record, dict) else "not a JSON object"


def _csv_records(text: str) -> Iterator[tuple[int, Mapping[str, Any] | str]]:
    reader = csv.reader(text.splitlines())
    header = [h.strip() for h in next(reader, [])]
    unknown = [h for h in header if h not in CSV_COLUMNS]
    if unknown or "arrangement" not in header:
        reason = f"unknown column {unknown[0]!r}" if unknown else "no arrangement column"
        yield 1, f"not a history header ({reason}; columns: {', '.join(CSV_COLUMNS)})"
        return
    for number, row in enumerate(reader, start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            yield number, f"{len(row)} cells, the header has {len(header)}"
            continue
        yield number, dict(zip(header, (cell.strip() for cell in row), strict=True))


# Byte-order marks and the encodings they announce (UTF-32 before UTF-16: it starts alike).
_MARKS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def decode_history(data: bytes, name: str = "history") -> str:
    """The text of a history file's bytes: UTF-8, or the encoding its byte-order mark names."""
    encoding = next((enc for mark, enc in _MARKS if data.startswith(mark)), "utf-8")
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        raise FileError(
            f"{name}: not UTF-8 or UTF-16 text with a byte-order mark (byte {error.start})"
        ) from None


def parse_history(text: str) -> tuple[list[PlayedDeal], list[BadLine]]:
    """The deals of a history's text (JSON Lines, or CSV when it does not start with ``{``)."""
    text = text.removeprefix("\ufeff")  # a mark kept by a browser's upload or a paste
    if not text.strip():
        return [], []
    records = _json_records(text) if text.lstrip().startswith("{") else _csv_records(text)
    deals, bad = [], []
    for number, record in records:
        if isinstance(record, str):
            bad.append(BadLine(number, record))
            continue
        try:
            deals.append(_deal(record, number))
        except _BadLineError as error:
            bad.append(BadLine(number, str(error)))
    return deals, bad


def read_history(path: str | Path) -> tuple[list[PlayedDeal], list[BadLine]]:
    """The deals of the history file ``path`` (see :func:`parse_history`)."""
    data = read_bytes_limited(path, max_bytes=MAX_HISTORY_BYTES)
    return parse_history(decode_history(data, str(path)))
