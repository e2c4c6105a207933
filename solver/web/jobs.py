"""Long solves as jobs: each in its own process, watched by a thread, cancellable.

Why a process per job, not a thread or a process pool: the solves are CPU
bound (CP-SAT, numpy, the simplex) and hold the GIL for long stretches, so
a thread would slow every other request; and a running task of a
``ProcessPoolExecutor`` cannot be cancelled without breaking the pool.  A
job's own process can be ended at once (cancel, or its deadline).  The
processes are forked from a *forkserver* that imported the solver once, so
a job starts in milliseconds, without the costs of ``spawn`` or the risks
of forking the threaded server.

A job's process dies with the server, however the server ends
(:mod:`solver.web.lifeline`); :meth:`JobManager.start` starts the forkserver
from the server's main thread so that it dies with the server too.
:meth:`JobManager.close` (the first Ctrl-C or SIGTERM) refuses new jobs and
ends queued and running ones at once, their clients answered 503.

At most ``max_running`` jobs run at once (default: one per core); others
wait, queued.  A thread per job waits for its turn, starts the process,
reads its messages (progress, then the document or an error) and ends it
at its deadline.  The event loop never waits on a solve: the endpoints
only read a job's state.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.forkserver
import os
import secrets
import threading
import time
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from solver.errors import ServerStoppingError, TooManyJobsError
from solver.web.lifeline import PARENT_VARIABLE
from solver.web.work import limited

__all__ = ["RETRY_AFTER_SECONDS", "STOPPING", "Job", "JobManager", "JobState"]


# Seconds a job may run past its time limit (the solvers stop by themselves
# at the limit; this is for the parts that cannot be interrupted).
GRACE_SECONDS = 5.0
# Finished jobs are forgotten after this many seconds, or when too many are kept.
KEEP_SECONDS = 600.0
KEEP_JOBS = 200
# Unfinished jobs (running or queued) one server accepts; beyond, submit refuses.
MAX_PENDING = 32
# What a refused client is told to wait before trying again (the Retry-After header).
RETRY_AFTER_SECONDS = 10
# Why the jobs of a server that is stopping end.
STOPPING = "the server is shutting down"


class JobState(str, Enum):
    """Where a job is in its life."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    ERROR = "error"  # bad input: the library's QuintetError
    FAILED = "failed"  # the work crashed or its process died
    TIMEOUT = "timeout"
    CANCELLED = "cancelled"

    @property
    def finished(self) -> bool:
        """True once the job will not change any more."""
        return self not in (JobState.QUEUED, JobState.RUNNING)


@dataclass
class Job:
    """One job: what it does, its state and, when finished, its document or error."""

    id: str
    kind: str
    deadline_seconds: float
    state: JobState = JobState.QUEUED
    progress: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    error: str | None = None
    argument: str | None = None
    warnings: list[str] = field(default_factory=list)
    created: float = field(default_factory=time.monotonic)
    started: float | None = None
    finished_at: float | None = None
    cancel_requested: threading.Event = field(default_factory=threading.Event)
    finished_event: threading.Event = field(default_factory=threading.Event)
    # Set when the job was ended because the server is stopping (its clients get 503).
    stopped: bool = False

    def status(self) -> dict[str, Any]:
        """The job as JSON: state, progress and the document or error."""
        now = time.monotonic()
        elapsed = None if self.started is None else (self.finished_at or now) - self.started
        return {
            "id": self.id,
            "kind": self.kind,
            "state": self.state.value,
            "elapsed": elapsed,
            "progress": self.progress,
            "result": self.result,
            "error": self.error,
            "argument": self.argument,
            "warnings": self.warnings,
        }


def _context() -> Any:  # a multiprocessing context (forkserver where there is one)
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["solver.web.lifeline", "solver.web.work"])
        return context
    return multiprocessing.get_context("spawn")


def _forking_pid(context: Any) -> int | None:
    """The pid of the process that will fork the next job (its expected parent)."""
    if context.get_start_method() != "forkserver":
        return os.getpid()
    pid = getattr(getattr(multiprocessing.forkserver, "_forkserver", None), "_forkserver_pid", None)
    return pid if isinstance(pid, int) else None


