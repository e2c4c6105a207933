"""Exhaustive search over every ordered arrangement of a small holding.

Independent of the optimizer: only :func:`solver.game.evaluator.strength` (hand
strengths) and plain enumeration are used.  A holding of ``5 * m`` cards has
``(5m)! / (5!)**m`` ordered arrangements: 252 for ten cards into two packets,
756,756 for fifteen cards into three.

Values are computed here from first principles:

* against a uniformly random opponent (points, margin): each position's
  packet is a uniformly random five-card subset of the opponent's cards, so
  the chances come from counting all ``C(n, 5)`` subsets;
* against a finite list of opponent profiles with probabilities (known,
  greedy, mixture, sampled): position by position comparison, summed with
  the exact probabilities.

Each arrangement is reduced to its strength profile (packet strengths in
position order); objectives depend only on the profile, so the maxima are
taken over the distinct profiles.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np

from solver.game.evaluator import category, strength
from solver.game.rules import Rules

OBJECTIVES = ("points", "margin", "win", "game")


@lru_cache(maxsize=4)
def ordered_indices(n_cards: int) -> np.ndarray:
    """Every ordered split of ``range(n_cards)`` into five-card packets, ``(N, m, 5)``."""
    assert n_cards % 5 == 0 and n_cards > 0
    if n_cards == 5:
        out = np.arange(5, dtype=np.int8).reshape(1, 1, 5)
        out.setflags(write=False)
        return out
    first = np.array(list(combinations(range(n_cards), 5)), dtype=np.int8)
    everything = np.arange(n_cards)
    rest = np.array([np.setdiff1d(everything, row) for row in first], dtype=np.int8)
    sub = ordered_indices(n_cards - 5)  # (M, m - 1, 5) indices into ``rest``
    tails = rest[:, sub]  # (C, M, m - 1, 5)
    heads = np.broadcast_to(first[:, None, None, :], (first.shape[0], sub.shape[0], 1, 5))
    out = np.concatenate([heads, tails], axis=2).reshape(-1, n_cards // 5, 5)
    out.setflags(write=False)
    return out


@dataclass(frozen=True, eq=False)
class Enumeration:
    """All ordered arrangements of one holding under one ranking rule set."""

    cards: np.ndarray  # (n,) the holding, sorted
    arrangements: np.ndarray  # (N, m, 5) card ids
    profiles: np.ndarray  # (U, m) distinct strength profiles
    inverse: np.ndarray  # (N,) row of ``profiles`` of each arrangement

    @property
    def n_packets(self) -> int:
        return int(self.arrangements.shape[1])

    def categories(self, rules: Rules) -> np.ndarray:
        """``(N, m)`` category of every packet of every arrangement."""
        return category(self.arrangements, rules)


@lru_cache(maxsize=32)
def _enumerate(cards: tuple[int, ...], ranking_key: tuple[bool, bool]) -> Enumeration:
    rules = Rules(ace_low_straight=ranking_key[0], flush_beats_full_house=ranking_key[1])
    held = np.array(sorted(cards), dtype=np.int64)
    arrangements = held[ordered_indices(held.shape[0])]
    strengths = strength(arrangements, rules).astype(np.int64)
    key = np.zeros(strengths.shape[0], dtype=np.int64)
    for p in range(strengths.shape[1]):
        key = key * 1024 + strengths[:, p]
    unique_keys, inverse = np.unique(key, return_inverse=True)
    m = strengths.shape[1]
    profiles = np.empty((unique_keys.shape[0], m), dtype=np.int64)
    rest = unique_keys.copy()
    for p in range(m - 1, -1, -1):
        profiles[:, p] = rest % 1024
        rest //= 1024
    return Enumeration(held, arrangements, profiles, inverse.reshape(-1))


def enumerate_arrangements(cards, rules: Rules) -> Enumeration:
    """Every ordered arrangement of ``cards`` (5 * n_packets of them)."""
    cards = tuple(sorted(int(c) for c in cards))
    assert len(cards) == 5 * rules.n_packets
    return _enumerate(cards, rules.ranking_key)


@lru_cache(maxsize=32)
def _subset_strengths(cards: tuple[int, ...], ranking_key: tuple[bool, bool]) -> np.ndarray:
    rules = Rules(ace_low_straight=ranking_key[0], flush_beats_full_house=ranking_key[1])
    hands = np.array(list(combinations(cards, 5)), dtype=np.int64)
    out = np.sort(strength(hands, rules).astype(np.int64))
    out.setflags(write=False)
    return out


def random_chances(strengths, opponent_cards, rules: Rules):
    """Exact chances that a packet of each strength beats, ties, loses to a random packet.

    Counts over all ``C(n, 5)`` five-card subsets of the opponent's cards.
    Returns ``(win, tie, loss)`` float arrays shaped like ``strengths``.
    """
    table = _subset_strengths(tuple(sorted(int(c) for c in opponent_cards)), rules.ranking_key)
    s = np.asarray(strengths, dtype=np.int64)
    below = np.searchsorted(table, s, side="left")
    not_above = np.searchsorted(table, s, side="right")
    total = table.shape[0]
    return below / total, (not_above - below) / total, (total - not_above) / total


def values_vs_random(profiles, opponent_cards, rules: Rules, objective: str) -> np.ndarray:
    """Points or margin of each profile against a uniformly random arrangement."""
    win, _, loss = random_chances(profiles, opponent_cards, rules)
    w = np.asarray(rules.position_points, dtype=np.float64)
    if objective == "points":
        return win @ w
    if objective == "margin":
        return (win - loss) @ w
    raise ValueError(f"{objective} against a random opponent needs samples")


def values_vs_profiles(profiles, theirs, probabilities, rules: Rules, objective: str) -> np.ndarray:
    """Value of each of ``profiles`` (U, m) against ``theirs`` (K, m) with probabilities."""
    profiles = np.asarray(profiles, dtype=np.int64)
    theirs = np.asarray(theirs, dtype=np.int64)
    q = np.asarray(probabilities, dtype=np.float64)
    w = np.asarray(rules.position_points, dtype=np.int64)
    out = np.zeros(profiles.shape[0], dtype=np.float64)
    for j in range(theirs.shape[0]):
        mine_pts = (profiles > theirs[j]) @ w
        their_pts = (profiles < theirs[j]) @ w
        margin = mine_pts - their_pts
        if objective == "points":
            value = mine_pts.astype(np.float64)
        elif objective == "margin":
            value = margin.astype(np.float64)
        elif objective == "win":
            value = (margin > 0).astype(np.float64)
        elif objective == "game":
            value = (margin > 0) + 0.5 * (margin == 0)
        else:
            raise ValueError(objective)
        out += q[j] * value
    return out


def profile_values(enum: Enumeration, model, rules: Rules, objective: str) -> np.ndarray:
    """Value of each distinct profile of ``enum`` against ``model``.

    ``model`` is ``("random", opponent_cards)`` or ``("profiles", theirs, probabilities)``.
    """
    if model[0] == "random":
        return values_vs_random(enum.profiles, model[1], rules, objective)
    return values_vs_profiles(enum.profiles, model[1], model[2], rules, objective)


def best_value(enum: Enumeration, model, rules: Rules, objective: str) -> float:
    """The brute-force optimum."""
    return float(profile_values(enum, model, rules, objective).max())


def top_distinct_values(enum: Enumeration, model, rules: Rules, objective: str, k: int):
    """Values of the ``k`` best distinct profiles, best first."""
    values = np.sort(profile_values(enum, model, rules, objective))[::-1]
    return [float(v) for v in values[:k]]


# ---------------------------------------------------------------- frontiers by brute force


@lru_cache(maxsize=4)
def partition_indices(n_cards: int) -> np.ndarray:
    """Every unordered split of ``range(n_cards)`` into five-card packets, ``(N, n/5, 5)``.

    Each packet holds the lowest index not in an earlier packet, so every
    partition appears exactly once: 126 for ten cards, 126,126 for fifteen.
    """
    if n_cards == 0:
        return np.zeros((1, 0, 5), dtype=np.int64)
    heads = np.array([(0, *c) for c in combinations(range(1, n_cards), 4)], dtype=np.int64)
    rests = np.array(
        [[i for i in range(n_cards) if i not in set(head)] for head in heads], dtype=np.int64
    ).reshape(heads.shape[0], n_cards - 5)
    sub = partition_indices(n_cards - 5)  # indices into each rest
    tails = rests[:, sub]  # (C, M, m - 1, 5)
    first = np.broadcast_to(heads[:, None, None, :], (heads.shape[0], sub.shape[0], 1, 5))
    return np.concatenate([first, tails], axis=2).reshape(-1, n_cards // 5, 5)


def dominated_mask(profiles: np.ndarray) -> np.ndarray:
    """Plain O(n^2) check over *distinct* rows: is some other row >= in every column?

    (Between distinct rows, >= everywhere means dominated.)
    """
    n = profiles.shape[0]
    assert np.unique(profiles, axis=0).shape[0] == n
    dominated = np.zeros(n, dtype=bool)
    for start in range(0, n, 1024):
        block = profiles[start : start + 1024]
        ge = np.ones((block.shape[0], n), dtype=bool)  # ge[i, j]: row j >= row i
        for column in range(profiles.shape[1]):
            ge &= profiles[None, :, column] >= block[:, None, column]
        dominated[start : start + 1024] = ge.sum(axis=1) > 1  # itself, and another
    return dominated


def brute_frontier(holding, rules: Rules) -> np.ndarray:
    """Non-dominated sorted strength profiles over every partition, lexicographic order."""
    cards = np.array(sorted(holding), dtype=np.int64)
    packets = cards[partition_indices(cards.shape[0])]
    profiles = np.sort(strength(packets, rules).astype(np.int64), axis=1)
    distinct = np.unique(profiles, axis=0)
    return distinct[~dominated_mask(distinct)]
