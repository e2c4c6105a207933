"""Training histories survive crashes: :mod:`solver.play.train_history`.

Malformed records (inputs that once raised KeyError, OverflowError and
RecursionError among them) are one error naming the file and the line; a FIFO is
refused without blocking; a last line cut short is dropped with one warning
and cut from the file before the series goes on; write errors name the file.
A real SIGKILL of ``quintet train`` keeps the graded deals.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from solver.errors import QuintetError
from solver.game.deal import deal
from solver.game.rules import Rules
from solver.models.heuristics import greedy_arrangement
from solver.play.train_history import (
    MAX_TRAIN_HISTORY_BYTES,
    HistoryWriter,
    Series,
    read_history,
)

SERIES = Series(deals=3, seed=1, rules=Rules())
GRADE = {"equilibrium_loss": 0.25, "verdict": "good"}


def record(index: int = 0, **changes: object) -> dict:
    line = {**SERIES.header(), "deal": index, "deal_seed": SERIES.deal_seed(index), "grade": GRADE}
    return {**line, **changes}


def line_of(value: object) -> str:
    return json.dumps(value) + "\n"


BAD_RECORDS = {
    "negative deal": (line_of(record(deal=-3)), "deal must be an integer in [0, 2], got -3"),
    "deal past the series": (line_of(record(deal=3)), "got 3"),
    "bool deal": (line_of(record(deal=True)), "got True"),
    "missing deal": (line_of({k: v for k, v in record().items() if k != "deal"}), "got None"),
    "wrong deal seed": (line_of(record(deal_seed=99)), "deal_seed must be 1 for deal 0"),
    "missing grade": (line_of(record(grade=None)), "grade must be an object"),
    "missing loss": (line_of(record(grade={"verdict": "good"})), "equilibrium_loss"),
    "infinite loss": (line_of(record(grade={**GRADE, "equilibrium_loss": 1e400})), "finite"),
    "nan loss": (line_of(record(grade={**GRADE, "equilibrium_loss": float("nan")})), "finite"),
    "huge int loss": (
        json.dumps(record()).replace("0.25", "1" + "0" * 400) + "\n",
        "finite",
    ),
    "huge int deal": (
        json.dumps(record()).replace('"deal": 0', '"deal": 1' + "0" * 5000) + "\n",
        "not JSON",
    ),
    "text loss": (line_of(record(grade={**GRADE, "equilibrium_loss": "0.1"})), "finite"),
    "unknown verdict": (line_of(record(grade={**GRADE, "verdict": "superb"})), "verdict must"),
    "deeply nested": ("[" * 100_000 + "]" * 100_000 + "\n", "line 1: "),
    "nested object": ('{"a":' * 100_000 + "1" + "}" * 100_000 + "\n", "line 1: "),
    "not json": ("{oops\n", "line 1: not JSON"),
    "a list": ("[1, 2]\n", "not a JSON object"),
    "another series": (line_of({**record(), "seed": 2}), "from another series"),
}


@pytest.mark.parametrize("text, message", BAD_RECORDS.values(), ids=BAD_RECORDS.keys())
def test_a_malformed_record_names_the_file_and_line(tmp_path, text, message):
    path = tmp_path / "h.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(QuintetError, match=f"^history {path}: line ") as caught:
        read_history(path, SERIES)
    assert message in str(caught.value)
    assert caught.value.argument == "history"


def test_the_line_number_is_the_bad_line(tmp_path):
    path = tmp_path / "h.jsonl"
    path.write_text(line_of(record(0)) + "\n" + line_of(record(1, deal=-3)), encoding="utf-8")
    with pytest.raises(QuintetError, match="line 3: deal must be"):
        read_history(path, SERIES)


def test_good_records_are_read(tmp_path):
    path = tmp_path / "h.jsonl"
    path.write_text(line_of(record(0)) + line_of(record(1)), encoding="utf-8")
    history = read_history(path, SERIES)
    assert [r["deal"] for r in history.records] == [0, 1] and history.warnings == ()
    assert history.complete_bytes is None


def test_a_fifo_is_refused_without_blocking(tmp_path):
    path = tmp_path / "fifo"
    os.mkfifo(path)
    with pytest.raises(QuintetError, match=f"history {path}: not a regular file"):
        read_history(path, SERIES)  # opening it would block forever


def test_a_device_is_refused():
    with pytest.raises(QuintetError, match="not a regular file"):
        read_history("/dev/zero", SERIES)


def test_a_history_over_the_limit_is_refused(tmp_path):
    path = tmp_path / "big.jsonl"
    with path.open("wb") as handle:
        handle.truncate(MAX_TRAIN_HISTORY_BYTES + 1)  # sparse: no disk used
    with pytest.raises(QuintetError, match="larger than the limit"):
        read_history(path, SERIES)


@pytest.mark.parametrize("cut", [1, 10, 40, -2])
def test_a_last_line_cut_short_is_dropped_and_cut_from_the_file(tmp_path, cut):
    path = tmp_path / "h.jsonl"
    whole = line_of(record(0))
    path.write_text(whole + line_of(record(1))[:cut], encoding="utf-8")
    history = read_history(path, SERIES)
    assert [r["deal"] for r in history.records] == [0]
    assert history.warnings == (
        f"history {path}: line 2: cut short (a crash or a full disk?): dropped",
    )
    writer = HistoryWriter(path, history)
    writer.write(record(1))
    writer.close()
    assert path.read_text(encoding="utf-8") == whole + line_of(record(1))


def test_a_write_error_names_the_file(tmp_path):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    writer = HistoryWriter(Path("/dev/full"), read_history(tmp_path / "none", SERIES))
    with pytest.raises(QuintetError, match=r"^history /dev/full: cannot write: No space left"):
        writer.write(record(0))
    writer.close()


# ================================================================ the command, for real


def _train(history: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "solver.cli", "train", "--seed", "1", "--deals", "3",
            "--history", str(history), *extra]  # fmt: skip


def _typed(index: int) -> str:
    return greedy_arrangement(deal(1 + index).holdings[0]).format(ascii=True)


def test_train_resume_refuses_a_bad_record_with_one_line(tmp_path):
    path = tmp_path / "h.jsonl"
    path.write_text(line_of(record(0, deal=-3)), encoding="utf-8")
    process = subprocess.run(_train(path, "--resume"), capture_output=True, text=True, timeout=300)
    assert process.returncode == 2
    assert process.stderr.strip().splitlines() == [
        f"quintet: error: --history {path}: line 1: deal must be an integer in [0, 2], got -3"
    ]


def test_a_killed_series_keeps_its_deals_and_resumes_after_a_cut_line(tmp_path):
    path = tmp_path / "h.jsonl"
    process = subprocess.Popen(
        _train(path), stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert process.stdin is not None
    process.stdin.write(_typed(0) + "\n")
    process.stdin.flush()
    deadline = time.monotonic() + 300  # a generous bound, not an expected duration
    while not (path.exists() and path.read_text(encoding="utf-8").endswith("\n")):
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.02)
    process.kill()  # SIGKILL, waiting for the second deal's arrangement
    process.communicate(timeout=60)
    assert process.returncode == -signal.SIGKILL
    kept = path.read_text(encoding="utf-8")
    assert [json.loads(line)["deal"] for line in kept.splitlines()] == [0]
    path.write_text(kept + '{"format": "quin', encoding="utf-8")  # a crash mid-write
    resumed = subprocess.run(
        _train(path, "--resume"), input=_typed(1) + "\n" + _typed(2) + "\n",
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stderr.count("cut short") == 1 and "line 2" in resumed.stderr
    assert [json.loads(line)["deal"] for line in path.read_text().splitlines()] == [0, 1, 2]


# ============================================================ --resume reads the series


def _main_with_input(monkeypatch, capsys, lines: list[str], *argv: str) -> tuple[int, str, str]:
    import io

    from solver.cli.main import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    status = main(["train", *argv, "--no-book"])
    out, err = capsys.readouterr()
    return status, out, err


def test_resume_reads_the_seed_and_the_deal_count_from_a_real_history(
    tmp_path, monkeypatch, capsys
):
    path = tmp_path / "h.jsonl"
    # A series of 3 deals from seed 5, stopped (end of input) after its first deal.
    first = greedy_arrangement(deal(5).holdings[0]).format(ascii=True)
    status, out, err = _main_with_input(
        monkeypatch, capsys, [first], "--seed", "5", "--deals", "3", "--history", str(path)
    )
    assert status == 0, err
    assert "Training: 3 deals from seed 5." in out
    assert [json.loads(line)["deal"] for line in path.read_text().splitlines()] == [0]
    # Resumed with neither --seed nor --deals: the history's series goes on at its deal 2.
    rest = [greedy_arrangement(deal(seed).holdings[0]).format(ascii=True) for seed in (6, 7)]
    status, out, err = _main_with_input(
        monkeypatch, capsys, rest, "--history", str(path), "--resume"
    )
    assert (status, err) == (0, "")
    assert "Training: 3 deals from seed 5." in out
    assert "Resuming: 1 of 3 deals already graded." in out
    assert "All 3 deals are graded." in out
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert [(r["deal"], r["deal_seed"], r["seed"], r["deals"]) for r in records] == [
        (0, 5, 5, 3),
        (1, 6, 5, 3),
        (2, 7, 5, 3),
    ]
    # A seed given that is not the history's is still refused, naming the option.
    status, out, err = _main_with_input(
        monkeypatch, capsys, [], "--history", str(path), "--resume", "--seed", "6"
    )
    assert status == 2 and err.startswith(f"quintet: error: --history {path}: line 1: from another")
    # Resuming a history that does not exist yet starts a new series of 10 deals.
    status, out, err = _main_with_input(
        monkeypatch, capsys, [], "--history", str(tmp_path / "new.jsonl"), "--resume", "--seed", "2"
    )
    assert status == 0 and "Training: 10 deals from seed 2." in out
