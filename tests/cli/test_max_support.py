"""``quintet equilibrium --max-support K``: the simple strategy in text (both languages) and JSON."""

from __future__ import annotations

import json

import pytest

from solver.cli.main import main


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["equilibrium", "--seed", "1", "--no-book", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_text_names_the_certified_loss_and_what_is_not_proven(capsys):
    status, out, err = _run(capsys, "--max-support", "2", "--show", "2")
    assert status == 0, err
    assert "simple strategy (k = 2): mixes 2 of at most 2 arrangements:" in out
    assert "certified exploitability: 2.5 points (10.00% of the 25 points)" in out
    assert "not proven the best 2-arrangement strategy" in out
    status, out, err = _run(capsys, "--max-support", "2", "--lang", "ru")
    assert status == 0, err
    assert "простая стратегия (k = 2)" in out and "гарантированная уязвимость: 2.5 очк." in out


def test_the_json_document_carries_the_strategy_and_its_certificate(capsys):
    status, out, err = _run(capsys, "--max-support", "3", "--json")
    assert status == 0, err
    simple = json.loads(out)["simple_strategy"]
    assert simple["k"] == 3 and simple["seat"] == 1 and not simple["proven"]
    assert len(simple["strategy"]["strategies"]) == 3
    assert simple["exploitability"] == pytest.approx(simple["value"] - simple["guarantee"])
    status, out, err = _run(capsys, "--json")
    assert status == 0 and "simple_strategy" not in json.loads(out)


@pytest.mark.parametrize(
    ("k", "message"),
    [
        ("0", "'0' must be at least 1"),
        ("51", "'51' must be at most 50"),
        ("x", "'x' is not an integer"),
    ],
)
def test_a_bad_k_is_one_line_and_exit_2(capsys, k, message):
    status, out, err = _run(capsys, "--max-support", k)
    assert status == 2 and out == ""
    assert err.strip().splitlines() == [f"quintet equilibrium: argument --max-support: {message}"]
