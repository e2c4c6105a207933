"""The greedy and house players varied with a seed (the web app's table)."""

from __future__ import annotations

import numpy as np
import pytest

from solver.game.arrangement import Arrangement
from solver.game.deal import deal
from solver.game.evaluator import category
from solver.game.rules import DiscardMode, Rules
from solver.models.heuristics import greedy_arrangement
from solver.models.house import house_arrangement
from solver.play.variation import varied

LAYOUTS = {"greedy": greedy_arrangement, "house": house_arrangement}


def _categories(arrangement: Arrangement, rules: Rules) -> list[int]:
    return category(np.array(arrangement.packets), rules).tolist()


@pytest.mark.parametrize("name", sorted(LAYOUTS))
@pytest.mark.parametrize(
    "rules", [Rules(), Rules(discard_mode=DiscardMode.INDEPENDENT, ace_low_straight=True)]
)
def test_a_varied_layout_keeps_the_cards_and_every_positions_combination(name, rules):
    for seed in range(12):
        holding = deal(seed, rules).holdings[1]
        laid = LAYOUTS[name](holding, rules)
        for variation in range(4):
            other = varied(laid, np.random.default_rng([seed, 2, variation]), rules)
            other.check(holding, rules)
            assert _categories(other, rules) == _categories(laid, rules)


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_a_deal_met_again_is_not_laid_out_the_same_way(name):
    """Over a few seeds of the match, the layouts differ (most deals allow exchanges)."""
    varied_deals = 0
    for seed in range(20):
        laid = LAYOUTS[name](deal(seed).holdings[1])
        layouts = {varied(laid, np.random.default_rng([seed, 2, v])) for v in range(6)}
        varied_deals += len(layouts) > 1
    assert varied_deals >= 15


def test_the_same_seed_gives_the_same_layout():
    laid = house_arrangement(deal(3).holdings[1])
    first = varied(laid, np.random.default_rng(7))
    assert first == varied(laid, np.random.default_rng(7))
    assert varied(laid, np.random.default_rng(7), swaps=0) == laid
