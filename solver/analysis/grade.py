"""Grade any arrangement of a deal: what it loses, how it can be punished, how to fix it.

Both holdings are public, so a deal is a zero-sum game with value ``v``
(:mod:`solver.equilibria.equilibrium`).  Let ``y`` be the opponent's
equilibrium strategy (the column strategy of ``solve(mine, theirs)``) and
``u(a, y)`` the expected margin of arrangement ``a`` against it.  Then

    equilibrium loss(a) = v - u(a, y)

is what ``a`` gives up against a player of the equilibrium.  Every
arrangement of the row player's equilibrium support earns ``v`` exactly
(that is what makes ``y`` an equilibrium), so the support grades 0.  The
solver certifies ``v`` within ``[lower, upper]``: losses within that gap
(plus the solver's tolerance, 1e-9, of rounding) are not certified and are reported as 0, with the gap.

Also reported:

* **exploitability**: the margin a best response to ``a`` itself scores (the
  opponent knows ``a``: :meth:`Opponent.known`), and that punishing arrangement;
* the expected margin against a **random** arranger and against the
  **greedy** arrangement, and the gap to the best response to each;
* **dominance** (:func:`dominating_arrangement`);
* the **smallest change that helps most** (:mod:`solver.analysis.changes`);
* a :class:`Verdict` from the margin loss in points.

Equilibria are solved once per deal and kept in-process
(:func:`DEFAULT_SOURCE`); :func:`grade` takes an ``equilibrium`` or a
``solver`` so that a persistent store of solutions can supply them.

>>> from solver.game.deal import deal
>>> from solver.game.rules import Rules
>>> rules = Rules(position_points=(6, 7))
>>> mine, theirs = deal(3, rules).holdings
>>> support = DEFAULT_SOURCE(mine, theirs, rules, Payoff.MARGIN).row.arrangements[0]
>>> g = grade(support, theirs, rules)
>>> g.equilibrium_loss, g.verdict.value
(0.0, 'best')
>>> grade(support, theirs, rules, holding=range(10))
Traceback (most recent call last):
    ...
solver.errors.ArrangementError: the arrangement uses J♠ Q♦ Q♥ K♦ A♦ A♥, not in the holding; it leaves out 7♣ 7♦ 7♥ 8♥ 9♣ 9♦
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

import numpy as np

from solver.analysis.changes import Change, best_change, describe_move
from solver.analysis.dominance import dominating_arrangement
from solver.book.source import DEFAULT_SOURCE, EquilibriumSolver
from solver.equilibria.equilibrium import DEFAULT_TOLERANCE, EquilibriumResult, Payoff
from solver.errors import SolverError
from solver.game.arrangement import Arrangement
from solver.game.rules import Rules, rules_or_default
from solver.models.opponents import Objective, Opponent, expected_value
from solver.models.packets import check_holding
from solver.response.frontier_response import frontier_best_response
from solver.util.checks import check_callback, check_instance

__all__ = [
    "VERDICT_THRESHOLDS",
    "EquilibriumGrade",
    "Grade",
    "Verdict",
    "equilibrium_grade",
    "grade",
    "verdict_for",
]


class Verdict(str, Enum):
    """How good an arrangement is, from its margin equilibrium loss."""

    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


# Upper limits of the margin equilibrium loss in points, out of 25 at stake.
# best: no certified loss at all (equilibrium play).  good: under a quarter
# point, the smallest position's 3 points lost once in twelve games.
# inaccuracy: under 3/4 point, a quarter of the cheapest position.  mistake:
# under 2 points, where plain greedy play usually lands (it loses 0.8 a game to
# eq-margin in the README's 1,000-deal tournament).  Beyond: a blunder, like the
# best response to a random arranger (3.4 a game against eq-margin there).
VERDICT_THRESHOLDS: tuple[tuple[float, Verdict], ...] = (
    (1e-6, Verdict.BEST),
    (0.25, Verdict.GOOD),
    (0.75, Verdict.INACCURACY),
    (2.0, Verdict.MISTAKE),
)


def verdict_for(loss: float) -> Verdict:
    """The verdict of a margin equilibrium loss (points).

    >>> [verdict_for(x).value for x in (0.0, 0.1, 0.5, 1.0, 5.0)]
    ['best', 'good', 'inaccuracy', 'mistake', 'blunder']
    >>> verdict_for(-1.0)
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: loss must be non-negative, got -1.0
    """
    if not loss >= 0:
        raise SolverError(f"loss must be non-negative, got {loss}", argument="loss")
    for limit, verdict in VERDICT_THRESHOLDS:
        if loss <= limit if verdict is Verdict.BEST else loss < limit:
            return verdict
    return Verdict.BLUNDER


@dataclass(frozen=True)
class Grade:
    """What an arrangement is worth, against the equilibrium and the simple players.

    Attributes
    ----------
    arrangement, opponent_holding, rules
        What was graded.
    equilibrium
        The margin equilibrium of the deal (the graded player is the row player).
    value
        The arrangement's expected margin against the opponent's equilibrium
        strategy.
    equilibrium_loss
        ``equilibrium.value - value`` in points, 0 when within ``certificate_gap``.
    certificate_gap
        The equilibrium's certified gap (points).
    win_equilibrium, win_loss
        With ``payoff="win"`` or ``"both"``: the win equilibrium and the win
        probability lost against its column strategy; else None.
    exploitability
        The margin a best response to this arrangement scores (points).
    punishing
        That best response.
    against_random, best_against_random
        Expected margin against a random arranger, and the best response's.
    against_greedy, best_against_greedy
        Margin against the opponent's greedy arrangement, and the best response's.
    dominating
        An arrangement of the same cards that dominates this one position by
        position, or None.
    change
        The best single small change, or None when none gains.
    verdict
        From ``equilibrium_loss`` (:data:`VERDICT_THRESHOLDS`).
    """

    arrangement: Arrangement
    opponent_holding: tuple[int, ...]
    rules: Rules
    equilibrium: EquilibriumResult
    value: float
    equilibrium_loss: float
    certificate_gap: float
    win_equilibrium: EquilibriumResult | None
    win_loss: float | None
    exploitability: float
    punishing: Arrangement
    against_random: float
    best_against_random: float
    against_greedy: float
    best_against_greedy: float
    dominating: Arrangement | None
    change: Change | None
    verdict: Verdict

    @property
    def random_gap(self) -> float:
        """What the best response to a random arranger scores more."""
        return max(0.0, self.best_against_random - self.against_random)

    @property
    def greedy_gap(self) -> float:
        """What the best response to the greedy arrangement scores more."""
        return max(0.0, self.best_against_greedy - self.against_greedy)

    @property
    def dominated(self) -> bool:
        """Whether another arrangement dominates this one position by position."""
        return self.dominating is not None


def _loss(value: float, achieved: float, gap: float) -> float:
    """``value - achieved``, 0 when not certified beyond the gap."""
    loss = value - achieved
    return 0.0 if loss <= gap + DEFAULT_TOLERANCE else float(loss)


def _checked_equilibrium(
    result: EquilibriumResult, mine: tuple[int, ...], theirs: tuple[int, ...], rules: Rules
) -> EquilibriumResult:
    if result.rules != rules or result.row.cards != mine or result.column.cards != theirs:
        raise SolverError(
            "equilibrium is not of this deal (holdings or rules differ)", argument="equilibrium"
        )
    return result


def _suggested_change(
    arrangement: Arrangement, equilibrium: EquilibriumResult, column: Opponent, value: float
) -> Change | None:
    """The best single change against the equilibrium's ``column`` (its opponent model,
    whose strength profiles are reused, not computed again)."""
    rules, mixture = equilibrium.rules, equilibrium.column
    profiles = column.profiles
    if profiles is None:  # a mixture's model always has them; kept for the type's sake
        profiles = np.array([a.strengths(rules) for a in mixture.arrangements], dtype=np.int64)
    probabilities = np.asarray(mixture.probabilities, dtype=np.float64)
    found = best_change(arrangement, profiles, probabilities, rules, value)
    if found is None:
        return None
    index, moves, cards, values = found
    kind, positions, given, taken, changed = describe_move(arrangement, moves, cards, index)
    return Change(
        kind=kind,
        positions=positions,
        given=given,
        taken=taken,
        arrangement=changed,
        value=float(values[index]),
        equilibrium_loss=_loss(equilibrium.value, float(values[index]), equilibrium.gap),
        candidates=int(values.shape[0]),
    )


def _against(mine: tuple[int, ...], profile: np.ndarray, opponent: Opponent) -> tuple[float, float]:
    """Expected margin of ``profile`` against ``opponent``, and the best response's."""
    value = float(expected_value(profile, opponent, Objective.MARGIN))
    best = frontier_best_response(mine, opponent, Objective.MARGIN).value
    return value, max(best, value)


