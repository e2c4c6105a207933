"""The whole game's statistics from a sample of mirror classes: computed, written, read back.

A book built over a uniform seeded sample of mirror classes
(``quintet book build --sample N --seed S``) holds the equilibria of those
classes.  Each class stands for its orbit under the suits' relabellings
(:mod:`solver.book.canonical`), so every figure is an average over the
classes weighted by orbit size: an estimate of the average over all deals
as dealt.  Each figure has a 95% interval from a weighted bootstrap
(:func:`bootstrap`: the classes drawn again with replacement, uniformly as
they were sampled, the ratio of orbit-weighted sums recomputed; seeded).

The summary (:func:`summarize`) is a small JSON document, ``quintet-summary/1``
(statistics, not strategies), that ships with the package
(:data:`SHIPPED`) so the Study page and ``quintet report`` have figures
before any book is built.  A file read back is untrusted input
(:func:`read_summary`): damage is reported, never fatal.

>>> figure(np.array([1.0, 0.0, 1.0]), np.array([1.0, 1.0, 2.0]))["mean"]
0.75
>>> bootstrap(np.ones(3), np.ones(2))
Traceback (most recent call last):
    ...
solver.errors.BookError: weights: 2 weights for 3 values
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from solver.book.canonical import class_count, deal_count, holding_of, sample_mirror_classes
from solver.book.rows import Entry
from solver.book.stats import entry_figures
from solver.book.store import Book
from solver.book.summary_check import checked_head, checked_payoff
from solver.equilibria.equilibrium import Payoff, parse_payoff
from solver.errors import BookError
from solver.game.cards import DECK_SIZE, HAND_SIZE, format_cards
from solver.game.payloads import rules_payload
from solver.game.rules import DEFAULT_RULES, Category, DiscardMode, Rules
from solver.schemas import FORMATS
from solver.util.checks import check_instance, check_int
from solver.version import __version__

__all__ = [
    "FORMAT",
    "MAX_BYTES",
    "SHIPPED",
    "SUPPORT_BINS",
    "SummaryRead",
    "bootstrap",
    "figure",
    "read_summary",
    "share_figure",
    "summarize",
    "write_summary",
]

FORMAT = FORMATS["summary"]
MAX_BYTES = 1_000_000
"""The largest summary file read (and written): statistics, never a book."""
SHIPPED = Path(__file__).parent / "whole-game.json"
"""The summary shipped with the package (``quintet book summary`` wrote it)."""
SUPPORT_BINS = ((1, 1), (2, 2), (3, 4), (5, 8), (9, 16), (17, 32), (33, 64), (65, 128), (129, 4096))
"""Support sizes grouped for the histogram: ``(low, high)``, both included."""
REPLICATES = 1000
HARDEST = 10
_DIGITS = 6  # significant digits kept: figures with intervals, never float dust


def bootstrap(
    values: np.ndarray, weights: np.ndarray, *, replicates: int = REPLICATES, seed: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Orbit-weighted means of ``values`` (``(n,)`` or ``(n, m)``) and their 95% intervals.

    The ``n`` classes are drawn again ``replicates`` times with replacement
    (each equally likely, as the sample drew them); each replicate's mean is
    ``sum(c * w * v) / sum(c * w)`` with ``c`` the draws' counts.  The
    interval is the 2.5% and 97.5% quantiles of the replicates.

    Returns
    -------
    mean, low, high
        Arrays of shape ``(m,)`` (or scalars' shape ``()`` for 1-d values).

    >>> mean, low, high = bootstrap(np.array([0.0, 1.0] * 50), np.ones(100), seed=1)
    >>> float(mean), bool(0.38 < low < 0.5 < high < 0.62)
    (0.5, True)
    >>> bootstrap(np.ones(2), np.ones(2), replicates=0)
    Traceback (most recent call last):
        ...
    solver.errors.QuintetError: replicates must be in [1, 100000], got 0
    """
    values, weights = np.asarray(values, dtype=np.float64), np.asarray(weights, dtype=np.float64)
    check_int(replicates, "replicates", low=1, high=100_000)
    check_int(seed, "seed", low=0)
    if values.shape[0] != weights.shape[0] or weights.ndim != 1:
        raise BookError(
            f"weights: {weights.shape[0]} weights for {values.shape[0]} values",
            argument="weights",
        )
    if weights.size == 0 or not np.all(weights > 0):
        raise BookError(
            "weights: need at least one value, every weight positive", argument="weights"
        )
    n = weights.size
    flat = values.reshape(n, -1)
    mean = (weights @ flat) / weights.sum()
    rng = np.random.default_rng(seed)
    replicated = []
    for start in range(0, replicates, 100):  # 100 replicates at a time: n x 100 counts
        counts = rng.multinomial(n, np.full(n, 1.0 / n), size=min(100, replicates - start))
        scaled = counts * weights  # (r, n)
        replicated.append((scaled @ flat) / scaled.sum(axis=1, keepdims=True))
    draws = np.concatenate(replicated)
    low, high = np.quantile(draws, [0.025, 0.975], axis=0)
    # A mean outside its own percentile interval (a skewed few) widens the interval to it.
    low, high = np.minimum(low, mean), np.maximum(high, mean)
    shape = values.shape[1:]
    return mean.reshape(shape), low.reshape(shape), high.reshape(shape)


