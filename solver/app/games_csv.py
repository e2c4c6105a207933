"""The tournament's CSV: one row per game, written as deals finish, resumable.

``quintet tournament --csv FILE`` writes the rows of each deal as soon as the
deal finishes (flushed), into a temporary file that replaces ``FILE`` at the
end, or when the run is interrupted (Ctrl-C): ``FILE`` then holds every
finished deal.  ``--resume`` reads the finished deals of ``FILE`` (all the
games of a deal, with the seed the tournament's ``--seed`` gives it),
copies them and plays only the others; the report covers the deals played
by this run, the CSV all of them.

>>> HEADER[:4]
['deal', 'seed', 'first', 'second']
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from itertools import combinations
from pathlib import Path
from typing import IO

from solver.errors import FileError
from solver.play.tournament import DealRecord, TournamentConfig, deal_seed
from solver.util.files import read_text_limited

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
    interrupt) is dropped.  Rows of another tournament are an error.

    >>> from solver.play.tournament import TournamentConfig
    >>> finished_deals("/nonexistent.csv", TournamentConfig(("greedy", "random"), 2, 0))
    Traceback (most recent call last):
        ...
    solver.errors.FileError: /nonexistent.csv: no such file
    """
    rows = list(csv.reader(read_text_limited(path, max_bytes=MAX_CSV_BYTES).splitlines()))
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
    """The CSV of a running tournament: rows on disk as each deal finishes.

    ``handle`` is the open (temporary) file, or None for no CSV; ``done``
    the rows of deals already played (``--resume``), copied first.
    :meth:`finish` rewrites the rows in deal order, so that the finished
    file is the same whatever the order in which workers finished.
    """

    def __init__(self, handle: IO[str] | None, done: dict[int, list[list[str]]]) -> None:
        self.handle, self.done = handle, done
        self.deals = len(done)  # deals written so far
        self._write(HEADER_ROWS + [row for index in sorted(done) for row in done[index]])

    def _write(self, rows: Iterable[Sequence[object]]) -> None:
        if self.handle is not None:
            csv.writer(self.handle).writerows(rows)
            self.handle.flush()  # on disk now: an interrupt keeps it

    def save(self, record: DealRecord) -> None:
        """Write the games of a finished deal."""
        self._write(game_rows(record))
        self.deals += 1

    def finish(self, records: Iterable[DealRecord]) -> None:
        """Rewrite every row in deal order (after a complete run)."""
        if self.handle is None:
            return
        by_deal: dict[int, list[Sequence[object]]] = {
            i: list(rows) for i, rows in self.done.items()
        }
        by_deal.update((record.index, game_rows(record)) for record in records)
        self.handle.seek(0)
        self.handle.truncate()
        self._write(HEADER_ROWS + [row for index in sorted(by_deal) for row in by_deal[index]])
