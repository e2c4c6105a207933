"""The web app answers from a damaged or unusable book as the command line does: never a 500.

The job workers take the book's place from the environment they start in,
so each case runs in a fresh interpreter whose cache directory holds the
damaged book from the start.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
    import json, sqlite3, sys, time, warnings
    from pathlib import Path
    from solver.book.store import Book, default_book_path
    from solver.web.app import create_app
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Using `httpx`")
        from fastapi.testclient import TestClient

    path = default_book_path()
    path.parent.mkdir(parents=True)
    damage = sys.argv[1]
    if damage == "fifo":
        import os
        os.mkfifo(path)
    elif damage == "text":
        path.write_text("my notes\\n")
    with TestClient(create_app(max_running=1, time_limit=60)) as client:
        first = client.post("/api/equilibrium", json={"seed": 1})
        if damage == "row":  # a stored solution whose strategy is not of the deal
            connection = sqlite3.connect(path)
            connection.execute("UPDATE solutions SET row_cards = zeroblob(LENGTH(row_cards))")
            connection.commit()
            connection.close()
        job = client.post("/api/jobs/equilibrium", json={"seed": 1}).json()
        deadline = time.monotonic() + 300
        while True:
            status = client.get(f"/api/jobs/{job['id']}").json()
            if status["state"] not in ("queued", "running") or time.monotonic() > deadline:
                break
            time.sleep(0.05)
    print(json.dumps({"first": first.status_code, "first_body": first.json(), "job": status}))
"""


@pytest.mark.parametrize(
    ("damage", "warning"),
    [
        ("text", "is not a solution book (not an SQLite file); solving without the book"),
        ("fifo", "is not a regular file (a FIFO); solving without the book"),
        ("row", "is damaged (row strategy: an arrangement repeats a card); it is solved again"),
    ],
)
def test_a_damaged_book_gives_answers_and_warnings(tmp_path: Path, damage, warning) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(SCRIPT), damage],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["first"] == 200, result["first_body"]
    job = result["job"]
    assert job["state"] == "done", job
    assert job["result"]["value"] == result["first_body"]["value"]
    assert len(job["warnings"]) == 1 and job["warnings"][0].endswith(warning), job["warnings"]
