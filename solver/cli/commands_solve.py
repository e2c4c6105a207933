"""The solver sub-commands of ``quintet``: ``suggest`` (and ``equilibrium``).

Argument glue only: parse, build the opponent model, call the library,
pick the report.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

from solver.cli.arguments import non_negative_float, positive_float
from solver.cli.commands import (
    Command,
    Setup,
    add_holdings_arguments,
    holdings_from_args,
    rules_from_args,
)
from solver.cli.commands_book import add_book_arguments, equilibrium_from_book, with_source
from solver.cli.limits import MAX_SAMPLES, MAX_SHOW, MAX_TOP, MAX_WORKERS, bounded_int
from solver.cli.report import Output
from solver.cli.report_solve import SuggestContext, equilibrium_report, suggest_report
from solver.equilibria.equilibrium import DEFAULT_TOLERANCE, IterationRecord, Payoff
from solver.errors import MixtureError, QuintetError, SolverError
from solver.game.arrangement import Arrangement
from solver.game.cards import parse_cards
from solver.game.rules import Rules
from solver.models.heuristics import greedy_arrangement
from solver.models.house import house_arrangement
from solver.models.mixture import read_mixture, write_mixture
from solver.models.opponents import Objective, Opponent, OpponentKind
from solver.play.players import equilibrium_mixture, equilibrium_response
from solver.response.best_response import DEFAULT_SAMPLES, top_responses
from solver.response.frontier_response import frontier_best_response
from solver.util.files import check_output_path

__all__ = ["COMMANDS", "equilibrium_output", "opponent_from_args", "parse_fix", "suggest_output"]

AGAINST_HELP = (
    "the opponent model: random (arranges uniformly at random, default), greedy "
    "(strongest packet first, weakest at position 1), house (the house rule), known (the "
    "arrangement given with --known), a mixture file FILE.json (as written by quintet equilibrium --out), "
    "or equilibrium (play an arrangement sampled from your equilibrium strategy)"
)


def parse_fix(items: list[str] | None, rules: Rules) -> dict[int, tuple[int, ...]]:
    """``POS=CARDS`` strings as ``{position: cards}``.

    >>> parse_fix(["5=As Ks Qs Js Ts"], Rules())
    {5: (31, 27, 23, 19, 15)}
    >>> parse_fix(["As Ks"], Rules())
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: --fix 'As Ks': expected POS=CARDS, e.g. 5="As Ks Qs Js Ts"
    """
    fixed: dict[int, tuple[int, ...]] = {}
    for item in items or []:
        position_text, sep, cards_text = item.partition("=")
        if not sep:
            raise SolverError(f'--fix {item!r}: expected POS=CARDS, e.g. 5="As Ks Qs Js Ts"')
        try:
            position = int(position_text)
        except ValueError:
            raise SolverError(
                f"--fix {item!r}: position {position_text!r} is not a number"
            ) from None
        if position in fixed:
            raise SolverError(f"--fix: position {position} is fixed twice")
        fixed[position] = parse_cards(cards_text)
    return fixed


def opponent_from_args(
    against: str, known: str | None, setup: Setup, rules: Rules
) -> tuple[Opponent, str]:
    """The opponent model named by ``--against`` (and ``--known``), and its description."""
    if against == "random":
        return Opponent.random(setup.theirs, rules), "random"
    if against == "greedy":
        arrangement = greedy_arrangement(setup.theirs, rules)
        opponent = Opponent.known(
            arrangement, rules, holding=setup.theirs, kind=OpponentKind.GREEDY
        )
        return opponent, f"greedy ({arrangement.format()})"
    if against == "house":
        arrangement = house_arrangement(setup.theirs, rules)
        opponent = Opponent.known(arrangement, rules, holding=setup.theirs)
        return opponent, f"house ({arrangement.format()})"
    if against == "known":
        if known is None:
            raise SolverError('--against known needs --known "P1 | P2 | P3 | P4 | P5"')
        arrangement = Arrangement.parse(known, n_packets=rules.n_packets)
        return Opponent.known(arrangement, rules, holding=setup.theirs), "known"
    if against.endswith(".json") or Path(against).exists():
        mixture = read_mixture(against)
        try:
            opponent = mixture.opponent(rules, holding=setup.theirs)
        except QuintetError as error:
            raise MixtureError(f"{against}: {error}") from None
        return opponent, f"{against} ({len(mixture.arrangements)} arrangements)"
    raise SolverError(
        f"--against {against!r}: expected random, greedy, house, known or a mixture FILE.json"
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
        help="stop after S seconds with the best arrangement found and its gap",
    )
    parser.add_argument(
        "--top",
        type=bounded_int(1, MAX_TOP),
        default=1,
        metavar="K",
        help="also show the runners-up: the K best arrangements with distinct strength "
        f"profiles (at most {MAX_TOP}; needs the cpsat engine)",
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
        help="auto (default): frontier, or cpsat for --top; cpsat: CP-SAT proves "
        "optimality (--top, --time-limit, --workers); frontier: the best of the holding's "
        "frontier strategies, exhaustive and usually much faster (no --top)",
    )


def _context(setup: Setup, rules: Rules, against: str) -> SuggestContext:
    return SuggestContext(
        rules=rules,
        mine=setup.mine,
        theirs=setup.theirs,
        seed=setup.seed,
        dealt=setup.dealt,
        against=against,
    )


def _warn(message: str) -> None:
    print(f"quintet: warning: {message}", file=sys.stderr)


def _suggest_engine(args: argparse.Namespace | SimpleNamespace, against: str) -> str:
    """Refuse conflicting options, warn about ignored ones; the engine to use.

    ``auto`` picks the frontier engine (exhaustive, usually far faster),
    unless ``--top`` asks for runners-up, which only CP-SAT lists.
    """
    if args.known is not None and against != "known":
        raise SolverError(f"--known gives the arrangement of --against known, not {against}")
    if against == "equilibrium":
        if args.top > 1 or args.fix:
            raise SolverError("--against equilibrium takes no --top or --fix")
        if args.objective is not None:
            raise SolverError("--against equilibrium plays the --payoff game, not an --objective")
        ignored = [f for f, v in (("--samples", args.samples), ("--workers", args.workers)) if v]
        if args.engine != "auto":
            ignored.append("--engine")
        if ignored:
            _warn(f"--against equilibrium ignores {', '.join(ignored)}")
        return "equilibrium"
    if args.payoff is not None:
        raise SolverError("--payoff needs --against equilibrium (otherwise use --objective)")
    engine = args.engine
    if engine == "auto":
        engine = "cpsat" if args.top > 1 else "frontier"
    if engine == "frontier" and args.top > 1:
        raise SolverError(
            "--top needs --engine cpsat (the frontier holds only undominated profiles)"
        )
    if engine == "frontier":
        options = (("--time-limit", args.time_limit), ("--workers", args.workers))
        ignored = [flag for flag, value in options if value is not None]
        if ignored:
            _warn(f"the frontier engine is exhaustive and ignores {', '.join(ignored)}")
    objective = args.objective or "margin"
    if args.samples is not None and (objective in ("points", "margin") or against != "random"):
        _warn("--samples applies only to --objective win or game against a random opponent")
    return engine


def _suggest(args: argparse.Namespace) -> Output:
    rules = rules_from_args(args)
    options = {key: getattr(args, key) for key in SUGGEST_DEFAULTS}
    return suggest_output(holdings_from_args(args, rules), rules, args.lang, **options)


# The options of ``suggest`` (argument name: default), as the parser declares them.
# None means "not given": conflicting or ignored options are refused or warned about.
SUGGEST_DEFAULTS: dict[str, Any] = {
    "against": None,
    "known": None,
    "objective": None,
    "time_limit": None,
    "top": 1,
    "fix": None,
    "samples": None,
    "workers": None,
    "engine": "auto",
    "payoff": None,
    "book": None,
    "no_book": False,
}


def suggest_output(setup: Setup, rules: Rules, lang: str, **options: Any) -> Output:
    """The ``suggest`` report for ``setup`` (argparse-free; options as in :data:`SUGGEST_DEFAULTS`)."""
    unknown = set(options) - set(SUGGEST_DEFAULTS)
    if unknown:
        raise TypeError(f"suggest_output: unknown options {sorted(unknown)}")
    args = SimpleNamespace(**{**SUGGEST_DEFAULTS, **options})
    rng = np.random.default_rng([setup.seed, 1])
    against = args.against or ("known" if args.known is not None else "random")
    engine = _suggest_engine(args, against)
    if engine == "equilibrium":
        payoff = args.payoff or "margin"
        answer, book_path = equilibrium_from_book(
            args.book,
            not args.no_book,
            setup.mine,
            setup.theirs,
            rules,
            payoff,
            time_limit=args.time_limit,
        )
        results = [
            equilibrium_response(
                setup.mine, setup.theirs, rules, payoff, rng=rng, equilibrium=answer.result
            )
        ]
        description = f"equilibrium ({payoff} payoff)"
    else:
        opponent, description = opponent_from_args(against, args.known, setup, rules)
        objective = Objective(args.objective or "margin")
        common: dict[str, Any] = {
            "fixed": parse_fix(args.fix, rules),
            "samples": args.samples or DEFAULT_SAMPLES,
            "rng": rng,
        }
        if engine == "frontier":
            results = [frontier_best_response(setup.mine, opponent, objective, **common)]
        else:
            results = top_responses(
                setup.mine,
                opponent,
                objective,
                k=args.top,
                time_limit=args.time_limit,
                workers=args.workers or 2,
                **common,
            )
    context = _context(setup, rules, description)
    output = suggest_report(results, context, lang)
    return output if against != "equilibrium" else with_source(output, book_path, answer.from_book)


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
        "--show",
        type=bounded_int(1, MAX_SHOW),
        default=10,
        metavar="N",
        help=f"how many of the most likely arrangements to list (default 10, at most {MAX_SHOW})",
    )
    add_book_arguments(parser)


def _progress(record: IterationRecord) -> None:
    sys.stderr.write(
        f"\riteration {record.iteration}: strategies {record.row_strategies}/"
        f"{record.column_strategies}, gap {record.gap:.3g}, {record.seconds:.1f} s   "
    )
    sys.stderr.flush()


def _equilibrium(args: argparse.Namespace) -> Output:
    rules = rules_from_args(args)
    setup = holdings_from_args(args, rules)
    if args.out is not None:
        check_output_path(args.out)  # before the solve, not after it
    show_progress = sys.stderr.isatty() and not args.json
    shown: list[IterationRecord] = []  # progress lines printed (none for a book lookup)

    def progress(record: IterationRecord) -> None:
        shown.append(record)
        _progress(record)

    output = equilibrium_output(
        setup,
        rules,
        args.lang,
        payoff=args.payoff,
        tolerance=args.tolerance,
        time_limit=args.time_limit,
        show=args.show,
        out=args.out,
        on_record=progress if show_progress else None,
        book=args.book,
        use_book=not args.no_book,
    )
    if shown:
        sys.stderr.write("\n")
    return output


def equilibrium_output(
    setup: Setup,
    rules: Rules,
    lang: str,
    *,
    payoff: str = "margin",
    tolerance: float = DEFAULT_TOLERANCE,
    time_limit: float | None = None,
    show: int = 10,
    out: str | None = None,
    on_record: Callable[[IterationRecord], None] | None = None,
    book: str | None = None,
    use_book: bool = True,
) -> Output:
    """The ``equilibrium`` report for ``setup`` (argparse-free).

    With ``use_book`` the deal is looked up in the book first (``book``: its
    path, None for the default) and what is solved is stored; ``on_record``
    sees each iteration of a solve, with or without the book.
    """
    answer, book_path = equilibrium_from_book(
        book,
        use_book,
        setup.mine,
        setup.theirs,
        rules,
        payoff,
        tolerance=tolerance,
        time_limit=time_limit,
        on_record=on_record,
    )
    result, from_book = answer.result, answer.from_book
    if out:
        write_mixture(equilibrium_mixture(result, setup.theirs), out)
    context = _context(setup, rules, "equilibrium")
    output = equilibrium_report(result, context, lang, limit=show, from_book=from_book)
    return with_source(output, book_path, from_book)


COMMANDS: list[Command] = [
    Command(
        "suggest",
        "the best arrangement of your cards against an opponent model, proven optimal",
        _suggest_arguments,
        _suggest,
        flags={
            "fixed": "--fix",
            "k": "--top",
            "time_limit": "--time-limit",
            "workers": "--workers",
            "book": "--book",
        },
    ),
    Command(
        "equilibrium",
        "an exact equilibrium of the deal: a mixed strategy no opponent can exploit, "
        "with its certificate",
        _equilibrium_arguments,
        _equilibrium,
        flags={"tolerance": "--tolerance", "time_limit": "--time-limit", "book": "--book"},
    ),
]
