"""Rules: defaults per docs/rules.md, validation, category order."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from solver.errors import QuintetError, RulesError
from solver.game.rules import DEFAULT_RULES, Category, DiscardMode, Rules


def test_defaults_match_rules_md():
    rules = Rules()
    # "The winner of comparison 1 scores 3 points, of 2: 4, of 3: 5, of 4: 6, of 5: 7
    # (25 points in all)."
    assert rules.position_points == (3, 4, 5, 6, 7)
    assert rules.total_points == 25
    assert rules.n_packets == 5
    # "This is the default: discard mode mirror."
    assert rules.discard_mode is DiscardMode.MIRROR
    # "The Ace is never low ... in the default rules"; flush below full house.
    assert rules.ace_low_straight is False
    assert rules.flush_beats_full_house is False
    assert rules.ranking_key == (False, False)
    assert rules == DEFAULT_RULES


def test_default_category_order_matches_table():
    # docs/rules.md table, strongest first, reversed.
    strongest_first = [
        "straight flush",
        "four of a kind",
        "full house",
        "flush",
        "straight",
        "three of a kind",
        "two pairs",
        "one pair",
        "high card",
    ]
    assert [c.english for c in Rules().category_order()] == strongest_first[::-1]
    russian = ["Покер", "Каре", "Фул", "Колер", "Стрит", "Тройка", "Две двойки", "Пара", "Шанс"]
    assert [c.russian for c in Rules().category_order()] == russian[::-1]
    assert sorted(Rules().category_order()) == sorted(Category)


def test_category_order_swaps_flush_and_full_house_with_option():
    default = list(Rules().category_order())
    manila = list(Rules(flush_beats_full_house=True).category_order())
    assert default.index(Category.FLUSH) < default.index(Category.FULL_HOUSE)
    assert manila.index(Category.FLUSH) > manila.index(Category.FULL_HOUSE)
    # Only those two trade places.
    i, j = default.index(Category.FLUSH), default.index(Category.FULL_HOUSE)
    swapped = default.copy()
    swapped[i], swapped[j] = swapped[j], swapped[i]
    assert manila == swapped
    # The ace-low option does not change the category order.
    assert Rules(ace_low_straight=True).category_order() == Rules().category_order()


def test_straights():
    # (set of ranks, height); rank 0 is the 7, 7 the Ace.
    high = {(frozenset(range(t - 4, t + 1)), t) for t in range(4, 8)}
    assert set(Rules().straights()) == high
    low = set(Rules(ace_low_straight=True).straights())
    assert low == high | {(frozenset({7, 0, 1, 2, 3}), 3)}
    # The ace-low straight is the lowest: its height is below J-10-9-8-7's.
    heights = sorted(h for _, h in low)
    assert heights[0] == 3 and heights[1] == 4


def test_category_names():
    assert Category.FULL_HOUSE.name_in("ru") == "Фул"
    assert Category.FULL_HOUSE.name_in("en") == "full house"
    assert Category.STRAIGHT_FLUSH.russian == "Покер"
    assert Category.FLUSH.russian == "Колер"
    assert len({c.english for c in Category}) == len({c.russian for c in Category}) == 9


@pytest.mark.parametrize(
    "points",
    [
        (3, 0, 5, 6, 7),
        (3, -4, 5, 6, 7),
        (),
        (1, 2, 3, 4, 5, 6),
        (3.0, 4, 5, 6, 7),
        (True, 4, 5, 6, 7),
        ("3", 4, 5, 6, 7),
    ],
)
def test_bad_position_points(points):
    with pytest.raises(RulesError, match="position points"):
        Rules(position_points=points)


@pytest.mark.parametrize("mode", ["shuffle", "", "MIRROR ", 3])
def test_bad_discard_mode(mode):
    with pytest.raises(RulesError, match="discard mode"):
        Rules(discard_mode=mode)


def test_rules_error_is_value_error():
    assert issubclass(RulesError, QuintetError) and issubclass(RulesError, ValueError)


def test_rules_accept_values_and_normalize():
    rules = Rules(position_points=[6, 7], discard_mode="independent", ace_low_straight=np.True_)
    assert rules.position_points == (6, 7)
    assert rules.n_packets == 2 and rules.total_points == 13
    assert rules.discard_mode is DiscardMode.INDEPENDENT
    assert rules.ace_low_straight is True
    assert Rules(discard_mode=DiscardMode.MIRROR) == Rules()
    # Frozen and hashable.
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.ace_low_straight = False  # type: ignore[misc]
    assert hash(Rules()) == hash(Rules(position_points=[3, 4, 5, 6, 7]))


def test_with_points_keeps_other_options():
    rules = Rules(discard_mode="independent", ace_low_straight=True, flush_beats_full_house=True)
    reduced = rules.with_points((6, 7))
    assert reduced.position_points == (6, 7)
    assert reduced.discard_mode is DiscardMode.INDEPENDENT
    assert reduced.ranking_key == (True, True)
    with pytest.raises(RulesError):
        rules.with_points((0,))
