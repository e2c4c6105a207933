"""Training: a series of seeded deals, each laid out by the player and graded.

Deal ``k`` (from 0) of a series with seed ``S`` is ``deal(S + k)``.  For each
deal the player lays out the packets (the same input as ``quintet play``:
:func:`solver.play.interactive.lay_out`), then sees the grade, the suggested
change and the equilibrium's most likely arrangements, and a running score.

Every graded deal is appended to the history file as one JSON line and
flushed at once, so an interruption loses nothing; a resumed series
continues after the last recorded deal.  Each line::

    {"format": "quintet-train/1", "seed": S, "deals": N, "rules": {...},
     "deal": k, "deal_seed": S + k, "grade": {...}}    # grade: solver.analysis.payloads

>>> from solver.game.rules import Rules
>>> series = Series(deals=2, seed=5, rules=Rules())
>>> series.deal_seed(1)
6
>>> Series(deals=0, seed=5, rules=Rules())
Traceback (most recent call last):
    ...
solver.errors.QuintetError: deals must be at least 1, got 0
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solver.analysis.grade import Grade, Verdict, grade
from solver.analysis.payloads import grade_payload
from solver.book.source import EquilibriumSolver
from solver.errors import QuintetError
from solver.game.cards import format_cards
from solver.game.deal import deal
from solver.play.interactive import Table, lay_out
from solver.play.phrases import TEXT, VERDICTS
from solver.play.train_history import FORMAT, HistoryWriter, Series, read_history
from solver.util.language import Lang

__all__ = ["FORMAT", "Series", "Tally", "read_history", "train"]


@dataclass
class Tally:
    """The running score: deals graded, total equilibrium loss, verdict counts."""

    graded: int = 0
    total_loss: float = 0.0
    verdicts: dict[str, int] = field(default_factory=lambda: {v.value: 0 for v in Verdict})

    def add(self, loss: float, verdict: str) -> None:
        """Count one graded deal."""
        self.graded += 1
        self.total_loss += loss
        self.verdicts[verdict] += 1

    def line(self, series: Series, lang: Lang | str) -> str:
        """The running score in words."""
        words = VERDICTS[Lang(lang)]
        counts = ", ".join(f"{words[key]} {n}" for key, n in self.verdicts.items() if n)
        return TEXT[Lang(lang)]["score"].format(
            graded=self.graded,
            deals=series.deals,
            mean=self.total_loss / max(self.graded, 1),
            counts=counts or "-",
        )


def _open_history(
    path: Path | None, resume: bool, series: Series, warn: Callable[[str], None]
) -> tuple[HistoryWriter | None, list[dict[str, Any]]]:
    """The history opened for appending (a cut last line dropped) and its records."""
    if path is None:
        return None, []
    history = read_history(path, series)
    if history.records and not resume:
        raise QuintetError(
            f"history {path} already holds {len(history.records)} deal(s); resume it or "
            "choose another file",
            argument="history",
        )
    for warning in history.warnings:
        warn(warning)
    return HistoryWriter(path, history), history.records


def _record(handle: HistoryWriter | None, series: Series, index: int, result: Grade) -> None:
    if handle is None:
        return
    line = {**series.header(), "deal": index, "deal_seed": series.deal_seed(index)}
    line["grade"] = grade_payload(result)
    handle.write(line)  # flushed: graded deals survive Ctrl-C, kills and the end of input


def train(
    series: Series,
    read: Callable[[str], str],
    write: Callable[[str], None],
    lang: Lang | str = Lang.EN,
    *,
    describe: Callable[[Grade], list[str]],
    history: Path | None = None,
    resume: bool = False,
    solver: EquilibriumSolver | None = None,
    warn: Callable[[str], None] | None = None,
) -> int:
    """Play a training series on a console; return the exit status (0).

    ``describe`` turns a grade into the lines shown after each deal;
    ``solver`` gives the deals' equilibria (as for :func:`~solver.analysis.grade.grade`);
    ``warn`` sees the warnings (a last line of the history cut short, dropped).
    """
    text = TEXT[Lang(lang)]
    handle, records = _open_history(history, resume, series, warn or write)
    tally = Tally()
    for record in records:  # the running score covers the whole series
        tally.add(float(record["grade"]["equilibrium_loss"]), str(record["grade"]["verdict"]))
    start = max((int(r["deal"]) for r in records), default=-1) + 1
    write(text["series"].format(deals=series.deals, seed=series.seed))
    try:
        if start >= series.deals:
            write(text["series_done"].format(deals=series.deals))
            return 0
        if start:
            write(text["resuming"].format(done=start, deals=series.deals))
        for index in range(start, series.deals):
            mine, theirs = deal(series.deal_seed(index), series.rules).holdings
            write(
                text["train_deal"].format(
                    n=index + 1, deals=series.deals, seed=series.deal_seed(index)
                )
            )
            write(text["yours"].format(cards=format_cards(sorted(mine, reverse=True), lang=lang)))
            if theirs != mine:
                write(
                    text["theirs"].format(
                        cards=format_cards(sorted(theirs, reverse=True), lang=lang)
                    )
                )
            table = Table(mine, series.rules, lang)
            if not lay_out(table, read, write, lambda: write(text["no_hint"])):
                return 0
            result = grade(table.arrangement(), theirs, series.rules, solver=solver)
            _record(handle, series, index, result)
            for line in describe(result):
                write(line)
            tally.add(result.equilibrium_loss, result.verdict.value)
            write(tally.line(series, lang))
        write(text["series_done"].format(deals=series.deals))
        return 0
    finally:
        if handle is not None:
            handle.close()
