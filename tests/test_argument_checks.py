"""The library checks its arguments: a wrong type or value is a ``TypeError`` or a
:class:`~solver.errors.QuintetError` naming the argument, never an error from deep inside
(``AttributeError``, numpy's, OR-Tools')."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import solver
from solver import (
    Objective,
    Opponent,
    QuintetError,
    Rules,
    best_response,
    frontier_best_response,
    grade,
    greedy_arrangement,
    solve_equilibrium,
    top_responses,
)

TWO = Rules(position_points=(6, 7))
HOLDING = tuple(range(10))
OPPONENT = Opponent.random(HOLDING, TWO)

# (what is wrong, the call, the argument the error must name)
CASES: list[tuple[str, Callable[[], object], str]] = [
    ("opponent is a string", lambda: best_response(HOLDING, "random"), "opponent"),
    ("opponent is a string", lambda: frontier_best_response(HOLDING, "random"), "opponent"),
    ("objective unknown", lambda: best_response(HOLDING, OPPONENT, "glory"), "objective"),
    ("samples a float", lambda: best_response(HOLDING, OPPONENT, "win", samples=2.5), "samples"),
    ("samples zero", lambda: best_response(HOLDING, OPPONENT, "win", samples=0), "samples"),
    ("workers a float", lambda: best_response(HOLDING, OPPONENT, workers=1.5), "workers"),
    ("workers a bool", lambda: best_response(HOLDING, OPPONENT, workers=True), "workers"),
    ("time_limit a bool", lambda: best_response(HOLDING, OPPONENT, time_limit=True), "time_limit"),
    ("k zero", lambda: top_responses(HOLDING, OPPONENT, k=0), "k"),
    ("k a bool", lambda: top_responses(HOLDING, OPPONENT, k=True), "k"),
    ("rng not a Generator", lambda: best_response(HOLDING, OPPONENT, "win", rng=3), "rng"),
    ("rules a string", lambda: solve_equilibrium(HOLDING, HOLDING, "mirror"), "rules"),
    ("rules a string", lambda: Opponent.random(HOLDING, "mirror"), "rules"),
    ("rules a string", lambda: greedy_arrangement(HOLDING, "mirror"), "rules"),
    ("rules a string", lambda: solver.deal(1, rules="mirror"), "rules"),
    (
        "tolerance a string",
        lambda: solve_equilibrium(HOLDING, HOLDING, TWO, tolerance="0"),
        "tolerance",
    ),
    ("arrangement a string", lambda: grade("x", HOLDING, TWO), "arrangement"),
    ("seed a float", lambda: solver.deal(1.5), "seed"),
    ("a bool for a rule", lambda: Rules(ace_low_straight="no"), "ace_low_straight"),
]


@pytest.mark.parametrize(("what", "call", "argument"), CASES, ids=[c[0] for c in CASES])
def test_a_bad_argument_is_refused_by_name(what, call, argument):
    with pytest.raises((TypeError, QuintetError)) as error:
        call()
    assert argument in str(error.value), (what, str(error.value))


def test_numpy_integers_are_integers():
    """What is refused is the wrong kind, not numpy's spelling of the right one."""
    result = top_responses(HOLDING, OPPONENT, Objective.POINTS, k=np.int64(1), workers=np.int32(1))
    assert result[0].proven_optimal
