"""Ctrl-C during a CP-SAT solve: an interrupt, not an ordinary result.

CP-SAT installs its own SIGINT handler while it solves: Ctrl-C stops the
search, and ``solve`` returns the best solution found (FEASIBLE) or none
(UNKNOWN) as if a limit had been reached, and the handler it leaves behind
is the system's default (a second Ctrl-C would kill the process without a
word).  :func:`solve` tells the two apart: a search without a proof that
stopped well before its time limit (or had none) was interrupted, and
raises :exc:`KeyboardInterrupt`; Python's own handler is put back after
every solve.  "Well before" leaves CP-SAT room to stop a little early on its
own (it does under limits of a few milliseconds): at least half a second and
a tenth of the limit; an interrupt within that margin of the limit is taken
for the limit.

>>> from ortools.sat.python import cp_model
>>> model = cp_model.CpModel()
>>> x = model.new_int_var(0, 3, "x")
>>> model.maximize(x)
>>> solver = cp_model.CpSolver()
>>> solve(solver, model) == cp_model.OPTIMAL and solver.value(x)
3
"""

from __future__ import annotations

import math
import signal
import threading
from typing import Any

__all__ = ["solve"]

# A search that stops this long before its time limit did not hit it.
_MARGIN_SECONDS = 0.5
_MARGIN_SHARE = 0.1


def solve(solver: Any, model: Any) -> Any:
    """``solver.solve(model)``; raise KeyboardInterrupt if Ctrl-C stopped it."""
    from ortools.sat.python import cp_model

    status = solver.solve(model)
    _restore_python_handler()
    if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE, cp_model.MODEL_INVALID):
        return status
    limit = float(solver.parameters.max_time_in_seconds)
    margin = max(_MARGIN_SECONDS, _MARGIN_SHARE * limit)
    if not math.isfinite(limit) or solver.wall_time < limit - margin:
        raise KeyboardInterrupt("CP-SAT search interrupted")
    return status


def _restore_python_handler() -> None:
    """Reinstall Python's SIGINT handler, which CP-SAT replaced by the default."""
    if threading.current_thread() is not threading.main_thread():
        return
    handler = signal.getsignal(signal.SIGINT)
    if handler is not None:
        signal.signal(signal.SIGINT, handler)
