"""The deals of a history graded one by one, or by worker processes, in the history's order.

``jobs="auto"`` (the default of ``quintet analyze``) is one job per idle CPU
(:func:`idle_cpus`: the CPUs this process may use, :func:`os.sched_getaffinity`,
less those the load average shows busy), capped by :data:`MAX_JOBS` and by
the deals; a history shorter than :data:`POOL_THRESHOLD` deals is graded in
this process.  Why (``benchmarks/bench_analyze.py``, its ``--sizes`` table): a
deal from the book is graded in about 8 ms; a pool costs 6-20 ms to start,
about 0.1 ms a deal to feed, and its workers burn some 15% more CPU between
them, so on two idle CPUs it saves about 3 ms a deal (0.2 s from 64 deals
on) and on busy ones it only costs (measured at a load of 6 on 2 CPUs: 0.3 s
lost at 16 deals, 0.7 s at 200).  A deal the book lacks is solved (0.4 s or
more), where workers pay most.

With a pool the deals go out in tasks of at most :data:`TASK_DEALS` deals;
every deal of one game (both holdings, either seat, the rules) is in one
task, so that a game the book lacks is solved once; the first task is graded in
this process before the workers are forked, so that they inherit what it
loaded (the evaluator's tables, the book's canonical forms: 80 ms a
process).  Results are handed out in the history's order as soon as every
earlier deal is graded; after an interrupt, :meth:`Graded.left` gives the
deals graded but not yet handed out, so that no graded row is lost.

>>> jobs_for(3, 1), jobs_for("auto", POOL_THRESHOLD - 1)
(1, 1)
>>> jobs_for("many", 10)
Traceback (most recent call last):
    ...
solver.errors.QuintetError: jobs must be auto or a number between 1 and 256, got 'many'
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
from collections.abc import Generator
from functools import partial
from multiprocessing.pool import IMapIterator
from typing import Literal, cast

from solver.analysis.breakdown import breakdown
from solver.analysis.grade import equilibrium_grade
from solver.app.history import PlayedDeal
from solver.app.limits import MAX_JOBS
from solver.app.report_analyze import DealResult
from solver.app.requests import BookChoice
from solver.app.solving import source_of
from solver.book.source import EquilibriumSource
from solver.errors import QuintetError
from solver.util.lifeline import tie_to_parent

__all__ = [
    "POOL_THRESHOLD",
    "TASK_DEALS",
    "Graded",
    "Jobs",
    "available_cpus",
    "check_jobs",
    "grade_played",
    "idle_cpus",
    "jobs_for",
]

Jobs = int | Literal["auto"]

# Below this many deals "auto" grades in this process (see the module docstring).
POOL_THRESHOLD = 64
# At most this many deals a task: small enough that rows stream out steadily.
TASK_DEALS = 8


def grade_played(deal: PlayedDeal, source: EquilibriumSource) -> DealResult:
    """One deal graded: the grade's figures and its :class:`~solver.analysis.breakdown.Breakdown`.

    Only what the analysis reports is computed
    (:func:`~solver.analysis.grade.equilibrium_grade`: the loss, the verdict,
    the best change), never the best responses a whole grade adds, which need
    the strategy frontiers and would cost four fifths of the time.
    """
    result = equilibrium_grade(
        deal.arrangement, deal.theirs, deal.rules, holding=deal.mine, solver=source
    )
    known = source.from_book(deal.mine, deal.theirs, deal.rules, "margin")
    return DealResult(
        deal,
        result.equilibrium_loss,
        result.verdict.value,
        result.equilibrium.value,
        result.value,
        result.change,
        breakdown(result),
        bool(known),
    )


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity; the CPU count where there is none).

    >>> available_cpus() >= 1
    True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # no affinity on this platform (macOS, Windows)
        return max(1, os.cpu_count() or 1)


def idle_cpus() -> int:
    """:func:`available_cpus` less those the last minute's load average shows busy (at least 1).

    >>> 1 <= idle_cpus() <= available_cpus()
    True
    """
    cpus = available_cpus()
    try:
        busy = round(os.getloadavg()[0])
    except (AttributeError, OSError):  # no load average here (Windows)
        busy = 0
    return max(1, min(cpus, cpus - busy))


def check_jobs(jobs: object) -> None:
    """Refuse a ``jobs`` that is neither ``"auto"`` nor an int in ``1..MAX_JOBS``."""
    if jobs == "auto":
        return
    if not isinstance(jobs, int) or isinstance(jobs, bool) or not 1 <= jobs <= MAX_JOBS:
        raise QuintetError(
            f"jobs must be auto or a number between 1 and {MAX_JOBS}, got {jobs!r}",
            argument="jobs",
        )


def jobs_for(jobs: object, deals: int) -> int:
    """The worker processes for ``deals`` deals: ``jobs``, or what ``"auto"`` picks.

    1 means no pool.  ``"auto"``: 1 below :data:`POOL_THRESHOLD` deals, else
    :func:`idle_cpus` capped by :data:`MAX_JOBS`; either way at most the
    number of deals after the first (which is graded in this process).
    """
    check_jobs(jobs)
    if jobs == "auto" and deals < POOL_THRESHOLD:
        return 1
    wanted = min(idle_cpus(), MAX_JOBS) if jobs == "auto" else cast(int, jobs)
    wanted = min(wanted, deals - 1)
    return wanted if wanted > 1 else 1  # one worker would only wait for this process


def _mask_sigint(how: int) -> None:
    """Block or unblock Ctrl-C in this thread (where the platform can: not on Windows)."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(how, {signal.SIGINT})


