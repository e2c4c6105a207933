"""Files the project reads and writes: checked first, written atomically.

Every file output (mixture files, tournament CSVs) goes through
:func:`atomic_output`: the text is written to a temporary file in the same
directory and moved over the target with :func:`os.replace` only when it
is complete, so a failed write (a full disk, a read-only directory, an
interrupt) never leaves a truncated file and never damages the old one.
:func:`check_output_path` refuses a path that cannot be written *before*
the work that produces it starts.  :func:`read_text_limited` reads an input
file only if it is a regular file of at most a given size (no ``/dev/zero``,
no FIFO that blocks forever).

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> target = os.path.join(folder, "out.txt")
>>> atomic_write_text(target, "hello\\n")
>>> read_text_limited(target, max_bytes=100)
'hello\\n'
>>> check_output_path(folder)
Traceback (most recent call last):
    ...
solver.errors.FileError: ... is a directory
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from solver.errors import FileError

__all__ = [
    "atomic_output",
    "atomic_write_text",
    "check_output_path",
    "read_bytes_limited",
    "read_text_limited",
]


def _reason(error: OSError) -> str:
    return error.strerror or type(error).__name__


def check_output_path(path: str | Path) -> Path:
    """Refuse an output path that cannot be written, before any work is done.

    The directory must exist and be writable; the path itself, when it
    exists, must be a writable regular file (it will be replaced).

    >>> check_output_path("/nonexistent-folder/out.json")
    Traceback (most recent call last):
        ...
    solver.errors.FileError: /nonexistent-folder/out.json: the directory /nonexistent-folder does not exist
    """
    path = Path(path)
    if not str(path) or path.name in ("", ".", ".."):
        raise FileError(f"{str(path)!r}: not a file name")
    folder = path.parent
    if path.is_dir():
        raise FileError(f"{path}: is a directory")
    if not folder.is_dir():
        raise FileError(f"{path}: the directory {folder} does not exist")
    if path.exists() and not path.is_file():
        raise FileError(f"{path}: not a regular file")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise FileError(f"{path}: the directory {folder} is not writable")
    if path.exists() and not os.access(path, os.W_OK):
        raise FileError(f"{path}: the file is read-only")
    return path


@contextlib.contextmanager
def atomic_output(
    path: str | Path, *, keep_on_interrupt: bool | Callable[[], bool] = False
) -> Iterator[IO[str]]:
    """A text handle whose content replaces ``path`` only once complete.

    The temporary file sits in the target's directory (so that
    :func:`os.replace` is atomic).  On an error the temporary file is
    removed and the old file is left as it was; any :class:`OSError`
    becomes a :class:`FileError` naming the file.  With
    ``keep_on_interrupt`` (or when it is a function, if it returns True), a
    :class:`KeyboardInterrupt` still moves what was written into place (rows
    written as they finish, for a resume).
    """
    path = check_output_path(path)
    import tempfile  # here, not at the top: it costs a few percent of every command's start-up

    try:
        descriptor, temporary = tempfile.mkstemp(
            dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"
        )
    except OSError as error:
        raise FileError(f"{path}: cannot write: {_reason(error)}") from None
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as handle:
            try:
                yield handle
            except KeyboardInterrupt:
                keep = keep_on_interrupt() if callable(keep_on_interrupt) else keep_on_interrupt
                if keep:
                    handle.flush()
                    _move(handle, temporary, path)
                raise
            handle.flush()
            _move(handle, temporary, path)
    except OSError as error:
        raise FileError(f"{path}: cannot write: {_reason(error)}") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def _move(handle: IO[str], temporary: str, path: Path) -> None:
    """fsync, give the usual permissions (mkstemp makes 0600), replace."""
    os.fsync(handle.fileno())
    umask = os.umask(0)
    os.umask(umask)
    mode = stat.S_IMODE(path.stat().st_mode) if path.exists() else 0o666 & ~umask
    os.chmod(temporary, mode)
    os.replace(temporary, path)


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (see :func:`atomic_output`)."""
    with atomic_output(path) as handle:
        handle.write(text)


def read_bytes_limited(path: str | Path, *, max_bytes: int) -> bytes:
    """The bytes of a regular file of at most ``max_bytes`` bytes.

    >>> read_bytes_limited("/dev/zero", max_bytes=10)
    Traceback (most recent call last):
        ...
    solver.errors.FileError: /dev/zero: not a regular file
    """
    path = Path(path)
    try:
        status = path.stat()  # before opening: opening a FIFO would block
    except FileNotFoundError:
        raise FileError(f"{path}: no such file") from None
    except OSError as error:
        raise FileError(f"{path}: cannot read: {_reason(error)}") from None
    if stat.S_ISDIR(status.st_mode):
        raise FileError(f"{path}: is a directory")
    if not stat.S_ISREG(status.st_mode):
        raise FileError(f"{path}: not a regular file")
    if status.st_size > max_bytes:
        raise FileError(f"{path}: larger than the limit of {max_bytes} bytes")
    try:
        with path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as error:
        raise FileError(f"{path}: cannot read: {_reason(error)}") from None
    if len(data) > max_bytes:
        raise FileError(f"{path}: larger than the limit of {max_bytes} bytes")
    return data


def read_text_limited(path: str | Path, *, max_bytes: int) -> str:
    """The UTF-8 text of a regular file of at most ``max_bytes`` bytes.

    >>> read_text_limited("/dev/zero", max_bytes=10)
    Traceback (most recent call last):
        ...
    solver.errors.FileError: /dev/zero: not a regular file
    """
    data = read_bytes_limited(path, max_bytes=max_bytes)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise FileError(f"{path}: cannot read: not UTF-8 text (byte {error.start})") from None
