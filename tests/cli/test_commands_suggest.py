"""``quintet suggest`` run as a real subprocess: options, JSON, and bad input.

Values printed by the command are rescored here without the optimizer:
with :func:`solver.game.arrangement.score` against known arrangements, and by
counting all five-card subsets of the opponent's cards against a random one.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from functools import cache

import numpy as np
import pytest

from solver.game.arrangement import Arrangement, GameResult, score
from solver.game.cards import format_cards, parse_cards
from solver.game.deal import deal
from solver.game.rules import Rules
from solver.models.heuristics import greedy_arrangement
from solver.models.mixture import Mixture, write_mixture
from tests.support import brute_force as bf

CLI = [sys.executable, "-m", "solver.cli", "suggest"]
SEED = 5  # a deal CP-SAT proves quickly
RULES = Rules()
MINE, THEIRS = deal(SEED).holdings
INDEPENDENT = deal(11, Rules(discard_mode="independent")).holdings  # quick to prove


def run(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [*CLI, *args], capture_output=True, text=True, encoding="utf-8", env=env, timeout=120
    )


@cache
def _cached_run(*args: str) -> subprocess.CompletedProcess:
    return run(*args)


def ok(*args: str) -> str:
    proc = _cached_run(*args)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "Traceback" not in proc.stdout
    return proc.stdout


def ok_json(*args: str) -> dict:
    return json.loads(ok(*args, "--json"))


def _ascii(cards) -> str:
    return format_cards(cards, ascii=True)


def _arrangement(payload: dict) -> Arrangement:
    return Arrangement(tuple(parse_cards(packet) for packet in payload["arrangement"]))


def _random_arrangement(cards, seed: int) -> Arrangement:
    order = np.random.default_rng(seed).permutation(np.array(cards))
    return Arrangement.from_array(order.reshape(5, 5))


def _value_against(mine: Arrangement, theirs: Arrangement, objective: str) -> float:
    s = score(mine, theirs, RULES)
    return {
        "points": float(s.points[0]),
        "margin": float(s.margin),
        "win": float(s.result is GameResult.WIN),
        "game": {GameResult.WIN: 1.0, GameResult.DRAW: 0.5, GameResult.LOSS: 0.0}[s.result],
    }[objective]


def _value_against_random(mine: Arrangement, opponent_cards, objective: str) -> float:
    win, _, loss = bf.random_chances(mine.strengths(RULES), opponent_cards, RULES)
    w = np.array(RULES.position_points, dtype=np.float64)
    return float(win @ w) if objective == "points" else float((win - loss) @ w)


def check_payload(payload: dict, mine_cards, objective: str) -> Arrangement:
    """The common JSON fields, and the arrangement uses exactly the player's cards."""
    for key in ("arrangement", "positions", "objective", "value", "bound", "status", "seconds"):
        assert key in payload, key
    assert payload["objective"] == objective
    assert payload["status"] in ("optimal", "feasible")
    assert payload["value"] <= payload["bound"] + 1e-9
    # The solve's duration: a float JSON can carry (finite), measured (a CP-SAT
    # solve takes time, so never the 0 of a field left unset).
    assert isinstance(payload["seconds"], float) and 0 < payload["seconds"] < math.inf
    assert payload["engine"] in (
        "cpsat",
        "frontier",
    )  # --engine auto picks one (see tests/cli/test_limits.py)
    assert len(payload["positions"]) == 5
    assert [p["position"] for p in payload["positions"]] == [1, 2, 3, 4, 5]
    for p in payload["positions"]:
        assert p["win"] + p["tie"] + p["loss"] == pytest.approx(1.0)
    # ASCII codes
    for packet in payload["arrangement"]:
        assert len(packet) == 5
        for code in packet:
            assert code.isascii() and len(code) == 2
    arrangement = _arrangement(payload)
    arrangement.check(mine_cards, RULES)
    assert payload["strengths"] == arrangement.strengths(RULES).tolist()
    return arrangement


# ======================================================================= seeded deal, text and JSON


