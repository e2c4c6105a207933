"""The web API (``quintet serve``) through the test client: the CLI's documents, its errors, jobs."""

from __future__ import annotations

import json
import sys
import time
import warnings
from typing import Any

import pytest

from solver.cli.main import main
from solver.web.app import MAX_BODY_BYTES, STATIC, create_app

with warnings.catch_warnings():
    # Starlette's test client now asks for httpx2; httpx is what it runs on here.
    warnings.filterwarnings("ignore", message="Using `httpx`")
    from fastapi.testclient import TestClient

ARR_A = "7c 7d 7h 7s 8c | 8d 8h 8s 9c 9d | 9h 9s Tc Td Th | Ts Jc Jd Jh Js | Qc Qd Qh Qs Kc"
ARR_B = "Ac Ad Ah As Kd | Kh Ks Qc Qd Qh | Qs Jc Jd Jh Js | Tc Td Th Ts 9c | 9d 9h 9s 8c 8d"
# Seed 1's holding (mirror mode) laid out high to low.
SEED1_LAYOUT = "As Ah Ad Kh Kd | Kc Qh Qd Qc Jh | Jd Jc Ts Th Td | Tc 9s 9h 9d 9c | 8d 8c 7s 7h 7c"


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(max_running=2, time_limit=60)) as test_client:
        yield test_client


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    """Run ``quintet ARGS`` in-process: exit status, the JSON document (or None), stderr."""
    status = main(list(args))
    captured = capsys.readouterr()
    document = json.loads(captured.out) if status == 0 and "--json" in args else None
    return status, document, captured.err.strip()


def without_times(document: Any) -> Any:
    """A document with its wall-clock fields removed (they differ run to run)."""
    if isinstance(document, dict):
        return {
            key: without_times(value)
            for key, value in document.items()
            if key not in ("seconds", "history")
        }
    if isinstance(document, list):
        return [without_times(item) for item in document]
    return document


# The request fields the errors below name, as the command line's options.
CLI_FLAGS = {
    "opponent_cards": "--opponent-cards",
    "fixed": "--fix",
    "against": "--against",
    "known": "--known",
    "payoff": "--payoff",
    "top": "--top",
}


def same_error(response: Any, cli_error: str) -> None:
    """The API's 400 carries the library's message: the CLI's line, with fields for flags."""
    from solver.cli.render import error_line
    from solver.errors import QuintetError

    assert response.status_code == 400, response.text
    detail = response.json()["detail"]
    assert "--" not in detail, detail  # the web speaks of its fields, never of flags
    assert cli_error == error_line(QuintetError(detail), CLI_FLAGS)


# ======================================================================= the CLI's documents


def test_eval_is_the_cli_document(client, capsys):
    status, document, _ = cli(capsys, "eval", "As Ks Qs Js Ts", "--ace-low-straight", "--json")
    response = client.post("/api/eval", json={"cards": "As Ks Qs Js Ts", "ace_low_straight": True})
    assert status == 0 and response.status_code == 200
    assert response.json() == document


def test_eval_bad_cards_is_the_cli_error(client, capsys):
    status, _, error = cli(capsys, "eval", "As Ks Qs Js 5s")
    assert status == 2
    same_error(client.post("/api/eval", json={"cards": "As Ks Qs Js 5s"}), error)


def test_eval_missing_cards_is_422(client):
    response = client.post("/api/eval", json={})
    assert response.status_code == 422
    assert response.json()["detail"] == "cards: Field required"


def test_deal_is_the_cli_document(client, capsys):
    status, document, _ = cli(capsys, "deal", "--seed", "7", "--mode", "independent", "--json")
    response = client.post("/api/deal", json={"seed": 7, "mode": "independent"})
    assert status == 0 and response.json() == document


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ({"seed": -1}, "seed: Input should be greater than or equal to 0"),
        (
            {"seed": "one"},
            "seed: Input should be a valid integer",
        ),
        ({"mode": "shuffle"}, "mode: Input should be 'mirror' or 'independent'"),
        ({"seed": 1, "colour": "red"}, "colour: Extra inputs are not permitted"),
    ],
)
def test_deal_bad_input_is_422(client, body, detail):
    response = client.post("/api/deal", json=body)
    assert response.status_code == 422
    assert response.json()["detail"] == detail


