"""Rank multisets' strengths, and hands valued by them before the table of every hand exists."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from solver.errors import CardError
from solver.game import evaluator
from solver.game.ranking import ranking
from solver.game.rules import Rules

RULE_SETS = [
    Rules(ace_low_straight=low, flush_beats_full_house=manila)
    for low, manila in itertools.product([False, True], repeat=2)
]


@pytest.fixture
def no_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in a fresh process: no table of every hand built yet, none valued by multiset."""
    monkeypatch.setattr(evaluator, "_BUILT", set())
    monkeypatch.setattr(evaluator, "_BY_MULTISET", {})


@pytest.mark.parametrize("rules", RULE_SETS)
def test_every_hand_valued_by_multiset_equals_the_table(rules, no_tables):
    hands = evaluator.all_hands()[:, ::-1]  # any card order
    key = rules.ranking_key
    # Batches small enough not to build the table (its limit is one table of hands).
    strengths = [evaluator.strength(part, rules) for part in np.array_split(hands, 8)[:4]]
    evaluator._BY_MULTISET.clear()
    categories = [evaluator.category(part, rules) for part in np.array_split(hands, 8)[:4]]
    assert key not in evaluator._BUILT
    table = evaluator._build_table(key)
    split = sum(part.shape[0] for part in np.array_split(hands, 8)[:4])
    assert np.concatenate(strengths).dtype == table.strength.dtype
    assert np.array_equal(np.concatenate(strengths), table.strength[:split])
    assert np.array_equal(np.concatenate(categories), table.category[:split])
    assert np.array_equal(ranking(rules).strength_category, table.strength_category)
    assert ranking(rules).n_strengths == table.n_strengths
    assert np.array_equal(ranking(rules).multiset_strength, table.multiset_strength)
    assert np.array_equal(ranking(rules).multiset_flush_strength, table.multiset_flush_strength)


def test_the_rest_of_the_hands_valued_by_multiset_equal_the_table(no_tables):
    hands = evaluator.all_hands()
    rest = hands[hands.shape[0] // 2 :]
    values = evaluator.strength(rest.astype(np.int64))
    assert Rules().ranking_key not in evaluator._BUILT
    assert np.array_equal(values, evaluator.hand_table().strength[hands.shape[0] // 2 :])


def test_the_table_is_built_once_as_many_hands_were_valued_by_multiset(no_tables):
    hands = evaluator.all_hands()[:120_000]
    evaluator.strength(hands)
    assert Rules().ranking_key not in evaluator._BUILT
    evaluator.strength(hands)
    assert Rules().ranking_key in evaluator._BUILT


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        ([[0, 0, 1, 2, 3]], "hand 0 has a repeated card"),
        ([[0, 1, 2, 3, 4], [5, 6, 7, 8, 8]], "hand 1 has a repeated card"),
        ([[0, 1, 2, 3, 32]], "card ids must be in 0..31, got 32"),
        ([[-1, 1, 2, 3, 4]], "card ids must be in 0..31, got -1"),
        ([1.0, 2.0, 3.0, 4.0, 5.0], "integer array"),
    ],
)
def test_bad_hands_are_refused_alike_before_the_table(hands, message, no_tables):
    with pytest.raises(CardError, match=message):
        evaluator.strength(hands)
    with pytest.raises(CardError, match=message):
        evaluator.category(hands)


def test_an_empty_batch_has_the_table_dtypes(no_tables):
    empty = np.zeros((0, 5), dtype=np.int64)
    assert evaluator.strength(empty).dtype == np.uint16
    assert evaluator.category(empty).dtype == np.uint8
