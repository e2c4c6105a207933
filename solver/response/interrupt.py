"""Ctrl-C during a CP-SAT solve: an interrupt, not an ordinary result.

Left to itself, CP-SAT installs its own SIGINT handler while it solves:
Ctrl-C stops the search and ``solve`` returns the best solution found
(FEASIBLE) or none (UNKNOWN) exactly as if a limit had been reached, and the
handler it leaves behind is the system's default (a second Ctrl-C would kill
the process without a word).  Nothing in the response says which it was.

:func:`solve` therefore keeps CP-SAT away from SIGINT
(``catch_sigint_signal = False``) and lets Python's own handler see it.  That
handler is in two halves: the C half runs the moment the signal arrives, sets
a flag and writes the signal number to the *wakeup fd*
(:func:`signal.set_wakeup_fd`); the Python half (``default_int_handler``,
which raises :exc:`KeyboardInterrupt`) runs in the main thread at its next
bytecode, i.e. only once the C++ solve has returned.  To make that prompt,
the solve is bracketed by a pipe installed as the wakeup fd and a watcher
thread blocked on its read end: a SIGINT byte makes it call
``solver.stop_search()`` (thread-safe; CP-SAT releases the GIL while it
searches, so the watcher runs).  The search stops within milliseconds,
``solve`` returns, and Python raises the one :exc:`KeyboardInterrupt` itself,
from inside the solve call.  So an interrupt is an interrupt by construction:
no timing guess, and a search that stops at its own limit, however early,
is an ordinary result.

The watcher is armed only in the main thread (the signal APIs belong to it)
and only while Python's default SIGINT handler is installed: then every stop
it makes is followed by that :exc:`KeyboardInterrupt`.  Under any other
handler (ignored, the system default, a custom one) the solve runs to its
limit and the handler does what it does; the handler is never changed.
Signal bytes are passed on to the wakeup fd that was installed
before, which is put back afterwards.

>>> from ortools.sat.python import cp_model
>>> model = cp_model.CpModel()
>>> x = model.new_int_var(0, 3, "x")
>>> model.maximize(x)
>>> solver = cp_model.CpSolver()
>>> solve(solver, model) == cp_model.OPTIMAL and solver.value(x)
3
>>> solver.parameters.catch_sigint_signal
False
>>> solve(None, model)
Traceback (most recent call last):
...
AttributeError: 'NoneType' object has no attribute 'parameters'
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import threading
from collections.abc import Iterator
from typing import Any

__all__ = ["solve"]

# Written by the solving thread to the wakeup pipe to tell the watcher to
# exit; 0 is no signal's number.
_STOP = b"\x00"


def solve(solver: Any, model: Any) -> Any:
    """``solver.solve(model)``, Ctrl-C raising :exc:`KeyboardInterrupt` promptly.

    Parameters
    ----------
    solver : ortools.sat.python.cp_model.CpSolver
        Its parameters are kept, except ``catch_sigint_signal`` (set False).
    model : ortools.sat.python.cp_model.CpModel

    Returns
    -------
    The CP-SAT status.  A Ctrl-C in the main thread raises
    :exc:`KeyboardInterrupt` instead.
    """
    solver.parameters.catch_sigint_signal = False
    with _stop_on_sigint(solver):
        return solver.solve(model)


@contextlib.contextmanager
def _stop_on_sigint(solver: Any) -> Iterator[None]:
    """While the block runs, a SIGINT calls ``solver.stop_search()`` at once."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)  # set_wakeup_fd requires it
    previous = signal.set_wakeup_fd(write_end)
    watcher = threading.Thread(
        target=_watch, args=(read_end, previous, solver), name="cpsat-sigint", daemon=True
    )
    try:
        watcher.start()
        yield
    finally:
        signal.set_wakeup_fd(previous)
        os.write(write_end, _STOP)
        watcher.join()
        os.close(read_end)
        os.close(write_end)


def _watch(read_end: int, previous: int, solver: Any) -> None:
    """Until the stop byte: stop the search on SIGINT, pass other signals on."""
    while True:
        select.select([read_end], [], [])
        received = os.read(read_end, 512)
        if bytes([signal.SIGINT]) in received:
            solver.stop_search()
        signals = received.replace(_STOP, b"")
        if signals and previous >= 0:  # whoever installed it still hears them
            with contextlib.suppress(OSError):
                os.write(previous, signals)
        if _STOP in received:
            return
