"""The mixed house rule measured exactly, deal by deal.

On a deal, the mixed rule (:mod:`solver.models.mixed_house`) plays a mixed
strategy ``x`` (its variants' layouts with the die's probabilities).  Its
figures, with player 1 laying out and player 2 answering:

* **exploitability**: ``max_b u2(b, x)``, the margin of the opponent's exact
  best response to ``x`` (the opponent knows the rule and the cards, so the
  mixture, not the roll): the maximum over the opponent's frontier
  (:func:`solver.equilibria.exploitability.best_value`), every arrangement
  that can be a best response;
* **equilibrium loss**: ``v - u(x, y)``, the game value minus what ``x``
  scores against the opponent's equilibrium strategy ``y`` (0 within the
  certified gap, as :func:`solver.analysis.grade.grade` reports);

and the same for the deterministic house rule (a mixture of one).  In mirror
mode the game is symmetric (``v = 0``), so an exploitability is never below
``-gap``.  With ``with_win`` the opponent's best win probability (a draw
half) against each rule is measured too.  :func:`evaluate_to_csv` writes a
row per deal of :func:`~solver.analysis.mixed_house_train.mixed_test_seeds`
as each finishes and resumes a file it finds; :func:`summarize_csv` gives
means with 95% intervals (seeded bootstrap) and medians.

>>> from solver.game.rules import Rules
>>> from solver.models.house import HouseRule
>>> from solver.models.mixed_house import DiceVariant, MixedHouseRule
>>> rules = Rules(position_points=(6, 7))
>>> mixed = MixedHouseRule((DiceVariant((1,), HouseRule((0, 1))), DiceVariant((2,), HouseRule((1, 0)))), 2)
>>> figures = evaluate_deal(7, mixed, rules, house=HouseRule((1, 0)))
>>> figures.mixed_exploitability >= -figures.gap
True
>>> evaluate_deal(-1)
Traceback (most recent call last):
    ...
solver.errors.QuintetError: seed must be in [0, 18446744073709551615], got -1
"""

from __future__ import annotations

import csv
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np

from solver.analysis.mixed_house_train import mixed_test_seeds
from solver.book.source import DEFAULT_SOURCE, EquilibriumSolver
from solver.equilibria.exploitability import best_value, values_against
from solver.equilibria.payoff import Payoff
from solver.errors import FileError
from solver.game.deal import deal
from solver.game.rules import Rules, rules_or_default
from solver.models.house import HouseRule, house_arrangement, house_rule
from solver.models.mixed_house import MixedHouseRule, mixed_house_mixture
from solver.models.mixture import Mixture
from solver.util.checks import check_callback, check_instance, check_int

__all__ = [
    "DealFigures",
    "Interval",
    "Summary",
    "evaluate_deal",
    "evaluate_to_csv",
    "interval",
    "mixture_figures",
    "summarize_csv",
]

# Figures are rationals of sixths against exact equilibria: 9 decimals keep them, not float dust.
_DECIMALS = 9


def _clean(value: float) -> float:
    return round(float(value), _DECIMALS) + 0.0  # + 0.0: no -0.0


