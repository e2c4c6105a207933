"""Correctness of the strategy frontier and of best responses over it.

* Reduced holdings (10 cards into 2 packets, 15 cards into 3): the frontier
  equals the non-dominated set of sorted strength profiles over every
  partition of the cards, enumerated here by brute force (only
  :func:`solver.game.evaluator.strength` is shared with the code under test).
* ``packets``, ``arrangement`` and ``strategies`` return what they promise.
* Full 25-card deals: the best response over the frontier has the value of
  the CP-SAT optimum, for every objective and opponent model.
* The bounded recursion gives exactly the frontier of the plain
  one: against the plain recursion itself on a few deals and rankings, and
  against fingerprints of the frontiers of 200 seeded deals made by the plain
  recursion (``tests/support/data/frontier_fingerprints.json``).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections import Counter
from itertools import permutations
from math import factorial, prod

import numpy as np
import pytest

from solver.game.cards import parse_cards
from solver.game.deal import deal
from solver.game.evaluator import hand_table, strength
from solver.game.rules import Rules
from solver.models.heuristics import greedy_arrangement, random_arrangements
from solver.models.opponents import Objective, Opponent, expected_value
from solver.models.packets import check_holding
from solver.response.best_response import SolveStatus, best_response
from solver.response.frontier import _flush_plans, cached_frontier, frontier
from solver.response.frontier_response import frontier_best_response, strategy_values
from solver.response.pareto import pareto_keep, strictly_dominated
from solver.response.rank_frontier import POW5, RankFrontiers, multiset_table, options_of
from tests.support import DATA
from tests.support import brute_force as bf

TWO = (6, 7)
THREE = (5, 6, 7)
OPTIONS = {
    "default": {},
    "ace_low": {"ace_low_straight": True},
    "manila": {"flush_beats_full_house": True},
    "both": {"ace_low_straight": True, "flush_beats_full_house": True},
}


# ======================================================================= brute force


def test_partition_counts():
    assert bf.partition_indices(10).shape == (126, 2, 5)
    assert bf.partition_indices(15).shape == (126_126, 3, 5)
    # Every partition really splits the indices, and they are all distinct.
    parts = bf.partition_indices(15)
    assert (np.sort(parts.reshape(parts.shape[0], -1), axis=1) == np.arange(15)).all()
    keys = {tuple(sorted(tuple(p) for p in row)) for row in parts[::97].tolist()}
    assert len(keys) == parts[::97].shape[0]


def as_set(rows: np.ndarray) -> set[tuple[int, ...]]:
    return {tuple(int(v) for v in row) for row in rows}


# ======================================================================= holdings


def _random_holding(rng: np.random.Generator, n: int) -> tuple[int, ...]:
    return tuple(sorted(int(c) for c in rng.choice(32, n, replace=False)))


def _suited_holding(rng: np.random.Generator, n: int) -> tuple[int, ...]:
    """Many cards of one suit (flushes, straight flushes), sometimes of two."""
    suit = int(rng.integers(4))
    n_suited = int(rng.integers(6, 9))
    suited = [int(r) * 4 + suit for r in rng.choice(8, n_suited, replace=False)]
    rest = [c for c in range(32) if c not in suited]
    if rng.random() < 0.5:  # a second rich suit
        other = (suit + 1) % 4
        rest = [c for c in rest if c & 3 == other] + [c for c in rest if c & 3 != other]
        extra = rest[: min(n - n_suited, 6)]
        rest = rest[len(extra) :]
        chosen = suited + extra
        chosen += [int(c) for c in rng.choice(rest, n - len(chosen), replace=False)]
    else:
        chosen = suited + [int(c) for c in rng.choice(rest, n - n_suited, replace=False)]
    return tuple(sorted(chosen))


def _quads_holding(rng: np.random.Generator, n: int) -> tuple[int, ...]:
    """One or two four-of-a-kinds."""
    n_quads = int(rng.integers(1, 3))
    ranks = rng.choice(8, n_quads, replace=False)
    quads = [int(r) * 4 + s for r in ranks for s in range(4)]
    rest = [c for c in range(32) if c not in quads]
    return tuple(sorted(quads + [int(c) for c in rng.choice(rest, n - len(quads), replace=False)]))


def _ace_low_holding(rng: np.random.Generator, n: int) -> tuple[int, ...]:
    """A-7-8-9-10 in one suit, plus more low cards: ace-low straights and straight flushes."""
    suit = int(rng.integers(4))
    core = [r * 4 + suit for r in (7, 0, 1, 2, 3)]
    low = [c for c in range(32) if c not in core and (c >> 2) in (7, 0, 1, 2, 3, 4)]
    extra = [int(c) for c in rng.choice(low, min(len(low), n - 5 - 2), replace=False)]
    rest = [c for c in range(32) if c not in core + extra]
    others = [int(c) for c in rng.choice(rest, n - 5 - len(extra), replace=False)]
    return tuple(sorted(core + extra + others))


def _holdings(seed: int, n: int, count: int) -> list[tuple[int, ...]]:
    rng = np.random.default_rng(seed)
    makers = [_random_holding, _suited_holding, _quads_holding, _ace_low_holding]
    return [makers[i % len(makers)](rng, n) for i in range(count)]


# Hand-made holdings where flushes, straight flushes and quads compete.
FIXED_TEN = [
    "As Ks Qs Js Ts 9s 8s 7s Ah Ad",  # eight spades: one straight flush only
    "7c 7d 7h 7s 8c 8d 8h 8s Ac Kc",  # two quads
    "Ac 7c 8c 9c Tc Ad 7d 8d 9d Td",  # two ace-low straight flushes (with the option)
    "Ah Kh Qh Jh 9h Ac Ad As Kc Kd",  # flush against full house
]
FIXED_FIFTEEN = [
    "As Ks Qs Js Ts 9s 8s 7s Ah Kh Qh Jh Th 9h 8h",
    "7c 7d 7h 7s 8c 8d 8h 8s 9c 9d 9h 9s Ac Kc Qc",
    "Ac 7c 8c 9c Tc Jc Ad 7d 8d 9d Td Ah Kh Qh Jh",
]


# ======================================================================= frontier = brute force


def check_frontier(holding, rules: Rules) -> None:
    front = frontier(holding, rules)
    expected = bf.brute_frontier(holding, rules)
    got = np.asarray(front.profiles)
    assert got.shape[1] == rules.n_packets
    assert (np.diff(got, axis=1) >= 0).all(), "profiles are not sorted"
    assert len(as_set(got)) == got.shape[0], "a profile is listed twice"
    assert as_set(got) == as_set(expected), (
        f"holding {holding}: missing {sorted(as_set(expected) - as_set(got))}, "
        f"extra {sorted(as_set(got) - as_set(expected))}"
    )
    check_packets(front, holding, rules)


def check_packets(front, holding, rules: Rules) -> None:
    """``packets(i)`` are real packets of the holding with sorted strengths ``profiles[i]``;
    ``packets_of`` (several at once, some rebuilt already, some twice) gives the same ones."""
    n = front.profiles.shape[0]
    together = frontier(front.holding, rules).packets_of([*range(0, n, 2), 0, *range(n)])
    for i in range(n):
        packets = np.asarray(front.packets(i))  # one at a time
        assert packets.shape == (rules.n_packets, 5)
        assert sorted(packets.ravel().tolist()) == sorted(holding), "not exactly the holding"
        values = strength(packets, rules).astype(np.int64)
        assert np.sort(values).tolist() == front.profiles[i].tolist()
        assert np.array_equal(together[len(range(0, n, 2)) + 1 + i], packets)


@pytest.mark.parametrize("option", list(OPTIONS))
def test_two_packets_random_holdings(option):
    rules = Rules(position_points=TWO, **OPTIONS[option])
    for holding in _holdings(seed=10 + len(option), n=10, count=40):
        check_frontier(holding, rules)


@pytest.mark.parametrize("option", list(OPTIONS))
@pytest.mark.parametrize("text", FIXED_TEN)
def test_two_packets_fixed_holdings(text, option):
    check_frontier(tuple(sorted(parse_cards(text))), Rules(position_points=TWO, **OPTIONS[option]))


@pytest.mark.parametrize(
    ("option", "seed"), [("default", 1), ("default", 2), ("ace_low", 3), ("manila", 4)]
)
def test_three_packets_random_holdings(option, seed):
    rules = Rules(position_points=THREE, **OPTIONS[option])
    for holding in _holdings(seed=seed, n=15, count=4):
        check_frontier(holding, rules)


@pytest.mark.parametrize(
    ("text", "option"), list(zip(FIXED_FIFTEEN, ["default", "manila", "both"], strict=True))
)
def test_three_packets_fixed_holdings(text, option):
    check_frontier(
        tuple(sorted(parse_cards(text))), Rules(position_points=THREE, **OPTIONS[option])
    )


# ======================================================================= strategies, arrangement


def check_strategies(front) -> None:
    n = front.rules.n_packets
    strengths, profile_index, order = (np.asarray(a) for a in front.strategies())
    assert strengths.shape[1] == n and order.shape[1] == n
    assert strengths.shape[0] == profile_index.shape[0] == order.shape[0]
    # Each row is profile[profile_index] in the given order, a permutation.
    assert (np.sort(order, axis=1) == np.arange(n)).all()
    rebuilt = front.profiles[profile_index[:, None], order]
    assert (rebuilt == strengths).all()
    # No duplicates, and every distinct ordering of every profile.
    rows = [tuple(r) for r in strengths.tolist()]
    assert len(rows) == len(set(rows))
    for i, profile in enumerate(front.profiles.tolist()):
        mine = {rows[k] for k in np.flatnonzero(profile_index == i)}
        assert mine == set(permutations(profile))
        multiplicities = Counter(profile).values()
        assert len(mine) == factorial(n) // prod(factorial(m) for m in multiplicities)


def check_arrangements(front, rng: np.random.Generator, per_profile: int = 2) -> None:
    n = front.rules.n_packets
    for i in range(front.profiles.shape[0]):
        packets = np.asarray(front.packets(i))
        for _ in range(per_profile):
            order = [int(k) for k in rng.permutation(n)]
            arrangement = front.arrangement(i, order)
            assert arrangement.n_packets == n
            for position, k in enumerate(order):
                assert sorted(arrangement.packets[position]) == sorted(packets[k].tolist())
            assert arrangement.strengths(front.rules).tolist() == front.profiles[i][order].tolist()
            arrangement.check(front.holding, front.rules)


def test_strategies_and_arrangements_reduced():
    rng = np.random.default_rng(5)
    for n, points in ((10, TWO), (15, THREE)):
        rules = Rules(position_points=points)
        for holding in _holdings(seed=50 + n, n=n, count=6):
            front = frontier(holding, rules)
            check_strategies(front)
            check_arrangements(front, rng)


@pytest.fixture(scope="module")
def full_frontiers():
    """Frontiers of a few full deals' holdings (mirror and independent)."""
    fronts = []
    for seed, rules in FULL_DEALS:
        d = deal(seed, rules)
        for holding in dict.fromkeys(d.holdings):
            fronts.append(cached_frontier(holding, rules))
    return fronts


