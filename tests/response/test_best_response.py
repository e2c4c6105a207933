"""Correctness of the CP-SAT best response.

* Reduced games (10 cards into 2 packets, 15 cards into 3) are solved by
  exhaustive search over every ordered arrangement (``brute_force``); the
  optimizer's value must equal the brute-force optimum for every objective
  and every opponent model, in mirror and independent deals, under the rule
  options.
* Every reported value (and the per-position chances) is rescored here
  independently: with :func:`solver.game.arrangement.score` against known
  arrangements, and by counting all five-card subsets of the opponent's
  cards against a random opponent.
* Full 25-card deals: proven optimal, never worse than the greedy
  arrangement, ``fixed`` packets, ``top_responses`` and time limits.
* The runners-up of the frontier engine (``frontier_top_responses``: the frontier,
  then CP-SAT below what was found) against the same brute force as CP-SAT's.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

import numpy as np
import pytest

from solver.errors import SolverError
from solver.game.arrangement import Arrangement, GameResult, score
from solver.game.cards import parse_cards
from solver.game.deal import deal
from solver.game.rules import Category, Rules
from solver.models.heuristics import greedy_arrangement
from solver.models.opponents import Objective, Opponent
from solver.response.best_response import BestResponse, SolveStatus, best_response, top_responses
from solver.response.frontier_top import frontier_top_responses
from tests.support import brute_force as bf

TWO = (6, 7)
THREE = (5, 6, 7)
N_SAMPLES = 12  # sampled arrangements of a random opponent, for win and game
EXACT = 1e-9
ROUNDED = 1e-6  # mixtures with unequal probabilities: CP-SAT weights are rounded to 1e-6
# ======================================================================= instances


@dataclass(frozen=True)
class Instance:
    rules: Rules
    mine: tuple[int, ...]
    theirs: tuple[int, ...]


def _cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(parse_cards(text)))


def _random_cards(seed: int, n: int, avoid=()) -> tuple[int, ...]:
    rng = np.random.default_rng(seed)
    pool = [c for c in range(32) if c not in set(avoid)]
    return tuple(sorted(int(c) for c in rng.choice(pool, n, replace=False)))


def _mirror(rules: Rules, cards) -> Instance:
    return Instance(rules, tuple(cards), tuple(cards))


INSTANCES = {
    # ---- 10 cards into 2 packets
    "r10-mirror": _mirror(Rules(position_points=TWO), _random_cards(101, 10)),
    "r10-indep": Instance(
        Rules(position_points=TWO), _random_cards(102, 10), _random_cards(103, 10)
    ),
    "r10-acelow-manila": _mirror(
        Rules(position_points=TWO, ace_low_straight=True, flush_beats_full_house=True),
        _random_cards(104, 10),
    ),
    # the optimum needs one particular flush of the six spades (checked below)
    "h10-flush-key": _mirror(Rules(position_points=TWO), _cards("7s 8s 9d 9s Td Ts Js Qs Ad Ah")),
    # straight flush and four of a kind against a higher straight flush and a full house
    "h10-sf-quads": Instance(
        Rules(position_points=TWO),
        _cards("Js Ts 9s 8s 7s Ac Ad Ah As Kd"),
        _cards("Qh Jh Th 9h 8h Kc Ks Kh Qc Qd"),
    ),
    # ace-low straight flush A-7-8-9-10 and its rivals
    "h10-acelow": _mirror(
        Rules(position_points=TWO, ace_low_straight=True), _cards("As 7s 8s 9s Ts Ad 7d 8h 9c Th")
    ),
    # flush against full house when the flush ranks higher
    "h10-manila": _mirror(
        Rules(position_points=TWO, flush_beats_full_house=True),
        _cards("Ks Qs 9s 8s 7s Kh Kd Qh Qd 7h"),
    ),
    # ---- 15 cards into 3 packets
    "r15-mirror": _mirror(Rules(position_points=THREE), _random_cards(201, 15)),
    "r15-indep-acelow": Instance(
        Rules(position_points=THREE, ace_low_straight=True),
        _random_cards(202, 15),
        _random_cards(203, 15),
    ),
    "h15-flush-key": _mirror(
        Rules(position_points=THREE), _cards("7h 7s 8h 8s 9d Tc Ts Jc Jd Js Qh Kc Ks Ad As")
    ),
    # straight flush, quads and trips against a stronger independent holding
    "h15-sf-quads": Instance(
        Rules(position_points=THREE),
        _cards("Js Ts 9s 8s 7s 7c 7d 7h Ac Kd Qh Jc 9d 8c Td"),
        _cards("Ah Kh Qh Jh Th Ac Ad As Qc Qd Qs Kc Ks Jd Jc"),
    ),
    # two flushes (spades, hearts) competing with pairs, ace-low straights allowed
    "h15-two-flushes-acelow": _mirror(
        Rules(position_points=THREE, ace_low_straight=True, flush_beats_full_house=True),
        _cards("As Qs Ts 8s 7s Ah Kh Jh 9h 8h Kd Qd 7c Tc 9c"),
    ),
}


# Every objective against every opponent model on these (h15-sf-quads, used by the
# tests of top responses, fixed packets and time limits, is left out to save time).
GRID = [name for name in INSTANCES if name != "h15-sf-quads"]


def _random_arrangement(cards, rules: Rules, seed: int) -> Arrangement:
    order = np.random.default_rng(seed).permutation(np.array(cards))
    return Arrangement.from_array(order.reshape(rules.n_packets, 5))


@dataclass(frozen=True)
class Model:
    """An opponent for the optimizer and the same opponent for the brute force."""

    opponent: Opponent
    # ("random", cards) or ("profiles", arrangements, probabilities)
    spec: tuple
    rounded: bool  # unequal mixture probabilities: CP-SAT weights rounded to 1e-6

    def brute(self, rules: Rules):
        if self.spec[0] == "random":
            return self.spec
        profiles = np.array([a.strengths(rules) for a in self.spec[1]], dtype=np.int64)
        return ("profiles", profiles, np.asarray(self.spec[2], dtype=np.float64))


OPPONENTS = ("random", "known", "greedy", "mixture", "strong-mixture")
MIXTURE_PROBABILITIES = (0.5, 1 / 3, 1 / 6)  # 1/3 and 1/6 are not multiples of 1e-6
STRONG_PROBABILITIES = (0.4, 1 / 3, 4 / 15)


def _model(name: str, kind: str, objective: Objective) -> Model:
    inst = INSTANCES[name]
    rules, theirs = inst.rules, inst.theirs
    seed = sum(map(ord, name))
    if kind == "random":
        opponent = Opponent.random(theirs, rules)
        if objective.separable:
            return Model(opponent, ("random", theirs), False)
        sampled = opponent.sampled(N_SAMPLES, np.random.default_rng(seed))
        assert len(sampled.arrangements) == N_SAMPLES
        for a in sampled.arrangements:
            a.check(theirs, rules)
        return Model(
            sampled, ("profiles", sampled.arrangements, [1 / N_SAMPLES] * N_SAMPLES), False
        )
    if kind == "known":
        arrangement = _random_arrangement(theirs, rules, seed)
        return Model(Opponent.known(arrangement, rules), ("profiles", [arrangement], [1.0]), False)
    if kind == "greedy":
        arrangement = greedy_arrangement(theirs, rules)
        return Model(Opponent.known(arrangement, rules), ("profiles", [arrangement], [1.0]), False)
    if kind == "mixture":
        arrangements = [_random_arrangement(theirs, rules, seed + j) for j in range(3)]
        probabilities = MIXTURE_PROBABILITIES
    else:  # the greedy packets in three orders: strong, so winning is not a formality
        greedy = greedy_arrangement(theirs, rules).packets
        orders = [tuple(range(rules.n_packets)), tuple(reversed(range(rules.n_packets)))]
        orders.append(tuple(np.roll(np.arange(rules.n_packets), 1)))
        arrangements = [Arrangement(tuple(greedy[i] for i in order)) for order in orders]
        probabilities = STRONG_PROBABILITIES
    opponent = Opponent.mixture(arrangements, probabilities, rules)
    return Model(opponent, ("profiles", arrangements, probabilities), True)


# ======================================================================= independent rescoring


def rescore(arrangement: Arrangement, model: Model, rules: Rules, objective: Objective) -> float:
    """The exact value of ``arrangement``, computed without the library's value functions."""
    if model.spec[0] == "random":
        # Each position's packet against every five-card subset of the opponent's cards.
        win, _, loss = bf.random_chances(arrangement.strengths(rules), model.spec[1], rules)
        w = np.array(rules.position_points, dtype=np.float64)
        if objective is Objective.POINTS:
            return float(win @ w)
        assert objective is Objective.MARGIN
        return float((win - loss) @ w)
    total = 0.0
    for theirs, probability in zip(model.spec[1], model.spec[2], strict=True):
        s = score(arrangement, theirs, rules)
        value = {
            Objective.POINTS: s.points[0],
            Objective.MARGIN: s.margin,
            Objective.WIN_PROBABILITY: float(s.result is GameResult.WIN),
            Objective.GAME_RESULT: {
                GameResult.WIN: 1.0,
                GameResult.DRAW: 0.5,
                GameResult.LOSS: 0.0,
            }[s.result],
        }[objective]
        total += probability * value
    return total


