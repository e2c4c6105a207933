"""The face program kept loaded and grown gives what a program built from scratch gives."""

from __future__ import annotations

import numpy as np
import pytest

from solver.errors import SolverError
from solver.lp import FaceProgram, least_cost


@pytest.mark.parametrize("seed", range(8))
def test_a_grown_program_solves_as_one_built_whole(seed: int) -> None:
    rng = np.random.default_rng(seed)
    payoff = rng.integers(-3, 4, size=(40, 30)).astype(np.float64)
    # The value of the game at the uniform strategy of the rows, lowered: the face is not empty.
    value = float((np.full(40, 1 / 40) @ payoff).min()) - 0.5
    program = FaceProgram(payoff[:25, :20], value)
    program.solve(rng.random(25))
    program.grow(payoff)
    for _ in range(3):
        cost = rng.random(40)
        grown, whole = program.solve(cost), least_cost(payoff, value, cost)
        assert abs(cost @ grown.x - cost @ whole.x) <= 1e-9
        assert (grown.x @ payoff).min() >= value - 1e-9 and abs(grown.x.sum() - 1) <= 1e-12


def test_a_program_does_not_shrink() -> None:
    program = FaceProgram(np.eye(3), 0.1)
    with pytest.raises(SolverError, match="cannot shrink"):
        program.grow(np.eye(2))