def test_full_deal_packets_strategies_arrangements(full_frontiers):
    rng = np.random.default_rng(6)
    for front in full_frontiers:
        assert front.profiles.shape[1] == 5
        assert len(as_set(front.profiles)) == front.profiles.shape[0]
        # The frontier is an antichain.
        assert not bf.dominated_mask(front.profiles.astype(np.int64)).any()
        check_packets(front, front.holding, front.rules)
        check_strategies(front)
        orderings = Counter(np.asarray(front.strategies()[1]).tolist())
        assert max(orderings.values()) == 120  # five distinct strengths: 5! orderings
        check_arrangements(front, rng, per_profile=1)


def test_strategies_count_orderings_of_repeated_strengths():
    """Equal strengths give fewer orderings: one for (s, s), two for (s, t)."""
    # Two equal straights (same ranks, other suits) are equally strong.
    holding = tuple(sorted(parse_cards("7c 8d 9h Tc Jd 7d 8c 9s Td Jc")))
    front = frontier(holding, Rules(position_points=TWO))
    check_strategies(front)
    profiles = front.profiles.tolist()
    assert any(p[0] == p[1] for p in profiles)
    counts = Counter(front.strategies()[1].tolist())
    for i, profile in enumerate(profiles):
        assert counts[i] == (1 if profile[0] == profile[1] else 2)


