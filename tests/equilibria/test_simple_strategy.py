"""Certified simple strategies: known answers, monotone in k, certificates recomputed independently."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from solver.equilibria.equilibrium import solve
from solver.equilibria.exploitability import best_value
from solver.equilibria.simple_strategy import MAX_K, simple_strategies, simple_strategy
from solver.errors import QuintetError, SolverError
from solver.game.deal import deal
from solver.game.rules import DiscardMode, Rules

MIRROR = Rules(position_points=(5, 6, 7))
INDEPENDENT = Rules(position_points=(5, 6, 7), discard_mode=DiscardMode.INDEPENDENT)
KS = (1, 2, 3, 5, 10)


def _guarantee(first, second, rules, payoff, strategy) -> float:
    """What the strategy earns at least, by the project's exact best response (independently)."""
    strengths = np.array([a.strengths(rules) for a in strategy.arrangements])
    against = (strengths, np.asarray(strategy.probabilities))
    total = 0.0 if payoff == "margin" else 1.0
    return total - best_value(second, rules, payoff, against)


@pytest.mark.parametrize(
    ("rules", "payoff", "seed"),
    [
        (MIRROR, "margin", 4),
        (INDEPENDENT, "margin", 5),
        (INDEPENDENT, "win", 0),
        (MIRROR, "win", 4),
    ],
)
def test_one_arrangement_concedes_nothing_where_a_pure_equilibrium_exists(
    rules: Rules, payoff: str, seed: int
) -> None:
    first, second = deal(seed, rules).holdings
    equilibrium = solve(first, second, rules, payoff)
    assert len(equilibrium.row.arrangements) == 1  # the deal's equilibrium is pure
    result = simple_strategy(first, second, rules, payoff, k=1, equilibrium=equilibrium)
    assert result.exploitability == 0.0 and result.proven
    assert len(result.strategy.arrangements) == 1
    assert "proven the best" in result.note


@pytest.mark.parametrize("payoff", ["margin", "win"])
@pytest.mark.parametrize("rules", [MIRROR, INDEPENDENT], ids=["mirror", "independent"])
def test_certified_monotone_and_never_below_the_equilibrium(rules: Rules, payoff: str) -> None:
    for seed in (0, 1, 3):
        first, second = deal(seed, rules).holdings
        equilibrium = solve(first, second, rules, payoff)
        results = simple_strategies(first, second, rules, payoff, KS, equilibrium=equilibrium)
        losses = [r.exploitability for r in results]
        assert all(a >= b for a, b in itertools.pairwise(losses)), losses
        for r in results:
            assert len(r.strategy.arrangements) <= r.k
            assert abs(sum(r.strategy.probabilities) - 1.0) < 1e-9
            # No strategy guarantees more than the game value (within its certified gap).
            assert r.guarantee <= equilibrium.upper + 1e-9
            assert r.exploitability >= 0.0
            # The certificate, recomputed from the arrangements alone.
            again = _guarantee(first, second, rules, payoff, r.strategy)
            assert again == pytest.approx(r.guarantee, abs=1e-12)
            loss = equilibrium.value - again
            assert r.exploitability == pytest.approx(loss if loss > 1e-9 else 0.0, abs=1e-12)
            assert r.proven == (r.exploitability == 0.0)
            if not r.proven:
                assert "not proven the best" in r.note


@pytest.mark.parametrize(
    ("rules", "payoff", "seed"),
    [(INDEPENDENT, "margin", 0), pytest.param(MIRROR, "win", 0, marks=pytest.mark.slow)],
)
def test_as_many_arrangements_as_the_support_concede_nothing(
    rules: Rules, payoff: str, seed: int
) -> None:
    # The mirror win deal's support (43) is larger than the pool the search starts from.
    first, second = deal(seed, rules).holdings
    equilibrium = solve(first, second, rules, payoff)
    support = len(equilibrium.row.arrangements)
    result = simple_strategy(first, second, rules, payoff, support, equilibrium=equilibrium)
    assert result.proven and result.exploitability == 0.0
    assert len(result.strategy.arrangements) <= support


def test_a_single_arrangement_of_a_mirror_deal_is_beaten_by_the_same_cards() -> None:
    # In a mirror win game any pure arrangement can be beaten outright: it wins nothing.
    first, second = deal(0, MIRROR).holdings
    result = simple_strategy(first, second, MIRROR, "win", k=1)
    assert result.guarantee == 0.0 and result.exploitability == 0.5 and not result.proven


def test_the_second_seat_is_the_first_seat_of_the_swapped_deal() -> None:
    first, second = deal(2, INDEPENDENT).holdings
    mine = simple_strategy(first, second, INDEPENDENT, "margin", k=2, seat=2)
    swapped = simple_strategy(second, first, INDEPENDENT, "margin", k=2)
    assert mine.seat == 2
    assert mine.guarantee == pytest.approx(swapped.guarantee, abs=1e-9)
    assert mine.value == pytest.approx(swapped.value, abs=1e-9)
    assert _guarantee(second, first, INDEPENDENT, "margin", mine.strategy) == pytest.approx(
        mine.guarantee, abs=1e-12
    )


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"k": 0}, "k must be at least 1, got 0"),
        ({"k": MAX_K + 1}, f"k must be at most {MAX_K}, got {MAX_K + 1}"),
        ({"k": 2.0}, "k must be an integer, got 2.0"),
        ({"k": True}, "k must be an integer, got True"),
        ({"seat": 0}, "seat must be 1 or 2, got 0"),
        ({"payoff": "points"}, "payoff 'points' is not margin or win"),
    ],
)
def test_bad_arguments_are_refused_by_name(arguments: dict, message: str) -> None:
    first, second = deal(1, MIRROR).holdings
    with pytest.raises(QuintetError, match=message):
        simple_strategy(first, second, MIRROR, **{"payoff": "margin", **arguments})


def test_an_equilibrium_of_another_payoff_is_refused() -> None:
    first, second = deal(1, MIRROR).holdings
    equilibrium = solve(first, second, MIRROR, "win")
    with pytest.raises(SolverError, match="equilibrium: solved for other rules or another payoff"):
        simple_strategy(first, second, MIRROR, "margin", k=1, equilibrium=equilibrium)
    with pytest.raises(SolverError, match="ks must name at least one k"):
        simple_strategies(first, second, MIRROR, "margin", ks=())
