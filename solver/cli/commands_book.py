"""The ``quintet book`` sub-commands (``build``, ``stats``, ``check``).

The book options of other commands (``--book PATH``, ``--no-book``) are
:func:`solver.cli.commands.add_book_arguments`.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from solver.app.arguments import non_negative_int, positive_int
from solver.app.command import Command
from solver.app.report import Output
from solver.app.report_book import estimate_line, progress_line, rate_line
from solver.cli.commands import rules_from_args
from solver.cli.parsing import add_command_parser
from solver.cli.progress import Progress
from solver.cli.render import shown
from solver.util.json_text import to_json

if TYPE_CHECKING:  # the book's use cases are imported when a book command runs, not by
    # the commands that take --book (the build imports the process pool and the cluster)
    from solver.book.build import BuildProgress
    from solver.book.check import CheckProgress
    from solver.book.estimate import BuildEstimate

__all__ = ["COMMANDS"]

_FLAGS = {
    "book": "--book",
    "jobs": "--jobs",
    "scheduler": "--scheduler",
    "deals": "--deals",
    "classes": "--classes",
    "sample": "--sample",
    "out": "--out",
    "summary": "--out",
}


class _Progress:
    """The build's progress on stderr: rewritten in place on a terminal, else every 10 s."""

    def __init__(self) -> None:
        self.printer = Progress()
        self.printer.printed = True  # a log gets the build's final line, however short

    def __call__(self, progress: BuildProgress) -> None:
        self.printer.show(progress_line(progress), final=progress.done >= progress.total)


class _CheckProgress:
    """The check's rows done / total on stderr: rewritten in place on a terminal, else every 10 s."""

    def __init__(self) -> None:
        self.printer = Progress()

    def __call__(self, progress: CheckProgress) -> None:
        line = rate_line(progress.done, progress.total, progress.seconds, "rows checked")
        self.printer.show(line, final=progress.done >= progress.total)


def _say_estimate(estimate: BuildEstimate) -> None:
    """The build's cost, on stderr before the first solve (a log keeps it)."""
    print(estimate_line(estimate), file=sys.stderr, flush=True)


def _build_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--book",
        metavar="PATH",
        default=None,
        help="the book file (default: $XDG_CACHE_HOME/quintet-solver/book.sqlite)",
    )
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--deals", type=positive_int, metavar="N", help="N seeded deals")
    which.add_argument("--all", action="store_true", help="every mirror class (mirror mode)")
    which.add_argument(
        "--sample",
        type=positive_int,
        metavar="N",
        help="N mirror classes drawn uniformly with --seed (mirror mode)",
    )
    which.add_argument(
        "--classes",
        type=class_slice,
        metavar="START:STOP",
        help="mirror classes START to STOP - 1 of --all's order (mirror mode)",
    )
    parser.add_argument(
        "--seed", type=non_negative_int, default=0, help="seed of the deals (default 0)"
    )
    parser.add_argument(
        "--payoff",
        choices=["margin", "win", "both"],
        default="margin",
        help="the payoff(s) to solve each deal for (default margin)",
    )
    parser.add_argument("--jobs", type=positive_int, default=1, help="workers (default 1)")
    parser.add_argument(
        "--backend",
        choices=["local", "dask"],
        default="local",
        help="local processes (default) or a Dask cluster",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help="with --backend dask: a running scheduler (default: a local cluster of --jobs workers)",
    )


def class_slice(text: str) -> tuple[int, int]:
    """``START:STOP`` as a pair of class indices, START before STOP."""
    start, colon, stop = text.partition(":")
    if colon and start.isdigit() and stop.isdigit() and int(start) < int(stop):
        return int(start), int(stop)
    raise argparse.ArgumentTypeError(f"{text!r} is not START:STOP with START < STOP")


def _build(args: argparse.Namespace) -> Output:
    from solver.app.books import BookBuildRequest, build_book

    request = BookBuildRequest(
        path=args.book,
        rules=rules_from_args(args),
        payoff=args.payoff,
        deals=args.deals,
        classes=args.sample if args.sample is not None else args.classes,
        seed=args.seed,
        jobs=args.jobs,
        backend=args.backend,
        scheduler=args.scheduler,
    )
    return shown(build_book(request, on_progress=_Progress(), on_estimate=_say_estimate), args)


def _stats_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--book",
        metavar="PATH",
        default=None,
        help="the book file (default: $XDG_CACHE_HOME/quintet-solver/book.sqlite)",
    )


def _stats(args: argparse.Namespace) -> Output:
    from solver.app.books import BookStatsRequest, book_stats

    return shown(book_stats(BookStatsRequest(args.book)), args)


def _check(args: argparse.Namespace) -> Output:
    from solver.app.books import BookCheckRequest, check_book

    answer = check_book(BookCheckRequest(args.book), on_progress=_CheckProgress())
    output = shown(answer, args)
    if not answer.document["ok"]:  # the report, then exit status 1 (problems found)
        print(to_json(output.payload) if args.json else output.text)
        raise SystemExit(1)
    return output


def _summary_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", metavar="FILE", required=True, help="the summary's JSON file")
    parser.add_argument(
        "--book",
        metavar="PATH",
        default=None,
        help="the book file (default: $XDG_CACHE_HOME/quintet-solver/book.sqlite)",
    )
    parser.add_argument(
        "--sample",
        type=positive_int,
        metavar="N",
        default=None,
        help="the classes `book build --sample N --seed S` drew (default: every class stored)",
    )
    parser.add_argument(
        "--seed", type=non_negative_int, default=0, help="the sample's seed (default 0)"
    )
    parser.add_argument(
        "--bootstrap-seed",
        type=non_negative_int,
        default=0,
        help="the seed of the intervals' bootstrap (default 0)",
    )


def _summary(args: argparse.Namespace) -> Output:
    from solver.app.whole_game import SummaryBuildRequest, build_summary

    request = SummaryBuildRequest(
        out=args.out,
        book=args.book,
        sample=args.sample,
        sample_seed=args.seed,
        seed=args.bootstrap_seed,
    )
    return shown(build_summary(request), args)


def _book_arguments(parser: argparse.ArgumentParser) -> None:
    # The sub-commands take the usual output (and, for build, rule) options.
    actions = parser.add_subparsers(
        dest="book_command", metavar="ACTION", parser_class=type(parser)
    )
    actions.required = True
    for name, help_text, add, run, rules in (
        (
            "build",
            "solve and store canonical deals not yet in the book",
            _build_arguments,
            _build,
            True,
        ),
        (
            "stats",
            "what the book holds: coverage, solve times, equilibria ex ante",
            _stats_arguments,
            _stats,
            False,
        ),
        (
            "summary",
            "the whole game's statistics (orbit-weighted, 95%% intervals) from a book built over "
            "a sample of classes, as a small JSON file (the package ships one)",
            _summary_arguments,
            _summary,
            False,
        ),
        (
            "check",
            "SQLite's integrity check, every row decoded and its gap recomputed; "
            "exit 1 when damaged",
            _stats_arguments,
            _check,
            False,
        ),
    ):
        child = add_command_parser(actions, name, help_text, rules=rules)
        add(child)
        child.set_defaults(book_action=run, flags=_FLAGS)


def _book(args: argparse.Namespace) -> Output:
    output: Output = args.book_action(args)
    return output


COMMANDS: list[Command] = [
    Command(
        "book",
        "the solution book: solved canonical deals (build, stats, summary, check)",
        _book_arguments,
        _book,
        rules=False,
        flags=_FLAGS,
    ),
]
