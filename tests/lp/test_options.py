"""The LP engine's options: every field checked, and an override reaches the engine."""

from __future__ import annotations

from dataclasses import fields, replace

import numpy as np
import pytest

from solver.errors import SolverError
from solver.lp import DEFAULT_OPTIONS, LPOptions, MatrixGameLP, WarmSimplex

NAMES = [field.name for field in fields(LPOptions)]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf"), True, "1"])
def test_every_field_refuses_a_bad_value_by_name(name, bad):
    with pytest.raises(SolverError, match=f"^{name} must be a positive") as raised:
        LPOptions(**{name: bad})
    assert raised.value.argument == name


@pytest.mark.parametrize("name", ["refactor_every", "invert_every"])
def test_counts_are_integers(name):
    with pytest.raises(SolverError, match=f"^{name} must be a positive integer"):
        LPOptions(**{name: 1.5})


def test_options_are_frozen():
    with pytest.raises(AttributeError):
        DEFAULT_OPTIONS.pivot = 1.0  # type: ignore[misc]


def test_an_override_reaches_the_simplex():
    # Folding after every pivot: with the default every 64th, the updates pile up.
    payoff = np.random.default_rng(3).integers(-1, 2, size=(30, 30)).astype(np.float64)
    default, folding = WarmSimplex(shift=2.0), WarmSimplex(2.0, options=LPOptions(refactor_every=1))
    for simplex in (default, folding):
        simplex.solve(payoff[:20, :20])
        simplex.solve(payoff)
    assert default._updates > 1 and folding._updates == 0
    assert default.solve(payoff)[2] == pytest.approx(folding.solve(payoff)[2], abs=1e-12)


def test_an_override_reaches_the_matrix_game():
    # A pivot tolerance no pivot meets: the simplex gives up, GLOP answers and counts it.
    rps = [[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]]
    refusing = MatrixGameLP.from_matrix(rps, warm=True, options=replace(DEFAULT_OPTIONS, pivot=1e3))
    default = MatrixGameLP.from_matrix(rps, warm=True)
    assert refusing.solve().value == pytest.approx(default.solve().value, abs=1e-12)
    assert (refusing.fallbacks, default.fallbacks) == (1, 0)
