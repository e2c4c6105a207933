"""The tournament's CSV: one row per game, written as deals finish, resumable.

``quintet tournament --csv FILE`` writes the rows of each deal as soon as the
deal finishes, appended to ``FILE`` itself and flushed: a run stopped by
Ctrl-C, SIGHUP, SIGKILL or the OOM killer leaves every finished deal in
``FILE`` (at worst a last row cut short, ignored on resume).  At the end
``FILE`` is replaced atomically by the same rows in deal order.  ``--resume`` reads the finished deals of ``FILE`` (all the
games of a deal, with the seed the tournament's ``--seed`` gives it),
copies them and plays only the others; the report covers the deals played
by this run, the CSV all of them.

>>> HEADER[:4]
['deal', 'seed', 'first', 'second']
"""

from __future__ import annotations

import contextlib
import csv
from collections.abc import Iterable, Sequence
from itertools import combinations
from pathlib import Path
from typing import IO

from solver.errors import FileError
from solver.play.tournament import DealRecord, TournamentConfig, deal_seed
from solver.util.files import atomic_output, read_text_limited

__all__ = ["HEADER", "MAX_CSV_BYTES", "GamesCsv", "finished_deals", "game_rows"]

HEADER = [
    "deal",
    "seed",
    "first",
    "second",
    "first_seat",
    "first_points",
    "second_points",
    "margin",
]

HEADER_ROWS: list[Sequence[object]] = [list(HEADER)]

# A CSV to resume larger than this is refused (100,000 deals of all six
# players take about 130 MB).
MAX_CSV_BYTES = 256 * 1024 * 1024


def game_rows(record: DealRecord) -> list[Sequence[object]]:
    """The CSV rows of one deal: one per game."""
    return [
        [
            record.index,
            record.seed,
            game.first,
            game.second,
            game.first_seat + 1,
            game.points[0],
            game.points[1],
            game.margin,
        ]
        for game in record.games
    ]


def finished_deals(path: str | Path, config: TournamentConfig) -> dict[int, list[list[str]]]:
    """The rows of each deal of ``path`` that the tournament ``config`` finished.

    A deal counts when it has every game of every pair in both seats and the
    seed ``config`` deals it with; an incomplete last deal (cut by an
    interrupt or a kill) and a last line without its end of line are
    dropped.  Rows of another tournament are an error.

    >>> from solver.play.tournament import TournamentConfig
    >>> finished_deals("/nonexistent.csv", TournamentConfig(("greedy", "random"), 2, 0))
    Traceback (most recent call last):
        ...
    solver.errors.FileError: /nonexistent.csv: no such file
    """
    text = read_text_limited(path, max_bytes=MAX_CSV_BYTES)
    lines = text.splitlines()
    if lines and not text.endswith("\n"):
        lines.pop()  # a last row cut short by a kill or a full disk
    rows = list(csv.reader(lines))
    if not rows or rows[0] != HEADER:
        raise FileError(f"{path}: not a tournament CSV (its first row is not the header)")
    games = {(a, b, seat) for a, b in combinations(config.players, 2) for seat in ("1", "2")}
    by_deal: dict[int, list[list[str]]] = {}
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != len(HEADER):
            continue  # a row cut by an interrupt
        try:
            index, seed = int(row[0]), int(row[1])
        except ValueError:
            raise FileError(f"{path}: line {number}: deal and seed must be integers") from None
        if not 0 <= index < config.deals or seed != deal_seed(config.seed, index):
            raise FileError(
                f"{path}: line {number}: deal {index} is not one of this tournament's "
                "deals (other deals or another seed?)"
            )
        if (row[2], row[3], row[4]) not in games:
            raise FileError(
                f"{path}: line {number}: {row[2]} vs {row[3]} is not a game of these players"
            )
        by_deal.setdefault(index, []).append(row)
    return {
        index: deal_rows
        for index, deal_rows in by_deal.items()
        if {(r[2], r[3], r[4]) for r in deal_rows} == games
    }


class GamesCsv:
    """The CSV of a running tournament: rows in ``FILE`` itself as each deal finishes.

    ``path`` is the CSV (None for no CSV); ``done`` the rows of deals already
    played (``--resume``).  ``FILE`` is untouched until the first new deal
    finishes; it is then replaced atomically by the header, the rows of
    ``done`` and that deal's (so that a row cut by a kill, or the rows of a
    deal left incomplete, are gone), and each later deal's rows are
    appended and flushed: a SIGKILL or SIGHUP keeps every finished deal.
    :meth:`finish` replaces the file, atomically, with every row in deal
    order, so that the finished file is the same whatever the order in
    which workers finished.  Use it as a context manager (the appending
    handle is closed at the end).
    """

    def __init__(self, path: str | Path | None, done: dict[int, list[list[str]]]) -> None:
        self.path = None if path is None else Path(path)
        self.done = done
        self.deals = len(done)  # deals in the file so far
        self._handle: IO[str] | None = None

    def __enter__(self) -> GamesCsv:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the appending handle (the rows are on disk already)."""
        handle, self._handle = self._handle, None
        if handle is not None:
            with contextlib.suppress(OSError):
                handle.close()

    def _rows_in_order(self, extra: dict[int, list[Sequence[object]]]) -> list[Sequence[object]]:
        by_deal: dict[int, list[Sequence[object]]] = {i: list(r) for i, r in self.done.items()}
        by_deal.update(extra)
        return HEADER_ROWS + [row for index in sorted(by_deal) for row in by_deal[index]]

    def save(self, record: DealRecord) -> None:
        """Write the games of a finished deal, flushed to ``FILE``."""
        if self.path is not None:
            if self._handle is None:
                with atomic_output(self.path) as handle:
                    csv.writer(handle).writerows(
                        self._rows_in_order({record.index: game_rows(record)})
                    )
                self._handle = self._open_appending(self.path)
            else:
                try:
                    csv.writer(self._handle).writerows(game_rows(record))
                    self._handle.flush()  # in the kernel now: a kill keeps it
                except OSError as error:
                    raise FileError(f"{self.path}: cannot write: {error.strerror}") from None
        self.deals += 1

    @staticmethod
    def _open_appending(path: Path) -> IO[str]:
        try:
            return path.open("a", encoding="utf-8", newline="")
        except OSError as error:
            raise FileError(f"{path}: cannot write: {error.strerror}") from None

    def finish(self, records: Iterable[DealRecord]) -> None:
        """Replace ``FILE`` atomically by every row in deal order (after a complete run)."""
        self.close()
        if self.path is None:
            return
        rows = self._rows_in_order({record.index: game_rows(record) for record in records})
        with atomic_output(self.path) as handle:
            csv.writer(handle).writerows(rows)
