"""Histories read for ``quintet analyze`` as untrusted input.

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


def _deal_lines() -> tuple[str, str]:
    """One CSV deal (header and row) and the same deal as a JSON Lines record."""
    from solver.game.deal import deal
    from solver.game.rules import Rules
    from solver.models.heuristics import greedy_arrangement

    laid = greedy_arrangement(deal(1, Rules()).holdings[0], Rules()).format(ascii=True)
    return f"seed,arrangement\n1,{laid}\n", f'{{"seed": 1, "arrangement": "{laid}"}}\n'


SAVED_AS = {
    "utf-8": lambda text: text.encode("utf-8"),
    "utf-8 with a mark (Excel's CSV UTF-8)": lambda text: b"\xef\xbb\xbf" + text.encode(),
    "utf-16 with a mark (Excel's Unicode text)": lambda text: text.encode("utf-16"),
    "utf-16-be with a mark": lambda text: "\ufeff".encode("utf-16-be") + text.encode("utf-16-be"),
    "windows line ends": lambda text: text.replace("\n", "\r\n").encode(),
    "a mark and windows line ends": lambda text: (
        b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode()
    ),
    "trailing blank lines": lambda text: (text + "\n\n  \n").encode(),
}


@pytest.mark.parametrize("kind", ["csv", "jsonl"])
@pytest.mark.parametrize("saved", SAVED_AS.values(), ids=SAVED_AS.keys())
def test_a_history_reads_as_an_editor_saved_it(tmp_path, kind, saved):
    csv_text, json_text = _deal_lines()
    path = tmp_path / f"history.{kind}"
    path.write_bytes(saved(csv_text if kind == "csv" else json_text))
    deals, bad = read_history(path)
    assert bad == [] and len(deals) == 1 and deals[0].seed == 1


def test_a_mark_in_uploaded_text_is_read_too():
    csv_text, _ = _deal_lines()
    deals, bad = parse_history("\ufeff" + csv_text)
    assert bad == [] and len(deals) == 1


def test_bytes_in_no_known_encoding_are_a_file_error(tmp_path):
    path = tmp_path / "h.csv"
    path.write_bytes(b"seed,arrangement\n1,\xff\xfe\n")
    with pytest.raises(FileError, match="not UTF-8 or UTF-16"):
        read_history(path)
