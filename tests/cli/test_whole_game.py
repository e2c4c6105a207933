"""``quintet report`` without a book (the shipped summary), ``report --summary``,
``book summary`` and the build's estimate, as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solver.book.summary import SHIPPED
from solver.schemas import schema
from tests.support.cli import one_line_error, quintet


def _valid(document: dict) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(document, schema("quintet-summary/1"))


def test_report_without_a_book_shows_the_shipped_summary(tmp_path: Path) -> None:
    missing = str(tmp_path / "none.sqlite")
    done = quintet("report", "--book", missing)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("the whole game: ")
    assert "position 5: equilibrium concedes" in done.stdout and "payoff margin" in done.stdout
    assert f"no book at {missing}" in done.stderr and "Traceback" not in done.stderr
    russian = quintet("report", "--book", missing, "--lang", "ru", "--payoff", "win")
    assert russian.returncode == 0 and russian.stdout.startswith("вся игра: ")
    assert "выплата победа" in russian.stdout
    document = json.loads(quintet("report", "--book", missing, "--json").stdout)
    _valid(document)
    assert [b["payoff"] for b in document["payoffs"]] == ["margin"]
    shipped = json.loads(SHIPPED.read_text("utf-8"))
    assert document["payoffs"][0] == shipped["payoffs"][0]


def test_report_with_a_filter_and_no_book_still_needs_a_book(tmp_path: Path) -> None:
    bad = quintet("report", "--book", str(tmp_path / "none.sqlite"), "--where", "aces >= 2")
    one_line_error(bad, "no such file (build a book first, or give deals)")


def test_report_summary_of_a_damaged_file(tmp_path: Path) -> None:
    document = json.loads(SHIPPED.read_text("utf-8"))
    document["payoffs"][0]["pure"]["mean"] = 2.0  # margin's figures damaged, win's kept
    damaged = tmp_path / "damaged.json"
    damaged.write_text(json.dumps(document), "utf-8")
    win = quintet("report", "--summary", str(damaged), "--payoff", "win")
    assert win.returncode == 0 and "payoff win" in win.stdout
    assert "payoff 1 is damaged (pure: mean: 2.0 is not in [0.0, 1.0]); left out" in win.stderr
    margin = quintet("report", "--summary", str(damaged))
    one_line_error(margin, "no readable figures of the margin payoff")
    garbage = tmp_path / "garbage.json"
    garbage.write_text("not json", "utf-8")
    one_line_error(quintet("report", "--summary", str(garbage)), "garbage.json is not JSON")


def test_book_summary_and_the_estimate_of_a_build(tmp_path: Path) -> None:
    book, out = tmp_path / "b.sqlite", tmp_path / "s.json"
    built = quintet("book", "build", "--book", str(book), "--classes", "0:3", "--payoff", "both")
    assert built.returncode == 0, built.stderr
    assert built.stderr.startswith("estimate: 3 classes x ")
    assert "(margin: the shipped summary; win: the shipped summary)" in built.stderr
    again = quintet("book", "build", "--book", str(book), "--classes", "0:3", "--payoff", "both")
    assert again.stderr.startswith("estimate: 0 classes x ")
    made = quintet("book", "summary", "--book", str(book), "--out", str(out), "--json")
    assert made.returncode == 0, made.stderr
    document = json.loads(out.read_text("utf-8"))
    _valid(document)
    assert json.loads(made.stdout) == document
    assert [b["classes"] for b in document["payoffs"]] == [3, 3]
    assert document["sample"]["kind"] == "book"
    shown = quintet("report", "--summary", str(out))
    assert shown.returncode == 0 and "3 mirror classes of a book, of 156,248" in shown.stdout
    nowhere = quintet("book", "summary", "--book", str(book), "--out", str(tmp_path / "x" / "s"))
    one_line_error(nowhere, "is not a directory")
    one_line_error(quintet("book", "build", "--classes", "5:2"), "is not START:STOP")
