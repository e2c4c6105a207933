"""Mixed strategies: arrangements with probabilities, and their JSON file format.

A mixture is what ``quintet suggest --against FILE.json`` reads and what
``quintet equilibrium --out FILE.json`` writes.  The format (version 1)::

    {
      "format": "quintet-mixture/1",
      "holding": ["As", "Ah", ...],            # optional: the 25 cards used
      "strategies": [
        {"probability": 0.75, "arrangement": "As Ks Qs Js Ts | ... | ..."},
        {"probability": 0.25, "arrangement": [["7c", "7d", ...], ...]}
      ],
      ...                                      # any other keys are kept as metadata
    }

An arrangement is either a string of five packets separated by ``|`` or a
list of five lists of card codes; any notation :func:`solver.game.cards.parse_cards`
reads is accepted, ASCII codes are written.  Probabilities are non-negative
and sum to 1 (within 1e-6); every arrangement uses the same cards.

>>> from solver.game.arrangement import Arrangement
>>> a = Arrangement.from_array(np.arange(25).reshape(5, 5))
>>> m = Mixture((a,), (1.0,))
>>> Mixture.from_dict(m.to_dict()) == m
True
>>> Mixture.from_dict({"strategies": []})
Traceback (most recent call last):
    ...
solver.errors.MixtureError: mixture: "strategies" must be a non-empty list
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from solver.errors import ArrangementError, CardError, FileError, MixtureError
from solver.game.arrangement import Arrangement
from solver.game.cards import parse_cards
from solver.game.payloads import arrangement_payload, cards_payload
from solver.game.rules import Rules
from solver.models.mixture_checks import check_arrangements, check_probabilities
from solver.models.opponents import Opponent, OpponentKind
from solver.schemas import FORMATS
from solver.util.checks import check_instance, check_path
from solver.util.files import atomic_write_text, read_text_limited
from solver.util.json_text import strict_json

__all__ = ["FORMAT", "MAX_MIXTURE_BYTES", "Mixture", "read_mixture", "write_mixture"]

FORMAT = FORMATS["mixture"]

# A mixture file larger than this is refused before it is parsed (an exact
# equilibrium's support is a few hundred arrangements: tens of kilobytes).
MAX_MIXTURE_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class Mixture:
    """Arrangements with probabilities (a mixed strategy).

    Attributes
    ----------
    arrangements
        The support.
    probabilities
        One per arrangement, summing to 1.
    metadata
        Other keys of the file (game value, exploitability, ...); not compared.
    """

    arrangements: tuple[Arrangement, ...]
    probabilities: tuple[float, ...]
    metadata: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        check_arrangements(self.arrangements, "arrangements")
        check_probabilities(self.probabilities, len(self.arrangements), "mixture probabilities")
        if not isinstance(self.metadata, dict):
            raise TypeError(f"metadata must be a dict, got {self.metadata!r}")
        cards = self.arrangements[0].cards
        for index, arrangement in enumerate(self.arrangements):
            if arrangement.cards != cards:
                raise MixtureError(f"strategy {index + 1} uses other cards than strategy 1")

    @classmethod
    def trusted(
        cls, arrangements: Iterable[Arrangement], probabilities: Iterable[float]
    ) -> Mixture:
        """A mixture of data already checked, built without checking it again.

        For callers that validate a whole strategy at once (the book checks
        its arrays in numpy): the probabilities must be finite, non-negative
        and sum to 1, one per arrangement, and every arrangement must use the
        same cards, or the object is not a valid mixture.  The metadata is
        empty.

        Parameters
        ----------
        arrangements
            The support, at least one arrangement.
        probabilities
            One per arrangement, summing to 1.

        Returns
        -------
        Mixture
            The mixture, not validated.

        Examples
        --------
        >>> a = Arrangement.from_array(np.arange(10).reshape(2, 5))
        >>> b = Arrangement.from_array(np.arange(10)[::-1].reshape(2, 5))
        >>> m = Mixture.trusted([a, b], [0.25, 0.75])
        >>> m == Mixture((a, b), (0.25, 0.75)), m.metadata
        (True, {})
        """
        strategy = object.__new__(cls)
        object.__setattr__(strategy, "arrangements", tuple(arrangements))
        object.__setattr__(strategy, "probabilities", tuple(probabilities))
        object.__setattr__(strategy, "metadata", {})
        return strategy

    @property
    def cards(self) -> tuple[int, ...]:
        """The cards every arrangement uses, sorted."""
        return self.arrangements[0].cards

    def opponent(self, rules: Rules, holding: Sequence[int] | None = None) -> Opponent:
        """This mixture as an opponent model, checked against ``holding``."""
        return Opponent.mixture(
            self.arrangements, self.probabilities, rules, holding=holding, kind=OpponentKind.MIXTURE
        )

    def sample(self, rng: np.random.Generator) -> Arrangement:
        """One arrangement drawn with the mixture's probabilities.

        >>> a = Arrangement.from_array(np.arange(25).reshape(5, 5))
        >>> Mixture((a,), (1.0,)).sample(np.random.default_rng(0)) == a
        True
        """
        probs = np.asarray(self.probabilities, dtype=np.float64)
        return self.arrangements[int(rng.choice(len(self.arrangements), p=probs / probs.sum()))]

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of the file format (ASCII card codes)."""
        payload: dict[str, Any] = {"format": FORMAT, "holding": cards_payload(self.cards)}
        payload.update(self.metadata)
        payload["strategies"] = [
            {"probability": float(p), "arrangement": arrangement_payload(a)}
            for a, p in zip(self.arrangements, self.probabilities, strict=True)
        ]
        return payload

    @classmethod
    def from_dict(cls, payload: Any, source: str = "mixture") -> Mixture:
        """Read the JSON object of the file format; errors name the strategy."""
        check_instance(source, str, "source")
        if not isinstance(payload, dict):
            raise MixtureError(f"{source}: the top level must be a JSON object")
        declared = payload.get("format", FORMAT)
        if declared != FORMAT:
            raise MixtureError(f"{source}: format {declared!r} is not {FORMAT!r}")
        strategies = payload.get("strategies")
        if not isinstance(strategies, list) or not strategies:
            raise MixtureError(f'{source}: "strategies" must be a non-empty list')
        arrangements, probabilities = [], []
        for index, item in enumerate(strategies, start=1):
            where = f"{source}: strategy {index}"
            if not isinstance(item, dict) or "arrangement" not in item or "probability" not in item:
                raise MixtureError(f'{where}: needs "arrangement" and "probability"')
            probability = item["probability"]
            if isinstance(probability, bool) or not isinstance(probability, (int, float)):
                raise MixtureError(f"{where}: probability must be a number")
            if not 0 <= probability <= 1:
                raise MixtureError(f"{where}: probability must be non-negative and at most 1")
            arrangements.append(_arrangement(item["arrangement"], where))
            probabilities.append(float(probability))
        metadata = {
            k: v for k, v in payload.items() if k not in ("format", "strategies", "holding")
        }
        try:
            mixture = cls(tuple(arrangements), tuple(probabilities), metadata)
        except MixtureError as error:
            raise MixtureError(f"{source}: {error}") from None
        if "holding" in payload:
            _check_holding(payload["holding"], mixture, source)
        return mixture