# ======================================================================= best responses


def _mixture_of(holding, rules: Rules, rng: np.random.Generator) -> Opponent:
    """Strong and weak arrangements of ``holding``, unequal probabilities (exact at 1e-6)."""
    front = cached_frontier(tuple(holding), rules)
    n = rules.n_packets
    picks = [
        front.arrangement(int(rng.integers(front.profiles.shape[0])), rng.permutation(n))
        for _ in range(2)
    ]
    picks.append(greedy_arrangement(holding, rules))
    picks.append(random_arrangements(holding, 1, rng, rules)[0])
    return Opponent.mixture(picks, [0.4, 0.3, 0.2, 0.1], rules)


def _strong_mixture(holding, rules: Rules, rng: np.random.Generator, n: int = 8) -> Opponent:
    """``n`` frontier arrangements in random orders, probabilities 1 : 2 : ... : n."""
    front = cached_frontier(tuple(holding), rules)
    picks = [
        front.arrangement(
            int(rng.integers(front.profiles.shape[0])), rng.permutation(rules.n_packets)
        )
        for _ in range(n)
    ]
    probabilities = np.round(np.arange(1, n + 1) / (n * (n + 1) / 2), 6)
    probabilities[-1] = 1.0 - probabilities[:-1].sum()
    return Opponent.mixture(picks, probabilities, rules)