def _round(x: float | np.ndarray) -> float:
    """``x`` to :data:`_DIGITS` significant digits (and 0 below 1e-9)."""
    x = float(x)
    # Below 1e-9 is the solver's rounding (a mirror game's value is exactly 0), never a figure.
    return 0.0 if abs(x) < 1e-9 else round(x, _DIGITS - 1 - math.floor(math.log10(abs(x))))


def figure(values: np.ndarray, weights: np.ndarray, *, seed: int = 0) -> dict[str, Any]:
    """``{"mean": m, "interval": [low, high]}`` of one quantity (see :func:`bootstrap`)."""
    mean, low, high = bootstrap(values, weights, seed=seed)
    return {"mean": _round(mean), "interval": [_round(low), _round(high)]}


def share_figure(hits: np.ndarray, weights: np.ndarray, *, seed: int = 0) -> dict[str, Any]:
    """The orbit-weighted share of classes where ``hits`` holds, with its 95% interval.

    A bootstrap cannot see past a share of 0 or 1 in the sample (every resample
    is 0): then the interval is Clopper-Pearson's for 0 (or all) of ``n``
    classes, ``n`` the weights' effective sample size (Kish).

    >>> share_figure(np.zeros(100, dtype=bool), np.ones(100))
    {'mean': 0.0, 'interval': [0.0, 0.0362167]}
    """
    hits = np.asarray(hits, dtype=bool)
    if hits.any() and not hits.all():
        return figure(hits.astype(float), weights, seed=seed)
    n_eff = float(weights.sum() ** 2 / (weights**2).sum())
    bound = 1.0 - 0.025 ** (1.0 / n_eff)
    if hits.all():
        return {"mean": 1.0, "interval": [_round(1.0 - bound), 1.0]}
    return {"mean": 0.0, "interval": [0.0, _round(bound)]}


def _figures(values: np.ndarray, weights: np.ndarray, seed: int) -> list[dict[str, Any]]:
    mean, low, high = bootstrap(values, weights, seed=seed)
    return [
        {"mean": _round(m), "interval": [_round(a), _round(b)]}
        for m, a, b in zip(mean, low, high, strict=True)
    ]


def _deal(entry: Entry) -> dict[str, Any]:
    """A deal named by its turned-up cards (the holding is the rest of the deck)."""
    held = set(holding_of(entry.key[0]))
    removed = [c for c in range(DECK_SIZE) if c not in held]
    return {
        "removed": format_cards(removed, ascii=True),
        "key": int(entry.key[0]),
        "orbit": int(entry.orbit),
        "support": len(entry.row_probabilities),
        "seconds": _round(entry.seconds),
        "value": _round(entry.value),
    }


