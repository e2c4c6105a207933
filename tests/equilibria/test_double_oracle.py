"""The generic double oracle (solver.equilibria.double_oracle) on tiny games with known answers.

Games are given whole to :class:`~solver.equilibria.payoff_oracle.MatrixOracle`;
the answers are worked out by hand in the comments, or by GLOP on the whole
matrix.  The Quintet deals (the frontier oracle) are in tests/equilibria/test_equilibrium.py.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import pairwise
from types import SimpleNamespace

import numpy as np
import pytest

from solver.equilibria import double_oracle
from solver.equilibria.double_oracle import DoubleOracle, IterationRecord, Solution, solve_game
from solver.equilibria.payoff_oracle import BestResponses, MatrixOracle
from solver.equilibria.regret_matching import WarmUp
from solver.errors import SolverError
from solver.lp import solve_matrix_game

ROCK_PAPER_SCISSORS = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], dtype=np.float64)


def full_mixture(solution: Solution, side: str, size: int) -> np.ndarray:
    """A side's mixed strategy over all ``size`` strategies."""
    strategies = solution.row_strategies if side == "row" else solution.column_strategies
    probabilities = solution.row if side == "row" else solution.column
    mixed = np.zeros(size)
    np.add.at(mixed, list(strategies), probabilities)
    return mixed


def check_certificate(solution: Solution, payoff: np.ndarray) -> None:
    """The strategies guarantee the bounds against every strategy of the whole game."""
    x = full_mixture(solution, "row", payoff.shape[0])
    y = full_mixture(solution, "column", payoff.shape[1])
    assert x.sum() == pytest.approx(1.0) and y.sum() == pytest.approx(1.0)
    assert (x @ payoff).min() == pytest.approx(solution.lower, abs=1e-9)
    assert (payoff @ y).max() == pytest.approx(solution.upper, abs=1e-9)
    assert solution.lower - 1e-9 <= solution.value <= solution.upper + 1e-9


def run(oracle: MatrixOracle, **options: object) -> tuple[list[IterationRecord], Solution]:
    search = DoubleOracle(oracle, **options)  # type: ignore[arg-type]
    records = list(search.iterations())
    return records, search.solution()


@pytest.mark.parametrize("symmetric", [False, True])
def test_rock_paper_scissors(symmetric):
    # Each pure strategy loses to one other, so only the uniform mixture
    # guarantees 0, and 0 is the value (the game is symmetric).
    records, solution = run(MatrixOracle(ROCK_PAPER_SCISSORS, symmetric=symmetric))
    assert solution.value == 0.0
    assert solution.gap <= 1e-9
    assert full_mixture(solution, "row", 3) == pytest.approx(np.full(3, 1 / 3))
    assert full_mixture(solution, "column", 3) == pytest.approx(np.full(3, 1 / 3))
    check_certificate(solution, ROCK_PAPER_SCISSORS)
    # Starting from rock, paper then scissors must be added: three iterations.
    assert [r.row_strategies for r in records] == [1, 2, 3]
    if symmetric:
        assert [r.lower for r in records] == [-r.upper for r in records]


def test_three_by_three_mixed_equilibrium():
    # Diagonal payoffs 4, 2, 1 ("guess my card, win its value"): the row
    # player must make the column player indifferent, 4 x_0 = 2 x_1 = x_2 = v,
    # so x ~ (1/4, 1/2, 1) = (1, 2, 4) / 7 and v = 1 / (1/4 + 1/2 + 1) = 4/7.
    # The column player's indifference gives the same y.
    payoff = np.diag([4.0, 2.0, 1.0])
    _, solution = run(MatrixOracle(payoff))
    assert solution.value == pytest.approx(4 / 7, abs=1e-9)
    assert full_mixture(solution, "row", 3) == pytest.approx(np.array([1, 2, 4]) / 7)
    assert full_mixture(solution, "column", 3) == pytest.approx(np.array([1, 2, 4]) / 7)
    check_certificate(solution, payoff)


def test_weighted_rock_paper_scissors():
    # Symmetric: payoff = -payoff.T, value 0.  x^T A = 0 column by column:
    # x1 - 2 x2 = 0, -x0 + x2 = 0, 2 x0 - x1 = 0, so x = (1, 2, 1) / 4.
    payoff = np.array([[0, -1, 2], [1, 0, -1], [-2, 1, 0]], dtype=np.float64)
    for symmetric in (False, True):
        _, solution = run(MatrixOracle(payoff, symmetric=symmetric))
        assert solution.value == pytest.approx(0.0, abs=1e-12)
        assert full_mixture(solution, "row", 3) == pytest.approx(np.array([1, 2, 1]) / 4)
        check_certificate(solution, payoff)


