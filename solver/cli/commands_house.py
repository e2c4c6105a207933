"""The ``quintet house`` sub-command: the house rule's arrangement of a holding, graded.

Argument glue only: find the deal, lay it out by
:func:`solver.models.house.house_arrangement`, grade it
(:func:`solver.analysis.grade.grade`) and print the grade report, with the
rule in words on top.
"""

from __future__ import annotations

import argparse

from solver.app.command import Command
from solver.app.grading import house
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

__all__ = ["COMMANDS"]


def _house_arguments(parser: argparse.ArgumentParser) -> None:
    add_holdings_arguments(parser)
    add_book_arguments(parser)


def _house(args: argparse.Namespace) -> Output:
    rules = rules_from_args(args)
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
        flags={"book": "--book"},
    ),
]