def test_deal_without_seed_deals_a_fresh_one(client):
    document = client.post("/api/deal", json={}).json()
    assert isinstance(document["seed"], int)
    assert len(document["holdings"][0]) == 25


def test_score_is_the_cli_document(client, capsys):
    status, document, _ = cli(capsys, "score", ARR_A, ARR_B, "--json")
    response = client.post("/api/score", json={"first": ARR_A, "second": ARR_B})
    assert status == 0 and response.json() == document


def test_score_bad_arrangement_is_the_cli_error(client, capsys):
    short = ARR_A.rsplit("|", 1)[0]
    status, _, error = cli(capsys, "score", short, ARR_B)
    assert status == 2
    same_error(client.post("/api/score", json={"first": short, "second": ARR_B}), error)


def test_malformed_json_is_422(client):
    response = client.post(
        "/api/score", content=b'{"first": ', headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert "JSON decode error" in response.json()["detail"]


def test_holdings_dealt_and_entered(client):
    dealt = client.post("/api/holdings", json={"seed": 1}).json()
    assert dealt["dealt"] is True and dealt["holding"] == dealt["opponent_holding"]
    entered = client.post("/api/holdings", json={"cards": " ".join(dealt["holding"]), "seed": 3})
    assert entered.json()["holding"] == dealt["holding"]
    assert entered.json()["dealt"] is False and entered.json()["seed"] == 3


def test_holdings_errors_are_the_cli_errors(client, capsys):
    cards = client.post("/api/holdings", json={"seed": 1}).json()["holding"]
    status, _, error = cli(capsys, "suggest", " ".join(cards), "--mode", "independent")
    assert status == 2
    response = client.post("/api/holdings", json={"cards": " ".join(cards), "mode": "independent"})
    same_error(response, error)
    too_few = client.post("/api/holdings", json={"cards": " ".join(cards[:24])})
    assert too_few.status_code == 400
    assert too_few.json()["detail"] == "expected 25 cards, got 24"


def test_suggest_is_the_cli_document(client, capsys):
    # One CP-SAT worker and the same time limit: the search is then deterministic
    # (the server always passes its time limit; with ties, workers race).
    args = ("--seed", "1", "--against", "greedy", "--workers", "1", "--time-limit", "60")
    status, document, _ = cli(capsys, "suggest", *args, "--engine", "cpsat", "--json")
    body = {"seed": 1, "against": "greedy", "workers": 1, "time_limit": 60, "engine": "cpsat"}
    response = client.post("/api/suggest", json=body)
    assert status == 0 and response.status_code == 200, response.text
    assert without_times(response.json()) == without_times(document)


def test_suggest_with_frontier_engine_and_points(client, capsys):
    args = ("--seed", "2", "--engine", "frontier", "--objective", "points", "--json")
    status, document, _ = cli(capsys, "suggest", *args)
    body = {"seed": 2, "engine": "frontier", "objective": "points"}
    response = client.post("/api/suggest", json=body)
    assert status == 0 and without_times(response.json()) == without_times(document)


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ({"seed": 1, "time_limit": -1}, "time_limit: Input should be greater than 0"),
        ({"seed": 1, "top": 0}, "top: Input should be greater than or equal to 1"),
        (
            {"seed": 1, "against": "mixture.json"},
            "against: Input should be 'random', 'greedy', 'house', 'known' or 'equilibrium'",
        ),
        (
            {"seed": 1, "objective": "glory"},
            "objective: Input should be 'points', 'margin', 'win' or 'game'",
        ),
    ],
)
def test_suggest_bad_input_is_422(client, body, detail):
    response = client.post("/api/suggest", json=body)
    assert response.status_code == 422
    assert response.json()["detail"] == detail


def test_suggest_library_errors_are_the_cli_errors(client, capsys):
    status, _, error = cli(capsys, "suggest", "--seed", "1", "--fix", "As Ks")
    assert status == 2
    same_error(client.post("/api/suggest", json={"seed": 1, "fix": ["As Ks"]}), error)
    status, _, error = cli(capsys, "suggest", "--seed", "1", "--against", "known")
    assert status == 2
    same_error(client.post("/api/suggest", json={"seed": 1, "against": "known"}), error)


