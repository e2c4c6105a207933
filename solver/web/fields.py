"""Request bodies whose OpenAPI document says exactly what the server accepts.

JSON Schema types are mathematical: ``35987.0`` *is* an integer and ``10**400``
a number, while ``true`` is neither.  Pydantic's strict mode refuses ``true``
and ``0`` where a number or a boolean is due (what the schema says), but it
also refuses ``35987.0`` for an integer and a number too large for a float:
requests the OpenAPI document calls valid.  So every request model derives
from :class:`Body` (strict, no unknown keys), its integer fields carry
:data:`WHOLE` and its number fields :data:`REAL`, which turn such values into
the ones they equal before the strict check.

The OpenAPI document states every bound the server checks, but FastAPI's
OpenAPI model holds bounds as floats (``"minimum": 1.0``, ``2**63`` as
``9.223372036854776e+18``); :func:`exact_bounds` writes the integer fields'
bounds back as integers, so that clients and test generators read them
exactly.  A bound must therefore be a float exactly (``2**63`` is,
``2**63 - 1`` is not): the seed's bound is ``lt=2**63``, not ``le=MAX_SEED``.

>>> class Example(Body):
...     top: Annotated[int, Field(ge=1, le=10), WHOLE] = 1
...     seconds: Annotated[float, Field(gt=0, allow_inf_nan=False), REAL] = 1.0
>>> Example.model_validate({"top": 3.0, "seconds": 10**400})
Example(top=3, seconds=1.7976931348623157e+308)
>>> Example.model_validate({"top": True})  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
pydantic_core._pydantic_core.ValidationError: 1 validation error for Example
top
  Input should be a valid integer [type=int_type, input_value=True, input_type=bool]...
"""

from __future__ import annotations

import math
import sys
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

__all__ = ["REAL", "WHOLE", "Body", "Seconds", "exact_bounds", "real", "whole"]

# Where FastAPI's OpenAPI model leaves a float for an integer.
_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")


class Body(BaseModel):
    """A request body: strict types (``0`` is not false, ``true`` is not a seed), no unknown keys."""

    model_config = ConfigDict(extra="forbid", strict=True)


def whole(value: Any) -> Any:
    """A float that is an integer (``35987.0``) as that integer; anything else unchanged.

    Examples
    --------
    >>> whole(35987.0), whole(2.5), whole(True), whole("7")
    (35987, 2.5, True, '7')
    >>> whole(float("inf"))
    inf
    """
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def real(value: Any) -> Any:
    """An integer (not a boolean) as a float; beyond the floats' range, the largest float.

    A number past ``1.8e308`` (an integer of 309 digits, or ``1e400``, which
    JSON parsers read as infinity) is a valid JSON number: it means "more
    than any limit", which the largest float says as well.

    Examples
    --------
    >>> real(3), real(2.5), real(True), real(-(10**400)), real(float("inf"))
    (3.0, 2.5, True, -1.7976931348623157e+308, 1.7976931348623157e+308)
    >>> real(float("nan"))
    nan
    """
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            return float(value)
        except OverflowError:
            return sys.float_info.max if value > 0 else -sys.float_info.max
    if isinstance(value, float) and math.isinf(value):
        return math.copysign(sys.float_info.max, value)
    return value


WHOLE = BeforeValidator(whole)
REAL = BeforeValidator(real)
# A time limit: a positive number of seconds.
Seconds = Annotated[float, Field(gt=0, allow_inf_nan=False), REAL]


def exact_bounds(document: Any) -> Any:
    """``document`` (an OpenAPI document) with its integer schemas' float bounds as integers.

    Examples
    --------
    >>> exact_bounds({"type": "integer", "minimum": 1.0, "exclusiveMaximum": 2.0**63})
    {'type': 'integer', 'minimum': 1, 'exclusiveMaximum': 9223372036854775808}
    >>> exact_bounds({"type": "number", "minimum": 0.5})
    {'type': 'number', 'minimum': 0.5}
    >>> exact_bounds({"type": "integer", "maximum": 1.5})
    Traceback (most recent call last):
        ...
    ValueError: document has an integer schema bounded by 1.5, which is not an integer
    """
    if isinstance(document, list):
        return [exact_bounds(item) for item in document]
    if not isinstance(document, dict):
        return document
    fixed = {key: exact_bounds(value) for key, value in document.items()}
    if fixed.get("type") == "integer":
        for key in _BOUNDS:
            bound = fixed.get(key)
            if isinstance(bound, float):
                if not bound.is_integer():
                    raise ValueError(
                        f"document has an integer schema bounded by {bound}, which is not an integer"
                    )
                fixed[key] = int(bound)
    return fixed
