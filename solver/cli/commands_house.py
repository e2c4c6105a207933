"""The ``quintet house`` sub-command: the house rule's arrangement of a holding, graded.

Argument glue only: find the deal, lay it out by
:func:`solver.models.house.house_arrangement`, grade it
(:func:`solver.analysis.grade.grade`) and print the grade report, with the
rule in words on top.  With ``--mixed``, the mixed house rule (a house rule
per die face, :mod:`solver.app.house_mixed`): its layouts, the layout of
``--roll FACE``, and its exact exploitability and equilibrium loss.
"""

from __future__ import annotations

import argparse

from solver.app.arguments import positive_int
from solver.app.command import Command
from solver.app.grading import house
from solver.app.house_mixed import MixedHouseRequest, mixed_house
from solver.app.report import Output
from solver.app.requests import GradeRequest
from solver.cli.commands import (
    add_book_arguments,
    add_holdings_arguments,
    book_choice,
    holdings_from_args,
    rules_from_args,
)
from solver.cli.render import shown
from solver.errors import UsageError

__all__ = ["COMMANDS"]


def _house_arguments(parser: argparse.ArgumentParser) -> None:
    add_holdings_arguments(parser)
    add_book_arguments(parser)
    parser.add_argument(
        "--mixed",
        action="store_true",
        help="the mixed house rule: a house rule per die face, its layouts and exact exploitability",
    )
    parser.add_argument(
        "--roll",
        metavar="FACE",
        type=positive_int,
        default=None,
        help="with --mixed: the face the die shows (1-6); prints the layout to play",
    )


def _house(args: argparse.Namespace) -> Output:
    rules = rules_from_args(args)
    if args.roll is not None and not args.mixed:
        raise UsageError("quintet house: --roll needs --mixed")
    if args.mixed:
        mixed = MixedHouseRequest(
            holdings=holdings_from_args(args, rules),
            rules=rules,
            roll=args.roll,
            book=book_choice(args),
        )
        return shown(mixed_house(mixed), args)
    request = GradeRequest(
        holdings=holdings_from_args(args, rules),
        rules=rules,
        arrangement="",
        book=book_choice(args),
    )
    return shown(house(request), args)


COMMANDS: list[Command] = [
    Command(
        "house",
        "lay out a holding by the house rule (greedy packets, or packets keeping fours of a kind) and grade it",
        _house_arguments,
        _house,
        flags={"book": "--book", "face": "--roll"},
    ),
]