def _quiet_worker(owner: int) -> None:
    tie_to_parent(owner)  # the parent handles Ctrl-C; the worker ends with it, however it ends
    _mask_sigint(getattr(signal, "SIG_UNBLOCK", 1))  # blocked while forked
    # A worker never prints: its output goes nowhere, so that a worker outliving its
    # parent never holds the caller's pipes open (a reader would wait for it).
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.close(devnull)


def _grade_task(
    deals: list[tuple[int, PlayedDeal]], book: BookChoice, time_limit: float | None
) -> list[tuple[int, DealResult]]:
    source = source_of(book, time_limit=time_limit)
    return [(index, grade_played(deal, source)) for index, deal in deals]


def _tasks(deals: list[PlayedDeal], jobs: int) -> list[list[tuple[int, PlayedDeal]]]:
    """The deals (with their indexes) in tasks: a game's deals together, in first-seen order;
    the first task is the first game alone (graded before the workers start); then about
    four tasks a worker, of at most :data:`TASK_DEALS` deals."""
    size = min(TASK_DEALS, max(1, math.ceil((len(deals) - 1) / (4 * jobs))))
    games: dict[object, list[tuple[int, PlayedDeal]]] = {}
    for index, deal in enumerate(deals):
        key = (min(deal.mine, deal.theirs), max(deal.mine, deal.theirs), deal.rules)
        games.setdefault(key, []).append((index, deal))
    tasks: list[list[tuple[int, PlayedDeal]]] = [[]]
    for game in games.values():
        if tasks[-1] and (len(tasks) == 1 or len(tasks[-1]) + len(game) > size):
            tasks.append([])
        tasks[-1].extend(game)
    return [task for task in tasks if task]


class Graded:
    """The deals' results in the history's order, graded by ``jobs`` processes (1: here)."""

    def __init__(
        self, deals: list[PlayedDeal], jobs: int, book: BookChoice, time_limit: float | None
    ) -> None:
        self.deals, self.jobs, self.book, self.time_limit = deals, jobs, book, time_limit
        self._ready: dict[int, DealResult] = {}  # graded, waiting for an earlier deal
        self._results: IMapIterator | None = None  # the pool's, while it runs

    def stream(self) -> Generator[DealResult, None, None]:
        """The results, each as soon as it and every deal before it are graded."""
        if self.jobs == 1:
            source = source_of(self.book, time_limit=self.time_limit)
            for deal in self.deals:
                yield grade_played(deal, source)
            return
        yield from self._pooled()

    def left(self) -> list[DealResult]:
        """The deals graded but not handed out yet (after an interrupt), in order."""
        while self._results is not None:  # what the workers sent and nobody read yet
            try:
                self._ready.update(self._results.next(timeout=0))
            except (StopIteration, multiprocessing.TimeoutError):
                self._results = None
        left = [self._ready[index] for index in sorted(self._ready)]
        self._ready.clear()
        return left

    def _pooled(self) -> Generator[DealResult, None, None]:
        tasks = _tasks(self.deals, self.jobs)
        # The first task is graded here, before the workers are forked: they inherit the
        # tables it loads (the evaluator's, the book's canonical forms: 80 ms a process).
        self._ready.update(_grade_task(tasks[0], self.book, self.time_limit))
        following = yield from self._in_order(0)
        # A multiprocessing pool, not concurrent.futures: after Ctrl-C its workers are
        # ended at once (terminate) instead of finishing their tasks first.
        pool = None
        try:
            # Ctrl-C waits until the pool is whole: interrupted half-made, it would leave
            # workers that its own threads keep replacing, and nothing would end them.
            _mask_sigint(getattr(signal, "SIG_BLOCK", 0))
            try:
                pool = multiprocessing.Pool(
                    self.jobs, initializer=_quiet_worker, initargs=(os.getpid(),)
                )
            finally:
                _mask_sigint(getattr(signal, "SIG_UNBLOCK", 1))
            task = partial(_grade_task, book=self.book, time_limit=self.time_limit)
            self._results = pool.imap_unordered(task, tasks[1:])
            for done in self._results:
                self._ready.update(done)
                following = yield from self._in_order(following)
            self._results = None
        finally:
            if pool is not None:
                pool.terminate()
                pool.join()

    def _in_order(self, following: int) -> Generator[DealResult, None, int]:
        """Hand out the results from index ``following`` on while there is no gap; the next index."""
        while following in self._ready:
            yield self._ready.pop(following)
            following += 1
        return following
