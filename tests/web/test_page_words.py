"""What the pages are told: errors in their language and words, the computer's
layout varied by the match's seed, the Study page's "no book" without the server's path."""

from __future__ import annotations

import time
import warnings
from typing import Any

import pytest

from solver.game.arrangement import Arrangement
from solver.game.deal import deal
from solver.models.house import house_arrangement
from solver.web.app import create_app

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="Using `httpx`")
    from fastapi.testclient import TestClient

SEED1_LAYOUT = "As Ah Ad Kh Kd | Kc Qh Qd Qc Jh | Jd Jc Ts Th Td | Tc 9s 9h 9d 9c | 8d 8c 7s 7h 7c"
CARDS = SEED1_LAYOUT.replace(" |", "")


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(max_running=2, time_limit=60)) as test_client:
        yield test_client


def wait(client: Any, job_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 300  # a bound on a hang, not an expected duration
    while time.monotonic() < deadline:
        status = client.get(f"/api/jobs/{job_id}", headers={"Accept-Language": "ru"}).json()
        if status["state"] not in ("queued", "running"):
            return status
        time.sleep(0.05)
    raise AssertionError("the job did not finish")


def test_an_error_comes_in_the_pages_language_and_words(client):
    body = {"mode": "independent", "cards": CARDS}
    russian = client.post("/api/holdings", json=body, headers={"Accept-Language": "ru-RU,ru"})
    assert russian.status_code == 400
    assert russian.json() == {
        "detail": "opponent_cards are needed in independent mode",  # the library's line
        "argument": "opponent_cards",
        "message": "В независимом режиме нужны карты противника",
    }
    english = client.post("/api/holdings", json=body, headers={"Accept-Language": "en"})
    assert english.json()["message"] == "The opponent's cards are needed in independent mode"
    cards = client.post(
        "/api/holdings", json={"cards": "As Ks Xs"}, headers={"Accept-Language": "ru"}
    )
    assert cards.json()["message"].startswith("Карта 'Xs': неизвестное достоинство 'X'")


def test_a_jobs_error_comes_in_the_pages_language(client):
    body = {"seed": 1, "arrangement": "As Ks Qs Js Ts"}
    job = client.post("/api/jobs/grade", json=body, headers={"Accept-Language": "ru"})
    assert job.status_code == 400  # the arrangement is checked before the job starts
    assert job.json()["message"] == "Нужно 5 пакетов через '|', а дано 1"
    job = client.post("/api/jobs/suggest", json={"seed": 1, "against": "known", "known": "As"})
    status = wait(client, job.json()["id"])
    assert status["state"] == "error"
    assert status["error"] == "expected 5 packets separated by '|', got 1"
    assert status["message"] == "Нужно 5 пакетов через '|', а дано 1"


def _theirs(client: Any, variation: int | None) -> Arrangement:
    body: dict[str, Any] = {"seed": 3, "opponent": "house", "arrangement": SEED1_LAYOUT}
    body["arrangement"] = house_arrangement(deal(3).holdings[0]).format(ascii=True)
    if variation is not None:
        body["variation"] = variation
    response = client.post("/api/play", json=body)
    assert response.status_code == 200, response.text
    document = response.json()
    assert document["variation"] == variation
    return Arrangement.parse(" | ".join(" ".join(p) for p in document["score"]["arrangements"][1]))


def test_the_house_player_varies_its_layout_with_the_matchs_seed(client):
    fixed = house_arrangement(deal(3).holdings[1])
    assert _theirs(client, None) == fixed  # quintet play's game: the house rule as it is
    layouts = {_theirs(client, variation) for variation in range(5)}
    assert len(layouts) > 1
    assert _theirs(client, 2) == _theirs(client, 2)  # seeded: the same game again
    bad = client.post("/api/play", json={"seed": 3, "opponent": "house", "variation": -1,
                                         "arrangement": SEED1_LAYOUT})  # fmt: skip
    assert bad.status_code == 422


def test_study_without_a_book_says_so_without_the_servers_path(client, _private_cache):
    response = client.post("/api/report", json={"mode": "mirror", "payoff": "margin"})
    assert response.status_code == 404
    document = response.json()
    assert document["code"] == "no_book"
    assert str(_private_cache) not in response.text and "give deals" not in response.text
