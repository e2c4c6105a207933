"""Searching a family of house rules for the one closest to equilibrium play.

A house rule (:class:`solver.models.house.HouseRule`) builds packets one
simple way (:class:`~solver.models.house.Packets`), lays them out by a fixed
order, and optionally builds them a second way, laid out by a second order,
played when that layout beats the first position by position.  A
:class:`HouseFamily` is a set of such rules given as data.

Each candidate ``r`` is measured on seeded deals ``d`` by its mean
**equilibrium loss** (margin payoff), the quantity
:func:`solver.analysis.grade.grade` reports:

    loss_d(r) = v_d - u(house_arrangement(holding_d, r), y_d)

with ``v_d`` the deal's game value and ``y_d`` the opponent's equilibrium
strategy (losses within the certified gap count as 0).  The margin payoff is
a sum over positions, ``u(a, y) = sum_i T_y[i, s_i(a)]`` with ``T_y`` the
position value table of ``y`` (:func:`position_value_table`), so once a
deal is solved every candidate costs a table look-up: the packets of each
build are made once per deal, each of their orders valued once, and the
family's choices (main or alternative layout) are decided for all candidates
at once with numpy.  :func:`search` returns the candidates and their losses;
:func:`measure` reproduces the house rule's numbers (docs/findings.md,
"A house rule")::

    measure(n_training=250, n_test=400)

searches :data:`HOUSE_FAMILY` on :func:`training_seeds` deals and measures
the best rule and greedy play on :func:`holdout_seeds` deals;
:func:`validate` measures a rule and greedy play on a third set,
:func:`validation_seeds`, looked at only once the rule was chosen.

>>> from solver.game.rules import Rules
>>> rules = Rules(position_points=(6, 7))
>>> family = HouseFamily(orders=((0, 1), (1, 0)))
>>> result = search(family, seeds=(1, 2), rules=rules)
>>> len(result.candidates), result.best.mean_loss <= float(result.mean_losses.max())
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

from solver.book.source import DEFAULT_SOURCE, EquilibriumSolver
from solver.equilibria.equilibrium import EquilibriumResult, Payoff
from solver.errors import SolverError
from solver.game.arrangement import Arrangement, points_against
from solver.game.deal import deal, deal_seed
from solver.game.evaluator import strength
from solver.game.rules import Rules, rules_or_default
from solver.models.house import HOUSE_RULE, HouseRule, Packets, built_packets
from solver.models.opponents import Objective, expected_value, position_value_table
from solver.util.checks import check_callback, check_instance, check_int

__all__ = [
    "HOUSE_FAMILY",
    "MAX_SEEDS",
    "CandidateScore",
    "HouseFamily",
    "Measurement",
    "SearchResult",
    "equilibrium_loss",
    "holdout_seeds",
    "measure",
    "search",
    "training_seeds",
    "validate",
    "validation_seeds",
]

TRAINING_SERIES = 1000  # the series seeds of the training, test and validation deals (deal_seed)
HOLDOUT_SERIES = 2000
VALIDATION_SERIES = 3000


# The most seeds of a series one call lists (each is a SeedSequence: a second a million).
MAX_SEEDS = 1_000_000


def training_seeds(n: int) -> tuple[int, ...]:
    """The seeds of the first ``n`` training deals (never the test deals).

    >>> set(training_seeds(50)) & set(holdout_seeds(50))
    set()
    >>> training_seeds(-1)
    Traceback (most recent call last):
        ...
    solver.errors.QuintetError: n must be in [0, 1000000], got -1
    """
    check_int(n, "n", low=0, high=MAX_SEEDS)
    return tuple(deal_seed(TRAINING_SERIES, i) for i in range(n))


def holdout_seeds(n: int) -> tuple[int, ...]:
    """The seeds of the first ``n`` test deals (``n`` from 0 to :data:`MAX_SEEDS`)."""
    check_int(n, "n", low=0, high=MAX_SEEDS)
    return tuple(deal_seed(HOLDOUT_SERIES, i) for i in range(n))


def validation_seeds(n: int) -> tuple[int, ...]:
    """The seeds of the first ``n`` validation deals (neither training nor test deals).

    >>> set(validation_seeds(50)) & (set(training_seeds(50)) | set(holdout_seeds(50)))
    set()
    """
    return tuple(deal_seed(VALIDATION_SERIES, i) for i in range(n))


def _all_orders(n: int = 5) -> tuple[tuple[int, ...], ...]:
    return tuple(permutations(range(n)))


@dataclass(frozen=True)
class HouseFamily:
    """A family of house rules, as data.

    Every build of ``packets`` by every order of ``orders``; then, for each
    of them and each build of ``alternatives`` (other than the main one), by
    every order of ``alternative_orders`` (default: ``orders``), the rule
    that plays the alternative layout when it beats the main one.

    >>> len(list(HouseFamily().candidates()))
    120
    >>> f = HouseFamily(orders=((0, 1), (1, 0)), alternatives=(Packets.KEEP_FOURS,))
    >>> len(list(f.candidates())), list(f.candidates())[2].describe()
    (6, 'greedy packets at positions 1-2: 1 2; keep-fours packets 1 2 if they beat that')
    """

    orders: tuple[tuple[int, ...], ...] = field(default_factory=_all_orders)
    packets: tuple[Packets, ...] = (Packets.GREEDY,)
    alternatives: tuple[Packets, ...] = ()
    alternative_orders: tuple[tuple[int, ...], ...] | None = None

    def candidates(self) -> Iterator[HouseRule]:
        """The rules of the family, those without an alternative first."""
        for packets in self.packets:
            for order in self.orders:
                yield HouseRule(order, packets)
        second = self.orders if self.alternative_orders is None else self.alternative_orders
        for packets in self.packets:
            for alternative in self.alternatives:
                if alternative is packets:
                    continue
                for order in self.orders:
                    for alternative_order in second:
                        yield HouseRule(order, packets, alternative, alternative_order)


# The family the house rule was chosen from: greedy packets by any of the 120
# orders, alone or with one of the four other builds by any order (57,720 rules).
HOUSE_FAMILY = HouseFamily(alternatives=tuple(p for p in Packets if p is not Packets.GREEDY))


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
    def half_width(self) -> float:
        """Half the width of the mean's 95% confidence interval (1.96 standard errors)."""
        if len(self.losses) < 2:
            return float("nan")
        return float(1.96 * np.std(self.losses, ddof=1) / np.sqrt(len(self.losses)))

    @property
    def best_share(self) -> float:
        """Share of the deals on which the rule loses nothing."""
        return float(np.mean(np.asarray(self.losses) == 0.0))


