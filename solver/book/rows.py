"""The book's rows: made from a solve (:func:`record`), and read back checked (:func:`entry`).

Every file a cache holds is untrusted input: a row read back is decoded
and checked as a whole before it is used.  Its key must be a canonical pair
of holdings of the rules, both strategies must lay exactly the cards of
their seat's holding, the probabilities must be a distribution, every
number finite and the bounds ordered.  A row that fails raises
:class:`~solver.errors.BookError` saying why; the book then treats it as
missing.

>>> from solver.equilibria.equilibrium import solve
>>> from solver.book.canonical import holding_of
>>> two = Rules(position_points=(6, 7))
>>> key = (1023, 1023)
>>> row = record(key, 1, solve(holding_of(1023), holding_of(1023), two, "margin"))
>>> entry(row).key
(1023, 1023)
>>> entry(row[:2] + (2047, 1023) + row[4:])
Traceback (most recent call last):
    ...
solver.errors.BookError: book: the solution of deal (2047, 1023) is damaged (a holding of 11 cards, not 10)
>>> record(key, 1, solve(holding_of(1023), holding_of(1023), two, "margin", canonical=False))
Traceback (most recent call last):
    ...
solver.errors.BookError: book: only canonical equilibria are stored, and this one is not
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.book import codec
from solver.book.canonical import CARD_PERMUTATIONS, holding_of
from solver.equilibria.equilibrium import EquilibriumResult, Payoff
from solver.errors import BookError, QuintetError
from solver.game.cards import HAND_SIZE
from solver.game.rules import DiscardMode, Rules
from solver.version import __version__

__all__ = [
    "COLUMNS",
    "MAX_ARRANGEMENTS",
    "MAX_ROW_BYTES",
    "SELECTED",
    "Entry",
    "entry",
    "record",
    "rules_from_key",
    "rules_key",
    "storable",
]

COLUMNS = (
    "rules, payoff, first, second, orbit, value, lower, upper, gap, converged, iterations, "
    "row_frontier, column_frontier, row_cards, row_probabilities, column_cards, "
    "column_probabilities, solver_version, seconds"
)

MAX_ARRANGEMENTS = 4096
"""The most arrangements a stored strategy may mix: about 8 times the largest support
a solve has produced, 531 (a win equilibrium, benchmarks/RESULTS.md; margin: 199 in
notebook 03).  A row above this is implausible and refused before it is decoded: every
reader (lookups, ``book check``, ``book stats``, reports) holds the strategies in
memory, and some work on their pairs, which 20,000 arrangements make gigabytes."""
MAX_ROW_BYTES = 2 * MAX_ARRANGEMENTS * (5 * HAND_SIZE + 8)
"""The most bytes a row's four strategy blobs may hold together (270,336): both
strategies at :data:`MAX_ARRANGEMENTS` arrangements of 25 card bytes and one float64.
Checked by SQLite (``length``) before the blobs are read: a larger row's blobs are
never loaded."""

_BLOBS = ("row_cards", "row_probabilities", "column_cards", "column_probabilities")
_SIZE = " + ".join(f"coalesce(length({blob}), 0)" for blob in _BLOBS)
SELECTED = (
    ", ".join(
        f"CASE WHEN {_SIZE} <= {MAX_ROW_BYTES} THEN {c} END" if c in _BLOBS else c
        for c in COLUMNS.split(", ")
    )
    + f", {_SIZE}"
)
"""What readers select: :data:`COLUMNS`, the blobs left out (NULL) of a row over
:data:`MAX_ROW_BYTES`, then the blobs' total size (which :func:`entry` checks first)."""


def rules_key(rules: Rules) -> str:
    """The rules as the book's key text.

    >>> rules_key(Rules())
    'mirror:3-4-5-6-7:00'
    """
    points = "-".join(str(p) for p in rules.position_points)
    options = f"{int(rules.ace_low_straight)}{int(rules.flush_beats_full_house)}"
    return f"{rules.discard_mode.value}:{points}:{options}"


def rules_from_key(text: str) -> Rules:
    """The inverse of :func:`rules_key`.

    >>> rules_from_key("independent:6-7:10").position_points
    (6, 7)
    >>> rules_from_key("mirror:x:00")
    Traceback (most recent call last):
        ...
    solver.errors.BookError: book: rules key 'mirror:x:00' is not valid
    """
    try:
        mode, points, options = str(text).split(":")
        if len(options) != 2 or set(options) - {"0", "1"}:
            raise ValueError(options)
        rules = Rules(
            position_points=tuple(int(p) for p in points.split("-")),
            discard_mode=DiscardMode(mode),
            ace_low_straight=options[0] == "1",
            flush_beats_full_house=options[1] == "1",
        )
    except (ValueError, QuintetError):
        raise BookError(f"book: rules key {text!r} is not valid", argument="book") from None
    return rules


