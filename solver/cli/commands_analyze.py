"""``quintet analyze`` (a history of play, graded deal by deal) and ``quintet report``
(aggregate reports over the solution book).

Argument glue only: the use cases are :func:`solver.app.analyze.analyze` and
:func:`solver.app.study.study`.
"""

from __future__ import annotations

import argparse
import sys
import time

from solver.analysis.where import WHERE_HELP
from solver.app.analyze import AnalyzeRequest, analyze
from solver.app.analyze_jobs import POOL_THRESHOLD
from solver.app.arguments import auto_or_positive_int, non_negative_int, positive_int
from solver.app.command import Command
from solver.app.report import Output
from solver.app.study import StudyRequest, report_or_summary
from solver.app.whole_game import WholeGameRequest, whole_game
from solver.cli.commands import add_book_arguments, book_choice
from solver.cli.parsing import Formatter
from solver.cli.render import shown
from solver.util.json_text import to_json

__all__ = ["COMMANDS"]

_HISTORY_HELP = """\
FILE is a history of played deals, one of:
  JSON Lines: the lines `quintet train --history` writes, or records
    {"rules": {...}, "seed": S, "arrangement": [[...], ...]} where "seed" may be
    replaced by "holding" and "opponent_holding" (lists of card codes) and
    "opponent_arrangement" is optional;
  CSV (a file not starting with "{"): a header row naming some of the columns
    seed, holding, opponent_holding, mode, position_points, ace_low_straight,
    flush_beats_full_house, arrangement, opponent_arrangement
    ("seed" or "holding" and "arrangement" are required; mode mirror (default) or
    independent; position_points e.g. 3-4-5-6-7 (default); the options 0 or 1;
    arrangement "P1 | P2 | P3 | P4 | P5").
Lines that are not deals are reported by number (stderr) and skipped."""


class _Progress:
    """Deals graded, on stderr: in place on a terminal, else every 10 s (and at the end)."""

    def __init__(self) -> None:
        self.terminal = sys.stderr.isatty()
        self.last = time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        now, final = time.monotonic(), done >= total
        line = f"quintet: graded {done} of {total} deals"
        if self.terminal:
            sys.stderr.write(f"\r{line}   " + ("\n" if final else ""))
        elif (final and total >= 20) or now - self.last >= 10.0:
            sys.stderr.write(line + "\n")
            self.last = now
        sys.stderr.flush()


def _analyze_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = Formatter
    parser.epilog = _HISTORY_HELP
    parser.add_argument("history", metavar="FILE", help="the history (see below)")
    parser.add_argument("--top", type=positive_int, default=10, help="worst deals shown (10)")
    parser.add_argument(
        "--csv", metavar="OUT", default=None, help="write one row per deal to OUT as each finishes"
    )
    parser.add_argument(
        "--jobs", type=auto_or_positive_int, default="auto", metavar="N|auto",
        help="worker processes; auto (default): one per idle CPU this process may use, "
        f"none below {POOL_THRESHOLD} deals",
    )  # fmt: skip
    add_book_arguments(parser)


def _analyze(args: argparse.Namespace) -> Output:
    request = AnalyzeRequest(
        path=args.history, top=args.top, csv=args.csv, jobs=args.jobs, book=book_choice(args)
    )
    answer = analyze(request, on_progress=_Progress())
    output = shown(answer, args)
    if answer.document["interrupted"]:  # what was graded, then the interrupt's status
        print(to_json(output.payload) if args.json else output.text)
        sys.stdout.flush()
        raise SystemExit(130)
    return output


def _report_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--deals", type=positive_int, default=None, metavar="N",
        help="report on N seeded deals (solving those missing from the book) instead of the "
        "whole book",
    )  # fmt: skip
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed of --deals (0)")
    parser.add_argument(
        "--where", default=None, metavar="EXPR",
        help='only deals matching EXPR, e.g. "straight_flushes>=2 and aces<=3" (see '
        "`quintet report --help` below)",
    )  # fmt: skip
    parser.add_argument(
        "--payoff", choices=["margin", "win"], default="margin",
        help="the equilibria reported on (margin, default; or win)",
    )  # fmt: skip
    parser.add_argument("--plot", metavar="DIR", default=None, help="write PNG charts to DIR")
    parser.add_argument(
        "--summary", nargs="?", const="", default=None, metavar="FILE",
        help="the whole game's summary (FILE, or the one shipped with the package; "
        "shown anyway when there is no book)",
    )  # fmt: skip
    add_book_arguments(parser)
    parser.epilog = WHERE_HELP


def _report(args: argparse.Namespace) -> Output:
    from solver.cli.commands import rules_from_args

    if args.summary is not None:
        summary = WholeGameRequest(payoff=args.payoff, path=args.summary or None, plot=args.plot)
        return shown(whole_game(summary), args)
    request = StudyRequest(
        rules=rules_from_args(args),
        payoff=args.payoff,
        deals=args.deals,
        seed=args.seed,
        where=args.where,
        plot=args.plot,
        book=book_choice(args),
    )
    return shown(report_or_summary(request), args)


_FLAGS = {
    "top": "--top",
    "csv": "--csv",
    "jobs": "--jobs",
    "book": "--book",
    "path": "FILE",
    "summary": "--summary",
}

COMMANDS: list[Command] = [
    Command(
        "analyze",
        "grade every deal of a history of play (quintet train --history, or a CSV): "
        "summary, worst deals first, leaks",
        _analyze_arguments,
        _analyze,
        rules=False,
        flags=_FLAGS,
    ),
    Command(
        "report",
        "aggregate reports over the solution book (or --deals N seeded deals), weighted by "
        "orbit size: combinations and concessions by position, supports, game values",
        _report_arguments,
        _report,
        flags={
            "where": "--where",
            "deals": "--deals",
            "plot": "--plot",
            "book": "--book",
            "payoff": "--payoff",
        },
    ),
]