def _payoff_block(entries: list[Entry], rules: Rules, seed: int) -> dict[str, Any]:
    weights = np.array([e.orbit for e in entries], dtype=np.float64)
    figures = [entry_figures(e, rules) for e in entries]
    concede = np.array([c for c, _ in figures])  # (deals, positions)
    shares = np.array([s for _, s in figures])  # (deals, positions, categories)
    support = np.array([len(e.row_probabilities) for e in entries], dtype=np.float64)
    columns = np.array(
        [len(e.row_probabilities if e.column_probabilities is None else e.column_probabilities)
         for e in entries],
        dtype=np.float64,
    )  # fmt: skip
    seconds = np.array([e.seconds for e in entries])
    pure = (support == 1) & (columns == 1)
    bins = [(support >= a) & (support <= b) for a, b in SUPPORT_BINS]
    order = list(reversed(rules.category_order()))
    kinds = _figures(shares.reshape(len(entries), -1), weights, seed)
    n_kinds = len(Category)
    positions = []
    for k, conceded in enumerate(_figures(concede, weights, seed)):
        combinations = {
            c.english: kinds[k * n_kinds + c]
            for c in order
            if kinds[k * n_kinds + c]["interval"][1] > 0
        }
        positions.append({"position": k + 1, "concede": conceded, "combinations": combinations})
    by_support = sorted(entries, key=lambda e: (-len(e.row_probabilities), -e.seconds))
    by_time = sorted(entries, key=lambda e: -e.seconds)
    even = np.ones_like(seconds)  # the cost is per class solved, each once
    return {
        "classes": len(entries),
        "weight": int(weights.sum()),
        "positions": positions,
        "support": {
            **figure(support, weights, seed=seed),
            "median": float(np.median(support)),
            "max": int(support.max()),
            "histogram": [
                {"low": a, "high": b, **f}
                for (a, b), hits in zip(SUPPORT_BINS, bins, strict=True)
                for f in [share_figure(hits, weights, seed=seed)]
            ],
        },
        "pure": share_figure(pure, weights, seed=seed),
        "seconds": {
            **figure(seconds, even, seed=seed),
            "median": _round(np.median(seconds)),
            "p90": _round(np.quantile(seconds, 0.9)),
            "max": _round(seconds.max()),
            "total": _round(seconds.sum()),
        },
        "value": figure(np.array([e.value for e in entries]), weights, seed=seed),
        "hardest": {
            "support": [_deal(e) for e in by_support[:HARDEST]],
            "slowest": [_deal(e) for e in by_time[:HARDEST]],
        },
    }


@dataclass(frozen=True)
class _Sample:
    """Which classes a summary covers: a seeded sample of ``count``, or the whole book."""

    count: int | None
    seed: int


def summarize(
    book: Book,
    *,
    rules: Rules = DEFAULT_RULES,
    payoffs: Sequence[Payoff | str] = ("margin", "win"),
    sample: int | None = None,
    sample_seed: int = 0,
    seed: int = 0,
) -> dict[str, Any]:
    """The ``quintet-summary/1`` document of the book's solutions of ``rules``.

    Parameters
    ----------
    book
        The book holding the solutions.
    rules, payoffs
        The game (mirror mode) and the payoffs summarized (those with rows).
    sample, sample_seed
        The classes: the uniform sample ``quintet book build --sample
        SAMPLE --seed SAMPLE_SEED`` drew, or as many of them as the book
        holds from the first in draw order on (a uniform sample too:
        ``sample["prefix"]`` says how many); ``None``: every class the book
        holds.
    seed
        The bootstrap's seed.

    >>> import tempfile, pathlib
    >>> with Book(pathlib.Path(tempfile.mkdtemp()) / "b.sqlite") as book:
    ...     summarize(book, rules=Rules(discard_mode="independent"))
    Traceback (most recent call last):
        ...
    solver.errors.BookError: rules: a summary is of mirror classes, not independent deals
    """
    check_instance(book, Book, "book")
    check_instance(rules, Rules, "rules")
    if rules.discard_mode is not DiscardMode.MIRROR:
        raise BookError(
            "rules: a summary is of mirror classes, not independent deals", argument="rules"
        )
    check_int(seed, "seed", low=0)
    chosen = [parse_payoff(p) for p in dict.fromkeys(payoffs)]
    n_removed = DECK_SIZE - HAND_SIZE * rules.n_packets
    wanted: set[int] | None = None
    prefix = None
    if sample is not None:
        # The longest prefix of the draw order solved for every payoff: itself a uniform
        # sample (a build solves the classes in draw order; one stopped early leaves one).
        order = sample_mirror_classes(sample, sample_seed, n_removed).tolist()
        stored = [{int(a) for a, _ in book.keys(rules, p)} for p in chosen]
        done = [all(m in s for s in stored) for m in order]
        prefix = done.index(False) if False in done else len(order)
        wanted = set(order[:prefix])
    blocks = []
    for payoff in chosen:
        entries = [e for e in book.entries(rules, payoff) if wanted is None or e.key[0] in wanted]
        if entries:
            blocks.append({"payoff": payoff.value, **_payoff_block(entries, rules, seed)})
    if not blocks:
        raise BookError(
            "book: no solution of these rules and payoffs to summarize", argument="book"
        )
    return {
        "format": FORMAT,
        "solver_version": __version__,
        "rules": rules_payload(rules),
        "sample": {
            "kind": "book" if sample is None else "uniform classes",
            "asked": sample,
            "prefix": prefix,
            "seed": sample_seed if sample is not None else None,
            "classes_total": class_count(n_removed),
            "deals_total": deal_count(n_removed),
            "weighting": "orbit size",
            "bootstrap": {"replicates": REPLICATES, "seed": seed, "level": 0.95},
        },
        "payoffs": blocks,
    }


