"""Searching a family of house rules for the one closest to equilibrium play.

A house rule (:class:`solver.models.house.HouseRule`) lays out the greedy
packets by a fixed order, optionally by another order when the weakest
greedy packet is a poor combination.  A :class:`HouseFamily` is a set of
such rules given as data (the orders and thresholds to try).

Each candidate ``r`` is measured on seeded deals ``d`` by its mean
**equilibrium loss** (margin payoff), the quantity
:func:`solver.analysis.grade.grade` reports:

    loss_d(r) = v_d - u(house_arrangement(holding_d, r), y_d)

with ``v_d`` the deal's game value and ``y_d`` the opponent's equilibrium
strategy (losses within the certified gap count as 0).  Each deal is solved
once (:func:`cached_equilibrium`, or any ``solver``), and each distinct
arrangement is valued once per deal, so a family of thousands of rules costs
little more than its deals' equilibria.  :func:`search` returns every
candidate's score, best first (ties: the earlier candidate of the family).

The default house rule was found on 60 training deals by notebook
``notebooks/05_findings.ipynb`` (section 2; docs/findings.md, "A house rule"),
that is::

    search(HouseFamily(packets=(Packets.GREEDY, Packets.THRIFTY)), training_seeds(60))

and checked there on :func:`holdout_seeds` deals with :func:`grade`.

>>> from solver.game.rules import Rules
>>> rules = Rules(position_points=(6, 7))
>>> family = HouseFamily(orders=((0, 1), (1, 0)))
>>> result = search(family, seeds=(1, 2), rules=rules)
>>> len(result.scores), result.best.mean_loss <= result.scores[1].mean_loss
(2, True)
>>> search(family, seeds=())
Traceback (most recent call last):
    ...
solver.errors.SolverError: seeds: no deals to search on
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import permutations

import numpy as np

from solver.analysis.solutions import EquilibriumSolver, cached_equilibrium
from solver.equilibria.equilibrium import EquilibriumResult, Payoff
from solver.errors import SolverError
from solver.game.arrangement import Arrangement
from solver.game.deal import deal, deal_seed
from solver.game.rules import DEFAULT_RULES, Category, Rules
from solver.models.house import HouseRule, Packets, house_arrangement
from solver.models.opponents import Objective, expected_value

__all__ = [
    "CandidateScore",
    "HouseFamily",
    "SearchResult",
    "equilibrium_loss",
    "holdout_seeds",
    "search",
    "training_seeds",
]

TRAINING_SERIES = 1000  # the series seeds of the training and test deals (deal_seed)
HOLDOUT_SERIES = 2000


def training_seeds(n: int) -> tuple[int, ...]:
    """The seeds of the first ``n`` training deals (never the test deals).

    >>> set(training_seeds(50)) & set(holdout_seeds(50))
    set()
    """
    return tuple(deal_seed(TRAINING_SERIES, i) for i in range(n))


def holdout_seeds(n: int) -> tuple[int, ...]:
    """The seeds of the first ``n`` test deals."""
    return tuple(deal_seed(HOLDOUT_SERIES, i) for i in range(n))


def _all_orders(n: int = 5) -> tuple[tuple[int, ...], ...]:
    return tuple(permutations(range(n)))


@dataclass(frozen=True)
class HouseFamily:
    """A family of house rules, as data.

    Every ``order``, unconditionally; then, for each threshold of
    ``weak_below`` and each pair ``(order, weak_order)`` of different orders,
    the conditional rule.  The default is the 120 orders of five packets.

    >>> len(list(HouseFamily().candidates()))
    120
    >>> f = HouseFamily(orders=((0, 1), (1, 0)), weak_below=(Category.PAIR,))
    >>> [r.describe() for r in f.candidates()][2]
    'greedy packets at positions 1-2: 1 2; if the weakest is below one pair: 2 1'
    """

    orders: tuple[tuple[int, ...], ...] = field(default_factory=_all_orders)
    weak_below: tuple[Category, ...] = ()
    weak_orders: tuple[tuple[int, ...], ...] | None = None  # default: ``orders``
    packets: tuple[Packets, ...] = (Packets.GREEDY,)

    def candidates(self) -> Iterator[HouseRule]:
        """The rules of the family, unconditional ones first."""
        for packets in self.packets:
            for order in self.orders:
                yield HouseRule(order=order, packets=packets)
        for packets in self.packets:
            for threshold in self.weak_below:
                for order in self.orders:
                    for weak in self.orders if self.weak_orders is None else self.weak_orders:
                        if weak != order:
                            yield HouseRule(order, weak, threshold, packets)


@dataclass(frozen=True)
class CandidateScore:
    """A candidate rule and its equilibrium losses on the search deals."""

    rule: HouseRule
    losses: tuple[float, ...]  # one per deal, in the order of the seeds

    @property
    def mean_loss(self) -> float:
        """Mean equilibrium loss (points per game)."""
        return float(np.mean(self.losses))

    @property
    def best_share(self) -> float:
        """Share of the deals on which the rule loses nothing."""
        return float(np.mean(np.asarray(self.losses) == 0.0))


@dataclass(frozen=True)
class SearchResult:
    """Every candidate's score, best (lowest mean loss) first."""

    seeds: tuple[int, ...]
    rules: Rules
    scores: tuple[CandidateScore, ...]

    @property
    def best(self) -> CandidateScore:
        """The best candidate."""
        return self.scores[0]


