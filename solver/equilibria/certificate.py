"""Certificates: an equilibrium as exact fractions, with claims anyone can check.

:func:`certificate` turns an :class:`~solver.equilibria.equilibrium.EquilibriumResult`
into a self-contained JSON document (format ``quintet-certificate/1``) that
``quintet verify`` (:mod:`solver.verify`, which shares no game code with the
solver) checks in exact rational arithmetic::

    {
      "format": "quintet-certificate/1",
      "solver": {"name": "quintet-solver", "version": "0.1.0"},
      "rules": {"position_points": [3, 4, 5, 6, 7], ...},
      "payoff": "margin",                  # or "win": 1, 1/2, 0
      "holdings": {"player1": ["7c", ...], "player2": [...]},
      "strategies": {"player1": [{"probability": "3/8", "arrangement": [[...], ...]}, ...],
                     "player2": [...]},
      "best_responses": {"player1": {"arrangement": [...], "payoff": "p/q"},
                         "player2": {"arrangement": [...], "payoff": "p/q"}},
      "value": "p/q", "lower": "p/q", "upper": "p/q"
    }

Every payoff is player 1's (player 2 is paid ``-u`` for margin, ``1 - u``
for win).  The float strategies are rounded to a common denominator
(:data:`DENOMINATOR`, largest remainders, so the fractions are exactly
non-negative and sum to exactly 1); every claim is then about *these*
fractions:

* ``value`` is the pair's exact payoff;
* ``best_responses.player1`` is a best response of player 1 to player 2's
  fractions and ``upper`` its exact payoff: no arrangement earns more;
* ``best_responses.player2`` is a best response of player 2 to player 1's
  fractions and ``lower`` its exact payoff: no arrangement of player 2 holds
  player 1 below it.

The best responses are exact: every frontier strategy (which contains a best
response over all arrangements, :mod:`solver.response.frontier`) is scored
against the fractions in integer arithmetic, in units of ``1/DENOMINATOR``.

>>> from solver.equilibria.equilibrium import solve
>>> from solver.game.deal import deal
>>> from solver.game.rules import Rules
>>> rules = Rules(position_points=(6, 7))
>>> d = deal(seed=4, rules=rules)
>>> doc = certificate(solve(*d.holdings, rules), *d.holdings)
>>> doc["format"], doc["value"], Fraction(doc["lower"]) <= 0 <= Fraction(doc["upper"])
('quintet-certificate/1', '0', True)
>>> certificate(solve(*d.holdings, rules), d.holdings[0], range(10))
Traceback (most recent call last):
    ...
solver.errors.SolverError: second: the holding is not the equilibrium's player 2's
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.equilibria.payoff import Payoff
from solver.errors import SolverError
from solver.game.arrangement import Arrangement
from solver.game.payloads import arrangement_payload, cards_payload, rules_payload
from solver.game.rules import Rules
from solver.models.mixture import Mixture
from solver.models.packets import check_holding
from solver.response.frontier import cached_frontier
from solver.version import __version__

if TYPE_CHECKING:
    from solver.equilibria.equilibrium import EquilibriumResult

__all__ = ["DENOMINATOR", "FORMAT", "certificate", "exact_probabilities"]

FORMAT = "quintet-certificate/1"
DENOMINATOR = 10**12
"""The common denominator of the certificate's probabilities (before reduction)."""


def exact_probabilities(
    probabilities: Sequence[float], denominator: int = DENOMINATOR
) -> list[int]:
    """Numerators over ``denominator``, non-negative and summing to it exactly.

    Each probability is rounded down, then the units left over go to the
    largest remainders (ties: the earlier entry).

    Parameters
    ----------
    probabilities
        Non-negative floats summing to about 1.
    denominator
        The common denominator, at least 1.

    Returns
    -------
    list of int
        One numerator per probability.

    Examples
    --------
    >>> exact_probabilities([1 / 3, 1 / 3, 1 / 3], 10)
    [4, 3, 3]
    >>> exact_probabilities([0.5, -0.1], 10)
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: probabilities must be finite and non-negative
    """
    p = np.asarray(probabilities, dtype=np.float64)
    if p.size == 0 or not np.all(np.isfinite(p)) or np.any(p < 0) or p.sum() <= 0:
        raise SolverError("probabilities must be finite and non-negative", argument="probabilities")
    scaled = p / p.sum() * denominator
    numerators = np.floor(scaled).astype(np.int64)
    left = denominator - int(numerators.sum())
    order = np.argsort(-(scaled - numerators), kind="stable")
    numerators[order[:left]] += 1
    return [int(n) for n in numerators]


def _strengths(arrangements: Iterable[Arrangement], rules: Rules) -> np.ndarray:
    return np.array([a.strengths(rules) for a in arrangements], dtype=np.int64)


def _units(margins: np.ndarray, payoff: Payoff) -> np.ndarray:
    """Payoffs in integer units: margin in points, win as 2u (2, 1, 0)."""
    return margins if payoff is Payoff.MARGIN else 1 + np.sign(margins)


