"""The ``quintet equilibrium`` sub-command: an exact equilibrium of the deal, certified.

Argument glue only: parse, make the request, show the progress, pick the report.
"""

from __future__ import annotations

import argparse
import sys

from solver.app.arguments import bounded_int, non_negative_float, positive_float
from solver.app.command import Command
from solver.app.limits import MAX_SHOW
from solver.app.report import Output
from solver.app.requests import EquilibriumRequest
from solver.app.solving import equilibrium
from solver.cli.commands import (
    add_book_arguments,
    add_holdings_arguments,
    book_choice,
    holdings_from_args,
    rules_from_args,
)
from solver.cli.render import shown
from solver.equilibria.equilibrium import DEFAULT_TOLERANCE, IterationRecord, Payoff
from solver.equilibria.simple_strategy import MAX_K

__all__ = ["COMMANDS"]


def _equilibrium_arguments(parser: argparse.ArgumentParser) -> None:
    add_holdings_arguments(parser)
    parser.add_argument(
        "--payoff",
        choices=[p.value for p in Payoff],
        default="margin",
        help="margin: points scored minus conceded (default); win: 1 for more points, "
        "1/2 for equal, 0 for fewer",
    )
    parser.add_argument(
        "--tolerance",
        type=non_negative_float,
        default=DEFAULT_TOLERANCE,
        metavar="T",
        help=f"stop when the certified gap is at most T (default {DEFAULT_TOLERANCE:g}: exact)",
    )
    parser.add_argument(
        "--time-limit",
        type=positive_float,
        default=None,
        metavar="S",
        help="stop after S seconds with the best strategies found and their honest gap",
    )
    parser.add_argument(
        "--out",
        metavar="FILE.json",
        default=None,
        help="write your strategy as a mixture file (for quintet suggest --against FILE.json)",
    )
    parser.add_argument(
        "--certificate",
        metavar="FILE.json",
        default=None,
        help="write the certificate: both strategies as exact fractions, best responses, "
        "value and bounds, for quintet verify FILE.json",
    )
    parser.add_argument(
        "--nfg",
        metavar="FILE.nfg",
        default=None,
        help="write the game the equilibrium supports span (both players' arrangements, "
        "exact payoffs) in Gambit's .nfg format",
    )
    parser.add_argument(
        "--ranges",
        action="store_true",
        help="also each listed arrangement's probability range over all optimal strategies, "
        "and whether the equilibrium is unique (two linear programs per arrangement: most "
        "of an independent deal's time)",
    )
    parser.add_argument(
        "--show",
        type=bounded_int(1, MAX_SHOW),
        default=10,
        metavar="N",
        help=f"how many of the most likely arrangements to list (default 10, at most {MAX_SHOW})",
    )
    _simple_arguments(parser)
    add_book_arguments(parser)


def _simple_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-support",
        type=bounded_int(1, MAX_K),
        default=None,
        metavar="K",
        help=f"also the best strategy found that mixes at most K arrangements (1 to {MAX_K}) "
        "and its certified exploitability: what a best-responding opponent takes from it",
    )


def _progress(record: IterationRecord) -> None:
    sys.stderr.write(
        f"\riteration {record.iteration}: strategies {record.row_strategies}/"
        f"{record.column_strategies}, gap {record.gap:.3g}, {record.seconds:.1f} s   "
    )
    sys.stderr.flush()


def _equilibrium(args: argparse.Namespace) -> Output:
    rules = rules_from_args(args)
    request = EquilibriumRequest(
        holdings=holdings_from_args(args, rules),
        rules=rules,
        payoff=args.payoff,
        tolerance=args.tolerance,
        time_limit=args.time_limit,
        show=args.show,
        out=args.out,
        book=book_choice(args),
        certificate=args.certificate,
        nfg=args.nfg,
        ranges=args.ranges,
        max_support=args.max_support,
    )
    show_progress = sys.stderr.isatty() and not args.json
    shown_records: list[IterationRecord] = []  # progress lines printed (none for a book lookup)

    def progress(record: IterationRecord) -> None:
        shown_records.append(record)
        _progress(record)

    answer = equilibrium(request, on_record=progress if show_progress else None)
    if shown_records:
        sys.stderr.write("\n")
    return shown(answer, args)


COMMANDS: list[Command] = [
    Command(
        "equilibrium",
        "an exact equilibrium of the deal: a mixed strategy no opponent can exploit, "
        "with its certificate",
        _equilibrium_arguments,
        _equilibrium,
        flags={
            "tolerance": "--tolerance",
            "time_limit": "--time-limit",
            "payoff": "--payoff",
            "book": "--book",
            "certificate": "--certificate",
            "nfg": "--nfg",
            "ranges": "--ranges",
            "max_support": "--max-support",
        },
    ),
]