def _models(opponent_holding, rules: Rules, rng: np.random.Generator, objective: Objective):
    """The opponent models to compare on, for one objective."""
    random_model = Opponent.random(opponent_holding, rules)
    if not objective.separable:
        # Both solvers must see the same samples.
        random_model = random_model.sampled(12, rng)
    return {
        "random": random_model,
        "greedy": Opponent.known(greedy_arrangement(opponent_holding, rules), rules),
        "mixture": _mixture_of(opponent_holding, rules, rng),
    }


def compare_best_responses(
    mine, theirs, rules: Rules, objective: Objective, seed: int, strong=False
):
    """Frontier best response == CP-SAT optimum for each model; returns the values."""
    rng = np.random.default_rng(seed)
    models = _models(theirs, rules, rng, objective)
    if strong:
        models["strong"] = _strong_mixture(theirs, rules, rng)
    values = []
    for name, model in models.items():
        fast = frontier_best_response(mine, model, objective)
        exact = best_response(mine, model, objective)
        assert exact.status is SolveStatus.OPTIMAL
        assert fast.status is SolveStatus.OPTIMAL
        for result in (fast, exact):
            result.arrangement.check(mine, rules)
            rescored = float(expected_value(result.arrangement.strengths(rules), model, objective))
            assert rescored == pytest.approx(result.value, abs=1e-9)
        assert fast.value == pytest.approx(exact.value, abs=1e-9), (name, objective)
        # The frontier holds every strategy that matters: its best reaches the CP-SAT bound.
        assert fast.value >= exact.bound - 1e-6 - model.rounding_error * objective.span(rules)
        values.append(fast.value)
    return values


FULL_DEALS = [(5, Rules()), (6, Rules(discard_mode="independent"))]


