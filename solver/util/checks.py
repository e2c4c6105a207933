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

Arrays are checked before anything is read or copied: their dtype, their shape,
their size against a limit (``np.broadcast_to`` makes a billion hands out of
five ids without allocating them; refusing them costs nothing, working on
them would allocate gigabytes), then their values.
"""

from __future__ import annotations

import math
import numbers
import os
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from solver.errors import FileError, QuintetError, SolverError
from solver.util.time_limit import check_time_limit

__all__ = [
    "check_bool",
    "check_callback",
    "check_choice",
    "check_flags",
    "check_instance",
    "check_int",
    "check_int_array",
    "check_number",
    "check_path",
    "check_solve_arguments",
    "check_tolerance",
]

T = TypeVar("T")
E = TypeVar("E", bound=Enum)


def check_int(value: Any, name: str, *, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an int (numpy integers too; never a bool or a float), within ``[low, high]``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
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


def check_number(
    value: Any, name: str, *, low: float | None = None, error: type[QuintetError] = QuintetError
) -> float:
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
        raise error(f"{name} must be a finite number{bound}, got {number}", argument=name)
    return number


def check_flags(**flags: Any) -> None:
    """Each keyword's value must be a bool (:func:`check_bool`), named by the keyword.

    >>> check_flags(canonical=True, ranges="no")
    Traceback (most recent call last):
        ...
    TypeError: ranges must be True or False, got 'no'
    """
    for name, value in flags.items():
        check_bool(value, name)


def check_tolerance(value: Any, name: str = "tolerance") -> float:
    """A certified gap to stop at: a finite number of at least 0 (an infinite one stops at once).

    >>> check_tolerance(float("inf"))
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: tolerance must be a finite number of at least 0, got inf
    """
    return check_number(value, name, low=0.0, error=SolverError)


def check_solve_arguments(
    tolerance: Any = 0.0,
    time_limit: Any = None,
    on_record: Any = None,
    start: Any = None,
    start_kind: type | None = None,
    **flags: Any,
) -> None:
    """The arguments every solve of an equilibrium shares, checked before any work.

    ``tolerance`` (:func:`check_tolerance`), ``time_limit``
    (:func:`~solver.util.time_limit.check_time_limit`), ``on_record`` (a callback),
    ``start`` (None or a ``start_kind``) and boolean ``flags``.

    >>> check_solve_arguments(tolerance=1e-9, time_limit=float("nan"))
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: time_limit must be a positive, finite number of seconds, got nan
    """
    check_tolerance(tolerance)
    check_time_limit(time_limit)
    check_callback(on_record, "on_record")
    if start is not None and start_kind is not None:
        check_instance(start, start_kind, "start")
    check_flags(**flags)


def check_choice(
    value: Any, kind: type[E], name: str, error: type[QuintetError] = QuintetError
) -> E:
    """``value`` as a member of the enum ``kind``: a member, or its value as text.

    Anything else is an ``error`` naming the allowed values.

    >>> from solver.util.language import Lang
    >>> check_choice("ru", Lang, "lang")
    <Lang.RU: 'ru'>
    >>> check_choice(3, Lang, "lang")
    Traceback (most recent call last):
        ...
    solver.errors.QuintetError: lang 3 is not one of: en, ru
    """
    try:
        return kind(value)
    except (TypeError, ValueError):  # unhashable values are a TypeError
        choices = ", ".join(str(item.value) for item in kind)
        raise error(f"{name} {value!r} is not one of: {choices}", argument=name) from None


def check_callback(value: Any, name: str) -> Any:
    """``value`` if it is None or callable (``on_record=print``, not ``"print"``).

    >>> check_callback("print", "on_record")
    Traceback (most recent call last):
        ...
    TypeError: on_record must be a function or None, got 'print'
    """
    if value is not None and not callable(value):
        raise TypeError(f"{name} must be a function or None, got {value!r}")
    return value


def check_path(value: Any, name: str) -> Path:
    """``value`` (text or a path) as a :class:`~pathlib.Path`; no NUL character.

    >>> check_path(3, "path")
    Traceback (most recent call last):
        ...
    TypeError: path must be a file path, got 3
    """
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{name} must be a file path, got {value!r}")
    path = Path(value)
    if "\0" in str(path):  # open() would say "embedded null byte" naming nothing
        raise FileError(f"{name} contains a NUL character: {str(path)!r}", argument=name)
    return path


def check_int_array(
    value: Any,
    name: str,
    *,
    width: int,
    low: int,
    high: int,
    max_rows: int,
    what: str = "integers",
    error: type[QuintetError] = QuintetError,
) -> np.ndarray:
    """``value`` as an integer array of shape ``(..., width)`` with values in ``[low, high]``.

    At most ``max_rows`` rows of ``width`` (the size is compared before any
    copy); floats, bools, objects and text are refused, never truncated.
    Errors are ``error`` (a :class:`TypeError` for what is no array at all),
    starting with ``name``; ``what`` says what the values are.  The array is
    returned as given (no copy).

    >>> check_int_array([[0, 1, 2, 3, 4]], "hands", width=5, low=0, high=31, max_rows=10).shape
    (1, 5)
    >>> check_int_array([0.0, 1, 2, 3, 4], "hands", width=5, low=0, high=31, max_rows=10)
    Traceback (most recent call last):
        ...
    solver.errors.QuintetError: hands must be an integer array of integers, got dtype float64
    >>> big = np.broadcast_to(np.arange(5), (10**9, 5))  # no memory: refused unread
    >>> check_int_array(big, "hands", width=5, low=0, high=31, max_rows=10)
    Traceback (most recent call last):
        ...
    solver.errors.QuintetError: hands has 1000000000 rows; at most 10 are allowed
    """
    if value is None or isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be an integer array, got {value!r}")
    try:
        array = np.asarray(value)
    except ValueError:  # ragged lists
        raise error(f"{name} must be an array of shape (..., {width})", argument=name) from None
    if array.dtype.kind not in "iu":
        raise error(
            f"{name} must be an integer array of {what}, got dtype {array.dtype}", argument=name
        )
    if array.ndim == 0 or array.shape[-1] != width:
        raise error(f"{name} must have shape (..., {width}), got {array.shape}", argument=name)
    rows = array.size // width
    if rows > max_rows:
        raise error(f"{name} has {rows} rows; at most {max_rows} are allowed", argument=name)
    if array.size:
        smallest, largest = int(array.min()), int(array.max())
        if smallest < low or largest > high:
            bad = smallest if smallest < low else largest
            raise error(f"{name}: {what} must be in {low}..{high}, got {bad}", argument=name)
    return array
