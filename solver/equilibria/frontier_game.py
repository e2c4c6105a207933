"""A Quintet deal as a payoff oracle for double oracle: strategies are frontier strategies.

Both holdings are public, so a deal is a finite two-player zero-sum game:
each player chooses an arrangement, the payoff is ``margin`` (points scored
minus conceded) or ``win`` (1 for more points, 1/2 for equal, 0 for fewer).
Only frontier strategies matter (:mod:`solver.response.frontier`): every
other arrangement is weakly dominated by one of them, so an equilibrium of
the game restricted to the frontiers is one of the whole game, and a best
response over a frontier is a best response over all arrangements.

The oracle works in integer-valued units: margin in points, and win as
``2u - 1`` (1, 0, -1), whose most frequent value -1 (a loss) the linear
program need not store.

Best responses are numpy gathers over the whole frontier:

* margin is a sum over positions, so
  ``u(a, y) = sum_p w_p (P_y(t_p < a_p) - P_y(t_p > a_p))``
  from the per-position strength distributions of ``y``;
* win: each strategy's outcome against each restricted opponent strategy
  is computed once when that strategy joins the restricted set (int8),
  and the values are a weighted sum of those outcome vectors, in float32
  over the whole frontier, then in float64 for the candidates: those near
  the best, and (``above``, the canonical selection's pricing) every
  strategy whose float32 value is within its error bound of its threshold.

The suits.  A frontier strategy is a vector of strengths (one per position),
and strengths do not see the suits: a holding and any relabelling of its
suits (:mod:`solver.game.suits`) have the same frontier, the same ids in the
same order, the same payoffs, bit for bit.  So every equilibrium by ids, the
canonical vertex included (:mod:`solver.equilibria.canonical`), is the same
for all the deals of a suit class.  What is not is how a strategy is *laid*:
the frontier rebuilds each profile's packets from its back-pointers, which
pick flushes and cards of equal rank by suit order, so a relabelled deal laid
its strategies in other cards than the relabelled ones (the same strengths:
another, equivalent equilibrium).  So each player's strategies are laid in a
canonical frame and mapped back.  For player 1 of the deal ``D = (A, B)``, the
frame is the set ``F(D) = {g : g(D) = K}`` of the relabellings to its
canonical key ``K`` (least ``(g(A), g(B))``; for player 2, the key of
``(B, A)``); its frontier is that of ``K``'s first holding, the least
relabelling of ``A`` (so the deals of a class share one cached frontier).
With ``k`` in the deal's automorphism group ``Aut(D) = {k : k(D) = D}``,
``F(D)`` is the coset ``F(D) = g0 Aut(D)`` of any of its elements, so a
strategy ``s`` laid as ``L`` in the frame is shown as the average

    ``x(s) = (1 / |F(D)|) sum_{g in F(D)} [g^-1 L]``

(``[a]`` the pure strategy ``a``): each distinct image gets an equal share.
Then

* for any relabelling ``h``, ``F(h D) = F(D) h^-1``, so ``x_{hD}(s) = h x_D(s)``:
  a relabelled deal shows the relabelled strategies, exactly (and the book,
  which solves the class's key and relabels back, shows what a solve shows);
* player 1's frame does not depend on the seat: it is player 2's of
  ``(B, A)`` (each player's key puts its own holding first);
* ``x(s)`` is invariant under ``Aut(D)`` (``F(D) k = F(D)``), as any answer
  must be: a relabelling ``k`` of the deal onto itself maps its shown
  equilibrium to itself.  One arrangement cannot be (a flush laid in a suit
  that ``k`` moves has no fixed image), so a deal with automorphisms shows
  the *symmetrized* canonical vertex: every image ``g^-1 L`` has the
  strengths of ``L``, so ``x(s)`` pays what ``s`` pays against anything, and
  the pair is an equilibrium with the same value and certificate.  Reports
  say so (:mod:`solver.app.report_equilibrium`).

>>> from solver.game.deal import deal
>>> from solver.game.rules import Rules
>>> from solver.equilibria.double_oracle import solve_game
>>> game = FrontierGame(deal(seed=2).holdings[0], deal(seed=3).holdings[1], Rules(), "margin")
>>> solution = solve_game(game, per_iteration=5)
>>> solution.gap <= 1e-9
True
>>> FrontierGame(range(25), range(25), Rules(), "points")
Traceback (most recent call last):
    ...
solver.errors.SolverError: payoff 'points' is not margin or win
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from solver.equilibria.payoff import Payoff, parse_payoff
from solver.equilibria.payoff_oracle import BestResponses
from solver.game.arrangement import Arrangement
from solver.game.rules import Rules
from solver.game.suits import CARD_PERMUTATIONS, INVERSES, frame, holding_of
from solver.models.mixture import Mixture
from solver.models.opponents import below_and_above
from solver.models.packets import check_holding
from solver.response.frontier import Frontier, cached_frontier

__all__ = ["FrontierGame", "Payoff", "parse_payoff"]


# Win best responses are first summed in float32 over the whole frontier;
# this many of the best (per strategy added per iteration, plus a margin)
# are then re-evaluated exactly in float64.  float32 errors are far below
# _NEAR, so every strategy within _NEAR of the approximate best is
# re-evaluated too, and the exact best is always among them.
_EXACT_PER_ADDED = 4
_EXACT_EXTRA = 16
_NEAR = 1e-3
# Exact values are computed this many strategies at a time (pricing may ask for many).
_EXACT_CHUNK = 8192
# Outcome columns summed per matrix product: about this many bytes of float32.
_BLOCK_BYTES = 1 << 20
# Outcome columns computed per pass over a frontier (8 took the least time, 21,660 strategies).
_OUTCOMES_AT_ONCE = 8


class _Player:
    """One player's frontier strategies and how to evaluate them.

    ``front`` is the frontier of the holding in the deal's canonical frame,
    ``back`` the card maps from that frame to the deal's suits (one per
    relabelling of :func:`~solver.game.suits.frame`; see the module).
    """

    def __init__(self, front: Frontier, back: np.ndarray) -> None:
        self.front = front
        self.back = back
        self.strengths, self.profile, self.order = front.strategies()
        narrow = np.int16 if self.strengths.max() <= np.iinfo(np.int16).max else np.int32
        self.by_position = np.ascontiguousarray(self.strengths.T, dtype=narrow)
        # Win outcomes of all of this player's strategies against each
        # restricted opponent strategy, computed once when it joins.
        self.against: dict[int, np.ndarray] = {}

    @property
    def size(self) -> int:
        return int(self.strengths.shape[0])

    def mixture(self, strategies: Sequence[int], probabilities: np.ndarray) -> Mixture:
        """The mixed strategy as concrete arrangements (zero probabilities left out)."""
        return self.realize(strategies, probabilities)[0]

    def realize(
        self, strategies: Sequence[int], probabilities: np.ndarray
    ) -> tuple[Mixture, list[int], np.ndarray]:
        """The mixed strategy as arrangements of the deal's cards, each one's strategy and share.

        Each strategy is realized in the canonical frame and mapped back by
        every relabelling of the frame (see the module): a deal with suit
        automorphisms splits a strategy's probability equally over its
        distinct images, each ``share`` of it (1 otherwise).
        """
        keep = np.flatnonzero(probabilities > 1e-12)
        probs = probabilities[keep] / probabilities[keep].sum()
        chosen = [strategies[i] for i in keep.tolist()]
        # A profile's packets are rebuilt once however many of its orders are used
        # (an equilibrium uses a few orders of each of its profiles).
        profiles = sorted({int(self.profile[s]) for s in chosen})
        packets = dict(zip(profiles, self.front.packets_of(profiles), strict=True))
        arrangements: list[Arrangement] = []
        ids: list[int] = []
        shares: list[float] = []
        weights: list[float] = []
        for s, p in zip(chosen, probs.tolist(), strict=True):
            laid = packets[int(self.profile[s])][self.order[s]]
            images = _distinct(self.back[:, laid])
            # The frontier's packets are the checked holding's cards, five distinct ones
            # each: checking every arrangement again cost about 5% of a win solve.  The
            # mixture's own check (one set of cards throughout) stays.
            arrangements.extend(Arrangement.trusted(image.tolist()) for image in images)
            ids.extend([int(s)] * len(images))
            shares.extend([1.0 / len(images)] * len(images))
            weights.extend([p / len(images)] * len(images))
        return Mixture(tuple(arrangements), tuple(weights)), ids, np.array(shares)

    def strategy(self, mixture: Mixture, rules: Rules) -> tuple[list[int], np.ndarray] | None:
        """The mixture's frontier strategies (in order of first appearance) and their
        probabilities, summed over each one's arrangements; None when an arrangement has none."""
        ids = self.ids(mixture, rules, repeated=True)
        if ids is None:
            return None
        position = {i: k for k, i in enumerate(dict.fromkeys(ids))}
        where = np.array([position[i] for i in ids], dtype=np.int64)
        total = np.bincount(where, weights=np.asarray(mixture.probabilities, np.float64))
        return list(position), total

    def ids(self, mixture: Mixture, rules: Rules, repeated: bool = False) -> list[int] | None:
        """Each arrangement's frontier strategy (None: one has none, or, unless ``repeated``,
        two are one strategy).

        Frontier strategies differ in their strengths, so an arrangement is
        the strategy of its strengths: the strength rows, viewed as one byte
        string each, sorted once and searched.
        """
        table = np.ascontiguousarray(self.strengths)
        row = np.dtype((np.void, table.dtype.itemsize * table.shape[1]))
        keys = table.view(row).ravel()
        order = np.argsort(keys, kind="stable")
        wanted = np.array([a.strengths(rules) for a in mixture.arrangements], table.dtype)
        targets = np.ascontiguousarray(wanted).view(row).ravel()
        at = np.minimum(np.searchsorted(keys[order], targets), keys.shape[0] - 1)
        ids = order[at]
        # Distinct ids by a sort (np.unique's first call imports numpy.ma: 25 ms).
        if not np.array_equal(keys[ids], targets):
            return None
        if not repeated and (np.diff(np.sort(ids)) == 0).any():
            return None
        return ids.tolist()


