"""What a build will cost, said before it starts: CPU time, time on its workers, disk.

The cost of a class is measured, not guessed: the mean solve time per
class of each payoff, and the mean support size (which sets a row's size),
from the book's own rows of these rules when it holds enough of them (the
machine at hand), else from the summary shipped with the package (a
uniform sample of mirror classes, :mod:`solver.book.summary`).  A row
holds each arrangement as 25 card bytes and a float64 probability, plus
the row's fixed columns and SQLite's overhead (:data:`ROW_OVERHEAD`).

>>> e = BuildEstimate(classes=10, units=20, cpu_seconds=9.0, workers=2, disk_bytes=2e5,
...                   source="test")
>>> e.wall_seconds
4.5
>>> estimate_units(3, ["margin"], workers=0)
Traceback (most recent call last):
    ...
solver.errors.QuintetError: workers must be in [1, inf], got 0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.book.rows import MAX_ARRANGEMENTS
from solver.book.summary import read_summary
from solver.equilibria.equilibrium import Payoff, parse_payoff
from solver.game.cards import HAND_SIZE
from solver.util.checks import check_int

__all__ = ["ROW_OVERHEAD", "BuildEstimate", "estimate_units"]

ROW_OVERHEAD = 1900
"""Bytes a row takes beyond its strategies' blobs: the key, the numbers, the rules text,
the index entry and, mostly, the unused half of its last overflow page.  Measured: a
300-class sample book of both payoffs (``--sample 300 --seed 2``, benchmarks/RESULTS.md)
is 3,915,776 bytes after VACUUM for 2,791,998 bytes of blobs in 600 rows: 1,873 a row."""
_PER_ARRANGEMENT = 5 * HAND_SIZE + 8  # card bytes and a float64
MIN_OWN_ROWS = 20  # a book's own rows count once it has this many of a payoff


@dataclass(frozen=True)
class BuildEstimate:
    """A build's cost before it starts: ``cpu_seconds`` over ``workers``, ``disk_bytes``."""

    classes: int
    units: int
    cpu_seconds: float
    workers: int
    disk_bytes: float
    source: str  # where the per-class costs come from

    @property
    def wall_seconds(self) -> float:
        """The CPU time shared by the workers (each on a core of its own)."""
        return self.cpu_seconds / self.workers


def estimate_units(
    units: int,
    payoffs: Sequence[Payoff | str],
    *,
    workers: int = 1,
    own: dict[str, tuple[int, float, float]] | None = None,
) -> BuildEstimate:
    """The cost of ``units`` solves (deal and payoff), split evenly over ``payoffs``.

    ``own``: the book's rows of these rules by payoff, ``(rows, mean
    seconds, mean support)``; used for a payoff with :data:`MIN_OWN_ROWS`
    rows, else the shipped summary's figures.
    """
    check_int(units, "units", low=0)
    check_int(workers, "workers", low=1)
    chosen = [parse_payoff(p).value for p in dict.fromkeys(payoffs)]
    found = read_summary()
    shipped = {}
    if found.document is not None:
        shipped = {
            b["payoff"]: (b["seconds"]["mean"], b["support"]["mean"])
            for b in found.document["payoffs"]
        }
    sources, seconds, support = [], 0.0, 0.0
    for payoff in chosen:
        rows, own_seconds, own_support = (own or {}).get(payoff, (0, 0.0, 0.0))
        if rows >= MIN_OWN_ROWS:
            cost, size = own_seconds, own_support
            sources.append(f"{payoff}: the book's {rows} rows")
        elif payoff in shipped:
            cost, size = shipped[payoff]
            sources.append(f"{payoff}: the shipped summary")
        else:  # no measure at all: the row limit bounds the disk, the time is unknown
            cost, size = float("nan"), float(MAX_ARRANGEMENTS)
            sources.append(f"{payoff}: no measure")
        seconds += cost
        support += size * _PER_ARRANGEMENT + ROW_OVERHEAD
    classes = -(-units // len(chosen))
    return BuildEstimate(
        classes=classes,
        units=units,
        cpu_seconds=classes * seconds,
        workers=workers,
        disk_bytes=classes * support,
        source="; ".join(sources),
    )
