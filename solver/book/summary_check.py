"""Checking a summary read from a file (:func:`solver.book.summary.read_summary`).

The file is untrusted: every value the readers use is checked for its type,
its range and its size, and rebuilt (unknown keys dropped), so a damaged
file can neither crash a page nor show a figure that cannot be (a share
over 1, an interval that misses its mean, a position the rules lack).

>>> checked_head({"format": "quintet-summary/9"})[1]
"is format 'quintet-summary/9', not 'quintet-summary/1'"
>>> checked_figure({"mean": 0.5, "interval": [0.6, 0.7]}, "pure", share=True)
Traceback (most recent call last):
    ...
solver.book.summary_check.DamageError: pure: the mean 0.5 is outside its interval [0.6, 0.7]
"""

from __future__ import annotations

import math
from typing import Any

from solver.errors import QuintetError
from solver.game.payloads import rules_payload
from solver.game.rules import Category, DiscardMode, Rules
from solver.schemas import FORMATS

__all__ = ["DamageError", "checked_figure", "checked_head", "checked_payoff"]

FORMAT = FORMATS["summary"]
_NAMES = {c.english for c in Category}
_SLACK = 1e-9  # rounding to six digits may put a mean a hair outside its interval
MAX_DEALS = 50  # hardest deals listed per kind
# The support histogram's bins (solver.book.summary.SUPPORT_BINS; kept here, below it).
BINS = 9


class DamageError(ValueError):
    """What is wrong with a part of the file."""


def _number(value: Any, where: str, low: float = -math.inf, high: float = math.inf) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise DamageError(f"{where}: not a number ({type(value).__name__})")
    if not math.isfinite(value) or not low <= value <= high:
        raise DamageError(f"{where}: {value!r} is not in [{low}, {high}]")
    return float(value)


def _whole(value: Any, where: str, low: int = 0, high: int = 2**62) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DamageError(f"{where}: {value!r} is not a whole number in [{low}, {high}]")
    return value


def _text(value: Any, where: str, longest: int = 80) -> str:
    if not isinstance(value, str) or len(value) > longest:
        raise DamageError(f"{where}: not a text of at most {longest} characters")
    return value


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise DamageError(f"{where}: not an object")
    return value


def _list(value: Any, where: str, longest: int) -> list[Any]:
    if not isinstance(value, list) or len(value) > longest:
        raise DamageError(f"{where}: not a list of at most {longest} items")
    return value


def checked_figure(value: Any, where: str, *, share: bool = False) -> dict[str, Any]:
    """A ``{"mean", "interval"}`` figure, checked (a share within [0, 1])."""
    block = _object(value, where)
    low_bound, high_bound = (0.0, 1.0) if share else (-math.inf, math.inf)
    mean = _number(block.get("mean"), f"{where}: mean", low_bound, high_bound)
    interval = _list(block.get("interval"), f"{where}: interval", 2)
    if len(interval) != 2:
        raise DamageError(f"{where}: interval: not two numbers")
    low, high = (_number(x, f"{where}: interval", low_bound, high_bound) for x in interval)
    if not low - _SLACK <= mean <= high + _SLACK:
        raise DamageError(f"{where}: the mean {mean} is outside its interval [{low}, {high}]")
    return {"mean": mean, "interval": [low, high]}


def checked_head(loaded: Any) -> tuple[dict[str, Any] | None, str]:
    """The document's format, version, rules and sample, checked; or None and why."""
    try:
        document = _object(loaded, "the file")
        if document.get("format") != FORMAT:
            return None, f"is format {str(document.get('format'))[:40]!r}, not {FORMAT!r}"
        raw = _object(document.get("rules"), "rules")
        try:
            rules = Rules(
                position_points=tuple(
                    _whole(p, "rules: points", 1, 100)
                    for p in _list(raw.get("position_points"), "rules: points", 6)
                ),
                discard_mode=DiscardMode(_text(raw.get("discard_mode"), "rules: mode")),
                ace_low_straight=raw.get("ace_low_straight") is True,
                flush_beats_full_house=raw.get("flush_beats_full_house") is True,
            )
        except (QuintetError, ValueError, TypeError) as error:
            raise DamageError(f"rules: not valid rules ({error})") from None
        sample = _object(document.get("sample"), "sample")
        asked = sample.get("asked")
        head = {
            "format": FORMAT,
            "solver_version": _text(document.get("solver_version"), "solver_version", 40),
            "rules": rules_payload(rules),
            "sample": {
                "kind": _text(sample.get("kind"), "sample: kind"),
                "asked": None if asked is None else _whole(asked, "sample: asked", 1),
                "prefix": None
                if sample.get("prefix") is None
                else _whole(sample.get("prefix"), "sample: prefix"),
                "seed": None
                if sample.get("seed") is None
                else _whole(sample.get("seed"), "sample: seed"),
                "classes_total": _whole(sample.get("classes_total"), "sample: classes", 1),
                "deals_total": _whole(sample.get("deals_total"), "sample: deals", 1),
                "weighting": _text(sample.get("weighting"), "sample: weighting"),
                "bootstrap": _bootstrap(sample.get("bootstrap")),
            },
        }
        _list(document.get("payoffs"), "payoffs", 4)
    except DamageError as error:
        return None, f"is damaged ({error})"
    return head, ""


