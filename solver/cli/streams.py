"""Standard streams that never end ``quintet`` with a traceback.

``quintet`` may run with standard input closed or fed bytes that are not
UTF-8, with its output going into a closed pipe, a full device
(``/dev/full``) or a terminal whose encoding has no ``♠``.  :func:`prepare`
fixes the streams once at start: a missing standard input reads as empty
(end of input), undecodable input bytes become U+FFFD (the game's parser
then names the bad token), and an output encoding that cannot print the suit
symbols gets the ASCII suit letters instead (``A♠`` prints as ``As``; other
unprintable characters as ``?``).  :func:`output_failure` recognizes the
errors of writing to a stream that is gone or full.

>>> translate_suits("A♠ 10♥")
'As 10h'
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from typing import Any, TextIO, cast

__all__ = ["EXIT_OUTPUT", "output_failure", "prepare", "silence_stdout", "translate_suits"]

# Exit status when the output cannot be written (closed pipe, full device).
EXIT_OUTPUT = 1

_SUITS = str.maketrans({"♣": "c", "♦": "d", "♥": "h", "♠": "s", "\ufe0f": None})
_GONE = {errno.EPIPE, errno.ENOSPC, errno.EIO, errno.EBADF, errno.EDQUOT}


def translate_suits(text: str) -> str:
    """Suit symbols as the ASCII suit letters."""
    return text.translate(_SUITS)


class _AsciiSuits:
    """A text stream that writes suit symbols as letters (for encodings without them)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(translate_suits(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _can_encode(stream: TextIO, text: str) -> bool:
    if not getattr(stream, "encoding", None):
        return True  # a StringIO (doctests, captured output) holds any text
    try:
        text.encode(stream.encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class _Closed:
    """Standard output that was closed when ``quintet`` started: writing fails as on a closed pipe."""

    encoding = "utf-8"

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    def flush(self) -> None:
        """Nothing to flush."""

    def fileno(self) -> int:
        return 1

    def isatty(self) -> bool:
        return False


def _reserve_closed_descriptors() -> set[int]:
    """Point closed descriptors 0-2 at /dev/null; which were closed.

    Otherwise the next file opened (the solution book...) would get one of
    them, and anything written "to stderr" would land in that file.
    """
    closed = set()
    for descriptor in (0, 1, 2):
        try:
            os.fstat(descriptor)
        except OSError:
            closed.add(descriptor)
    for descriptor in sorted(closed):
        opened = os.open(os.devnull, os.O_RDWR)
        if opened != descriptor:  # pragma: no cover - lowest free descriptor is the closed one
            os.dup2(opened, descriptor)
            os.close(opened)
    return closed


def prepare() -> None:
    """Make the standard streams safe for the rest of the run (see the module).

    A closed standard error (``2>&-``) is silence; a closed standard output
    (``>&-``) fails the first write like a closed pipe (exit
    :data:`EXIT_OUTPUT`), never a traceback.
    """
    closed = _reserve_closed_descriptors()
    if sys.stderr is None or 2 in closed:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives as long as the run
    if sys.stdout is None or 1 in closed:
        sys.stdout = cast(TextIO, _Closed())
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - lives as long as the run
    else:
        _reconfigure(sys.stdin, errors="replace")
    stdout = sys.stdout
    wrapped = isinstance(stdout, _AsciiSuits | _Closed)
    if stdout is not None and not wrapped and not _can_encode(stdout, "♣♦♥♠"):
        _reconfigure(stdout, errors="replace")
        sys.stdout = _AsciiSuits(stdout)
    if sys.stderr is not None:
        _reconfigure(sys.stderr, errors="backslashreplace")


def _reconfigure(stream: Any, **options: str) -> None:
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        # A stream already closed or in use: leave it as it is.
        with contextlib.suppress(OSError, ValueError):
            reconfigure(**options)


def output_failure(error: BaseException) -> bool:
    """Whether ``error`` means the output stream is closed or full."""
    return isinstance(error, OSError) and (
        isinstance(error, BrokenPipeError) or error.errno in _GONE
    )


def silence_stdout() -> None:
    """Point standard output at /dev/null, so that the final flush cannot fail again."""
    with contextlib.suppress(OSError, AttributeError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
