"""The checks of a mixed strategy's parts: its arrangements and their probabilities.

Shared by :meth:`~solver.models.opponents.Opponent.mixture` and
:class:`~solver.models.mixture.Mixture`, whose errors call them by the caller's name.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from solver.errors import MixtureError
from solver.game.arrangement import Arrangement

__all__ = ["check_arrangements", "check_probabilities"]


def check_arrangements(arrangements: object, name: str) -> Sequence[Arrangement]:
    """``arrangements`` checked: a non-empty sequence of :class:`Arrangement`.

    >>> check_arrangements(["7c 7d 7h 7s 8c"], "arrangements")
    Traceback (most recent call last):
        ...
    TypeError: arrangements must be Arrangements, got '7c 7d 7h 7s 8c'
    """
    if isinstance(arrangements, (str, bytes)) or not isinstance(arrangements, Sequence):
        raise TypeError(f"{name} must be a sequence of Arrangements, got {arrangements!r}")
    if not arrangements:
        raise MixtureError(f"{name}: a mixture needs at least one arrangement", argument=name)
    for arrangement in arrangements:
        if not isinstance(arrangement, Arrangement):
            raise TypeError(f"{name} must be Arrangements, got {arrangement!r}")
    return arrangements


def check_probabilities(
    probabilities: Sequence[float] | np.ndarray, count: int, name: str
) -> np.ndarray:
    """``probabilities`` as float64, checked: ``count`` of them (at least one),
    finite, non-negative, summing to 1 within 1e-6; errors call them ``name``.

    >>> check_probabilities([0.5, 0.5], 2, "probabilities").tolist()
    [0.5, 0.5]
    >>> check_probabilities([0.5, 0.4], 2, "mixture probabilities")
    Traceback (most recent call last):
        ...
    solver.errors.MixtureError: mixture probabilities sum to 0.9, not 1
    """
    items = probabilities if isinstance(probabilities, (list, tuple)) else ()
    boolean = any(isinstance(p, (bool, np.bool_)) for p in items)
    if (
        boolean
        or getattr(probabilities, "dtype", None) == np.bool_
        or isinstance(probabilities, str)
    ):
        raise MixtureError(f"{name} must be numbers, got {probabilities!r}")  # True is no 1.0
    try:
        probs = np.asarray(probabilities, dtype=np.float64)
    except (TypeError, ValueError):
        raise MixtureError(f"{name} must be numbers, got {probabilities!r}") from None
    if count == 0 or probs.shape != (count,):
        raise MixtureError(
            f"{name}: a mixture needs one probability per arrangement, and at least one",
            argument=name if name.isidentifier() else None,
        )
    if not np.all(np.isfinite(probs)) or (probs < 0).any():
        raise MixtureError(f"{name} must be finite and non-negative")
    if abs(float(probs.sum()) - 1.0) > 1e-6:
        raise MixtureError(f"{name} sum to {probs.sum():.6g}, not 1")
    return probs
