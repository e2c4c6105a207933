"""Opponent models, objectives, and the exact value of an arrangement.

An opponent model is a probability distribution over the opponent's
arrangements.  What an objective needs from it:

* **points** and **margin** are sums over positions, so they need only the
  distribution of the opponent's packet strength at each position (the
  *marginals*).  Against a uniformly random arrangement every position's
  packet is a uniformly random five-card subset of the opponent's cards, so
  the marginals are exact counts over all ``C(25, 5) = 53,130`` subsets.
* **win** (more points than the opponent) and **game** (1 for a win, 1/2
  for a draw, 0 for a loss) depend on all positions at once, so they need
  the joint distribution: a finite list of opponent strength *profiles*
  with weights (a known arrangement, a mixture, or samples of a random one).

Weights are integers so that the optimizer's coefficients are exact: the
counts of subsets for the random model, 1 for a known arrangement, and the
probabilities of a mixture scaled by ``MIXTURE_SCALE`` and rounded; the
rounding error is carried into the reported bound (``rounding_error``).

For a strength ``s`` at position ``i`` with points ``w_i``, the opponent's
weight below ``s`` is ``lt[i, s]`` and above it ``gt[i, s]``; then
``points = w_i * lt / total`` and ``margin = w_i * (lt - gt) / total``.

>>> from solver.game.cards import parse_cards
>>> from solver.game.arrangement import Arrangement
>>> a = Arrangement.parse("7c 7d 7h 7s 8c | 8d 8h 8s 9c 9d | 9h 9s Tc Td Th | "
...                       "Ts Jc Jd Jh Js | Qc Qd Qh Qs Kc")
>>> known = Opponent.known(a)
>>> float(expected_value(a.strengths(), known, Objective.MARGIN))
0.0
>>> Opponent.known(a, holding=range(1, 26))
Traceback (most recent call last):
    ...
solver.errors.ArrangementError: the arrangement uses 7♣, not in the holding; it leaves out K♦
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np

from solver.errors import MixtureError, SolverError
from solver.game.arrangement import MAX_PROFILES, Arrangement, check_profiles, points_against
from solver.game.ranking import ranking
from solver.game.rules import Rules, rules_or_default
from solver.models.heuristics import greedy_arrangement
from solver.models.mixture_checks import check_arrangements, check_probabilities
from solver.models.packets import check_holding, strength_counts
from solver.util.checks import check_choice, check_instance

__all__ = [
    "MIXTURE_SCALE",
    "Objective",
    "Opponent",
    "OpponentKind",
    "PositionStats",
    "below_and_above",
    "check_arrangements",
    "check_probabilities",
    "expected_value",
    "game_outcome",
    "position_stats",
    "position_value_table",
    "position_values",
    "strength_probabilities",
]

MIXTURE_SCALE = 1_000_000


class Objective(str, Enum):
    """What the player maximizes.

    The members share their names with :class:`~solver.equilibria.frontier_game.Payoff`
    where they mean the same: ``MARGIN`` and ``GAME_RESULT`` (1 / ½ / 0).
    ``WIN_PROBABILITY`` (1 / 0) has no payoff of that name.  The values are
    the names the command line, the JSON documents and the files use.

    >>> Objective("win") is Objective.WIN_PROBABILITY, Objective("game").name
    (True, 'GAME_RESULT')
    """

    POINTS = "points"  # expected points scored
    MARGIN = "margin"  # expected points scored minus points conceded
    WIN_PROBABILITY = "win"  # probability of scoring more points than the opponent: 1 / 0
    GAME_RESULT = "game"  # expected game result: 1 win, 1/2 draw, 0 loss

    @property
    def separable(self) -> bool:
        """Whether the value is a sum over positions (needs only marginals)."""
        return self in (Objective.POINTS, Objective.MARGIN)

    def span(self, rules: Rules) -> float:
        """Largest possible difference between two values of this objective."""
        return {
            Objective.POINTS: rules.total_points,
            Objective.MARGIN: 2 * rules.total_points,
            Objective.WIN_PROBABILITY: 1.0,
            Objective.GAME_RESULT: 1.0,
        }[self]


class OpponentKind(str, Enum):
    """Where an opponent model came from."""

    RANDOM = "random"
    KNOWN = "known"
    GREEDY = "greedy"
    MIXTURE = "mixture"
    SAMPLED = "sampled"


@dataclass(frozen=True, eq=False)
class Opponent:
    """A distribution over the opponent's arrangements.

    Build one with :meth:`random`, :meth:`known` or :meth:`mixture`.

    Attributes
    ----------
    kind
        Where it came from.
    rules
        The rules (position points, ranking).
    holding
        The opponent's cards, sorted.
    marginal
        ``(n_positions, n_strengths)`` int64: weight of each strength at each position.
    total
        Sum of the weights (the same at every position).
    profiles
        ``(K, n_positions)`` strength profiles of the support, or None (random).
    weights
        ``(K,)`` int64 weights of the profiles, summing to ``total``, or None.
    probabilities
        ``(K,)`` float64 exact probabilities of the profiles, or None.
    arrangements
        The support's arrangements, or None (random).
    rounding_error
        ``sum |probability - weight / total|``: how far the integer weights
        are from the exact probabilities (0 except for mixtures).
    """

    kind: OpponentKind
    rules: Rules
    holding: tuple[int, ...]
    marginal: np.ndarray
    total: int
    profiles: np.ndarray | None = None
    weights: np.ndarray | None = None
    probabilities: np.ndarray | None = None
    arrangements: tuple[Arrangement, ...] | None = None
    rounding_error: float = 0.0

    @classmethod
    def random(cls, holding: Iterable[int], rules: Rules | None = None) -> Opponent:
        """An opponent that arranges ``holding`` uniformly at random.

        >>> opp = Opponent.random(range(25))
        >>> opp.total, opp.marginal.shape
        (53130, (5, 840))
        """
        rules = rules_or_default(rules)
        cards = np.array(check_holding(holding, rules, who="opponent's holding"))
        # Each position's packet is a uniformly random five-card subset of the holding.
        counts = strength_counts(cards.tolist(), rules)
        marginal = np.tile(counts, (rules.n_packets, 1))
        return cls(
            kind=OpponentKind.RANDOM,
            rules=rules,
            holding=tuple(int(c) for c in cards),
            marginal=marginal,
            total=int(counts.sum()),
        )

    @classmethod
    def known(
        cls,
        arrangement: Arrangement,
        rules: Rules | None = None,
        *,
        holding: Iterable[int] | None = None,
        kind: OpponentKind = OpponentKind.KNOWN,
    ) -> Opponent:
        """An opponent known to play ``arrangement``."""
        check_instance(arrangement, Arrangement, "arrangement")
        return cls.mixture([arrangement], [1.0], rules, holding=holding, kind=kind)

    @classmethod
    def greedy(cls, holding: Iterable[int], rules: Rules | None = None) -> Opponent:
        """The opponent who lays ``holding`` out greedily (strongest packet last).

        The one way to build it: :func:`~solver.models.heuristics.greedy_arrangement`
        of the holding, known, of kind :attr:`OpponentKind.GREEDY`.

        >>> Opponent.greedy(range(25)).kind is OpponentKind.GREEDY
        True
        """
        rules = rules_or_default(rules)
        cards = check_holding(holding, rules, who="holding")
        arrangement = greedy_arrangement(cards, rules)
        return cls.known(arrangement, rules, holding=cards, kind=OpponentKind.GREEDY)

    @classmethod
    def mixture(
        cls,
        arrangements: Sequence[Arrangement],
        probabilities: Sequence[float] | np.ndarray,
        rules: Rules | None = None,
        *,
        holding: Iterable[int] | None = None,
        kind: OpponentKind = OpponentKind.MIXTURE,
    ) -> Opponent:
        """An opponent playing ``arrangements[j]`` with ``probabilities[j]``.

        Raises
        ------
        MixtureError
            If the lists are empty or differ in length, or a probability is
            negative, or they do not sum to 1 (within 1e-6).
        ArrangementError
            If an arrangement does not match the rules or the holding.

        >>> a = Arrangement.from_array(np.arange(25).reshape(5, 5))
        >>> Opponent.mixture([a], [0.5])
        Traceback (most recent call last):
            ...
        solver.errors.MixtureError: probabilities sum to 0.5, not 1
        """
        rules = rules_or_default(rules)
        check_arrangements(arrangements, "arrangements")
        probs = check_probabilities(probabilities, len(arrangements), "probabilities")
        probs = probs / probs.sum()
        first = arrangements[0]
        reference = check_holding(first.cards if holding is None else holding, rules)
        for arrangement in arrangements:
            arrangement.check(reference, rules)
        profiles = np.array([a.strengths(rules) for a in arrangements], dtype=np.int64)
        if np.all(probs == probs[0]):
            # Equal probabilities (a known arrangement, samples): exact unit weights.
            weights = np.ones(len(arrangements), dtype=np.int64)
        else:
            weights = np.rint(probs * MIXTURE_SCALE).astype(np.int64)
        total = int(weights.sum())
        if total == 0:
            raise MixtureError("every probability rounds to zero")
        n_strengths = ranking(rules).n_strengths
        marginal = np.zeros((rules.n_packets, n_strengths), dtype=np.int64)
        for position in range(rules.n_packets):
            np.add.at(marginal[position], profiles[:, position], weights)
        return cls(
            kind=kind,
            rules=rules,
            holding=reference,
            marginal=marginal,
            total=total,
            profiles=profiles,
            weights=weights,
            probabilities=probs,
            arrangements=tuple(arrangements),
            rounding_error=float(np.abs(probs - weights / total).sum()),
        )

    @property
    def has_joint(self) -> bool:
        """Whether the joint distribution (profiles) is known exactly."""
        return self.profiles is not None

    def sampled(self, n_samples: int, rng: np.random.Generator) -> Opponent:
        """``n_samples`` arrangements drawn from this model, as an equal-weight mixture.

        >>> opp = Opponent.random(range(25)).sampled(3, np.random.default_rng(0))
        >>> opp.kind.value, opp.total
        ('sampled', 3)
        """
        if n_samples < 1:
            raise SolverError(f"the number of samples must be at least 1, got {n_samples}")
        if self.arrangements is not None and self.probabilities is not None:
            picks = rng.choice(len(self.arrangements), size=n_samples, p=self.probabilities)
            drawn = [self.arrangements[int(j)] for j in picks]
        else:
            from solver.models.heuristics import random_arrangements

            drawn = random_arrangements(self.holding, n_samples, rng, self.rules)
        equal = np.full(n_samples, 1.0 / n_samples)
        return Opponent.mixture(drawn, equal, self.rules, kind=OpponentKind.SAMPLED)


def below_and_above(mass: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Along the last axis (strengths): the mass strictly below and strictly above each.

    >>> [a.tolist() for a in below_and_above(np.array([1, 2, 3]))]
    [[0, 1, 3], [5, 3, 0]]
    """
    below = np.cumsum(mass, axis=-1) - mass
    above = mass.sum(axis=-1, keepdims=True) - below - mass
    return below, above


