"""The certified gap at which an equilibrium counts as exact.

A module of its own so that requests and argument parsers can name the
default without importing the solvers (start-up, issue #25).

>>> DEFAULT_TOLERANCE
1e-09
"""

from __future__ import annotations

__all__ = ["DEFAULT_TOLERANCE"]

DEFAULT_TOLERANCE = 1e-9
"""Default certified gap at which the iteration stops (exact up to rounding)."""