def test_seeded_deal_text_prints_seed_and_is_reproducible():
    text = ok("--seed", str(SEED))
    payload = ok_json("--seed", str(SEED))  # a second, independent run of the same seed
    lines = text.splitlines()
    assert lines[0].startswith(f"Deal: seed {SEED}")
    assert "mirror" in lines[0]
    assert "proven optimal" in text
    # the holding shown is the library's deal
    shown = lines[1].split(":", 1)[1]
    assert sorted(parse_cards(shown)) == sorted(MINE)
    # the same value and the same packets as the JSON run
    value_line = next(line for line in lines if line.startswith("value:"))
    assert float(value_line.split()[1]) == pytest.approx(payload["value"], rel=1e-5)
    rows = [line for line in lines if line[:1].isdigit()]
    assert len(rows) == 5
    json_packets = [set(parse_cards(p)) for p in payload["arrangement"]]
    for row, packet in zip(rows, json_packets, strict=True):
        cards = set(parse_cards(" ".join(row.split()[2:7])))
        assert cards == packet


def test_seeded_deal_json_fields_and_value():
    payload = ok_json("--seed", str(SEED))
    assert payload["seed"] == SEED and payload["dealt"] is True
    assert sorted(parse_cards(payload["holding"])) == sorted(MINE)
    assert sorted(parse_cards(payload["opponent_holding"])) == sorted(THEIRS)
    arrangement = check_payload(payload, MINE, "margin")
    assert payload["status"] == "optimal"
    assert payload["gap"] == pytest.approx(0.0, abs=1e-9)
    assert payload["value"] == pytest.approx(
        _value_against_random(arrangement, THEIRS, "margin"), abs=1e-9
    )
    # positions: exact chances against a random packet of the opponent's cards
    win, tie, loss = bf.random_chances(arrangement.strengths(RULES), THEIRS, RULES)
    got = np.array([[p["win"], p["tie"], p["loss"]] for p in payload["positions"]])
    np.testing.assert_allclose(got, np.stack([win, tie, loss], axis=1), atol=1e-12)
    # not worse than the greedy arrangement
    greedy = greedy_arrangement(MINE, RULES)
    assert payload["value"] >= _value_against_random(greedy, THEIRS, "margin") - 1e-9


def test_without_seed_prints_a_seed_that_reproduces_the_deal():
    payload = ok_json()
    seed = payload["seed"]
    assert isinstance(seed, int) and seed >= 0
    assert sorted(parse_cards(payload["holding"])) == sorted(deal(seed).holdings[0])


# ======================================================================= opponent models


def test_against_greedy():
    payload = ok_json("--seed", str(SEED), "--against", "greedy")
    arrangement = check_payload(payload, MINE, "margin")
    greedy = greedy_arrangement(THEIRS, RULES)
    assert "greedy" in payload["against"]
    assert payload["status"] == "optimal"
    assert payload["value"] == pytest.approx(_value_against(arrangement, greedy, "margin"))
    # every position against a known packet: a sure win, tie or loss
    outcomes = score(arrangement, greedy, RULES).outcomes
    for p, outcome in zip(payload["positions"], outcomes, strict=True):
        assert (p["win"], p["tie"], p["loss"]) == (
            float(outcome == 1),
            float(outcome == 0),
            float(outcome == -1),
        )


def test_against_known():
    known = _random_arrangement(THEIRS, 3)
    payload = ok_json(
        "--seed", str(SEED), "--against", "known", "--known", _ascii_arrangement(known)
    )
    arrangement = check_payload(payload, MINE, "margin")
    assert payload["value"] == pytest.approx(_value_against(arrangement, known, "margin"))
    # --known alone implies --against known
    again = ok_json("--seed", str(SEED), "--known", _ascii_arrangement(known))
    assert again["value"] == pytest.approx(payload["value"])


def _ascii_arrangement(arrangement: Arrangement) -> str:
    return arrangement.format(ascii=True)


