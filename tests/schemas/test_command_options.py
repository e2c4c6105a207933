"""Every ``--json`` document keeps its schema over the options that change its shape.

tests/schemas/test_documents.py checks one run of each command; this module
runs each command over the options that add, drop or null a part of its
document: with a book and with ``--no-book`` (``"book": null``), ``--top``,
the independent mode, both payoffs, the files ``--certificate`` and ``--out``
write, and the failures (``--json`` prints no document then: one line on
stderr, exit 2; a damaged book's check is a document, exit 1).  Documents
are validated with format checking.  The deals are small seeded ones whose
solves take about a second; the slower runs are marked slow.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest

from solver.game.deal import deal
from solver.game.rules import DiscardMode, Rules
from solver.models.heuristics import greedy_arrangement
from solver.schemas import FORMATS
from tests.support.cli import quintet
from tests.support.documents import errors_of, valid

LAYOUT = "As Ah Ad Kh Kd | Kc Qh Qd Qc Jh | Jd Jc Ts Th Td | Tc 9s 9h 9d 9c | 8d 8c 7s 7h 7c"
OTHER = "8d 8c 7s 7h 7c | Kc Qh Qd Qc Jh | Jd Jc Ts Th Td | Tc 9s 9h 9d 9c | As Ah Ad Kh Kd"
INDEPENDENT = ("--mode", "independent")


def greedy(seed: int, rules: Rules | None = None) -> str:
    """The greedy layout of the first holding of deal ``seed``, as ASCII text."""
    return greedy_arrangement(deal(seed, rules or Rules()).holdings[0]).format(ascii=True)


def run_json(*args: str) -> dict[str, Any]:
    """``quintet ARGS --json``, succeeded: its document."""
    process = quintet(*args, "--json")
    assert process.returncode == 0, process.stderr
    document: dict[str, Any] = json.loads(process.stdout)
    return document


# name -> (arguments, what the options change in the document).  "BOOK" is replaced
# by a book shared by the module (empty at first: a solve, then stored answers).
SLOW = pytest.mark.slow
CASES: dict[str, tuple[str, ...]] = {
    "eval all rule options": (
        "eval",
        "As Ks Qs Js Ts",
        *INDEPENDENT,
        "--ace-low-straight",
        "--flush-beats-full-house",
    ),
    "deal independent": ("deal", "--seed", "7", *INDEPENDENT),
    "score independent": ("score", LAYOUT, OTHER, *INDEPENDENT),
    "suggest no book": ("suggest", "--seed", "1", "--no-book"),
    "suggest independent": ("suggest", "--seed", "3", *INDEPENDENT, "--no-book"),
    "suggest known": ("suggest", "--seed", "1", "--known", OTHER, "--no-book"),
    "suggest fixed": ("suggest", "--seed", "1", "--fix", "1=As Ah Ad Kh Kd", "--no-book"),
    "suggest sampled win": (
        "suggest",
        "--seed",
        "3",
        "--against",
        "random",
        "--objective",
        "win",
        "--samples",
        "20",
        "--no-book",
    ),
    "suggest equilibrium no book": (
        "suggest",
        "--seed",
        "3",
        "--against",
        "equilibrium",
        "--no-book",
    ),
    "suggest equilibrium book": (
        "suggest",
        "--seed",
        "3",
        "--against",
        "equilibrium",
        "--book",
        "BOOK",
    ),
    "suggest equilibrium win": (
        "suggest",
        "--seed",
        "3",
        "--against",
        "equilibrium",
        "--payoff",
        "win",
        "--no-book",
    ),
    "equilibrium no book": ("equilibrium", "--seed", "3", "--no-book"),
    "equilibrium book": ("equilibrium", "--seed", "3", "--book", "BOOK"),
    "equilibrium win": ("equilibrium", "--seed", "3", "--payoff", "win", "--no-book"),
    "equilibrium win book": ("equilibrium", "--seed", "3", "--payoff", "win", "--book", "BOOK"),
    "equilibrium show": ("equilibrium", "--seed", "1", "--show", "1", "--no-book"),
    "grade no book": ("grade", greedy(3), "--seed", "3", "--no-book"),
    "grade book": ("grade", greedy(3), "--seed", "3", "--book", "BOOK"),
    "grade win": ("grade", greedy(3), "--seed", "3", "--payoff", "win", "--no-book"),
    "house no book": ("house", "--seed", "3", "--no-book"),
    "house book": ("house", "--seed", "3", "--book", "BOOK"),
    "house independent": ("house", "--seed", "3", *INDEPENDENT, "--no-book"),
    "tournament independent": (
        "tournament",
        "--players",
        "greedy,random",
        "--deals",
        "2",
        "--seed",
        "1",
        *INDEPENDENT,
    ),
}
SLOW_CASES: dict[str, tuple[str, ...]] = {
    # Seconds each: runners-up are CP-SAT solves, the independent equilibrium is larger.
    "suggest top": ("suggest", "--seed", "1", "--top", "2", "--no-book"),
    "suggest cpsat top": ("suggest", "--seed", "1", "--engine", "cpsat", "--top", "2", "--no-book"),
    "equilibrium independent": ("equilibrium", "--seed", "3", *INDEPENDENT, "--no-book"),
    "grade independent": (
        "grade",
        greedy(3, Rules(discard_mode=DiscardMode.INDEPENDENT)),
        "--seed",
        "3",
        *INDEPENDENT,
        "--no-book",
    ),
}


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("options") / "book.sqlite")


def _check_case(args: tuple[str, ...], book: str) -> dict[str, Any]:
    document = run_json(*(book if arg == "BOOK" else arg for arg in args))
    valid(document, FORMATS[args[0]])
    return document


def args_use_equilibrium(args: tuple[str, ...]) -> bool:
    """True when the command's answer asks the equilibrium source (and says which book)."""
    return args[0] in ("equilibrium", "grade", "house") or "equilibrium" in args