@pytest.mark.parametrize("objective", list(Objective), ids=lambda o: o.value)
@pytest.mark.parametrize(("seed", "rules"), FULL_DEALS, ids=["mirror5", "independent6"])
def test_full_deal_best_response_equals_cpsat(seed, rules, objective):
    d = deal(seed, rules)
    compare_best_responses(d.holdings[0], d.holdings[1], rules, objective, seed)


@pytest.mark.parametrize("objective", list(Objective), ids=lambda o: o.value)
def test_reduced_best_response_equals_cpsat(objective):
    """The same comparison on 10- and 15-card holdings (cheap, more variety).

    Against strong mixtures of frontier arrangements, win and game are not
    trivially 1 here, unlike on full deals.
    """
    values = []
    for n, points, seed in ((10, TWO, 71), (15, THREE, 77)):
        rules = Rules(position_points=points, discard_mode="independent")
        mine, theirs = _holdings(seed=seed, n=n, count=2)
        values += compare_best_responses(mine, theirs, rules, objective, seed, strong=True)
    if not objective.separable:
        assert any(0.0 < v < 1.0 for v in values), values


def test_strategy_values_match_expected_value():
    """The vectorized values of all strategies equal the plain rescoring."""
    rules = Rules(position_points=THREE, discard_mode="independent")
    mine, theirs = _holdings(seed=8, n=15, count=2)
    strengths = np.asarray(cached_frontier(mine, rules).strategies()[0])
    rng = np.random.default_rng(8)
    for objective in Objective:
        for model in _models(theirs, rules, rng, objective).values():
            values = strategy_values(strengths, model, objective)
            expected = [float(expected_value(row, model, objective)) for row in strengths]
            assert np.allclose(values, expected, atol=1e-12, rtol=0)


# ======================================================================= bounded = plain recursion

FINGERPRINTS = DATA / "frontier_fingerprints.json"


def fingerprint(profiles: np.ndarray) -> str:
    """A short hash of a frontier's profiles (in the frontier's sorted order)."""
    return hashlib.sha256(np.ascontiguousarray(profiles, dtype="<i2").tobytes()).hexdigest()[:16]


def fingerprint_cases():
    """(key, holding, rules): both holdings of 100 independent deals, one of 100 mirror deals."""
    for mode in ("mirror", "independent"):
        rules = Rules(discard_mode=mode)
        for seed in range(100):
            d = deal(seed=seed, rules=rules)
            for player in (0, 1) if mode == "independent" else (0,):
                yield f"{mode}/{seed}/{player}", d.holdings[player], rules


def write_fingerprints() -> None:
    """Write the fixture.  It was made once by the plain recursion (commit
    c6fe5cb): ``PYTHONPATH=<checkout of c6fe5cb>:<this checkout> python
    tests/response/test_frontier.py --write-fingerprints`` (the old ``solver`` first on the
    path, this checkout's ``tests`` after it)."""
    stored = {}
    for key, holding, rules in fingerprint_cases():
        front = frontier(holding, rules)
        stored[key] = [int(front.profiles.shape[0]), fingerprint(front.profiles)]
    FINGERPRINTS.write_text(json.dumps(stored, indent=0, sort_keys=True) + "\n")


@pytest.mark.slow
def test_frontiers_equal_the_fingerprints_of_the_plain_recursion():
    """300 holdings of 200 seeded deals: the same profiles, in the same order."""
    stored = json.loads(FINGERPRINTS.read_text())
    got = {}
    for key, holding, rules in fingerprint_cases():
        front = frontier(holding, rules)
        got[key] = [int(front.profiles.shape[0]), fingerprint(front.profiles)]
    assert len(stored) == 300
    assert got == stored