def _win_grade(
    profile: np.ndarray,
    mine: tuple[int, ...],
    theirs: tuple[int, ...],
    rules: Rules,
    solver: EquilibriumSolver,
) -> tuple[EquilibriumResult, float]:
    """The deal's win equilibrium, and the win probability ``profile`` loses against it."""
    win_equilibrium = _checked_equilibrium(
        solver(mine, theirs, rules, Payoff.GAME_RESULT), mine, theirs, rules
    )
    won = float(
        expected_value(profile, win_equilibrium.column.opponent(rules), Objective.GAME_RESULT)
    )
    return win_equilibrium, _loss(win_equilibrium.value, won, win_equilibrium.gap)


@dataclass(frozen=True)
class EquilibriumGrade:
    """An arrangement against the deal's margin equilibrium only: what :func:`grade` starts from.

    Attributes
    ----------
    arrangement, opponent_holding, rules, equilibrium, value, equilibrium_loss, certificate_gap,
    change, verdict
        As in :class:`Grade` (the same figures, computed the same way).
    """

    arrangement: Arrangement
    opponent_holding: tuple[int, ...]
    rules: Rules
    equilibrium: EquilibriumResult
    value: float
    equilibrium_loss: float
    certificate_gap: float
    change: Change | None
    verdict: Verdict