@dataclass(frozen=True)
class Entry:
    """One stored solution of a canonical deal; strategies as checked arrays.

    ``column_cards`` is None when the column strategy is the row strategy
    (mirror deals).  :meth:`equilibrium` builds the result objects.
    """

    rules: Rules
    payoff: Payoff
    key: tuple[int, int]
    orbit: int
    value: float
    lower: float
    upper: float
    converged: bool
    iterations: int
    frontier_sizes: tuple[int, int]
    seconds: float
    solver_version: str
    row_cards: np.ndarray
    row_probabilities: np.ndarray
    column_cards: np.ndarray | None
    column_probabilities: np.ndarray | None

    @property
    def gap(self) -> float:
        """Certified gap ``upper - lower``."""
        return max(0.0, self.upper - self.lower)

    def equilibrium(self, relabelling: int = 0) -> EquilibriumResult:
        """The stored result, its cards relabelled by ``relabelling`` (0: as stored)."""
        relabel = CARD_PERMUTATIONS[relabelling].astype(np.uint8)
        row = codec.mixture(relabel[self.row_cards], self.row_probabilities)
        column = row
        if self.column_cards is not None and self.column_probabilities is not None:
            column = codec.mixture(relabel[self.column_cards], self.column_probabilities)
        return EquilibriumResult(
            payoff=self.payoff,
            rules=self.rules,
            row=row,
            column=column,
            value=self.value,
            lower=self.lower,
            upper=self.upper,
            iterations=self.iterations,
            seconds=self.seconds,
            frontier_sizes=self.frontier_sizes,
            history=(),
            converged=self.converged,
            # Schema 2 stores the solves' canonical equilibria (no ranges: those
            # need the restricted game, which is not stored).
            canonical=True,
        )


def record(
    key: tuple[int, int], orbit: int, result: EquilibriumResult, seconds: float | None = None
) -> tuple[object, ...]:
    """A row of the ``solutions`` table for the solution ``result`` of a canonical deal.

    Every store makes its rows here, so the book's rules live here: only
    canonical equilibria are stored (a lookup must give what a fresh solve
    prints), of at most :data:`MAX_ARRANGEMENTS` arrangements a strategy (a
    larger row would be refused when read); either raises
    :class:`~solver.errors.BookError` (:func:`storable` says which results pass).
    """
    if not result.canonical:
        raise BookError(
            "book: only canonical equilibria are stored, and this one is not", argument="book"
        )
    for seat, strategy in (("row", result.row), ("column", result.column)):
        if len(strategy.arrangements) > MAX_ARRANGEMENTS:  # it would be refused when read
            raise BookError(
                f"book: the {seat} strategy mixes {len(strategy.arrangements):,} arrangements, "
                f"over the book's limit of {MAX_ARRANGEMENTS:,}; not stored",
                argument="book",
            )
    row_cards, row_probabilities = codec.encode(result.row)
    column: tuple[bytes | None, bytes | None] = (None, None)
    if key[0] != key[1] or result.column != result.row:
        column = codec.encode(result.column)
    return (
        rules_key(result.rules),
        result.payoff.value,
        int(key[0]),
        int(key[1]),
        int(orbit),
        float(result.value),
        float(result.lower),
        float(result.upper),
        float(result.gap),
        int(result.converged),
        int(result.iterations),
        int(result.frontier_sizes[0]),
        int(result.frontier_sizes[1]),
        row_cards,
        row_probabilities,
        column[0],
        column[1],
        __version__,
        float(result.seconds if seconds is None else seconds),
    )


def storable(result: EquilibriumResult) -> bool:
    """Whether :func:`record` makes a row of ``result`` (canonical, and not too large)."""
    sizes = (len(result.row.arrangements), len(result.column.arrangements))
    return result.canonical and max(sizes) <= MAX_ARRANGEMENTS


class _DamagedError(Exception):
    """Why a row cannot be used."""


def _integer(value: Any, name: str, low: int = 0, high: int = 2**63 - 1) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _DamagedError(f"{name} {value!r} is not an integer in [{low}, {high}]")
    return value


def _number(value: Any, name: str) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        raise _DamagedError(f"{name} {value!r} is not a finite number")
    return float(value)


def _blob(value: Any, name: str) -> bytes:
    if not isinstance(value, bytes):
        raise _DamagedError(f"{name} is not a blob")
    return value


