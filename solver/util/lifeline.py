"""Worker processes never outlive the process that started them, even one killed by SIGKILL.

A pool's workers block on their task queue, whose pipe they hold open
themselves: when the parent dies without stopping them (SIGKILL, the OOM
killer, a plain SIGTERM, which Python does not catch), nothing tells them,
and they live on, re-parented to init, computing.  Two mechanisms, each
enough on its own in most cases:

* **A parent-death signal** (Linux ``prctl(PR_SET_PDEATHSIG, SIGKILL)``): the
  kernel kills a process when the thread that forked it ends
  (:func:`die_with_parent`; the caller then checks that its parent is still
  the one expected, since the parent may have died before the call).
* **A watch on the parent**: a daemon thread that ends the process once its
  parent is no longer the one it started with (:func:`tie_to_parent`, for
  start methods whose parent is not the pool's owner: a forkserver's
  children are re-parented when it ends with its owner), or once a
  connection's other end closes (:func:`exit_when_closed`, the web's jobs).

:func:`tie_to_parent` is a pool's initializer: ``ProcessPoolExecutor(...,
initializer=tie_to_parent, initargs=(os.getpid(),))``.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from multiprocessing.connection import Connection

__all__ = ["WATCH_SECONDS", "die_with_parent", "exit_when_closed", "tie_to_parent"]

PR_SET_PDEATHSIG = 1
WATCH_SECONDS = 0.5
"""How often a worker whose parent-death signal cannot be set looks at its parent."""


def die_with_parent(parent: int) -> bool:
    """Ask the kernel to SIGKILL this process when its parent ends; is ``parent`` still it?

    Returns False when the parent is no longer ``parent`` (it died before
    the signal was set: the caller should exit now).  Where there is no
    ``prctl`` (not Linux) only the check is made.

    Examples
    --------
    >>> import subprocess, sys
    >>> code = "import os; from solver.util.lifeline import die_with_parent as d; "
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


def tie_to_parent(owner: int, ignore_interrupts: bool = True) -> None:
    """A worker's initializer: end this process when ``owner`` (the pool's process) ends.

    The parent-death signal when this process's parent is ``owner`` (a forked
    worker), and in every case a daemon thread ending it once its parent
    changes (the owner, or the forkserver between them, has died).
    ``ignore_interrupts``: leave Ctrl-C to the owner, which stops the pool.

    Examples
    --------
    >>> import subprocess, sys
    >>> code = "import os; from solver.util.lifeline import tie_to_parent as t; "
    >>> code += "t(os.getppid()); print('tied')"
    >>> subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    'tied\\n'
    >>> tie_to_parent(-1)
    Traceback (most recent call last):
        ...
    ValueError: owner must be a process id, got -1
    """
    if isinstance(owner, bool) or not isinstance(owner, int) or owner < 1:
        raise ValueError(f"owner must be a process id, got {owner!r}")
    if ignore_interrupts:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()
    if parent == owner and not die_with_parent(owner):
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()
