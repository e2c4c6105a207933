"""Input limits, honest numbers, the default engine, messages and silent options, library inputs.

Every refusal is one line on stderr and exit status 2 (command line), or a
specific :class:`~solver.errors.QuintetError` (library).
"""

from __future__ import annotations

import json
import math
import os

import numpy as np
import pytest

from solver.app.limits import MAX_DEALS, MAX_JOBS, MAX_SAMPLES, MAX_SHOW, MAX_TOP, MAX_WORKERS
from solver.equilibria.equilibrium import DealDoubleOracle, solve
from solver.errors import ArrangementError, CardError, MixtureError, QuintetError
from solver.game.arrangement import Arrangement
from solver.game.cards import card_ids, format_cards, parse_cards
from solver.game.deal import deal
from solver.models.mixture import MAX_MIXTURE_BYTES, read_mixture
from solver.models.opponents import Objective, Opponent
from solver.models.packets import check_holding
from solver.play.tournament import TournamentConfig
from solver.response.best_response import best_response
from solver.response.results import BestResponse, SolveStatus
from solver.util.json_text import to_json
from tests.support.cli import one_line_error, quintet

HOLDING = list(range(25))

# ============================================================ mixture files


def _mixture_file(tmp_path, text: str):
    path = tmp_path / "m.json"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"strategies": [{"probability": ' + "9" * 5000 + ', "arrangement": ""}]}', "digits"),
        ('{"strategies": [{"probability": 1' + "0" * 400 + ', "arrangement": ""}]}', "at most 1"),
        ('{"strategies": [{"probability": Infinity, "arrangement": ""}]}', "finite"),
    ],
    ids=["deep nesting", "enormous integer", "huge probability", "Infinity"],
)
def test_hostile_mixture_json_is_refused(tmp_path, text, fragment):
    path = _mixture_file(tmp_path, text)
    with pytest.raises(MixtureError, match=fragment) as info:
        read_mixture(path)
    assert str(path) in str(info.value)


def test_a_mixture_file_over_the_size_limit_is_refused_unread(tmp_path):
    path = tmp_path / "big.json"
    with path.open("wb") as handle:
        handle.truncate(MAX_MIXTURE_BYTES + 1)  # sparse: no memory, no disk
    with pytest.raises(MixtureError, match="larger than the limit"):
        read_mixture(path)


def test_non_regular_mixture_files_are_refused(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)  # opening it would block forever
    for path in ("/dev/zero", fifo):
        with pytest.raises(MixtureError, match="not a regular file"):
            read_mixture(path)
    with pytest.raises(MixtureError, match="is a directory"):
        read_mixture(tmp_path)


def test_cli_refuses_dev_zero_as_a_mixture():
    one_line_error(quintet("suggest", "--seed", "1", "--against", "/dev/zero"), "/dev/zero")


def test_a_mixture_for_other_cards_names_the_file(tmp_path):
    holdings = deal(1).holdings
    arrangement = Arrangement.from_array(np.array(sorted(holdings[1])).reshape(5, 5))
    text = json.dumps(
        {"strategies": [{"probability": 1, "arrangement": arrangement.format(ascii=True)}]}
    )
    path = _mixture_file(tmp_path, text)
    one_line_error(quintet("suggest", "--seed", "2", "--against", str(path)), f"{path}:")


def test_mixture_errors_name_the_file_and_the_strategy(tmp_path):
    good = " | ".join(" ".join(format_cards(range(5 * p, 5 * p + 5), ascii=True).split())
                      for p in range(5))  # fmt: skip
    text = json.dumps(
        {"strategies": [{"probability": 0.5, "arrangement": good},
                        {"probability": 0.5, "arrangement": good.replace("7c", "Xc")}]}
    )  # fmt: skip
    path = _mixture_file(tmp_path, text)
    one_line_error(quintet("suggest", "--against", str(path)), f"{path}: strategy 2")


# ======================================================== option bounds

