"""``quintet report``: aggregate reports over the solution book, weighted by orbit size.

The sample is either the whole book (each stored deal standing for its
orbit under the suits' relabellings, :mod:`solver.book.stats`: the figures
are then averages over deals as dealt, restricted to the classes stored,
and the report states the book's coverage as a share of all deals), or
``deals`` seeded deals (each counted once per time it is dealt; those
missing from the book are solved and stored first).

For each position: how often the first player's equilibrium concedes it
(``sum_ab x_a y_b [s_a,k < s_b,k]``) and the combinations it lays there; the
distribution of the equilibrium's support size and of its most likely
arrangement's probability; in independent mode the game value's.  Every
mean comes with a 95% interval (normal approximation over the deals, with
Kish's effective sample size for weights), and the document states its
sample.  ``where`` keeps only the deals matching a filter
(:mod:`solver.analysis.where`).

>>> study(StudyRequest(where="aces >"))
Traceback (most recent call last):
    ...
solver.errors.QuintetError: where: ends early (expected a number)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from solver.analysis.breakdown import Z95
from solver.analysis.where import Where, holding_features, parse_where
from solver.app.answers import Answer, Notice, answer_of
from solver.app.report import Output
from solver.app.requests import DEFAULT_BOOK, BookChoice
from solver.app.study_text import study_text
from solver.app.whole_game import WholeGameRequest, check_plot_folder, whole_game
from solver.book.build import build
from solver.book.canonical import canonical_key, deal_count, holding_of
from solver.book.store import Book, Entry, default_book_path
from solver.equilibria.equilibrium import parse_payoff
from solver.errors import NoBookError, QuintetError
from solver.game.cards import DECK_SIZE, HAND_SIZE
from solver.game.deal import deal, deal_seed
from solver.game.evaluator import category, strength
from solver.game.payloads import rules_payload
from solver.game.rules import DEFAULT_RULES, Category, DiscardMode, Rules
from solver.schemas import FORMATS

__all__ = ["FORMAT", "Sample", "StudyRequest", "report_or_summary", "study", "weighted_interval"]

FORMAT = FORMATS["report"]
TOP_BINS = (0.0, 0.2, 0.4, 0.6, 0.8, 0.95, 1.0000001)


@dataclass(frozen=True)
class StudyRequest:
    """A report over the book of ``rules`` and ``payoff`` (or over ``deals`` seeded deals)."""

    rules: Rules = DEFAULT_RULES
    payoff: str = "margin"
    deals: int | None = None
    seed: int = 0
    where: str | None = None
    plot: str | None = None
    book: BookChoice = DEFAULT_BOOK


def weighted_interval(values: np.ndarray, weights: np.ndarray) -> dict[str, Any]:
    """The weighted mean and its 95% interval (Kish's effective sample size).

    >>> weighted_interval(np.array([1.0, 3.0]), np.array([1.0, 1.0]))["mean"]
    2.0
    >>> weighted_interval(np.array([]), np.array([]))
    Traceback (most recent call last):
        ...
    solver.errors.QuintetError: values must not be empty
    """
    if values.size == 0:
        raise QuintetError("values must not be empty", argument="values")
    total = float(weights.sum())
    mean = float(np.average(values, weights=weights))
    n_eff = total**2 / float((weights**2).sum())
    if values.size < 2:
        return {"mean": mean, "interval": [mean, mean], "effective_deals": n_eff}
    variance = (
        float(np.average((values - mean) ** 2, weights=weights)) * values.size / (values.size - 1)
    )
    half = Z95 * math.sqrt(variance / n_eff)
    return {"mean": mean, "interval": [mean - half, mean + half], "effective_deals": n_eff}


@dataclass(frozen=True)
class Sample:
    """The deals a report covers: entries, their weights, and what they are."""

    entries: tuple[Entry, ...]
    weights: tuple[float, ...]
    kind: str  # "book" or "seeded"
    coverage: float | None  # the book's share of all deals (book samples)
    read: int  # deals (with multiplicity) before the filter


def _book_path(request: StudyRequest) -> Path:
    if not request.book.enabled:
        raise QuintetError(
            "book: a report reads the solution book; it cannot be off", argument="book"
        )
    return Path(request.book.path) if request.book.path else default_book_path()


def _seeded(request: StudyRequest, path: Path) -> Sample:
    rules, deals = request.rules, int(request.deals or 0)
    build(path, rules, [parse_payoff(request.payoff).value], deals=deals, seed=request.seed)
    keys = [
        canonical_key(deal(deal_seed(request.seed, i), rules).holdings)[0] for i in range(deals)
    ]
    with Book(path, create=False) as book:
        found = {k: book.get(k, rules, request.payoff) for k in set(keys)}
    entries = tuple(e for k in keys if (e := found[k]) is not None)
    return Sample(entries, tuple(1.0 for _ in entries), "seeded", None, len(keys))


def _whole_book(request: StudyRequest, path: Path) -> Sample:
    with Book(path, create=False) as book:
        entries = tuple(book.entries(request.rules, request.payoff))
    pairs = request.rules.discard_mode is DiscardMode.INDEPENDENT
    n_removed = DECK_SIZE - HAND_SIZE * request.rules.n_packets
    weights = tuple(float(e.orbit) for e in entries)
    coverage = sum(weights) / deal_count(n_removed, pairs=pairs)
    return Sample(entries, weights, "book", coverage, len(entries))


def _features(entry: Entry) -> dict[str, float]:
    features = holding_features(holding_of(entry.key[0]), entry.rules)
    features["value"] = entry.value
    features["support"] = float(len(entry.row_probabilities))
    features["top"] = float(entry.row_probabilities.max())
    return features


def _per_deal(entry: Entry) -> tuple[np.ndarray, np.ndarray]:
    """Per position: the concession probability, and the combination shares ``(n, categories)``."""
    rules = entry.rules
    x = entry.row_probabilities
    if entry.column_cards is None or entry.column_probabilities is None:
        theirs_cards, y = entry.row_cards, x
    else:
        theirs_cards, y = entry.column_cards, entry.column_probabilities
    ours, theirs = strength(entry.row_cards, rules), strength(theirs_cards, rules)
    concede = np.einsum("k,l,kln->n", x, y, ours[:, None, :] < theirs[None, :, :])
    kinds = category(entry.row_cards, rules)
    shares = np.stack(
        [
            np.bincount(kinds[:, k], weights=x, minlength=len(Category))
            for k in range(rules.n_packets)
        ]
    )
    return concede, shares


def _histogram(
    values: np.ndarray, weights: np.ndarray, edges: np.ndarray
) -> list[dict[str, float]]:
    counts, _ = np.histogram(values, bins=edges, weights=weights)
    total = float(weights.sum())
    return [
        {"low": float(a), "high": float(b), "share": float(c) / total}
        for a, b, c in zip(edges[:-1], edges[1:], counts, strict=True)
    ]


def _document(request: StudyRequest, sample: Sample, where: Where) -> dict[str, Any]:
    kept = [
        (e, w)
        for e, w in zip(sample.entries, sample.weights, strict=True)
        if where.holds(_features(e))
    ]
    base = {
        "format": FORMAT,
        "rules": rules_payload(request.rules),
        "payoff": parse_payoff(request.payoff).value,
        "sample": {
            "kind": sample.kind,
            "deals": len(kept),
            "read": sample.read,
            "where": str(where),
            "coverage": sample.coverage,
            "weight": float(sum(w for _, w in kept)),
        },
    }
    if not kept:
        return {**base, "positions": [], "support": None, "top_probability": None, "value": None}
    weights = np.array([w for _, w in kept])
    per = [_per_deal(e) for e, _ in kept]
    concede = np.array([c for c, _ in per])  # (deals, n)
    shares = np.array([s for _, s in per])  # (deals, n, categories)
    order = list(reversed(request.rules.category_order()))
    positions = []
    for k in range(request.rules.n_packets):
        mean_shares = np.average(shares[:, k, :], axis=0, weights=weights)
        positions.append({
            "position": k + 1,
            "concede": weighted_interval(concede[:, k], weights),
            "combinations": {c.english: float(mean_shares[c]) for c in order if mean_shares[c] > 0},
        })  # fmt: skip
    support = np.array([len(e.row_probabilities) for e, _ in kept], dtype=np.float64)
    top = np.array([float(e.row_probabilities.max()) for e, _ in kept])
    values = np.array([e.value for e, _ in kept])
    edges = np.arange(0.5, support.max() + 1.5)
    document = {
        **base,
        "positions": positions,
        "support": {**weighted_interval(support, weights), "histogram": _histogram(support, weights, edges)},
        "top_probability": {**weighted_interval(top, weights), "histogram": _histogram(top, weights, np.array(TOP_BINS))},
        "value": None,
    }  # fmt: skip
    if request.rules.discard_mode is DiscardMode.INDEPENDENT:
        value_edges = np.linspace(values.min(), values.max() + 1e-9, 11)
        document["value"] = {**weighted_interval(values, weights), "histogram": _histogram(values, weights, value_edges)}  # fmt: skip
    return document


def study(request: StudyRequest) -> Answer:
    """The aggregate report (see the module docstring); ``plot``: PNG charts written there."""
    where = parse_where(request.where)
    parse_payoff(request.payoff)
    check_plot_folder(request.plot)
    path = _book_path(request)
    if request.deals is None and not path.exists():
        raise NoBookError(f"{path}: no such file (build a book first, or give deals)")
    sample = _seeded(request, path) if request.deals is not None else _whole_book(request, path)
    document = _document(request, sample, where)
    written: list[str] = []
    if request.plot is not None and document["positions"]:
        from solver.app.study_plots import write_plots

        written = write_plots(document, Path(request.plot))
    document["plots"] = written
    return answer_of(lambda lang: Output(study_text(document, lang), document), kind="report")


def report_or_summary(request: StudyRequest) -> Answer:
    """:func:`study`; without a book, the whole game's summary shipped with the package.

    The summary stands in only for what it covers: the default rules, no
    ``where`` filter, no ``deals``, no plot (else no book is an error, as
    in :func:`study`).  A warning says the figures are the summary's.
    """
    try:
        return study(request)
    except NoBookError:
        plain = request.where is None and request.plot is None and request.deals is None
        if not plain or request.rules != DEFAULT_RULES:
            raise
    answer = whole_game(WholeGameRequest(payoff=request.payoff))
    note = Notice(
        f"no book at {_book_path(request)}: the whole game's figures shipped with the package "
        "(quintet book build to make a book)"
    )
    return Answer(answer.document, answer.render, (note, *answer.warnings))
