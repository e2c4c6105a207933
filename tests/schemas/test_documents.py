"""Every document the command line and the web API emit validates against its schema.

The command line runs as a subprocess (``--json``) on small seeded inputs; the
web API answers through FastAPI's test client.  Each document names its own
format (``"format": "quintet-KIND/N"``), and that name picks the schema: a
document whose keys or values drift from its schema fails here.
"""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from solver.game.deal import deal
from solver.models.heuristics import greedy_arrangement
from solver.schemas import FORMATS, schema, schema_file
from tests.support.cli import quintet

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="Using `httpx`")
    from fastapi.testclient import TestClient

SCHEMAS = Path(__file__).parents[2] / "solver" / "schemas"
# Seed 1 (mirror mode) laid out high to low, and the greedy layout of seed 3.
SEED1_LAYOUT = "As Ah Ad Kh Kd | Kc Qh Qd Qc Jh | Jd Jc Ts Th Td | Tc 9s 9h 9d 9c | 8d 8c 7s 7h 7c"
SEED1_OTHER = "8d 8c 7s 7h 7c | Kc Qh Qd Qc Jh | Jd Jc Ts Th Td | Tc 9s 9h 9d 9c | As Ah Ad Kh Kd"
GREEDY3 = "9d Th Jh Qh Kd | 9c Td Jc Qd Kc | 7c 7d 7h 7s Ah | 8c 8d 8h 8s Ad | 9s Ts Js Qs Ks"


def valid(document: Any, expected: str) -> None:
    """``document`` names the format ``expected`` and is valid under its schema."""
    assert isinstance(document, dict) and document.get("format") == expected, document
    validator = jsonschema.Draft202012Validator(
        schema(expected), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(document)]
    assert not errors, errors[:5]


def test_every_format_has_a_valid_schema_file_and_every_file_a_format():
    files = {p.name for p in SCHEMAS.glob("*.schema.json")}
    assert files == {schema_file(name) for name in FORMATS.values()}
    for kind, name in FORMATS.items():
        document = schema(name)
        jsonschema.Draft202012Validator.check_schema(document)
        assert document["title"] == name and name == f"quintet-{kind}/1"


def test_a_drifted_document_fails_its_schema():
    document = {"format": "quintet-eval/1", "cards": ["As", "Ks", "Qs", "Js", "Ts"]}
    with pytest.raises(AssertionError, match="required property"):
        valid(document, "quintet-eval/1")
    extra = json.loads(quintet("eval", "As Ks Qs Js Ts", "--json").stdout)
    with pytest.raises(AssertionError, match="Additional properties"):
        valid({**extra, "colour": "red"}, "quintet-eval/1")


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("book") / "book.sqlite")


COMMANDS = {
    "eval": ["eval", "As Ks Qs Js Ts"],
    "deal": ["deal", "--seed", "7", "--mode", "independent"],
    "score": ["score", SEED1_LAYOUT, SEED1_OTHER],
    "suggest": ["suggest", "--seed", "1"],
    "suggest --top": ["suggest", "--seed", "1", "--top", "2"],
    "suggest equilibrium": ["suggest", "--seed", "3", "--against", "equilibrium"],
    "equilibrium": ["equilibrium", "--seed", "3", "--show", "3"],
    "equilibrium --max-support": [
        "equilibrium",
        "--seed",
        "3",
        "--show",
        "3",
        "--max-support",
        "2",
    ],
    "grade": ["grade", GREEDY3, "--seed", "3"],
    "house": ["house", "--seed", "3"],
    "tournament": ["tournament", "--players", "greedy,random", "--deals", "2", "--seed", "1"],
}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_the_command_line_documents(name, book):
    args = COMMANDS[name]
    uses_book = args[0] in ("suggest", "equilibrium", "grade", "house")
    process = quintet(*args, "--json", *(["--book", book] if uses_book else []))
    assert process.returncode == 0, process.stderr
    valid(json.loads(process.stdout), FORMATS[args[0]])


def test_the_book_documents_and_the_mixture_file(tmp_path):
    path = str(tmp_path / "b.sqlite")
    built = quintet("book", "build", "--book", path, "--deals", "2", "--seed", "0", "--json")
    assert built.returncode == 0, built.stderr
    valid(json.loads(built.stdout), "quintet-book-build/1")
    stats = quintet("book", "stats", "--book", path, "--json")
    valid(json.loads(stats.stdout), "quintet-book-stats/1")
    out = tmp_path / "mixture.json"
    solved = quintet("equilibrium", "--seed", "1", "--no-book", "--out", str(out), "--json")
    assert solved.returncode == 0, solved.stderr
    valid(json.loads(out.read_text(encoding="utf-8")), "quintet-mixture/1")
    valid(json.loads(solved.stdout)["strategy"], "quintet-mixture/1")


