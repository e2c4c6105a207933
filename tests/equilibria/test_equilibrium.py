"""Correctness of the equilibrium solver.

* Reduced games of 10 cards into 2 packets: every ordered arrangement of
  both players (252 each) is enumerated (``brute_force``), the FULL payoff matrix is
  built from :func:`solver.game.arrangement.points_against` on the strength
  profiles and solved directly; :func:`solver.equilibria.equilibrium.solve` must give
  the same value, and its strategies must guarantee their bounds against
  every arrangement.  Reduced games of 15 cards into 3 packets are checked
  the same way on the brute-force frontier (below).
* Mirror games have value 0 (margin) and 1/2 (win), full deals too.
* On full deals the returned mixtures are re-checked by an independent best
  response (CP-SAT), and by the exact best response over the frontier.
* The double-oracle iterations: monotone bounds, honest gaps, time limits
  and errors.
"""

from __future__ import annotations

from itertools import pairwise, permutations

import numpy as np
import pytest

from solver.equilibria import double_oracle
from solver.equilibria.equilibrium import DealDoubleOracle, solve
from solver.equilibria.frontier_game import FrontierGame
from solver.errors import SolverError
from solver.game.arrangement import points_against
from solver.game.deal import deal
from solver.game.rules import Rules
from solver.lp import solve_matrix_game
from solver.models.opponents import Objective, Opponent
from solver.response.best_response import SolveStatus, best_response
from solver.response.frontier_response import frontier_best_response
from tests.support import brute_force as bf

TWO = (6, 7)
THREE = (5, 6, 7)
VALUE_TOL = 1e-7
CPSAT_TOL = 1e-4  # CP-SAT rounds mixture probabilities to 1e-6 weights
MIRROR = Rules()
INDEPENDENT = Rules(discard_mode="independent")


# ======================================================================= brute force


def all_profiles(holding, rules: Rules) -> np.ndarray:
    """The strength profile (position order) of every ordered arrangement of the holding."""
    enumeration = bf.enumerate_arrangements(holding, rules)
    return enumeration.profiles[enumeration.inverse]


def payoff_matrix(mine: np.ndarray, theirs: np.ndarray, rules: Rules, payoff: str) -> np.ndarray:
    """Row player's payoff of every profile in ``mine`` against every one in ``theirs``."""
    points_mine, points_theirs = points_against(mine[:, None, :], theirs[None, :, :], rules)
    margin = (points_mine - points_theirs).astype(np.float64)
    if payoff == "margin":
        return margin
    return (margin > 0) + 0.5 * (margin == 0)