def test_saddle_point_needs_no_mixing():
    # Row 1 dominates and column 2 is its worst: a pure equilibrium of value 2.
    payoff = np.array([[1.0, 0.0, -1.0], [5.0, 3.0, 2.0], [0.0, 1.0, -3.0]])
    _, solution = run(MatrixOracle(payoff))
    assert solution.value == 2.0 and solution.gap == 0.0
    assert full_mixture(solution, "row", 3).tolist() == [0.0, 1.0, 0.0]
    assert full_mixture(solution, "column", 3).tolist() == [0.0, 0.0, 1.0]


@pytest.mark.parametrize("n", [10, 60])
def test_guess_the_number_adds_one_strategy_per_iteration(n):
    # The row player guesses the column player's number: 1 if right.  When
    # both restricted sets are equal, the column player hides on a number
    # outside them (one new column); then the row player follows it (one new
    # row).  So the sets grow by one strategy per iteration, alternately:
    # 2n - 1 iterations; the value is 1/n, both players uniform.
    payoff = np.eye(n)
    records, solution = run(MatrixOracle(payoff))
    assert len(records) == 2 * n - 1
    assert [r.row_strategies for r in records] == [(k + 1) // 2 for k in range(1, 2 * n)]
    assert [r.column_strategies for r in records] == [k // 2 + 1 for k in range(1, 2 * n)]
    assert solution.value == pytest.approx(1 / n, abs=1e-12)
    assert full_mixture(solution, "row", n) == pytest.approx(np.full(n, 1 / n))
    check_certificate(solution, payoff)
    for before, after in pairwise(records):
        assert after.lower >= before.lower and after.upper <= before.upper


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("per_iteration", [1, 3])
def test_random_games_match_the_whole_linear_program(seed, per_iteration):
    rng = np.random.default_rng(seed)
    payoff = rng.integers(-5, 6, size=(rng.integers(1, 30), rng.integers(1, 30))).astype(float)
    expected = solve_matrix_game(payoff).value
    records, solution = run(MatrixOracle(payoff), per_iteration=per_iteration)
    assert solution.value == pytest.approx(expected, abs=1e-9)
    assert solution.gap <= 1e-9
    check_certificate(solution, payoff)
    for before, after in pairwise(records):
        assert after.row_strategies - before.row_strategies <= per_iteration
        assert after.column_strategies - before.column_strategies <= per_iteration
        assert after.iteration == before.iteration + 1


class CountingOracle(MatrixOracle):
    """Remembers which strategies were discarded, and how often."""

    def __init__(self, payoff: np.ndarray, symmetric: bool = False) -> None:
        super().__init__(payoff, symmetric)
        self.discarded: list[tuple[str, int]] = []

    def discard(self, rows: Sequence[int], columns: Sequence[int]) -> None:
        self.discarded += [("row", i) for i in rows] + [("column", j) for j in columns]


def test_pruning_drops_each_strategy_at_most_once():
    # "Name a number just above mine": u(i, j) = n^2 sign(i - j) - n i + j.
    # Each side's best response is the smallest number above the other's,
    # so the restricted sets climb a few numbers per iteration and the old
    # ones fall out of use: past the pruning threshold they are dropped.
    # Both end on the largest number: u(n-1, n-1) = -(n-1)^2, and any other
    # row loses n^2 against it (and symmetrically for the column).
    n = 200
    numbers = np.arange(n)
    payoff = n * n * np.sign(np.subtract.outer(numbers, numbers)) - n * numbers[:, None]
    payoff = (payoff + numbers[None, :]).astype(float)
    oracle = CountingOracle(payoff)
    records, solution = run(oracle, per_iteration=10)
    assert len(oracle.discarded) > 100, "the game was meant to prune"
    assert len(oracle.discarded) == len(set(oracle.discarded))
    assert any(after.row_strategies < before.row_strategies for before, after in pairwise(records))
    assert solution.value == -((n - 1) ** 2) and solution.gap == 0.0
    check_certificate(solution, payoff)


def test_warm_simplex_gives_the_same_value():
    rng = np.random.default_rng(5)
    payoff = rng.integers(-1, 2, size=(80, 90)).astype(float)
    cold = solve_game(MatrixOracle(payoff), per_iteration=5)
    warm = solve_game(MatrixOracle(payoff), per_iteration=5, warm_simplex=True)
    assert warm.value == pytest.approx(cold.value, abs=1e-9)
    check_certificate(warm, payoff)


def test_stopping_rules():
    payoff = np.eye(20)
    # A 1 ns time limit stops after the first iteration (the limit is checked
    # after each whole iteration), with honest bounds; a zero limit is refused.
    records, solution = run(MatrixOracle(payoff))
    search = DoubleOracle(MatrixOracle(payoff))
    assert len(list(search.iterations(time_limit=1e-9))) == 1
    with pytest.raises(SolverError, match=r"^time_limit must be a positive"):
        list(DoubleOracle(MatrixOracle(payoff)).iterations(time_limit=0.0))
    assert len(list(DoubleOracle(MatrixOracle(payoff)).iterations(max_iterations=4))) == 4
    # A loose tolerance stops as soon as the gap is within it.
    loose = list(DoubleOracle(MatrixOracle(payoff)).iterations(tolerance=0.5))
    assert loose[-1].gap <= 0.5 and all(r.gap > 0.5 for r in loose[:-1])
    assert len(loose) < len(records)
    check_certificate(search.solution(), payoff)
    assert solution.gap <= 1e-9


class _TimedOracle(MatrixOracle):
    """A matrix oracle whose best responses each take 10 s of a fake clock."""

    def __init__(self, payoff: np.ndarray, clock: list[float]) -> None:
        super().__init__(payoff)
        self.clock = clock

    def best_rows(
        self, columns: Sequence[int], mixed: np.ndarray, above: np.ndarray | None = None
    ) -> BestResponses:
        self.clock[0] += 10.0
        return super().best_rows(columns, mixed, above)

    def best_columns(
        self, rows: Sequence[int], mixed: np.ndarray, above: np.ndarray | None = None
    ) -> BestResponses:
        self.clock[0] += 10.0
        return super().best_columns(rows, mixed, above)


def test_records_carry_their_timings(monkeypatch):
    # The clock moves only in the best responses (two per iteration, 10 s each),
    # never in the restricted game's LP: the records must say exactly that.
    clock = [0.0]
    monkeypatch.setattr(double_oracle, "time", SimpleNamespace(perf_counter=lambda: clock[0]))
    records, _ = run(_TimedOracle(np.eye(5), clock))
    assert len(records) > 1
    assert [r.oracle_seconds for r in records] == [20.0] * len(records)
    assert [r.lp_seconds for r in records] == [0.0] * len(records)
    assert [r.seconds for r in records] == [20.0 * (i + 1) for i in range(len(records))]


def test_best_responses_order():
    responses = BestResponses(np.array([2.0, 5.0, 5.0, -1.0]), np.array([10, 11, 12, 13]))
    assert responses.value == 5.0
    ids, values = responses.best(3)
    assert sorted(ids[:2].tolist()) == [11, 12] and ids[2] == 10
    assert values.tolist() == [5.0, 5.0, 2.0]
    assert responses.best(10)[0].shape == (4,)


def test_errors():
    with pytest.raises(SolverError):
        MatrixOracle(np.ones((2, 2)), symmetric=True)
    with pytest.raises(SolverError):
        MatrixOracle(np.zeros((0, 2)))
    with pytest.raises(SolverError):
        DoubleOracle(MatrixOracle(np.eye(2)), per_iteration=0)
    with pytest.raises(SolverError):
        list(DoubleOracle(MatrixOracle(np.eye(2))).iterations(tolerance=-1e-3))
    with pytest.raises(SolverError):
        BestResponses(np.zeros(0))


def antisymmetric(rng: np.random.Generator, n: int) -> np.ndarray:
    """A random symmetric game (``u(a, b) = -u(b, a)``) with payoffs -1, 0, 1."""
    upper = np.triu(rng.integers(-1, 2, size=(n, n)), 1)
    return (upper - upper.T).astype(float)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("gap", [0.0, 0.05, 10.0])
def test_warm_up_ends_at_the_same_exact_value(seed, gap):
    # gap 0: regret matching never gets there, the warm-up ends when no best
    # response is new; gap 10: it ends after the first iteration.
    rng = np.random.default_rng(seed)
    payoff = rng.integers(-3, 4, size=(60, 70)).astype(float)
    warm_up = WarmUp(gap=gap, iterations=50)
    search = DoubleOracle(MatrixOracle(payoff), per_iteration=3, warm_up=warm_up)
    list(search.iterations())
    solution = search.solution()
    assert solution.value == pytest.approx(solve_matrix_game(payoff).value, abs=1e-9)
    assert solution.gap <= 1e-9
    check_certificate(solution, payoff)


@pytest.mark.parametrize("seed", range(4))
def test_warm_up_on_symmetric_games(seed):
    payoff = antisymmetric(np.random.default_rng(seed), 120)
    oracle = CountingOracle(payoff, symmetric=True)
    records, solution = run(
        oracle, per_iteration=10, warm_simplex=True, warm_up=WarmUp(gap=0.05, iterations=200)
    )
    assert solution.value == 0.0 and solution.gap <= 1e-9
    check_certificate(solution, payoff)
    # The switch to the exact phase keeps only the strategies in use (the
    # set shrinks); each strategy is discarded once at most.
    assert oracle.discarded and len(oracle.discarded) == len(set(oracle.discarded))
    sizes = [r.row_strategies for r in records]
    assert any(after < before for before, after in pairwise(sizes))


@pytest.mark.parametrize("seed", range(3))
def test_a_guessed_first_basis_ends_at_the_same_equilibrium(seed):
    # WarmUp.guess changes only where the first exact program starts.
    payoff = antisymmetric(np.random.default_rng(seed), 150)
    solutions = []
    for guess in (False, True):
        warm_up = WarmUp(gap=0.1, iterations=200, guess=guess)
        search = DoubleOracle(
            MatrixOracle(payoff, symmetric=True),
            per_iteration=10,
            warm_simplex=True,
            warm_up=warm_up,
        )
        list(search.iterations())
        assert search.lp.fallbacks == 0
        solutions.append(search.solution())
    for solution in solutions:
        assert solution.value == 0.0 and solution.gap <= 1e-9
        check_certificate(solution, payoff)


def test_warm_up_bounds_are_certified_from_the_first_iteration():
    # The approximate strategies' bounds hold for the whole game too.
    payoff = antisymmetric(np.random.default_rng(9), 80)
    oracle = MatrixOracle(payoff, symmetric=True)
    search = DoubleOracle(oracle, per_iteration=5, warm_up=WarmUp(gap=0.0, iterations=20))
    for record in search.iterations(max_iterations=3):
        assert record.lower <= 0.0 <= record.upper
    solution = search.solution()
    check_certificate(solution, payoff)


@pytest.mark.parametrize("symmetric", [True, False])
def test_a_pruned_warm_up_ends_at_the_same_exact_value(symmetric):
    # WarmUp.prune drops strategies the averages hardly use once a side holds
    # prune_from; the exact phase still certifies the whole game's value.
    rng = np.random.default_rng(5)
    payoff = antisymmetric(rng, 200) if symmetric else rng.integers(-3, 4, (180, 200)) * 1.0
    value = 0.0 if symmetric else solve_matrix_game(payoff).value
    oracle = CountingOracle(payoff, symmetric=symmetric)
    warm_up = WarmUp(gap=0.02, iterations=100, prune=0.5, prune_from=40)
    records, solution = run(oracle, per_iteration=10, warm_simplex=True, warm_up=warm_up)
    assert solution.value == pytest.approx(value, abs=1e-9) and solution.gap <= 1e-9
    check_certificate(solution, payoff)
    # It dropped strategies while warming up (the sets grew by less than the 10
    # added); the pruning drops each strategy once at most, and the switch to the
    # exact phase, which happens once, may drop it once more.
    warm = [r.row_strategies for r in records if r.row_strategies >= 40][:4]
    assert any(after < before + 10 for before, after in pairwise(warm))
    counts = Counter(oracle.discarded)
    assert counts and max(counts.values()) <= 2


def test_regret_matching_restricts_its_state():
    from solver.equilibria.regret_matching import RegretMatching

    matching = RegretMatching(symmetric=False)
    matching.grow(4, 3)
    matching.solve(np.arange(12.0).reshape(4, 3) - 5.0, iterations=5)
    before = matching.row_regrets.copy(), matching.column_prediction.copy()
    matching.restrict(np.array([3, 1]), np.array([2]))
    assert matching.row_regrets.tolist() == before[0][[3, 1]].tolist()
    assert matching.column_prediction.tolist() == before[1][[2]].tolist()
