"""What a solution book holds: coverage, solve costs, and the equilibria ex ante.

Each stored deal stands for its whole orbit under the suits' relabellings
(:mod:`solver.book.canonical`), so every average over deals is weighted by
the orbit size: it is then an average over the deals as dealt (uniformly
at random), restricted to the classes stored.

For each rules and payoff the book holds:

* coverage: stored classes over all classes, and the share of all deals
  they stand for (orbit sizes over ``C(32, 7)``, or its square for the
  ordered pairs of independent mode);
* the solve-time distribution and the strategies' support sizes;
* ex ante, under the stored equilibria: how often player 1 concedes each
  position (``sum_ab x_a y_b [s_a,p < s_b,p]``), the combination player 1
  lays at each position, and the distribution of the game value (which is
  0 or 1/2 in mirror mode).

>>> import tempfile, pathlib
>>> from solver.book.build import build
>>> path = pathlib.Path(tempfile.mkdtemp()) / "b.sqlite"
>>> _ = build(path, Rules(position_points=(6, 7)), ["margin"], deals=2, seed=1)
>>> with Book(path) as book:
...     (stats,) = book_stats(book)
>>> stats.deals, stats.payoff.value
(2, 'margin')
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.book.canonical import class_count, deal_count
from solver.book.rows import Entry
from solver.book.store import Book
from solver.equilibria.equilibrium import Payoff
from solver.game.cards import DECK_SIZE, HAND_SIZE
from solver.game.evaluator import category, strength
from solver.game.rules import Category, DiscardMode, Rules
from solver.models.opponents import below_and_above
from solver.util.checks import check_instance

__all__ = ["GameStats", "book_stats", "entry_figures"]


@dataclass(frozen=True)
class GameStats:
    """The statistics of the solutions of one game (rules and payoff) in a book."""

    rules: Rules
    payoff: Payoff
    deals: int
    classes: int
    deal_share: float  # share of all deals (by orbit size) that the stored classes stand for
    seconds: dict[str, float]  # total, mean, median, p90, max
    support: dict[str, float]  # median and max support sizes, row and column
    max_gap: float
    converged_share: float
    concede: tuple[float, ...]  # by position: probability player 1 concedes it
    combinations: tuple[dict[str, float], ...]  # by position: category -> probability
    value: dict[str, float]  # weighted mean, min, quantiles, max of the game value

    @property
    def class_share(self) -> float:
        """Stored classes over all classes."""
        return self.deals / self.classes


def _weighted_quantiles(
    values: np.ndarray, weights: np.ndarray, qs: tuple[float, ...]
) -> list[float]:
    order = np.argsort(values, kind="stable")
    cumulative = np.cumsum(weights[order]) / weights.sum()
    picks = np.minimum(np.searchsorted(cumulative, np.asarray(qs)), len(order) - 1)
    return [float(v) for v in values[order][picks]]


def entry_figures(entry: Entry, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """One deal's equilibrium ex ante: per position, the probability that player 1
    concedes it, ``(n,)``, and the combination it lays there, ``(n, categories)``."""
    mine, x = entry.row_cards, entry.row_probabilities
    theirs, y = mine, x
    if entry.column_cards is not None and entry.column_probabilities is not None:
        theirs, y = entry.column_cards, entry.column_probabilities
    ours, others = strength(mine, rules), strength(theirs, rules)  # (k, n), (l, n)
    # P(ours_p < theirs_p) = sum_k x_k P_y(t_p > s_kp): a gather per position, no k x l
    # pairs (the rows are bounded, rows.MAX_ARRANGEMENTS, but memory need not grow so).
    top = int(max(ours.max(), others.max())) + 1
    concede = np.zeros(rules.n_packets)
    for position in range(rules.n_packets):
        mass = np.bincount(others[:, position], weights=y, minlength=top)
        above = below_and_above(mass)[1]
        concede[position] = float(x @ above[ours[:, position]])
    kinds = category(mine, rules)  # (k, n)
    shares = np.stack(
        [
            np.bincount(kinds[:, position], weights=x, minlength=len(Category))
            for position in range(rules.n_packets)
        ]
    )
    return concede, shares


class _Accumulator:
    """Sums over deals, weighted by orbit size."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        n = rules.n_packets
        self.weight = 0.0
        self.concede = np.zeros(n)
        self.combinations = np.zeros((n, len(Category)))
        self.orbits: list[int] = []
        self.values: list[float] = []
        self.seconds: list[float] = []
        self.gaps: list[float] = []
        self.converged: list[bool] = []
        self.supports: list[tuple[int, int]] = []

    def add(self, entry: Entry) -> None:
        concede, shares = entry_figures(entry, self.rules)
        self.concede += entry.orbit * concede
        self.combinations += entry.orbit * shares
        x = entry.row_probabilities
        y = x if entry.column_probabilities is None else entry.column_probabilities
        self.weight += entry.orbit
        self.orbits.append(entry.orbit)
        self.values.append(entry.value)
        self.seconds.append(entry.seconds)
        self.gaps.append(entry.gap)
        self.converged.append(entry.converged)
        self.supports.append((len(x), len(y)))


def book_stats(book: Book) -> list[GameStats]:
    """Statistics of every game (rules and payoff) the book holds solutions of.

    Rows are read checked (:meth:`~solver.book.store.Book.entries`): a damaged
    or implausibly large one is left out and named in the book's notices.  A
    game none of whose rows can be read is left out.
    """
    check_instance(book, Book, "book")
    games = (_game_stats(book, rules, payoff) for rules, payoff in book.games())
    return [stats for stats in games if stats is not None]


def _game_stats(book: Book, rules: Rules, payoff: Payoff) -> GameStats | None:
    total = _Accumulator(rules)
    for entry in book.entries(rules, payoff):
        total.add(entry)
    if not total.orbits:
        return None
    n_removed = DECK_SIZE - HAND_SIZE * rules.n_packets
    pairs = rules.discard_mode is DiscardMode.INDEPENDENT
    orbits = np.array(total.orbits, dtype=np.float64)
    seconds = np.array(total.seconds)
    supports = np.array(total.supports)
    values = np.array(total.values)
    quantiles = _weighted_quantiles(values, orbits, (0.1, 0.5, 0.9))
    order = rules.category_order()
    return GameStats(
        rules=rules,
        payoff=payoff,
        deals=len(total.orbits),
        classes=class_count(n_removed, pairs=pairs),
        deal_share=float(orbits.sum() / deal_count(n_removed, pairs=pairs)),
        seconds={
            "total": float(seconds.sum()),
            "mean": float(seconds.mean()),
            "median": float(np.median(seconds)),
            "p90": float(np.quantile(seconds, 0.9)),
            "max": float(seconds.max()),
        },
        support={
            "row_median": float(np.median(supports[:, 0])),
            "row_max": float(supports[:, 0].max()),
            "column_median": float(np.median(supports[:, 1])),
            "column_max": float(supports[:, 1].max()),
        },
        max_gap=float(max(total.gaps)),
        converged_share=float(np.mean(total.converged)),
        concede=tuple(float(c) for c in total.concede / total.weight),
        combinations=tuple(
            {
                kind.english: float(share)
                for kind in reversed(order)
                if (share := total.combinations[position, kind] / total.weight) > 0
            }
            for position in range(rules.n_packets)
        ),
        value={
            "mean": float(np.average(values, weights=orbits)),
            "min": float(values.min()),
            "p10": quantiles[0],
            "median": quantiles[1],
            "p90": quantiles[2],
            "max": float(values.max()),
        },
    )