def _bootstrap(value: Any) -> dict[str, Any]:
    block = _object(value, "sample: bootstrap")
    return {
        "replicates": _whole(block.get("replicates"), "bootstrap: replicates", 1),
        "seed": _whole(block.get("seed"), "bootstrap: seed"),
        "level": _number(block.get("level"), "bootstrap: level", 0, 1),
    }


def checked_payoff(value: Any, rules: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    """One payoff's figures, checked against the rules' positions; or None and why."""
    try:
        return _payoff(_object(value, "payoff"), len(rules["position_points"])), ""
    except DamageError as error:
        return None, f"is damaged ({error})"


def _payoff(block: dict[str, Any], n_positions: int) -> dict[str, Any]:
    payoff = block.get("payoff")
    if payoff not in ("margin", "win"):
        raise DamageError(f"payoff: {str(payoff)[:20]!r} is not margin or win")
    positions = _list(block.get("positions"), "positions", n_positions)
    if len(positions) != n_positions:
        raise DamageError(f"positions: {len(positions)}, the rules have {n_positions}")
    checked_positions = []
    for k, raw in enumerate(positions):
        position = _object(raw, f"position {k + 1}")
        if position.get("position") != k + 1:
            raise DamageError(f"position {k + 1}: numbered {str(position.get('position'))[:10]}")
        kinds = _object(position.get("combinations"), f"position {k + 1}: combinations")
        if not set(kinds) <= _NAMES:
            raise DamageError(f"position {k + 1}: an unknown combination")
        checked_positions.append({
            "position": k + 1,
            "concede": checked_figure(position.get("concede"), f"position {k + 1}", share=True),
            "combinations": {
                name: checked_figure(share, f"position {k + 1}: {name}", share=True)
                for name, share in kinds.items()
            },
        })  # fmt: skip
    support = _object(block.get("support"), "support")
    histogram = _list(support.get("histogram"), "support: histogram", BINS)
    seconds = _object(block.get("seconds"), "seconds")
    hardest = _object(block.get("hardest"), "hardest")
    return {
        "payoff": payoff,
        "classes": _whole(block.get("classes"), "classes", 1),
        "weight": _whole(block.get("weight"), "weight", 1),
        "positions": checked_positions,
        "support": {
            **checked_figure(support, "support"),
            "median": _number(support.get("median"), "support: median", 1),
            "max": _whole(support.get("max"), "support: max", 1),
            "histogram": [_bin(b, i) for i, b in enumerate(histogram)],
        },
        "pure": checked_figure(block.get("pure"), "pure", share=True),
        "seconds": {
            **checked_figure(seconds, "seconds"),
            **{k: _number(seconds.get(k), f"seconds: {k}", 0) for k in ("median", "p90", "max", "total")},
        },
        "value": checked_figure(block.get("value"), "value"),
        "hardest": {
            kind: [_deal(d, f"hardest {kind}") for d in _list(hardest.get(kind), kind, MAX_DEALS)]
            for kind in ("support", "slowest")
        },
    }  # fmt: skip


def _bin(value: Any, index: int) -> dict[str, Any]:
    block = _object(value, f"support bin {index + 1}")
    low = _whole(block.get("low"), f"support bin {index + 1}: low", 1)
    high = _whole(block.get("high"), f"support bin {index + 1}: high", low)
    return {
        "low": low,
        "high": high,
        **checked_figure(block, f"support bin {index + 1}", share=True),
    }


def _deal(value: Any, where: str) -> dict[str, Any]:
    deal = _object(value, where)
    return {
        "removed": _text(deal.get("removed"), f"{where}: removed", 40),
        "key": _whole(deal.get("key"), f"{where}: key", 1, 2**32),
        "orbit": _whole(deal.get("orbit"), f"{where}: orbit", 1, 24),
        "support": _whole(deal.get("support"), f"{where}: support", 1),
        "seconds": _number(deal.get("seconds"), f"{where}: seconds", 0),
        "value": _number(deal.get("value"), f"{where}: value"),
    }
