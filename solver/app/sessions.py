"""The interactive use cases: a ``train``\\ ing series and a ``play`` session at the table.

Both talk to a person through two callables the face supplies: ``read``
(a prompt in, a line out) and ``write`` (a line out).  Every deal's
equilibrium comes from one :class:`~solver.book.source.EquilibriumSource`,
shared by the computer, the hints and the grades, and each grade says where
its equilibrium came from.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver.analysis.grade import Grade
from solver.app.grading import from_book
from solver.app.report_book import source_line
from solver.app.report_grade import grade_lines
from solver.app.requests import DEFAULT_BOOK, BookChoice, fresh_seed
from solver.app.solving import source_of
from solver.app.text import say
from solver.book.source import EquilibriumSource
from solver.errors import QuintetError
from solver.game.cards import Lang
from solver.game.deal import deal
from solver.game.rules import DEFAULT_RULES, Rules
from solver.play.interactive import play
from solver.play.players import player
from solver.play.train_history import recorded_series
from solver.play.training import Series, train

__all__ = [
    "DEFAULT_TRAIN_DEALS",
    "PlaySessionRequest",
    "TrainRequest",
    "play_session",
    "train_series",
]

DEFAULT_TRAIN_DEALS = 10  # a new series' deals when none are asked for

Read = Callable[[str], str]
Write = Callable[[str], None]


@dataclass(frozen=True)
class TrainRequest:
    """A training series: ``deals`` deals from ``seed``, kept in ``history``.

    With ``resume``, a ``seed`` or ``deals`` left None is the history's; otherwise
    None is a fresh seed and 10 deals.
    """

    deals: int | None = None
    seed: int | None = None
    rules: Rules = DEFAULT_RULES
    history: str | None = None
    resume: bool = False
    book: BookChoice = DEFAULT_BOOK
    lang: Lang | str = Lang.EN


@dataclass(frozen=True)
class PlaySessionRequest:
    """Games at the table against the computer player ``opponent``, from ``seed``."""

    opponent: str = "eq-margin"
    seed: int | None = None
    rules: Rules = DEFAULT_RULES
    book: BookChoice = DEFAULT_BOOK
    lang: Lang | str = Lang.EN


def _describe(
    source: EquilibriumSource, lang: Lang | str, likely: int, warn: Write | None
) -> Callable[[Grade], list[str]]:
    """A grade's lines, then where its equilibrium came from (``book: ...``).

    The source's new warnings (about its book) go to ``warn`` first, each once.
    """
    shown = [0]

    def lines(result: Grade) -> list[str]:
        warnings = source.warnings
        for message in warnings[shown[0] :]:
            if warn is not None:
                warn(message)
        shown[0] = len(warnings)
        return [
            *grade_lines(result, lang, likely=likely),
            source_line(source.path, from_book(source, result), source.stores, lang),
        ]

    return lines


def train_series(request: TrainRequest, read: Read, write: Write, warn: Write | None = None) -> int:
    """Run the series; the exit status (0: done or stopped by the player).

    ``warn`` sees the warnings (a book that cannot be used or written...).
    """
    if request.resume and request.history is None:
        raise QuintetError('resume needs history="FILE.jsonl"', argument="resume")
    seed, deals = request.seed, request.deals
    recorded = recorded_series(request.history) if request.resume and request.history else None
    if recorded is not None:  # the series goes on as it began; given ones must agree
        seed = recorded[0] if seed is None else seed
        deals = recorded[1] if deals is None else deals
    seed = fresh_seed() if seed is None else seed
    series = Series(
        deals=DEFAULT_TRAIN_DEALS if deals is None else deals, seed=seed, rules=request.rules
    )
    source = source_of(request.book)
    return train(
        series,
        read,
        write,
        request.lang,
        describe=_describe(source, request.lang, likely=3, warn=warn),
        history=None if request.history is None else Path(request.history),
        resume=request.resume,
        solver=source,
        warn=warn,
    )


def play_session(
    request: PlaySessionRequest, read: Read, write: Write, warn: Write | None = None
) -> int:
    """Play games until the player stops; the exit status (``warn``: as for :func:`train_series`)."""
    rules = request.rules
    player(request.opponent)  # a bad name is an input error before the game starts
    seed = fresh_seed() if request.seed is None else request.seed

    def next_deal(game: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        # Game k of the session is the deal of seed + k, printed so it can be replayed.
        write(f"{say('seed', request.lang)} {seed + game}")
        return deal(seed + game, rules).holdings

    holdings = next_deal(0)
    source = source_of(request.book)
    return play(
        holdings[0],
        holdings[1],
        rules,
        request.opponent,
        np.random.default_rng([seed, 2]),
        read,
        write,
        request.lang,
        describe=_describe(source, request.lang, likely=0, warn=warn),
        next_deal=next_deal,
        solver=source,
    )
