"""That no arrangement does better than a certificate claims, by methods the solver does not use.

**Margin payoff: a MILP.**  Against a fixed mixed strategy ``y`` the margin
is a sum over positions: the packet ``P`` at position ``p`` earns
``c(P, p) = w_p (y_p(below P) - y_p(above P))`` whatever the other packets
are.  A best response is therefore an exact cover of the holding by one
packet per position maximizing ``sum c``: a 0/1 program over every five-card
packet (53,130 for 25 cards) at every position, with one equation per card
and one per position, solved by HiGHS (``scipy.optimize.milp``).  HiGHS works
in floating point, so its answer is checked rather than trusted:

* the arrangement it returns is checked to be a legal cover and scored again
  in exact fractions; if it earns more than claimed, the claim is false;
* its proven dual bound must be at most the claim plus :data:`TOLERANCE`
  (relative to the points at stake).  This is the one statement that rests on
  floating point: no arrangement earns more than the claim plus HiGHS's
  tolerance.  The report says so.
* if HiGHS stops at its time limit (:data:`TIME_LIMIT`) before proving the
  bound, the bound is reported as *not checked* (unknown), not as false: a
  failure is only ever a proof that the claim is wrong.

**Win payoff.**  The value is not a sum over positions.  With at most three
positions every arrangement is enumerated (756,756 for 15 cards) and scored
against the other's strategy in exact integers (units of the probabilities'
common denominator): the bound is checked exactly.  With four or five
positions (10^9 to 6.2·10^14 arrangements) the bound over all arrangements is
*not* checked; the report says so, and what is checked exactly is the
strategies, the value and the best responses' payoffs.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from itertools import combinations
from typing import Any

import numpy as np

from solver.errors import VerificationError
from solver.verify.checks import Game, Report, Strategy, by_position

__all__ = ["TOLERANCE", "check_bounds", "scipy_available"]

TOLERANCE = 1e-7
"""HiGHS's dual bound may exceed a claim by this times the points at stake."""
_ENUMERATED_POSITIONS = 3
TIME_LIMIT = 600.0
"""Seconds HiGHS may take for one bound; a bound not proven by then is reported as not
checked (unknown), never as a failure."""
_LIMIT = 1  # scipy.optimize.milp's status: the iteration or time limit was reached


def scipy_available() -> bool:
    """Whether scipy (the ``verify`` extra) is installed."""
    try:
        import scipy.optimize  # noqa: F401
    except ImportError:
        return False
    return True


def check_bounds(
    report: Report,
    game: Game,
    holdings: dict[str, frozenset[int]],
    strategies: dict[str, Strategy],
    claims: dict[str, Fraction],
    *,
    time_limit: float | None = None,
    progress: Callable[[str], None] | None = None,
) -> None:
    """Check that neither player can do better than ``claims`` say (see the module)."""
    sides = (
        ("player1", "upper", strategies["player2"], claims["upper"]),
        ("player2", "lower", strategies["player1"], claims["lower"]),
    )
    for player, name, opponent, claim in sides:
        if game.payoff == "margin":
            # Player 2 maximizes its own margin, -u.
            own = claim if player == "player1" else -claim
            _milp_bound(report, game, holdings[player], opponent, own, player, name)
        elif len(game.points) <= _ENUMERATED_POSITIONS:
            _enumerated_bound(report, game, holdings[player], opponent, claim, player, name)
        else:
            report.unverified.append(
                f"{name}: that no arrangement of {player} does better than claimed "
                f"(win payoff, {len(game.points)} positions: too many arrangements to "
                "enumerate, and not a sum over positions)"
            )


def _dense(keys: list[tuple[int, ...]]) -> tuple[dict[tuple[int, ...], int], int]:
    order = sorted(set(keys))
    return {k: i for i, k in enumerate(order)}, len(order)


def _packets(holding: frozenset[int]) -> list[tuple[int, ...]]:
    return list(combinations(sorted(holding), 5))


def _coefficients(game: Game, packets: list[tuple[int, ...]], opponent: Strategy) -> np.ndarray:
    """``c[p, i]``: what packet ``i`` earns at position ``p`` (own margin), as floats."""
    keys = [game.key(p) for p in packets]
    rows = []
    for position, weight in enumerate(game.points):
        theirs = by_position(opponent, game, position)
        rank, size = _dense(keys + [k for _, k in theirs])
        mass = np.zeros(size + 1)
        for q, k in theirs:
            mass[rank[k]] += float(q)
        below = np.concatenate(([0.0], np.cumsum(mass)))[:-1]  # mass strictly below
        above = mass.sum() - below - mass
        mine = np.array([rank[k] for k in keys])
        rows.append(weight * (below[mine] - above[mine]))
    return np.array(rows)


def _solve_cover(packets: list[tuple[int, ...]], cards: list[int], c: np.ndarray, n: int) -> Any:
    """HiGHS's best exact cover of ``cards`` by one packet per position, values ``c``."""
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import coo_matrix

    count = len(packets)
    slot = {card: i for i, card in enumerate(cards)}
    members = np.array([[slot[x] for x in p] for p in packets])  # (count, 5)
    columns = np.arange(n * count)
    card_rows = np.tile(members, (n, 1)).ravel()  # each card used once
    position_rows = len(cards) + columns // count  # each position filled once
    rows = np.concatenate([card_rows, position_rows])
    cols = np.concatenate([np.repeat(columns, 5), columns])
    matrix = coo_matrix((np.ones(rows.size), (rows, cols)), shape=(len(cards) + n, n * count))
    return milp(
        -c.ravel(),
        constraints=LinearConstraint(matrix.tocsr(), 1, 1),
        integrality=np.ones(n * count),
        bounds=Bounds(0, 1),
        options={"mip_rel_gap": 0.0, "time_limit": TIME_LIMIT},
    )