@dataclass(frozen=True)
class SearchResult:
    """Every candidate's losses on every deal: ``losses[candidate, deal]``."""

    seeds: tuple[int, ...]
    rules: Rules
    candidates: tuple[HouseRule, ...]
    losses: np.ndarray = field(compare=False, repr=False)

    @property
    def mean_losses(self) -> np.ndarray:
        """Each candidate's mean loss, in the family's order."""
        return np.asarray(self.losses.mean(axis=1))

    def score(self, index: int) -> CandidateScore:
        """Candidate ``index`` with its losses."""
        return CandidateScore(self.candidates[index], tuple(float(x) for x in self.losses[index]))

    def ranking(self, n: int) -> tuple[CandidateScore, ...]:
        """The ``n`` best candidates, best first (ties: the earlier in the family)."""
        order = np.argsort(self.mean_losses, kind="stable")[:n]
        return tuple(self.score(int(i)) for i in order)

    @property
    def best(self) -> CandidateScore:
        """The best candidate (ties: the earlier in the family)."""
        return self.score(int(np.argmin(self.mean_losses)))


def equilibrium_loss(arrangement: Arrangement, equilibrium: EquilibriumResult) -> float:
    """What ``arrangement`` loses against the opponent's equilibrium strategy (margin).

    The same number as ``grade(...).equilibrium_loss``: 0 within the
    certified gap (plus 1e-9 of rounding).

    >>> from solver.game.rules import Rules
    >>> rules = Rules(position_points=(6, 7))
    >>> mine, theirs = deal(3, rules).holdings
    >>> eq = DEFAULT_SOURCE(mine, theirs, rules, Payoff.MARGIN)
    >>> equilibrium_loss(eq.row.arrangements[0], eq)
    0.0
    """
    rules = equilibrium.rules
    profile = arrangement.strengths(rules).astype(np.int64)
    value = float(expected_value(profile, equilibrium.column.opponent(rules), Objective.MARGIN))
    return _clipped(equilibrium.value, equilibrium.gap, np.asarray(value)).item()


