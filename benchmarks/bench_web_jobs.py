"""Job start latency of the web server: submit to the job's first answer.

Run from the repository root::

    python benchmarks/bench_web_jobs.py [--jobs N]

A job that fails at once in its process (a suggest against a known arrangement
that does not parse) measures the cost of starting a job's process and hearing
from it: the first job (the forkserver starts and imports the solver) and the
next ``N`` (forked from the ready forkserver).  Reported, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time

from solver.app.requests import SuggestRequest, holdings
from solver.game.rules import Rules
from solver.web.jobs import JobManager


def _round_trip(manager: JobManager, request: SuggestRequest) -> float:
    started = time.perf_counter()
    job = manager.submit("suggest", request)
    job.finished_event.wait(timeout=60)
    assert job.state.value == "error", job.status()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=10, help="warm jobs to time (default 10)")
    args = parser.parse_args()
    manager = JobManager(max_running=1, time_limit=10)
    start = getattr(manager, "start", None)
    if start is not None:
        start()
    request = SuggestRequest(holdings(None, None, 1, Rules()), Rules(), known="As")
    first = _round_trip(manager, request)
    warm = [_round_trip(manager, request) for _ in range(args.jobs)]
    manager.shutdown()
    print(f"first job (forkserver start): {first * 1000:.0f} ms")
    print(
        f"next {args.jobs} jobs: median {statistics.median(warm) * 1000:.1f} ms, "
        f"max {max(warm) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
