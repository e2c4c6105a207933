"""The verifier's maximal strength profiles: against the solver's frontier, and their premise."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from solver.game.deal import deal
from solver.game.rules import Rules
from solver.response.frontier import frontier
from solver.verify.ranking import packet_key
from solver.verify.search import maximal_profiles


def _solver_profiles(holding, rules: Rules, key) -> set[tuple]:
    """The solver's frontier, each profile's packets re-ranked by the verifier's key."""
    front = frontier(holding, rules)
    return {
        tuple(
            sorted(
                (key(tuple(int(c) for c in packet)) for packet in front.packets(i)), reverse=True
            )
        )
        for i in range(front.profiles.shape[0])
    }


def _verifier_profiles(holding, key) -> set[tuple]:
    rows, packings = maximal_profiles(holding, key)
    # Every row is realised by its packing: the packets' keys are at least the row's.
    for row, packing in zip(rows, packings, strict=True):
        assert sorted(c for p in packing for c in p) == sorted(holding)
        assert len(packing) == len(row)
    return {tuple(sorted((key(p) for p in packing), reverse=True)) for packing in packings}


def _key(rules: Rules):
    return lambda packet: packet_key(
        packet,
        ace_low_straight=rules.ace_low_straight,
        flush_beats_full_house=rules.flush_beats_full_house,
    )


def _check(seed: int, rules: Rules) -> None:
    holding = deal(seed, rules).holdings[0]
    key = _key(rules)
    assert _verifier_profiles(holding, key) == _solver_profiles(holding, rules, key)


def test_the_maximal_profiles_are_the_solvers_frontier():
    _check(2, Rules())


@pytest.mark.slow
@pytest.mark.parametrize("seed", [4, *range(10, 20)])
@pytest.mark.parametrize(
    "options",
    [{}, {"ace_low_straight": True}, {"flush_beats_full_house": True}],
    ids=["standard", "ace-low", "flush-beats-full-house"],
)
def test_the_maximal_profiles_are_the_solvers_frontier_on_more_deals(seed, options):
    _check(seed, Rules(**options))


@pytest.mark.slow
def test_a_flush_heavy_holding_keeps_its_flushes():
    # Every card of two suits and a few more: many sets of flushes.
    holding = [c for c in range(32) if c % 4 in (0, 1)] + [2, 6, 10, 14, 18, 22, 26, 30, 3]
    key = _key(Rules())
    assert _verifier_profiles(holding, key) == _solver_profiles(holding, Rules(), key)


@pytest.mark.slow
@pytest.mark.parametrize("options", [(False, False), (True, False), (False, True), (True, True)])
def test_a_packets_key_depends_on_its_ranks_and_being_a_flush_only(options):
    """The premise of the rank-count recursion, over all 201,376 packets."""
    by_ranks: dict[tuple, tuple] = {}
    for packet in combinations(range(32), 5):
        ranks = tuple(sorted(c // 4 for c in packet))
        flush = len({c % 4 for c in packet}) == 1
        key = packet_key(packet, *options)
        assert by_ranks.setdefault((ranks, flush), key) == key


def test_no_cards_of_a_rank_left_is_not_an_error_and_rows_are_sorted():
    rows, _ = maximal_profiles(range(10, 25), packet_key)
    assert rows.shape[1] == 3
    assert bool((np.diff(rows, axis=1) <= 0).all())
