"""Choosing a mixed house rule: a linear program over training deals, rounded to a die.

A pool of simple house rules (:data:`VARIANT_POOL`: every build of
:class:`~solver.models.house.Packets` laid out by each of the 120 orders, and
the deterministic house rule) is mixed with probabilities ``p``.  On deal
``d`` variant ``v`` lays out a strength profile ``s_dv``; the opponent, who
knows the rule and the cards, answers with the arrangement ``b`` of their
frontier (:mod:`solver.response.frontier`: a best response to anything) that
scores most against the mixture, so the mixture's exploitability on ``d`` is
``max_b sum_v p_v m(b, s_dv)`` (``m`` the margin of ``b``).  The mean over
the training deals is minimized by the linear program

    min (1/D) sum_d t_d   s.t.  t_d >= sum_v p_v m(b, s_dv)  for every b,  sum p = 1, p >= 0,

solved by row generation (GLOP): start with few rows, add each deal's best
response to the current ``p`` while it beats ``t_d``; when none does, the
optimum is exact.  A person cannot roll 0.137, so the LP's ``k`` heaviest
variants (``k`` up to the die's faces) get every split of the die's faces
into ``k`` shares, each mixture's exact mean exploitability on the training
deals is measured again, and the best is the rule (:func:`train`).

>>> from solver.game.rules import Rules
>>> from solver.models.house import HouseRule
>>> rules = Rules(position_points=(6, 7))
>>> pool = (HouseRule((0, 1)), HouseRule((1, 0)))
>>> result = train(range(2), pool, rules, sides=2)
>>> result.rounded_exploitability >= result.lp_exploitability - 1e-9
True
>>> train((), pool, rules)
Traceback (most recent call last):
    ...
solver.errors.SolverError: seeds: no deals to train on
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

import numpy as np

from solver.equilibria.exploitability import values_against
from solver.equilibria.payoff import Payoff
from solver.errors import SolverError
from solver.game.arrangement import points_against
from solver.game.deal import deal, deal_seed
from solver.game.evaluator import strength
from solver.game.rules import Rules, rules_or_default
from solver.models.house import HOUSE_RULE, HouseRule, Packets, built_packets
from solver.models.mixed_house import DiceVariant, MixedHouseRule
from solver.response.frontier import cached_frontier
from solver.util.checks import check_instance, check_int

__all__ = [
    "MIXED_TEST_SERIES",
    "MIXED_TRAINING_SERIES",
    "VARIANT_POOL",
    "TrainingResult",
    "mixed_test_seeds",
    "mixed_training_seeds",
    "pool_profiles",
    "train",
]

MIXED_TRAINING_SERIES = 4000  # deal series of the mixed rule (none of house_search's)
MIXED_TEST_SERIES = 5000


def mixed_training_seeds(n: int) -> tuple[int, ...]:
    """The seeds of the first ``n`` training deals of the mixed rule.

    >>> set(mixed_training_seeds(20)) & set(mixed_test_seeds(20))
    set()
    >>> mixed_training_seeds(-1)
    Traceback (most recent call last):
        ...
    solver.errors.QuintetError: n must be in [0, 1000000], got -1
    """
    check_int(n, "n", low=0, high=1_000_000)
    return tuple(deal_seed(MIXED_TRAINING_SERIES, i) for i in range(n))


def mixed_test_seeds(n: int, start: int = 0) -> tuple[int, ...]:
    """The seeds of test deals ``start`` to ``start + n - 1`` of the mixed rule."""
    check_int(n, "n", low=0, high=1_000_000)
    check_int(start, "start", low=0, high=1_000_000)
    return tuple(deal_seed(MIXED_TEST_SERIES, i) for i in range(start, start + n))


# Every build by every order, and the deterministic house rule (601 variants).
VARIANT_POOL: tuple[HouseRule, ...] = (
    *(HouseRule(order, build) for build in Packets for order in permutations(range(5))),
    HOUSE_RULE,
)


def pool_profiles(holding: Iterable[int], rules: Rules, pool: Sequence[HouseRule]) -> np.ndarray:
    """Each variant's strength profile (position order), ``(len(pool), n_packets)`` int32.

    The same profiles :func:`~solver.models.house.house_arrangement` lays out,
    computed once per build and order.

    >>> from solver.models.house import house_arrangement
    >>> holding = deal(seed=2).holdings[0]
    >>> profiles = pool_profiles(holding, rules_or_default(None), VARIANT_POOL[-3:])
    >>> [house_arrangement(holding, rule=r).strengths().tolist() for r in VARIANT_POOL[-3:]] == profiles.tolist()
    True
    """
    builds = {b: strength(np.array(built_packets(holding, rules, b)), rules) for b in Packets}
    main = np.array([builds[r.packets][list(r.order)] for r in pool], dtype=np.int32)
    alternatives, layouts = [], []
    for i, r in enumerate(pool):
        if r.alternative is not None and r.alternative_order is not None:
            alternatives.append(i)
            layouts.append(builds[r.alternative][list(r.alternative_order)])
    if alternatives:
        other = np.array(layouts, dtype=np.int32)
        won, lost = points_against(other, main[alternatives], rules)
        main[alternatives] = np.where((won > lost)[:, None], other, main[alternatives])
    return main


def _margins(frontier: np.ndarray, profiles: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``(len(frontier), len(profiles))`` margins of each frontier row against each profile."""
    signs = np.sign(frontier[:, None, :].astype(np.int64) - profiles[None, :, :])
    return np.asarray(signs @ weights, dtype=np.float64)