@pytest.mark.parametrize("name", list(CASES))
def test_a_command_document_under_its_options(name, book):
    document = _check_case(CASES[name], book)
    if "--no-book" in CASES[name] and args_use_equilibrium(CASES[name]):
        assert document["book"] is None
    if "BOOK" in CASES[name]:
        assert document["book"]["path"] == book


@SLOW
@pytest.mark.parametrize("name", list(SLOW_CASES))
def test_a_command_document_under_its_slower_options(name, book):
    document = _check_case(SLOW_CASES[name], book)
    if "--top" in SLOW_CASES[name]:
        assert len(document["runners_up"]) == 1


def test_the_no_book_document_says_book_null_and_the_schema_refuses_a_wrong_book():
    document = run_json("equilibrium", "--seed", "1", "--no-book")
    assert document["book"] is None
    valid(document, "quintet-equilibrium/1")
    for wrong in ({}, {"path": None, "from_book": False, "stored": False}, "none"):
        assert errors_of({**document, "book": wrong}, "quintet-equilibrium/1"), wrong


@pytest.mark.parametrize("payoff", ["margin", "win"])
def test_the_certificate_and_mixture_files_of_both_payoffs(tmp_path, payoff):
    certificate, mixture = tmp_path / "certificate.json", tmp_path / "mixture.json"
    document = run_json(
        *("equilibrium", "--seed", "3", "--payoff", payoff, "--no-book"),
        *("--certificate", str(certificate), "--out", str(mixture)),
    )
    valid(document, "quintet-equilibrium/1")
    written = json.loads(certificate.read_text(encoding="utf-8"))
    valid(written, "quintet-certificate/1")
    assert written["payoff"] == payoff
    valid(json.loads(mixture.read_text(encoding="utf-8")), "quintet-mixture/1")