def _milp_bound(
    report: Report,
    game: Game,
    holding: frozenset[int],
    opponent: Strategy,
    claim: Fraction,
    player: str,
    name: str,
) -> None:
    """Margin: HiGHS's best arrangement is re-scored exactly; its bound is compared."""
    packets = _packets(holding)
    n, count = len(game.points), len(packets)
    result = _solve_cover(packets, sorted(holding), _coefficients(game, packets, opponent), n)
    cards = sorted(holding)
    if result.x is None and result.status == _LIMIT:
        report.unverified.append(
            f"{name}: {player}'s best margin against the other's strategy: HiGHS reached its "
            f"time limit of {TIME_LIMIT:g} s before finding any cover (not a failure: unknown)"
        )
        return
    if result.x is None:
        raise VerificationError(f"{name}: HiGHS found no cover for {player} ({result.message})")
    chosen = result.x.reshape(n, count).argmax(axis=1)
    found = tuple(packets[i] for i in chosen.tolist())
    if sorted(x for p in found for x in p) != cards:
        raise VerificationError(
            f"{name}: HiGHS's answer for {player} is not a cover of the holding"
        )
    exact = (
        game.against(found, opponent)
        if player == "player1"
        else -game.against(found, opponent, first=False)
    )
    if exact > claim:
        raise VerificationError(
            f"{name}: {player} has an arrangement earning {exact} (~{float(exact):.12g}) "
            f"against the other's strategy, more than the claimed {claim}"
        )
    bound = -float(result.mip_dual_bound)
    slack = TOLERANCE * sum(game.points)
    if result.status == _LIMIT and bound > float(claim) + slack:
        # No arrangement found earns more, but none is proven not to: unknown, not false.
        report.unverified.append(
            f"{name}: {player}'s best margin against the other's strategy: HiGHS reached its "
            f"time limit of {TIME_LIMIT:g} s with its bound at {bound:.12g}, above the claim "
            f"{claim}; the best arrangement it found earns {exact} <= {claim}"
        )
        return
    if result.status not in (0, _LIMIT) or bound > float(claim) + slack:
        raise VerificationError(
            f"{name}: HiGHS bounds {player}'s best only at {bound:.12g}, above {claim} "
            f"({result.message})"
        )
    report.checked.append(
        f"{name}: {player}'s best margin against the other's strategy, by MILP over "
        f"{count} packets x {n} positions (HiGHS): its optimum, scored again exactly, earns "
        f"{exact} <= {claim}; its proven bound {bound:.12g} is within {slack:.1g} of the claim"
    )


def _arrangements(holding: frozenset[int], n: int) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """Every packet of the holding, and every arrangement as packet indices (M, n)."""
    packets = _packets(holding)
    masks = np.array([sum(1 << (c % 64) for c in p) for p in packets], dtype=np.uint64)
    full = np.uint64(np.bitwise_or.reduce(masks))
    order = np.argsort(masks)

    def complement(used: np.ndarray) -> np.ndarray:
        return order[np.searchsorted(masks[order], full ^ used)]

    if n == 1:
        return packets, np.zeros((1, 1), dtype=np.int64)
    if n == 2:
        first = np.arange(len(packets))
        return packets, np.stack([first, complement(masks[first])], axis=1)
    i, j = np.nonzero((masks[:, None] & masks[None, :]) == 0)
    return packets, np.stack([i, j, complement(masks[i] | masks[j])], axis=1)


def _enumerated_bound(
    report: Report,
    game: Game,
    holding: frozenset[int],
    opponent: Strategy,
    claim: Fraction,
    player: str,
    name: str,
) -> None:
    """Win, few positions: every arrangement scored exactly (integers over a common denominator)."""
    n = len(game.points)
    packets, chosen = _arrangements(holding, n)
    keys = [game.key(p) for p in packets]
    theirs = [[game.key(b[p]) for p in range(n)] for _, b in opponent]
    rank, _ = _dense(keys + [k for row in theirs for k in row])
    mine = np.array([rank[k] for k in keys], dtype=np.int64)[chosen]  # (M, n)
    common = math.lcm(*(q.denominator for q, _ in opponent))
    dtype: Any = np.int64 if common < 2**52 else object
    values = np.zeros(mine.shape[0], dtype=dtype)
    sign = 1 if player == "player1" else -1  # player 1's margin
    for (q, _), row in zip(opponent, theirs, strict=True):
        margin = np.zeros(mine.shape[0], dtype=np.int64)
        for p, weight in enumerate(game.points):
            margin += weight * np.sign(mine[:, p] - rank[row[p]])
        values += (q.numerator * (common // q.denominator)) * (1 + np.sign(sign * margin))
    # values are player 1's payoff times 2 * common.
    best = int(values.max()) if player == "player1" else int(values.min())
    exact = Fraction(best, 2 * common)
    if (player == "player1" and exact > claim) or (player == "player2" and exact < claim):
        raise VerificationError(
            f"{name}: {player} has an arrangement giving player 1 {exact} "
            f"(~{float(exact):.12g}) against the other's strategy, beyond the claimed {claim}"
        )
    report.checked.append(
        f"{name}: all {mine.shape[0]} arrangements of {player} scored exactly against the "
        f"other's strategy: the best gives player 1 {exact}, within the claim {claim}"
    )