def test_against_mixture_file(tmp_path):
    arrangements = (greedy_arrangement(THEIRS, RULES), _random_arrangement(THEIRS, 4))
    probabilities = (0.7, 0.3)
    path = tmp_path / "opp.json"
    write_mixture(Mixture(arrangements, probabilities), path)
    payload = ok_json("--seed", str(SEED), "--against", str(path), "--objective", "points")
    arrangement = check_payload(payload, MINE, "points")
    expected = sum(
        p * _value_against(arrangement, a, "points")
        for a, p in zip(arrangements, probabilities, strict=True)
    )
    assert payload["value"] == pytest.approx(expected, abs=1e-9)
    assert str(path) in payload["against"]
    assert payload["status"] == "optimal"


@pytest.mark.parametrize("objective", ["win", "game"])
def test_win_and_game_objectives(objective):
    # (points: test_explicit_cards_mirror_mode; margin: the default, everywhere)
    payload = ok_json("--seed", str(SEED), "--objective", objective, "--samples", "8")
    check_payload(payload, MINE, objective)
    assert 0.0 <= payload["value"] <= 1.0
    estimate = payload["estimate"]
    assert estimate is not None and estimate["samples"] > 0
    assert 0.0 <= estimate["mean"] <= 1.0
    assert "8 sampled" in payload["note"]
    assert payload["bound"] <= 1.0 + 1e-9  # no expected result exceeds a sure win


def test_top_two_runners_up():
    payload = ok_json("--seed", str(SEED), "--top", "2")
    check_payload(payload, MINE, "margin")
    runners = payload["runners_up"]
    assert len(runners) == 1
    second = runners[0]
    arrangement = check_payload(second, MINE, "margin")
    assert second["value"] <= payload["value"] + 1e-9
    assert second["strengths"] != payload["strengths"]
    assert second["value"] == pytest.approx(
        _value_against_random(arrangement, THEIRS, "margin"), abs=1e-9
    )
    assert payload["value"] == pytest.approx(ok_json("--seed", str(SEED))["value"], abs=1e-9)


def test_fix_keeps_packet():
    packet = greedy_arrangement(MINE, RULES).packets[0]  # the weakest greedy packet
    fix = f"5={_ascii(packet)}"
    payload = ok_json("--seed", str(SEED), "--fix", fix, "--against", "greedy")
    arrangement = check_payload(payload, MINE, "margin")
    assert set(arrangement.packets[4]) == set(packet)
    greedy = greedy_arrangement(THEIRS, RULES)
    assert payload["value"] == pytest.approx(_value_against(arrangement, greedy, "margin"))
    free = ok_json("--seed", str(SEED), "--against", "greedy")  # as in test_against_greedy
    assert payload["value"] <= free["value"] + 1e-9


def test_russian_output_with_runner_up():
    text = ok("--seed", str(SEED), "--lang", "ru", "--top", "2")
    assert text.splitlines()[0].startswith(f"Сдача: зерно {SEED}")
    assert "оптимальность доказана" in text
    assert "Каре" in text  # seed 5 holds four aces
    assert "значение" in text
    assert "#2:" in text
    assert "♠" in text and "Т♠" in text  # Russian rank letters (Т = ace)


def test_explicit_cards_independent_mode():
    mine, theirs = INDEPENDENT
    assert mine != theirs
    payload = ok_json(_ascii(mine), "--opponent-cards", _ascii(theirs), "--mode", "independent")
    assert payload["dealt"] is False
    assert sorted(parse_cards(payload["holding"])) == sorted(mine)
    assert sorted(parse_cards(payload["opponent_holding"])) == sorted(theirs)
    arrangement = check_payload(payload, mine, "margin")
    assert payload["rules"]["discard_mode"] == "independent"
    assert payload["value"] == pytest.approx(
        _value_against_random(arrangement, theirs, "margin"), abs=1e-9
    )
    text = ok(_ascii(mine), "--opponent-cards", _ascii(theirs), "--mode", "independent")
    assert "Deal:" not in text  # nothing was dealt
    assert "proven optimal" in text


def test_explicit_cards_mirror_mode():
    payload = ok_json(_ascii(MINE), "--objective", "points")
    arrangement = check_payload(payload, MINE, "points")
    assert payload["opponent_holding"] == payload["holding"]
    assert payload["value"] == pytest.approx(
        _value_against_random(arrangement, MINE, "points"), abs=1e-9
    )


