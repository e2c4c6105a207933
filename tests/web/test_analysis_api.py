"""``POST /api/analyze`` and ``POST /api/report``: the command line's documents over HTTP."""

from __future__ import annotations

from fastapi.testclient import TestClient

from solver.game.deal import deal
from solver.game.rules import Rules
from solver.models.heuristics import greedy_arrangement
from solver.web.app import create_app


def test_analyze_and_report_endpoints(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    client = TestClient(create_app())
    rules = Rules(position_points=(6, 7))
    laid = greedy_arrangement(deal(1, rules).holdings[0], rules).format(ascii=True)
    history = f"seed,mode,position_points,arrangement\n1,mirror,6-7,{laid}\n2,mirror,6-7,nonsense\n"
    answer = client.post("/api/analyze", json={"history": history, "top": 1})
    assert answer.status_code == 200, answer.text
    document = answer.json()
    assert document["format"] == "quintet-analysis/1"
    assert [b["line"] for b in document["bad_lines"]] == [3]
    assert [r["line"] for r in document["rows"]] == [2]
    assert document["warnings"][0].startswith("line 3: skipped")
    assert client.post("/api/analyze", json={"history": "", "top": 0}).status_code == 422
    bad = client.post("/api/report", json={"where": "aces >> 1"})
    assert bad.status_code == 400 and "unexpected '>'" in bad.json()["detail"]