BOUNDS = {
    "--top": (["suggest", "--seed", "1"], MAX_TOP),
    "--samples": (["suggest", "--seed", "1", "--objective", "win"], MAX_SAMPLES),
    "--workers": (["suggest", "--seed", "1", "--engine", "cpsat"], MAX_WORKERS),
    "--show": (["equilibrium", "--seed", "1"], MAX_SHOW),
    "--deals": (["tournament"], MAX_DEALS),
    "--jobs": (["tournament"], MAX_JOBS),
}


@pytest.mark.parametrize("option", list(BOUNDS))
def test_options_have_upper_bounds(option):
    command, limit = BOUNDS[option]
    one_line_error(quintet(*command, option, str(limit + 1)), f"must be at most {limit}")
    one_line_error(quintet(*command, option, "9" * 5000), "is not an integer")


def test_seed_has_an_upper_bound():
    one_line_error(quintet("tournament", "--seed", str(2**63)), "must be at most")


# ================================================ strict JSON, probabilities


def test_json_has_no_infinity_or_nan():
    text = to_json({"bound": math.inf, "low": -math.inf, "ci": [math.nan, 1.0]})
    assert json.loads(text) == {"bound": None, "low": None, "ci": [None, 1.0]}
    assert "Infinity" not in text and "NaN" not in text


def _response(objective: Objective, value: float, bound: float) -> BestResponse:
    arrangement = Arrangement.from_array(np.arange(25).reshape(5, 5))
    return BestResponse(arrangement, (0,) * 5, objective, value, bound,
                        SolveStatus.FEASIBLE, 0.1, "cpsat", ())  # fmt: skip


def test_win_bounds_are_probabilities():
    assert _response(Objective.WIN_PROBABILITY, 0.75, math.inf).bound == 1.0
    assert _response(Objective.GAME_RESULT, 0.75, 3.5).bound == 1.0
    assert _response(Objective.WIN_PROBABILITY, 0.75, 0.5).bound == 0.75  # never below the value
    assert _response(Objective.MARGIN, 3.0, 40.0).bound == 40.0  # points are not clipped


def test_suggest_json_is_strict_json():
    process = quintet("suggest", "--seed", "3", "--objective", "win", "--engine", "cpsat",
                      "--time-limit", "0.01", "--samples", "20", "--json")  # fmt: skip
    assert process.returncode == 0, process.stderr
    payload = json.loads(process.stdout, parse_constant=lambda name: pytest.fail(name))
    assert 0 <= payload["value"] <= payload["bound"] <= 1


# ================================================ the default engine


def test_auto_engine_answers_with_the_frontier_and_says_so():
    process = quintet("suggest", "--seed", "1", "--json")
    assert process.returncode == 0, process.stderr
    assert json.loads(process.stdout)["engine"] == "frontier"
    text = quintet("suggest", "--seed", "1").stdout
    assert "engine frontier" in text


def test_auto_engine_finds_runners_up_on_the_frontier():
    """The best is the frontier's; each runner-up the frontier's or CP-SAT's below it."""
    process = quintet("suggest", "--seed", "1", "--top", "2", "--json")
    assert process.returncode == 0, process.stderr
    document = json.loads(process.stdout)
    assert document["engine"] == "frontier" and document["status"] == "optimal"
    [second] = document["runners_up"]
    assert second["engine"] in ("frontier", "cpsat") and second["status"] == "optimal"


# ================================================ messages, silent options


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("10", "the suit is missing"),
        ("As 10 Kd", "the suit is missing"),
        ("Aс", "Cyrillic с"),  # Cyrillic es for Latin c
        ("Kk", "Latin k"),
        ("10n", "Latin n"),
    ],
)
def test_card_messages(text, fragment):
    with pytest.raises(CardError, match=fragment):
        parse_cards(text)