def equilibrium_loss(arrangement: Arrangement, equilibrium: EquilibriumResult) -> float:
    """What ``arrangement`` loses against the opponent's equilibrium strategy (margin).

    The same number as ``grade(...).equilibrium_loss``: 0 within the
    certified gap (plus 1e-9 of rounding).

    >>> from solver.game.rules import Rules
    >>> rules = Rules(position_points=(6, 7))
    >>> mine, theirs = deal(3, rules).holdings
    >>> eq = cached_equilibrium(mine, theirs, rules, Payoff.MARGIN)
    >>> equilibrium_loss(eq.row.arrangements[0], eq)
    0.0
    """
    rules = equilibrium.rules
    profile = arrangement.strengths(rules).astype(np.int64)
    value = float(expected_value(profile, equilibrium.column.opponent(rules), Objective.MARGIN))
    loss = equilibrium.value - value
    return 0.0 if loss <= equilibrium.gap + 1e-9 else float(loss)


def _deal_losses(
    candidates: Sequence[HouseRule], mine: tuple[int, ...], equilibrium: EquilibriumResult
) -> list[float]:
    """Each candidate's loss on one deal, valuing each distinct arrangement once."""
    valued: dict[Arrangement, float] = {}
    losses = []
    for rule in candidates:
        arrangement = house_arrangement(mine, equilibrium.rules, rule)
        if arrangement not in valued:
            valued[arrangement] = equilibrium_loss(arrangement, equilibrium)
        losses.append(valued[arrangement])
    return losses


def search(
    family: HouseFamily | Iterable[HouseRule],
    seeds: Sequence[int],
    rules: Rules | None = None,
    *,
    solver: EquilibriumSolver | None = None,
) -> SearchResult:
    """Grade every rule of ``family`` on the deals of ``seeds``; best first.

    Parameters
    ----------
    family
        A :class:`HouseFamily`, or the candidate rules themselves.
    seeds
        The deals (player 1's holding is laid out, against player 2's).
    rules
        The rules.
    solver
        How to get each deal's margin equilibrium (default :func:`cached_equilibrium`).

    Raises
    ------
    SolverError
        Without deals or candidates.
    """
    rules = rules or DEFAULT_RULES
    solver = solver or cached_equilibrium
    candidates = list(family.candidates() if isinstance(family, HouseFamily) else family)
    if not seeds:
        raise SolverError("seeds: no deals to search on", argument="seeds")
    if not candidates:
        raise SolverError("family: no rules", argument="family")
    table = np.empty((len(candidates), len(seeds)))
    for column, seed in enumerate(seeds):
        mine, theirs = deal(seed, rules).holdings
        equilibrium = solver(mine, theirs, rules, Payoff.MARGIN)
        table[:, column] = _deal_losses(candidates, mine, equilibrium)
    order = np.argsort(table.mean(axis=1), kind="stable")
    scores = tuple(CandidateScore(candidates[i], tuple(float(x) for x in table[i])) for i in order)
    return SearchResult(tuple(seeds), rules, scores)
