"""What a certificate may hold before any work is done on it: depth, numbers, size, work.

A certificate is untrusted input, so every dimension that costs time or
memory is bounded and checked first, each refused with a
:class:`~solver.errors.CertificateLimitError` that names the limit:

* :data:`MAX_DEPTH`: JSON nesting (a certificate is six levels deep; the
  depth is counted on the text before parsing, so a deeply nested document
  never reaches the parser's recursion);
* :data:`MAX_FRACTION_CHARS`: the characters of one fraction ``"p/q"`` (the
  project writes at most about 60; only decimal digits and one ``/`` are read,
  so ``"1e999999999"`` is not a fraction at all, never ``10**999999999``);
* :data:`MAX_POSITION_POINTS`: the points of one position (the solver's own
  limit);
* :data:`MAX_ARRANGEMENTS`: the entries of one strategy;
* :data:`MAX_PAIRS`: the pairs of distinct arrangements scored exactly for
  the value (after repeated arrangements are merged), the one limit a caller
  may raise (``max_pairs``).

>>> parse_json('{"a": [[1, 2], [3]]}')
{'a': [[1, 2], [3]]}
>>> parse_json("[" * 100 + "]" * 100)
Traceback (most recent call last):
    ...
solver.errors.CertificateLimitError: the JSON is nested 100 levels deep, over the limit of 20 (MAX_DEPTH)
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np

from solver.errors import CertificateLimitError, NotACertificateError

__all__ = [
    "MAX_ARRANGEMENTS",
    "MAX_DEPTH",
    "MAX_FRACTION_CHARS",
    "MAX_PAIRS",
    "MAX_POSITION_POINTS",
    "check_pairs",
    "parse_json",
]

MAX_DEPTH = 20
"""Deepest JSON nesting read (a certificate's own depth is 6)."""
MAX_FRACTION_CHARS = 1000
"""Longest fraction string ``"p/q"`` read (the project's certificates write about 60)."""
MAX_POSITION_POINTS = 1000
"""Most points one position may be worth (the solver's ``Rules`` allow the same)."""
MAX_ARRANGEMENTS = 100_000
"""Most entries in one strategy (a solve's support is at most a few hundred)."""
MAX_PAIRS = 10_000_000
"""Most pairs of distinct arrangements scored exactly for the value, unless raised."""

# A JSON string (escapes included): its brackets are not structure.
_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"')


def _depth(text: str) -> int:
    """The deepest bracket nesting of a JSON text, strings skipped (numpy: no Python loop)."""
    structure = _STRINGS.sub(b'""', text.encode("utf-8", "surrogatepass"))
    codes = np.frombuffer(structure, dtype=np.uint8)
    steps = np.zeros(codes.size, dtype=np.int64)
    steps[(codes == ord("[")) | (codes == ord("{"))] = 1
    steps[(codes == ord("]")) | (codes == ord("}"))] = -1
    return int(np.cumsum(steps).max(initial=0))


def _refuse_constant(name: str) -> Any:
    raise NotACertificateError(f"not a certificate: {name} is not a JSON number")


def parse_json(text: str) -> Any:
    """The JSON document of ``text``, refused past :data:`MAX_DEPTH` or with NaN/Infinity.

    Raises :class:`~solver.errors.CertificateLimitError` when nested too deeply,
    :class:`~solver.errors.NotACertificateError` when it is not JSON.

    >>> parse_json("NaN")
    Traceback (most recent call last):
        ...
    solver.errors.NotACertificateError: not a certificate: NaN is not a JSON number
    """
    depth = _depth(text)
    if depth > MAX_DEPTH:
        raise CertificateLimitError(
            f"the JSON is nested {depth} levels deep, over the limit of {MAX_DEPTH} (MAX_DEPTH)"
        )
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as error:
        if isinstance(error, NotACertificateError):
            raise
        raise NotACertificateError(f"not a certificate: not JSON ({error})") from None


def check_pairs(first: int, second: int, max_pairs: int | None) -> None:
    """Refuse scoring ``first x second`` arrangement pairs past ``max_pairs`` (default :data:`MAX_PAIRS`).

    >>> check_pairs(10, 10, None)
    >>> check_pairs(5_000, 5_000, None)
    Traceback (most recent call last):
        ...
    solver.errors.CertificateLimitError: strategies: 5,000 x 5,000 distinct arrangements make 25,000,000 pairs to score exactly, over the limit of 10,000,000 (max_pairs)
    """
    limit = MAX_PAIRS if max_pairs is None else max_pairs
    if first * second > limit:
        raise CertificateLimitError(
            f"strategies: {first:,} x {second:,} distinct arrangements make "
            f"{first * second:,} pairs to score exactly, over the limit of {limit:,} (max_pairs)",
            mentions=("max_pairs",),
        )
