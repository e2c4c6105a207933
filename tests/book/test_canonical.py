"""Canonical deals: keys invariant under the suits' relabellings, class counts by Burnside."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

from solver.book.canonical import (
    CARD_PERMUTATIONS,
    INVERSES,
    SUIT_PERMUTATIONS,
    canonical_key,
    canonical_masks,
    canonical_mirror_holdings,
    class_count,
    holding_of,
    mask_of,
    orbit_sizes,
    relabel,
    relabel_masks,
    removed_card_masks,
)
from solver.errors import CardError
from solver.game.deal import deal
from solver.game.rules import Rules


def test_permutation_tables_are_the_24_relabellings() -> None:
    assert SUIT_PERMUTATIONS.shape == (24, 4)
    assert len({tuple(p) for p in SUIT_PERMUTATIONS.tolist()}) == 24
    # Each relabelling keeps ranks and permutes the 32 cards.
    assert (np.sort(CARD_PERMUTATIONS, axis=1) == np.arange(32)).all()
    assert (np.arange(32) >> 2 == CARD_PERMUTATIONS >> 2).all()
    # INVERSES undoes each relabelling.
    composed = CARD_PERMUTATIONS[INVERSES[:, None], CARD_PERMUTATIONS]
    assert (composed == np.arange(32)).all()


def test_relabel_masks_matches_card_by_card_relabelling() -> None:
    rng = np.random.default_rng(0)
    for _ in range(20):
        cards = rng.choice(32, size=int(rng.integers(0, 33)), replace=False)
        images = relabel_masks(np.array([mask_of(cards)]))[0]
        expected = [mask_of(relabel(cards, g)) for g in range(24)]
        assert images.tolist() == expected


@pytest.mark.parametrize("mode", ["mirror", "independent"])
def test_every_relabelling_of_a_deal_has_the_same_key(mode: str) -> None:
    rules = Rules(discard_mode=mode)
    for seed in range(10):
        holdings = deal(seed, rules).holdings
        key, g = canonical_key(holdings)
        # g maps the deal to the key's holdings.
        assert (mask_of(relabel(holdings[0], g)), mask_of(relabel(holdings[1], g))) == key
        for h in range(24):
            image = (relabel(holdings[0], h), relabel(holdings[1], h))
            assert canonical_key(image)[0] == key
        # The key is the smallest image, pair by pair.
        images = {
            (mask_of(relabel(holdings[0], h)), mask_of(relabel(holdings[1], h))) for h in range(24)
        }
        assert key == min(images)
        assert orbit_sizes(np.array([key[0]]), np.array([key[1]]))[0] == len(images)


def test_players_order_is_kept() -> None:
    holdings = deal(3, Rules(discard_mode="independent")).holdings
    key, _ = canonical_key(holdings)
    swapped, _ = canonical_key((holdings[1], holdings[0]))
    assert swapped != key or holdings[0] == holdings[1]


def test_bad_holdings_are_refused() -> None:
    with pytest.raises(CardError, match="appears twice"):
        canonical_key(((1, 1), (2, 3)))
    with pytest.raises(CardError, match=r"0\.\.31"):
        canonical_key(((1, 40), (2, 3)))


def test_holding_of_inverts_mask_of() -> None:
    cards = (0, 5, 17, 31)
    assert holding_of(mask_of(cards)) == cards


def _brute_force_pair_classes(n_removed: int) -> int:
    """Orbits of ordered pairs of removed sets, by canonical keys of every pair."""
    masks = np.concatenate(list(removed_card_masks(n_removed)))
    images = relabel_masks(masks)  # (n, 24)
    pairs = (images[:, None, :] << 32) | images[None, :, :]  # (n, n, 24)
    return int(np.unique(pairs.min(axis=2)).size)


def test_burnside_matches_enumeration_for_small_removed_sets() -> None:
    for n_removed in range(0, 5):
        masks = np.concatenate(list(removed_card_masks(n_removed)))
        assert masks.size == comb(32, n_removed)
        assert np.unique(masks).size == masks.size
        assert class_count(n_removed) == np.unique(canonical_masks(masks)).size
    for n_removed in (1, 2):
        assert class_count(n_removed, pairs=True) == _brute_force_pair_classes(n_removed)


@pytest.mark.slow
def test_burnside_equals_enumeration_of_all_mirror_deals() -> None:
    """All C(32, 7) = 3,365,856 removed-card sets, canonicalized in chunks."""
    full = (1 << 32) - 1
    canonical = np.concatenate([canonical_masks(full ^ chunk) for chunk in removed_card_masks(7)])
    assert canonical.size == comb(32, 7) == 3_365_856
    classes = np.unique(canonical)
    assert classes.size == class_count(7) == 156_248
    # The streamed representatives are exactly these classes, and their
    # orbits cover every deal once.
    streamed = np.concatenate(list(canonical_mirror_holdings(7)))
    assert np.array_equal(np.sort(streamed), classes)
    assert int(orbit_sizes(streamed).sum()) == comb(32, 7)