# ======================================================================= bad input


def _mixture_file(tmp_path, name: str, content) -> str:
    path = tmp_path / name
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        write_mixture(content, path)
    return str(path)


def _bad_cases(tmp_path):
    mine = _ascii(MINE)
    codes = mine.split()
    other_cards = deal(SEED + 1).holdings[0]
    outside = next(c for c in range(32) if c not in MINE)
    wrong_known = _ascii_arrangement(_random_arrangement(other_cards, 1))
    seed = ["--seed", str(SEED)]
    return {
        "24 cards": ([" ".join(codes[:24])], "expected 25 cards, got 24"),
        "duplicate card": ([" ".join([*codes[:24], codes[0]])], "duplicate"),
        "known not matching": ([*seed, "--against", "known", "--known", wrong_known], "holding"),
        "known without --known": ([*seed, "--against", "known"], "--known"),
        "fix not in holding": (
            [*seed, "--fix", f"5={' '.join([*codes[:4], _ascii([outside])])}"],
            "not in the holding",
        ),
        "fix position 6": ([*seed, "--fix", f"6={' '.join(codes[:5])}"], "position 6"),
        "fix overlapping": (
            [*seed, "--fix", f"1={' '.join(codes[:5])}", "--fix", f"2={' '.join(codes[4:9])}"],
            "two packets",
        ),
        "fix no equals": ([*seed, "--fix", " ".join(codes[:5])], "POS=CARDS"),
        "malformed mixture": (
            [*seed, "--against", _mixture_file(tmp_path, "bad.json", "{oops")],
            "not valid JSON",
        ),
        "mixture bad card": (
            [
                *seed,
                "--against",
                _mixture_file(
                    tmp_path,
                    "badcard.json",
                    json.dumps(
                        {"strategies": [{"probability": 1, "arrangement": "5s 6s 7s 8s 9s"}]}
                    ),
                ),
            ],
            "strategy 1",
        ),
        "missing mixture": ([*seed, "--against", str(tmp_path / "missing.json")], "no such file"),
        "mixture of other cards": (
            [
                *seed,
                "--against",
                _mixture_file(
                    tmp_path, "other.json", Mixture((_random_arrangement(other_cards, 2),), (1.0,))
                ),
            ],
            "holding",
        ),
        "unknown against": ([*seed, "--against", "smart"], "--against 'smart'"),
        "time limit 0": ([*seed, "--time-limit", "0"], "--time-limit"),
        "top 0": ([*seed, "--top", "0"], "--top"),
        "samples 0": ([*seed, "--samples", "0"], "--samples"),
        "independent without opponent cards": (
            [mine, "--mode", "independent"],
            "--opponent-cards are needed in independent mode",
        ),
        "mirror with other opponent cards": (
            [mine, "--opponent-cards", _ascii(other_cards)],
            "mirror",
        ),
    }


BAD_CASE_NAMES = [
    "24 cards",
    "duplicate card",
    "known not matching",
    "known without --known",
    "fix not in holding",
    "fix position 6",
    "fix overlapping",
    "fix no equals",
    "malformed mixture",
    "mixture bad card",
    "missing mixture",
    "mixture of other cards",
    "unknown against",
    "time limit 0",
    "top 0",
    "samples 0",
    "independent without opponent cards",
    "mirror with other opponent cards",
]


@pytest.fixture(scope="module")
def bad_runs(tmp_path_factory):
    """Every bad-input case, run a few at a time (they only start up and fail)."""
    cases = _bad_cases(tmp_path_factory.mktemp("bad"))
    assert set(cases) == set(BAD_CASE_NAMES)
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = pool.map(lambda args: run(*args), [a for a, _ in cases.values()])
        runs = dict(zip(cases, results, strict=True))
    return {name: (runs[name], fragment) for name, (_, fragment) in cases.items()}


@pytest.mark.parametrize("case", BAD_CASE_NAMES)
def test_bad_input_exits_2_with_one_line(bad_runs, case):
    proc, fragment = bad_runs[case]
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert proc.stderr.endswith("\n")
    assert fragment in lines[0], lines[0]
    assert lines[0].startswith("quintet")