def game_outcome(margin: np.ndarray, objective: Objective) -> np.ndarray:
    """A game's value to the player ``margin`` points ahead (float64, elementwise).

    Win: 1 for a win, else 0.  Game: 1 for a win, 1/2 for a draw, 0 for a loss.

    >>> game_outcome(np.array([3, 0, -2]), Objective.GAME_RESULT).tolist()
    [1.0, 0.5, 0.0]
    """
    result = (margin > 0).astype(np.float64)
    if objective is Objective.GAME_RESULT:
        result += 0.5 * (margin == 0)
    return result


def position_values(opponent: Opponent, objective: Objective) -> np.ndarray:
    """Integer value of each strength at each position, in units of ``1 / total``.

    Only for the separable objectives (points, margin).

    >>> opp = Opponent.random(range(25))
    >>> table = position_values(opp, Objective.POINTS)
    >>> table.shape, int(table[4, -1]) == 7 * opp.total
    ((5, 840), True)
    >>> position_values(opp, Objective.WIN_PROBABILITY)
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: objective 'win' is not a sum over positions
    """
    if not objective.separable:
        raise SolverError(f"objective {objective.value!r} is not a sum over positions")
    below, above = below_and_above(opponent.marginal)
    weights = np.asarray(opponent.rules.position_points, dtype=np.int64)[:, None]
    if objective is Objective.POINTS:
        return weights * below
    return weights * (below - above)