def test_equilibrium_is_the_cli_document(client, capsys):
    response = client.post("/api/equilibrium", json={"seed": 1})
    status, document, _ = cli(capsys, "equilibrium", "--seed", "1", "--json")
    assert status == 0 and response.status_code == 200, response.text
    web = response.json()
    # Both look the deal up in a solution book first (the server's workers keep the
    # cache directory they started with, so which of them solved it depends on order).
    web_book, cli_book = web.pop("book"), document.pop("book")
    assert set(web_book) == set(cli_book) == {"path", "from_book", "stored"}
    assert web["history"] or web_book["from_book"], "a fresh solve reports its iterations"
    # The probability ranges come with a fresh solve only (the book does not store them).
    for answer in (web, document):
        answer.pop("strategy_ranges"), answer.pop("opponent_strategy_ranges")
    assert without_times(web) == without_times(document)


def test_equilibrium_with_a_simple_strategy_is_the_cli_document(client, capsys):
    body = {"seed": 1, "payoff": "win", "max_support": 3}
    response = client.post("/api/equilibrium", json=body)
    status, document, _ = cli(
        capsys, "equilibrium", "--seed", "1", "--payoff", "win", "--max-support", "3", "--json"
    )
    assert status == 0 and response.status_code == 200, response.text
    web = response.json()["simple_strategy"]
    assert without_times(web) == without_times(document["simple_strategy"])
    assert web["k"] == 3 and 1 <= len(web["strategy"]["strategies"]) <= 3
    assert 0.0 <= web["exploitability"] <= 1.0
    assert "simple_strategy" not in client.post("/api/equilibrium", json={"seed": 1}).json()


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ({"seed": 1, "tolerance": -1}, "tolerance: Input should be greater than or equal to 0"),
        ({"seed": 1, "payoff": "glory"}, "payoff: Input should be 'margin' or 'win'"),
        ({"seed": 1, "max_support": 0}, "max_support: Input should be greater than or equal to 1"),
        ({"seed": 1, "max_support": 51}, "max_support: Input should be less than or equal to 50"),
    ],
)
def test_equilibrium_bad_input_is_422(client, body, detail):
    response = client.post("/api/equilibrium", json=body)
    assert response.status_code == 422
    assert response.json()["detail"] == detail


def test_grade_is_the_cli_document(client, capsys):
    response = client.post("/api/grade", json={"seed": 1, "arrangement": SEED1_LAYOUT})
    status, document, _ = cli(capsys, "grade", SEED1_LAYOUT, "--seed", "1", "--json")
    assert status == 0 and response.status_code == 200, response.text
    web = response.json()
    web_book, cli_book = web.pop("book"), document.pop("book")
    assert set(web_book) == set(cli_book) == {"path", "from_book", "stored"}
    assert web == document
    assert web["verdict"] in ("best", "good", "inaccuracy", "mistake", "blunder")


def test_grade_job_reports_the_document(client):
    body = {"seed": 1, "arrangement": SEED1_LAYOUT, "payoff": "win"}
    job = client.post("/api/jobs/grade", json=body)
    assert job.status_code == 202, job.text
    status = wait(client, job.json()["id"])
    assert status["state"] == "done", status
    assert status["result"]["win_loss"] is not None


@pytest.mark.parametrize(
    "args",
    [
        # K♠ is not in deal 1's holding, A♠ is left out: both named.
        [SEED1_LAYOUT.replace("As", "Ks", 1)],
        # A card twice: one packet short of the holding's.
        [SEED1_LAYOUT.replace("As Ah", "Ah Ah", 1)],
        ["As Ah Ad Kh Kd | Kc Qh Qd Qc Jh"],
    ],
)
def test_grade_bad_arrangement_is_the_cli_error(client, capsys, args):
    status, _, error = cli(capsys, "grade", *args, "--seed", "1")
    assert status == 2 and error.count("\n") == 0
    response = client.post("/api/grade", json={"seed": 1, "arrangement": args[0]})
    same_error(response, error)


def test_grade_missing_arrangement_is_422(client):
    response = client.post("/api/grade", json={"seed": 1})
    assert response.status_code == 422
    assert response.json()["detail"] == "arrangement: Field required"


