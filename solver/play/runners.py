"""Where a tournament's work runs: this process, a local pool, or Dask.

The work is a function of a list of deal indices (a part) returning one
result per index; the runners call it on every part and pass each result on
as soon as its part finishes, so that a caller can save results as they
come.  An interrupt stops a pool at once (queued parts cancelled, workers
terminated); a Dask scheduler that does not answer fails within
:data:`DASK_CONNECT_TIMEOUT` seconds, as a :class:`~solver.errors.QuintetError`.

>>> run_local(lambda part: [i * i for i in part], chunks([1, 2, 3], 1), 1, lambda r: None)
[1, 4, 9]
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import TypeVar

from solver.util.cluster import DASK_CONNECT_TIMEOUT, dask_cluster
from solver.util.lifeline import tie_to_parent

__all__ = ["DASK_CONNECT_TIMEOUT", "chunks", "run_dask", "run_local"]

T = TypeVar("T")


def chunks(indices: list[int], parts: int) -> list[list[int]]:
    """``indices`` in chunks: about four per worker, at most eight items each.

    >>> chunks(list(range(5)), 1)
    [[0], [1], [2], [3], [4]]
    """
    size = max(1, min(8, len(indices) // max(1, 4 * parts)))
    return [indices[start : start + size] for start in range(0, len(indices), size)]


def run_local(
    work: Callable[[list[int]], list[T]],
    parts: list[list[int]],
    jobs: int,
    on_result: Callable[[T], None],
) -> list[T]:
    """``work`` on every part, in this process (``jobs`` 1) or a pool of ``jobs``.

    ``on_result`` sees each result as its part finishes.  An interrupt (or
    any error) cancels the queued parts and terminates the workers at once.
    """
    records: list[T] = []
    if jobs <= 1:
        for part in parts:
            for record in work(part):
                records.append(record)
                on_result(record)
        return records
    # Workers leave Ctrl-C to the parent, which stops them (no traceback from each), and
    # end with it however it ends (SIGKILL, SIGTERM).
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=tie_to_parent, initargs=(os.getpid(),))
    try:
        futures = [pool.submit(work, part) for part in parts]
        for future in as_completed(futures):
            for record in future.result():
                records.append(record)
                on_result(record)
    except BaseException:
        _stop_pool(pool)  # an interrupt stops now, not after every queued chunk
        raise
    pool.shutdown()
    return records


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Cancel the queued chunks and terminate the workers."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=5)


def run_dask(
    work: Callable[[list[int]], list[T]],
    parts: list[list[int]],
    jobs: int,
    scheduler: str | None,
    on_result: Callable[[T], None],
    connect_timeout: float = DASK_CONNECT_TIMEOUT,
) -> list[T]:
    """``work`` on every part on a Dask cluster: ``scheduler``'s, or a local one of ``jobs``."""
    with dask_cluster(scheduler, jobs, connect_timeout) as client:
        from distributed import as_completed

        futures = []
        try:
            futures = [client.submit(work, part, pure=False) for part in parts]
            records: list[T] = []
            for future in as_completed(futures):
                for record in future.result():
                    records.append(record)
                    on_result(record)
            return records
        except BaseException:
            client.cancel(futures)
            raise
