"""The seeded deal: structure, reproducibility, mirror and independent discards."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.errors import RulesError
from solver.game.deal import Deal, deal, make_rng
from solver.game.rules import Rules

DECK = set(range(32))


@pytest.mark.parametrize("seed", [0, 1, 7, 123456, 2**40])
@pytest.mark.parametrize("mode", ["mirror", "independent"])
def test_deal_structure(seed, mode):
    rules = Rules(discard_mode=mode)
    d = deal(seed=seed, rules=rules)
    assert isinstance(d, Deal)
    assert d.seed == seed and d.rules == rules
    assert d.dealer in (0, 1)
    for player in (0, 1):
        held, exposed = d.holdings[player], d.exposed[player]
        assert len(held) == len(set(held)) == 25
        assert len(exposed) == len(set(exposed)) == 7
        assert set(held) | set(exposed) == DECK
        assert not set(held) & set(exposed)
        assert list(held) == sorted(held) and list(exposed) == sorted(exposed)
        assert all(isinstance(c, int) for c in held + exposed)
    assert all(1 <= cut <= 31 for cut in d.cuts)
    assert len(d.cuts) == (1 if mode == "mirror" else 2)


@given(st.integers(0, 2**63 - 1))
def test_same_seed_same_deal(seed):
    for mode in ("mirror", "independent"):
        rules = Rules(discard_mode=mode)
        assert deal(seed, rules) == deal(seed, rules)


@given(st.integers(0, 2**32))
def test_mirror_both_hold_the_same(seed):
    d = deal(seed)
    assert d.exposed[0] == d.exposed[1]
    assert d.holdings[0] == d.holdings[1]


def test_independent_exposed_differ_for_most_seeds():
    rules = Rules(discard_mode="independent")
    differ = sum(
        deal(seed, rules).exposed[0] != deal(seed, rules).exposed[1] for seed in range(200)
    )
    # Two independent 7-card draws coincide with probability 1 / C(32, 7) ~ 3e-7.
    assert differ == 200


def test_seeds_give_different_deals():
    mirror = {deal(seed).exposed[0] for seed in range(200)}
    assert len(mirror) == 200
    independent = {deal(seed, Rules(discard_mode="independent")).exposed for seed in range(200)}
    assert len(independent) == 200


def test_independent_second_draw_depends_on_the_seed():
    # Both players' turned-up cards change with the seed, the non-dealer's too.
    rules = Rules(discard_mode="independent")
    deals = [deal(seed, rules) for seed in range(200)]
    dealer_sets = {d.exposed[d.dealer] for d in deals}
    other_sets = {d.exposed[1 - d.dealer] for d in deals}
    assert len(dealer_sets) == 200 and len(other_sets) == 200
    # The two draws are independent: on average 7 * 7 / 32 ~ 1.53 cards in common.
    overlap = np.mean([len(set(d.exposed[0]) & set(d.exposed[1])) for d in deals])
    assert 1.0 < overlap < 2.1


def test_dealer_is_drawn_by_lot():
    dealers = [deal(seed).dealer for seed in range(200)]
    assert 40 < sum(dealers) < 160  # both players deal, roughly half the time each


def test_exposed_cards_are_spread_over_the_deck():
    # Over many deals every card is turned up sometimes, at roughly 7/32 of the deals.
    counts = np.zeros(32)
    n = 2000
    for seed in range(n):
        counts[list(deal(seed).exposed[0])] += 1
    expected = n * 7 / 32
    assert counts.min() > expected * 0.7 and counts.max() < expected * 1.3


def test_deal_with_generator_and_none():
    rng = np.random.default_rng(5)
    d = deal(rng)
    assert d.seed is None
    assert deal(np.random.default_rng(5)).holdings == d.holdings
    fresh = deal(None)
    assert fresh.seed is None and len(fresh.holdings[0]) == 25


def test_deal_reduced_game():
    # 32 - 5 * n_packets cards are turned up.
    d = deal(3, Rules(position_points=(6, 7)))
    assert len(d.holdings[0]) == 10 and len(d.exposed[0]) == 22
    assert set(d.holdings[0]) | set(d.exposed[0]) == DECK


@pytest.mark.parametrize("seed", [-1, "x", 1.5, True, [1]])
def test_bad_seed(seed):
    with pytest.raises(RulesError, match="seed"):
        deal(seed)
    with pytest.raises(RulesError, match="seed"):
        make_rng(seed)


def test_make_rng_reproducible():
    assert make_rng(3).integers(10**9) == make_rng(3).integers(10**9)
    rng = np.random.default_rng(1)
    assert make_rng(rng) is rng
    assert make_rng(np.int64(4)).integers(10**9) == make_rng(4).integers(10**9)
