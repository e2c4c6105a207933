"""The sub-commands of ``quintet``: their arguments and what they run.

Each :class:`Command` adds its arguments to a parser and runs on the parsed
namespace, returning a :class:`~solver.cli.report.Output` (or None when it
printed its own output, as the interactive game does).  No game logic lives
here: it reads arguments, calls the library and picks a report.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from solver.cli.arguments import non_negative_int
from solver.cli.report import Output, deal_report, hand_report, score_report
from solver.errors import QuintetError
from solver.game.arrangement import Arrangement, score
from solver.game.cards import HAND_SIZE, parse_cards
from solver.game.deal import deal
from solver.game.rules import Rules

__all__ = ["COMMANDS", "Command", "error_line", "holdings", "rules_from_args"]


@dataclass(frozen=True)
class Command:
    """One sub-command: name, help, its arguments and its action.

    ``flags`` maps the library's argument names to this command's options, so
    that an error about ``time_limit`` reads as one about ``--time-limit``.
    """

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], Output | None]
    rules: bool = True
    flags: Mapping[str, str] = field(default_factory=dict)


def error_line(error: QuintetError, flags: Mapping[str, str]) -> str:
    """The one line a library error prints, speaking of the command's options.

    >>> from solver.errors import SolverError
    >>> error = SolverError("time_limit must be positive, got -1.0", argument="time_limit")
    >>> error_line(error, {"time_limit": "--eq-time-limit"})
    'quintet: error: --eq-time-limit must be positive, got -1.0'
    >>> error_line(error, {})
    'quintet: error: time_limit must be positive, got -1.0'
    """
    message = str(error)
    flag = flags.get(error.argument or "")
    if flag is not None:
        message = flag + message[len(error.argument or "") :]
    return f"quintet: error: {message}"


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The :class:`Rules` selected by the rule flags.

    >>> ns = argparse.Namespace(mode="independent", ace_low_straight=True,
    ...                         flush_beats_full_house=False)
    >>> rules_from_args(ns).discard_mode.value
    'independent'
    """
    return Rules(
        discard_mode=args.mode,
        ace_low_straight=args.ace_low_straight,
        flush_beats_full_house=args.flush_beats_full_house,
    )


def _eval_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("cards", metavar="CARDS", help='five cards, e.g. "As Ks Qs Js Ts"')


def _eval(args: argparse.Namespace) -> Output:
    cards = parse_cards(args.cards, count=HAND_SIZE)
    return hand_report(cards, rules_from_args(args), args.lang)


def _deal_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seed",
        type=non_negative_int,
        default=None,
        help="seed of the deal (default: a fresh random seed, printed)",
    )


def fresh_seed() -> int:
    """A random seed to print, so that any run can be repeated."""
    import secrets

    return secrets.randbelow(10**6)


def _deal(args: argparse.Namespace) -> Output:
    seed = fresh_seed() if args.seed is None else args.seed
    return deal_report(deal(seed, rules_from_args(args)), args.lang)


def _score_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("first", metavar="ARRANGEMENT1", help='"P1 | P2 | P3 | P4 | P5"')
    parser.add_argument("second", metavar="ARRANGEMENT2", help='"Q1 | Q2 | Q3 | Q4 | Q5"')


def _score(args: argparse.Namespace) -> Output:
    rules = rules_from_args(args)
    first = Arrangement.parse(args.first, n_packets=rules.n_packets)
    second = Arrangement.parse(args.second, n_packets=rules.n_packets)
    return score_report(first, second, score(first, second, rules), rules, args.lang)


def add_holdings_arguments(parser: argparse.ArgumentParser) -> None:
    """CARDS, --opponent-cards and --seed."""
    parser.add_argument(
        "cards",
        metavar="CARDS",
        nargs="?",
        default=None,
        help="your 25 cards (default: deal a seeded random game)",
    )
    parser.add_argument(
        "--opponent-cards",
        metavar="CARDS",
        default=None,
        help="the opponent's 25 cards (default in mirror mode: the same as yours)",
    )
    parser.add_argument(
        "--seed",
        type=non_negative_int,
        default=None,
        help="seed of the deal and of any sampling (default: fresh, printed)",
    )


@dataclass(frozen=True)
class Setup:
    """Both holdings, and the seed when the game was dealt."""

    mine: tuple[int, ...]
    theirs: tuple[int, ...]
    seed: int
    dealt: bool


def holdings_from_args(args: argparse.Namespace, rules: Rules) -> Setup:
    """Both players' cards: parsed from the arguments, or dealt from the seed."""
    return holdings(args.cards, args.opponent_cards, args.seed, rules)


def holdings(
    cards: str | None, opponent_cards: str | None, seed: int | None, rules: Rules
) -> Setup:
    """Both players' cards: parsed from card text, or dealt from the seed (argparse-free).

    >>> holdings(None, None, 1, Rules()).dealt
    True
    >>> holdings(None, "As", 1, Rules())
    Traceback (most recent call last):
        ...
    solver.errors.CardError: --opponent-cards needs your CARDS too
    """
    from solver.errors import CardError

    seed = fresh_seed() if seed is None else seed
    n_cards = HAND_SIZE * rules.n_packets
    if cards is None:
        if opponent_cards is not None:
            raise CardError("--opponent-cards needs your CARDS too")
        dealt = deal(seed, rules)
        return Setup(dealt.holdings[0], dealt.holdings[1], seed, True)
    mine = tuple(sorted(parse_cards(cards, count=n_cards)))
    if opponent_cards is not None:
        theirs = tuple(sorted(parse_cards(opponent_cards, count=n_cards)))
    elif rules.discard_mode.value == "mirror":
        theirs = mine
    else:
        raise CardError("independent mode needs --opponent-cards")
    if rules.discard_mode.value == "mirror" and theirs != mine:
        raise CardError("in mirror mode both players hold the same cards; use --mode independent")
    return Setup(mine, theirs, seed, False)


COMMANDS: list[Command] = [
    Command("eval", "combination and strength of one five-card hand", _eval_arguments, _eval),
    Command("deal", "deal a seeded game and show both holdings", _deal_arguments, _deal),
    Command("score", "score two arrangements position by position", _score_arguments, _score),
]