def _arrangement(value: Any, where: str) -> Arrangement:
    try:
        if isinstance(value, str):
            return Arrangement.parse(value)
        if isinstance(value, list) and all(isinstance(p, (list, str)) for p in value):
            packets = [
                parse_cards(p) if isinstance(p, str) else parse_cards(_codes(p, where))
                for p in value
            ]
            return Arrangement(tuple(packets))
    except (ArrangementError, CardError) as error:
        raise MixtureError(f"{where}: {error}") from None
    raise MixtureError(f"{where}: an arrangement is a string or a list of packets")


def _codes(packet: list[Any], where: str) -> list[str]:
    if not all(isinstance(code, str) for code in packet):
        raise MixtureError(f"{where}: card codes must be strings")
    return packet


def _check_holding(value: Any, mixture: Mixture, source: str) -> None:
    if not isinstance(value, list) or not all(isinstance(code, str) for code in value):
        raise MixtureError(f'{source}: "holding" must be a list of card codes')
    try:
        holding = tuple(sorted(parse_cards(value)))
    except CardError as error:
        raise MixtureError(f"{source}: holding: {error}") from None
    if holding != mixture.cards:
        raise MixtureError(f'{source}: the strategies do not use the cards of "holding"')


def read_mixture(path: str | Path) -> Mixture:
    """Read a mixture file.

    Raises
    ------
    MixtureError
        If the file is missing, not JSON, or not a valid mixture.

    >>> read_mixture("/nonexistent/m.json")
    Traceback (most recent call last):
        ...
    solver.errors.MixtureError: /nonexistent/m.json: no such file
    """
    path = check_path(path, "path")
    try:
        text = read_text_limited(path, max_bytes=MAX_MIXTURE_BYTES)
    except FileError as error:
        raise MixtureError(str(error)) from None
    try:
        payload = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise MixtureError(
            f"{path}: not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        ) from None
    except RecursionError:
        raise MixtureError(f"{path}: not a mixture: JSON nested too deeply") from None
    except ValueError as error:  # an integer of more than 4300 digits, NaN, Infinity
        raise MixtureError(f"{path}: not a mixture: {error}") from None
    return Mixture.from_dict(payload, source=str(path))


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a finite number")


def write_mixture(mixture: Mixture, path: str | Path) -> None:
    """Write a mixture file (ASCII card codes, two-space indentation), atomically.

    Non-finite numbers of the metadata are written as ``null`` (strict JSON);
    a failed write raises :class:`~solver.errors.FileError` and leaves
    any old file intact.
    """
    if not isinstance(mixture, Mixture):
        raise TypeError(f"mixture must be a Mixture, got {mixture!r}")
    path = check_path(path, "path")
    text = json.dumps(strict_json(mixture.to_dict()), indent=2, allow_nan=False)
    atomic_write_text(path, text + "\n")
