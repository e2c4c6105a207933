"""``analyze``: a history written by training, graded deal by deal as ``grade`` grades it."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from solver.app import analyze_jobs
from solver.app.analyze import AnalyzeRequest, analyze
from solver.app.analyze_jobs import POOL_THRESHOLD, jobs_for
from solver.app.grading import grade_arrangement
from solver.app.history import parse_history
from solver.app.limits import MAX_JOBS
from solver.app.requests import BookChoice, GradeRequest, holdings
from solver.errors import QuintetError
from solver.game.arrangement import Arrangement
from solver.game.cards import format_cards
from solver.game.deal import deal
from solver.game.rules import DiscardMode, Rules
from solver.models.heuristics import greedy_arrangement
from solver.play.training import Series, train

RULES = Rules(position_points=(6, 7), discard_mode=DiscardMode.INDEPENDENT)


def _random_arrangement(cards, seed: int) -> Arrangement:
    order = np.random.default_rng(seed).permutation(np.array(cards))
    return Arrangement.from_array(order.reshape(2, 5))


def _history(tmp_path, deals: int = 6):
    """A history written by the training loop, the player laying random arrangements."""
    series = Series(deals=deals, seed=11, rules=RULES)
    laid = [
        _random_arrangement(deal(series.deal_seed(i), RULES).holdings[0], i) for i in range(deals)
    ]
    entries = iter(
        format_cards(packet, ascii=True) for arrangement in laid for packet in arrangement.packets
    )
    path = tmp_path / "history.jsonl"
    train(
        series,
        lambda prompt: next(entries),
        lambda line: None,
        describe=lambda grade: [],
        history=path,
        solver=None,
    )
    return path, series, laid


@pytest.fixture
def book(tmp_path):
    return BookChoice(str(tmp_path / "book.sqlite"))


def test_analyze_equals_grade_deal_by_deal(tmp_path, book):
    path, series, laid = _history(tmp_path)
    answer = analyze(AnalyzeRequest(path=str(path), book=book, top=3))
    rows = answer.document["rows"]
    assert answer.document["format"] == "quintet-analysis/1"
    assert len(rows) == series.deals and answer.warnings == ()
    for index, row in enumerate(rows):
        graded = grade_arrangement(
            GradeRequest(
                holdings=holdings(None, None, series.deal_seed(index), RULES),
                rules=RULES,
                arrangement=laid[index].format(ascii=True),
                book=book,
            )
        ).document
        assert row["loss"] == pytest.approx(graded["equilibrium_loss"], abs=1e-12)
        assert row["verdict"] == graded["verdict"]
        assert row["game_value"] == pytest.approx(graded["game_value"], abs=1e-12)
        change = graded["change"]
        assert (row["change"] is None) == (change is None)
        if change is not None:
            assert row["change"]["kind"] == change["kind"]
            assert row["change"]["loss_after"] == pytest.approx(change["equilibrium_loss"])
    worst = [r["loss"] for r in answer.document["worst"]]
    assert worst == sorted(worst, reverse=True)[:3] and len(worst) == 3
    assert max(worst) == max(r["loss"] for r in rows)


def test_leak_shares_sum_to_the_total_loss(tmp_path, book):
    path, _, _ = _history(tmp_path)
    document = analyze(AnalyzeRequest(path=str(path), book=book)).document
    total = document["summary"]["total_loss"]
    assert total > 0  # random arrangements lose
    assert total == pytest.approx(sum(r["loss"] for r in document["rows"]))
    for kind in ("positions", "combinations", "changes"):
        leaks = document["leaks"][kind]
        assert sum(leak["loss"] for leak in leaks) == pytest.approx(total, abs=1e-9), kind
        assert sum(leak["share"] for leak in leaks) == pytest.approx(1.0, abs=1e-9), kind
    for row in document["rows"]:
        assert sum(row["position_loss"]) == pytest.approx(row["loss"], abs=1e-9)
    summary = document["summary"]
    low, high = summary["loss"]["interval"]
    assert low <= summary["loss"]["mean"] <= high
    assert sum(summary["verdicts"].values()) == len(document["rows"])


def test_bad_lines_are_reported_by_number(tmp_path, book):
    path, _, _ = _history(tmp_path, deals=2)
    good = path.read_text().splitlines()
    record = json.loads(good[0])
    record["grade"]["arrangement"] = [
        ["As", "Ks", "Qs", "Js", "Ts"],
        ["Ah", "Kh", "Qh", "Jh", "Th"],
    ]
    lines = [good[0], "not json", json.dumps(record), "[1, 2]", "", good[1], '{"seed": 1}']
    path.write_text("\n".join(lines) + "\n")
    answer = analyze(AnalyzeRequest(path=str(path), book=book))
    assert [b["line"] for b in answer.document["bad_lines"]] == [2, 3, 4, 7]
    assert [r["line"] for r in answer.document["rows"]] == [1, 6]
    messages = [n.message for n in answer.warnings]
    assert messages[0] == "line 2: skipped: not JSON"
    assert messages[1].startswith("line 3: skipped: ") and "not in the holding" in messages[1]
    assert messages[3] == "line 7: skipped: no arrangement"


def test_csv_input_gives_the_same_result_as_json_lines(tmp_path, book):
    path, _, _ = _history(tmp_path)
    table = tmp_path / "history.csv"
    with table.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["seed", "mode", "position_points", "arrangement"])
        for line in path.read_text().splitlines():  # as the training loop recorded it
            record = json.loads(line)
            laid_text = " | ".join(" ".join(p) for p in record["grade"]["arrangement"])
            writer.writerow([record["deal_seed"], "independent", "6-7", laid_text])
    from_json = analyze(AnalyzeRequest(path=str(path), book=book)).document
    from_csv = analyze(AnalyzeRequest(path=str(table), book=book)).document
    # CSV lines are numbered from the header (line 1); the deals are the same.
    for a, b in zip(from_json["rows"], from_csv["rows"], strict=True):
        assert b["line"] == a["line"] + 1
        assert {**a, "line": 0, "from_book": 0} == {**b, "line": 0, "from_book": 0}
        assert b["from_book"]  # the JSON Lines run stored every deal: never solved again
    assert from_json["summary"] == from_csv["summary"]
    assert from_json["leaks"] == from_csv["leaks"]


def test_csv_with_holdings_and_an_unknown_column(tmp_path, book):
    mine, theirs = deal(4, RULES).holdings
    arrangement = _random_arrangement(mine, 0).format(ascii=True)
    text = (
        "holding,opponent_holding,mode,position_points,arrangement\n"
        f"{format_cards(mine, ascii=True)},{format_cards(theirs, ascii=True)},independent,6-7,"
        f"{arrangement}\n"
    )
    deals, bad = parse_history(text)
    assert bad == [] and deals[0].mine == mine and deals[0].theirs == theirs
    deals, bad = parse_history("seed,colour,arrangement\n1,red,x\n")
    assert deals == [] and bad[0].line == 1 and "unknown column 'colour'" in bad[0].reason


def test_jobs_and_csv_output(tmp_path, book):
    path, _, _ = _history(tmp_path)
    out = tmp_path / "rows.csv"
    one = analyze(AnalyzeRequest(path=str(path), book=book)).document
    two = analyze(AnalyzeRequest(path=str(path), book=book, jobs=2, csv=str(out))).document
    assert [r["loss"] for r in one["rows"]] == [r["loss"] for r in two["rows"]]
    assert all(r["from_book"] for r in two["rows"])  # the first run stored every deal
    rows = list(csv.DictReader(out.open()))
    # Written in the history's order, whichever worker finished first.
    assert [int(r["line"]) for r in rows] == [r["line"] for r in two["rows"]]
    assert [r["line"] for r in two["rows"]] == sorted(r["line"] for r in two["rows"])


def test_jobs_auto_is_the_idle_cpus_for_long_histories(monkeypatch):
    monkeypatch.setattr(analyze_jobs, "available_cpus", lambda: 6)
    monkeypatch.setattr(analyze_jobs.os, "getloadavg", lambda: (0.4, 3.0, 3.0))
    assert jobs_for("auto", POOL_THRESHOLD - 1) == 1  # short: the pool would cost more
    assert jobs_for("auto", POOL_THRESHOLD) == 6
    assert jobs_for("auto", 10**6) == 6
    assert jobs_for(3, 2) == 1 and jobs_for(3, 3) == 2 and jobs_for(3, 100) == 3
    monkeypatch.setattr(analyze_jobs.os, "getloadavg", lambda: (3.6, 1.0, 1.0))
    assert jobs_for("auto", 1000) == 2  # four CPUs busy: two left
    monkeypatch.setattr(analyze_jobs.os, "getloadavg", lambda: (9.0, 1.0, 1.0))
    assert jobs_for("auto", 1000) == 1 and jobs_for(3, 1000) == 3  # a number is kept
    monkeypatch.setattr(analyze_jobs.os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    monkeypatch.setattr(analyze_jobs, "available_cpus", lambda: 10**4)
    assert jobs_for("auto", 10**6) == MAX_JOBS
    for bad in (0, MAX_JOBS + 1, "2", 2.0, True):
        with pytest.raises(QuintetError, match=r"^jobs must be auto or a number"):
            jobs_for(bad, 10)


def test_tasks_keep_a_game_together_and_start_with_the_first_game():
    laid = parse_history(
        "seed,arrangement\n"
        + "".join(
            f"{seed},{greedy_arrangement(deal(seed).holdings[0]).format(ascii=True)}\n"
            for seed in (1, 1, 2, 3, 2, 4, 5, 6, 7, 8, 9, 10)
        )
    )[0]
    tasks = analyze_jobs._tasks(laid, 2)
    assert [index for index, _ in tasks[0]] == [0, 1]  # the first game, graded before the pool
    assert sorted(index for task in tasks for index, _ in task) == list(range(len(laid)))
    home = {index: k for k, task in enumerate(tasks) for index, _ in task}
    assert home[2] == home[4]  # seed 2's two deals in one task: solved once
    assert all(len(task) <= analyze_jobs.TASK_DEALS for task in tasks)


def test_requests_are_checked_before_the_work(tmp_path):
    with pytest.raises(QuintetError, match=r"missing/out.csv"):
        analyze(AnalyzeRequest(content="", csv=str(tmp_path / "missing" / "out.csv")))
    with pytest.raises(QuintetError, match=r"^jobs must be auto or a number between 1"):
        analyze(AnalyzeRequest(content="", jobs=0))
    with pytest.raises(QuintetError, match=r"^path or content"):
        analyze(AnalyzeRequest())