@dataclass(frozen=True)
class _Deal:
    frontier: np.ndarray  # (n, n_packets) the opponent's strategies
    profiles: np.ndarray  # (V, n_packets) the pool's layouts


def _exploitabilities(
    deals: Sequence[_Deal], support: np.ndarray, p: np.ndarray, rules: Rules
) -> tuple[np.ndarray, np.ndarray]:
    """Each deal's exploitability of the mixture ``p`` over ``support``, and its best response row."""
    values, best = np.empty(len(deals)), np.empty(len(deals), dtype=np.int64)
    for i, d in enumerate(deals):
        # By per-position distributions: O(frontier) whatever the support's size.
        scores = values_against(d.frontier, rules, Payoff.MARGIN, (d.profiles[support], p))
        best[i] = int(np.argmax(scores))
        values[i] = scores[best[i]]
    return values, best


class _Program:
    """The restricted LP, rows added between solves (GLOP starts from the last basis).

    Should a warm solve end without a proven optimum, the LP is built again
    from all its rows and solved cold.
    """

    def __init__(self, n_variants: int, n_deals: int) -> None:
        self.n_variants, self.n_deals = n_variants, n_deals
        self.rows: list[tuple[int, np.ndarray]] = []
        self._build()

    def _build(self) -> None:
        from ortools.linear_solver import pywraplp  # only training solves this LP

        self._optimal = pywraplp.Solver.OPTIMAL
        self.lp = pywraplp.Solver.CreateSolver("GLOP")
        inf = self.lp.infinity()
        self.p = [self.lp.NumVar(0.0, 1.0, f"p{v}") for v in range(self.n_variants)]
        self.t = [self.lp.NumVar(-inf, inf, f"t{d}") for d in range(self.n_deals)]
        total = self.lp.Constraint(1.0, 1.0)
        for x in self.p:
            total.SetCoefficient(x, 1.0)
        objective = self.lp.Objective()
        for x in self.t:
            objective.SetCoefficient(x, 1.0 / self.n_deals)
        objective.SetMinimization()
        for deal_index, row in self.rows:
            self._constrain(deal_index, row)

    def _constrain(self, deal_index: int, row: np.ndarray) -> None:
        constraint = self.lp.Constraint(-self.lp.infinity(), 0.0)
        constraint.SetCoefficient(self.t[deal_index], -1.0)
        for v in np.flatnonzero(row):
            constraint.SetCoefficient(self.p[int(v)], float(row[v]))

    def add(self, deal_index: int, row: np.ndarray) -> None:
        """The row ``sum_v row[v] p_v <= t_d``: one best response's margins."""
        self.rows.append((deal_index, row))
        self._constrain(deal_index, row)

    def solve(self) -> tuple[np.ndarray, np.ndarray]:
        """The optimal ``p`` and ``t`` of the rows so far."""
        status = self.lp.Solve()
        if status != self._optimal:
            self._build()
            status = self.lp.Solve()
        if status != self._optimal:
            raise SolverError(
                f"seeds: training LP not solved (GLOP status {status})", argument="seeds"
            )
        return (
            np.array([x.solution_value() for x in self.p]),
            np.array([x.solution_value() for x in self.t]),
        )


def _solve_lp(
    deals: Sequence[_Deal], n_variants: int, rules: Rules, max_rounds: int
) -> tuple[np.ndarray, float, float, int]:
    """Row generation: the LP's ``p``, its exact mean exploitability, the LP bound, the rounds."""
    weights = np.asarray(rules.position_points, dtype=np.int64)
    everything = np.arange(n_variants)
    # First rows: each deal's best responses to the uniform mixture.
    _, best = _exploitabilities(deals, everything, np.full(n_variants, 1 / n_variants), rules)
    program = _Program(n_variants, len(deals))
    for i, (d, b) in enumerate(zip(deals, best, strict=True)):
        program.add(i, _margins(d.frontier[[b]], d.profiles, weights)[0])
    rounds = 0
    while rounds < max_rounds:
        rounds += 1
        p, t = program.solve()
        support = np.flatnonzero(p > 1e-9)
        values, best = _exploitabilities(deals, support, p[support], rules)
        violated = np.flatnonzero(values > t + 1e-7)
        if violated.size == 0:
            break
        for k in (int(i) for i in violated):
            row = _margins(deals[k].frontier[[best[k]]], deals[k].profiles, weights)[0]
            program.add(k, row)
    # values: the LP mixture's exact exploitabilities; t's mean: the restricted LP's optimum,
    # below every mixture of the pool (equal to the first once no row is violated).
    return p, float(np.mean(values)), float(np.mean(t)), rounds


