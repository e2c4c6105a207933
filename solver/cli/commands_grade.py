"""The grading sub-commands of ``quintet``: ``grade`` and ``train``.

Argument glue only: find the deal, call :func:`solver.analysis.grade.grade`
or the training loop, pick the report.  The deals' equilibria come from the
solution book (``--book PATH``, ``--no-book``) through
:class:`solver.book.source.EquilibriumSource`; each report says whether
they were looked up or solved (and stored).
"""

from __future__ import annotations

import argparse

from solver.app.arguments import non_negative_int, positive_int
from solver.app.command import Command
from solver.app.grading import grade_arrangement
from solver.app.report import Output
from solver.app.requests import GradeRequest, holdings
from solver.app.sessions import DEFAULT_TRAIN_DEALS, TrainRequest, train_series
from solver.cli.commands import (
    add_book_arguments,
    add_holdings_arguments,
    book_choice,
    rules_from_args,
)
from solver.cli.render import shown, warner
from solver.game.arrangement import Arrangement
from solver.game.cards import format_cards

__all__ = ["COMMANDS"]


def _grade_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "arrangement", metavar="ARRANGEMENT", help='your arrangement, "P1 | P2 | P3 | P4 | P5"'
    )
    add_holdings_arguments(parser)
    parser.add_argument(
        "--payoff",
        choices=["margin", "win"],
        default="margin",
        help="margin: grade by the points lost against the margin equilibrium (default); "
        "win: also the win probability lost against the win equilibrium",
    )
    add_book_arguments(parser)


def _grade(args: argparse.Namespace) -> Output:
    rules = rules_from_args(args)
    arrangement = Arrangement.parse(args.arrangement, n_packets=rules.n_packets)
    dealt = args.cards is None and args.seed is not None and args.opponent_cards is None
    cards = args.cards
    if cards is None and not dealt:
        # The holding is the arrangement's cards; the opponent's as for suggest.
        cards = format_cards(arrangement.cards, ascii=True)
    request = GradeRequest(
        holdings=holdings(cards, args.opponent_cards, args.seed, rules),
        rules=rules,
        arrangement=args.arrangement,
        payoff=args.payoff,
        book=book_choice(args),
    )
    return shown(grade_arrangement(request), args)


def _train_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--deals",
        type=positive_int,
        default=None,
        help=f"deals (default {DEFAULT_TRAIN_DEALS}; with --resume, the history's)",
    )
    parser.add_argument(
        "--seed",
        type=non_negative_int,
        default=None,
        help="seed of the series: deal k is the deal of seed + k (default: fresh, printed; "
        "with --resume, the history's)",
    )
    parser.add_argument(
        "--history",
        metavar="FILE.jsonl",
        default=None,
        help="append every graded deal to FILE.jsonl (one JSON line each, written at once)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue the series of --history after its last recorded deal (its seed "
        "and deals as recorded)",
    )
    add_book_arguments(parser)


def _train(args: argparse.Namespace) -> None:
    request = TrainRequest(
        deals=args.deals,
        seed=args.seed,
        rules=rules_from_args(args),
        history=args.history,
        resume=args.resume,
        book=book_choice(args),
        lang=args.lang,
    )
    status = train_series(request, input, print, warner(args.flags, args.lang))
    if status:
        raise SystemExit(status)


COMMANDS: list[Command] = [
    Command(
        "grade",
        "grade an arrangement: what it loses against the equilibrium, how it can be "
        "punished, and the smallest change that helps most",
        _grade_arguments,
        _grade,
        flags={"book": "--book"},
    ),
    Command(
        "train",
        "a series of deals: lay out your packets, see the grade, the suggested change and "
        "the equilibrium's most likely arrangements; progress kept in a history file",
        _train_arguments,
        _train,
        flags={"deals": "--deals", "history": "--history", "resume": "--resume", "book": "--book"},
        # Its output is a dialogue, not a document; the history file is the JSON.
        no_json="--json is not available in the interactive series "
        "(--history FILE.jsonl keeps its records as JSON)",
    ),
]
