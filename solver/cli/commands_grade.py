"""The grading sub-commands of ``quintet``: ``grade`` and ``train``.

Argument glue only: find the deal, call :func:`solver.analysis.grade.grade`
or the training loop, pick the report.  The deals' equilibria come from the
solution book (``--book PATH``, ``--no-book``) through
:class:`solver.analysis.solutions.BookSolutions`; each report says whether
they were looked up or solved (and stored).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from solver.analysis.grade import Grade, grade
from solver.analysis.solutions import BookSolutions
from solver.cli.arguments import non_negative_int, positive_int
from solver.cli.commands import (
    Command,
    Setup,
    add_holdings_arguments,
    holdings_from_args,
    rules_from_args,
)
from solver.cli.commands_book import add_book_arguments, with_source
from solver.cli.report import Output
from solver.cli.report_book import source_line
from solver.cli.report_grade import GradeContext, grade_lines, grade_report
from solver.equilibria.equilibrium import Payoff
from solver.errors import QuintetError
from solver.game.arrangement import Arrangement
from solver.game.cards import format_cards
from solver.game.rules import Rules

__all__ = [
    "COMMANDS",
    "described_with_source",
    "from_book",
    "grade_output",
    "solutions_from_args",
]


def solutions_from_args(args: argparse.Namespace) -> BookSolutions:
    """The deals' equilibria through the book of ``--book`` (none with ``--no-book``)."""
    return BookSolutions(args.book, use_book=not args.no_book)


def from_book(solutions: BookSolutions, result: Grade) -> bool:
    """Whether every equilibrium ``result`` was graded against came from the book."""
    payoffs = [Payoff.MARGIN] + ([Payoff.WIN] if result.win_equilibrium is not None else [])
    mine, theirs, rules = result.arrangement.cards, result.opponent_holding, result.rules
    return all(solutions.from_book(mine, theirs, rules, payoff) for payoff in payoffs)


def described_with_source(
    solutions: BookSolutions, describe: Callable[[Grade], list[str]]
) -> Callable[[Grade], list[str]]:
    """``describe``, then where the grade's equilibrium came from (``book: ...``)."""

    def lines(result: Grade) -> list[str]:
        return [*describe(result), source_line(solutions.path, from_book(solutions, result))]

    return lines


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
    if args.cards is None and not dealt:
        # The holding is the arrangement's cards; the opponent's as for suggest.
        args = argparse.Namespace(
            **{**vars(args), "cards": format_cards(arrangement.cards, ascii=True)}
        )
    setup = holdings_from_args(args, rules)
    return grade_output(
        setup,
        rules,
        args.lang,
        arrangement=arrangement,
        payoff=args.payoff,
        book=args.book,
        use_book=not args.no_book,
    )


def grade_output(
    setup: Setup,
    rules: Rules,
    lang: str,
    *,
    arrangement: Arrangement | str,
    payoff: str = "margin",
    book: str | None = None,
    use_book: bool = True,
    time_limit: float | None = None,
) -> Output:
    """The ``grade`` report of ``arrangement`` of ``setup.mine`` (argparse-free).

    The deal's equilibria come through the book at ``book`` (None: the
    default book; none at all without ``use_book``); the report says which.
    ``time_limit`` bounds a solve (the grade then names the gap reached).
    """
    if isinstance(arrangement, str):
        arrangement = Arrangement.parse(arrangement, n_packets=rules.n_packets)
    solutions = BookSolutions(book, use_book=use_book, time_limit=time_limit)
    result = grade(arrangement, setup.theirs, rules, payoff, holding=setup.mine, solver=solutions)
    context = GradeContext(rules, setup.mine, setup.theirs, setup.seed, setup.dealt)
    output = grade_report(result, context, lang)
    return with_source(output, solutions.path, from_book(solutions, result))


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
    add_book_arguments(parser)


def _train(args: argparse.Namespace) -> None:
    from solver.cli.commands import fresh_seed
    from solver.play.training import Series, train

    if args.resume and args.history is None:
        raise QuintetError("--resume needs --history FILE.jsonl")
    seed = fresh_seed() if args.seed is None else args.seed
    series = Series(deals=args.deals, seed=seed, rules=rules_from_args(args))
    solutions = solutions_from_args(args)
    status = train(
        series,
        input,
        print,
        args.lang,
        describe=described_with_source(
            solutions, lambda grade: grade_lines(grade, args.lang, likely=3)
        ),
        history=None if args.history is None else Path(args.history),
        resume=args.resume,
        solver=solutions,
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
        flags={"book": "--book"},
    ),
    Command(
        "train",
        "a series of deals: lay out your packets, see the grade, the suggested change and "
        "the equilibrium's most likely arrangements; progress kept in a history file",
        _train_arguments,
        _train,
        flags={"deals": "--deals", "history": "--history", "book": "--book"},
    ),
]
