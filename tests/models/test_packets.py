"""The subsets of a holding: unranked by numpy, equal to itertools' enumeration."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from solver.game.evaluator import strength
from solver.game.ranking import ranking
from solver.game.rules import Rules
from solver.models.packets import strength_counts, subsets


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 6])
def test_subsets_equal_itertools_in_order_and_type(k):
    for n in range(34):
        expected = np.array(list(combinations(range(n), k)), dtype=np.int8).reshape(-1, k)
        found = subsets(n, k)
        assert found.dtype == expected.dtype
        assert found.shape == expected.shape
        assert np.array_equal(found, expected)
        assert not found.flags.writeable


RULE_SETS = [
    Rules(),
    Rules(ace_low_straight=True),
    Rules(flush_beats_full_house=True),
    Rules(position_points=(6, 7)),
    Rules(position_points=(5, 6, 7)),
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.n_packets}-{r.ranking_key}")
def test_strength_counts_equal_the_strengths_of_every_subset(rules):
    # The reference: every five-card subset, one by one (itertools), evaluated hand by hand.
    rng = np.random.default_rng(2026)
    size = 5 * rules.n_packets
    holdings = [sorted(rng.choice(32, size, replace=False).tolist()) for _ in range(25)]
    holdings.append(list(range(size)))  # suits interleaved: the most straight flushes
    holdings.append(sorted([4 * r + s for s in range(4) for r in range(8)][:size]))  # whole suits
    n_strengths = ranking(rules).n_strengths
    for holding in holdings:
        hands = np.array(list(combinations(holding, 5)))
        reference = np.bincount(strength(hands, rules), minlength=n_strengths)
        assert np.array_equal(strength_counts(holding, rules), reference), holding