def test_play_scores_the_computer_arrangement(client):
    from solver.game.arrangement import Arrangement, score
    from solver.game.deal import deal
    from solver.models.heuristics import greedy_arrangement

    response = client.post(
        "/api/play", json={"seed": 1, "opponent": "greedy", "arrangement": SEED1_LAYOUT}
    )
    assert response.status_code == 200, response.text
    document = response.json()
    theirs = greedy_arrangement(deal(1).holdings[1])
    expected = score(Arrangement.parse(SEED1_LAYOUT), theirs)
    assert document["opponent"] == "greedy"
    assert document["score"]["points"] == list(expected.points)
    assert document["score"]["arrangements"][1] == [
        [code for code in packet.split()] for packet in theirs.format(ascii=True).split(" | ")
    ]
    assert document["score"]["outcomes"] == [int(o) for o in expected.outcomes]


def test_play_bad_arrangement_is_400_before_any_work(client):
    foreign = SEED1_LAYOUT.replace("7c", "5c")
    response = client.post("/api/jobs/play", json={"seed": 1, "arrangement": foreign})
    assert response.status_code == 400
    assert response.json()["detail"] == (
        "packet 5: card '5c': rank 5 is not in a 32-card deck (ranks are 7 8 9 10 J Q K A)"
    )
    wrong = client.post("/api/play", json={"seed": 1, "arrangement": ARR_A})
    assert wrong.status_code == 400
    assert "not in the holding" in wrong.json()["detail"]


def test_play_unknown_player_is_422(client):
    response = client.post(
        "/api/play", json={"seed": 1, "opponent": "clever", "arrangement": SEED1_LAYOUT}
    )
    assert response.status_code == 422
    assert response.json()["detail"].startswith("opponent: Input should be 'random'")


# ======================================================================= jobs


def test_job_runs_to_its_document(client):
    job = client.post("/api/jobs/suggest", json={"seed": 1, "engine": "frontier"})
    assert job.status_code == 202
    status = wait(client, job.json()["id"])
    assert status["state"] == "done"
    assert status["result"]["engine"] == "frontier"
    assert status["error"] is None


def test_job_warnings_are_in_its_status_never_on_the_console(client, capfd):
    # The frontier engine ignores workers: the warning reaches the client, in the
    # request's own words, not the console.
    job = client.post("/api/jobs/suggest", json={"seed": 1, "workers": 2})
    status = wait(client, job.json()["id"])
    assert status["state"] == "done"
    assert status["warnings"] == ["the frontier engine is exhaustive and ignores workers"]
    assert "warning" not in capfd.readouterr().err
    plain = wait(
        client,
        client.post("/api/jobs/grade", json={"seed": 1, "arrangement": SEED1_LAYOUT}).json()["id"],
    )
    assert plain["warnings"] == []


def test_a_time_limit_the_frontier_cannot_keep_is_400_not_504(client):
    # The frontier engine (suggest's default for one answer) cannot stop early: a
    # time limit for it is refused at once, never a job killed at that limit.
    for body in (
        {"seed": 1, "time_limit": 0.001},
        {"seed": 1, "engine": "frontier", "time_limit": 5},
    ):
        response = client.post("/api/suggest", json=body)
        assert response.status_code == 400
        assert response.json() == {
            "detail": "time_limit is not kept by the frontier engine (it is exhaustive)",
            "argument": "time_limit",
            "message": "The time limit is not kept by the frontier engine (it is exhaustive)",
        }
    # Without one its job takes the server's limit, not a capped time limit.
    done = client.post("/api/suggest", json={"seed": 1, "engine": "frontier"})
    assert done.status_code == 200 and done.json()["engine"] == "frontier"


def test_job_errors_are_reported_with_the_library_message(client):
    job = client.post("/api/jobs/suggest", json={"seed": 1, "against": "known", "known": "As"})
    status = wait(client, job.json()["id"])
    assert status["state"] == "error"
    assert status["error"] == "expected 5 packets separated by '|', got 1"


def test_queued_job_is_cancelled_before_it_starts():
    with TestClient(create_app(max_running=1, time_limit=60)) as one_slot:
        first = one_slot.post("/api/jobs/equilibrium", json={"seed": 5, "payoff": "win"}).json()
        second = one_slot.post("/api/jobs/equilibrium", json={"seed": 6}).json()
        assert second["state"] == "queued"
        cancelled = one_slot.delete(f"/api/jobs/{second['id']}").json()
        assert cancelled["state"] == "cancelled"
        assert cancelled["elapsed"] is None  # never started
        one_slot.delete(f"/api/jobs/{first['id']}")
        assert one_slot.get(f"/api/jobs/{first['id']}").json()["state"] == "cancelled"