CONFLICTS = {
    "known with greedy": (["suggest", "--against", "greedy", "--known", "x"], "--known"),
    "payoff without equilibrium": (["suggest", "--payoff", "win"], "--payoff"),
    "objective with equilibrium": (
        ["suggest", "--against", "equilibrium", "--objective", "win"],
        "--objective",
    ),
    "resume without csv": (["tournament", "--resume"], "--resume needs --csv"),
    "scheduler without dask": (["tournament", "--scheduler", "tcp://127.0.0.1:9"], "--scheduler"),
    "play with json": (["play", "--json"], "--json"),
}


@pytest.mark.parametrize("command, fragment", list(CONFLICTS.values()), ids=list(CONFLICTS))
def test_conflicting_options_are_errors(command, fragment):
    one_line_error(quintet(*command, "--seed", "1"), fragment)


WARNINGS = {
    "lang with json": (["deal", "--seed", "1", "--json", "--lang", "ru"], "--lang"),
    "frontier ignores time limit": (
        ["suggest", "--seed", "1", "--time-limit", "5"],
        "--time-limit",
    ),
    "samples without win": (["suggest", "--seed", "1", "--samples", "5"], "--samples"),
    "jobs above the cores": (
        ["tournament", "--players", "greedy,random", "--deals", "1", "--jobs", str(MAX_JOBS)],
        "--jobs",
    ),
    "eq time limit without eq players": (
        ["tournament", "--players", "greedy,random", "--deals", "1", "--eq-time-limit", "1"],
        "--eq-time-limit",
    ),
}


@pytest.mark.parametrize("command, fragment", list(WARNINGS.values()), ids=list(WARNINGS))
def test_ignored_options_are_warned_about(command, fragment):
    process = quintet(*command)
    assert process.returncode == 0, process.stderr
    # "предупреждение" with --lang ru (the warning in the language asked for).
    words = ("warning", "предупреждение")
    warnings = [line for line in process.stderr.splitlines() if any(w in line for w in words)]
    assert len(warnings) == 1 and fragment in warnings[0], process.stderr


# ================================================ library inputs

BAD_IDS = {
    "float": 24.0,
    "bool": True,
    "inf": math.inf,
    "nan": math.nan,
    "numpy float": np.float64(24),
    "text": "24",
    "negative": -1,
    "too large": 32,
}


@pytest.mark.parametrize("bad", list(BAD_IDS.values()), ids=list(BAD_IDS))
def test_card_ids_are_integers_in_range_everywhere(bad):
    cards = [*range(24), bad]
    for entry, error in [
        (card_ids, CardError),
        (check_holding, CardError),
        (format_cards, CardError),
        (parse_cards, CardError),
        (lambda c: Opponent.random(c), CardError),
        (
            lambda c: Arrangement(
                (tuple(c[:5]), tuple(c[5:10]), tuple(c[10:15]), tuple(c[15:20]), tuple(c[20:]))
            ),
            ArrangementError,
        ),
        (lambda c: DealDoubleOracle(c, c), CardError),
        (lambda c: best_response(c, Opponent.random(HOLDING), Objective.MARGIN), CardError),
    ]:
        with pytest.raises(error):
            entry(cards)


def test_numpy_integer_card_ids_are_accepted():
    assert check_holding(np.arange(25, dtype=np.int16)) == tuple(range(25))


@pytest.mark.parametrize("limit", [math.nan, -1.0, 0, math.inf, True, "5"])
def test_time_limits_are_checked_everywhere(limit):
    with pytest.raises(QuintetError, match="time_limit"):
        best_response(HOLDING, Opponent.random(HOLDING), Objective.MARGIN, time_limit=limit)
    with pytest.raises(QuintetError, match="time_limit"):
        solve(HOLDING, HOLDING, time_limit=limit)
    with pytest.raises(QuintetError, match="equilibrium_time_limit"):
        TournamentConfig(("greedy", "random"), 1, 0, equilibrium_time_limit=limit)


def test_nan_tolerance_is_refused():
    with pytest.raises(QuintetError, match="tolerance"):
        solve(HOLDING, HOLDING, tolerance=math.nan)
