"""The ``quintet suggest`` sub-command: the best arrangement against an opponent model.

Argument glue only: parse, make the request, pick the report.
"""

from __future__ import annotations

import argparse
import sys

from solver.app.arguments import bounded_int, positive_float
from solver.app.command import Command
from solver.app.limits import MAX_SAMPLES, MAX_TOP, MAX_WORKERS, TOP_TIME_LIMIT
from solver.app.report import Output
from solver.app.report_suggest import top_progress_line
from solver.app.requests import SuggestRequest, fixed_from_text
from solver.app.suggesting import suggest
from solver.cli.commands import (
    add_book_arguments,
    add_holdings_arguments,
    book_choice,
    holdings_from_args,
    rules_from_args,
)
from solver.cli.progress import Progress
from solver.cli.render import shown
from solver.equilibria.payoff import Payoff
from solver.models.opponents import Objective
from solver.response.best_response import DEFAULT_SAMPLES
from solver.response.frontier_top import TopProgress
from solver.util.json_text import to_json

__all__ = ["COMMANDS"]

AGAINST_HELP = (
    "the opponent model: random (arranges uniformly at random, default), greedy "
    "(strongest packet first, weakest at position 1), house (the house rule), known (the "
    "arrangement given with --known), a mixture file FILE.json (as written by quintet equilibrium --out), "
    "or equilibrium (play an arrangement sampled from your equilibrium strategy)"
)


def _suggest_arguments(parser: argparse.ArgumentParser) -> None:
    add_holdings_arguments(parser)
    _opponent_arguments(parser)
    _search_arguments(parser)


def _opponent_arguments(parser: argparse.ArgumentParser) -> None:
    """--against, --known, --objective and --payoff: whom to answer, and for what."""
    parser.add_argument("--against", default=None, metavar="MODEL", help=AGAINST_HELP)
    parser.add_argument(
        "--known",
        metavar='"P1 | ... | P5"',
        default=None,
        help="the opponent's arrangement (implies --against known)",
    )
    parser.add_argument(
        "--objective",
        choices=[o.value for o in Objective],
        default=None,
        help="points: expected points scored; margin: points scored minus conceded "
        "(default); win: probability of more points than the opponent; game: win 1, "
        "draw 1/2, loss 0",
    )
    parser.add_argument(
        "--payoff",
        choices=[p.value for p in Payoff],
        default=None,
        help="with --against equilibrium: the payoff of the game (default margin)",
    )
    add_book_arguments(parser)


def _search_arguments(parser: argparse.ArgumentParser) -> None:
    """How to search: time limit, runners-up, fixed packets, samples, workers, engine."""
    parser.add_argument(
        "--time-limit",
        type=positive_float,
        default=None,
        metavar="S",
        help="stop after S seconds with the best arrangement found and its gap (with --top K "
        f"above 1 the default is {TOP_TIME_LIMIT:g} s)",
    )
    parser.add_argument(
        "--top",
        type=bounded_int(1, MAX_TOP),
        default=1,
        metavar="K",
        help="also show the runners-up: the K best arrangements with distinct strength "
        f"profiles (at most {MAX_TOP}); progress on stderr, Ctrl-C keeps the best found",
    )
    parser.add_argument(
        "--fix",
        action="append",
        metavar="POS=CARDS",
        help='a packet already decided, e.g. --fix 5="As Ks Qs Js Ts" (repeatable)',
    )
    parser.add_argument(
        "--samples",
        type=bounded_int(1, MAX_SAMPLES),
        default=None,
        metavar="K",
        help="for win or game against a random opponent: arrangements sampled to "
        f"optimize against (default {DEFAULT_SAMPLES}, at most {MAX_SAMPLES})",
    )
    parser.add_argument(
        "--workers",
        type=bounded_int(1, MAX_WORKERS),
        default=None,
        help=f"CP-SAT search workers (default 2, at most {MAX_WORKERS})",
    )
    parser.add_argument(
        "--engine",
        choices=["auto", "cpsat", "frontier"],
        default="auto",
        help="auto (default): frontier; cpsat: CP-SAT proves optimality (--top, "
        "--time-limit, --workers); frontier: the best of the holding's frontier strategies, "
        "exhaustive and usually much faster (with --top, CP-SAT searches below what it found)",
    )


class _TopProgress:
    """A search for runners-up on stderr: what it will do, then its progress.

    On a terminal the estimate is a line of its own at once; in a log (progress.py's
    convention: a short run prints nothing) it comes with the first progress line, 10 s in.
    """

    def __init__(self, lang: str) -> None:
        self.printer, self.lang = Progress(), lang
        self.estimate: str | None = None
        self.last: TopProgress | None = None

    def __call__(self, progress: TopProgress) -> None:
        if self.estimate is None:
            self.estimate = top_progress_line(progress, self.lang, estimate=True)
            if self.printer.terminal and not self.printer.silent:
                self.printer.write(self.estimate + "\n")
            return
        self.last = progress
        self._show(final=False)

    def _show(self, final: bool) -> None:
        assert self.last is not None and self.estimate is not None
        line = top_progress_line(self.last, self.lang)
        if not self.printer.terminal and not self.printer.printed:
            line = f"{self.estimate}\n{line}"  # a log's first line, when there is one
        self.printer.show(line, final=final)

    def end(self) -> None:
        """The last line, ended (when the search showed progress)."""
        if self.last is not None:
            self._show(final=True)


def _suggest(args: argparse.Namespace) -> Output:
    rules = rules_from_args(args)
    request = SuggestRequest(
        holdings=holdings_from_args(args, rules),
        rules=rules,
        against=args.against,
        known=args.known,
        objective=args.objective,
        payoff=args.payoff,
        time_limit=args.time_limit,
        top=args.top,
        fixed=fixed_from_text(args.fix),
        samples=args.samples,
        workers=args.workers,
        engine=args.engine,
        book=book_choice(args),
    )
    progress = _TopProgress(args.lang)
    try:
        answer = suggest(request, on_progress=progress)
    finally:
        progress.end()
    output = shown(answer, args)
    if any(w.message.startswith("interrupted") for w in answer.warnings):
        # What was found, then the interrupt's status (as analyze does).
        print(to_json(output.payload) if args.json else output.text)
        sys.stdout.flush()
        raise SystemExit(130)
    return output


COMMANDS: list[Command] = [
    Command(
        "suggest",
        "the best arrangement of your cards against an opponent model, proven optimal",
        _suggest_arguments,
        _suggest,
        flags={
            "fixed": "--fix",
            "k": "--top",
            "top": "--top",
            "time_limit": "--time-limit",
            "workers": "--workers",
            "samples": "--samples",
            "engine": "--engine",
            "against": "--against",
            "known": "--known",
            "objective": "--objective",
            "payoff": "--payoff",
            "book": "--book",
        },
    ),
]