def mixture_profiles(mixture, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    profiles = np.array([a.strengths(rules) for a in mixture.arrangements], dtype=np.int64)
    return profiles, np.asarray(mixture.probabilities, dtype=np.float64)


def check_mixtures(result, first, second, rules: Rules) -> None:
    """The strategies use exactly the right cards, and are distributions."""
    for mixture, holding in ((result.row, first), (result.column, second)):
        assert len(mixture.arrangements) == len(mixture.probabilities) >= 1
        probabilities = np.asarray(mixture.probabilities)
        assert (probabilities >= 0).all()
        assert probabilities.sum() == pytest.approx(1.0, abs=1e-9)
        for arrangement in mixture.arrangements:
            assert arrangement.cards == tuple(sorted(holding))
            arrangement.check(holding, rules)


def check_against_everything(result, mine_all, theirs_all, rules: Rules, payoff: str) -> None:
    """Row guarantees ``lower`` against every arrangement; column concedes at most ``upper``."""
    row_profiles, row_probabilities = mixture_profiles(result.row, rules)
    column_profiles, column_probabilities = mixture_profiles(result.column, rules)
    row_worst = (row_probabilities @ payoff_matrix(row_profiles, theirs_all, rules, payoff)).min()
    column_best = (
        payoff_matrix(mine_all, column_profiles, rules, payoff) @ column_probabilities
    ).max()
    assert row_worst >= result.lower - 1e-9
    assert column_best <= result.upper + 1e-9
    assert result.lower - 1e-9 <= result.value <= result.upper + 1e-9


# ======================================================================= holdings


def _random_cards(rng: np.random.Generator, n: int, avoid=()) -> tuple[int, ...]:
    pool = np.array([c for c in range(32) if c not in set(avoid)])
    return tuple(sorted(int(c) for c in rng.choice(pool, n, replace=False)))


def _rich_cards(rng: np.random.Generator, n: int) -> tuple[int, ...]:
    """Many cards of one suit and a four of a kind: strong, varied packets."""
    suit = int(rng.integers(4))
    suited = [r * 4 + suit for r in rng.choice(8, 6, replace=False)]
    rank = int(rng.choice([r for r in range(8) if r * 4 + suit not in suited] or [0]))
    quad = [rank * 4 + s for s in range(4) if rank * 4 + s not in suited]
    chosen = list(dict.fromkeys(suited + quad))[:n]
    rest = [c for c in range(32) if c not in chosen]
    chosen += [int(c) for c in rng.choice(rest, n - len(chosen), replace=False)]
    return tuple(sorted(chosen))


def reduced_pairs(seed: int, count: int, n: int = 10) -> list[tuple[tuple[int, ...], ...]]:
    """(first, second) holdings: random, rich, and one rich against one random."""
    rng = np.random.default_rng(seed)
    pairs = []
    for k in range(count):
        first = _rich_cards(rng, n) if k % 3 else _random_cards(rng, n)
        second = _rich_cards(rng, n) if k % 3 == 2 else _random_cards(rng, n)
        pairs.append((first, second))
    return pairs


# ======================================================================= 2 packets: full matrix


@pytest.mark.parametrize("payoff", ["margin", "win"])
def test_two_packets_independent_matches_full_matrix(payoff):
    rules = Rules(position_points=TWO, discard_mode="independent")
    for first, second in reduced_pairs(seed=1 if payoff == "margin" else 2, count=8):
        mine_all, theirs_all = all_profiles(first, rules), all_profiles(second, rules)
        matrix = payoff_matrix(mine_all, theirs_all, rules, payoff)
        assert matrix.shape == (252, 252)
        expected = solve_matrix_game(matrix)
        assert expected.gap <= 1e-9
        result = solve(first, second, rules, payoff=payoff)
        assert result.value == pytest.approx(expected.value, abs=VALUE_TOL), (first, second)
        assert result.lower == pytest.approx(expected.value, abs=VALUE_TOL)
        assert result.upper == pytest.approx(expected.value, abs=VALUE_TOL)
        assert result.converged and result.gap <= 1e-9
        check_mixtures(result, first, second, rules)
        check_against_everything(result, mine_all, theirs_all, rules, payoff)


@pytest.mark.parametrize("payoff", ["margin", "win"])
def test_two_packets_mirror_matches_full_matrix(payoff):
    rules = Rules(position_points=TWO)
    rng = np.random.default_rng(3)
    for k in range(5):
        holding = _rich_cards(rng, 10) if k % 2 else _random_cards(rng, 10)
        everything = all_profiles(holding, rules)
        expected = solve_matrix_game(payoff_matrix(everything, everything, rules, payoff))
        symmetric_value = 0.0 if payoff == "margin" else 0.5
        assert expected.value == pytest.approx(symmetric_value, abs=VALUE_TOL)
        result = solve(holding, holding, rules, payoff=payoff)
        assert result.value == pytest.approx(expected.value, abs=VALUE_TOL)
        assert result.lower == pytest.approx(symmetric_value, abs=VALUE_TOL)
        assert result.upper == pytest.approx(symmetric_value, abs=VALUE_TOL)
        check_mixtures(result, holding, holding, rules)
        check_against_everything(result, everything, everything, rules, payoff)


@pytest.mark.parametrize("payoff", ["margin", "win"])
def test_two_packets_with_rule_options(payoff):
    for options in ({"ace_low_straight": True}, {"flush_beats_full_house": True}):
        rules = Rules(position_points=TWO, discard_mode="independent", **options)
        for first, second in reduced_pairs(seed=4, count=3):
            mine_all, theirs_all = all_profiles(first, rules), all_profiles(second, rules)
            expected = solve_matrix_game(payoff_matrix(mine_all, theirs_all, rules, payoff))
            result = solve(first, second, rules, payoff=payoff)
            assert result.value == pytest.approx(expected.value, abs=VALUE_TOL)
            check_against_everything(result, mine_all, theirs_all, rules, payoff)


def test_two_packets_with_large_position_points():
    """Any positive integer points are valid rules: (60, 70) is the (6, 7) game times 10.

    Margins then reach +-130, beyond the range of an int8.
    """
    rules = Rules(position_points=(60, 70), discard_mode="independent")
    for first, second in reduced_pairs(seed=5, count=4):
        mine_all, theirs_all = all_profiles(first, rules), all_profiles(second, rules)
        expected = solve_matrix_game(payoff_matrix(mine_all, theirs_all, rules, "margin"))
        small = solve(first, second, Rules(position_points=TWO, discard_mode="independent"))
        assert expected.value == pytest.approx(10 * small.value, abs=1e-6)
        result = solve(first, second, rules, payoff="margin")
        assert result.value == pytest.approx(expected.value, abs=1e-6), (first, second)
        check_against_everything(result, mine_all, theirs_all, rules, "margin")


# ======================================================================= 3 packets


def _brute_frontier_strategies(holding, rules: Rules) -> np.ndarray:
    """Every distinct ordering of every non-dominated sorted profile, by brute force.

    An arrangement whose sorted profile is dominated by a frontier profile is
    beaten position by position by some ordering of that profile, and every
    payoff is monotone in each position's strength; so removing those weakly
    dominated strategies leaves the game value unchanged.
    """
    maximal = bf.brute_frontier(holding, rules)
    orderings = {tuple(p) for row in maximal.tolist() for p in permutations(row)}
    return np.array(sorted(orderings), dtype=np.int64)


@pytest.mark.parametrize("payoff", ["margin", "win"])
def test_three_packets_matches_brute_force_frontier_game(payoff):
    rules = Rules(position_points=THREE, discard_mode="independent")
    for first, second in reduced_pairs(seed=6, count=3, n=15):
        mine, theirs = (_brute_frontier_strategies(h, rules) for h in (first, second))
        expected = solve_matrix_game(payoff_matrix(mine, theirs, rules, payoff))
        result = solve(first, second, rules, payoff=payoff)
        assert result.value == pytest.approx(expected.value, abs=VALUE_TOL), (first, second)
        assert result.gap <= 1e-9
        check_mixtures(result, first, second, rules)
        check_against_everything(result, mine, theirs, rules, payoff)


# ======================================================================= full deals


@pytest.fixture(scope="module")
def solved():
    """Equilibria of a few full deals, computed once."""
    cache = {}

    def get(seed: int, rules: Rules, payoff: str):
        key = (seed, rules, payoff)
        if key not in cache:
            d = deal(seed, rules)
            cache[key] = (d, solve(d.holdings[0], d.holdings[1], rules, payoff=payoff))
        return cache[key]

    return get


@pytest.mark.parametrize(("seed", "payoff"), [(1, "margin"), (1, "win"), (3, "margin")])
def test_full_mirror_deal_values(solved, seed, payoff):
    d, result = solved(seed, MIRROR, payoff)
    assert d.holdings[0] == d.holdings[1]
    symmetric_value = 0.0 if payoff == "margin" else 0.5
    assert result.value == symmetric_value
    assert result.converged
    assert result.gap <= 1e-9
    assert result.lower == pytest.approx(symmetric_value, abs=1e-9)
    assert result.upper == pytest.approx(symmetric_value, abs=1e-9)
    check_mixtures(result, d.holdings[0], d.holdings[1], MIRROR)


def _exact_exploitability(result, d, rules: Rules, payoff: str) -> None:
    """Best responses over the frontier against both mixtures stay within the bounds."""
    objective = Objective.MARGIN if payoff == "margin" else Objective.GAME_RESULT
    row = Opponent.mixture(result.row.arrangements, result.row.probabilities, rules)
    column = Opponent.mixture(result.column.arrangements, result.column.probabilities, rules)
    against_row = frontier_best_response(d.holdings[1], row, objective).value
    against_column = frontier_best_response(d.holdings[0], column, objective).value
    tolerance = CPSAT_TOL  # the models' weights are rounded to 1e-6 too
    if payoff == "margin":
        assert against_row <= -result.lower + tolerance
        assert against_row >= -result.upper - tolerance
    else:
        assert against_row <= 1.0 - result.lower + tolerance
        assert against_row >= 1.0 - result.upper - tolerance
    assert against_column <= result.upper + tolerance
    assert against_column >= result.lower - tolerance


@pytest.mark.parametrize(
    ("seed", "rules", "payoff"),
    [
        (1, MIRROR, "margin"),
        (1, MIRROR, "win"),
        (1, INDEPENDENT, "margin"),
        (2, INDEPENDENT, "win"),
    ],
    ids=["mirror1-margin", "mirror1-win", "independent1-margin", "independent2-win"],
)
def test_full_deal_exploitability_over_frontier(solved, seed, rules, payoff):
    d, result = solved(seed, rules, payoff)
    assert result.converged and result.gap <= 1e-9
    check_mixtures(result, d.holdings[0], d.holdings[1], rules)
    _exact_exploitability(result, d, rules, payoff)


def _cpsat_check(holding, mixture, rules: Rules, objective: Objective, ceiling, floor, limit):
    """CP-SAT's best response to ``mixture`` gains at most ``ceiling``.

    CP-SAT rarely proves optimality against a mixture of many strong
    arrangements quickly, so it gets a time limit: every arrangement it finds
    must respect the ceiling, and when it does prove optimality the value
    must also reach the floor (an equilibrium leaves nothing over).
    """
    opponent = Opponent.mixture(mixture.arrangements, mixture.probabilities, rules)
    response = best_response(holding, opponent, objective, time_limit=limit)
    response.arrangement.check(holding, rules)
    assert response.value <= ceiling + CPSAT_TOL
    assert response.bound >= floor - CPSAT_TOL
    if response.status is SolveStatus.OPTIMAL:
        assert response.value >= floor - CPSAT_TOL
    return response


@pytest.mark.parametrize(
    ("seed", "payoff", "sides"),
    [(1, "margin", ("column",)), (1, "win", ("row", "column")), (2, "win", ("row",))],
    ids=["independent1-margin", "independent1-win", "independent2-win"],
)
def test_full_deal_exploitability_by_cpsat(solved, seed, payoff, sides):
    """Independent check of the returned mixtures by CP-SAT best responses."""
    d, result = solved(seed, INDEPENDENT, payoff)
    objective = Objective.MARGIN if payoff == "margin" else Objective.GAME_RESULT
    if "row" in sides:
        # The row mixture guarantees at least ``lower``: the opponent gains at most -lower.
        ceiling = -result.lower if payoff == "margin" else 1.0 - result.lower
        floor = -result.upper if payoff == "margin" else 1.0 - result.upper
        _cpsat_check(d.holdings[1], result.row, INDEPENDENT, objective, ceiling, floor, 4)
    if "column" in sides:
        # The column mixture concedes at most ``upper``.
        _cpsat_check(
            d.holdings[0], result.column, INDEPENDENT, objective, result.upper, result.lower, 4
        )


def test_full_deal_exploitability_by_cpsat_proven(solved):
    """A case CP-SAT proves optimal quickly: the opponent's best margin is exactly -value."""
    d, result = solved(1, INDEPENDENT, "margin")
    opponent = Opponent.mixture(result.row.arrangements, result.row.probabilities, INDEPENDENT)
    response = best_response(d.holdings[1], opponent, Objective.MARGIN)
    assert response.status is SolveStatus.OPTIMAL
    assert response.value == pytest.approx(-result.value, abs=CPSAT_TOL)
    assert response.value <= -result.lower + CPSAT_TOL


def test_full_mirror_deal_exploitability_by_cpsat(solved):
    """The mirror win equilibrium (a mixture of many arrangements): no arrangement
    CP-SAT finds in 3 s beats the guaranteed 1/2."""
    d, result = solved(1, MIRROR, "win")
    _cpsat_check(
        d.holdings[1], result.row, MIRROR, Objective.GAME_RESULT, 1.0 - result.lower, 0.5, 3
    )


# ======================================================================= double oracle


def check_history(records, tolerance: float) -> None:
    assert records, "no iteration"
    for k, record in enumerate(records, start=1):
        assert record.iteration == k
        assert record.gap == pytest.approx(record.upper - record.lower, abs=1e-12)
        assert record.lower <= record.upper + 1e-9
    for before, after in pairwise(records):
        assert after.lower >= before.lower
        assert after.upper <= before.upper
        assert after.seconds >= before.seconds
    assert records[-1].gap <= tolerance
    for record in records[:-1]:
        assert record.gap > tolerance  # it stops as soon as the gap is small enough


def test_double_oracle_iterations_on_a_full_deal(solved):
    d, result = solved(1, INDEPENDENT, "margin")
    check_history(list(result.history), 1e-9)
    assert result.iterations == len(result.history)
    # The history is the double oracle's; the canonical pair certifies its own bounds, on the
    # same value: each pair's lower bound is below the other's upper bound, to rounding.
    assert result.canonical and result.gap <= 1e-9
    rounding = 1e-12 * max(1.0, abs(result.value))
    assert result.lower <= result.history[-1].upper + rounding
    assert result.upper >= result.history[-1].lower - rounding
    # The generator itself, on the same deal.
    oracle = DealDoubleOracle(d.holdings[0], d.holdings[1], INDEPENDENT, "margin")
    records = list(oracle.iterations(tolerance=1e-9))
    check_history(records, 1e-9)
    final = oracle.result(1e-9)
    assert final.value == pytest.approx(result.value, abs=VALUE_TOL)
    assert final.converged
    # Timings: the frontiers come first, each iteration's parts fit in it.
    assert 0.0 <= final.frontier_seconds <= records[0].seconds <= final.seconds
    for record in records:  # both parts timed, not left at the record's default of 0.0
        assert record.lp_seconds > 0.0 and record.oracle_seconds > 0.0
    assert sum(r.lp_seconds + r.oracle_seconds for r in records) <= records[-1].seconds


@pytest.mark.parametrize("payoff", ["margin", "win"])
def test_the_deal_is_a_payoff_oracle_of_the_generic_double_oracle(payoff):
    """The frontier game solved by the generic algorithm: the same bounds as ``solve``."""
    rules = Rules(position_points=THREE, discard_mode="independent")
    for first, second in reduced_pairs(seed=11, count=2, n=15):
        game = FrontierGame(first, second, rules, payoff, per_iteration=3)
        solution = double_oracle.solve_game(game, per_iteration=3)
        expected = solve(first, second, rules, payoff=payoff)
        assert game.to_payoff(solution.lower) == pytest.approx(expected.lower, abs=1e-9)
        assert game.to_payoff(solution.upper) == pytest.approx(expected.upper, abs=1e-9)
        assert solution.gap <= 1e-9


@pytest.mark.parametrize("payoff", ["margin", "win"])
def test_double_oracle_iterations_reduced(payoff):
    rules = Rules(position_points=THREE, discard_mode="independent")
    for first, second in reduced_pairs(seed=8, count=3, n=15):
        for per_iteration in (1, 4):
            oracle = DealDoubleOracle(first, second, rules, payoff, per_iteration=per_iteration)
            records = list(oracle.iterations(tolerance=1e-9))
            check_history(records, 1e-9)
            # Each iteration adds at most per_iteration strategies per player.
            for before, after in pairwise(records):
                assert after.row_strategies - before.row_strategies <= per_iteration
                assert after.column_strategies - before.column_strategies <= per_iteration


def test_loose_tolerance_stops_early_with_honest_bounds():
    rules = Rules(position_points=TWO, discard_mode="independent")
    for first, second in reduced_pairs(seed=9, count=4):
        mine_all, theirs_all = all_profiles(first, rules), all_profiles(second, rules)
        exact = solve(first, second, rules, payoff="margin", tolerance=1e-9)
        loose = solve(first, second, rules, payoff="margin", tolerance=2.0)
        assert loose.converged and loose.gap <= 2.0
        assert loose.iterations <= exact.iterations
        assert loose.lower - 1e-9 <= exact.value <= loose.upper + 1e-9
        check_against_everything(loose, mine_all, theirs_all, rules, "margin")


def test_tiny_time_limit_reduced_game_is_honest():
    rules = Rules(position_points=TWO, discard_mode="independent")
    for first, second in reduced_pairs(seed=10, count=4):
        mine_all, theirs_all = all_profiles(first, rules), all_profiles(second, rules)
        for payoff in ("margin", "win"):
            expected = solve_matrix_game(payoff_matrix(mine_all, theirs_all, rules, payoff)).value
            result = solve(first, second, rules, payoff=payoff, time_limit=1e-9)
            assert result.iterations == 1 and len(result.history) == 1
            assert result.converged == (result.upper - result.lower <= 1e-9)
            assert result.gap == pytest.approx(max(0.0, result.upper - result.lower), abs=1e-12)
            assert result.lower - 1e-9 <= result.value <= result.upper + 1e-9
            assert result.lower - 1e-9 <= expected <= result.upper + 1e-9
            check_mixtures(result, first, second, rules)
            check_against_everything(result, mine_all, theirs_all, rules, payoff)


def test_tiny_time_limit_full_deal_is_honest(solved):
    d, converged = solved(2, INDEPENDENT, "win")
    result = solve(d.holdings[0], d.holdings[1], INDEPENDENT, payoff="win", time_limit=1e-9)
    # The limit has passed when the first iteration ends (the frontiers alone
    # take longer), and one iteration is far from the equilibrium here.
    assert result.iterations == 1 and len(result.history) == 1
    assert converged.iterations > 1
    assert not result.converged and result.gap > 1e-9
    assert result.lower - 1e-9 <= result.value <= result.upper + 1e-9
    assert result.lower - 1e-9 <= converged.value <= result.upper + 1e-9
    check_mixtures(result, d.holdings[0], d.holdings[1], INDEPENDENT)
    _exact_exploitability(result, d, INDEPENDENT, "win")


# ======================================================================= errors


def test_invalid_payoff_is_an_error():
    holding = tuple(range(25))
    for payoff in ("points", "game", "", "MARGIN "):
        with pytest.raises(SolverError):
            solve(holding, holding, payoff=payoff)
    with pytest.raises(SolverError):
        DealDoubleOracle(holding, holding, payoff="bogus")


def test_invalid_parameters_are_errors():
    rules = Rules(position_points=TWO)
    holding = tuple(range(10))
    with pytest.raises(SolverError):
        DealDoubleOracle(holding, holding, rules, "margin", per_iteration=0)
    with pytest.raises(SolverError):
        list(DealDoubleOracle(holding, holding, rules, "margin").iterations(tolerance=-1.0))
    with pytest.raises(SolverError):
        solve(holding, holding, rules, tolerance=-1e-3)


@pytest.mark.slow
def test_warm_up_and_without_give_certified_equilibria_of_a_full_mirror_deal(solved):
    # Mirror win games start with regret matching (solver.equilibria.regret_matching);
    # the exact phase must end at an equilibrium all the same.
    d, warmed = solved(6, MIRROR, "win")
    plain = solve(d.holdings[0], d.holdings[1], MIRROR, payoff="win", warm_up=False)
    for result in (warmed, plain):
        assert result.value == 0.5 and result.converged and result.gap <= 1e-9
        check_mixtures(result, d.holdings[0], d.holdings[1], MIRROR)
    _exact_exploitability(warmed, d, MIRROR, "win")
