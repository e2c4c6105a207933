"""quintet verify: accepts the certificates of seeded deals, rejects every tampered field."""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from itertools import combinations

import numpy as np
import pytest

from solver.cli.main import main
from solver.equilibria.certificate import certificate, exact_probabilities
from solver.equilibria.equilibrium import solve
from solver.errors import NotACertificateError, VerificationError
from solver.game.deal import deal
from solver.game.evaluator import strength
from solver.game.rules import Rules
from solver.verify import verify_document
from solver.verify.ranking import packet_key

REDUCED = {
    "mirror2": Rules(position_points=(6, 7)),
    "independent2": Rules(position_points=(6, 7), discard_mode="independent"),
    "independent3": Rules(position_points=(5, 6, 7), discard_mode="independent"),
    "mirror": Rules(),  # the full game, for tests/verify/test_search.py
    "independent": Rules(discard_mode="independent"),
}


@cache
def _certificate(name: str, payoff: str, seed: int) -> str:
    rules = REDUCED[name]
    first, second = deal(seed, rules).holdings
    return json.dumps(certificate(solve(first, second, rules, payoff), first, second))


def _document(name: str = "independent2", payoff: str = "margin", seed: int = 1) -> dict:
    return json.loads(_certificate(name, payoff, seed))


@pytest.mark.parametrize("payoff", ["margin", "win"])
@pytest.mark.parametrize("name", ["mirror2", "independent2"])
@pytest.mark.parametrize("seed", range(20))
def test_verify_accepts_seeded_certificates(name, payoff, seed):
    report = verify_document(_document(name, payoff, seed))
    assert not report.unverified
    assert any(line.startswith("upper:") for line in report.checked)


@pytest.mark.parametrize("payoff", ["margin", "win"])
@pytest.mark.parametrize("seed", range(3))
def test_verify_accepts_three_position_certificates(payoff, seed):
    assert not verify_document(_document("independent3", payoff, seed)).unverified


@pytest.mark.parametrize("options", [(False, False), (True, False), (False, True)])
def test_the_ranking_agrees_with_the_solvers_on_every_hand(options):
    """The verifier's sort-based keys order all 201,376 hands as the solver's tables do."""
    rules = Rules(ace_low_straight=options[0], flush_beats_full_house=options[1])
    hands = list(combinations(range(32), 5))
    keys = [packet_key(h, *options) for h in hands]
    dense = {k: i for i, k in enumerate(sorted(set(keys)))}
    ours = np.array([dense[k] for k in keys])
    theirs = strength(np.array(hands), rules).astype(np.int64)
    order = np.argsort(theirs, kind="stable")
    assert np.array_equal(np.sign(np.diff(ours[order])), np.sign(np.diff(theirs[order])))


def _first_probability_pair(doc: dict) -> tuple[dict, dict] | None:
    items = doc["strategies"]["player1"]
    return (items[0], items[1]) if len(items) > 1 else None


def _mixed_document(payoff: str) -> dict:
    for name in ("independent2", "mirror2", "independent3"):
        for seed in range(20):
            doc = _document(name, payoff, seed)
            if len(doc["strategies"]["player1"]) > 1 and len(doc["strategies"]["player2"]) > 1:
                return doc
    raise AssertionError("no mixed equilibrium among 60 reduced deals")


def _fails(doc: dict, where: str | tuple[str, ...]) -> None:
    with pytest.raises(VerificationError) as caught:
        verify_document(doc)
    assert str(caught.value).startswith(where), str(caught.value)


def _moved(doc: dict, i: int, j: int) -> dict:
    """``doc`` with a seventh of the smaller probability moved from entry ``i`` to ``j``."""
    moved = json.loads(json.dumps(doc))
    first, second = (moved["strategies"]["player1"][k] for k in (i, j))
    shift = Fraction(1, 7) * min(Fraction(first["probability"]), Fraction(second["probability"]))
    first["probability"] = str(Fraction(first["probability"]) - shift)
    second["probability"] = str(Fraction(second["probability"]) + shift)
    return moved


@pytest.mark.parametrize("payoff", ["margin", "win"])
def test_a_probability_moved_between_arrangements_is_caught(payoff):
    """Moved between two arrangements that score differently (images of one strategy under a
    suit symmetry score alike, and moving between them changes nothing)."""
    doc = _mixed_document(payoff)
    items = doc["strategies"]["player1"]
    for i, j in combinations(range(len(items)), 2):
        moved = _moved(doc, i, j)
        try:
            verify_document(moved)
        except VerificationError as error:
            assert str(error).startswith("value"), str(error)  # still sums to 1
            return
    raise AssertionError("no pair of arrangements whose scores differ")


def test_a_probability_that_breaks_the_sum_is_caught():
    doc = _mixed_document("margin")
    doc["strategies"]["player2"][0]["probability"] = "1/3"
    _fails(doc, "strategies.player2: the probabilities sum")


def test_a_changed_card_is_caught():
    doc = _document()
    doc["strategies"]["player1"][0]["arrangement"][0][0] = doc["holdings"]["player2"][0]
    bad = doc["strategies"]["player1"][0]["arrangement"][0][0]
    if bad in doc["holdings"]["player1"]:
        doc["strategies"]["player1"][0]["arrangement"][0][0] = "Xs"
    _fails(doc, "strategies.player1[0].arrangement")


def test_a_changed_holding_is_caught():
    doc = _document()
    doc["holdings"]["player1"][0], doc["holdings"]["player1"][1] = "As", "As"
    _fails(doc, "holdings.player1")


