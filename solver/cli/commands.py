"""The sub-commands of ``quintet``: their arguments and what they run.

Each :class:`Command` adds its arguments to a parser and runs on the parsed
namespace, returning a :class:`~solver.app.report.Output` (or None when it
printed its own output, as the interactive game does).  No game logic lives
here: it reads arguments, calls the library and picks a report.
"""

from __future__ import annotations

import argparse

from solver.app.arguments import non_negative_int
from solver.app.command import Command
from solver.app.report import Output, deal_report, hand_report, score_report
from solver.app.requests import BookChoice, Holdings, fresh_seed, holdings
from solver.book.location import default_book_path
from solver.game.arrangement import Arrangement, score
from solver.game.cards import HAND_SIZE, parse_cards
from solver.game.deal import deal
from solver.game.rules import Rules

__all__ = [
    "COMMANDS",
    "add_book_arguments",
    "add_holdings_arguments",
    "book_choice",
    "holdings_from_args",
    "rules_from_args",
]


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


def holdings_from_args(args: argparse.Namespace, rules: Rules) -> Holdings:
    """Both players' cards: parsed from the arguments, or dealt from the seed."""
    return holdings(args.cards, args.opponent_cards, args.seed, rules)


def add_book_arguments(parser: argparse.ArgumentParser) -> None:
    """``--book PATH`` and ``--no-book``.

    They let ``equilibrium``, ``suggest --against equilibrium`` and the
    commands that grade look a deal up in the solution book first and store
    what they solve; by default the book in the user's cache directory
    (:func:`solver.book.location.default_book_path`).
    """
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--book",
        metavar="PATH",
        default=None,
        help=f"the solution book to look deals up in and store solutions to (default "
        f"{default_book_path()}: $XDG_CACHE_HOME/quintet-solver/book.sqlite)",
    )
    group.add_argument(
        "--no-book", action="store_true", help="neither look up nor store (solve afresh)"
    )


def book_choice(args: argparse.Namespace) -> BookChoice:
    """The book of ``--book`` (None: the default) or none with ``--no-book``."""
    return BookChoice(args.book, enabled=not args.no_book)


COMMANDS: list[Command] = [
    Command("eval", "combination and strength of one five-card hand", _eval_arguments, _eval),
    Command("deal", "deal a seeded game and show both holdings", _deal_arguments, _deal),
    Command("score", "score two arrangements position by position", _score_arguments, _score),
]
