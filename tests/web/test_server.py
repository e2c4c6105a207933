"""``quintet serve`` as a real server process: start, stop, kill, Host check, its lines.

Readiness is the printed URL line, and a job is known to run by its status:
no sleep is used as a wait (each wait polls with a generous deadline).
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
import pytest

ROOT = Path(__file__).resolve().parents[2]
# Win-payoff equilibria of these deals take far longer than any test: they are running
# until they are ended.
LONG = {"seed": 5, "payoff": "win"}


@dataclass
class Server:
    """A ``quintet serve`` process on a free port, its stderr collected by a thread."""

    process: subprocess.Popen[str]
    port: int
    url_line: str
    err: list[str] = field(default_factory=list)
    reader: threading.Thread | None = None

    def send(
        self, method: str, path: str, body: Any = None, host: str | None = None
    ) -> http.client.HTTPConnection:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"content-type": "application/json"}
        if host is not None:
            headers["host"] = host
        data = None if body is None else json.dumps(body)
        connection.request(method, path, body=data, headers=headers)
        return connection

    def request(
        self, method: str, path: str, body: Any = None, host: str | None = None
    ) -> tuple[int, dict[str, str], Any]:
        return answer(self.send(method, path, body, host))

    def stderr_lines(self) -> list[str]:
        """The server's stderr lines, once it has exited."""
        assert self.reader is not None and self.process.poll() is not None
        self.reader.join(timeout=30)
        return [line.rstrip("\n") for line in self.err]

    def descendants(self) -> list[psutil.Process]:
        return psutil.Process(self.process.pid).children(recursive=True)

    def wait_running(self, job_id: str) -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            state = self.request("GET", f"/api/jobs/{job_id}")[2]["state"]
            if state == "running":
                return
            assert state == "queued", state
            time.sleep(0.02)
        raise AssertionError("the job did not start in 2 minutes")


def answer(connection: http.client.HTTPConnection) -> tuple[int, dict[str, str], Any]:
    """The status, headers and JSON document (or text) of the request sent on ``connection``."""
    response = connection.getresponse()
    text = response.read().decode()
    connection.close()
    try:
        document = json.loads(text)
    except ValueError:
        document = text
    return response.status, {k.lower(): v for k, v in response.getheaders()}, document


def received(connection: http.client.HTTPConnection, port: int) -> bool:
    """Has the server at ``port`` read everything sent on ``connection`` (Linux's /proc)?"""
    assert connection.sock is not None
    mine = connection.sock.getsockname()[1]
    queues = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local, remote = (int(a.rsplit(":", 1)[1], 16) for a in fields[1:3])
            tx, rx = (int(q, 16) for q in fields[4].split(":"))
            if (local, remote) in ((mine, port), (port, mine)):
                queues[local] = tx if local == mine else rx
    return len(queues) == 2 and not any(queues.values())


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start(*args: str) -> Server:
    """``quintet serve ARGS`` on a free port, once it printed its URL line.

    Its solution book is a new one in a folder of its own (never the user's).
    """
    port = free_port()
    cache = tempfile.mkdtemp(prefix="quintet-serve-")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": cache}
    command = [sys.executable, "-m", "solver.cli", "serve", "--port", str(port), *args]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    assert process.stdout is not None and process.stderr is not None
    url_line = process.stdout.readline().strip()  # blocks until the line (or the end)
    server = Server(process, port, url_line)
    server.reader = threading.Thread(target=lambda: server.err.extend(process.stderr), daemon=True)
    server.reader.start()
    return server


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:  # never leave a server behind, whatever the test did
        if server.process.poll() is None:
            server.process.kill()
        server.process.wait(timeout=30)


def gone(pids: list[int], seconds: float) -> list[int]:
    """The pids still alive after waiting at most ``seconds`` for them to end."""
    deadline = time.monotonic() + seconds
    alive = pids
    while alive and time.monotonic() < deadline:
        alive = [pid for pid in alive if psutil.pid_exists(pid) and not _zombie(pid)]
        time.sleep(0.05)
    return alive