def _profiles(value: object, name: str, opponent: Opponent) -> np.ndarray:
    """Strength profiles under the opponent's rules, as int64 (:func:`check_profiles`)."""
    check_instance(opponent, Opponent, "opponent")
    return check_profiles(value, name, opponent.rules).astype(np.int64, copy=False)


def strength_probabilities(opponent: Opponent) -> np.ndarray:
    """``(n_positions, n_strengths)``: the exact chance of each opponent strength at each position.

    >>> round(float(strength_probabilities(Opponent.random(range(25))).sum(axis=1)[0]), 12)
    1.0
    """
    check_instance(opponent, Opponent, "opponent")
    if opponent.profiles is None or opponent.probabilities is None:
        return opponent.marginal / opponent.total
    n_positions, n_strengths = opponent.marginal.shape
    mass = np.zeros((n_positions, n_strengths))
    for position in range(n_positions):
        np.add.at(mass[position], opponent.profiles[:, position], opponent.probabilities)
    return mass


def position_value_table(opponent: Opponent, objective: Objective) -> np.ndarray:
    """Exact float value of each strength at each position (points or margin).

    Unlike :func:`position_values` (integer weights, for the optimizer), a
    mixture's probabilities are used as they are.

    >>> opp = Opponent.random(range(25))
    >>> bool(np.allclose(position_value_table(opp, Objective.MARGIN),
    ...                  position_values(opp, Objective.MARGIN) / opp.total))
    True
    """
    if not objective.separable:
        raise SolverError(f"objective {objective.value!r} is not a sum over positions")
    below, above = below_and_above(strength_probabilities(opponent))
    weights = np.asarray(opponent.rules.position_points, dtype=np.float64)[:, None]
    return weights * below if objective is Objective.POINTS else weights * (below - above)


