"""quintet verify on hostile input: every limit refused in one line, repeats merged, exit statuses."""

from __future__ import annotations

import json
import random
import time
from fractions import Fraction

import pytest

from solver.cli.main import main
from solver.errors import CertificateLimitError, NotACertificateError, VerificationError
from solver.verify import verify_document
from solver.verify.checks import Game, _strategy
from solver.verify.limits import MAX_DEPTH, MAX_FRACTION_CHARS, parse_json
from solver.verify.ranking import parse_card
from solver.verify.scoring import exact_value
from tests.verify.test_verify import _document, _mixed_document


def _run(tmp_path, capsys, doc_or_text, *options: str) -> tuple[int, str, str]:
    path = tmp_path / "c.json"
    text = doc_or_text if isinstance(doc_or_text, str) else json.dumps(doc_or_text)
    path.write_text(text)
    status = main(["verify", str(path), *options])
    out, err = capsys.readouterr()
    return status, out, err


def _one_error_line(err: str, *words: str) -> None:
    assert err.startswith("quintet: error:") and err.count("\n") == 1, err
    for word in words:
        assert word in err, err


def test_a_deeply_nested_document_is_refused_before_parsing(tmp_path, capsys):
    text = "[" * 100_000 + "]" * 100_000  # json.loads alone: a RecursionError
    with pytest.raises(CertificateLimitError, match="MAX_DEPTH"):
        parse_json(text)
    status, _, err = _run(tmp_path, capsys, text)
    assert status == 2
    _one_error_line(err, f"limit of {MAX_DEPTH}")


def test_brackets_inside_strings_are_not_depth():
    assert parse_json(json.dumps({"note": "[" * 1000 + '\\"{'})) == {"note": "[" * 1000 + '\\"{'}


def test_a_document_at_the_depth_limit_is_read():
    nested = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert parse_json(nested) is not None
    with pytest.raises(CertificateLimitError):
        parse_json("[" + nested + "]")


def test_nan_and_infinity_are_not_numbers():
    for text in ('{"value": NaN}', '{"value": -Infinity}'):
        with pytest.raises(NotACertificateError, match="not a JSON number"):
            parse_json(text)


def test_an_exponent_is_not_a_fraction_and_costs_nothing():
    doc = _document("independent2", "margin", 1)
    doc["value"] = "1e999999999"  # Fraction() would compute 10**999999999
    started = time.process_time()
    with pytest.raises(VerificationError, match="is not a fraction"):
        verify_document(doc)
    assert time.process_time() - started < 30  # refused at once, not after minutes


def test_a_fraction_over_the_limit_is_refused(tmp_path, capsys):
    doc = _document("independent2", "margin", 1)
    doc["upper"] = "1/" + "7" * (MAX_FRACTION_CHARS + 1)
    status, _, err = _run(tmp_path, capsys, doc)
    assert status == 2
    _one_error_line(err, "upper:", "MAX_FRACTION_CHARS")


def test_huge_position_points_are_refused(tmp_path, capsys):
    doc = _document("independent2", "margin", 1)
    doc["rules"]["position_points"] = [6, 10**400]
    status, _, err = _run(tmp_path, capsys, doc)
    assert status == 2
    _one_error_line(err, "rules.position_points", "MAX_POSITION_POINTS")


def _split_entries(doc: dict, pieces: int) -> dict:
    """Each strategy entry written ``pieces`` times, its probability split evenly."""
    for player in ("player1", "player2"):
        doc["strategies"][player] = [
            {**item, "probability": str(Fraction(item["probability"]) / pieces)}
            for item in doc["strategies"][player]
            for _ in range(pieces)
        ]
    return doc


def test_repeated_arrangements_are_merged_before_scoring():
    doc = _split_entries(_mixed_document("win"), 2_000)
    report = verify_document(doc)
    assert report.complete
    merged = [line for line in report.checked if "merged" in line]
    assert len(merged) == 2 and all("repeat an arrangement" in line for line in merged)


def test_too_many_pairs_are_refused_naming_the_option(tmp_path, capsys):
    doc = _mixed_document("margin")
    status, _, err = _run(tmp_path, capsys, doc, "--max-pairs", "1")
    assert status == 2
    _one_error_line(err, "--max-pairs", "over the limit of 1")
    assert _run(tmp_path, capsys, doc, "--max-pairs", "1000000")[0] == 0


@pytest.mark.parametrize("payoff", ["margin", "win"])
@pytest.mark.parametrize("seed", range(4))
def test_the_exact_value_equals_the_pairwise_fractions(payoff, seed):
    """All pairs in integers against each pair scored in Fraction arithmetic."""
    doc = _document("independent3", payoff, seed)
    rules = doc["rules"]
    game = Game(
        tuple(rules["position_points"]),
        rules["ace_low_straight"],
        rules["flush_beats_full_house"],
        False,
        payoff,
    )
    holdings = {p: frozenset() for p in ("player1", "player2")}
    strategies = {}
    for player in holdings:
        first = doc["strategies"][player][0]["arrangement"]
        cards = [card for packet in first for card in packet]
        holdings[player] = frozenset(parse_card(c) for c in cards)
        strategies[player] = _strategy(doc["strategies"][player], holdings[player], game, player)
    # Random weights too: not only the equilibrium's.
    rng = random.Random(seed)
    for player, strategy in strategies.items():
        weights = [Fraction(rng.randint(1, 10**6), 10**6 + rng.randint(0, 99)) for _ in strategy]
        total = sum(weights)
        strategies[player] = [(w / total, a) for w, (_, a) in zip(weights, strategy, strict=True)]
    first, second = strategies["player1"], strategies["player2"]
    pairwise = sum((q * game.against(a, second) for q, a in first), Fraction(0))
    assert exact_value(game, first, second) == pairwise


def test_a_claim_not_checked_is_exit_3_never_0(tmp_path, capsys, monkeypatch):
    import solver.verify.bounds as bounds

    def unsettled(report, *args, **kwargs):
        report.unverified.append("upper: a bound this test leaves unsettled")

    monkeypatch.setattr(bounds, "check_bounds", unsettled)
    doc = _document("independent2", "win", 1)
    status, out, _ = _run(tmp_path, capsys, doc)
    assert status == 3
    first = out.splitlines()[0]
    assert "NOT verified" in first and "1 claim not checked" in first
    assert "verified" not in first.replace("NOT verified", "")
    status, out, _ = _run(tmp_path, capsys, doc, "--json")
    assert status == 3
    payload = json.loads(out)
    assert payload["verified"] is False and payload["status"] == "unchecked"
    assert payload["unverified"] == ["upper: a bound this test leaves unsettled"]


def test_the_statuses_in_json(tmp_path, capsys):
    doc = _document("independent2", "margin", 1)
    status, out, _ = _run(tmp_path, capsys, doc, "--json")
    assert status == 0 and json.loads(out)["status"] == "verified"
    doc["value"] = "7/3"
    status, out, _ = _run(tmp_path, capsys, doc, "--json")
    payload = json.loads(out)
    assert status == 1 and payload["status"] == "failed" and not payload["verified"]
