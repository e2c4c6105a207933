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

import os

from solver.util.lifeline import PR_SET_PDEATHSIG, die_with_parent, exit_when_closed

__all__ = ["PARENT_VARIABLE", "PR_SET_PDEATHSIG", "die_with_parent", "exit_when_closed"]

# Set (to the server's pid) in the environment the forkserver is started with.
PARENT_VARIABLE = "QUINTET_FORKSERVER_PARENT"


def _forkserver_hook() -> None:
    """In the forkserver (its parent: the server that set :data:`PARENT_VARIABLE`)."""
    expected = os.environ.get(PARENT_VARIABLE)
    ours = bool(expected and expected.isdigit() and int(expected) == os.getppid())
    if ours and not die_with_parent(os.getppid()):
        os._exit(1)


_forkserver_hook()
