"""The book's error: a file that cannot be used as a solution book, or bad build arguments.

>>> from solver.errors import QuintetError
>>> issubclass(BookError, QuintetError)
True
"""

from __future__ import annotations

from solver.errors import QuintetError

__all__ = ["BookError"]


class BookError(QuintetError):
    """A solution book cannot be used (not a book, a newer schema, corrupt), or a build is misconfigured."""