def _clipped(game_value: float, gap: float, values: np.ndarray) -> np.ndarray:
    """Losses of arrangements worth ``values``: 0 within the certified gap."""
    loss = game_value - values
    return np.where(loss <= gap + 1e-9, 0.0, loss)


@dataclass(frozen=True)
class _Encoded:
    """The candidates as index arrays: main build and order, alternative (or -1) and order."""

    builds: tuple[Packets, ...]
    orders: np.ndarray  # (n_orders, n_packets)
    main: np.ndarray  # (n_candidates, 2): build index, order index
    alternative: np.ndarray  # (n_candidates, 2): build index or -1, order index


def _encode(candidates: Sequence[HouseRule], n_packets: int) -> _Encoded:
    orders = _all_orders(n_packets)
    order_index = {order: i for i, order in enumerate(orders)}
    builds = tuple(dict.fromkeys(b for r in candidates for b in (r.packets, r.alternative) if b))
    build_index = {b: i for i, b in enumerate(builds)}
    main, alternative = [], []
    for rule in candidates:
        if len(rule.order) != n_packets:
            raise SolverError(
                f"family: rule orders {len(rule.order)} packets, the rules have {n_packets}",
                argument="family",
            )
        main.append((build_index[rule.packets], order_index[rule.order]))
        if rule.alternative is None or rule.alternative_order is None:
            alternative.append((-1, 0))
        else:
            alternative.append((build_index[rule.alternative], order_index[rule.alternative_order]))
    return _Encoded(builds, np.array(orders), np.array(main), np.array(alternative))


def _deal_losses(
    encoded: _Encoded, mine: tuple[int, ...], equilibrium: EquilibriumResult
) -> np.ndarray:
    """Every candidate's loss on one deal (what :func:`house_arrangement` lays out, valued)."""
    rules = equilibrium.rules
    table = position_value_table(equilibrium.column.opponent(rules), Objective.MARGIN)
    return _table_losses(encoded, mine, rules, table, equilibrium.value, equilibrium.gap)


def _table_losses(
    encoded: _Encoded,
    mine: tuple[int, ...],
    rules: Rules,
    table: np.ndarray,
    game_value: float,
    gap: float,
) -> np.ndarray:
    # table[position, strength]: the opponent's equilibrium margin value of each packet.
    weakest_first = np.array(
        [strength(np.array(built_packets(mine, rules, b)), rules) for b in encoded.builds],
        dtype=np.int64,
    )  # (n_builds, n_packets)
    profiles = weakest_first[:, encoded.orders]  # (n_builds, n_orders, n_packets)
    positions = np.arange(rules.n_packets)
    losses = _clipped(game_value, gap, table[positions, profiles].sum(axis=-1))  # (builds, orders)
    main_build, main_order = encoded.main.T
    alt_build, alt_order = encoded.alternative.T
    has_alternative = alt_build >= 0
    alt_build = np.where(has_alternative, alt_build, 0)
    won, lost = points_against(
        profiles[alt_build, alt_order], profiles[main_build, main_order], rules
    )
    plays_alternative = has_alternative & (won > lost)
    return np.where(plays_alternative, losses[alt_build, alt_order], losses[main_build, main_order])