def expected_positions(arrangement: Arrangement, model: Model, rules: Rules) -> np.ndarray:
    """``(n_packets, 3)`` win, tie, loss chance at each position."""
    if model.spec[0] == "random":
        win, tie, loss = bf.random_chances(arrangement.strengths(rules), model.spec[1], rules)
        return np.stack([win, tie, loss], axis=1)
    out = np.zeros((rules.n_packets, 3))
    for theirs, probability in zip(model.spec[1], model.spec[2], strict=True):
        for p, outcome in enumerate(score(arrangement, theirs, rules).outcomes):
            out[p, 1 - int(outcome)] += probability  # WIN=1 -> column 0, LOSS=-1 -> 2
    return out


def check_result(
    result: BestResponse,
    holding,
    model: Model,
    rules: Rules,
    objective: Objective,
    *,
    positions_model: Model | None = None,
) -> None:
    """Properties every result has: cards, strengths, value = rescoring, bound, positions."""
    result.arrangement.check(holding, rules)
    assert result.strengths == tuple(int(s) for s in result.arrangement.strengths(rules))
    assert result.objective is objective
    exact = rescore(result.arrangement, model, rules, objective)
    assert result.value == pytest.approx(exact, abs=EXACT), "reported value is not exact"
    assert result.value <= result.bound + EXACT
    # Position chances are exact too (mixture probabilities as given, not rounded).
    positions_model = positions_model or model
    tolerance = EXACT
    stats = np.array([[p.win, p.tie, p.loss] for p in result.positions])
    expected = expected_positions(result.arrangement, positions_model, rules)
    assert stats.shape == expected.shape
    np.testing.assert_allclose(stats, expected, rtol=0, atol=tolerance)
    w = np.array(rules.position_points, dtype=np.float64)
    np.testing.assert_allclose(
        [p.expected_points for p in result.positions],
        w * expected[:, 0],
        rtol=0,
        atol=10 * tolerance,
    )
    np.testing.assert_allclose(
        [p.expected_margin for p in result.positions],
        w * (expected[:, 0] - expected[:, 2]),
        rtol=0,
        atol=10 * tolerance,
    )


