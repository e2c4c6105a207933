"""Standard streams that are closed, full, not UTF-8 or ASCII-only.

Exit statuses (README, "Limits and exit statuses"): 1 when the output
cannot be written (a closed pipe stays silent, a full device says so on one
line), never a traceback.
"""

from __future__ import annotations

import os
import subprocess

import pytest

from tests.support.cli import CLI, environment


def _run(args: list[str], **options) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, timeout=300, **options)


def test_ascii_encoding_prints_suit_letters():
    process = _run(["eval", "As Ks Qs Js Ts"], env=environment(PYTHONIOENCODING="ascii"))
    assert process.returncode == 0, process.stderr
    assert process.stdout.decode("ascii").startswith("As Ks Qs Js 10s: straight flush")


def test_ascii_encoding_russian_text_does_not_crash():
    process = _run(
        ["deal", "--seed", "1", "--lang", "ru"], env=environment(PYTHONIOENCODING="ascii")
    )
    assert process.returncode == 0, process.stderr
    assert b"Traceback" not in process.stderr
    process.stdout.decode("ascii")


def test_c_locale():
    process = _run(["deal", "--seed", "1"], env=environment(LANG="C", LC_ALL="C"))
    assert process.returncode == 0, process.stderr


@pytest.mark.parametrize(
    "args",
    [["deal", "--seed", "1"], ["--help"], ["--version"], ["suggest", "--help"], ["book", "--help"]],
)
def test_a_full_device_is_one_line_and_status_1(args):
    """Help and version too: argparse itself would drop the write error and exit 0."""
    with open("/dev/full", "wb") as full:
        process = subprocess.run([*CLI, *args], stdout=full, stderr=subprocess.PIPE, timeout=300)
    assert process.returncode == 1
    assert process.stderr.decode().strip() == (
        "quintet: error: cannot write the output: No space left on device"
    )


def _closed_pipe(args: list[str], stdin: bytes | None = None) -> subprocess.CompletedProcess:
    """Run with stdout a pipe whose reader has already gone."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return subprocess.run(
            [*CLI, *args], stdout=writer, stderr=subprocess.PIPE, input=stdin, timeout=300
        )
    finally:
        os.close(writer)


def test_a_closed_pipe_is_silent_status_1():
    process = _closed_pipe(["deal", "--seed", "1"])
    assert process.returncode == 1
    assert process.stderr == b""


def test_play_into_a_closed_pipe():
    process = _closed_pipe(["play", "--seed", "1", "--opponent", "greedy"], stdin=b"q\n")
    assert process.returncode == 1
    assert b"Traceback" not in process.stderr


def test_play_with_standard_input_closed():
    process = subprocess.run(
        [*CLI, "play", "--seed", "1", "--opponent", "greedy"],
        capture_output=True,
        timeout=300,
        preexec_fn=lambda: os.close(0),
    )
    assert process.returncode == 0, process.stderr
    assert b"Traceback" not in process.stderr


def test_play_with_invalid_utf8_input():
    process = _run(["play", "--seed", "1", "--opponent", "greedy"], input=b"\xff\xfe As\n")
    assert process.returncode == 0, process.stderr
    assert b"Traceback" not in process.stderr
    assert "\N{REPLACEMENT CHARACTER}".encode() in process.stdout  # named as a bad token


def _closing(*descriptors: int):
    import os

    def close() -> None:
        for descriptor in descriptors:
            os.close(descriptor)

    return close


@pytest.mark.parametrize(
    ("args", "status"),
    [
        (["eval", "As Ks Qs Js Ts"], 0),
        (["eval", "As Ks"], 2),
        (["deal", "--seed", "1", "--json"], 0),
    ],
)
def test_closed_stderr_keeps_the_usual_statuses(tmp_path, args, status) -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root), "XDG_CACHE_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "solver.cli", *args],
        env=env,
        capture_output=False,
        stdout=subprocess.PIPE,
        preexec_fn=_closing(2),
        timeout=120,
    )
    assert done.returncode == status
    closed_out = subprocess.run(
        [sys.executable, "-m", "solver.cli", *args],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_closing(1),
        timeout=120,
    )
    # Output that cannot be written is the usual output failure (1), with one line; errors stay 2.
    assert closed_out.returncode == (1 if status == 0 else 2)
    assert closed_out.stderr.count("\n") == 1 and "Traceback" not in closed_out.stderr


def test_progress_can_be_silenced(monkeypatch):
    from solver.cli.progress import Progress

    lines: list[str] = []
    clock = iter([0.0, 20.0, 40.0]).__next__
    monkeypatch.setenv("QUINTET_PROGRESS", "0")
    Progress(terminal=True, clock=clock, write=lines.append).show("1/2", final=False)
    Progress(terminal=False, clock=clock, write=lines.append).show("2/2", final=True)
    assert lines == []