def _core(
    arrangement: Arrangement, theirs: tuple[int, ...], rules: Rules, equilibrium: EquilibriumResult
) -> EquilibriumGrade:
    """The :class:`EquilibriumGrade` of a checked arrangement, given the deal's margin equilibrium."""
    profile = arrangement.strengths(rules).astype(np.int64)
    column = equilibrium.column.opponent(rules)
    value = float(expected_value(profile, column, Objective.MARGIN))
    loss = _loss(equilibrium.value, value, equilibrium.gap)
    return EquilibriumGrade(
        arrangement=arrangement,
        opponent_holding=theirs,
        rules=rules,
        equilibrium=equilibrium,
        value=value,
        equilibrium_loss=loss,
        certificate_gap=equilibrium.gap,
        change=_suggested_change(arrangement, equilibrium, column, value) if loss > 0 else None,
        verdict=verdict_for(loss),
    )


def _graded(core: EquilibriumGrade, with_win: bool, solver: EquilibriumSolver) -> Grade:
    """The whole :class:`Grade`: ``core``, the best responses, dominance and (``with_win``)
    the win equilibrium's loss (from ``solver``)."""
    arrangement, theirs, rules = core.arrangement, core.opponent_holding, core.rules
    mine = arrangement.cards
    profile = arrangement.strengths(rules).astype(np.int64)
    win_equilibrium, win_loss = None, None
    if with_win:
        win_equilibrium, win_loss = _win_grade(profile, mine, theirs, rules, solver)
    punisher = frontier_best_response(theirs, Opponent.known(arrangement, rules), Objective.MARGIN)
    against_random, best_random = _against(mine, profile, Opponent.random(theirs, rules))
    against_greedy, best_greedy = _against(mine, profile, Opponent.greedy(theirs, rules))
    return Grade(
        arrangement=arrangement,
        opponent_holding=theirs,
        rules=rules,
        equilibrium=core.equilibrium,
        value=core.value,
        equilibrium_loss=core.equilibrium_loss,
        certificate_gap=core.certificate_gap,
        win_equilibrium=win_equilibrium,
        win_loss=win_loss,
        exploitability=float(punisher.value),
        punishing=punisher.arrangement,
        against_random=against_random,
        best_against_random=best_random,
        against_greedy=against_greedy,
        best_against_greedy=best_greedy,
        dominating=dominating_arrangement(arrangement, rules),
        change=core.change,
        verdict=core.verdict,
    )


