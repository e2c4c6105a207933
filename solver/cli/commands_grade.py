"""The grading sub-commands of ``quintet``: ``grade`` and ``train``.

Argument glue only: find the deal, call :func:`solver.analysis.grade.grade`
or the training loop, pick the report.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from solver.analysis.grade import grade
from solver.cli.commands import (
    Command,
    add_holdings_arguments,
    holdings_from_args,
    non_negative_int,
    rules_from_args,
)
from solver.cli.commands_solve import positive_int
from solver.cli.report import Output
from solver.cli.report_grade import GradeContext, grade_lines, grade_report
from solver.errors import QuintetError
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


def _grade(args: argparse.Namespace) -> Output:
    rules = rules_from_args(args)
    arrangement = Arrangement.parse(args.arrangement, n_packets=rules.n_packets)
    dealt = args.cards is None and args.seed is not None and args.opponent_cards is None
    if args.cards is None and not dealt:
        # The holding is the arrangement's cards; the opponent's as for suggest.
        args = argparse.Namespace(
            **{**vars(args), "cards": format_cards(arrangement.cards, ascii=True)}
        )
    setup = holdings_from_args(args, rules)
    result = grade(arrangement, setup.theirs, rules, args.payoff, holding=setup.mine)
    context = GradeContext(rules, setup.mine, setup.theirs, setup.seed, setup.dealt)
    return grade_report(result, context, args.lang)


def _train_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deals", type=positive_int, default=10, help="deals (default 10)")
    parser.add_argument(
        "--seed",
        type=non_negative_int,
        default=None,
        help="seed of the series: deal k is the deal of seed + k (default: fresh, printed)",
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
        help="continue the series of --history after its last recorded deal",
    )


def _train(args: argparse.Namespace) -> None:
    from solver.cli.commands import fresh_seed
    from solver.play.training import Series, train

    if args.resume and args.history is None:
        raise QuintetError("--resume needs --history FILE.jsonl")
    seed = fresh_seed() if args.seed is None else args.seed
    series = Series(deals=args.deals, seed=seed, rules=rules_from_args(args))
    status = train(
        series,
        input,
        print,
        args.lang,
        describe=lambda grade: grade_lines(grade, args.lang, likely=3),
        history=None if args.history is None else Path(args.history),
        resume=args.resume,
    )
    if status:
        raise SystemExit(status)


COMMANDS: list[Command] = [
    Command(
        "grade",
        "grade an arrangement: what it loses against the equilibrium, how it can be "
        "punished, and the smallest change that helps most",
        _grade_arguments,
        _grade,
    ),
    Command(
        "train",
        "a series of deals: lay out your packets, see the grade, the suggested change and "
        "the equilibrium's most likely arrangements; progress kept in a history file",
        _train_arguments,
        _train,
        flags={"deals": "--deals", "history": "--history"},
    ),
]
