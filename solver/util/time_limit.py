"""The one check of a time limit, for every function that takes one.

A time limit is ``None`` (no limit) or a positive, finite number of
seconds (an ``int`` or a ``float``, numpy's included).  NaN, infinities,
zero, negative numbers, bools and text are refused with a
:class:`~solver.errors.SolverError` naming the argument.

>>> check_time_limit(None), check_time_limit(2)
(None, 2.0)
>>> check_time_limit(float("nan"))
Traceback (most recent call last):
    ...
solver.errors.SolverError: time_limit must be a positive, finite number of seconds, got nan
"""

from __future__ import annotations

import math

import numpy as np

from solver.errors import SolverError

__all__ = ["check_time_limit"]


def check_time_limit(value: object, argument: str = "time_limit") -> float | None:
    """``value`` as seconds (a float), or None for no limit; see the module."""
    if value is None:
        return None
    numeric = isinstance(value, (int, float, np.integer, np.floating))
    if isinstance(value, (bool, np.bool_)) or not numeric:
        raise SolverError(
            f"{argument} must be a number of seconds, got {value!r}", argument=argument
        )
    seconds = float(value)  # type: ignore[arg-type]
    if not (math.isfinite(seconds) and seconds > 0):
        raise SolverError(
            f"{argument} must be a positive, finite number of seconds, got {seconds}",
            argument=argument,
        )
    return seconds
