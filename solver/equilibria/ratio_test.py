"""Harris's two-pass ratio test, for the warm simplex (:mod:`solver.equilibria.simplex`).

A simplex pivot's ratio test picks, among the candidates ``i`` (positive
``pivots[i]``), the one of least ratio ``numerators[i] / pivots[i]``.  On
degenerate programs many ratios tie near the minimum, and the first one
found may have a tiny pivot, which the basis inverse pays for in rounding.
Harris (1973) lets each ratio exceed the minimum by a tiny slack
(:data:`HARRIS_SLACK`: feasibility given up, at most that much) and takes
the largest pivot among the near-minimal ones.

>>> harris(np.array([0.0, 1e-13, 1.0]), np.array([1e-6, 1.0, 1.0]), np.array([True, True, True]))
1
>>> harris(np.array([1.0]), np.array([-1.0]), np.array([False]))
-1
"""

from __future__ import annotations

import numpy as np

__all__ = ["HARRIS_SLACK", "harris"]

HARRIS_SLACK = 1e-11
"""Feasibility the ratio test may give up for a larger pivot."""


def harris(numerators: np.ndarray, pivots: np.ndarray, candidates: np.ndarray) -> int:
    """The largest pivot among the near-minimal ratios; -1 if there is no candidate.

    Over the entries where ``candidates`` is true (their ``pivots`` are
    positive, their ``numerators`` non-negative), each ratio may exceed the
    least by :data:`HARRIS_SLACK` over its pivot.

    >>> harris(np.array([2.0, 1.0]), np.array([1.0, 1.0]), np.array([True, True]))
    1
    """
    sizes = np.where(candidates, pivots, 1.0)
    bound = np.where(candidates, (numerators + HARRIS_SLACK) / sizes, np.inf).min()
    eligible = candidates & (numerators / sizes <= bound)
    chosen = int(np.argmax(np.where(eligible, pivots, -np.inf)))
    return chosen if eligible[chosen] else -1