def _zombie(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def test_the_url_line_is_printed_at_start(servers):
    server = start()
    servers.append(server)
    assert server.url_line == f"serving on http://127.0.0.1:{server.port}/ (Ctrl-C stops)"
    status, headers, _ = server.request("GET", "/")
    assert status == 200 and "frame-ancestors 'none'" in headers["content-security-policy"]


def test_second_ctrl_c_with_queued_jobs_stops_cleanly(servers):
    server = start("--jobs", "1", "--time-limit", "600")
    servers.append(server)
    running = server.request("POST", "/api/jobs/equilibrium", LONG)[2]
    queued = [server.request("POST", "/api/jobs/equilibrium", {"seed": s})[2] for s in (6, 7)]
    server.wait_running(running["id"])
    assert [job["state"] for job in queued] == ["queued", "queued"]
    # A client waiting for its (queued) job's document, once the server has read it all.
    waiting = server.send("POST", "/api/equilibrium", {"seed": 8})
    deadline = time.monotonic() + 60
    while not received(waiting, server.port):
        assert time.monotonic() < deadline, "the server did not read the request"
        time.sleep(0.01)
    processes = server.descendants()
    assert len(processes) >= 2, "the running job's process and the forkserver are children"
    server.process.send_signal(signal.SIGINT)
    server.process.send_signal(signal.SIGINT)
    server.process.wait(timeout=10)  # a bound, not an expected duration (it takes < 1 s)
    status, _, document = answer(waiting)
    assert (status, document) == (503, {"detail": "the server is shutting down", "argument": None})
    errors = "\n".join(server.stderr_lines())
    assert "Traceback" not in errors and "500" not in errors, errors
    assert gone([p.pid for p in processes], 10) == []


def test_sigterm_ends_running_and_queued_jobs_at_once(servers):
    server = start("--jobs", "1", "--time-limit", "600")
    servers.append(server)
    running = server.request("POST", "/api/jobs/equilibrium", LONG)[2]
    queued = server.request("POST", "/api/jobs/equilibrium", {"seed": 6})[2]
    server.wait_running(running["id"])
    processes = server.descendants()
    server.process.send_signal(signal.SIGTERM)
    assert server.process.wait(timeout=10) == 0
    assert server.stderr_lines() == []
    assert gone([p.pid for p in processes], 10) == []
    assert queued["state"] == "queued"  # it was queued behind the running one


def test_a_sigkilled_server_leaves_no_process(servers):
    server = start("--jobs", "1", "--time-limit", "600")
    servers.append(server)
    server.wait_running(server.request("POST", "/api/jobs/equilibrium", LONG)[2]["id"])
    # The job, the forkserver and the resource tracker.
    processes = server.descendants()
    assert len(processes) == 3, processes
    server.process.kill()
    server.process.wait(timeout=10)
    assert gone([p.pid for p in processes], 10) == []


def test_a_host_header_that_does_not_name_the_server_is_400(servers):
    server = start("--allow-host", "quintet.example")
    servers.append(server)
    status, headers, document = server.request("GET", "/", host=f"evil.example:{server.port}")
    assert status == 400
    assert document["detail"].startswith("the Host header 'evil.example:")
    assert headers["x-frame-options"] == "DENY"
    for host in ("localhost", "127.0.0.1", "[::1]", "quintet.example"):
        assert server.request("GET", "/", host=f"{host}:{server.port}")[0] == 200, host
    assert server.request("GET", "/", host="localhost:1")[0] == 400  # another port


def test_a_taken_port_is_one_line_and_exit_2():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "solver.cli", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=60,
        )
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"quintet: error: port {port} is in use: another program (another quintet serve?) "
        "listens on it; choose another port"
    ]
    assert result.stdout == ""


def test_a_bad_host_is_one_line_and_exit_2(capsys):
    from solver.cli.main import main

    assert main(["serve", "--host", "no.such.host.invalid", "--port", "0"]) == 2
    error = capsys.readouterr().err.splitlines()
    assert len(error) == 1
    assert error[0].startswith("quintet: error: host 'no.such.host.invalid' is not an address")


def test_host_beyond_loopback_prints_one_warning(servers):
    server = start("--host", "0.0.0.0")
    servers.append(server)
    assert server.url_line == f"serving on http://127.0.0.1:{server.port}/ (Ctrl-C stops)"
    server.process.send_signal(signal.SIGINT)
    assert server.process.wait(timeout=30) == 0
    assert server.stderr_lines() == [
        "quintet: warning: listening on 0.0.0.0, beyond this machine: anyone who can reach it "
        "can use the solver and open duel rooms, over plain HTTP that others on the network "
        "can read (clients must use an allowed host name: --allow-host NAME)"
    ]


def test_requests_are_logged_only_with_verbose(servers):
    quiet, verbose = start(), start("--verbose")
    servers.extend([quiet, verbose])
    for server in (quiet, verbose):
        assert server.request("POST", "/api/eval", {"cards": "As Ks Qs Js Ts"})[0] == 200
        # A job whose answer carries a warning: it is never printed on the console.
        assert server.request("POST", "/api/suggest", {"seed": 1, "workers": 2})[0] == 200
        server.process.send_signal(signal.SIGINT)
        assert server.process.wait(timeout=30) == 0
    assert quiet.stderr_lines() == []
    lines = verbose.stderr_lines()
    assert len(lines) == 2 and '"POST /api/eval HTTP/1.1" 200' in lines[0], lines
    assert "warning" not in " ".join(lines)
