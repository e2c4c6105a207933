"""``quintet analyze`` and ``quintet report`` as real processes: Ctrl-C, bad lines, bad filters."""

from __future__ import annotations

import csv
import json
import signal
import subprocess
import time

import pytest

from tests.support.cli import CLI, one_line_error, quintet
from tests.support.cli import write_history as _history


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_keeps_the_graded_rows(tmp_path, jobs):
    history, out = tmp_path / "h.csv", tmp_path / "rows.csv"
    _history(history, 200)
    process = subprocess.Popen(
        [*CLI, "analyze", str(history), "--no-book", "--csv", str(out), "--json", "--jobs", jobs],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while not (out.exists() and len(out.read_text().splitlines()) >= 2):  # the first row
        assert process.poll() is None and time.monotonic() < deadline, process.stderr
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "interrupted:" in stderr
    document = json.loads(stdout)
    rows = list(csv.DictReader(out.open()))
    assert document["interrupted"] and 1 <= len(rows) < 200
    assert len(document["rows"]) == len(rows)  # every row graded is in the file and the answer
    assert [int(r["line"]) for r in rows] == [r["line"] for r in document["rows"]]


def test_bad_lines_are_printed_by_number(tmp_path):
    history = tmp_path / "h.csv"
    _history(history, 1)
    with history.open("a") as handle:
        handle.write("1,As Ks\nnot-a-seed,x\n")
    done = quintet("analyze", str(history), "--no-book")
    assert done.returncode == 0, done.stderr
    warnings = done.stderr.strip().splitlines()
    assert warnings[0].startswith("quintet: warning: line 3: skipped:")
    assert warnings[1].startswith("quintet: warning: line 4: skipped: seed 'not-a-seed'")
    assert "deals graded 1" in done.stdout


def test_output_path_is_checked_before_the_work(tmp_path):
    history = tmp_path / "h.csv"
    _history(history, 1)
    done = quintet("analyze", str(history), "--csv", str(tmp_path / "no" / "x.csv"))
    one_line_error(done, "does not exist")


def test_report_refuses_a_bad_filter_naming_the_token(tmp_path):
    one_line_error(quintet("report", "--where", "aces >= two"), "unexpected 'two' at column 9")
    one_line_error(quintet("report", "--where", "queens > 1"), "unknown name 'queens'")


def test_a_history_saved_by_excel_is_graded(tmp_path):
    """Excel's "CSV UTF-8": a byte-order mark and Windows line ends."""
    plain, excel = tmp_path / "h.csv", tmp_path / "excel.csv"
    _history(plain, 1)
    excel.write_bytes(
        b"\xef\xbb\xbf" + plain.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    )
    done = quintet("analyze", str(excel), "--no-book")
    assert done.returncode == 0, done.stderr
    assert "deals graded 1" in done.stdout


@pytest.mark.parametrize(
    "content, why",
    [
        (b"", "it is empty"),
        (b"\n\n", "it is empty"),
        (b"\xef\xbb\xbfwho,what\r\n1,2\r\n", "not a history header"),
        (b'{"seed": 1}\n', "no arrangement"),
    ],
)
def test_a_history_without_a_deal_is_an_error(tmp_path, content, why):
    history = tmp_path / "h.csv"
    history.write_bytes(content)
    done = quintet("analyze", str(history), "--no-book")
    one_line_error(done, "no deal to grade")
    assert why in done.stderr
