"""Types of command-line values, for ``argparse``: counts, seeds and durations.

Each turns the text of one option into a number or rejects it with a message
``argparse`` prints on one line (exit status 2).  Python's own ``int`` and
``float`` parse the text, so ``20_000`` and ``1e-3`` are accepted.

>>> positive_int("3"), non_negative_int("0"), positive_float("0.5"), non_negative_float("0")
(3, 0, 0.5, 0.0)
>>> positive_int("0")
Traceback (most recent call last):
    ...
argparse.ArgumentTypeError: '0' must be at least 1
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

__all__ = [
    "auto_or_positive_int",
    "bounded_int",
    "non_negative_float",
    "non_negative_int",
    "positive_float",
    "positive_int",
]


def non_negative_int(text: str) -> int:
    """An integer >= 0 (a seed, a count that may be zero).

    >>> non_negative_int("-1")
    Traceback (most recent call last):
        ...
    argparse.ArgumentTypeError: '-1' must be >= 0
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be >= 0")
    return value


def positive_int(text: str) -> int:
    """An integer >= 1 (a count of deals, workers, arrangements).

    >>> positive_int("two")
    Traceback (most recent call last):
        ...
    argparse.ArgumentTypeError: 'two' is not an integer
    """
    value = non_negative_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def _finite_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def positive_float(text: str) -> float:
    """A finite number > 0 (a time limit in seconds).

    >>> positive_float("inf")
    Traceback (most recent call last):
        ...
    argparse.ArgumentTypeError: 'inf' is not a finite number
    """
    value = _finite_float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive number")
    return value


def non_negative_float(text: str) -> float:
    """A finite number >= 0 (a tolerance).

    >>> non_negative_float("-0.1")
    Traceback (most recent call last):
        ...
    argparse.ArgumentTypeError: '-0.1' must be a non-negative number
    """
    value = _finite_float(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be a non-negative number")
    return value


def bounded_int(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an integer from ``low`` to ``high``.

    >>> bounded_int(1, 100)("1000")
    Traceback (most recent call last):
        ...
    argparse.ArgumentTypeError: '1000' must be at most 100
    """

    def parse(text: str) -> int:
        value = non_negative_int(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"{text!r} must be at least {low}")
        if value > high:
            raise argparse.ArgumentTypeError(f"{text!r} must be at most {high}")
        return value

    parse.__name__ = f"integer_{low}_to_{high}"
    return parse


def auto_or_positive_int(text: str) -> int | str:
    """``auto``, or an integer >= 1 (``--jobs``: ``auto`` lets the command choose).

    >>> auto_or_positive_int("auto"), auto_or_positive_int("2")
    ('auto', 2)
    >>> auto_or_positive_int("many")
    Traceback (most recent call last):
        ...
    argparse.ArgumentTypeError: 'many' is not auto or an integer
    """
    if text == "auto":
        return text
    try:
        return positive_int(text)
    except argparse.ArgumentTypeError as error:
        if "integer" in str(error):
            raise argparse.ArgumentTypeError(f"{text!r} is not auto or an integer") from None
        raise