def test_the_documents_of_a_solve_stopped_by_its_time_limit(tmp_path):
    """An equilibrium not converged and its certificate.

    Seed 4's win equilibrium mixes 637 arrangements, and double oracle adds a few per
    iteration: stopped after its first iteration (any time limit shorter than one), it
    cannot have converged, however fast or loaded the machine is."""
    certificate = tmp_path / "certificate.json"
    document = run_json(
        *("equilibrium", "--seed", "4", "--payoff", "win", "--time-limit", "0.01"),
        *("--no-book", "--certificate", str(certificate)),
    )
    valid(document, "quintet-equilibrium/1")
    assert document["converged"] is False
    valid(json.loads(certificate.read_text(encoding="utf-8")), "quintet-certificate/1")
    stopped = run_json(
        *("suggest", "--seed", "1", "--engine", "cpsat", "--top", "2", "--time-limit", "0.05"),
        "--no-book",
    )
    valid(stopped, "quintet-suggest/1")


@SLOW
def test_the_certificate_file_of_the_independent_mode(tmp_path):
    certificate = tmp_path / "certificate.json"
    run_json(
        "equilibrium", "--seed", "3", *INDEPENDENT, "--no-book", "--certificate", str(certificate)
    )
    valid(json.loads(certificate.read_text(encoding="utf-8")), "quintet-certificate/1")


def test_the_book_documents_of_both_payoffs_and_their_reports(tmp_path):
    path = str(tmp_path / "book.sqlite")
    built = run_json("book", "build", "--book", path, "--deals", "1", "--payoff", "both")
    valid(built, "quintet-book-build/1")
    valid(run_json("book", "stats", "--book", path), "quintet-book-stats/1")
    valid(run_json("book", "check", "--book", path), "quintet-book-check/1")
    for payoff in ("margin", "win"):
        valid(run_json("report", "--book", path, "--payoff", payoff), "quintet-report/1")
    filtered = run_json("report", "--book", path, "--where", "value > 1000")
    valid(filtered, "quintet-report/1")


def test_a_damaged_books_check_is_a_document_with_exit_status_1(tmp_path):
    path = tmp_path / "book.sqlite"
    run_json("book", "build", "--book", str(path), "--deals", "1")
    connection = sqlite3.connect(path)
    connection.execute("UPDATE solutions SET value = 'y'")
    connection.commit()
    connection.close()
    process = quintet("book", "check", "--book", str(path), "--json")
    assert process.returncode == 1, process.stderr
    document = json.loads(process.stdout)
    valid(document, "quintet-book-check/1")
    assert document["damaged"], document


def test_the_analysis_with_and_without_a_book_and_top(tmp_path):
    history = tmp_path / "history.csv"
    history.write_text(f"seed,arrangement\n1,{greedy(1)}\n3,{greedy(3)}\n", encoding="utf-8")
    book = str(tmp_path / "book.sqlite")
    for options in (("--no-book",), ("--book", book, "--top", "1"), ("--book", book)):
        valid(run_json("analyze", str(history), *options), "quintet-analysis/1")


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("deal", "--seed", "x"), "'x'"),
        (("suggest", "--seed", "1", "--top", "0", "--no-book"), "--top"),
        (("suggest", "--seed", "3", "--against", "equilibrium", "--top", "2"), "--top"),
        (("equilibrium", "--seed", "1", "--show", "0", "--no-book"), "--show"),
        (("book", "stats", "--book", "missing.sqlite"), "missing.sqlite"),
        (("report", "--deals", "2", "--no-book"), "--book"),
        (("train", "--seed", "1", "--no-book"), "--history FILE.jsonl"),
        (("play", "--seed", "1", "--no-book"), "interactive game"),
    ],
)
def test_a_failed_command_prints_no_document_only_one_line(tmp_path, args, fragment):
    """With --json a failure is no document: stdout stays empty, one line on stderr, exit 2."""
    process = quintet(*args, "--json", cwd=tmp_path)
    assert (process.returncode, process.stdout) == (2, ""), process.stderr
    lines = process.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0] and "Traceback" not in process.stderr