def _deal_of(
    arrangement: Arrangement,
    opponent_holding: Iterable[int] | None,
    rules: Rules | None,
    holding: Iterable[int] | None,
    equilibrium: EquilibriumResult | None,
    solver: EquilibriumSolver,
) -> tuple[tuple[int, ...], Rules, EquilibriumResult]:
    """The opponent's holding, the rules and the checked margin equilibrium of a grade."""
    rules = rules_or_default(rules)
    check_instance(arrangement, Arrangement, "arrangement")
    arrangement.check(holding, rules)
    mine = arrangement.cards
    theirs = (
        mine
        if opponent_holding is None
        else check_holding(opponent_holding, rules, who="opponent_holding")
    )
    if equilibrium is not None:
        check_instance(equilibrium, EquilibriumResult, "equilibrium")
    if equilibrium is None:
        equilibrium = solver(mine, theirs, rules, Payoff.MARGIN)
    return theirs, rules, _checked_equilibrium(equilibrium, mine, theirs, rules)


def equilibrium_grade(
    arrangement: Arrangement,
    opponent_holding: Iterable[int] | None = None,
    rules: Rules | None = None,
    *,
    holding: Iterable[int] | None = None,
    equilibrium: EquilibriumResult | None = None,
    solver: EquilibriumSolver | None = None,
) -> EquilibriumGrade:
    """The part of :func:`grade` that needs only the deal's margin equilibrium.

    The equilibrium loss, the verdict and the best single change, exactly as
    :func:`grade` reports them, without the best responses (exploitability,
    against random and greedy play), which need the holdings' strategy
    frontiers and cost most of a grade: what ``quintet analyze`` grades a
    history with.  Arguments and errors as for :func:`grade`.

    >>> from solver.game.deal import deal
    >>> rules = Rules(position_points=(6, 7))
    >>> mine, theirs = deal(5, rules).holdings
    >>> laid = Arrangement.from_array(np.array(mine).reshape(2, 5))
    >>> core = equilibrium_grade(laid, theirs, rules)
    >>> core.equilibrium_loss == grade(laid, theirs, rules).equilibrium_loss
    True
    >>> equilibrium_grade(laid, theirs, rules, holding=range(10))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    solver.errors.ArrangementError: the arrangement uses ...
    """
    solver = solver or DEFAULT_SOURCE
    theirs, rules, result = _deal_of(
        arrangement, opponent_holding, rules, holding, equilibrium, solver
    )
    return _core(arrangement, theirs, rules, result)


def grade(
    arrangement: Arrangement,
    opponent_holding: Iterable[int] | None = None,
    rules: Rules | None = None,
    payoff: str = "margin",
    *,
    holding: Iterable[int] | None = None,
    equilibrium: EquilibriumResult | None = None,
    solver: EquilibriumSolver | None = None,
) -> Grade:
    """Grade ``arrangement`` (its cards are the holding) against ``opponent_holding``.

    Parameters
    ----------
    arrangement
        The arrangement to grade.
    opponent_holding
        The opponent's cards (default: the same as the arrangement's, as in
        mirror mode).
    rules
        The rules.
    payoff
        ``"margin"`` (default), or ``"win"`` / ``"both"`` to also report the
        win probability lost against the win equilibrium.  The margin loss is
        always computed: the verdict and the suggested change use it.
    holding
        If given, the arrangement must use exactly these cards.
    equilibrium
        The deal's margin equilibrium, if already known (checked against the deal).
    solver
        How to get the deal's equilibria (default :func:`DEFAULT_SOURCE`).

    Raises
    ------
    ArrangementError
        If the arrangement does not match the rules or ``holding`` (naming the
        missing and extra cards).
    SolverError
        For an unknown ``payoff`` or an ``equilibrium`` of another deal.
    """
    if not isinstance(payoff, str) or payoff not in ("margin", "win", "both"):
        raise SolverError(f"payoff {payoff!r} is not margin, win or both", argument="payoff")
    solver = check_callback(solver, "solver") or DEFAULT_SOURCE
    theirs, rules, result = _deal_of(
        arrangement, opponent_holding, rules, holding, equilibrium, solver
    )
    return _graded(_core(arrangement, theirs, rules, result), payoff != "margin", solver)
