"""``POST /api/analyze`` and ``POST /api/report``: the command line's documents over HTTP;
the analysis on the server's job queue (progress, cancel, limits)."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from solver.game.deal import deal
from solver.game.rules import Rules
from solver.models.heuristics import greedy_arrangement
from solver.web.app import create_app
from tests.web.test_api import wait

TWO = Rules(position_points=(6, 7))


def _history(seeds) -> str:
    lines = ["seed,mode,position_points,arrangement"]
    for seed in seeds:
        laid = greedy_arrangement(deal(seed, TWO).holdings[0], TWO).format(ascii=True)
        lines.append(f"{seed},mirror,6-7,{laid}")
    return "\n".join(lines) + "\n"


def test_analyze_and_report_endpoints(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    client = TestClient(create_app())
    history = _history([1]) + "2,mirror,6-7,nonsense\n"
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


def test_analysis_is_a_job_with_progress(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    with TestClient(create_app(max_running=1, time_limit=60)) as client:
        job = client.post("/api/jobs/analyze", json={"history": _history(range(1, 7))})
        assert job.status_code == 202 and job.json()["kind"] == "analyze"
        status = wait(client, job.json()["id"])
        assert status["state"] == "done", status
        assert status["progress"]["done"] == status["progress"]["total"] == 6
        assert status["result"]["format"] == "quintet-analysis/1"
        assert len(status["result"]["rows"]) == 6 and status["warnings"] == []


def test_analysis_job_is_cancelled_and_a_queued_one_waits(tmp_path, monkeypatch):
    """One slot: a long analysis (full-size deals the empty book lacks) runs, a second waits
    queued; cancelling ends them, and the waiting request is answered 409."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    rules = Rules()
    lines = ["seed,arrangement"]
    for seed in range(100, 160):
        lines.append(
            f"{seed},{greedy_arrangement(deal(seed, rules).holdings[0]).format(ascii=True)}"
        )
    long = "\n".join(lines) + "\n"
    with TestClient(create_app(max_running=1, time_limit=60)) as client:
        first = client.post("/api/jobs/analyze", json={"history": long}).json()
        second = client.post("/api/jobs/analyze", json={"history": long}).json()
        assert second["state"] == "queued"
        deadline = time.monotonic() + 60
        while not (client.get(f"/api/jobs/{first['id']}").json()["progress"] or {}).get("done"):
            assert time.monotonic() < deadline, "no progress"
            time.sleep(0.05)
        running = client.delete(f"/api/jobs/{first['id']}").json()
        assert running["state"] == "cancelled" and running["progress"]["total"] == 60
        assert running["progress"]["done"] < 60
        assert client.delete(f"/api/jobs/{second['id']}").json()["state"] == "cancelled"