# ======================================================================= the brute force itself


def test_brute_force_enumerates_every_ordered_arrangement_once():
    for n, count in ((10, 252), (15, 756_756)):
        idx = bf.ordered_indices(n)
        assert idx.shape == (count, n // 5, 5)
        # every row is a partition of range(n)
        assert (np.sort(idx.reshape(count, n), axis=1) == np.arange(n)).all()
        # no two rows are the same ordered partition: packets as bit masks
        masks = (np.left_shift(1, idx.astype(np.int64))).sum(axis=2)
        keys = masks[:, 0]
        for p in range(1, n // 5):
            keys = keys * (1 << n) + masks[:, p]
        assert np.unique(keys).shape[0] == count


def test_brute_force_random_chances_against_direct_count():
    # the chance of beating a random packet, counted the slow way
    from itertools import combinations

    from solver.game.evaluator import strength

    cards = INSTANCES["r10-indep"].theirs
    rules = Rules(position_points=TWO)
    hands = list(combinations(cards, 5))
    values = [int(strength(np.array(h), rules)) for h in hands]
    for s in (0, values[0], max(values), 839):
        win, tie, loss = bf.random_chances(np.array([s]), cards, rules)
        assert win[0] == sum(v < s for v in values) / len(hands)
        assert tie[0] == sum(v == s for v in values) / len(hands)
        assert loss[0] == sum(v > s for v in values) / len(hands)


@pytest.mark.parametrize(
    "name, flush",
    [("h10-flush-key", "7s 8s 9s Js Qs"), ("h15-flush-key", "7s 8s Js Ks As")],
)
def test_fixture_flush_is_the_key_choice(name, flush):
    """The hand-picked holdings really hinge on one flush: every optimal arrangement
    (points against a random opponent) holds exactly that flush, and without any
    flush the best is clearly worse."""
    inst = INSTANCES[name]
    enum = bf.enumerate_arrangements(inst.mine, inst.rules)
    values = bf.profile_values(enum, ("random", inst.theirs), inst.rules, "points")[enum.inverse]
    categories = enum.categories(inst.rules)
    is_flush = (categories == Category.FLUSH) | (categories == Category.STRAIGHT_FLUSH)
    best = values.max()
    optimal = np.flatnonzero(values > best - EXACT)
    target = set(parse_cards(flush))
    for i in optimal:
        packets = [set(enum.arrangements[i, p].tolist()) for p in range(enum.n_packets)]
        assert target in packets
    assert values[~is_flush.any(axis=1)].max() < best - 0.3
    # and the optimizer finds it
    result = best_response(inst.mine, Opponent.random(inst.theirs, inst.rules), Objective.POINTS)
    assert target in [set(p) for p in result.arrangement.packets]


# ======================================================================= optimum = brute force


@pytest.mark.parametrize("objective", list(Objective), ids=lambda o: o.value)
@pytest.mark.parametrize("kind", OPPONENTS)
@pytest.mark.parametrize("name", GRID)
def test_optimum_equals_brute_force(name, kind, objective):
    inst = INSTANCES[name]
    rules = inst.rules
    model = _model(name, kind, objective)
    result = best_response(inst.mine, model.opponent, objective)

    enum = bf.enumerate_arrangements(inst.mine, rules)
    optimum = bf.best_value(enum, model.brute(rules), rules, objective.value)
    tolerance = ROUNDED if model.rounded else EXACT

    assert result.status is SolveStatus.OPTIMAL
    check_result(result, inst.mine, model, rules, objective)
    assert result.value == pytest.approx(optimum, abs=tolerance)
    # the bound is a true upper bound, and tight when proven optimal
    assert result.bound >= optimum - EXACT
    assert result.gap <= tolerance * objective.span(rules) + EXACT
    if not objective.separable and kind == "random":
        assert result.estimate is None  # the samples were given explicitly


# ======================================================================= win / game against random


@lru_cache(maxsize=4)
def _opponent_profile_distribution(name: str):
    """The exact distribution of a uniformly random opponent arrangement's profile."""
    inst = INSTANCES[name]
    enum = bf.enumerate_arrangements(inst.theirs, inst.rules)
    counts = np.bincount(enum.inverse, minlength=enum.profiles.shape[0])
    return enum.profiles, counts / counts.sum()


@pytest.mark.parametrize(
    "objective", [Objective.WIN_PROBABILITY, Objective.GAME_RESULT], ids=lambda o: o.value
)
@pytest.mark.parametrize("name", ["h10-sf-quads", "r15-indep-acelow"])
def test_win_against_random_uses_samples_and_estimates(name, objective):
    inst = INSTANCES[name]
    rules = inst.rules
    seed, n_samples, n_estimate = 7, 20, 4000
    result = best_response(
        inst.mine,
        Opponent.random(inst.theirs, rules),
        objective,
        samples=n_samples,
        estimate_samples=n_estimate,
        rng=np.random.default_rng(seed),
    )
    # optimized against the samples the same generator draws
    sampled = Opponent.random(inst.theirs, rules).sampled(n_samples, np.random.default_rng(seed))
    model = Model(sampled, ("profiles", sampled.arrangements, [1 / n_samples] * n_samples), False)
    enum = bf.enumerate_arrangements(inst.mine, rules)
    optimum = bf.best_value(enum, model.brute(rules), rules, objective.value)
    assert result.status is SolveStatus.OPTIMAL
    # positions are against the random opponent itself, not the samples
    check_result(
        result,
        inst.mine,
        model,
        rules,
        objective,
        positions_model=Model(Opponent.random(inst.theirs, rules), ("random", inst.theirs), False),
    )
    assert result.value == pytest.approx(optimum, abs=EXACT)
    assert result.note and str(n_samples) in result.note and "sampled" in result.note
    # the estimate: fresh samples of the random opponent, close to the exact value
    estimate = result.estimate
    assert estimate is not None and estimate.n_samples == n_estimate
    theirs, probabilities = _opponent_profile_distribution(name)
    exact = bf.values_vs_profiles(
        np.array([result.strengths]), theirs, probabilities, rules, objective.value
    )[0]
    assert 0.0 <= estimate.mean <= 1.0
    assert estimate.stderr == pytest.approx(
        np.sqrt(max(exact * (1 - exact), 0.0) / n_estimate), abs=0.01
    )
    assert abs(estimate.mean - exact) <= 5 * max(estimate.stderr, 1e-3)


def test_separable_objectives_have_no_estimate_or_samples():
    inst = INSTANCES["r15-mirror"]
    result = best_response(inst.mine, Opponent.random(inst.theirs, inst.rules), Objective.POINTS)
    assert result.estimate is None
    assert "sampled" not in result.note


# ======================================================================= top responses (reduced)

# Both searches for the k best: CP-SAT alone, and the frontier with CP-SAT below it.
TOP_SEARCHES = pytest.mark.parametrize(
    "search", [top_responses, frontier_top_responses], ids=["cpsat", "frontier"]
)


@TOP_SEARCHES
@pytest.mark.parametrize(
    "name, kind, objective",
    [
        ("r15-mirror", "random", Objective.POINTS),
        ("h15-flush-key", "random", Objective.MARGIN),
        ("r15-indep-acelow", "known", Objective.MARGIN),
        ("h15-sf-quads", "greedy", Objective.POINTS),
        ("h15-sf-quads", "strong-mixture", Objective.WIN_PROBABILITY),
        ("h15-two-flushes-acelow", "mixture", Objective.MARGIN),
        ("h10-sf-quads", "random", Objective.GAME_RESULT),
        ("h10-manila", "strong-mixture", Objective.GAME_RESULT),
    ],
)
def test_top_responses_equal_brute_force(name, kind, objective, search):
    inst = INSTANCES[name]
    rules = inst.rules
    model = _model(name, kind, objective)
    results = search(inst.mine, model.opponent, objective, k=3)
    enum = bf.enumerate_arrangements(inst.mine, rules)
    spec = model.brute(rules)
    expected = bf.top_distinct_values(enum, spec, rules, objective.value, 3)
    tolerance = ROUNDED if model.rounded else EXACT

    assert len(results) == min(3, enum.profiles.shape[0])
    profiles = [r.strengths for r in results]
    assert len(set(profiles)) == len(profiles), "profiles repeat"
    values = [r.value for r in results]
    assert all(a >= b - tolerance for a, b in pairwise(values))
    assert values == pytest.approx(expected, abs=tolerance)
    # each result's value is the brute-force value of its own profile
    by_profile = dict(
        zip(
            map(tuple, enum.profiles.tolist()),
            bf.profile_values(enum, spec, rules, objective.value),
            strict=True,
        )
    )
    for r in results:
        assert r.status is SolveStatus.OPTIMAL
        check_result(r, inst.mine, model, rules, objective)
        assert by_profile[r.strengths] == pytest.approx(r.value, abs=EXACT)
    first = best_response(inst.mine, model.opponent, objective)
    assert first.value == pytest.approx(results[0].value, abs=EXACT)


@TOP_SEARCHES
@pytest.mark.parametrize(
    "known",
    [None, "9h 9s Tc Td Th | Jc Jd Jh Js Qc"],
    ids=["random", "known-full-house-and-quads"],
)
def test_top_responses_fewer_profiles_than_k(known, search):
    """Four of a kind plus a fifth card, twice: only 13 distinct profiles exist, and
    asking for more returns every one of them, best first.

    Against the known arrangement the greedy arrangement is already as good as any
    (-1: it wins position 1 and cannot win position 2), and only four profiles reach
    that value: the search must still go on to the other nine.
    """
    rules = Rules(position_points=TWO)
    mine = _cards("7c 7d 7h 7s 8c 8d 8h 8s 9c 9d")
    enum = bf.enumerate_arrangements(mine, rules)
    n_profiles = enum.profiles.shape[0]
    assert n_profiles == 13
    if known is None:
        opponent = Opponent.random(mine, rules)
        spec = ("random", mine)
    else:
        arrangement = Arrangement.parse(known)
        opponent = Opponent.known(arrangement, rules)
        spec = ("profiles", arrangement.strengths(rules)[None, :], [1.0])
    results = search(mine, opponent, Objective.MARGIN, k=n_profiles + 5)
    assert all(r.status is SolveStatus.OPTIMAL for r in results)
    assert len(results) == n_profiles
    assert {r.strengths for r in results} == set(map(tuple, enum.profiles.tolist()))
    values = [r.value for r in results]
    assert all(a >= b - EXACT for a, b in pairwise(values))
    expected = np.sort(bf.profile_values(enum, spec, rules, "margin"))[::-1]
    assert values == pytest.approx(expected.tolist(), abs=EXACT)


@TOP_SEARCHES
def test_top_responses_distinct_when_a_straight_is_forced_to_be_a_straight_flush(search):
    """J-10-9-8-7 of the holding exist only in spades: the straight *is* a straight flush.

    Each later result must be optimal among arrangements whose profile differs from
    every earlier one, so no profile may come back twice.  (Mirror deal: the opponent
    arranges the same ten cards at random.)
    """
    rules = Rules(position_points=TWO)
    mine = INSTANCES["h10-sf-quads"].mine
    opponent = Opponent.random(mine, rules)
    results = search(mine, opponent, Objective.POINTS, k=3)
    enum = bf.enumerate_arrangements(mine, rules)
    expected = bf.top_distinct_values(enum, ("random", mine), rules, "points", 3)
    profiles = [r.strengths for r in results]
    assert len(set(profiles)) == len(profiles), f"profile repeated: {profiles}"
    assert len(results) == 3, f"only {profiles}"
    assert all(r.status is SolveStatus.OPTIMAL for r in results)
    assert [r.value for r in results] == pytest.approx(expected, abs=EXACT)


def test_game_objective_values_a_win_at_one_and_a_draw_at_one_half():
    """Against this mixture the best expected result (win 1, draw 1/2) is 0.46, found by
    brute force; an arrangement that wins more often but draws less is worth only 0.42.
    (Two positions worth 1 point each, so a split is a draw.)"""
    rules = Rules(position_points=(1, 1))
    mine = _cards("7h 8h 8s 9h 9s Td Js Qh Ad As")
    arrangements = [
        Arrangement.parse("Ts Tc 8c Th 8s | 8h As Qc Ah Ad"),
        Arrangement.parse("As 8c Th 8s Ad | Tc Ah Qc Ts 8h"),
        Arrangement.parse("8c 8s Ts Qc 8h | As Ah Tc Th Ad"),
    ]
    probabilities = [0.54, 0.38, 0.08]
    model = Model(
        Opponent.mixture(arrangements, probabilities, rules),
        ("profiles", arrangements, probabilities),
        True,
    )
    enum = bf.enumerate_arrangements(mine, rules)
    optimum = bf.best_value(enum, model.brute(rules), rules, "game")
    assert optimum == pytest.approx(0.46)
    result = best_response(mine, model.opponent, Objective.GAME_RESULT)
    check_result(result, mine, model, rules, Objective.GAME_RESULT)
    assert result.status is SolveStatus.OPTIMAL
    assert result.value == pytest.approx(optimum, abs=ROUNDED)


def test_game_bound_is_at_most_one_and_tight_when_optimal():
    """Against a known arrangement that can be beaten, the optimum wins: value 1, and a
    proven optimum has bound 1 too (no result is worth more than a sure win)."""
    inst = INSTANCES["r15-mirror"]
    model = _model("r15-mirror", "known", Objective.GAME_RESULT)
    result = best_response(inst.mine, model.opponent, Objective.GAME_RESULT)
    assert result.value == pytest.approx(1.0)
    assert result.status is SolveStatus.OPTIMAL
    assert result.bound <= 1.0 + EXACT
    assert result.gap <= EXACT


@pytest.mark.parametrize("objective", [Objective.POINTS, Objective.MARGIN], ids=lambda o: o.value)
def test_value_against_unequal_mixture_is_exact(objective):
    """The probabilities 1/3 and 4/15 are not multiples of 1e-6.  CP-SAT may use
    rounded weights, but the reported value is documented as an exact rescoring."""
    inst = INSTANCES["h10-manila"]
    rules = inst.rules
    arrangements = [_random_arrangement(inst.theirs, rules, 40 + j) for j in range(3)]
    probabilities = (0.4, 1 / 3, 4 / 15)
    model = Model(
        Opponent.mixture(arrangements, probabilities, rules),
        ("profiles", arrangements, probabilities),
        True,
    )
    # every packet fixed: the value is a plain rescoring, whatever the search does;
    # fix an arrangement that scores differently against each, so the rounding shows
    for seed in range(100):
        mine = _random_arrangement(inst.mine, rules, seed)
        per_arrangement = [
            rescore(mine, Model(None, ("profiles", [a], [1.0]), False), rules, objective)
            for a in arrangements
        ]
        if len(set(per_arrangement)) == 3:
            break
    assert len(set(per_arrangement)) == 3
    fixed = {i + 1: p for i, p in enumerate(mine.packets)}
    result = best_response(inst.mine, model.opponent, objective, fixed=fixed)
    exact = float(np.dot(per_arrangement, probabilities))
    assert result.value == pytest.approx(exact, abs=EXACT)
    assert result.value <= result.bound


# ======================================================================= fixed packets (reduced)


@pytest.mark.parametrize(
    "name, kind, objective, fixes",
    [
        ("r15-mirror", "random", Objective.POINTS, {3: 0}),
        ("h15-flush-key", "random", Objective.MARGIN, {1: 1}),
        ("r15-indep-acelow", "known", Objective.POINTS, {2: 2}),
        ("h15-sf-quads", "strong-mixture", Objective.WIN_PROBABILITY, {3: 0}),
        ("h15-two-flushes-acelow", "greedy", Objective.GAME_RESULT, {1: 0, 3: 1}),
        ("h10-flush-key", "random", Objective.MARGIN, {2: 0}),
    ],
)
def test_fixed_packet_optimal_among_arrangements_with_it(name, kind, objective, fixes):
    """``fixes`` maps a position to which greedy packet (0 = weakest) is fixed there;
    the result must be optimal among the arrangements holding those packets there."""
    inst = INSTANCES[name]
    rules = inst.rules
    model = _model(name, kind, objective)
    greedy = greedy_arrangement(inst.mine, rules).packets
    # a scrambled card order, to show the order inside a fixed packet is free
    fixed = {pos: tuple(reversed(greedy[g])) for pos, g in fixes.items()}
    result = best_response(inst.mine, model.opponent, objective, fixed=fixed)

    enum = bf.enumerate_arrangements(inst.mine, rules)
    keep = np.ones(enum.arrangements.shape[0], dtype=bool)
    for pos, cards in fixed.items():
        packets = np.sort(enum.arrangements[:, pos - 1, :], axis=1)
        keep &= (packets == np.sort(cards)).all(axis=1)
    values = bf.profile_values(enum, model.brute(rules), rules, objective.value)[enum.inverse]
    constrained = values[keep].max()
    tolerance = ROUNDED if model.rounded else EXACT

    assert result.status is SolveStatus.OPTIMAL
    for pos, cards in fixed.items():
        assert set(result.arrangement.packets[pos - 1]) == set(cards)
    check_result(result, inst.mine, model, rules, objective)
    assert result.value == pytest.approx(constrained, abs=tolerance)
    assert result.bound >= constrained - EXACT
    assert result.value <= values.max() + EXACT


def test_fixed_packet_equals_solving_the_rest_by_brute_force():
    """Fixing position 3 of a 15-card game is a 10-card game on positions 1 and 2,
    plus the fixed packet's own (known) contribution."""
    inst = INSTANCES["r15-mirror"]
    rules = inst.rules
    opponent = Opponent.random(inst.theirs, rules)
    packet = greedy_arrangement(inst.mine, rules).packets[1]
    result = best_response(inst.mine, opponent, Objective.MARGIN, fixed={3: packet})
    rest = tuple(c for c in inst.mine if c not in packet)
    rest_rules = Rules(position_points=rules.position_points[:2])
    enum = bf.enumerate_arrangements(rest, rest_rules)
    rest_best = bf.best_value(enum, ("random", inst.theirs), rest_rules, "margin")
    win, _, loss = bf.random_chances(Arrangement((packet,)).strengths(rules), inst.theirs, rules)
    own = rules.position_points[2] * float(win[0] - loss[0])
    assert result.value == pytest.approx(rest_best + own, abs=EXACT)


def test_every_packet_fixed_returns_that_arrangement():
    inst = INSTANCES["h15-sf-quads"]
    rules = inst.rules
    arrangement = _random_arrangement(inst.mine, rules, 5)
    model = _model("h15-sf-quads", "greedy", Objective.MARGIN)
    fixed = {i + 1: p for i, p in enumerate(arrangement.packets)}
    result = best_response(inst.mine, model.opponent, Objective.MARGIN, fixed=fixed)
    assert result.arrangement == arrangement
    assert result.status is SolveStatus.OPTIMAL
    assert result.value == pytest.approx(rescore(arrangement, model, rules, Objective.MARGIN))
    assert result.gap <= EXACT
    assert "fixed" in result.note


@pytest.mark.parametrize(
    "fixed, fragment",
    [
        ({4: "first"}, "position 4"),  # out of range for three packets
        ({0: "first"}, "position 0"),
        ({-1: "first"}, "position -1"),
        ({1: "outside"}, "not in the holding"),
        ({1: "first", 2: "overlap"}, "two packets"),
        ({1: "four"}, "five distinct"),
        ({1: "six"}, "five distinct"),
        ({1: "repeat"}, "five distinct"),
    ],
)
def test_invalid_fix_raises_solver_error(fixed, fragment):
    inst = INSTANCES["r15-mirror"]
    mine = list(inst.mine)
    outside = next(c for c in range(32) if c not in inst.mine)
    packets = {
        "first": mine[:5],
        "overlap": mine[4:9],
        "outside": [*mine[:4], outside],
        "four": mine[:4],
        "six": mine[:6],
        "repeat": [*mine[:4], mine[0]],
    }
    request = {pos: packets[key] for pos, key in fixed.items()}
    with pytest.raises(SolverError, match=fragment):
        best_response(inst.mine, Opponent.random(inst.theirs, inst.rules), fixed=request)


# ======================================================================= full deals


FULL = Rules()
FULL_CASES = [(2, "mirror"), (3, "mirror"), (11, "independent")]


@lru_cache(maxsize=1)
def _full_deals():
    return {
        (seed, mode): deal(seed, Rules(discard_mode=mode)).holdings for seed, mode in FULL_CASES
    }


def _full_model(seed: int, mode: str, kind: str) -> Model:
    theirs = _full_deals()[seed, mode][1]
    if kind == "random":
        return Model(Opponent.random(theirs, FULL), ("random", theirs), False)
    arrangement = greedy_arrangement(theirs, FULL)
    return Model(Opponent.known(arrangement, FULL), ("profiles", [arrangement], [1.0]), False)


_SOLVES: dict = {}


def _full_solve(seed: int, mode: str, kind: str, objective: Objective) -> BestResponse:
    key = (seed, mode, kind, objective)
    if key not in _SOLVES:
        mine = _full_deals()[seed, mode][0]
        _SOLVES[key] = best_response(mine, _full_model(seed, mode, kind).opponent, objective)
    return _SOLVES[key]


@pytest.mark.parametrize("objective", [Objective.POINTS, Objective.MARGIN], ids=lambda o: o.value)
@pytest.mark.parametrize("kind", ["random", "greedy"])
@pytest.mark.parametrize("seed, mode", FULL_CASES)
def test_full_deal_optimal_and_not_worse_than_greedy(seed, mode, kind, objective):
    mine, theirs = _full_deals()[seed, mode]
    assert (mine == theirs) == (mode == "mirror")
    model = _full_model(seed, mode, kind)
    result = _full_solve(seed, mode, kind, objective)
    assert result.status is SolveStatus.OPTIMAL
    assert result.gap == pytest.approx(0.0, abs=EXACT)
    assert result.arrangement.cards == tuple(sorted(mine))
    check_result(result, mine, model, FULL, objective)
    greedy_value = rescore(greedy_arrangement(mine, FULL), model, FULL, objective)
    assert result.value >= greedy_value - EXACT
    # a few other arrangements of the same cards: none beats the proven optimum
    for j in range(20):
        other = _random_arrangement(mine, FULL, 1000 + j)
        assert rescore(other, model, FULL, objective) <= result.value + EXACT


def test_full_deal_fixed_packet_stays_at_position_5():
    seed, mode = FULL_CASES[0]
    mine, _ = _full_deals()[seed, mode]
    model = _full_model(seed, mode, "random")
    free = _full_solve(seed, mode, "random", Objective.MARGIN)
    # the weakest greedy packet at the most valuable position: a real constraint
    packet = greedy_arrangement(mine, FULL).packets[0]
    result = best_response(mine, model.opponent, Objective.MARGIN, fixed={5: packet})
    assert set(result.arrangement.packets[4]) == set(packet)
    assert result.status is SolveStatus.OPTIMAL
    assert result.gap == pytest.approx(0.0, abs=EXACT)
    check_result(result, mine, model, FULL, Objective.MARGIN)
    assert result.value <= free.value + EXACT
    assert result.value < free.value - 0.1  # that packet costs something at position 5
    # not worse than the free solution with its position-5 packet swapped for the fixed one
    rest = [c for c in mine if c not in packet]
    other = greedy_arrangement(rest, Rules(position_points=(3, 4, 5, 6)))
    candidate = Arrangement((*other.packets, tuple(packet)))
    assert result.value >= rescore(candidate, model, FULL, Objective.MARGIN) - EXACT


def test_full_deal_top_responses():
    seed, mode = FULL_CASES[1]
    mine, _ = _full_deals()[seed, mode]
    model = _full_model(seed, mode, "random")
    best = _full_solve(seed, mode, "random", Objective.MARGIN)
    results = top_responses(mine, model.opponent, Objective.MARGIN, k=3)
    assert len(results) == 3
    assert len({r.strengths for r in results}) == 3
    values = [r.value for r in results]
    assert all(a >= b - EXACT for a, b in pairwise(values))  # ties may differ in the last bit
    assert values[0] == pytest.approx(best.value, abs=EXACT)
    for r in results:
        assert r.status is SolveStatus.OPTIMAL
        check_result(r, mine, model, FULL, Objective.MARGIN)


def test_full_deal_tiny_time_limit():
    seed, mode = FULL_CASES[0]
    mine, _ = _full_deals()[seed, mode]
    model = _full_model(seed, mode, "random")
    optimum = _full_solve(seed, mode, "random", Objective.MARGIN).value
    result = best_response(mine, model.opponent, Objective.MARGIN, time_limit=0.01)
    check_result(result, mine, model, FULL, Objective.MARGIN)
    assert result.value <= optimum + EXACT
    assert result.bound >= optimum - EXACT  # still a valid bound
    if result.status is SolveStatus.OPTIMAL:
        assert result.value == pytest.approx(optimum, abs=EXACT)


def test_reduced_tiny_time_limit_win():
    inst = INSTANCES["h15-sf-quads"]
    model = _model("h15-sf-quads", "strong-mixture", Objective.WIN_PROBABILITY)
    enum = bf.enumerate_arrangements(inst.mine, inst.rules)
    optimum = bf.best_value(enum, model.brute(inst.rules), inst.rules, "win")
    result = best_response(inst.mine, model.opponent, Objective.WIN_PROBABILITY, time_limit=0.001)
    check_result(result, inst.mine, model, inst.rules, Objective.WIN_PROBABILITY)
    assert result.bound >= optimum - EXACT


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"time_limit": 0}, "time_limit"),
        ({"time_limit": -1.0}, "time_limit"),
        ({"workers": 0}, "workers"),
    ],
)
def test_invalid_solver_options(kwargs, fragment):
    inst = INSTANCES["r10-mirror"]
    opponent = Opponent.random(inst.theirs, inst.rules)
    with pytest.raises(SolverError, match=f"^{fragment} must be") as caught:
        best_response(inst.mine, opponent, **kwargs)
    assert caught.value.argument == fragment