def _strategy(
    cards: Any, probabilities: Any, holding: tuple[int, ...], n_packets: int, seat: str
) -> tuple[np.ndarray, np.ndarray]:
    """A seat's decoded strategy, checked to lay exactly that seat's holding."""
    try:
        array, probs = codec.decode(
            _blob(cards, f"{seat} cards"), _blob(probabilities, f"{seat} probabilities"), n_packets
        )
    except BookError as error:
        raise _DamagedError(
            f"{seat} strategy: {str(error).split('(', 1)[-1].rstrip(')')}"
        ) from None
    if tuple(np.sort(array[0].ravel()).tolist()) != holding:
        raise _DamagedError(f"the {seat} strategy lays cards that are not the {seat} holding")
    return array, probs


def _plausible(row: tuple[Any, ...]) -> None:
    """Refuse a row larger than any solve makes (:data:`MAX_ROW_BYTES`, :data:`MAX_ARRANGEMENTS`)."""
    size = row[19] if len(row) == 20 else sum(len(b) for b in row[13:17] if isinstance(b, bytes))
    if isinstance(size, int) and size > MAX_ROW_BYTES:
        raise _DamagedError(
            f"implausible: its strategies take {size:,} bytes, over the limit of "
            f"{MAX_ROW_BYTES:,}; not read"
        )
    for seat, probabilities in (("row", row[14]), ("column", row[16])):
        count = len(probabilities) // 8 if isinstance(probabilities, bytes) else 0
        if count > MAX_ARRANGEMENTS:
            raise _DamagedError(
                f"implausible: the {seat} strategy mixes {count:,} arrangements, over the "
                f"limit of {MAX_ARRANGEMENTS:,}; not read"
            )


def _decoded(row: tuple[Any, ...]) -> Entry:
    if len(row) not in (19, 20):
        raise _DamagedError(f"{len(row)} columns, not 19")
    _plausible(row)
    rules = rules_from_key(row[0])
    payoff = Payoff(row[1]) if row[1] in {p.value for p in Payoff} else None
    if payoff is None:
        raise _DamagedError(f"payoff {row[1]!r} is not known")
    first, second = (_integer(row[i], ("first", "second")[i - 2], 1, 2**32 - 1) for i in (2, 3))
    holdings = holding_of(first), holding_of(second)
    for holding in holdings:
        if len(holding) != HAND_SIZE * rules.n_packets:
            raise _DamagedError(
                f"a holding of {len(holding)} cards, not {HAND_SIZE * rules.n_packets}"
            )
    value, lower, upper, _gap = (
        _number(row[i], n) for i, n in zip(range(5, 9), _BOUNDS, strict=False)
    )
    if not lower <= upper + 1e-9 or not lower - 1e-9 <= value <= upper + 1e-9:
        raise _DamagedError(f"bounds not ordered: {lower} <= {value} <= {upper}")
    counts = [_integer(row[i], n) for i, n in zip((4, 10, 11, 12), _COUNTS, strict=False)]
    converged = _integer(row[9], "converged", 0, 1)
    row_cards, row_probs = _strategy(row[13], row[14], holdings[0], rules.n_packets, "row")
    column: tuple[np.ndarray | None, np.ndarray | None] = (None, None)
    if row[15] is not None or row[16] is not None or first != second:
        column = _strategy(row[15], row[16], holdings[1], rules.n_packets, "column")
    if not isinstance(row[17], str):
        raise _DamagedError("solver version is not text")
    return Entry(
        rules=rules,
        payoff=payoff,
        key=(first, second),
        orbit=counts[0],
        value=value,
        lower=lower,
        upper=upper,
        converged=bool(converged),
        iterations=counts[1],
        frontier_sizes=(counts[2], counts[3]),
        seconds=_number(row[18], "seconds"),
        solver_version=row[17],
        row_cards=row_cards,
        row_probabilities=row_probs,
        column_cards=column[0],
        column_probabilities=column[1],
    )


_BOUNDS = ("value", "lower", "upper", "gap")
_COUNTS = ("orbit", "iterations", "row_frontier", "column_frontier")


def describe_key(row: tuple[Any, ...]) -> str:
    """The deal a raw row is of, for messages: ``(first, second)``."""
    return f"({row[2]!r}, {row[3]!r})" if len(row) >= 4 else "(?)"


def entry(row: tuple[Any, ...]) -> Entry:
    """The checked :class:`Entry` of a raw row (the columns :data:`COLUMNS`, or :data:`SELECTED`).

    A row over the size limits (:data:`MAX_ROW_BYTES`, :data:`MAX_ARRANGEMENTS`)
    is damaged too: refused before its strategies are decoded.
    """
    try:
        return _decoded(row)
    except (_DamagedError, BookError) as error:
        why = str(error).removeprefix("book: ")
        raise BookError(
            f"book: the solution of deal {describe_key(row)} is damaged ({why})", argument="book"
        ) from None