@dataclass(frozen=True)
class TrainingResult:
    """The LP's mixture, its exploitability, and the rounded rule with its own."""

    seeds: tuple[int, ...]
    pool: tuple[HouseRule, ...]
    lp_weights: np.ndarray  # one per pool variant
    lp_exploitability: float  # the LP mixture's exact mean exploitability on the training deals
    lp_bound: float  # the restricted LP's optimum: a lower bound for every mixture of the pool
    rule: MixedHouseRule
    rounded_exploitability: float  # the rule's exact mean exploitability on the training deals
    rounds: int  # rows added in so many rounds


def _mean_exploitability(
    deals: Sequence[_Deal], faces: np.ndarray, sides: int, rules: Rules
) -> float:
    """The mean exploitability of the die whose faces name the pool variants ``faces``."""
    chosen, counts = np.unique(faces, return_counts=True)
    return float(np.mean(_exploitabilities(deals, chosen, counts / sides, rules)[0]))


def _rounded(deals: Sequence[_Deal], ranked: np.ndarray, sides: int, rules: Rules) -> np.ndarray:
    """The die (a pool variant per face) closest to the LP's mixture on the training deals.

    First the LP's ``k`` heaviest variants with every split of the faces,
    then faces changed one at a time to any of the :data:`_CANDIDATES`
    heaviest variants while that lowers the training mean.
    """
    best, best_value = ranked[:1].repeat(sides), np.inf
    for k in range(1, min(sides, ranked.size) + 1):
        for split in _splits(sides, k):
            faces = np.repeat(ranked[:k], split)
            value = _mean_exploitability(deals, faces, sides, rules)
            if value < best_value - 1e-12:
                best, best_value = faces, value
    improved = True
    while improved:
        improved = False
        for face in range(sides):
            for variant in ranked[:_CANDIDATES]:
                if variant == best[face]:
                    continue
                faces = best.copy()
                faces[face] = variant
                value = _mean_exploitability(deals, faces, sides, rules)
                if value < best_value - 1e-9:
                    best, best_value, improved = faces, value, True
    return np.sort(best)


# The local search tries the LP's so many heaviest variants on each face.
_CANDIDATES = 20


def _splits(total: int, k: int) -> list[tuple[int, ...]]:
    """Every way to write ``total`` as ``k`` positive parts, in order."""
    return [
        tuple(b - a for a, b in zip((0, *cut), (*cut, total), strict=True))
        for cut in combinations(range(1, total), k - 1)
    ]


def train(
    seeds: Iterable[int],
    pool: Sequence[HouseRule] = VARIANT_POOL,
    rules: Rules | None = None,
    *,
    sides: int = 6,
    max_rounds: int = 200,
) -> TrainingResult:
    """The mixture of ``pool`` least exploitable on the deals of ``seeds``, rounded to a die.

    Parameters
    ----------
    seeds
        The training deals (player 1's holding laid out, player 2 responding).
    pool
        The candidate variants.
    rules
        The rules.
    sides
        The die: probabilities are multiples of ``1/sides``, at most ``sides`` variants.
    max_rounds
        Row generation stops after so many rounds (it proves optimality much earlier).

    Raises
    ------
    SolverError
        Without deals or variants, or if the LP is not solved.
    """
    rules = rules_or_default(rules)
    seeds = tuple(seeds)
    pool = tuple(pool)
    for rule in pool:
        check_instance(rule, HouseRule, "pool")
    check_int(sides, "sides", low=1, high=12)
    if not seeds:
        raise SolverError("seeds: no deals to train on", argument="seeds")
    if not pool:
        raise SolverError("pool: no variants", argument="pool")
    deals = []
    for seed in seeds:
        mine, theirs = deal(seed, rules).holdings
        frontier = cached_frontier(theirs, rules).strategies()[0]
        deals.append(_Deal(frontier, pool_profiles(mine, rules, pool)))
    p, lp_value, lp_bound, rounds = _solve_lp(deals, len(pool), rules, max_rounds)
    ranked = np.argsort(-p, kind="stable")[: int(np.count_nonzero(p > 1e-9))]
    die = _rounded(deals, ranked, sides, rules)
    chosen, split = np.unique(die, return_counts=True)
    first, variants = 1, []
    for k in np.argsort(-split, kind="stable"):  # the likeliest variant on the lowest faces
        count = int(split[k])
        variants.append(DiceVariant(tuple(range(first, first + count)), pool[int(chosen[k])]))
        first += count
    mixed = MixedHouseRule(tuple(variants), sides)
    rounded = _mean_exploitability(deals, die, sides, rules)
    return TrainingResult(seeds, pool, p, lp_value, lp_bound, mixed, rounded, rounds)
