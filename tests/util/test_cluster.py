"""A ``--scheduler`` that is not a Dask scheduler fails fast.

Real services on loopback only: a silent TCP listener (accepts, never
answers), a tiny HTTP server, a port that refuses, and an unknown protocol.
Each ends within ``--connect-timeout`` (plus start-up) with one line, exit 2.
"""

from __future__ import annotations

import http.server
import socket
import threading

import pytest

from tests.support.cli import one_line_error, quintet

pytest.importorskip("distributed")

TIMEOUT = "2"


def _tournament(address: str):
    return quintet(
        "tournament", "--players", "greedy,random", "--deals", "1", "--backend", "dask",
        "--scheduler", address, "--connect-timeout", TIMEOUT, timeout=120,
    )  # fmt: skip


@pytest.fixture
def silent_port():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)  # connections are accepted by the kernel, never answered
    yield listener.getsockname()[1]
    listener.close()


@pytest.fixture
def http_port():
    server = http.server.HTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.fixture
def refusing_port():
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()  # nothing listens there now
    return port


def test_a_silent_listener(silent_port):
    one_line_error(_tournament(f"tcp://127.0.0.1:{silent_port}"), "not a reachable Dask scheduler")


def test_an_http_server(http_port):
    process = _tournament(f"127.0.0.1:{http_port}")
    one_line_error(process, "not a reachable Dask scheduler")
    assert "--scheduler" in process.stderr  # the option, not the library's argument


def test_an_http_address():
    one_line_error(_tournament("http://127.0.0.1:9"), "unknown address scheme 'http'")


def test_an_unknown_protocol():
    one_line_error(_tournament("foo://x"), "unknown address scheme 'foo'")


def test_a_refusing_port(refusing_port):
    one_line_error(_tournament(f"tcp://127.0.0.1:{refusing_port}"), "not a reachable")


def test_connect_timeout_must_be_positive():
    command = ["tournament", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9"]
    one_line_error(quintet(*command, "--connect-timeout", "0"), "--connect-timeout")


@pytest.mark.parametrize("kind", ["silent", "protocol"])
def test_book_builds_fail_fast_too(kind, silent_port, tmp_path):
    address = f"tcp://127.0.0.1:{silent_port}" if kind == "silent" else "foo://x"
    process = quintet(
        "book", "build", "--book", str(tmp_path / "book.sqlite"), "--deals", "1", "--seed", "0",
        "--backend", "dask", "--scheduler", address, timeout=120,
    )  # fmt: skip
    one_line_error(process, "is not a reachable Dask scheduler")
