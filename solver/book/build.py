"""Building the book: solve every canonical deal asked for that is not stored yet.

The deals asked for are either ``deals`` seeded deals (deal ``i`` is dealt
from the tournament's seed of deal ``i``, :func:`solver.game.deal.deal_seed`, so a book and a
tournament with the same seed share their deals) or every mirror class
(``deals=None``; streamed from :func:`solver.book.canonical.canonical_mirror_holdings`).
Each is reduced to its canonical key; keys already stored are skipped.

Each (deal, payoff) is one unit of work, run by a worker (inline, a local
process pool, or a Dask cluster) that returns the finished book row; only
the driver writes, committing rows in batches, each one transaction.  So a
build killed at any moment (the driver, or a worker: Dask runs its lost
tasks again) and started again ends with exactly the deals asked for, each
once, and never a half-written row.  At most ``2 * jobs`` units are in
flight, so ``deals=None`` never holds the class list in memory.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "b.sqlite"
>>> rules = Rules(position_points=(6, 7))
>>> build(path, rules, ["margin"], deals=3, seed=1).solved
3
>>> build(path, rules, ["margin"], deals=3, seed=1).solved
0
>>> build(path, rules, ["margin"], deals=None, jobs=0)
Traceback (most recent call last):
    ...
solver.errors.BookError: jobs must be at least 1, got 0
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from solver.book.canonical import (
    canonical_key,
    canonical_mirror_holdings,
    class_count,
    sample_mirror_classes,
    slice_mirror_classes,
)
from solver.book.estimate import BuildEstimate, estimate_units
from solver.book.lookup import book_row, solve_key
from solver.book.store import Book
from solver.equilibria.equilibrium import DEFAULT_TOLERANCE, Payoff, parse_payoff
from solver.errors import BookError
from solver.game.cards import DECK_SIZE, HAND_SIZE
from solver.game.deal import deal, deal_seed
from solver.game.rules import DiscardMode, Rules, rules_or_default
from solver.util.checks import check_callback, check_int, check_path, check_tolerance
from solver.util.cluster import dask_cluster
from solver.util.lifeline import tie_to_parent

__all__ = ["BuildProgress", "BuildSummary", "build", "seeded_keys"]

Key = tuple[int, int]
Task = tuple[Key, str]
# The units of one deal, solved together: its payoffs share the holdings' frontiers (cached).
Group = list[Task]


# A part of the mirror classes: a uniform seeded sample of this many, or a slice of the
# enumeration order (start, stop); None is every class.
Classes = int | tuple[int, int] | None


def chosen_keys(classes: int | tuple[int, int], seed: int, rules: Rules) -> list[Key]:
    """Canonical keys of a part of the mirror classes: a seeded sample of ``classes`` of them,
    or classes ``start .. stop - 1`` of the enumeration order (``classes=(start, stop)``)."""
    if rules.discard_mode is not DiscardMode.MIRROR:
        raise BookError(
            "classes: only mirror classes are enumerated (mirror mode)", argument="classes"
        )
    n_removed = DECK_SIZE - HAND_SIZE * rules.n_packets
    masks = (
        sample_mirror_classes(classes, seed, n_removed)
        if isinstance(classes, int)
        else slice_mirror_classes(*classes, n_removed)
    )
    return [(mask, mask) for mask in masks.tolist()]


def seeded_keys(deals: int, seed: int, rules: Rules) -> list[Key]:
    """Canonical keys of seeded deals ``0 .. deals - 1``, each once, in deal order."""
    keys = (canonical_key(deal(deal_seed(seed, i), rules).holdings)[0] for i in range(deals))
    return list(dict.fromkeys(keys))


@dataclass(frozen=True)
class BuildProgress:
    """How far a build is: units (deal and payoff) done of those to do."""

    done: int
    total: int
    seconds: float

    @property
    def rate(self) -> float:
        """Units per second so far."""
        return self.done / self.seconds if self.seconds > 0 else 0.0

    @property
    def eta(self) -> float | None:
        """Seconds left at the rate so far (None before the first unit)."""
        return (self.total - self.done) / self.rate if self.rate > 0 else None


@dataclass(frozen=True)
class BuildSummary:
    """What a build did: units asked for, already stored, solved now, and its time."""

    asked: int
    stored_before: int
    solved: int
    seconds: float


def _solve_units(tasks: list[Task], rules: Rules, tolerance: float) -> list[tuple[object, ...]]:
    # Workers share the cores: one BLAS thread each.
    # A unit whose canonical selection gave up gives no row (the next build retries it).
    # A deal's win game starts from its margin equilibrium, solved first (the 40 first
    # seeded classes, both payoffs: 0.514 -> 0.450 s of CPU per class, the same rows).
    deals: dict[Key, list[str]] = {}
    for key, payoff in tasks:
        deals.setdefault(key, []).append(payoff)
    rows = []
    with threadpool_limits(limits=1):
        for key, payoffs in deals.items():
            solved = None  # the deal's last equilibrium: the next payoff starts from it
            for payoff in sorted(payoffs, key=lambda p: p != Payoff.MARGIN.value):
                solved = solve_key(key, rules, payoff, tolerance=tolerance, start=solved)
                rows.append(book_row(key, solved))
    return [row for row in rows if row is not None]


def _todo(
    book: Book,
    rules: Rules,
    payoffs: Sequence[Payoff],
    deals: int | None,
    seed: int,
    classes: Classes = None,
) -> tuple[Iterator[Group], int, int]:
    """Units not yet stored (streamed, grouped by deal), how many, and how many asked are stored."""
    stored = {p: {(int(a), int(b)) for a, b in book.keys(rules, p)} for p in payoffs}
    keys = None
    if deals is not None:
        keys = seeded_keys(deals, seed, rules)
    elif classes is not None:
        keys = chosen_keys(classes, seed, rules)
    if keys is not None:
        groups = [[(k, p.value) for p in payoffs if k not in stored[p]] for k in keys]
        groups = [group for group in groups if group]
        count = sum(map(len, groups))
        return iter(groups), count, len(keys) * len(payoffs) - count
    if rules.discard_mode is not DiscardMode.MIRROR:
        raise BookError(
            "deals must be given outside mirror mode (only mirror classes are enumerated)",
            argument="deals",
        )
    n_removed = DECK_SIZE - HAND_SIZE * rules.n_packets
    stored_masks = {p: np.array(sorted(k[0] for k in stored[p]), dtype=np.int64) for p in payoffs}

    def stream() -> Iterator[Group]:
        for chunk in canonical_mirror_holdings(n_removed):
            fresh = [(p.value, ~np.isin(chunk, stored_masks[p])) for p in payoffs]
            for row, mask in enumerate(chunk.tolist()):
                if group := [((mask, mask), payoff) for payoff, new in fresh if new[row]]:
                    yield group

    # Stored keys of these rules are all mirror classes, so the count is exact.
    n_stored = sum(len(stored[p]) for p in payoffs)
    return stream(), class_count(n_removed) * len(payoffs) - n_stored, n_stored


class _Inline:
    """An executor that runs each unit at once, in this process (``jobs=1``)."""

    def submit(self, function: Callable[..., Any], *args: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(function(*args))
        return future


def _check_build_arguments(
    path: object,
    payoffs: object,
    seed: object,
    batch: object,
    tolerance: object,
    on_progress: object,
    on_estimate: object = None,
) -> None:
    """The arguments of :func:`build` that its body does not check, before the book opens."""
    if path is not None:
        check_path(path, "path")
    if isinstance(payoffs, (str, bytes)) or not isinstance(payoffs, Sequence):
        raise TypeError(f"payoffs must be a list of payoffs, got {payoffs!r}")
    if not payoffs:
        raise BookError("payoffs: no payoff to build", argument="payoffs")
    check_int(seed, "seed", low=0)
    check_int(batch, "batch", low=1, high=MAX_BATCH)
    check_tolerance(tolerance)
    check_callback(on_progress, "on_progress")
    check_callback(on_estimate, "on_estimate")


def _check_classes(classes: object, deals: object) -> None:
    if classes is None:
        return
    if deals is not None:
        raise BookError("classes: give deals or classes, not both", argument="classes")
    if isinstance(classes, tuple) and len(classes) == 2:
        start, stop = (check_int(c, "classes", low=0) for c in classes)
        if start >= stop:
            raise BookError(f"classes: start {start} is not before stop {stop}", argument="classes")
    else:
        check_int(classes, "classes", low=1)


# The most solved deals kept before a commit (rows wait in memory).
MAX_BATCH = 100_000


def build(
    path: str | Path | None,
    rules: Rules,
    payoffs: Sequence[Payoff | str],
    *,
    deals: int | None = None,
    classes: Classes = None,
    seed: int = 0,
    jobs: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    batch: int = 8,
    tolerance: float = DEFAULT_TOLERANCE,
    on_progress: Callable[[BuildProgress], None] | None = None,
    on_estimate: Callable[[BuildEstimate], None] | None = None,
) -> BuildSummary:
    """Solve and store every canonical deal asked for that the book lacks.

    Parameters
    ----------
    path
        The book file (``None``: the default book).
    rules, payoffs
        The games to solve each deal in.
    deals, seed
        ``deals`` seeded deals; ``None`` for every mirror class.
    classes
        With ``deals=None``, a part of the mirror classes: a uniform sample
        of ``classes`` of them drawn with ``seed``, or ``(start, stop)``, a
        slice of their enumeration order.
    jobs, backend, scheduler
        Workers: ``backend="local"`` runs ``jobs`` processes (inline when 1);
        ``"dask"`` a local cluster of ``jobs`` workers, or the scheduler at
        ``scheduler``.
    batch
        Rows per transaction (at most ``batch`` finished solves are lost
        when the driver is killed).
    on_progress
        Called after each finished unit.
    on_estimate
        Called once before the first solve with the build's cost
        (:mod:`solver.book.estimate`).
    """
    rules = rules_or_default(rules)
    _check_build_arguments(path, payoffs, seed, batch, tolerance, on_progress, on_estimate)
    check_int(jobs, "jobs")
    if jobs < 1:
        raise BookError(f"jobs must be at least 1, got {jobs}", argument="jobs")
    if deals is not None:
        check_int(deals, "deals")
    if deals is not None and deals < 1:
        raise BookError(f"deals must be at least 1, got {deals}", argument="deals")
    _check_classes(classes, deals)
    if scheduler is not None and backend != "dask":
        raise BookError(
            f"scheduler needs backend='dask', got backend={backend!r}", argument="scheduler"
        )
    if backend not in ("local", "dask"):
        raise BookError(f"backend {backend!r} is not local or dask", argument="backend")
    if isinstance(payoffs, str):
        raise TypeError(f"payoffs must be a list of payoffs, got the string {payoffs!r}")
    chosen = [parse_payoff(p) for p in dict.fromkeys(payoffs)]
    started = time.perf_counter()
    with Book(path) as book:
        tasks, total, stored_before = _todo(book, rules, chosen, deals, seed, classes)
        own = {p.value: book.costs(rules, p) for p in chosen}
        workers = min(jobs, os.cpu_count() or jobs) if backend == "local" else jobs

        def begin() -> None:
            # Once the workers are there: a scheduler that cannot be reached is the one error.
            if on_estimate is not None:
                on_estimate(estimate_units(total, chosen, workers=workers, own=own))

        run = _run_dask if backend == "dask" else _run_local
        solved = run(
            book, tasks, total, rules, tolerance, jobs, scheduler, batch, (on_progress, begin)
        )
    return BuildSummary(total + stored_before, stored_before, solved, time.perf_counter() - started)


class _Committer:
    """Collects finished rows and commits them in batches; reports progress."""

    def __init__(
        self,
        book: Book,
        total: int,
        batch: int,
        on_progress: Callable[[BuildProgress], None] | None,
    ) -> None:
        self.book, self.total, self.batch, self.on_progress = book, total, batch, on_progress
        self.rows: list[tuple[object, ...]] = []
        self.done = 0
        self.started = time.perf_counter()

    def add(self, rows: list[tuple[object, ...]]) -> None:
        self.rows.extend(rows)
        self.done += len(rows)
        if len(self.rows) >= self.batch:
            self.flush()
        if self.on_progress is not None:
            self.on_progress(
                BuildProgress(self.done, self.total, time.perf_counter() - self.started)
            )

    def flush(self) -> None:
        if self.rows:
            self.book.put(self.rows)
            self.rows = []


def _run_local(
    book: Book,
    tasks: Iterator[Group],
    total: int,
    rules: Rules,
    tolerance: float,
    jobs: int,
    scheduler: str | None,
    batch: int,
    callbacks: tuple[Callable[[BuildProgress], None] | None, Callable[[], None]],
) -> int:
    on_progress, begin = callbacks
    committer = _Committer(book, total, batch, on_progress)
    jobs = min(jobs, os.cpu_count() or jobs)
    begin()
    pool: Any = (
        _Inline()
        if jobs == 1
        else ProcessPoolExecutor(  # workers end with this process, however it ends
            max_workers=jobs, initializer=tie_to_parent, initargs=(os.getpid(),)
        )
    )
    try:
        pending: set[Future[Any]] = set()
        exhausted = False
        while True:
            # Inline, one at a time; a pool, two per worker so none waits.
            while not exhausted and len(pending) < (1 if jobs == 1 else 2 * jobs):
                task = next(tasks, None)
                if task is None:
                    exhausted = True
                else:
                    pending.add(pool.submit(_solve_units, task, rules, tolerance))
            if not pending:
                break
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                committer.add(future.result())
        committer.flush()
    finally:
        if isinstance(pool, ProcessPoolExecutor):
            pool.shutdown(cancel_futures=True)
    return committer.done


def _run_dask(
    book: Book,
    tasks: Iterator[Group],
    total: int,
    rules: Rules,
    tolerance: float,
    jobs: int,
    scheduler: str | None,
    batch: int,
    callbacks: tuple[Callable[[BuildProgress], None] | None, Callable[[], None]],
) -> int:
    on_progress, begin = callbacks
    with dask_cluster(scheduler, jobs) as client:  # a deadline for a scheduler, not a hang
        from distributed import as_completed

        begin()
        committer = _Committer(book, total, batch, on_progress)
        # Keep every worker busy, and no more: the task list is streamed.
        workers = max(1, len(client.scheduler_info().get("workers", {})), jobs)

        def submit(group: Group) -> Any:
            return client.submit(_solve_units, group, rules, tolerance, pure=False, retries=3)

        running = as_completed([submit(t) for t in _take(tasks, 2 * workers)])
        for future in running:
            committer.add(future.result())
            for task in _take(tasks, 1):
                running.add(submit(task))
        committer.flush()
    return committer.done


def _take(tasks: Iterator[Group], count: int) -> list[Group]:
    out = []
    for task in tasks:
        out.append(task)
        if len(out) >= count:
            break
    return out
