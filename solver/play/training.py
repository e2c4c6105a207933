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

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from solver.analysis.grade import Grade, Verdict, grade
from solver.analysis.payloads import grade_payload
from solver.book.source import EquilibriumSolver
from solver.errors import QuintetError
from solver.game.cards import format_cards
from solver.game.deal import deal
from solver.game.payloads import rules_payload
from solver.game.rules import Rules
from solver.play.interactive import Table, lay_out
from solver.play.phrases import TEXT, VERDICTS
from solver.schemas import FORMATS
from solver.util.language import Lang

__all__ = ["FORMAT", "Series", "Tally", "read_history", "train"]

FORMAT = FORMATS["train"]


@dataclass(frozen=True)
class Series:
    """A training series: how many deals, from which seed, under which rules."""

    deals: int
    seed: int
    rules: Rules

    def __post_init__(self) -> None:
        if self.deals < 1:
            raise QuintetError(f"deals must be at least 1, got {self.deals}", argument="deals")

    def deal_seed(self, index: int) -> int:
        """The seed of deal ``index`` (from 0)."""
        return self.seed + index

    def header(self) -> dict[str, Any]:
        """What every history line repeats about the series."""
        return {
            "format": FORMAT,
            "seed": self.seed,
            "deals": self.deals,
            "rules": rules_payload(self.rules),
        }


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


def read_history(path: Path, series: Series) -> list[dict[str, Any]]:
    """The records of ``path`` (none if it is missing), checked against ``series``.

    Raises
    ------
    QuintetError
        If a line is not a record of this series (another seed, count or
        rules), or not JSON.
    """
    if not path.exists():
        return []
    records = []
    header = series.header()
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise QuintetError(f"history {path}: cannot read: {error}", argument="history") from None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            raise QuintetError(
                f"history {path}: line {number} is not JSON", argument="history"
            ) from None
        if not isinstance(record, dict) or any(record.get(k) != v for k, v in header.items()):
            raise QuintetError(
                f"history {path}: line {number} is from another series (seed, deals or rules "
                f"differ from seed {series.seed}, {series.deals} deals)",
                argument="history",
            )
        records.append(record)
    return records


def _open_history(
    path: Path | None, resume: bool, series: Series
) -> tuple[IO[str] | None, list[dict[str, Any]]]:
    """The history opened for appending (checked writable) and its records."""
    if path is None:
        return None, []
    records = read_history(path, series)
    if records and not resume:
        raise QuintetError(
            f"history {path} already holds {len(records)} deal(s); resume it or choose "
            "another file",
            argument="history",
        )
    try:
        handle = path.open("a", encoding="utf-8")
    except OSError as error:
        raise QuintetError(
            f"history {path}: cannot write: {error.strerror}", argument="history"
        ) from None
    return handle, records


def _record(handle: IO[str] | None, series: Series, index: int, result: Grade) -> None:
    if handle is None:
        return
    line = {**series.header(), "deal": index, "deal_seed": series.deal_seed(index)}
    line["grade"] = grade_payload(result)
    handle.write(json.dumps(line, ensure_ascii=True) + "\n")
    handle.flush()  # graded deals survive Ctrl-C and the end of input


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
) -> int:
    """Play a training series on a console; return the exit status (0).

    ``describe`` turns a grade into the lines shown after each deal;
    ``solver`` gives the deals' equilibria (as for :func:`~solver.analysis.grade.grade`).
    """
    text = TEXT[Lang(lang)]
    handle, records = _open_history(history, resume, series)
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