def plain_profiles(holding, rules: Rules) -> np.ndarray:
    """The frontier by the plain recursion (no bounds): every flush plan's residual
    frontier with its flushes inserted, then the non-dominated rows."""
    plans = _flush_plans(check_holding(holding, rules), rules)
    store = RankFrontiers(hand_table(rules).multiset_strength)
    widths = rules.n_packets - plans.n_flushes
    roots: dict[int, set[int]] = {}
    for width, residual in zip(widths.tolist(), plans.residual.tolist(), strict=True):
        roots.setdefault(width, set()).add(residual)
    store.ensure(roots)
    rows = []
    for plan in range(plans.residual.shape[0]):
        rest = store.rows(int(widths[plan]), int(plans.residual[plan])).astype(np.int64)
        flushes = plans.strengths[plan][plans.strengths[plan] >= 0]
        both = np.column_stack([rest, np.broadcast_to(flushes, (rest.shape[0], flushes.shape[0]))])
        rows.append(np.sort(both, axis=1))
    stacked = np.concatenate(rows)
    profiles = stacked[pareto_keep(np.zeros(stacked.shape[0], dtype=np.int64), stacked)]
    return profiles[np.lexsort(profiles.T[::-1])]


@pytest.mark.parametrize("option", ["default", "ace_low", "manila"])
def test_bounded_frontier_equals_the_plain_recursion(option):
    """Full deals (one with a rich suit), every ranking: the same sorted profiles."""
    rules = Rules(**OPTIONS[option])
    holdings = [
        deal(seed=11, rules=rules).holdings[0],
        _suited_holding(np.random.default_rng(5), 25),
    ]
    for holding in holdings:
        np.testing.assert_array_equal(
            frontier(holding, rules).profiles, plain_profiles(holding, rules)
        )


@pytest.mark.parametrize("points", [TWO, THREE])
def test_bounded_frontier_with_an_all_flush_plan_equals_the_plain_recursion(points):
    """Every packet can be a flush: level 0 has complete profiles before level 1, whose
    bounds (otherwise never read, and not built) then prune; still the plain frontier."""
    rules = Rules().with_points(points)
    n = rules.n_packets
    rng = np.random.default_rng(n)
    for _ in range(3):
        holding = [int(r) * 4 + s for s in range(n) for r in rng.choice(8, 5, replace=False)]
        plans = _flush_plans(check_holding(holding, rules), rules)
        assert int(plans.n_flushes.max()) == n
        np.testing.assert_array_equal(
            frontier(holding, rules).profiles, plain_profiles(holding, rules)
        )


if __name__ == "__main__" and sys.argv[1:] == ["--write-fingerprints"]:
    write_fingerprints()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_strictly_dominated_equals_the_pairwise_definition(seed):
    # Enough others for several doubling blocks, and duplicates (equal is not dominated).
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, 6, size=(400, 4))
    others = np.concatenate([rng.integers(0, 6, size=(150, 4)), rows[:20]])
    expected = [any((o >= r).all() and (o != r).any() for o in others) for r in rows]
    assert strictly_dominated(rows, others).tolist() == expected
    assert not strictly_dominated(rows, others[:0]).any()


@pytest.mark.parametrize("width", [2, 3, 4])
def test_options_of_lists_every_fitting_multiset_holding_the_lowest_rank(width):
    counts, _, _ = multiset_table()
    rng = np.random.default_rng(width)
    states = []
    while len(states) < 40:
        state = np.zeros(8, dtype=np.int64)
        for rank in rng.choice(np.repeat(np.arange(8), 4), size=5 * width, replace=False):
            state[rank] += 1
        states.append(int(state @ POW5))
    states = np.array(sorted(set(states)), dtype=np.int64)
    state, multiset = options_of(states)
    got = list(zip(state.tolist(), multiset.tolist(), strict=True))
    expected = []
    for index, key in enumerate(states.tolist()):
        have = (key // POW5) % 5
        lowest = int(np.argmax(have > 0))
        for m in range(counts.shape[0]):
            if (counts[m] <= have).all() and counts[m][lowest] > 0:
                expected.append((index, m))
    assert got == expected
