"""Every web API document keeps its schema over the request fields that change its shape.

tests/schemas/test_documents.py checks one request per endpoint; here the
fields that add or change parts of a document: the independent mode, both
payoffs, ``top``, ``certificate``, an analysis with skipped lines (its
``warnings``), the report over the server's book, a job's document read back
from ``GET /api/jobs/{id}``, and the error answers, each against the shape the
OpenAPI document gives it.  The server's book is each test's private cache
(tests/conftest.py): the report's test builds it first.
"""

from __future__ import annotations

import warnings
from typing import Any

import jsonschema
import pytest

from solver.book.build import build
from solver.book.location import default_book_path
from solver.game.deal import deal
from solver.game.rules import Rules
from solver.models.heuristics import greedy_arrangement
from solver.web.app import create_app
from tests.support.documents import valid

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="Using `httpx`")
    from fastapi.testclient import TestClient

GREEDY1 = greedy_arrangement(deal(1).holdings[0]).format(ascii=True)
GREEDY3 = greedy_arrangement(deal(3).holdings[0]).format(ascii=True)


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(max_running=1, time_limit=120)) as test_client:
        yield test_client


def answered(client: TestClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(path, json=body)
    assert response.status_code == 200, (path, body, response.text)
    document: dict[str, Any] = response.json()
    return document


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/eval", {"cards": "As Ks Qs Js Ts", "ace_low_straight": True}),
        ("/api/deal", {"seed": 7, "mode": "independent"}),
        ("/api/suggest", {"seed": 3, "mode": "independent"}),
        ("/api/suggest", {"seed": 3, "against": "equilibrium", "payoff": "win"}),
        ("/api/equilibrium", {"seed": 3, "payoff": "win", "certificate": True}),
        pytest.param(  # seconds: the independent game is larger
            "/api/equilibrium",
            {"seed": 3, "mode": "independent", "certificate": True},
            marks=pytest.mark.slow,
        ),
        ("/api/grade", {"seed": 3, "arrangement": GREEDY3, "payoff": "win"}),
        ("/api/play", {"seed": 3, "arrangement": GREEDY3, "opponent": "house"}),
    ],
)
def test_a_web_document_under_its_options(client, path, body):
    document = answered(client, path, body)
    valid(document, f"quintet-{path.rsplit('/', 1)[1]}/1")
    if "certificate" in body:
        valid(document["certificate"], "quintet-certificate/1")
    if path == "/api/play":
        valid(document["score"], "quintet-score/1")


@pytest.mark.slow
def test_the_web_suggestion_with_runners_up(client):
    document = answered(client, "/api/suggest", {"seed": 1, "top": 2})
    valid(document, "quintet-suggest/1")
    assert len(document["runners_up"]) == 1


def test_the_web_analysis_with_skipped_lines_and_its_warnings(client):
    history = f"seed,arrangement\n1,{GREEDY1}\n3,{GREEDY3}\nnot a deal\n"
    document = answered(client, "/api/analyze", {"history": history, "top": 1})
    valid(document, "quintet-analysis/1")
    assert document["bad_lines"] and document["warnings"], document


def test_the_web_report_of_both_payoffs_and_a_filter(client):
    # The server's book (the default path, in this test's cache), both payoffs of two deals.
    build(default_book_path(), Rules(), ["margin", "win"], deals=2, seed=1)
    for body in ({}, {"payoff": "win"}, {"where": "value > 1000"}):
        valid(answered(client, "/api/report", body), "quintet-report/1")


def test_a_jobs_document_read_back_is_the_same_document(client):
    started = client.post("/api/jobs/equilibrium", json={"seed": 1})
    assert started.status_code == 202, started.text
    job = client.app.state.jobs.get(started.json()["id"])
    assert job is not None and job.finished_event.wait(timeout=120)
    status = client.get(f"/api/jobs/{job.id}").json()
    assert status["state"] == "done", status
    valid(status["result"], "quintet-equilibrium/1")


def test_the_error_answers_have_their_documented_shapes(client):
    document = client.get("/openapi.json").json()

    def shape(path: str, code: str) -> jsonschema.Draft202012Validator:
        operation = next(iter(document["paths"][path].values()))
        reference = operation["responses"][code]["content"]["application/json"]["schema"]
        name = reference["$ref"].rsplit("/", 1)[1]
        return jsonschema.Draft202012Validator(
            {**document["components"]["schemas"][name], "components": document["components"]}
        )

    for path, body, code in [
        ("/api/deal", {"seed": True}, "422"),
        ("/api/eval", {"cards": "As"}, "400"),
        ("/api/grade", {"seed": 3, "arrangement": GREEDY1}, "400"),
        ("/api/analyze", {"history": "", "top": 0}, "422"),
    ]:
        response = client.post(path, json=body)
        assert str(response.status_code) == code, (path, response.text)
        errors = [e.message for e in shape(path, code).iter_errors(response.json())]
        assert not errors, (path, response.json(), errors)
    missing = client.get("/api/jobs/nope")
    assert missing.status_code == 404
    assert not list(shape("/api/jobs/{job_id}", "404").iter_errors(missing.json()))
