"""The house rule: a deterministic layout, its player, opponent model, CLI, search."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from itertools import combinations, permutations

import numpy as np
import pytest

from solver.analysis.grade import grade
from solver.analysis.house_search import (
    HOUSE_FAMILY,
    HouseFamily,
    equilibrium_loss,
    holdout_seeds,
    measure,
    search,
    training_seeds,
)
from solver.book.source import DEFAULT_SOURCE
from solver.equilibria.equilibrium import Payoff
from solver.errors import QuintetError
from solver.game.arrangement import Arrangement, score
from solver.game.cards import parse_cards
from solver.game.deal import deal
from solver.game.evaluator import category, strength
from solver.game.rules import Category, Rules
from solver.models.heuristics import greedy_arrangement
from solver.models.house import (
    HOUSE_RULE,
    HouseRule,
    Packets,
    built_packets,
    house_arrangement,
    house_rule,
)
from solver.models.packets import subsets
from solver.play.players import player

TWO = Rules(position_points=(6, 7))
THREE = Rules(position_points=(5, 6, 7))


@pytest.mark.parametrize("seed", [0, 1, 5])
@pytest.mark.parametrize(
    "rule",
    [HOUSE_RULE, *(HouseRule(HOUSE_RULE.order, packets) for packets in Packets)],
    ids=lambda r: r.describe(),
)
def test_uses_exactly_the_holding_and_is_deterministic(seed: int, rule: HouseRule) -> None:
    holding = deal(seed).holdings[0]
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


def _reference_build(holding: list[int], rules: Rules, packets: Packets) -> list[tuple[int, ...]]:
    """A slow, literal build: every hand of what is left, the preference in plain Python."""
    remaining = sorted(holding)
    built = []
    for _ in range(rules.n_packets):
        best_key, best_hand = None, None
        for hand in combinations(remaining, 5):
            value = int(strength(np.array(hand), rules))
            if packets is Packets.FOURS_FIRST:
                first = int(category(np.array(hand), rules) == Category.FOUR_OF_A_KIND)
            else:  # keep-fours: minus the fours of a kind the hand breaks
                held = Counter(c // 4 for c in remaining)
                taken = Counter(c // 4 for c in hand)
                first = -sum(1 for r, n in taken.items() if held[r] == 4 and n < 4)
                flush = category(np.array(hand), rules) == Category.STRAIGHT_FLUSH
                if packets is Packets.KEEP_FOURS_SF and flush:
                    first = min(first + 1, 0)  # a straight flush may break one
            if best_key is None or (first, value) > best_key:  # strict: the first maximum
                best_key, best_hand = (first, value), hand
        assert best_hand is not None
        built.append(best_hand)
        remaining = [c for c in remaining if c not in best_hand]
    return sorted(built, key=lambda p: int(strength(np.array(p), rules)))


FOURS_AND_A_STRAIGHT_FLUSH = "7c 7d 7h 7s 8c 8d 8h 8s 9s Ts Js Qh Kd Ac Ad"


@pytest.mark.parametrize(
    "packets", [Packets.FOURS_FIRST, Packets.KEEP_FOURS, Packets.KEEP_FOURS_SF]
)
@pytest.mark.parametrize("holding", ["seed 4", "seed 9", FOURS_AND_A_STRAIGHT_FLUSH])
def test_new_builds_match_a_slow_reference(packets: Packets, holding: str) -> None:
    cards = (
        list(deal(int(holding.split()[1]), THREE).holdings[0])
        if holding.startswith("seed")
        else list(parse_cards(holding))
    )
    assert list(built_packets(cards, THREE, packets)) == _reference_build(cards, THREE, packets)


def test_keep_fours_breaks_the_straight_flush_not_the_fours() -> None:
    cards = parse_cards(FOURS_AND_A_STRAIGHT_FLUSH)
    greedy = built_packets(cards, THREE)
    kept = built_packets(cards, THREE, Packets.KEEP_FOURS)
    kinds = [Category(int(category(np.array(p), THREE))) for p in kept]
    assert Category.STRAIGHT_FLUSH in [Category(int(category(np.array(p), THREE))) for p in greedy]
    assert kinds.count(Category.FOUR_OF_A_KIND) == 2  # 7777 and 8888 kept whole
    # The straight flush 7-J of spades breaks two: not even keep-fours-sf makes it.
    assert built_packets(cards, THREE, Packets.KEEP_FOURS_SF) == kept


def test_keep_fours_sf_lets_a_straight_flush_break_one_four() -> None:
    # 7-J of spades breaks only the sevens (no other rank is held four times).
    cards = parse_cards("7c 7d 7h 7s 8s 9s Ts Js Ac Ad Ah Kc Kd Qc Qd")
    flush = tuple(sorted(parse_cards("7s 8s 9s Ts Js")))
    assert flush in built_packets(cards, THREE, Packets.KEEP_FOURS_SF)
    assert flush not in built_packets(cards, THREE, Packets.KEEP_FOURS)


@pytest.mark.parametrize("seed", [0, 2, 6, 13])
def test_alternative_is_played_only_when_it_beats_the_main_layout(seed: int) -> None:
    holding = deal(seed).holdings[0]
    main = house_arrangement(holding, rule=HouseRule(HOUSE_RULE.order))
    assert HOUSE_RULE.alternative is not None and HOUSE_RULE.alternative_order is not None
    other = built_packets(holding, packets=HOUSE_RULE.alternative)
    alternative = Arrangement(tuple(other[i] for i in HOUSE_RULE.alternative_order))
    expected = alternative if score(alternative, main).margin > 0 else main
    assert house_arrangement(holding) == expected


def test_both_outcomes_of_the_duel_occur() -> None:
    played = {
        house_arrangement(h) == house_arrangement(h, rule=HouseRule(HOUSE_RULE.order))
        for h in (deal(training_seeds(40)[i]).holdings[0] for i in range(40))
    }
    assert played == {True, False}


def test_bad_rules_and_holdings() -> None:
    with pytest.raises(QuintetError, match="not a permutation"):
        HouseRule(order=(0, 1, 1, 3, 4))
    with pytest.raises(QuintetError, match="go together"):
        HouseRule(order=(0, 1, 2, 3, 4), alternative=Packets.THRIFTY)
    with pytest.raises(QuintetError, match="differ in length"):
        HouseRule((0, 1, 2, 3, 4), Packets.GREEDY, Packets.THRIFTY, (0, 1, 2))
    with pytest.raises(QuintetError, match="holding"):
        house_arrangement(range(24))
    with pytest.raises(QuintetError, match="orders 5 packets"):
        house_arrangement(range(10), TWO, HouseRule(order=(0, 1, 2, 3, 4)))
    with pytest.raises(QuintetError, match="rule orders 2 packets"):
        search((HouseRule((0, 1)),), (1,))


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
    equilibrium = DEFAULT_SOURCE(mine, theirs, THREE, Payoff.MARGIN)
    for rule in (HouseRule((0, 1, 2)), HouseRule((2, 0, 1)), HouseRule((1, 0, 2))):
        arrangement = house_arrangement(mine, THREE, rule)
        assert equilibrium_loss(arrangement, equilibrium) == pytest.approx(
            grade(arrangement, theirs, THREE).equilibrium_loss, abs=1e-12
        )


def test_search_returns_the_best_by_a_direct_loop() -> None:
    seeds = (3, 4, 6)
    family = HouseFamily(
        orders=tuple(permutations(range(3))),
        packets=(Packets.GREEDY, Packets.THRIFTY),
        alternatives=(Packets.KEEP_FOURS, Packets.FOURS_FIRST),
        alternative_orders=((0, 1, 2), (2, 0, 1)),
    )
    result = search(family, seeds, THREE)
    candidates = list(family.candidates())
    assert list(result.candidates) == candidates
    graded: dict[tuple[int, Arrangement], float] = {}
    direct = []
    for rule in candidates:
        losses = []
        for seed in seeds:
            mine, theirs = deal(seed, THREE).holdings
            arrangement = house_arrangement(mine, THREE, rule)
            if (seed, arrangement) not in graded:
                graded[seed, arrangement] = grade(arrangement, theirs, THREE).equilibrium_loss
            losses.append(graded[seed, arrangement])
        direct.append(losses)
    assert np.allclose(result.losses, direct, atol=1e-9)
    assert result.best.mean_loss == pytest.approx(float(np.mean(direct, axis=1).min()), abs=1e-9)
    assert result.best.rule == candidates[int(np.argmin(np.mean(direct, axis=1)))]
    means = [s.mean_loss for s in result.ranking(len(candidates))]
    assert means == sorted(means)


def test_measure_is_search_on_training_then_test_deals() -> None:
    family = HouseFamily(orders=tuple(permutations(range(3))), alternatives=(Packets.KEEP_FOURS,))
    found = measure(3, 2, family, THREE)
    trained = search(family, training_seeds(3), THREE)
    assert found.rule == trained.best.rule and found.training == trained.best
    greedy = HouseRule((0, 1, 2))
    tested = search((found.rule, greedy), holdout_seeds(2), THREE)
    assert found.test == tested.score(0) and found.greedy_test == tested.score(1)
    assert found.greedy_training == trained.score(trained.candidates.index(greedy))
    assert "training" in found.table()


def test_default_rule_is_the_searched_one() -> None:
    assert house_rule(5) is HOUSE_RULE
    assert HOUSE_RULE.describe() == (
        "greedy packets at positions 1-5: 2 3 1 4 5; keep-fours-sf packets 2 1 4 5 3 if they beat that"
    )
    assert HOUSE_RULE in set(HOUSE_FAMILY.candidates())


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