def write_summary(document: dict[str, Any], path: str | Path) -> int:
    """Write a summary as JSON (atomically); returns its size in bytes (at most :data:`MAX_BYTES`)."""
    text = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
    data = text.encode("utf-8")
    if len(data) > MAX_BYTES:
        raise BookError(f"summary: {len(data)} bytes, over {MAX_BYTES}", argument="summary")
    path = Path(path)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(data)
    temporary.replace(path)
    return len(data)


@dataclass(frozen=True)
class SummaryRead:
    """A summary read back: the document (its readable payoffs), and what was wrong."""

    document: dict[str, Any] | None
    problems: tuple[str, ...]


def read_summary(path: str | Path | None = None) -> SummaryRead:
    """The summary at ``path`` (None: the shipped one), checked; damage is reported, not raised.

    A file that cannot be read, is not JSON, is too large or is of another
    format gives no document and says why; a payoff whose figures are
    damaged is left out and named.

    >>> read_summary(SHIPPED).problems
    ()
    >>> import tempfile, pathlib
    >>> bad = pathlib.Path(tempfile.mkdtemp()) / "s.json"
    >>> _ = bad.write_text("{")
    >>> read_summary(bad).problems
    ('summary: s.json is not JSON (Expecting property name enclosed in double quotes)',)
    """
    path = Path(path) if path is not None else SHIPPED
    name = path.name
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as error:
        return SummaryRead(None, (f"summary: {name} cannot be read ({error.strerror})",))
    if len(data) > MAX_BYTES:
        return SummaryRead(None, (f"summary: {name} is over {MAX_BYTES} bytes",))
    try:
        loaded = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        return SummaryRead(None, (f"summary: {name} is not UTF-8 text",))
    except (json.JSONDecodeError, RecursionError) as error:
        reason = error.msg if isinstance(error, json.JSONDecodeError) else "nested too deep"
        return SummaryRead(None, (f"summary: {name} is not JSON ({reason})",))
    head, problem = checked_head(loaded)
    if head is None:
        return SummaryRead(None, (f"summary: {name} {problem}",))
    payoffs, problems = [], []
    for index, block in enumerate(loaded["payoffs"][:4]):
        good, why = checked_payoff(block, head["rules"])
        if good is None:
            problems.append(f"summary: {name}: payoff {index + 1} {why}; left out")
        else:
            payoffs.append(good)
    if not payoffs:
        return SummaryRead(None, (*problems, f"summary: {name}: no readable payoff"))
    return SummaryRead({**head, "payoffs": payoffs}, tuple(problems))