def test_top_zero_raises():
    inst = INSTANCES["r10-mirror"]
    with pytest.raises(SolverError, match=r"^k must be at least 1") as caught:
        top_responses(inst.mine, Opponent.random(inst.theirs, inst.rules), k=0)
    assert caught.value.argument == "k"


def test_wrong_holding_size_raises():
    from solver.errors import QuintetError

    inst = INSTANCES["r10-mirror"]
    with pytest.raises(QuintetError):
        best_response(inst.mine[:9], Opponent.random(inst.theirs, inst.rules))


def test_results_list_the_models_solved():
    inst = INSTANCES["r10-mirror"]
    opponent = Opponent.random(inst.theirs, inst.rules)
    result = best_response(inst.mine, opponent, Objective.MARGIN, workers=1)
    assert result.models, "a CP-SAT search solves at least one model"
    n_free = len(inst.rules.position_points)
    for model in result.models:
        assert 0 < model.booleans <= model.unpruned
        assert model.unpruned % n_free == 0  # every option at every free position
        assert model.seconds > 0
    # Every packet fixed: nothing left to solve.
    everything = {i + 1: packet for i, packet in enumerate(result.arrangement.packets)}
    fixed = best_response(inst.mine, opponent, Objective.MARGIN, fixed=everything)
    assert fixed.models == ()
