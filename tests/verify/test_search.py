"""The exact best-response search of quintet verify: against enumeration, on full certificates."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

from solver.cli.main import main
from solver.errors import VerificationError
from solver.verify import verify_document
from solver.verify.bounds import check_bounds
from solver.verify.checks import Game, Report, _game, _holdings, _strategy
from solver.verify.search import search_bound
from tests.verify.test_verify import _document

PLAYERS = ("player1", "player2")


def _arrangements(cards: list[int], n: int) -> list[tuple[tuple[int, ...], ...]]:
    """Every arrangement of ``cards`` into ``n`` packets, position by position."""
    if n == 0:
        return [()]
    return [
        (first, *rest)
        for first in combinations(cards, 5)
        for rest in _arrangements([c for c in cards if c not in first], n - 1)
    ]


def _brute_best(game: Game, cards: list[int], opponent) -> Fraction:
    """The best own payoff over every arrangement, in exact integers (the search's oracle)."""
    n = len(game.points)
    every = _arrangements(cards, n)
    common = math.lcm(*(q.denominator for q, _ in opponent))
    keys = {game.key(a[p]) for a in every for p in range(n)}
    keys = sorted(keys | {game.key(b[p]) for _, b in opponent for p in range(n)})
    rank = {k: i for i, k in enumerate(keys)}
    ours = np.array([[rank[game.key(a[p])] for p in range(n)] for a in every])
    total = np.zeros(len(every), dtype=object)
    for q, b in opponent:
        theirs = [rank[game.key(b[p])] for p in range(n)]
        margin = sum(w * np.sign(ours[:, p] - theirs[p]) for p, w in enumerate(game.points))
        weight = q.numerator * (common // q.denominator)
        if game.payoff == "margin":
            total = total + weight * margin.astype(object) * 2
        else:
            total = total + weight * (1 + np.sign(margin)).astype(object)
    return Fraction(int(max(total)), 2 * common)


def _random_case(seed: int, n: int, payoff: str):
    rng = random.Random(seed)
    game = Game(tuple(range(8 - n, 8)), rng.random() < 0.3, rng.random() < 0.3, False, payoff)
    deck = list(range(32))
    rng.shuffle(deck)
    mine = sorted(deck[: 5 * n])
    # Half the cases share cards with the opponent (mirror-like): equal keys, draws, ties.
    theirs = mine if seed % 2 else sorted(deck[5 * n : 10 * n])
    size = rng.randint(1, 5)
    weights = [rng.randint(1, 9) for _ in range(size)]
    opponent = []
    for w in weights:
        cards = theirs[:]
        rng.shuffle(cards)
        packets = tuple(tuple(sorted(cards[5 * i : 5 * i + 5])) for i in range(n))
        opponent.append((Fraction(w, sum(weights)), packets))
    return game, mine, opponent


@pytest.mark.parametrize("payoff", ["margin", "win"])
@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("n", [1, 2])
def test_the_search_finds_the_exact_maximum_of_small_games(n, seed, payoff):
    game, mine, opponent = _random_case(seed, n, payoff)
    best = _brute_best(game, mine, opponent)
    args = (game.points, payoff, mine, opponent)
    assert search_bound(*args, best, key=game.key).status == "checked"
    below = search_bound(*args, best - Fraction(1, 10**9), key=game.key)
    assert below.status == "refuted" and game.against(below.witness, opponent) == best


@pytest.mark.parametrize("payoff", ["margin", "win"])
def test_probabilities_beyond_int64_are_exact(payoff):
    """A common denominator of 3^80: the search's integers are Python's, still exact."""
    game, mine, opponent = _random_case(7, 2, payoff)
    tiny = Fraction(1, 3**80)
    opponent = [(opponent[0][0] - tiny, opponent[0][1]), *opponent[1:], (tiny, opponent[0][1])]
    best = _brute_best(game, mine, opponent)
    args = (game.points, payoff, mine, opponent)
    assert search_bound(*args, best, key=game.key).status == "checked"
    refuted = search_bound(*args, best - tiny / 7, key=game.key)
    assert refuted.status == "refuted" and game.against(refuted.witness, opponent) == best


@pytest.mark.slow
@pytest.mark.parametrize("payoff", ["margin", "win"])
@pytest.mark.parametrize("seed", range(3))
def test_the_search_finds_the_exact_maximum_of_three_position_games(seed, payoff):
    game, mine, opponent = _random_case(100 + seed, 3, payoff)
    best = _brute_best(game, mine, opponent)
    args = (game.points, payoff, mine, opponent)
    assert search_bound(*args, best, key=game.key).status == "checked"
    refuted = search_bound(*args, best - Fraction(1, 10**9), key=game.key)
    assert refuted.status == "refuted" and game.against(refuted.witness, opponent) == best


def _parts(doc: dict):
    game = _game(doc)
    holdings = _holdings(doc, game)
    strategies = {p: _strategy(doc["strategies"][p], holdings[p], game, p) for p in PLAYERS}
    return game, holdings, strategies, {name: Fraction(doc[name]) for name in ("lower", "upper")}


FULL = [("independent", 1), ("mirror", 1), ("independent", 2)]


@pytest.mark.slow
@pytest.mark.parametrize("payoff", ["margin", "win"])
@pytest.mark.parametrize(("mode", "seed"), FULL)
def test_full_game_certificates_have_both_bounds_proven(mode, seed, payoff):
    report = verify_document(_document(mode, payoff, seed))
    assert not report.unverified, report.unverified
    proven = [line for line in report.checked if line.startswith(("upper:", "lower:"))]
    assert len(proven) == 2 and "proven by scoring every maximal strength profile" in proven[0]


@pytest.mark.slow
@pytest.mark.parametrize("payoff", ["margin", "win"])
@pytest.mark.parametrize("side", ["upper", "lower"])
def test_a_full_game_claim_tightened_by_a_millionth_fails(payoff, side):
    game, holdings, strategies, claims = _parts(_document("mirror", payoff, 1))
    claims[side] += Fraction(-1 if side == "upper" else 1, 10**6)
    player = "player1" if side == "upper" else "player2"
    with pytest.raises(VerificationError, match=f"^{side}: {player}'s arrangement "):
        check_bounds(Report(), game, holdings, strategies, claims)


def _code(card: int) -> str:
    return "789TJQKA"[card // 4] + "cdhs"[card % 4]


@pytest.mark.slow
def test_a_pure_forgery_of_a_win_certificate_fails(tmp_path, capsys):
    """Both strategies replaced by one arrangement each, every number recomputed exactly and
    lower = upper = value: the arrangement countering one of them refutes a bound (exit 1)."""
    doc = _document("mirror", "win", 2)
    game, _, strategies, _ = _parts(doc)
    first, second = strategies["player1"][0][1], strategies["player2"][0][1]
    value = game.against(first, [(Fraction(1), second)])
    for player, packets in zip(PLAYERS, (first, second), strict=True):
        codes = [[_code(c) for c in packet] for packet in packets]
        doc["strategies"][player] = [{"probability": "1", "arrangement": codes}]
        doc["best_responses"][player] = {"arrangement": codes, "payoff": str(value)}
    doc["value"] = doc["lower"] = doc["upper"] = str(value)
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(doc))
    assert main(["verify", str(path)]) == 1
    assert "FAILED: " in capsys.readouterr().err
    with pytest.raises(VerificationError, match=r"^(upper|lower): player.'s arrangement"):
        verify_document(doc)


def test_a_tiny_time_limit_reports_both_bounds_not_checked():
    lines: list[str] = []
    doc = _document("independent", "win", 1)  # not symmetric: both bounds are searched
    report = verify_document(doc, time_limit=1e-9, progress=lines.append)
    assert [line.split(":")[0] for line in report.unverified] == ["upper", "lower"]
    assert all("not a failure" in line for line in report.unverified)
    assert "time limit" in report.unverified[0]
    # One line before each bound says what it will search.
    assert [line.split(":")[0] for line in lines if "maximal strength profiles of" in line][:2] == [
        "upper",
        "lower",
    ]


def test_progress_announces_each_bound_and_the_search_still_proves_it():
    lines: list[str] = []
    report = verify_document(_document("independent3", "win", 0), progress=lines.append)
    assert not report.unverified
    assert sum("maximal strength profiles of" in line for line in lines) == 2


def test_a_time_limit_must_be_positive():
    game, holdings, strategies, claims = _parts(_document())
    with pytest.raises(ValueError, match="time_limit 0 "):
        check_bounds(Report(), game, holdings, strategies, claims, time_limit=0)
