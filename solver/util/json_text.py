"""JSON text the project writes: strict (no ``Infinity``, no ``NaN``) and compact.

:func:`strict_json` turns a value into one that :func:`json.dumps` can write
with ``allow_nan=False``; :func:`to_json` writes it with two-space indentation,
lists of scalars kept on one line (the ``--json`` output of the command line).

>>> print(to_json({"bound": float("inf"), "cards": ("As", "Kd")}))
{
  "bound": null,
  "cards": ["As", "Kd"]
}
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

__all__ = ["clean_number", "strict_json", "to_json"]

# Printed numbers are rounded to this many decimals: float sums leave dust (-2.22e-16 for
# 0) that no reported quantity is meant to carry.
CLEAN_DECIMALS = 12


def clean_number(value: float) -> float:
    """``value`` rounded to :data:`CLEAN_DECIMALS` decimals, ``-0.0`` made ``0.0``.

    Non-finite values are kept as they are.

    >>> clean_number(-2.220446049250313e-16), clean_number(8.881784197001252e-16), clean_number(0.1)
    (0.0, 0.0, 0.1)
    >>> clean_number("1")
    Traceback (most recent call last):
        ...
    TypeError: value must be a number, got '1'
    """
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
        raise TypeError(f"value must be a number, got {value!r}")
    value = float(value)
    if not math.isfinite(value):
        return value
    return round(value, CLEAN_DECIMALS) + 0.0


def strict_json(value: Any) -> Any:
    """``value`` with every non-finite number replaced by ``None`` (JSON ``null``).

    JSON has no ``Infinity`` or ``NaN``; a bound that is not known (an
    infinite upper bound after a time limit, an undefined interval) is
    written as ``null``.  Tuples become lists and numpy scalars Python numbers.

    >>> strict_json({"bound": float("inf"), "ci": (float("nan"), 1.5), "n": np.int64(3)})
    {'bound': None, 'ci': [None, 1.5], 'n': 3}
    """
    if isinstance(value, dict):
        return {key: strict_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [strict_json(item) for item in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def to_json(payload: Any) -> str:
    """Strict JSON with two-space indentation, lists of scalars kept on one line.

    Non-finite numbers (an unknown bound, an undefined interval) are written
    as ``null``: the output never holds ``Infinity`` or ``NaN``.

    >>> print(to_json({"cards": ["As", "Kd"], "n": 2}))
    {
      "cards": ["As", "Kd"],
      "n": 2
    }
    """
    return _dumped(strict_json(payload), "")


def _dumped(value: Any, pad: str) -> str:
    """``value`` as indented JSON; a list of scalars on one line (no regular expression:
    folding the text afterwards backtracked exponentially on long lists)."""
    inner = pad + "  "
    if isinstance(value, dict) and value:
        items = (f"{inner}{_scalar(str(k))}: {_dumped(v, inner)}" for k, v in value.items())
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and value:
        if not any(isinstance(item, (dict, list)) for item in value):
            return "[" + ", ".join(_scalar(item) for item in value) + "]"
        return "[\n" + ",\n".join(inner + _dumped(item, inner) for item in value) + "\n" + pad + "]"
    return _scalar(value)


def _scalar(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False)