def test_too_many_unfinished_jobs_is_429_with_retry_after(monkeypatch):
    from solver.web import jobs

    monkeypatch.setattr(jobs, "MAX_PENDING", 1)
    with TestClient(create_app(max_running=1, time_limit=60)) as one_slot:
        first = one_slot.post("/api/jobs/equilibrium", json={"seed": 5, "payoff": "win"}).json()
        for path in ("/api/jobs/equilibrium", "/api/equilibrium"):
            refused = one_slot.post(path, json={"seed": 6})
            assert refused.status_code == 429
            assert refused.headers["retry-after"] == str(jobs.RETRY_AFTER_SECONDS)
            assert refused.json()["detail"] == "the server has 1 unfinished jobs; try again later"
        one_slot.delete(f"/api/jobs/{first['id']}")


def test_unknown_job_is_404(client):
    assert client.get("/api/jobs/nope").status_code == 404
    assert client.delete("/api/jobs/nope").json()["detail"] == "no job 'nope'"


def test_fast_requests_answer_while_a_solve_runs(client):
    job = client.post("/api/jobs/equilibrium", json={"seed": 5, "payoff": "win"}).json()
    assert client.post("/api/eval", json={"cards": "7c 7d 7h 7s 8c"}).json()["strength"] > 0
    client.delete(f"/api/jobs/{job['id']}")


def wait(client: TestClient, job_id: str) -> dict[str, Any]:
    """The job's status once it has finished (a generous bound, not an expected duration)."""
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        status = client.get(f"/api/jobs/{job_id}").json()
        if status["state"] not in ("queued", "running"):
            return status
        time.sleep(0.05)
    raise AssertionError("the job did not finish in 10 minutes")


# ======================================================================= limits, pages, serve


def test_body_over_the_limit_is_413(client):
    big = {"cards": "As " * (MAX_BODY_BYTES // 3 + 10)}
    response = client.post("/api/eval", json=big)
    assert response.status_code == 413
    assert response.json()["detail"] == f"the request body is larger than {MAX_BODY_BYTES} bytes"


def test_streamed_body_over_the_limit_is_413(client):
    def chunks():
        for _ in range(MAX_BODY_BYTES // 1024 + 2):
            yield b" " * 1024

    response = client.post(
        "/api/eval", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413


def test_field_over_its_length_is_422(client):
    response = client.post("/api/eval", json={"cards": "As " * 200})
    assert response.status_code == 422
    assert response.json()["detail"] == "cards: String should have at most 400 characters"


def test_page_and_assets_come_from_the_package(client):
    page = client.get("/")
    assert page.status_code == 200 and 'id="hand"' in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for name in ("app.js", "panels.js", "cards.js", "i18n.js", "style.css"):
        assert client.get(f"/{name}").status_code == 200
        text = (STATIC / name).read_text(encoding="utf-8")
        assert "https://" not in text and "//cdn" not in text
    assert "https://" not in page.text


def test_openapi_and_the_endpoint_list(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/eval", "/api/deal", "/api/score", "/api/suggest", "/api/equilibrium"} <= set(
        paths
    )
    docs = client.get("/docs")
    assert docs.status_code == 200 and "/api/jobs/{job_id}" in docs.text
    assert "cdn" not in docs.text.lower()
    assert client.get("/redoc").status_code == 404


def test_serve_bad_port_is_one_line(capsys):
    status, _, error = cli(capsys, "serve", "--port", "70000")
    assert status == 2
    assert error == "quintet: error: --port must be between 0 and 65535, got 70000"


def test_serve_without_the_web_extra_names_it(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn now fails
    status, _, error = cli(capsys, "serve")
    assert status == 2
    assert (
        error
        == 'quintet: error: quintet serve needs the web extra: pip install "quintet-solver[web]"'
    )


def test_players_are_the_catalog(client):
    from solver.app.catalog import catalog

    response = client.get("/api/players")
    assert response.status_code == 200
    assert response.json() == catalog().document
    names = [p["name"] for p in response.json()["players"]]
    assert "house" in names and response.json()["recommended"] == "house"
