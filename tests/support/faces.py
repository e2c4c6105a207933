"""The canonical search's face programs forced onto GLOP (the fallback when the simplex gives up)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from unittest.mock import patch

from solver.errors import SimplexError


def _gives_up(*_: object) -> object:
    """A face program that fails at once, as the simplex does when it gives up."""

    def program(*_: object) -> object:
        raise SimplexError("given up (the test's)")

    return program


@contextmanager
def faces_on_glop() -> Iterator[None]:
    """Within: every face program of the canonical search and the ranges is solved by GLOP."""
    with patch("solver.equilibria.canonical.simplex_program", _gives_up):
        yield