@pytest.mark.parametrize("field", ["value", "lower", "upper"])
def test_a_changed_claim_is_caught(field):
    doc = _document()
    # Tighter claims are false: a higher value or guarantee, a lower upper bound.
    doc[field] = str(Fraction(doc[field]) + Fraction(-1 if field == "upper" else 1, 10**15))
    _fails(doc, "value" if field == "value" else ("lower", "upper"))


@pytest.mark.parametrize("player", ["player1", "player2"])
def test_a_changed_best_response_payoff_is_caught(player):
    doc = _document()
    best = doc["best_responses"][player]
    best["payoff"] = str(Fraction(best["payoff"]) - Fraction(1, 3))
    _fails(doc, f"best_responses.{player}.payoff")


@pytest.mark.parametrize("payoff", ["margin", "win"])
@pytest.mark.parametrize("side", ["upper", "lower"])
def test_the_bound_check_finds_a_better_arrangement(payoff, side):
    """A claim tighter than the truth by 1e-9: the search finds an arrangement refuting it."""
    from solver.verify.bounds import check_bounds
    from solver.verify.checks import Report, _game, _holdings, _strategy

    doc = _document("independent2", payoff, 3)
    game = _game(doc)
    holdings = _holdings(doc, game)
    strategies = {
        p: _strategy(doc["strategies"][p], holdings[p], game, p) for p in ("player1", "player2")
    }
    claims = {name: Fraction(doc[name]) for name in ("lower", "upper")}
    check_bounds(Report(), game, holdings, strategies, claims)  # the true claims pass
    claims[side] += Fraction(-1 if side == "upper" else 1, 10**9)
    with pytest.raises(VerificationError, match=f"^{side}: player"):
        check_bounds(Report(), game, holdings, strategies, claims)


def test_not_a_certificate():
    with pytest.raises(NotACertificateError):
        verify_document({"format": "quintet-mixture/1", "strategies": []})
    with pytest.raises(NotACertificateError):
        verify_document([1, 2])


def test_exact_probabilities_are_feasible():
    numerators = exact_probabilities([0.2, 0.3, 0.5 - 1e-13, 1e-13], 10**12)
    assert sum(numerators) == 10**12 and min(numerators) >= 0


def test_the_command_exits_0_1_and_2(tmp_path, capsys):
    good = tmp_path / "good.json"
    good.write_text(_certificate("independent2", "win", 1))
    assert main(["verify", str(good)]) == 0
    assert "verified" in capsys.readouterr().out
    doc = _document("independent2", "win", 1)
    doc["value"] = "7/3"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    assert main(["verify", str(bad)]) == 1
    assert "FAILED: value" in capsys.readouterr().err
    for text in ("not json", '{"format": "other"}'):
        (tmp_path / "x.json").write_text(text)
        assert main(["verify", str(tmp_path / "x.json")]) == 2
        err = capsys.readouterr().err
        assert err.startswith("quintet: error:") and err.count("\n") == 1


def test_the_equilibrium_command_writes_a_certificate(tmp_path, capsys):
    argv = ["equilibrium", "--seed", "2", "--no-book", "--mode", "independent"]
    assert main([*argv, "--certificate", str(tmp_path / "missing" / "c.json")]) == 2
    assert "--certificate" not in capsys.readouterr().out  # refused before the solve
    path = tmp_path / "c.json"
    assert main([*argv, "--payoff", "win", "--certificate", str(path)]) == 0
    doc = json.loads(path.read_text())
    assert doc["format"] == "quintet-certificate/1" and doc["holdings"]["player1"]


def test_a_bound_not_proven_in_time_is_not_checked_not_failed():
    """The search stopped by its time limit: the bound is reported unknown (exit 0), never false."""
    report = verify_document(_document("independent3", "margin", 0), time_limit=1e-6)
    limited = [line for line in report.unverified if "time limit" in line]
    assert len(limited) == 2, report.unverified
    assert not any(line.startswith(("upper:", "lower:")) for line in report.checked)


def _forged(kind: str) -> dict:
    """A certificate changed in one way that makes it false: seven kinds of forgery (the
    eighth, both strategies replaced by one arrangement with every number recomputed, is
    test_search.py's pure forgery of a full-game certificate)."""
    doc = _document()
    strategies, best = doc["strategies"], doc["best_responses"]
    if kind == "probabilities":
        strategies["player2"][0]["probability"] = "1/3"
    elif kind == "card":
        strategies["player1"][0]["arrangement"][0][0] = next(
            c for c in doc["holdings"]["player2"] if c not in doc["holdings"]["player1"]
        )
    elif kind == "holding":
        doc["holdings"]["player1"][0], doc["holdings"]["player1"][1] = "As", "As"
    elif kind in ("value", "lower", "upper"):
        doc[kind] = str(Fraction(doc[kind]) + Fraction(-1 if kind == "upper" else 1, 10**15))
    elif kind == "best response":
        best["player1"]["payoff"] = str(Fraction(best["player1"]["payoff"]) - Fraction(1, 3))
    return doc


@pytest.mark.parametrize(
    "kind",
    ["probabilities", "card", "holding", "value", "lower", "upper", "best response"],
)
def test_each_kind_of_forgery_exits_1(kind, tmp_path, capsys):
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(_forged(kind)))
    assert main(["verify", str(path)]) == 1
    assert "FAILED: " in capsys.readouterr().err
