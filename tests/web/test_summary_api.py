"""``POST /api/summary``: the whole game's summary shipped with the package, over HTTP;
a damaged file is reported in ``warnings`` (a payoff left out) or a 503 ``no_summary``."""

from __future__ import annotations

import json

import jsonschema
from fastapi.testclient import TestClient

from solver.book import summary
from solver.schemas import schema
from solver.web.app import create_app


def test_the_summary_of_each_payoff_with_no_book(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # no book at all
    client = TestClient(create_app())
    for payoff in ("margin", "win"):
        answer = client.post("/api/summary", json={"payoff": payoff})
        assert answer.status_code == 200, answer.text
        document = answer.json()
        assert document.pop("warnings") == []
        jsonschema.validate(document, schema("quintet-summary/1"))
        assert [b["payoff"] for b in document["payoffs"]] == [payoff]
    assert client.post("/api/summary", json={"payoff": "draw"}).status_code == 422


def test_a_damaged_summary_is_a_warning_or_a_503(tmp_path, monkeypatch):
    document = json.loads(summary.SHIPPED.read_text("utf-8"))
    document["payoffs"][1]["positions"][0]["concede"]["interval"] = [0.9, 1.0]
    damaged = tmp_path / "damaged.json"
    damaged.write_text(json.dumps(document), "utf-8")
    monkeypatch.setattr(summary, "SHIPPED", damaged)
    client = TestClient(create_app())
    margin = client.post("/api/summary", json={"payoff": "margin"}).json()
    assert margin["payoffs"][0]["payoff"] == "margin"
    assert margin["warnings"] == [
        "summary: damaged.json: payoff 2 is damaged (position 1: the mean "
        f"{document['payoffs'][1]['positions'][0]['concede']['mean']} is outside its interval "
        "[0.9, 1.0]); left out"
    ]
    win = client.post("/api/summary", json={"payoff": "win"})
    assert win.status_code == 503 and win.json()["code"] == "no_summary"
    damaged.write_text("{", "utf-8")
    gone = client.post("/api/summary", json={"payoff": "margin"})
    assert gone.status_code == 503 and "is not JSON" in gone.json()["detail"]
