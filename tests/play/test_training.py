"""Training series: :mod:`solver.play.training` and ``quintet train``.

The command runs as a subprocess with scripted standard input; the history
file is read back and its grades compared with :func:`solver.analysis.grade.grade`.
The in-process tests use a two-position game, where deals are quick to solve.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from solver.analysis.grade import grade
from solver.errors import QuintetError
from solver.game.arrangement import Arrangement
from solver.game.deal import deal
from solver.game.rules import Rules
from solver.models.heuristics import greedy_arrangement, random_arrangement
from solver.play.training import FORMAT, Series, read_history, train

RULES = Rules()
SEED = 1  # deals 1 and 2: mirror deals with quick equilibria
GRADE = {"equilibrium_loss": 0.0, "verdict": "best"}  # enough of a grade for a record


def typed(index: int) -> str:
    """What the player types for deal ``index`` of the series: the greedy arrangement."""
    return greedy_arrangement(deal(SEED + index).holdings[0]).format(ascii=True)


def run(stdin: str, *args: str):
    return subprocess.run(
        [sys.executable, "-m", "solver.cli", "train", "--seed", str(SEED), *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=dict(os.environ, PYTHONIOENCODING="utf-8"),
        timeout=300,
    )


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_series_is_graded_and_recorded(tmp_path):
    history = tmp_path / "h.jsonl"
    proc = run(f"{typed(0)}\n{typed(1)}\n", "--deals", "2", "--history", str(history))
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    out = proc.stdout
    assert out.startswith("Training: 2 deals from seed 1.\nDeal 1 of 2 (seed 1)\n")
    assert "Deal 2 of 2 (seed 2)" in out
    assert out.count("the equilibrium plays:") == 2
    assert out.splitlines()[-1] == "All 2 deals are graded."
    lines = records(history)
    assert [r["deal"] for r in lines] == [0, 1] and [r["deal_seed"] for r in lines] == [1, 2]
    assert all(r["format"] == FORMAT and r["seed"] == SEED and r["deals"] == 2 for r in lines)
    losses = []
    for index, record in enumerate(lines):
        expected = grade(Arrangement.parse(typed(index)), deal(SEED + index).holdings[1])
        assert record["grade"]["equilibrium_loss"] == pytest.approx(expected.equilibrium_loss)
        assert record["grade"]["exploitability"] == expected.exploitability
        assert record["grade"]["verdict"] == expected.verdict.value
        losses.append(expected.equilibrium_loss)
    assert f"Score: 2 of 2 deals graded, mean equilibrium loss {np.mean(losses):.3f} points" in out


def test_end_of_input_keeps_what_was_graded_and_resume_continues(tmp_path):
    history = tmp_path / "h.jsonl"
    first = run(f"{typed(0)}\nhint\n7c 7d", "--deals", "2", "--history", str(history))
    assert first.returncode == 0 and first.stderr == "", first.stderr
    assert "No hints in training" in first.stdout
    assert first.stdout.splitlines()[-1] == "Bye."
    assert [r["deal"] for r in records(history)] == [0]
    resumed = run(f"{typed(1)}\n", "--deals", "2", "--history", str(history), "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert "Resuming: 1 of 2 deals already graded." in resumed.stdout
    assert "Deal 1 of 2" not in resumed.stdout and "Deal 2 of 2 (seed 2)" in resumed.stdout
    assert [r["deal"] for r in records(history)] == [0, 1]
    assert "Score: 2 of 2 deals graded" in resumed.stdout  # the score covers the series
    done = run("", "--deals", "2", "--history", str(history), "--resume")
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "All 2 deals are graded."


@pytest.mark.parametrize(
    "args, message",
    [
        (["--seed", "2", "--resume"], "line 1: from another series"),
        (["--resume", "--mode", "independent"], "line 1: from another series"),
        ([], "already holds 1 deal(s); resume it or choose another file"),
    ],
)
def test_another_series_is_refused_with_one_line(tmp_path, args, message):
    history = tmp_path / "h.jsonl"
    series = Series(deals=2, seed=SEED, rules=RULES)
    header = {**series.header(), "deal": 0, "deal_seed": 1, "grade": GRADE}
    history.write_text(json.dumps(header) + "\n", encoding="utf-8")
    proc = run("", "--deals", "2", "--history", str(history), *args)
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "--history" in lines[0], proc.stderr


def test_unwritable_history_is_refused_before_starting(tmp_path):
    proc = run("", "--history", str(tmp_path / "missing" / "h.jsonl"))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().splitlines() == [
        f"quintet: error: --history {tmp_path / 'missing' / 'h.jsonl'}: cannot write: "
        "No such file or directory"
    ]


def test_resume_needs_a_history():
    proc = run("", "--resume")
    assert proc.returncode == 2 and "--resume needs --history" in proc.stderr


# ======================================================================= in process


TWO = Rules(position_points=(6, 7))


def scripted(entries: list[str]):
    queue = list(entries)

    def read(prompt: str) -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)

    return read


def test_train_function_on_two_positions(tmp_path):
    series = Series(deals=3, seed=4, rules=TWO)
    typed_arrangements = [
        random_arrangement(deal(4 + k, TWO).holdings[0], np.random.default_rng(k), TWO)
        for k in range(3)
    ]
    history = tmp_path / "two.jsonl"
    written: list[str] = []
    status = train(
        series,
        scripted([a.format(ascii=True) for a in typed_arrangements]),
        written.append,
        describe=lambda g: [f"loss {g.equilibrium_loss:.6f}"],
        history=history,
    )
    assert status == 0 and written[-1] == "All 3 deals are graded."
    for k, record in enumerate(read_history(history, series).records):
        expected = grade(typed_arrangements[k], deal(4 + k, TWO).holdings[1], TWO)
        assert record["grade"]["equilibrium_loss"] == pytest.approx(expected.equilibrium_loss)
        assert f"loss {expected.equilibrium_loss:.6f}" in written
    with pytest.raises(QuintetError, match="another series"):
        read_history(history, Series(deals=3, seed=5, rules=TWO))


def test_bad_history_line_is_an_error(tmp_path):
    history = tmp_path / "bad.jsonl"
    history.write_text("{not json\n", encoding="utf-8")
    with pytest.raises(QuintetError, match="line 1: not JSON"):
        read_history(history, Series(deals=1, seed=0, rules=TWO))