def search(
    family: HouseFamily | Iterable[HouseRule],
    seeds: Sequence[int],
    rules: Rules | None = None,
    *,
    solver: EquilibriumSolver | None = None,
) -> SearchResult:
    """Grade every rule of ``family`` on the deals of ``seeds``.

    Parameters
    ----------
    family
        A :class:`HouseFamily`, or the candidate rules themselves.
    seeds
        The deals (player 1's holding is laid out, against player 2's).
    rules
        The rules.
    solver
        How to get each deal's margin equilibrium (default :func:`DEFAULT_SOURCE`).

    Raises
    ------
    SolverError
        Without deals or candidates, or for rules of another number of packets.
    """
    rules = rules_or_default(rules)
    solver = check_callback(solver, "solver") or DEFAULT_SOURCE
    if isinstance(family, str) or not isinstance(family, (HouseFamily, Iterable)):
        raise TypeError(f"family must be a HouseFamily or house rules, got {family!r}")
    if isinstance(seeds, (str, bytes)) or not isinstance(seeds, Sequence):
        raise TypeError(f"seeds must be a sequence of deal seeds, got {seeds!r}")
    for seed in seeds:
        check_int(seed, "seeds", low=0)
    candidates = tuple(family.candidates() if isinstance(family, HouseFamily) else family)
    for rule in candidates:
        check_instance(rule, HouseRule, "family")
    if not seeds:
        raise SolverError("seeds: no deals to search on", argument="seeds")
    if not candidates:
        raise SolverError("family: no rules", argument="family")
    encoded = _encode(candidates, rules.n_packets)
    table = np.empty((len(candidates), len(seeds)))
    for column, seed in enumerate(seeds):
        mine, theirs = deal(seed, rules).holdings
        table[:, column] = _deal_losses(encoded, mine, solver(mine, theirs, rules, Payoff.MARGIN))
    return SearchResult(tuple(seeds), rules, candidates, table)


@dataclass(frozen=True)
class Measurement:
    """The best rule of a family on training deals, and it and greedy on test deals."""

    rule: HouseRule
    training: CandidateScore
    greedy_training: CandidateScore
    test: CandidateScore
    greedy_test: CandidateScore

    def table(self) -> str:
        """The four numbers: mean loss ± half the 95% interval, training and test."""
        rows = [f"rule: {self.rule.describe()}"]
        for name, (a, b) in (
            ("house", (self.training, self.test)),
            ("greedy", (self.greedy_training, self.greedy_test)),
        ):
            rows.append(
                f"{name:7s} training {a.mean_loss:.3f} ± {a.half_width:.3f} ({len(a.losses)} deals)"
                f"  test {b.mean_loss:.3f} ± {b.half_width:.3f} ({len(b.losses)} deals)"
            )
        return "\n".join(rows)


def measure(
    n_training: int = 250,
    n_test: int = 400,
    family: HouseFamily = HOUSE_FAMILY,
    rules: Rules | None = None,
    *,
    solver: EquilibriumSolver | None = None,
) -> Measurement:
    """Search ``family`` on ``n_training`` training deals; check the best on ``n_test`` others.

    >>> from solver.game.rules import Rules
    >>> m = measure(2, 2, HouseFamily(orders=((0, 1), (1, 0))), Rules(position_points=(6, 7)))
    >>> m.training.mean_loss <= m.greedy_training.mean_loss
    True
    >>> measure(0, 2)
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: seeds: no deals to search on
    """
    rules = rules_or_default(rules)
    greedy = HouseRule(tuple(range(rules.n_packets)))
    found = search(family, training_seeds(n_training), rules, solver=solver)
    best = found.best
    if greedy in found.candidates:  # no second pass over the training deals
        on_training = found.score(found.candidates.index(greedy))
    else:
        on_training = search((greedy,), found.seeds, rules, solver=solver).best
    on_test = search((best.rule, greedy), holdout_seeds(n_test), rules, solver=solver)
    return Measurement(best.rule, best, on_training, on_test.score(0), on_test.score(1))


def validate(
    n: int = 400,
    rule: HouseRule = HOUSE_RULE,
    rules: Rules | None = None,
    *,
    solver: EquilibriumSolver | None = None,
) -> tuple[CandidateScore, CandidateScore]:
    """``rule``'s and greedy play's losses on the first ``n`` :func:`validation_seeds` deals.

    >>> from solver.game.rules import Rules
    >>> house, greedy = validate(2, HouseRule((1, 0)), Rules(position_points=(6, 7)))
    >>> len(house.losses), len(greedy.losses)
    (2, 2)
    >>> validate(0)
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: seeds: no deals to search on
    """
    rules = rules_or_default(rules)
    greedy = HouseRule(tuple(range(rules.n_packets)))
    found = search((rule, greedy), validation_seeds(n), rules, solver=solver)
    return found.score(0), found.score(1)
