"""The argument checks every public function shares: types and ranges, errors naming the argument.

Bools are not ints, strings are not rules.  A wrong type is a
:class:`TypeError`, a value out of range a :class:`~solver.errors.QuintetError`
(a :class:`ValueError`); both messages start with the argument's name.

>>> check_int(3, "samples", low=1)
3
>>> check_int(2.5, "samples", low=1)
Traceback (most recent call last):
    ...
TypeError: samples must be an integer, got 2.5
>>> check_int(True, "workers", low=1)
Traceback (most recent call last):
    ...
TypeError: workers must be an integer, got True
>>> check_bool("no", "ace_low_straight")
Traceback (most recent call last):
    ...
TypeError: ace_low_straight must be True or False, got 'no'
"""

from __future__ import annotations

import math
import numbers
from typing import Any, TypeVar

import numpy as np

from solver.errors import QuintetError

__all__ = ["check_bool", "check_instance", "check_int", "check_number"]

T = TypeVar("T")


def check_int(value: Any, name: str, *, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an int (numpy integers too; never a bool or a float), within ``[low, high]``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    number = int(value)
    if (low is not None and number < low) or (high is not None and number > high):
        bounds = f"[{'-inf' if low is None else low}, {'inf' if high is None else high}]"
        raise QuintetError(f"{name} must be in {bounds}, got {number}", argument=name)
    return number


def check_bool(value: Any, name: str) -> bool:
    """``value`` if it is a bool (numpy's too); anything else is a :class:`TypeError`."""
    if not isinstance(value, bool) and not isinstance(value, np.bool_):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_instance(value: Any, kind: type[T], name: str) -> T:
    """``value`` if it is a ``kind`` (``rules`` must be a Rules, not a string...)."""
    if not isinstance(value, kind):
        article = "an" if kind.__name__[:1].lower() in "aeiou" else "a"
        raise TypeError(f"{name} must be {article} {kind.__name__}, got {value!r}")
    return value


def check_number(value: Any, name: str, *, low: float | None = None) -> float:
    """``value`` as a finite float (ints and numpy numbers too; never a bool), at least ``low``.

    >>> check_number(1e-9, "tolerance", low=0.0)
    1e-09
    >>> check_number("0", "tolerance")
    Traceback (most recent call last):
        ...
    TypeError: tolerance must be a number, got '0'
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {value!r}")
    number = float(value)
    if not math.isfinite(number) or (low is not None and number < low):
        bound = "" if low is None else f" of at least {low:g}"
        raise QuintetError(f"{name} must be a finite number{bound}, got {number}", argument=name)
    return number