def _strategy(mixture: Mixture, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    strengths = np.array([a.strengths(rules) for a in mixture.arrangements], dtype=np.int32)
    return strengths, np.asarray(mixture.probabilities, dtype=np.float64)


def mixture_figures(
    mixture: Mixture,
    theirs: tuple[int, ...],
    rules: Rules,
    equilibrium_value: float,
    gap: float,
    column: Mixture,
    payoff: Payoff = Payoff.MARGIN,
) -> tuple[float, float]:
    """``(exploitability, equilibrium loss)`` of player 1's mixed strategy ``mixture``.

    Parameters
    ----------
    mixture
        Player 1's mixed strategy.
    theirs
        Player 2's holding (the best response's cards).
    rules, payoff
        The game.
    equilibrium_value, gap, column
        The deal's game value, its certified gap and player 2's equilibrium strategy.

    Returns
    -------
    tuple of float
        Player 2's best-response payoff against ``mixture``, and the game
        value minus ``mixture``'s payoff against ``column`` (0 within the gap).

    >>> from solver.game.arrangement import Arrangement
    >>> from solver.game.rules import Rules
    >>> rules = Rules(position_points=(6, 7))
    >>> a = Arrangement.from_array(np.arange(10).reshape(2, 5))
    >>> mixture_figures(Mixture((a,), (1.0,)), tuple(range(10)), rules, 0.0, 0.0, Mixture((a,), (1.0,)))
    (13.0, 0.0)
    >>> mixture_figures(Mixture((a,), (1.0,)), tuple(range(9)), rules, 0.0, 0.0, Mixture((a,), (1.0,)))
    Traceback (most recent call last):
        ...
    solver.errors.CardError: holding: expected 10 cards, got 9
    """
    strategy = _strategy(mixture, rules)
    exploitability = best_value(theirs, rules, payoff, strategy)
    values = values_against(strategy[0], rules, payoff, _strategy(column, rules))
    loss = equilibrium_value - float(values @ strategy[1])
    return _clean(exploitability), _clean(0.0 if loss <= gap + 1e-9 else loss)


@dataclass(frozen=True)
class DealFigures:
    """One deal's exact figures for the mixed and the deterministic house rule.

    Exploitabilities are the opponent's best-response margins (``*_win``:
    their best win probability, a draw half); losses are against the
    margin equilibrium.  ``win`` figures are NaN when not measured.
    """

    index: int
    seed: int
    game_value: float
    gap: float
    layouts: int  # distinct arrangements the mixed rule plays
    mixed_exploitability: float
    house_exploitability: float
    mixed_loss: float
    house_loss: float
    mixed_exploitability_win: float
    house_exploitability_win: float


def evaluate_deal(
    seed: int,
    mixed: MixedHouseRule | None = None,
    rules: Rules | None = None,
    *,
    house: HouseRule | None = None,
    with_win: bool = False,
    index: int = 0,
    solver: EquilibriumSolver | None = None,
) -> DealFigures:
    """The exact figures of the mixed rule and the house rule ``house`` on the deal of ``seed``.

    Parameters
    ----------
    seed
        The deal (player 1 lays out by the rules, player 2 answers).
    mixed, house
        The mixed rule (default :data:`~solver.models.mixed_house.MIXED_HOUSE_RULE`)
        and the deterministic rule (default :func:`~solver.models.house.house_rule`).
    rules
        The rules.
    with_win
        Measure the opponent's best win probability too.
    index
        The deal's index in its series (recorded).
    solver
        How to get the margin equilibrium (default :data:`DEFAULT_SOURCE`).
    """
    check_int(seed, "seed", low=0, high=2**64 - 1)
    rules = rules_or_default(rules)
    solver = check_callback(solver, "solver") or DEFAULT_SOURCE
    house = (
        house_rule(rules.n_packets) if house is None else check_instance(house, HouseRule, "house")
    )
    mine, theirs = deal(seed, rules).holdings
    equilibrium = solver(mine, theirs, rules, Payoff.MARGIN)
    mixture = mixed_house_mixture(mine, rules, mixed)
    single = Mixture((house_arrangement(mine, rules, house),), (1.0,))
    common = (theirs, rules, equilibrium.value, equilibrium.gap, equilibrium.column)
    mixed_figures = mixture_figures(mixture, *common)
    house_figures = mixture_figures(single, *common)
    win = (math.nan, math.nan)
    if with_win:
        win = tuple(  # type: ignore[assignment]
            _clean(best_value(theirs, rules, Payoff.GAME_RESULT, _strategy(m, rules)))
            for m in (mixture, single)
        )
    return DealFigures(
        index,
        seed,
        _clean(equilibrium.value),
        _clean(equilibrium.gap),
        len(mixture.arrangements),
        mixed_figures[0],
        house_figures[0],
        mixed_figures[1],
        house_figures[1],
        *win,
    )


_COLUMNS = tuple(f.name for f in fields(DealFigures))


def _done(path: Path) -> set[int]:
    """The deal indices already in ``path`` (a row cut short by a kill is dropped)."""
    if not path.exists():
        return set()
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        if tuple(reader.fieldnames or ()) != _COLUMNS:
            raise FileError(f"out: {path} is not a mixed house rule table", argument="out")
        return {
            int(row["index"]) for row in reader if None not in row.values() and row["house_loss"]
        }


def _drop_cut_line(path: Path) -> None:
    """Cut a last line a kill left without its newline (the next row would join it)."""
    with path.open("rb+") as handle:
        data = handle.read()
        if not data.endswith(b"\n"):
            handle.truncate(data.rfind(b"\n") + 1)


def evaluate_to_csv(
    path: str | Path,
    n: int,
    mixed: MixedHouseRule | None = None,
    rules: Rules | None = None,
    *,
    with_win: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Evaluate the first ``n`` test deals into the CSV ``path``, a row as each finishes.

    Deals already in the file are skipped (resume after a kill: a row cut
    short is measured again).  Returns the number of deals in the file.

    >>> import tempfile
    >>> from solver.game.rules import Rules
    >>> from solver.models.house import HouseRule
    >>> from solver.models.mixed_house import DiceVariant, MixedHouseRule
    >>> rules = Rules(position_points=(6, 7))
    >>> mixed = MixedHouseRule((DiceVariant((1,), HouseRule((0, 1))), DiceVariant((2,), HouseRule((1, 0)))), 2)
    >>> out = Path(tempfile.mkdtemp()) / "t.csv"
    >>> evaluate_to_csv(out, 3, mixed, rules), evaluate_to_csv(out, 4, mixed, rules)
    (3, 4)
    >>> evaluate_to_csv(out, -1)
    Traceback (most recent call last):
        ...
    solver.errors.QuintetError: n must be in [0, 1000000], got -1
    """
    check_int(n, "n", low=0, high=1_000_000)
    path = Path(path)
    done = _done(path)
    fresh = not path.exists() or path.stat().st_size == 0
    if not fresh:
        _drop_cut_line(path)
    with path.open("a", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=_COLUMNS)
        if fresh:
            writer.writeheader()
        for index, seed in enumerate(mixed_test_seeds(n)):
            if index in done:
                continue
            figures = evaluate_deal(seed, mixed, rules, with_win=with_win, index=index)
            writer.writerow(asdict(figures))
            handle.flush()  # a kill loses at most the deal in hand
            done.add(index)
            if progress is not None:
                progress(len(done), n)
    return len(done)


@dataclass(frozen=True)
class Interval:
    """A mean with its 95% interval (seeded bootstrap of the mean) and the median."""

    mean: float
    low: float
    high: float
    median: float
    n: int

    def text(self) -> str:
        """``mean [low, high], median m`` to 2 decimals (3 below 1)."""
        digits = 3 if abs(self.mean) < 1 else 2
        return (
            f"{self.mean:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}], "
            f"median {self.median:.{digits}f}"
        )


def interval(values: np.ndarray, seed: int = 0, resamples: int = 10_000) -> Interval:
    """The mean of ``values`` with a 95% percentile-bootstrap interval (seeded), and the median.

    >>> interval(np.array([1.0, 2.0, 3.0])).median
    2.0
    >>> interval(np.array([]))
    Traceback (most recent call last):
        ...
    solver.errors.QuintetError: values: no values to summarize
    """
    values = np.asarray(values, dtype=np.float64)
    values = values[~np.isnan(values)]
    if values.size == 0:
        from solver.errors import QuintetError

        raise QuintetError("values: no values to summarize", argument="values")
    rng = np.random.default_rng(seed)
    means = np.empty(resamples)
    for start in range(0, resamples, 1000):  # 1000 resamples at a time: bounded memory
        picks = rng.integers(0, values.size, size=(min(1000, resamples - start), values.size))
        means[start : start + picks.shape[0]] = values[picks].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return Interval(
        _clean(values.mean()),
        _clean(low),
        _clean(high),
        _clean(np.median(values)),
        int(values.size),
    )


_FIGURES = (
    ("mixed_exploitability", "exploitability, mixed rule"),
    ("house_exploitability", "exploitability, house rule"),
    ("mixed_loss", "equilibrium loss, mixed rule"),
    ("house_loss", "equilibrium loss, house rule"),
    ("mixed_exploitability_win", "win exploitability, mixed rule"),
    ("house_exploitability_win", "win exploitability, house rule"),
)


@dataclass(frozen=True)
class Summary:
    """The figures of a results table: name -> interval."""

    deals: int
    figures: dict[str, Interval]

    def table(self) -> str:
        """One line per figure."""
        lines = [f"{self.deals} test deals (mean [95% bootstrap interval], median)"]
        for key, label in _FIGURES:
            if key in self.figures:
                lines.append(f"{label:32s} {self.figures[key].text()}")
        if "difference" in self.figures:
            lines.append(
                f"{'house minus mixed exploitability':32s} {self.figures['difference'].text()}"
            )
        return "\n".join(lines)


def summarize_csv(path: str | Path) -> Summary:
    """Means with 95% intervals and medians of a table :func:`evaluate_to_csv` wrote.

    >>> summarize_csv("/nonexistent.csv")
    Traceback (most recent call last):
        ...
    solver.errors.FileError: out: /nonexistent.csv does not exist
    """
    path = Path(path)
    if not path.exists():
        raise FileError(f"out: {path} does not exist", argument="out")
    _done(path)  # the header is checked
    with path.open(newline="", encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle) if None not in r.values() and r["house_loss"]]
    if not rows:
        raise FileError(f"out: {path} has no deals", argument="out")
    columns = {key: np.array([float(r[key]) for r in rows]) for key, _ in _FIGURES}
    figures = {k: interval(v) for k, v in columns.items() if not np.isnan(v).all()}
    figures["difference"] = interval(
        columns["house_exploitability"] - columns["mixed_exploitability"]
    )
    return Summary(len(rows), figures)
