"""What the app checks and adds around every request; its OpenAPI document, checked by schemathesis."""

from __future__ import annotations

import asyncio
import json
import warnings

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from solver.web.api import finished_job
from solver.web.app import MAX_BODY_BYTES, create_app
from solver.web.guard import SECURITY_HEADERS, BodyLimit, Interrupted
from solver.web.jobs import STOPPING, Job

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="Using `httpx`")
    from fastapi.testclient import TestClient


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(max_running=1, time_limit=5)) as test_client:
        yield test_client


def assert_secured(response) -> None:
    for name, value in SECURITY_HEADERS:
        assert response.headers.get_list(name.decode()) == [value.decode()], name


def test_security_headers_on_every_kind_of_response(monkeypatch, client):
    from solver.web import jobs

    assert_secured(client.get("/"))  # 200, the page
    assert_secured(client.post("/api/eval", json={"cards": "As Ks Qs Js Ts"}))  # 200, JSON
    assert_secured(client.get("/api/jobs/nope"))  # 404
    assert_secured(client.get("/nothing-here"))  # 404 of the static files
    assert_secured(client.post("/api/eval", content=b" " * (MAX_BODY_BYTES + 1)))  # 413
    assert_secured(client.post("/api/eval", json={}))  # 422
    assert_secured(client.post("/api/eval", json={"cards": "As"}))  # 400
    monkeypatch.setattr(jobs, "MAX_PENDING", 0)
    refused = client.post("/api/jobs/equilibrium", json={"seed": 1})
    assert refused.status_code == 429 and refused.headers["retry-after"].isdigit()
    assert_secured(refused)
    assert "frame-ancestors 'none'" in SECURITY_HEADERS[0][1].decode()


def test_the_host_check_of_an_app():
    with TestClient(create_app(hosts=["localhost"], port=8000)) as checked:
        refused = checked.get("/", headers={"host": "attacker.example:8000"})
        assert refused.status_code == 400
        assert refused.json()["detail"] == (
            "the Host header 'attacker.example:8000' is not a name of this server "
            "(quintet serve --allow-host NAME adds one)"
        )
        assert_secured(refused)
        assert checked.get("/", headers={"host": "localhost:8000"}).status_code == 200


def test_unknown_api_paths_and_methods_are_json():
    with TestClient(create_app()) as plain:
        wrong = plain.get("/api/eval")
        assert wrong.status_code == 405 and wrong.headers["allow"] == "POST"
        missing = plain.post("/api/nothing")
        assert missing.status_code == 404 and missing.json() == {
            "detail": "no endpoint /api/nothing"
        }


def test_a_body_that_does_not_arrive_in_time_is_408():
    sent: list[dict] = []

    async def app(scope, receive, send):  # never reached
        raise AssertionError("the app saw a request whose body never came")

    async def receive():
        await asyncio.sleep(3600)

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "headers": [(b"content-length", b"10")]}
    asyncio.run(BodyLimit(app, seconds=0.05)(scope, receive, send))
    assert sent[0]["status"] == 408
    assert b"did not arrive within 0.05 seconds" in sent[1]["body"]


def test_a_request_ended_by_a_forced_stop_reads_what_a_stopped_job_answers():
    """The forced stop's 503 and a stopped job's 503 (api.finished_job) are one body: which
    of the two a waiting client gets depends on timing (tests/web/test_server.py)."""
    sent: list[dict] = []

    async def app(scope, receive, send):  # a request the stopping server cancels
        raise asyncio.CancelledError

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(message):
        sent.append(message)

    asyncio.run(Interrupted(app)({"type": "http", "headers": []}, receive, send))
    assert sent[0]["status"] == 503
    stopped = finished_job(Job(id="j", kind="suggest", deadline_seconds=1, stopped=True))
    assert (
        json.loads(sent[1]["body"])
        == json.loads(stopped.body)
        == {
            "detail": STOPPING,
            "argument": None,
        }
    )


def test_a_stopping_server_answers_503():
    with TestClient(create_app(max_running=1, time_limit=60)) as stopping:
        running = stopping.post("/api/jobs/equilibrium", json={"seed": 5, "payoff": "win"}).json()
        stopping.app.state.jobs.close()
        refused = stopping.post("/api/jobs/equilibrium", json={"seed": 6})
        assert refused.status_code == 503
        assert refused.json() == {"detail": "the server is shutting down"}
        assert stopping.app.state.jobs.get(running["id"]).finished_event.wait(timeout=30)
        status = stopping.get(f"/api/jobs/{running['id']}").json()
        assert (status["state"], status["error"]) == ("cancelled", "the server is shutting down")


def test_openapi_documents_the_error_responses(client):
    paths = client.get("/openapi.json").json()["paths"]
    for path, operations in paths.items():
        for operation in operations.values():
            documented = set(operation["responses"])
            assert {"400", "408", "413", "422", "500"} <= documented, path
    waited = paths["/api/suggest"]["post"]["responses"]
    assert {"409", "429", "503", "504"} <= set(waited)
    assert "Retry-After" in waited["429"]["headers"]
    assert "404" in paths["/api/jobs/{job_id}"]["get"]["responses"]
    shape = waited["422"]["content"]["application/json"]["schema"]["$ref"]
    assert shape.endswith("/ValidationErrorOut")


# Every check, a few examples per operation, against the app in process (ASGI); one
# job at a time and a short server time limit keep the generated solves short.
CHECKED = create_app(max_running=1, time_limit=5)
# What a schema-valid request may be answered besides 2xx: the documented refusals that
# no schema can foresee (400: cards that are not the holding's, an arrangement that is
# not one, no book to report on; 404: an unknown job; 409/429/503/504: a job cancelled,
# a full queue, a stopping server, a time limit).  Never 422: a request the OpenAPI
# document calls valid has the shape the server accepts.
ACCEPTED = ["2xx", "400", "404", "409", "429", "503", "504"]
CONFIG = schemathesis.Config.from_dict(
    {
        "checks": {
            "positive_data_acceptance": {"expected-statuses": ACCEPTED},
            # 503 and 504 are answers the document promises (a stopping server, the time
            # limit), not crashes; every other 5xx fails the run.
            "not_a_server_error": {"expected-statuses": ["2xx", "3xx", "4xx", "503", "504"]},
        }
    }
)
schema = schemathesis.openapi.from_asgi("/openapi.json", CHECKED, config=CONFIG)


# Session scope: under pytest-xdist a worker may run this module's tests in more than one
# stretch, and a module fixture's teardown between them would close CHECKED's jobs for good.
@pytest.fixture(scope="session", autouse=True)
def _jobs_end():
    yield
    CHECKED.state.jobs.shutdown()


def _ended(response) -> None:
    """A job the case started (202) is cancelled and waited for (its event, not a sleep):
    no case leaves a solve running into the next one, or into the server's shutdown."""
    if response.status_code != 202:
        return
    jobs = CHECKED.state.jobs
    job = jobs.cancel(response.json()["id"])
    assert job is not None and job.finished_event.wait(timeout=60), "the job did not end"


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_the_api_is_what_its_openapi_document_says(case):
    # Every check, positive_data_acceptance included (ACCEPTED: the documented refusals).
    _ended(case.call_and_validate())
