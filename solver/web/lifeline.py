"""Job processes never outlive the server, even a server killed by SIGKILL.

Two mechanisms, each enough on its own in most cases:

* **A parent-death signal** (Linux ``prctl(PR_SET_PDEATHSIG, SIGKILL)``): the
  kernel kills a process when the thread that forked it ends.  A job's
  process sets it at its start, then checks that its parent is still the
  one expected (the parent may have died before the call).  A job's parent
  is the *forkserver*; the forkserver sets it too when the server started
  it from its main thread (:data:`PARENT_VARIABLE` tells it so: it is read
  when the forkserver imports this module as a preload).
* **A lifeline**: a job watches its connection to the server in a thread;
  when the server's end closes (the server died, whichever way), the job
  exits at once.  This needs no kernel feature, but needs the job's Python
  code to run (it does between the solvers' C calls).

Without both, a SIGKILLed server left its jobs running, and with them the
forkserver and the resource tracker (each job holds their pipes open).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
from multiprocessing.connection import Connection

__all__ = ["PARENT_VARIABLE", "die_with_parent", "exit_when_closed"]

# Set (to the server's pid) in the environment the forkserver is started with.
PARENT_VARIABLE = "QUINTET_FORKSERVER_PARENT"
PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> bool:
    """Ask the kernel to SIGKILL this process when its parent ends; is ``parent`` still it?

    Returns False when the parent is no longer ``parent`` (it died before
    the signal was set: the caller should exit now).  Where there is no
    ``prctl`` (not Linux) only the check is made.

    Examples
    --------
    >>> import subprocess, sys
    >>> code = "import os; from solver.web.lifeline import die_with_parent as d; "
    >>> code += "print(d(os.getppid()), d(os.getppid() + 1))"
    >>> subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    'True False\\n'
    >>> die_with_parent(0)
    Traceback (most recent call last):
        ...
    ValueError: parent must be a process id, got 0
    """
    if isinstance(parent, bool) or not isinstance(parent, int) or parent < 1:
        raise ValueError(f"parent must be a process id, got {parent!r}")
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):  # no libc prctl: the lifeline still works
            pass
    return os.getppid() == parent


def exit_when_closed(connection: Connection) -> threading.Thread:
    """Exit this process as soon as the other end of ``connection`` closes (or writes).

    For a job's process: the server never writes to its end, so any
    readiness is the end of the server.

    Examples
    --------
    >>> import multiprocessing
    >>> exit_when_closed(None)
    Traceback (most recent call last):
        ...
    TypeError: connection must be a Connection, got None
    """
    if not hasattr(connection, "poll"):
        raise TypeError(f"connection must be a Connection, got {connection!r}")

    def watch() -> None:
        with contextlib.suppress(OSError, EOFError, ValueError):
            connection.poll(None)
        os._exit(1)

    thread = threading.Thread(target=watch, daemon=True, name="lifeline")
    thread.start()
    return thread


def _forkserver_hook() -> None:
    """In the forkserver (its parent: the server that set :data:`PARENT_VARIABLE`)."""
    expected = os.environ.get(PARENT_VARIABLE)
    ours = bool(expected and expected.isdigit() and int(expected) == os.getppid())
    if ours and not die_with_parent(os.getppid()):
        os._exit(1)


_forkserver_hook()
