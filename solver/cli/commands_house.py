"""The ``quintet house`` sub-command: the house rule's arrangement of a holding, graded.

Argument glue only: find the deal, lay it out by
:func:`solver.models.house.house_arrangement`, grade it
(:func:`solver.analysis.grade.grade`) and print the grade report, with the
rule in words on top.
"""

from __future__ import annotations

import argparse

from solver.analysis.grade import grade
from solver.cli.commands import Command, add_holdings_arguments, holdings_from_args, rules_from_args
from solver.cli.report import Output
from solver.cli.report_grade import GradeContext, grade_report
from solver.models.house import house_arrangement, house_rule

__all__ = ["COMMANDS"]


def _house(args: argparse.Namespace) -> Output:
    rules = rules_from_args(args)
    setup = holdings_from_args(args, rules)
    rule = house_rule(rules.n_packets)
    arrangement = house_arrangement(setup.mine, rules, rule)
    result = grade(arrangement, setup.theirs, rules, holding=setup.mine)
    context = GradeContext(rules, setup.mine, setup.theirs, setup.seed, setup.dealt)
    report = grade_report(result, context, args.lang)
    words = rule.describe()
    return Output(f"house rule: {words}\n{report.text}", {"house_rule": words, **report.payload})


COMMANDS: list[Command] = [
    Command(
        "house",
        "lay out a holding by the house rule (greedy packets, or packets keeping fours of a kind) and grade it",
        add_holdings_arguments,
        _house,
    ),
]
