"""The house rule (issue #16): a deterministic layout, its player, opponent model, CLI, search."""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import permutations

import numpy as np
import pytest

from solver.analysis.grade import grade
from solver.analysis.house_search import (
    HouseFamily,
    equilibrium_loss,
    holdout_seeds,
    search,
    training_seeds,
)
from solver.analysis.solutions import cached_equilibrium
from solver.equilibria.equilibrium import Payoff
from solver.errors import QuintetError
from solver.game.deal import deal
from solver.game.evaluator import category, strength
from solver.game.rules import Category, Rules
from solver.models.heuristics import greedy_arrangement
from solver.models.house import HOUSE_RULE, HouseRule, Packets, house_arrangement
from solver.models.packets import subsets
from solver.play.players import player

TWO = Rules(position_points=(6, 7))
THREE = Rules(position_points=(5, 6, 7))


@pytest.mark.parametrize("seed", [0, 1, 5])
@pytest.mark.parametrize("packets", list(Packets))
def test_uses_exactly_the_holding_and_is_deterministic(seed: int, packets: Packets) -> None:
    holding = deal(seed).holdings[0]
    rule = HouseRule(order=HOUSE_RULE.order, packets=packets)
    first = house_arrangement(holding, rule=rule)
    assert first.cards == tuple(sorted(holding))
    shuffled = list(np.random.default_rng(seed).permutation(holding))
    assert house_arrangement(shuffled, rule=rule) == first  # the order of the cards is irrelevant


def test_identity_order_is_greedy() -> None:
    holding = deal(7).holdings[0]
    assert house_arrangement(holding, rule=HouseRule(order=(0, 1, 2, 3, 4))) == (
        greedy_arrangement(holding)
    )


def test_order_moves_greedy_packets() -> None:
    holding = deal(8).holdings[0]
    greedy = greedy_arrangement(holding).packets
    order = (4, 0, 3, 1, 2)
    assert house_arrangement(holding, rule=HouseRule(order=order)).packets == tuple(
        greedy[i] for i in order
    )


def test_thrifty_packets_take_the_weakest_of_the_best_combination() -> None:
    holding = np.array(deal(3).holdings[0])
    packets = house_arrangement(holding, rule=HouseRule((0, 1, 2, 3, 4), packets=Packets.THRIFTY))
    assert packets.strengths().tolist() == sorted(packets.strengths().tolist())
    # Brute force over the 53,130 hands: the first packet built is the weakest
    # hand of the strongest combination the holding allows.
    hands = holding[subsets(25)]
    order = Rules().category_order()
    kinds = np.array([order.index(Category(int(k))) for k in category(hands)])
    weakest_top = int(strength(hands[kinds == kinds.max()]).min())
    assert weakest_top in packets.strengths().tolist()
    assert weakest_top != int(strength(hands).max())  # thrifty differs from greedy here


def test_conditional_rule_switches_on_the_weakest_packet() -> None:
    holding = deal(2).holdings[0]
    always = HouseRule(order=(1, 2, 3, 0, 4))
    # Below STRAIGHT_FLUSH holds for every weakest packet: the weak order is used.
    switched = HouseRule((0, 1, 2, 3, 4), (1, 2, 3, 0, 4), Category.STRAIGHT_FLUSH)
    assert house_arrangement(holding, rule=switched) == house_arrangement(holding, rule=always)
    never = HouseRule((0, 1, 2, 3, 4), (1, 2, 3, 0, 4), Category.HIGH_CARD)
    assert house_arrangement(holding, rule=never) == greedy_arrangement(holding)


def test_bad_rules_and_holdings() -> None:
    with pytest.raises(QuintetError, match="not a permutation"):
        HouseRule(order=(0, 1, 1, 3, 4))
    with pytest.raises(QuintetError, match="go together"):
        HouseRule(order=(0, 1, 2, 3, 4), weak_order=(1, 0, 2, 3, 4))
    with pytest.raises(QuintetError, match="holding"):
        house_arrangement(range(24))
    with pytest.raises(QuintetError, match="orders 5 packets"):
        house_arrangement(range(10), TWO, HouseRule(order=(0, 1, 2, 3, 4)))


def test_reduced_rules_have_a_default() -> None:
    holding = deal(4, THREE).holdings[0]
    assert house_arrangement(holding, THREE).cards == tuple(sorted(holding))


def test_player_and_grade() -> None:
    mine, theirs = deal(11).holdings
    arranged = player("house").arrange(mine, theirs, Rules(), np.random.default_rng(0))
    assert arranged == house_arrangement(mine)
    small, other = deal(11, THREE).holdings
    reduced = player("house").arrange(small, other, THREE, np.random.default_rng(0))
    assert reduced == house_arrangement(small, THREE)


def test_equilibrium_loss_is_the_grades() -> None:
    mine, theirs = deal(5, THREE).holdings
    equilibrium = cached_equilibrium(mine, theirs, THREE, Payoff.MARGIN)
    for rule in (HouseRule((0, 1, 2)), HouseRule((2, 0, 1)), HouseRule((1, 0, 2))):
        arrangement = house_arrangement(mine, THREE, rule)
        assert equilibrium_loss(arrangement, equilibrium) == pytest.approx(
            grade(arrangement, theirs, THREE).equilibrium_loss, abs=1e-12
        )


def test_search_returns_the_best_by_a_direct_loop() -> None:
    seeds = (3, 4, 6)
    family = HouseFamily(
        orders=tuple(permutations(range(3))),
        weak_below=(Category.TWO_PAIR,),
        weak_orders=((0, 1, 2), (1, 0, 2)),
        packets=(Packets.GREEDY, Packets.THRIFTY),
    )
    result = search(family, seeds, THREE)
    candidates = list(family.candidates())
    assert len(result.scores) == len(candidates)
    direct = []
    for rule in candidates:
        losses = []
        for seed in seeds:
            mine, theirs = deal(seed, THREE).holdings
            losses.append(
                grade(house_arrangement(mine, THREE, rule), theirs, THREE).equilibrium_loss
            )
        direct.append(float(np.mean(losses)))
    assert result.best.mean_loss == pytest.approx(min(direct), abs=1e-9)
    assert result.best.rule == candidates[int(np.argmin(direct))]
    means = [s.mean_loss for s in result.scores]
    assert means == sorted(means)


def test_training_and_test_deals_differ() -> None:
    assert not set(training_seeds(200)) & set(holdout_seeds(200))


def _quintet(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "solver.cli", *args], capture_output=True, text=True, timeout=600
    )


def test_cli_house_and_against_house() -> None:
    done = _quintet("house", "--seed", "4", "--json")
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert payload["house_rule"] == HOUSE_RULE.describe()
    assert payload["equilibrium_loss"] >= 0
    text = _quintet("house", "--seed", "4")
    assert text.returncode == 0 and text.stdout.startswith("house rule: ")
    suggested = _quintet("suggest", "--seed", "4", "--against", "house")
    assert suggested.returncode == 0, suggested.stderr
    assert "house (" in suggested.stdout


def test_cli_bad_input_one_line() -> None:
    done = _quintet("house", "As Ks")
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1
    assert "25 cards" in done.stderr
