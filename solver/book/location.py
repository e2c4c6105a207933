"""Where the solution book lives by default (no SQLite import: commands list the path in
their help without opening anything).

>>> default_book_path().parts[-2:]
('quintet-solver', 'book.sqlite')
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["default_book_path"]


def default_book_path() -> Path:
    """``$XDG_CACHE_HOME/quintet-solver/book.sqlite`` (``~/.cache`` when unset).

    >>> default_book_path().name
    'book.sqlite'
    """
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "quintet-solver" / "book.sqlite"