def expected_value(profiles: np.ndarray, opponent: Opponent, objective: Objective) -> np.ndarray:
    """Exact expected value of strength profiles against an opponent.

    Parameters
    ----------
    profiles
        ``(..., n_positions)`` packet strengths in position order.
    opponent
        The opponent model; win and game need its joint distribution.
    objective
        What to evaluate.

    Returns
    -------
    numpy.ndarray
        float64 values of the leading shape.

    Raises
    ------
    SolverError
        For win or game against a model without a joint distribution (random).
    """
    profiles = _profiles(profiles, "profiles", opponent)
    objective = check_choice(objective, Objective, "objective", SolverError)
    if objective.separable:
        table = position_value_table(opponent, objective)
        positions = np.arange(profiles.shape[-1])
        return table[positions, profiles].sum(axis=-1)
    if opponent.profiles is None or opponent.probabilities is None:
        raise SolverError(
            f"objective {objective.value!r} against a {opponent.kind.value} opponent "
            "needs sampled arrangements"
        )
    pairs = (profiles.size // profiles.shape[-1]) * opponent.profiles.shape[0]
    if pairs > MAX_PROFILES:  # each profile is scored against each of the opponent's
        raise SolverError(
            f"profiles: {pairs} pairs with the opponent's profiles; at most {MAX_PROFILES}",
            argument="profiles",
        )
    mine, theirs = points_against(profiles[..., None, :], opponent.profiles, opponent.rules)
    return game_outcome(mine - theirs, objective) @ opponent.probabilities


@dataclass(frozen=True)
class PositionStats:
    """Chances at one position against the opponent model."""

    win: float
    tie: float
    loss: float
    expected_points: float
    expected_margin: float


def position_stats(profile: np.ndarray, opponent: Opponent) -> tuple[PositionStats, ...]:
    """Win, tie and loss chances and expected points at each position.

    >>> opp = Opponent.random(range(25))
    >>> stats = position_stats(np.array([0, 0, 0, 0, 839]), opp)
    >>> stats[4].loss, round(stats[0].win, 3)
    (0.0, 0.0)
    """
    profile = _profiles(profile, "profile", opponent)
    if profile.ndim != 1:
        raise SolverError(
            f"profile must be one strength per position, got shape {profile.shape}",
            argument="profile",
        )
    positions = np.arange(profile.shape[0])
    mass = strength_probabilities(opponent)[positions]
    below = below_and_above(mass)[0][positions, profile]
    equal = mass[positions, profile]
    above = np.clip(1.0 - below - equal, 0.0, 1.0)
    out = []
    for i in positions:
        w = opponent.rules.position_points[i]
        win, tie, loss = float(below[i]), float(equal[i]), float(above[i])
        out.append(PositionStats(win, tie, loss, w * win, w * (win - loss)))
    return tuple(out)
