"""The grading sub-commands of ``quintet``: ``grade`` and ``train``.

Argument glue only: find the deal, call :func:`solver.analysis.grade.grade`
or the training loop, pick the report.
"""

from __future__ import annotations

import argparse

from solver.analysis.grade import grade
from solver.cli.commands import Command, add_holdings_arguments, holdings_from_args, rules_from_args
from solver.cli.report import Output
from solver.cli.report_grade import GradeContext, grade_report
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


COMMANDS: list[Command] = [
    Command(
        "grade",
        "grade an arrangement: what it loses against the equilibrium, how it can be "
        "punished, and the smallest change that helps most",
        _grade_arguments,
        _grade,
    ),
]
