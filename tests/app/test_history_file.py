"""Histories read for ``quintet analyze`` as untrusted input (issue #26, class 3).

Deeply nested JSON, integers too long to parse, overflowing rules and a
last line cut short are bad lines reported by number, never tracebacks;
a FIFO is refused without blocking.
"""

from __future__ import annotations

import os

import pytest

from solver.app.history import parse_history, read_history
from solver.errors import FileError

GOOD = '{"seed": 1, "arrangement": "As"}'  # a deal, with a bad arrangement: line 1 is bad too

CASES = {
    "deeply nested": ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    "huge int": ('{"seed": ' + "1" * 5000 + ', "arrangement": "x"}', "not JSON"),
    "overflowing rules": (
        '{"seed": 1, "rules": {"position_points": [1' + "0" * 400 + ", 1, 1, 1, 1]}, "
        '"arrangement": "x"}',
        "position points must be at most",
    ),
    "negative seed": ('{"seed": -3, "arrangement": "x"}', "non-negative"),
    "missing arrangement": ('{"seed": 1}', "no arrangement"),
}


@pytest.mark.parametrize("line, reason", CASES.values(), ids=CASES.keys())
def test_a_malformed_line_is_reported_by_number(line, reason):
    deals, bad = parse_history(f"{GOOD}\n{line}\n")
    assert deals == [] and [b.line for b in bad] == [1, 2]
    assert reason in bad[1].reason


def test_a_last_line_cut_short_is_reported_as_such():
    _deals, bad = parse_history(f'{GOOD}\n{{"seed": 1, "arran')
    assert bad[-1].line == 2 and "cut short" in bad[-1].reason


def test_a_fifo_is_refused_without_blocking(tmp_path):
    path = tmp_path / "fifo"
    os.mkfifo(path)
    with pytest.raises(FileError, match="not a regular file"):
        read_history(path)