def _distinct(images: np.ndarray) -> np.ndarray:
    """The distinct arrangements among ``images`` ``(m, packets, 5)``, in lexicographic order."""
    if images.shape[0] == 1:
        return images
    # Two images are one arrangement when their packets hold the same cards, in whatever
    # order (a relabelling that swaps two suits within a packet keeps the packet).
    cards = np.sort(images, axis=-1).reshape(images.shape[0], -1)
    order = np.lexsort(cards.T[::-1])
    keep = np.r_[True, (cards[order][1:] != cards[order][:-1]).any(axis=1)]
    return images[order[keep]]


def _framed(mine: tuple[int, ...], theirs: tuple[int, ...], rules: Rules) -> _Player:
    """A player on the frontier of its holding in the canonical frame of ``(mine, theirs)``.

    The frame's holding is ``mine``'s canonical relabelling (the key's first
    mask is the least image of ``mine``): the deals of one suit class share
    its frontier, and its cache entry.
    """
    key, relabellings = frame((mine, theirs))
    back = CARD_PERMUTATIONS[INVERSES[relabellings]].astype(np.int64)
    return _Player(cached_frontier(holding_of(key[0]), rules), back)


class FrontierGame:
    """The payoff oracle of one deal (see the module docstring).

    Parameters
    ----------
    first, second
        Player 1's (rows) and player 2's (columns) holdings; equal holdings
        make a symmetric game.
    rules
        The rules.
    payoff
        ``"margin"`` or ``"win"``.
    per_iteration
        Best responses the double oracle adds per iteration (the win
        payoff's exact re-evaluation covers a few times as many).
    """

    def __init__(
        self,
        first: Iterable[int],
        second: Iterable[int],
        rules: Rules,
        payoff: Payoff | str,
        per_iteration: int = 1,
    ) -> None:
        self.payoff = parse_payoff(payoff)
        self.rules = rules
        self.per_iteration = per_iteration
        holdings = (
            check_holding(first, rules, who="player 1's holding"),
            check_holding(second, rules, who="player 2's holding"),
        )
        self.symmetric = holdings[0] == holdings[1]
        self.rows = _framed(holdings[0], holdings[1], rules)
        self.columns = self.rows if self.symmetric else _framed(holdings[1], holdings[0], rules)
        self.weights = np.asarray(rules.position_points, dtype=np.int64)
        win = self.payoff is Payoff.GAME_RESULT
        # Win outcomes are 1, 0, -1: about half are losses, which the linear
        # program then need not store.
        self.baseline = -1.0 if win else 0.0
        # Payoffs are at least -1 (win) or minus all the points (margin).
        self.lowest: float | None = -1.0 if win else -float(self.weights.sum())

    def to_payoff(self, value: float) -> float:
        """A value in the oracle's units (points, or ``2u - 1``) in payoff units."""
        return value if self.payoff is Payoff.MARGIN else (value + 1.0) / 2.0

    @property
    def sizes(self) -> tuple[int, int]:
        """Both players' frontier sizes."""
        return self.rows.size, self.columns.size

    def initial(self) -> tuple[int, int]:
        """The strategies with the largest strength sum (a strong, plain guess)."""
        row = int(np.argmax(self.rows.strengths.sum(axis=1)))
        column = row if self.symmetric else int(np.argmax(self.columns.strengths.sum(axis=1)))
        return row, column

    def _outcomes(self, mine: _Player, theirs: np.ndarray) -> np.ndarray:
        """Win outcomes (1, 0, -1: the margin's sign) of each of ``mine``'s strategies, one row
        per strategy of ``theirs`` (strength rows).

        int8 margins when every margin fits (25 points by default), the
        strengths compared as int16; a few strategies of ``theirs`` per pass
        over ``mine``'s (30 at once took 40% less time than one at a time).
        """
        small = int(self.weights.sum()) <= np.iinfo(np.int8).max
        kind = np.int8 if small else np.int32
        theirs = np.asarray(theirs, dtype=mine.by_position.dtype).reshape(-1, len(self.weights))
        outcomes = np.empty((theirs.shape[0], mine.size), np.int8)
        for start in range(0, theirs.shape[0], _OUTCOMES_AT_ONCE):
            block = theirs[start : start + _OUTCOMES_AT_ONCE]
            margin = np.zeros((block.shape[0], mine.size), kind)
            for strengths, their, weight in zip(
                mine.by_position, block.T, self.weights.tolist(), strict=True
            ):
                better = (strengths > their[:, None]).view(np.int8).astype(kind, copy=False)
                worse = (strengths < their[:, None]).view(np.int8).astype(kind, copy=False)
                margin += (better - worse) * kind(weight)
            outcomes[start : start + block.shape[0]] = np.sign(margin)
        return outcomes

    def prepare(self, rows: Sequence[int], columns: Sequence[int]) -> None:
        """Win outcome columns of the strategies about to join, computed together."""
        if self.payoff is not Payoff.GAME_RESULT:
            return
        if self.symmetric:  # one strategy set: every strategy's outcomes are a column's
            columns, rows = [*rows, *columns], []
        columns = [j for j in columns if j not in self.rows.against]
        rows = [i for i in rows if i not in self.columns.against]
        if columns:
            found = self._outcomes(self.rows, self.columns.strengths[columns])
            self.rows.against.update(zip(columns, found, strict=True))
        if rows:
            found = self._outcomes(self.columns, self.rows.strengths[rows])
            self.columns.against.update(zip(rows, found, strict=True))

    def _margins(self, rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
        """Margins of strength rows ``rows`` against ``columns`` (broadcast), as floats."""
        return np.sign(rows - columns) @ self.weights.astype(np.float64)

    def row_payoffs(self, row: int, columns: Sequence[int]) -> np.ndarray:
        if self.payoff is Payoff.MARGIN:  # best responses need no stored outcomes
            return self._margins(self.rows.strengths[row], self.columns.strengths[list(columns)])
        # The column player's outcomes against the new row (the best responses need
        # them), negated: the row's own (in a symmetric game, its outcomes as the
        # column it is about to become).
        if row not in self.columns.against:
            self.prepare([row], [])
        return -self.columns.against[row][list(columns)].astype(np.float64)

    def column_payoffs(self, rows: Sequence[int], column: int) -> np.ndarray:
        if self.payoff is Payoff.MARGIN:
            strengths = self.rows.strengths[list(rows)]
            return self._margins(strengths, self.columns.strengths[column])
        if column not in self.rows.against:
            self.prepare([], [column])
        return self.rows.against[column][list(rows)]

    def best_rows(
        self, columns: Sequence[int], mixed: np.ndarray, above: np.ndarray | None = None
    ) -> BestResponses:
        return BestResponses(self._values(self.rows, self.columns, columns, mixed, above))

    def best_columns(
        self, rows: Sequence[int], mixed: np.ndarray, above: np.ndarray | None = None
    ) -> BestResponses:
        return BestResponses(self._values(self.columns, self.rows, rows, mixed, above))

    def discard(self, rows: Sequence[int], columns: Sequence[int]) -> None:
        for j in columns:
            self.rows.against.pop(j, None)
        if not self.symmetric:
            for i in rows:
                self.columns.against.pop(i, None)

    def _values(
        self,
        player: _Player,
        opponent: _Player,
        support: Sequence[int],
        probabilities: np.ndarray,
        above: np.ndarray | None = None,
    ) -> np.ndarray:
        """Payoff to ``player`` of each of its strategies against a mixed strategy.

        Margin values are exact for every strategy; win values for the
        candidates (the best, and those that may exceed ``above``), -inf elsewhere.
        """
        if self.payoff is Payoff.MARGIN:
            # Sum over positions of w_p * (P(t_p < s) - P(t_p > s)), by gathers.
            theirs = opponent.strengths[list(support)]
            values = np.zeros(player.size)
            n_strengths = int(max(player.strengths.max(), theirs.max())) + 2
            for p, w in enumerate(self.weights):
                mass = np.bincount(theirs[:, p], weights=probabilities, minlength=n_strengths)
                below, above = below_and_above(mass)
                values += w * (below - above)[player.strengths[:, p]]
            return values
        stored = [player.against[j] for j in support]
        # Only the mixture's support counts: add up its stored outcome columns
        # in float32, a block of them per matrix product (a block of about a
        # megabyte of floats stays in cache: at 21,660 strategies, blocks of 12
        # took half the time of one column at a time; a gather of every
        # column would copy far more).
        used = np.flatnonzero(probabilities > 0).tolist()
        weights = probabilities[used].astype(np.float32)
        approximate = np.zeros(player.size, np.float32)
        block = max(1, min(_BLOCK_BYTES // (4 * player.size), 16))
        for start in range(0, len(used), block):
            outcomes = [stored[j] for j in used[start : start + block]]
            approximate += weights[start : start + block] @ np.array(outcomes, np.float32)
        count = min(player.size, _EXACT_PER_ADDED * self.per_iteration + _EXACT_EXTRA)
        # The candidates as a mask (np.union1d's np.unique would import numpy.ma,
        # 25 ms of a fresh process's first solve).
        candidate = approximate >= approximate.max() - _NEAR
        candidate[np.argpartition(-approximate, count - 1)[:count]] = True
        if above is not None:
            # Recursive float32 summation of n terms errs by at most about
            # n * eps * sum|terms| (each term's rounding included): twice that
            # is safe, so no strategy over its threshold is left out.
            weight = float(np.abs(probabilities[used]).sum())
            bound = 2.0 * (len(used) + 1) * float(np.finfo(np.float32).eps) * weight
            candidate |= approximate >= above - bound
        near = np.flatnonzero(candidate)
        values = np.full(player.size, -np.inf)
        for start in range(0, near.shape[0], _EXACT_CHUNK):  # bounded memory
            chunk = near[start : start + _EXACT_CHUNK]
            exact = np.stack([stored[j][chunk] for j in used], axis=1)
            values[chunk] = exact.astype(np.float64) @ probabilities[used]
        return values
