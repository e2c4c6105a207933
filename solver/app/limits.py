"""Upper bounds of the command-line counts: beyond them a run would exhaust
memory or never end, so ``quintet`` refuses with one line (exit status 2).

README.md ("Limits and exit statuses") lists the same numbers.

>>> bounded_int(1, MAX_TOP)("3")
3
>>> bounded_int(1, MAX_TOP)("1000")
Traceback (most recent call last):
    ...
argparse.ArgumentTypeError: '1000' must be at most 100
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from solver.app.arguments import non_negative_int

__all__ = [
    "MAX_DEALS",
    "MAX_JOBS",
    "MAX_SAMPLES",
    "MAX_SEED",
    "MAX_SHOW",
    "MAX_TOP",
    "MAX_WORKERS",
    "bounded_int",
]

MAX_TOP = 100  # suggest --top: each runner-up is one more CP-SAT solve
MAX_SAMPLES = 10_000  # suggest --samples: the win model grows with every sample
MAX_WORKERS = 64  # suggest --workers: CP-SAT search threads
MAX_SHOW = 1_000  # equilibrium --show: arrangements listed
MAX_DEALS = 1_000_000  # tournament --deals
MAX_JOBS = 256  # tournament --jobs: worker processes
MAX_SEED = 2**63 - 1  # --seed of every command


def bounded_int(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an integer from ``low`` to ``high``."""

    def parse(text: str) -> int:
        value = non_negative_int(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"{text!r} must be at least {low}")
        if value > high:
            raise argparse.ArgumentTypeError(f"{text!r} must be at most {high}")
        return value

    parse.__name__ = f"integer_{low}_to_{high}"
    return parse
