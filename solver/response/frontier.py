"""The strategy frontier of a holding: every arrangement that can ever be best.

Against any opponent model, for points, margin, win or game, the value of
an arrangement depends only on its packets' strengths in position order,
and never decreases when a packet gets stronger.  So only the sorted
strength profiles that no other achievable profile dominates (component by
component) matter: the **frontier**.  With its orderings it is every
strategy worth considering, and it depends on the holding alone.

Computation.  A non-flush packet's strength depends only on its ranks, so
partitions are first built at the level of rank counts:

    F(c) = Pareto( { sorted(p + [strength(m)]) : m a rank multiset <= c
                     holding the lowest rank of c, p in F(c - m) } )

(choosing the packet of the lowest rank counts each partition once; a
dominated sub-profile stays dominated after any insertion, so pruning at
every level is exact).  Flushes are explicit: at most one per suit, every
combination of them is a root ``c - ranks(flushes)`` whose profiles get the
flush strengths inserted.  The recursion runs level by level for this
holding alone, with branch and bound
(:mod:`solver.response.bounded_frontier`): a row whose best conceivable
completion is strictly dominated by a profile already achieved is dropped,
which removes over 99% of the rows of the middle levels and leaves the
frontier exactly the same.  Back-pointers (the multiset chosen at each
level, and the row it extends) rebuild concrete packets.

>>> from solver.game.deal import deal
>>> front = frontier(deal(seed=2).holdings[0])
>>> front.profiles.shape[1], bool((np.diff(front.profiles, axis=1) >= 0).all())
(5, True)
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import combinations, permutations

import numpy as np

from solver.game.arrangement import Arrangement
from solver.game.cards import HAND_SIZE, N_SUITS
from solver.game.evaluator import strength
from solver.game.ranking import ranking
from solver.game.rules import Rules, rules_or_default
from solver.models.packets import (
    PacketOptions,
    check_holding,
    packet_options,
    rank_counts,
    rank_counts_rows,
    realize,
)
from solver.response.bounded_frontier import HoldingFrontiers
from solver.response.pareto import pareto_keep, unique_rows
from solver.response.rank_frontier import POW5

__all__ = ["Frontier", "cached_frontier", "frontier"]


@dataclass(frozen=True)
class _FlushPlans:
    """Every set of flushes (at most one per suit), as arrays over plans.

    ``cards[p]`` holds plan ``p``'s flushes (rows of -1 pad the suits without
    one), ``strengths[p]`` their strengths (-1 pads), ``residual[p]`` the key
    of the rank counts left for the other packets.
    """

    cards: np.ndarray  # (P, 4, 5)
    strengths: np.ndarray  # (P, 4)
    n_flushes: np.ndarray  # (P,)
    residual: np.ndarray  # (P,)


def _flush_plans(cards: tuple[int, ...], rules: Rules) -> _FlushPlans:
    """Every combination of at most one flush per suit, and none."""
    counts = rank_counts(cards)
    choices, values, usages = [], [], []
    for suit in range(N_SUITS):
        suited = [c for c in cards if c & 3 == suit]
        flushes = np.array(list(combinations(suited, HAND_SIZE)), dtype=np.int64).reshape(-1, 5)
        choices.append(np.vstack([np.full((1, HAND_SIZE), -1), flushes]))
        suit_strength = strength(flushes, rules).astype(np.int64)
        values.append(np.concatenate([[-1], suit_strength]))
        # Rank-count keys are linear (no borrow): a plan's residual is the
        # holding's key minus its flushes' keys.
        usages.append(np.concatenate([[0], rank_counts_rows(flushes) @ POW5]))
    sizes = [choice.shape[0] for choice in choices]
    pick = np.indices(sizes).reshape(N_SUITS, -1).T  # (P, 4): option per suit
    chosen_values = np.stack([values[s][pick[:, s]] for s in range(N_SUITS)], axis=1)
    residual = int(counts @ POW5) - sum(usages[s][pick[:, s]] for s in range(N_SUITS))
    n_flushes = (chosen_values >= 0).sum(axis=1)
    # Plans with the same residual ranks and flush strengths are interchangeable.
    sorted_values = np.sort(chosen_values, axis=1)
    ok = n_flushes <= rules.n_packets
    key_rows = np.column_stack([sorted_values + 1, residual % 1024, residual // 1024])
    first = unique_rows(np.zeros(int(ok.sum()), dtype=np.int64), key_rows[ok])
    index = np.flatnonzero(ok)[first]
    # Cards only for the plans kept (there may be many more plans).
    plan_cards = np.stack([choices[s][pick[index, s]] for s in range(N_SUITS)], axis=1)
    return _FlushPlans(
        cards=plan_cards,
        strengths=chosen_values[index],
        n_flushes=n_flushes[index],
        residual=residual[index],
    )


def _plans_by_width(plans: _FlushPlans, n_packets: int) -> dict[int, np.ndarray]:
    """The plans leaving each number of packets to the rank-state recursion."""
    return {
        n_packets - int(n): np.flatnonzero(plans.n_flushes == n)
        for n in sorted(set(plans.n_flushes.tolist()))
    }


@dataclass(frozen=True, eq=False)
class Frontier:
    """The frontier of a holding.

    Attributes
    ----------
    holding, rules
        What it was computed for.
    profiles
        ``(n, n_packets)`` int32 non-dominated sorted strength profiles.
    seconds
        Time taken to compute it.
    """

    holding: tuple[int, ...]
    rules: Rules
    profiles: np.ndarray
    seconds: float
    _plans: _FlushPlans
    _store: HoldingFrontiers
    _origin: np.ndarray  # (n, 2): flush plan, row within its residual state

    @cached_property
    def _options(self) -> PacketOptions:
        # Built once: an equilibrium's support asks for hundreds of packets.
        return packet_options(self.holding, self.rules)

    @cached_property
    def _rebuilt(self) -> dict[int, np.ndarray]:
        # Profiles' packets rebuilt so far: a solve's found and canonical
        # equilibria use mostly the same profiles (0.25 ms each to rebuild).
        return {}

    def packets(self, index: int) -> np.ndarray:
        """Concrete packets of profile ``index``, weakest first: ``(n_packets, 5)`` cards (read-only)."""
        return self.packets_of([index])[0]

    def packets_of(self, indices: Iterable[int]) -> list[np.ndarray]:
        """:meth:`packets` of each profile of ``indices``; those not rebuilt yet are
        evaluated together (one strength lookup: a mixture asks for a dozen or more)."""
        indices = [int(i) for i in indices]
        missing = [i for i in dict.fromkeys(indices) if i not in self._rebuilt]
        if missing:
            built = np.stack([self._realized(i) for i in missing])
            values = strength(built, self.rules)
            order = np.argsort(values, axis=1, kind="stable")
            for k, index in enumerate(missing):
                if not np.array_equal(values[k, order[k]], self.profiles[index]):
                    raise AssertionError("frontier packets do not rebuild their profile")
                rebuilt = built[k, order[k]]
                rebuilt.flags.writeable = False
                self._rebuilt[index] = rebuilt
        return [self._rebuilt[i] for i in indices]

    def _realized(self, index: int) -> np.ndarray:
        """Concrete packets of profile ``index``, in the order its back-pointers give them."""
        plan_index, row = (int(v) for v in self._origin[index])
        plan_cards = [f for f in self._plans.cards[plan_index] if f[0] >= 0]
        width = self.rules.n_packets - len(plan_cards)
        multisets = self._store.trace(width, int(self._plans.residual[plan_index]), row)
        options = self._options
        plain = options.flush_suit < 0
        chosen = [int(np.flatnonzero(plain & (options.multiset == m))[0]) for m in multisets]
        for flush in plan_cards:
            match = (np.sort(options.flush_cards, axis=1) == np.sort(flush)).all(axis=1)
            chosen.append(int(np.flatnonzero(match)[0]))
        return realize(options, chosen)

    def strategies(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every ordering of every profile: ``(strengths, profile index, order)``.

        ``strengths[i, p]`` is the strength at position ``p`` of strategy ``i``;
        position ``p`` holds the ``order[i, p]``-th weakest packet of profile
        ``profile_index[i]``.  Repeated strengths give each ordering once.
        Built once (grading and both payoffs' equilibria ask again), read-only.
        """
        return self._strategies

    @cached_property
    def _strategies(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n = self.rules.n_packets
        orders = np.array(list(permutations(range(n))), dtype=np.int64)
        every = self.profiles[:, orders]  # (profiles, orders, n)
        profile = np.repeat(np.arange(self.profiles.shape[0]), orders.shape[0])
        flat = every.reshape(-1, n)
        first = unique_rows(profile, flat)
        table = (
            flat[first].astype(np.int32),
            profile[first],
            np.tile(orders, (self.profiles.shape[0], 1))[first],
        )
        for array in table:
            array.flags.writeable = False
        return table

    def arrangement(self, index: int, order: Iterable[int]) -> Arrangement:
        """The arrangement placing profile ``index``'s packets in ``order``."""
        packets = self.packets(index)
        return Arrangement(tuple(tuple(int(c) for c in packets[k]) for k in order))


def frontier(holding: Iterable[int], rules: Rules | None = None) -> Frontier:
    """The frontier of ``holding`` (see the module docstring).

    >>> frontier(range(24))
    Traceback (most recent call last):
        ...
    solver.errors.CardError: holding: expected 25 cards, got 24
    """
    started = time.perf_counter()
    rules = rules_or_default(rules)
    cards = check_holding(holding, rules)
    plans = _flush_plans(cards, rules)
    members = _plans_by_width(plans, rules.n_packets)
    roots = {
        width: (
            plans.residual[plan],
            np.sort(plans.strengths[plan], axis=1)[:, N_SUITS - (rules.n_packets - width) :],
        )
        for width, plan in members.items()
    }
    store = HoldingFrontiers(ranking(rules).multiset_strength, roots, rules.n_packets)
    # Each plan's residual frontier rows with its flush strengths inserted.
    stacked = store.candidates
    keep = np.flatnonzero(pareto_keep(np.zeros(stacked.shape[0], dtype=np.int64), stacked))
    width, plan, row = store.origin[keep].T
    origin = np.column_stack(
        [np.array([members[w][p] for w, p in zip(width.tolist(), plan.tolist(), strict=True)]), row]
    ).reshape(-1, 2)
    profiles = stacked[keep].astype(np.int32)
    order = np.lexsort(profiles.T[::-1])
    return Frontier(
        holding=cards,
        rules=rules,
        profiles=profiles[order],
        seconds=time.perf_counter() - started,
        _plans=plans,
        _store=store,
        _origin=origin[order],
    )


def cached_frontier(holding: tuple[int, ...], rules: Rules) -> Frontier:
    """The frontier of a holding, kept for reuse (equilibria ask many times).

    The arguments are checked before the cache (a list is no key, ``1.0`` would
    hit the entry of card 1); ``cached_frontier.cache_clear()`` empties it.

    >>> cached_frontier([0, 1, 2, 3, 4, 5, 6, 7, 8, 9.0], Rules(position_points=(6, 7)))
    Traceback (most recent call last):
        ...
    solver.errors.CardError: holding: card id 9.0 is not an integer
    """
    rules = rules_or_default(rules)
    return _cached_frontier(check_holding(holding, rules), rules)


@lru_cache(maxsize=64)
def _cached_frontier(holding: tuple[int, ...], rules: Rules) -> Frontier:
    return frontier(holding, rules)


cached_frontier.cache_clear = _cached_frontier.cache_clear  # type: ignore[attr-defined]
