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
    # once answered silently wrong, or with numpy's errors, or after gigabytes
    ("card id 32", lambda: solver.rank_counts([0, 32]), "cards"),
    ("card id 1.0", lambda: solver.rank_counts([1.0]), "cards"),
    ("a card twice", lambda: solver.rank_counts([3, 3]), "cards"),
    ("hands of floats", lambda: solver.strength(np.arange(5.0)), "hands"),
    ("hands of bools", lambda: solver.category(np.ones(5, dtype=bool)), "hands"),
    (
        "a billion hands",
        lambda: solver.colex_index(np.broadcast_to(np.arange(5), (10**9, 5))),
        "hands",
    ),
    ("subsets of a million", lambda: solver.subsets(10**6), "n"),
    ("profiles of floats", lambda: solver.points_against(np.zeros(2), np.zeros(2), TWO), "mine"),
    (
        "a strength past the rules'",
        lambda: solver.position_stats(np.array([0, 840]), OPPONENT),
        "profile",
    ),
    ("seeds: minus one", lambda: solver.training_seeds(-1), "n"),
    ("lang unknown", lambda: solver.format_cards([0], lang="de"), "lang"),
    (
        "on_record not callable",
        lambda: solve_equilibrium(HOLDING, HOLDING, TWO, on_record="print"),
        "on_record",
    ),
    (
        "samples past the maximum",
        lambda: best_response(HOLDING, OPPONENT, "win", samples=10**9),
        "samples",
    ),
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


# The records and results the library builds hold what they are given (they are not entry
# points); every other callable of the public API refuses garbage by name.
RECORDS = {
    "BestResponse",
    "BookAnswer",
    "CurvePoint",
    "CurveSummary",
    "Deal",
    "EquilibriumResult",
    "Exploitability",
    "Frontier",
    "Grade",
    "HouseFamily",
    "IterationRecord",
    "Opponent",
    "PositionStats",
    "Score",
    "SimpleStrategy",
    "TournamentResult",
}
# Their first argument is a path: any text is one.
PATHS = {"Book", "EquilibriumSource"}


def _entry_points() -> list[tuple[str, int]]:
    import inspect

    found = []
    for name in solver.__all__:
        value = getattr(solver, name)
        if not callable(value) or name in RECORDS:
            continue
        if inspect.isclass(value) and (
            issubclass(value, BaseException) or hasattr(value, "__members__")
        ):
            continue  # exceptions and enums
        try:
            parameters = inspect.signature(value).parameters.values()
        except (TypeError, ValueError):
            continue
        required = [p for p in parameters if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]  # fmt: skip
        found.append((name, max(1, len(required))))
    return found


@pytest.mark.parametrize("garbage", ["garbage", 3.5, object()], ids=["text", "float", "object"])
@pytest.mark.parametrize(("name", "arity"), _entry_points(), ids=lambda v: str(v))
def test_every_public_callable_refuses_garbage_by_type_or_by_name(
    name, arity, garbage, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)  # a path taken as given lands here
    if name in PATHS and isinstance(garbage, str):  # a path: taken, and used
        made = getattr(solver, name)(garbage)
        assert str(getattr(made, "path", "")).endswith(garbage)
        return
    try:
        getattr(solver, name)(*([garbage] * arity))
    except (TypeError, QuintetError):
        return
    except Exception as error:  # anything else escaped from deep inside
        pytest.fail(f"{name}: {type(error).__name__}: {error}")
    pytest.fail(f"{name} accepted {garbage!r}")
