"""Grades: :mod:`solver.analysis` and ``quintet grade``.

Reduced games (two or three positions) are checked against brute force over
every arrangement (``brute_force``): the game value by linear programming on
the full matrix, each arrangement's equilibrium loss and exploitability,
position-by-position dominance, and the best of every small change by a
slow loop over the moves.  Full-size deals check what does not need the
whole game: support arrangements lose nothing, the punishing arrangement
scores the exploitability, the suggested change regrades to its loss.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from itertools import combinations

import numpy as np
import pytest

from solver.analysis import grade as grade_module
from solver.analysis.changes import ChangeKind, moves_for
from solver.analysis.dominance import dominating_arrangement
from solver.analysis.grade import (
    VERDICT_THRESHOLDS,
    Verdict,
    equilibrium_grade,
    grade,
    verdict_for,
)
from solver.book.source import DEFAULT_SOURCE
from solver.equilibria.equilibrium import Payoff, solve
from solver.errors import ArrangementError, SolverError
from solver.game.arrangement import Arrangement, score
from solver.game.deal import deal
from solver.game.rules import Rules
from solver.lp import solve_matrix_game
from solver.models.heuristics import greedy_arrangement, random_arrangement
from tests.support import brute_force as bf

TWO = Rules(position_points=(6, 7), discard_mode="independent")
THREE = Rules(position_points=(5, 6, 7))
FULL = Rules()
TOL = 1e-7


# ======================================================================= brute force


def arrangement_of(enum: bf.Enumeration, index: int) -> Arrangement:
    return Arrangement.from_array(enum.arrangements[index])


def margins(mine: np.ndarray, theirs: np.ndarray, rules: Rules) -> np.ndarray:
    """(U, V) margin of every profile of ``mine`` against every one of ``theirs``."""
    return np.stack(
        [
            bf.values_vs_profiles(mine, theirs[j : j + 1], [1.0], rules, "margin")
            for j in range(len(theirs))
        ],
        axis=1,
    )


def mixture_value(profile: np.ndarray, mixture, rules: Rules) -> float:
    theirs = np.array([a.strengths(rules) for a in mixture.arrangements])
    return float(
        bf.values_vs_profiles(profile[None], theirs, mixture.probabilities, rules, "margin")[0]
    )


def brute_loss(value: float, achieved: float) -> float:
    loss = value - achieved
    return 0.0 if loss <= 1e-9 else loss


@pytest.mark.parametrize("seed", [1, 5])
def test_two_positions_agree_with_brute_force_in_both_seats(seed):
    mine, theirs = deal(seed, TWO).holdings
    enums = bf.enumerate_arrangements(mine, TWO), bf.enumerate_arrangements(theirs, TWO)
    matrix = margins(enums[0].profiles, enums[1].profiles, TWO)
    value = solve_matrix_game(matrix).value
    for seat, (own, other) in enumerate([(mine, theirs), (theirs, mine)]):
        enum, opposing = enums[seat], enums[1 - seat]
        seat_value = value if seat == 0 else -value
        equilibrium = DEFAULT_SOURCE(own, other, TWO, Payoff.MARGIN)
        assert equilibrium.value == pytest.approx(seat_value, abs=TOL)
        # The opponent's strategy is optimal over ALL arrangements: the best loses nothing.
        theirs_profiles = np.array([a.strengths(TWO) for a in equilibrium.column.arrangements])
        every = bf.values_vs_profiles(
            enum.profiles, theirs_profiles, equilibrium.column.probabilities, TWO, "margin"
        )
        assert every.max() == pytest.approx(seat_value, abs=TOL)
        for index in range(0, enum.arrangements.shape[0], 23):
            arrangement = arrangement_of(enum, index)
            profile = enum.profiles[enum.inverse[index]]
            g = grade(arrangement, other, TWO)
            assert g.equilibrium_loss == pytest.approx(
                brute_loss(seat_value, mixture_value(profile, equilibrium.column, TWO)), abs=TOL
            )
            punish = bf.values_vs_profiles(opposing.profiles, profile[None], [1.0], TWO, "margin")
            assert g.exploitability == pytest.approx(punish.max(), abs=TOL)
            assert score(g.punishing, arrangement, TWO).margin == g.exploitability
            assert g.verdict is verdict_for(g.equilibrium_loss)


def test_three_positions_agree_with_brute_force():
    mine = deal(2, THREE).holdings[0]  # mirror: the value is 0
    enum = bf.enumerate_arrangements(mine, THREE)
    equilibrium = DEFAULT_SOURCE(mine, mine, THREE, Payoff.MARGIN)
    theirs_profiles = np.array([a.strengths(THREE) for a in equilibrium.column.arrangements])
    every = bf.values_vs_profiles(
        enum.profiles, theirs_profiles, equilibrium.column.probabilities, THREE, "margin"
    )
    assert every.max() == pytest.approx(0.0, abs=TOL)
    rng = np.random.default_rng(3)
    for index in rng.choice(enum.arrangements.shape[0], 6, replace=False):
        arrangement = arrangement_of(enum, int(index))
        profile = enum.profiles[enum.inverse[index]]
        g = grade(arrangement, mine, THREE)
        assert g.equilibrium_loss == pytest.approx(
            brute_loss(0.0, every[enum.inverse[index]]), abs=TOL
        )
        punish = bf.values_vs_profiles(enum.profiles, profile[None], [1.0], THREE, "margin")
        assert g.exploitability == pytest.approx(punish.max(), abs=TOL)


def test_dominance_agrees_with_brute_force_on_every_two_packet_arrangement():
    mine = deal(4, TWO).holdings[0]
    enum = bf.enumerate_arrangements(mine, TWO)
    p = enum.profiles
    ge = (p[None, :, :] >= p[:, None, :]).all(axis=2) & (p[None, :, :] > p[:, None, :]).any(axis=2)
    dominated = ge.any(axis=1)  # by profile
    assert dominated.any() and not dominated.all()
    for index in range(enum.arrangements.shape[0]):
        arrangement = arrangement_of(enum, index)
        found = dominating_arrangement(arrangement, TWO)
        assert (found is not None) == dominated[enum.inverse[index]]
        if found is not None:
            assert found.cards == arrangement.cards
            theirs, ours = found.strengths(TWO), arrangement.strengths(TWO)
            assert (theirs >= ours).all() and (theirs > ours).any()


def test_a_random_full_arrangement_is_dominated_and_the_one_shown_dominates():
    holding = deal(6).holdings[0]
    for seed in range(3):
        arrangement = random_arrangement(holding, np.random.default_rng(seed))
        found = dominating_arrangement(arrangement, FULL)
        assert found is not None
        assert found.cards == arrangement.cards
        ours, theirs = arrangement.strengths(), found.strengths()
        assert (theirs >= ours).all() and (theirs > ours).any()


def slow_best_move_value(arrangement: Arrangement, mixture, rules: Rules) -> float:
    """Best expected margin over every move, by plain loops and :func:`score`."""
    packets = [list(p) for p in arrangement.packets]
    best = -np.inf
    for i, j in combinations(range(len(packets)), 2):
        variants = [[*packets[:i], packets[j], *packets[i + 1 : j], packets[i], *packets[j + 1 :]]]
        for size in (1, 2):
            for give in combinations(packets[i], size):
                for take in combinations(packets[j], size):
                    changed = [list(p) for p in packets]
                    changed[i] = [c for c in packets[i] if c not in give] + list(take)
                    changed[j] = [c for c in packets[j] if c not in take] + list(give)
                    variants.append(changed)
        for variant in variants:
            candidate = Arrangement(tuple(tuple(p) for p in variant))
            value = sum(
                q * score(candidate, a, rules).margin
                for a, q in zip(mixture.arrangements, mixture.probabilities, strict=True)
            )
            best = max(best, value)
    return best


def test_the_suggested_change_is_the_best_move_on_a_reduced_game():
    mine, theirs = deal(7, TWO).holdings
    checked = 0
    for seed in range(6):
        arrangement = random_arrangement(mine, np.random.default_rng(seed), TWO)
        g = grade(arrangement, theirs, TWO)
        best = slow_best_move_value(arrangement, g.equilibrium.column, TWO)
        if g.change is None:
            assert g.equilibrium_loss == 0.0 or best <= g.value + 1e-9
            continue
        checked += 1
        assert g.change.value == pytest.approx(best, abs=TOL)
        assert g.change.candidates == 126
        regraded = grade(g.change.arrangement, theirs, TWO)
        assert regraded.equilibrium_loss == pytest.approx(g.change.equilibrium_loss, abs=TOL)
    assert checked


def test_moves_are_counted_as_documented():
    moves = moves_for(5)
    assert moves.slots.shape == (1260, 25)
    assert np.bincount(moves.kind).tolist() == [10, 250, 1000]
    # Every move is a permutation of the slots.
    assert (np.sort(moves.slots, axis=1) == np.arange(25)).all()


# ======================================================================= full deals


@pytest.fixture(scope="module")
def deal3():
    holding = deal(3).holdings[0]
    return holding, DEFAULT_SOURCE(holding, holding, FULL, Payoff.MARGIN)


def test_support_arrangements_grade_zero(deal3):
    holding, equilibrium = deal3
    for arrangement in equilibrium.row.arrangements[:4]:
        g = grade(arrangement, holding)
        assert g.equilibrium_loss == 0.0
        assert g.verdict is Verdict.BEST
        assert g.change is None
        assert g.certificate_gap <= 1e-9


def test_greedy_full_deal_punishment_and_change(deal3):
    holding, _ = deal3
    arrangement = greedy_arrangement(holding)
    g = grade(arrangement, holding)
    assert g.equilibrium_loss > 0.25
    assert score(g.punishing, arrangement).margin == g.exploitability
    assert g.against_greedy == 0.0  # mirror: greedy against itself
    assert g.best_against_greedy >= g.against_greedy and g.greedy_gap >= 0
    assert g.best_against_random >= g.against_random
    assert g.change is not None and g.change.candidates == 1260
    regraded = grade(g.change.arrangement, holding)
    assert regraded.equilibrium_loss == pytest.approx(g.change.equilibrium_loss, abs=TOL)
    assert g.change.equilibrium_loss < g.equilibrium_loss
    # The move is what it says: only the named packets change.
    before, after = arrangement.packets, g.change.arrangement.packets
    i, j = g.change.positions
    untouched = [k for k in range(5) if k not in (i - 1, j - 1)]
    assert all(before[k] == after[k] for k in untouched)
    if g.change.kind is ChangeKind.SWAP_PACKETS:
        assert (before[i - 1], before[j - 1]) == (after[j - 1], after[i - 1])
    else:
        assert set(after[i - 1]) == set(before[i - 1]) - set(g.change.given) | set(g.change.taken)


def test_win_payoff_loss_on_request():
    mine, theirs = deal(3, TWO).holdings
    win = solve(mine, theirs, TWO, Payoff.GAME_RESULT)
    g = grade(win.row.arrangements[0], theirs, TWO, "both")
    assert g.win_loss == 0.0 and g.win_equilibrium is not None
    assert grade(win.row.arrangements[0], theirs, TWO).win_loss is None


def test_given_equilibrium_is_used_and_checked():
    mine, theirs = deal(2, TWO).holdings
    equilibrium = solve(mine, theirs, TWO)
    arrangement = greedy_arrangement(mine, TWO)

    def refuse(*_args):
        raise AssertionError("the given equilibrium must be used")

    g = grade(arrangement, theirs, TWO, equilibrium=equilibrium, solver=refuse)
    assert g.equilibrium is equilibrium
    with pytest.raises(SolverError, match="equilibrium is not of this deal"):
        grade(arrangement, theirs, TWO, equilibrium=equilibrium.transposed())


def test_equilibrium_grade_is_the_grade_without_the_best_responses(deal3, monkeypatch):
    """What ``analyze`` uses: the same loss, verdict and change, and no strategy frontier."""
    holding, _ = deal3
    cases = [(greedy_arrangement(holding), holding, FULL)]
    mine, theirs = deal(7, TWO).holdings
    rng = np.random.default_rng(3)
    cases += [(random_arrangement(mine, rng, TWO), theirs, TWO) for _ in range(4)]
    whole = [grade(a, opponent, rules) for a, opponent, rules in cases]

    def no_frontier(*_args, **_kwargs):
        raise AssertionError("equilibrium_grade needs no best response")

    monkeypatch.setattr(grade_module, "frontier_best_response", no_frontier)
    for (arrangement, opponent, rules), g in zip(cases, whole, strict=True):
        core = equilibrium_grade(arrangement, opponent, rules)
        assert (core.value, core.equilibrium_loss, core.verdict) == (
            g.value,
            g.equilibrium_loss,
            g.verdict,
        )
        assert core.change == g.change and core.certificate_gap == g.certificate_gap
    with pytest.raises(ArrangementError, match="not in the holding"):
        equilibrium_grade(cases[1][0], theirs, TWO, holding=theirs)


def test_transposed_result_is_the_other_seat():
    mine, theirs = deal(2, TWO).holdings
    direct = solve(theirs, mine, TWO)
    turned = DEFAULT_SOURCE(mine, theirs, TWO, Payoff.MARGIN).transposed()
    assert turned.value == pytest.approx(direct.value, abs=TOL)
    assert turned.row.cards == direct.row.cards


def test_errors_name_the_cards_and_the_argument():
    holding = deal(3).holdings[0]
    arrangement = greedy_arrangement(holding)
    other = deal(4).holdings[0]
    with pytest.raises(
        ArrangementError, match=r"the arrangement uses .* not in the holding; it leaves out"
    ):
        grade(arrangement, holding, holding=other)
    with pytest.raises(SolverError, match="payoff 'points'"):
        grade(arrangement, holding, payoff="points")
    with pytest.raises(ArrangementError, match="the rules need 2"):
        grade(arrangement, holding, TWO)


def test_verdict_thresholds_are_ordered():
    limits = [limit for limit, _ in VERDICT_THRESHOLDS]
    assert limits == sorted(limits)
    assert verdict_for(1e-6) is Verdict.BEST and verdict_for(2e-6) is Verdict.GOOD
    assert verdict_for(2.0) is Verdict.BLUNDER and verdict_for(1.999) is Verdict.MISTAKE


# ======================================================================= CLI


GREEDY3 = greedy_arrangement(deal(3).holdings[0]).format(ascii=True)


def run(*args: str):
    return subprocess.run(
        [sys.executable, "-m", "solver.cli", "grade", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=dict(os.environ, PYTHONIOENCODING="utf-8"),
        timeout=120,
    )


def test_cli_text_and_json_agree_with_the_library():
    text = run(GREEDY3, "--seed", "3")
    assert text.returncode == 0, text.stderr
    g = grade(Arrangement.parse(GREEDY3), deal(3).holdings[1])
    assert text.stdout.startswith("Deal: seed 3, mirror mode\n")
    assert (
        f"verdict: {g.verdict.value}; equilibrium loss {g.equilibrium_loss:.3f} points"
        in text.stdout
    )
    assert f"exploitability: {g.exploitability:.4g} points; punished by: " in text.stdout
    assert "suggested change: " in text.stdout and "the equilibrium plays:" in text.stdout
    payload = json.loads(run(GREEDY3, "--seed", "3", "--json").stdout)
    assert payload["equilibrium_loss"] == pytest.approx(g.equilibrium_loss, abs=TOL)
    assert payload["exploitability"] == g.exploitability
    assert payload["verdict"] == g.verdict.value
    assert payload["change"]["equilibrium_loss"] == pytest.approx(g.change.equilibrium_loss)
    assert payload["win_loss"] is None and len(payload["equilibrium"]) == 3


def test_cli_without_cards_uses_the_arrangements_cards_and_russian():
    proc = run(GREEDY3, "--lang", "ru", "--payoff", "win")
    assert proc.returncode == 0, proc.stderr
    assert "оценка: ошибка; потеря против равновесия" in proc.stdout
    assert "потеря вероятности выигрыша: " in proc.stdout
    assert "Сдача" not in proc.stdout  # nothing was dealt


@pytest.mark.parametrize(
    "args, message",
    [
        (["--seed", "4"], "the arrangement uses "),
        (
            [" ".join([*GREEDY3.replace("|", " ").split()[:-1], "As"])],
            "uses K♠, not in the holding; it leaves out A♠",
        ),
        (["--opponent-cards", "As Ks"], "expected 25 cards"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(args, message):
    proc = run(GREEDY3, *args)
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], proc.stderr


def test_cli_malformed_arrangement():
    proc = run("As Ks Qs | 7c")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert "expected 5 packets" in proc.stderr