def _margins(mine: np.ndarray, theirs: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Margins of every strategy of ``mine`` (M, n) against each of ``theirs`` (K, n)."""
    out = np.zeros((mine.shape[0], theirs.shape[0]), dtype=np.int64)
    for p, w in enumerate(weights.tolist()):
        out += w * np.sign(mine[:, p, None] - theirs[None, :, p])
    return out


def _exact_best(
    holding: tuple[int, ...],
    theirs: np.ndarray,
    numerators: np.ndarray,
    rules: Rules,
    payoff: Payoff,
    sign: int,
) -> tuple[Arrangement, int]:
    """The exact best response of ``holding`` and its value in units (player 1's view).

    ``sign`` is +1 for player 1 (maximizes) and -1 for player 2 (minimizes
    player 1's payoff).  Values are integers: payoff units times ``DENOMINATOR``.
    """
    front = cached_frontier(holding, rules)
    strengths, profile, order = front.strategies()
    weights = np.asarray(rules.position_points, dtype=np.int64)
    best_value, best_index = None, 0
    for start in range(0, strengths.shape[0], 4096):
        block = strengths[start : start + 4096].astype(np.int64)
        margins = _margins(block, theirs, weights) * sign  # player 1's margin
        values = _units(margins, payoff) @ numerators  # player 1's payoff, in units
        pick = int(np.argmax(values)) if sign > 0 else int(np.argmin(values))
        if best_value is None or sign * int(values[pick]) > sign * best_value:
            best_value, best_index = int(values[pick]), start + pick
    assert best_value is not None
    arrangement = front.arrangement(int(profile[best_index]), order[best_index])
    return arrangement, best_value


def _fraction_text(value: Fraction) -> str:
    return str(value)


def _strategy_payload(mixture: Mixture, numerators: list[int]) -> list[dict[str, Any]]:
    return [
        {
            "probability": _fraction_text(Fraction(n, DENOMINATOR)),
            "arrangement": arrangement_payload(a),
        }
        for a, n in zip(mixture.arrangements, numerators, strict=True)
        if n > 0
    ]


def _holdings(
    result: EquilibriumResult, first: Iterable[int], second: Iterable[int]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Both holdings, checked to be the ones the result's strategies use."""
    rules = result.rules
    holdings = (
        check_holding(first, rules, who="first"),
        check_holding(second, rules, who="second"),
    )
    for name, holding, mixture in zip(
        ("first", "second"), holdings, (result.row, result.column), strict=True
    ):
        if tuple(sorted(mixture.arrangements[0].cards)) != holding:
            player = "1's" if name == "first" else "2's"
            raise SolverError(
                f"{name}: the holding is not the equilibrium's player {player}", argument=name
            )
    return holdings


def certificate(
    result: EquilibriumResult, first: Iterable[int], second: Iterable[int]
) -> dict[str, Any]:
    """The certificate document of ``result`` (see the module docstring).

    Parameters
    ----------
    result
        An equilibrium of the deal where player 1 holds ``first`` and
        player 2 ``second``.
    first, second
        The holdings.

    Returns
    -------
    dict
        The JSON document, format ``quintet-certificate/1``.

    Raises
    ------
    SolverError
        When a holding is not the one the result's strategies use.
    """
    rules, payoff = result.rules, result.payoff
    holdings = _holdings(result, first, second)
    rows = exact_probabilities(result.row.probabilities)
    columns = exact_probabilities(result.column.probabilities)
    row_strengths = _strengths(result.row.arrangements, rules)
    column_strengths = _strengths(result.column.arrangements, rules)
    weights = np.asarray(rules.position_points, dtype=np.int64)
    pair_units = _units(_margins(row_strengths, column_strengths, weights), payoff)
    pair = sum(int(n) * int(v) for n, v in zip(rows, pair_units @ np.array(columns), strict=True))
    scale = DENOMINATOR * (1 if payoff is Payoff.MARGIN else 2)
    best_row, upper = _exact_best(
        holdings[0], column_strengths, np.array(columns), rules, payoff, +1
    )
    best_column, lower = _exact_best(holdings[1], row_strengths, np.array(rows), rules, payoff, -1)
    upper_f, lower_f = Fraction(upper, scale), Fraction(lower, scale)
    return {
        "format": FORMAT,
        "solver": {"name": "quintet-solver", "version": __version__},
        "rules": rules_payload(rules),
        "payoff": payoff.value,
        "payoffs_are": "player 1's: margin in points, or win 1, draw 1/2, loss 0",
        "holdings": {"player1": cards_payload(holdings[0]), "player2": cards_payload(holdings[1])},
        "strategies": {
            "player1": _strategy_payload(result.row, rows),
            "player2": _strategy_payload(result.column, columns),
        },
        "best_responses": {
            "player1": {"arrangement": arrangement_payload(best_row), "payoff": str(upper_f)},
            "player2": {"arrangement": arrangement_payload(best_column), "payoff": str(lower_f)},
        },
        "value": str(Fraction(pair, DENOMINATOR * scale)),
        "lower": str(lower_f),
        "upper": str(upper_f),
    }