class JobManager:
    """Runs jobs in their own processes, at most ``max_running`` at once."""

    def __init__(self, max_running: int | None = None, time_limit: float = 120.0) -> None:
        self.max_running = max_running or max(1, os.cpu_count() or 1)
        self.time_limit = time_limit
        self._slots = threading.Semaphore(self.max_running)
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._context = _context()
        self._threads: list[threading.Thread] = []
        self.closing = False

    def start(self) -> None:
        """Start the forkserver now, from this thread; from the main thread it dies with us.

        The kernel's parent-death signal follows the thread that forked a
        process: the forkserver sets it only when this is the main thread
        (started later by a job's thread, it would die with that thread).
        """
        if self._context.get_start_method() != "forkserver":
            return
        main = threading.current_thread() is threading.main_thread()
        if main:
            os.environ[PARENT_VARIABLE] = str(os.getpid())
        try:
            multiprocessing.forkserver.ensure_running()
        finally:
            os.environ.pop(PARENT_VARIABLE, None)

    def submit(self, kind: str, request: Any) -> Job:
        """Queue a job for ``request``, its ``time_limit`` capped at the server's limit.

        Raises :class:`TooManyJobsError` when :data:`MAX_PENDING` jobs are
        unfinished, :class:`ServerStoppingError` once :meth:`close` was called,
        a :class:`~solver.errors.QuintetError` for a time limit the work
        cannot keep (:func:`solver.web.work.limited`).
        """
        if self.closing:
            raise ServerStoppingError(STOPPING)
        request, seconds = limited(kind, request, self.time_limit)
        job = Job(id=secrets.token_hex(8), kind=kind, deadline_seconds=seconds + GRACE_SECONDS)
        with self._lock:
            if self.closing:
                raise ServerStoppingError(STOPPING)
            self._forget_old()
            pending = sum(1 for j in self._jobs.values() if not j.state.finished)
            if pending >= MAX_PENDING:
                raise TooManyJobsError(f"the server has {pending} unfinished jobs; try again later")
            self._jobs[job.id] = job
            thread = threading.Thread(
                target=self._watch, args=(job, request), daemon=True, name=job.id
            )
            self._threads = [t for t in self._threads if t.is_alive()] + [thread]
        thread.start()
        return job

    def get(self, job_id: str) -> Job | None:
        """The job called ``job_id``, if it is known."""
        with self._lock:
            return self._jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        """Ask a job to stop; a queued job never starts, a running one is ended."""
        job = self.get(job_id)
        if job is not None:
            job.cancel_requested.set()
        return job

    def close(self) -> None:
        """Refuse new jobs and end every queued and running one (without waiting).

        Their state is ``cancelled`` with the error :data:`STOPPING`, and
        their waiting clients are answered 503.
        """
        with self._lock:
            self.closing = True
            jobs = list(self._jobs.values())
        for job in jobs:
            if not job.state.finished:
                job.stopped = True
            job.cancel_requested.set()

    def shutdown(self, timeout: float = 5.0) -> None:
        """:meth:`close`, then wait (at most ``timeout`` seconds) for the jobs' processes to end."""
        self.close()
        deadline = time.monotonic() + timeout
        with self._lock:
            threads = list(self._threads)
        for thread in threads:
            thread.join(timeout=max(0.0, deadline - time.monotonic()))

    def _forget_old(self) -> None:
        now = time.monotonic()
        finished = [j for j in self._jobs.values() if j.finished_at is not None]
        finished.sort(key=lambda j: j.finished_at or 0.0)
        excess = max(0, len(self._jobs) - KEEP_JOBS)
        for index, job in enumerate(finished):
            if index < excess or now - (job.finished_at or now) > KEEP_SECONDS:
                del self._jobs[job.id]

    def _finish(self, job: Job, state: JobState, **values: Any) -> None:
        for key, value in values.items():
            setattr(job, key, value)
        job.finished_at = time.monotonic()
        job.state = state
        job.finished_event.set()

    def _cancelled(self, job: Job) -> None:
        self._finish(job, JobState.CANCELLED, error=STOPPING if job.stopped else None)

    def _watch(self, job: Job, request: Any) -> None:
        # Wait for a free slot, giving up if the job is cancelled meanwhile.
        while not self._slots.acquire(timeout=0.05):
            if job.cancel_requested.is_set():
                self._cancelled(job)
                return
        try:
            if job.cancel_requested.is_set():
                self._cancelled(job)
                return
            self._run(job, request)
        finally:
            self._slots.release()

    def _run(self, job: Job, request: Any) -> None:
        # Duplex: the job watches its end, which closes when the server's does.
        receiver, sender = self._context.Pipe(duplex=True)
        if self._context.get_start_method() == "forkserver":
            multiprocessing.forkserver.ensure_running()
        process = self._context.Process(
            target=_run_work,
            args=(sender, job.kind, request, _forking_pid(self._context)),
            daemon=True,
        )
        process.start()
        sender.close()
        job.started = time.monotonic()
        job.state = JobState.RUNNING
        try:
            self._read(job, receiver, process)
        finally:
            if process.is_alive():
                process.kill()
            process.join(timeout=5)
            receiver.close()

    def _read(self, job: Job, receiver: Any, process: Any) -> None:
        assert job.started is not None
        while True:
            if job.cancel_requested.is_set():
                self._cancelled(job)
                return
            if time.monotonic() - job.started > job.deadline_seconds:
                self._finish(job, JobState.TIMEOUT, error="the job ran past its time limit")
                return
            if not receiver.poll(0.05):
                continue
            try:
                message = receiver.recv()
            except EOFError:  # the process died without a word
                self._finish(job, JobState.FAILED, error="the worker process ended unexpectedly")
                return
            if message[0] == "progress":
                job.progress = message[1]
            elif message[0] == "done":
                self._finish(job, JobState.DONE, result=message[1], warnings=message[2])
                return
            elif message[0] == "error":
                self._finish(job, JobState.ERROR, error=message[1], argument=message[2])
                return
            else:
                self._finish(job, JobState.FAILED, error=message[1])
                return


def _run_work(*args: Any) -> None:
    # Imported in the job's process (the forkserver has it imported already).
    from solver.web.work import run

    run(*args)
