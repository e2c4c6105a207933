"""The duel's HTTP face (solver.web.duel_api): tokens in a header, status codes, waiting, words."""

from __future__ import annotations

import threading
import warnings
from typing import Any

import pytest

from solver.web.app import create_app

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="Using `httpx`")
    from fastapi.testclient import TestClient


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(max_running=1, time_limit=60)) as test_client:
        yield test_client


def layout(holding: list[str]) -> str:
    return " | ".join(" ".join(holding[i : i + 5]) for i in range(0, 25, 5))


def room(client: Any, mode: str = "mirror") -> tuple[dict[str, Any], dict[str, Any]]:
    host = client.post("/api/duel", json={"mode": mode, "seed": 5}).json()
    guest = client.post(f"/api/duel/{host['code']}/join").json()
    return host, guest


def as_player(ticket: dict[str, Any]) -> dict[str, str]:
    return {"X-Room-Token": ticket["token"]}


def test_open_join_lay_out_and_see_the_score(client) -> None:
    host, guest = room(client, "independent")
    assert (host["seat"], guest["seat"]) == (0, 1)
    assert host["room"]["phase"] == "waiting" and guest["room"]["phase"] == "laying"
    assert host["room"]["holding"] == guest["room"]["opponent_holding"]
    code = host["code"]
    for ticket in (host, guest):
        answer = client.post(
            f"/api/duel/{code}/layout",
            headers=as_player(ticket),
            json={"arrangement": layout(ticket["room"]["holding"])},
        )
        assert answer.status_code == 200
    seen = client.get(f"/api/duel/{code}", headers=as_player(guest)).json()
    assert seen["phase"] == "revealed" and seen["score"]["format"] == "quintet-score/1"
    started = client.post(f"/api/duel/{code}/grade", headers=as_player(guest))
    assert started.status_code == 202 and started.json()["kind"] == "grade"
    client.delete(f"/api/jobs/{started.json()['id']}")
    fresh = client.post(f"/api/duel/{code}/next", headers=as_player(host)).json()
    assert fresh["deal_number"] == 2 and fresh["laid"] == [False, False]


@pytest.mark.parametrize("headers", [{}, {"X-Room-Token": "guessed"}])
def test_a_third_party_is_refused_with_403_in_the_pages_language(client, headers) -> None:
    host, _ = room(client)
    code = host["code"]
    ru = {**headers, "Accept-Language": "ru"}
    for method, path, body in (
        ("GET", f"/api/duel/{code}", None),
        ("POST", f"/api/duel/{code}/layout", {"arrangement": layout(host["room"]["holding"])}),
        ("POST", f"/api/duel/{code}/grade", None),
        ("POST", f"/api/duel/{code}/next", None),
    ):
        answer = client.request(method, path, headers=ru, json=body)
        assert answer.status_code == 403, path
        assert answer.json()["message"].startswith("У этого браузера нет ключа комнаты")
    joined = client.post(f"/api/duel/{code}/join", headers={"Accept-Language": "ru"})
    assert joined.status_code == 409
    assert joined.json()["message"] == f"Код комнаты: в комнате {code} уже два игрока"


def test_unknown_room_is_404_and_a_turn_out_of_order_409(client) -> None:
    answer = client.post("/api/duel/NOROOM/join")
    assert answer.status_code == 404 and "no open room NOROOM" in answer.json()["detail"]
    host, _ = room(client)
    answer = client.post(f"/api/duel/{host['code']}/grade", headers=as_player(host))
    assert answer.status_code == 409


def test_a_waiting_request_answers_when_the_other_player_lays_out(client) -> None:
    host, guest = room(client)
    code, version = host["code"], guest["room"]["version"]
    answers: list[Any] = []
    waiting = threading.Thread(
        target=lambda: answers.append(
            client.get(f"/api/duel/{code}?since={version}&wait=25", headers=as_player(host))
        )
    )
    waiting.start()
    client.post(
        f"/api/duel/{code}/layout",
        headers=as_player(guest),
        json={"arrangement": layout(guest["room"]["holding"])},
    )
    waiting.join(timeout=30)
    assert answers and answers[0].status_code == 200
    assert answers[0].json()["version"] > version and answers[0].json()["laid"] == [False, True]


def test_a_waiting_request_with_nothing_new_answers_after_its_wait(client) -> None:
    host, guest = room(client)
    answer = client.get(
        f"/api/duel/{host['code']}?since={guest['room']['version']}&wait=0.2",
        headers=as_player(host),
    )
    assert answer.json()["version"] == guest["room"]["version"]