def test_the_training_history_lines(tmp_path):
    history = tmp_path / "h.jsonl"
    typed = greedy_arrangement(deal(1).holdings[0]).format(ascii=True)
    process = quintet(
        "train",
        *("--seed", "1", "--deals", "1", "--no-book", "--history", str(history)),
        input=typed + "\n",
        encoding="utf-8",
        env=dict(os.environ, PYTHONIOENCODING="utf-8"),
    )
    assert process.returncode == 0, process.stderr
    lines = history.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1
    valid(json.loads(lines[0]), "quintet-train/1")


def test_the_web_api_documents():
    from solver.web.app import create_app

    requests = {
        "eval": {"cards": "As Ks Qs Js Ts"},
        "deal": {"seed": 7},
        "score": {"first": SEED1_LAYOUT, "second": SEED1_OTHER},
        "suggest": {"seed": 1},
        "equilibrium": {"seed": 1},
        "grade": {"seed": 1, "arrangement": SEED1_LAYOUT},
        "play": {"seed": 1, "arrangement": SEED1_LAYOUT, "opponent": "greedy"},
    }
    with TestClient(create_app(max_running=1, time_limit=120)) as client:
        for kind, body in requests.items():
            response = client.post(f"/api/{kind}", json=body)
            assert response.status_code == 200, (kind, response.text)
            valid(response.json(), FORMATS[kind])
            if kind == "play":
                valid(response.json()["score"], "quintet-score/1")


def test_the_mixture_schema_accepts_what_the_reader_reads():
    from solver.models.mixture import Mixture

    document = {
        "format": "quintet-mixture/1",
        "note": "kept as metadata",
        "strategies": [{"probability": 1.0, "arrangement": SEED1_LAYOUT}],
    }
    valid(document, "quintet-mixture/1")
    assert Mixture.from_dict(document).probabilities == (1.0,)


def test_the_python_side_uses_the_same_names():
    from solver.models import mixture
    from solver.play import training

    assert FORMATS["mixture"] == mixture.FORMAT and FORMATS["train"] == training.FORMAT


def test_the_analysis_report_and_book_check_documents(tmp_path):
    """A history analyzed, a report over a small book, and the book's check (reduced games)."""
    from solver.app.analyze import AnalyzeRequest, analyze
    from solver.app.books import BookCheckRequest, check_book
    from solver.app.requests import BookChoice
    from solver.app.study import StudyRequest, study
    from solver.book.build import build
    from solver.game.rules import DiscardMode, Rules
    from tests.app.test_analyze import _history

    history, _, _ = _history(tmp_path, deals=3)
    with_bad_line = tmp_path / "bad.jsonl"
    with_bad_line.write_text(history.read_text() + "not a deal\n")
    book = BookChoice(str(tmp_path / "analyzed.sqlite"))
    valid(analyze(AnalyzeRequest(path=str(with_bad_line), book=book)).document, FORMATS["analysis"])
    from solver.game.deal import deal
    from solver.models.heuristics import greedy_arrangement

    laid = greedy_arrangement(deal(1).holdings[0]).format(ascii=True)
    seeded = analyze(AnalyzeRequest(content=f"seed,arrangement\n1,{laid}\n", book=book)).document
    assert seeded["rows"][0]["url"].startswith("/?seed=1&")  # a link, not null
    valid(seeded, FORMATS["analysis"])
    for mode in DiscardMode:
        rules = Rules(position_points=(6, 7), discard_mode=mode)
        path = tmp_path / f"{mode.value}.sqlite"
        build(path, rules, ["margin"], deals=2, seed=1)
        report = study(StudyRequest(rules=rules, book=BookChoice(str(path)))).document
        valid(report, FORMATS["report"])
        valid(check_book(BookCheckRequest(str(path))).document, FORMATS["book-check"])


def test_the_certificate_in_a_file_and_in_the_web_answer(tmp_path):
    """The certificate ``--certificate`` writes and the web's ``certificate: true`` answer."""
    path = tmp_path / "certificate.json"
    done = quintet("equilibrium", "--seed", "1", "--no-book", "--certificate", str(path), "--json")
    assert done.returncode == 0, done.stderr
    valid(json.loads(path.read_text()), FORMATS["certificate"])
    from solver.web.app import create_app

    with TestClient(create_app(time_limit=60)) as client:
        body = {"seed": 1, "certificate": True}
        answer = client.post("/api/equilibrium", json=body).json()
    valid(answer, FORMATS["equilibrium"])
    valid(answer["certificate"], FORMATS["certificate"])


def test_the_players_catalog():
    from solver.web.app import create_app

    with TestClient(create_app()) as client:
        valid(client.get("/api/players").json(), FORMATS["players"])
