"""Progress of long runs on stderr: rewritten in place on a terminal, a line every 10 s in a log.

``QUINTET_PROGRESS=0`` in the environment silences it (a script that keeps
stderr for errors and warnings only).

>>> lines = []
>>> clock = iter([0.0, 4.0, 11.0, 12.0, 13.0]).__next__
>>> log = Progress(terminal=False, clock=clock, write=lines.append)
>>> for done in (1, 2, 3):
...     log.show(f"{done}/4", final=False)
>>> log.show("4/4", final=True)
>>> lines
['2/4\\n', '4/4\\n']
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

__all__ = ["EVERY_SECONDS", "SILENCE_VARIABLE", "Progress"]

EVERY_SECONDS = 10.0  # a log gets a progress line at most this often
SILENCE_VARIABLE = "QUINTET_PROGRESS"  # "0": no progress lines at all


def _stderr(text: str) -> None:
    sys.stderr.write(text)
    sys.stderr.flush()


class Progress:
    """Where a run's progress lines go (see the module).

    In a log (not a terminal) a run shorter than :data:`EVERY_SECONDS` prints
    nothing: its final line comes only after an earlier one.
    """

    def __init__(
        self,
        *,
        terminal: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
        write: Callable[[str], None] = _stderr,
    ) -> None:
        self.terminal = sys.stderr.isatty() if terminal is None else terminal
        self.silent = os.environ.get(SILENCE_VARIABLE, "").strip() == "0"
        self.clock, self.write = clock, write
        self.last = self.clock()
        self.printed = False

    def show(self, line: str, final: bool) -> None:
        """Show ``line``; ``final`` ends the progress (a newline on a terminal)."""
        if self.silent:
            return
        if self.terminal:
            self.write(f"\r{line}   " + ("\n" if final else ""))
            return
        now = self.clock()
        if now - self.last >= EVERY_SECONDS or (final and self.printed):
            self.write(line + "\n")
            self.last, self.printed = now, True
