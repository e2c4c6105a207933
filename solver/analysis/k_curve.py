"""The k-curve: how little a mix of ``k`` arrangements loses, over seeded deals.

For each seeded deal (``deal(seed=s)`` in mirror or independent mode, seeds
``0, 1, ...``) and payoff, the deal is solved exactly
(:func:`solver.equilibria.equilibrium.solve`), then
:func:`solver.equilibria.simple_strategy.simple_strategies` finds player 1's
best strategy of at most ``k`` arrangements for each ``k`` of :data:`KS` and
certifies its exploitability (what it concedes against the game value to a
best-responding opponent).  One CSV row per deal and ``k``
(:data:`FIELDS`); :func:`run` appends a deal's rows as soon as they are
found, so a run stopped anywhere resumes where it stopped, and
:func:`summarize` gives the median, 90th percentile and maximum per mode,
payoff and ``k``.  The exploitabilities are certified; that each set is the
best of its size is not (greedy and swap search, see the simple-strategy
module): the curve is an upper bound on the best possible one.

>>> rows = deal_rows(3, "mirror", "win", ks=(1, 2))
>>> [row["k"] for row in rows], all(0 <= row["exploitability"] <= 1 for row in rows)
([1, 2], True)
>>> deal_rows(3, "shuffled", "win")
Traceback (most recent call last):
    ...
solver.errors.SolverError: mode must be mirror or independent, got 'shuffled'
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from solver.equilibria.equilibrium import solve
from solver.equilibria.simple_strategy import simple_strategies
from solver.errors import SolverError
from solver.game.deal import deal
from solver.game.rules import DiscardMode, Rules

__all__ = ["FIELDS", "KS", "MODES", "PAYOFFS", "deal_rows", "read_rows", "run", "summarize"]

KS = (1, 2, 3, 5, 10)
"""The ``k`` of the curve."""
MODES = ("mirror", "independent")
PAYOFFS = ("margin", "win")
FIELDS = (
    "mode", "payoff", "seed", "k", "arrangements", "exploitability", "exploitability_percent",
    "guarantee", "value", "value_gap", "proven", "support", "pool", "solve_seconds",
    "search_seconds",
)  # fmt: skip
"""The CSV columns (seconds: CPU time of the solve and of the search)."""


def deal_rows(
    seed: int, mode: str, payoff: str, ks: Sequence[int] = KS, rules: Rules | None = None
) -> list[dict[str, Any]]:
    """One deal's rows: player 1's best strategy found for each ``k``, certified.

    Parameters
    ----------
    seed
        The deal's seed.
    mode
        ``"mirror"`` or ``"independent"`` (the rules' discard mode).
    payoff
        ``"margin"`` or ``"win"``.
    ks
        The ``k`` to find strategies for.
    rules
        The other rules (default: the standard ones); the mode replaces theirs.

    Returns
    -------
    list of dict
        One row per ``k`` (:data:`FIELDS`).
    """
    if mode not in MODES:
        raise SolverError(f"mode must be mirror or independent, got {mode!r}", argument="mode")
    base = Rules() if rules is None else rules
    rules = replace(base, discard_mode=DiscardMode(mode))
    first, second = deal(seed=seed, rules=rules).holdings
    started = time.process_time()
    equilibrium = solve(first, second, rules, payoff, ranges=False)
    solved = time.process_time()
    results = simple_strategies(first, second, rules, payoff, ks, equilibrium=equilibrium)
    searched = time.process_time()
    support = len({tuple(a.strengths(rules)) for a in equilibrium.row.arrangements})
    return [
        {
            "mode": mode,
            "payoff": payoff,
            "seed": seed,
            "k": r.k,
            "arrangements": len(r.strategy.arrangements),
            "exploitability": r.exploitability,
            "exploitability_percent": r.exploitability_percent,
            "guarantee": r.guarantee,
            "value": r.value,
            "value_gap": r.value_gap,
            "proven": r.proven,
            "support": support,
            "pool": r.pool,
            "solve_seconds": round(solved - started, 3),
            "search_seconds": round(searched - solved, 3),
        }
        for r in results
    ]


def read_rows(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a curve file (numbers as numbers); none when it does not exist yet.

    A deal two processes both solved (``run(reverse=True)`` beside a forward run:
    they may meet on one) counts once, its first rows (the search is deterministic).
    """
    path = Path(path)
    if not path.exists():
        return []
    with path.open(newline="") as f:
        every = list(csv.DictReader(f))
    first: dict[tuple[str, ...], dict[str, Any]] = {}
    for row in every:
        first.setdefault((row["mode"], row["payoff"], row["seed"], row["k"]), row)
    rows = list(first.values())
    for row in rows:
        for key in ("seed", "k", "arrangements", "support", "pool"):
            row[key] = int(row[key])
        for key in ("exploitability", "exploitability_percent", "guarantee", "value"):
            row[key] = float(row[key])
        for key in ("value_gap", "solve_seconds", "search_seconds"):
            row[key] = float(row[key])
        row["proven"] = row["proven"] == "True"
    return rows


def run(
    path: str | Path,
    deals: int = 200,
    modes: Iterable[str] = MODES,
    payoffs: Iterable[str] = PAYOFFS,
    ks: Sequence[int] = KS,
    on_deal: Any = None,
    reverse: bool = False,
) -> int:
    """Append the rows of seeds ``0 .. deals - 1`` not in ``path`` yet; how many deals were added.

    Deals go seed by seed, every mode and payoff of a seed in turn, so a run
    stopped early covers the four curves about equally.  ``on_deal(rows)``
    sees each deal's rows once written (progress).  ``reverse``: from the last
    seed down, so that a second process can share the work: each deal is
    looked up in the file just before it starts (a deal the other process
    wrote is skipped; the appends are one write each).
    """
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise SolverError(f"deals must be a positive integer, got {deals!r}", argument="deals")
    path = Path(path)
    done = {(r["mode"], r["payoff"], r["seed"]) for r in read_rows(path)}
    path.parent.mkdir(parents=True, exist_ok=True)
    added = 0
    modes, payoffs = tuple(modes), tuple(payoffs)
    for seed in reversed(range(deals)) if reverse else range(deals):
        for mode in modes:
            for payoff in payoffs:
                if (mode, payoff, seed) in done:
                    continue
                done = {(r["mode"], r["payoff"], r["seed"]) for r in read_rows(path)}
                if (mode, payoff, seed) in done:  # written by another process meanwhile
                    continue
                rows = deal_rows(seed, mode, payoff, ks)
                new = not path.exists() or path.stat().st_size == 0
                text = io.StringIO()
                writer = csv.DictWriter(text, fieldnames=FIELDS)
                if new:
                    writer.writeheader()
                writer.writerows(rows)
                with path.open("a", newline="") as f:  # a deal at a time, one write: resumable
                    f.write(text.getvalue())
                added += 1
                if on_deal is not None:
                    on_deal(rows)
    return added


def summarize(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per mode, payoff and ``k``: deals, median, 90th percentile and maximum exploitability.

    Also the share of deals where the strategy concedes nothing (proven
    optimal) and the mean number of arrangements used.

    >>> rows = [{"mode": "mirror", "payoff": "win", "seed": s, "k": 1, "arrangements": 1,
    ...          "exploitability": e, "proven": e == 0} for s, e in enumerate([0.0, 0.5])]
    >>> summarize(rows)[0]["median"], summarize(rows)[0]["zero_share"]
    (0.25, 0.5)
    """
    groups: dict[tuple[str, str, int], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault((row["mode"], row["payoff"], int(row["k"])), []).append(row)
    order = {m: i for i, m in enumerate(MODES)}
    summary = []
    for (mode, payoff, k), group in sorted(
        groups.items(), key=lambda g: (order.get(g[0][0], 9), g[0][1], g[0][2])
    ):
        values = np.array([float(r["exploitability"]) for r in group])
        summary.append(
            {
                "mode": mode,
                "payoff": payoff,
                "k": k,
                "deals": len(group),
                "median": float(np.median(values)),
                "p90": float(np.percentile(values, 90)),
                "max": float(values.max()),
                "zero_share": float(np.mean([bool(r["proven"]) for r in group])),
                "mean_arrangements": float(np.mean([int(r["arrangements"]) for r in group])),
            }
        )
    return summary
