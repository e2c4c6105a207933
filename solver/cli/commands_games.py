"""The game sub-commands of ``quintet``: ``tournament`` and ``play``."""

from __future__ import annotations

import argparse
import sys

from solver.cli.arguments import non_negative_int, positive_float, positive_int
from solver.cli.commands import Command, rules_from_args
from solver.cli.report import Output
from solver.cli.report_games import tournament_report, write_games_csv
from solver.play.players import PLAYER_NAMES
from solver.play.tournament import TournamentConfig, run

__all__ = ["COMMANDS"]


def _tournament_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players",
        default=",".join(PLAYER_NAMES),
        help=f"comma-separated players (default: all of {', '.join(PLAYER_NAMES)})",
    )
    parser.add_argument("--deals", type=positive_int, default=100, help="deals (default 100)")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed (default 0)")
    parser.add_argument(
        "--jobs",
        type=positive_int,
        default=1,
        help="worker processes (default 1); results do not depend on it",
    )
    parser.add_argument(
        "--backend",
        choices=["local", "dask"],
        default="local",
        help='local processes (default) or a Dask cluster (pip install "quintet-solver[distributed]")',
    )
    parser.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="with --backend dask: a running scheduler (default: start a local cluster of --jobs workers)",
    )
    parser.add_argument(
        "--eq-time-limit",
        type=positive_float,
        default=None,
        metavar="S",
        help="time limit per equilibrium solve of the eq-* players (default: exact); the "
        "report shows the certified gap reached",
    )
    parser.add_argument(
        "--csv", metavar="FILE", default=None, help="write one row per game to FILE"
    )


class _Progress:
    """A progress bar on stderr, when it is a terminal."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.done, self.enabled = total, 0, enabled

    def __call__(self, finished: int) -> None:
        self.done += finished
        if self.enabled:
            filled = int(30 * self.done / self.total)
            sys.stderr.write(
                f"\r[{'#' * filled}{' ' * (30 - filled)}] {self.done}/{self.total} deals"
            )
            sys.stderr.flush()
            if self.done >= self.total:
                sys.stderr.write("\n")


def _tournament(args: argparse.Namespace) -> Output:
    config = TournamentConfig(
        players=tuple(args.players.split(",")),
        deals=args.deals,
        seed=args.seed,
        rules=rules_from_args(args),
        equilibrium_time_limit=args.eq_time_limit,
    )
    progress = _Progress(config.deals, sys.stderr.isatty() and not args.json)
    result = run(
        config, jobs=args.jobs, backend=args.backend, scheduler=args.scheduler, on_deal=progress
    )
    if args.csv:
        write_games_csv(result, args.csv)
    return tournament_report(result, args.lang, jobs=args.jobs)


def _play_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seed",
        type=non_negative_int,
        default=None,
        help="seed of the deal and of the computer (default: fresh, printed)",
    )
    parser.add_argument(
        "--opponent",
        default="eq-margin",
        metavar="PLAYER",
        help=f"the computer player: one of {', '.join(PLAYER_NAMES)} (default eq-margin)",
    )
    from solver.cli.commands_book import add_book_arguments

    add_book_arguments(parser)


def _read(prompt: str) -> str:
    return input(prompt)


def _play(args: argparse.Namespace) -> None:
    import numpy as np

    from solver.cli.commands import fresh_seed
    from solver.cli.commands_grade import described_with_source, solutions_from_args
    from solver.cli.report_grade import grade_lines
    from solver.game.deal import deal
    from solver.play.interactive import play
    from solver.play.players import player

    rules = rules_from_args(args)
    player(args.opponent)  # a bad name is an input error before the game starts
    seed = fresh_seed() if args.seed is None else args.seed

    def next_deal(game: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        # Game k of the session is the deal of seed + k, printed so it can be replayed.
        print(f"seed {seed + game}")
        return deal(seed + game, rules).holdings

    holdings = next_deal(0)
    # One source of equilibria for the computer, the hints and the grades: each
    # deal is looked up in the book (or solved and stored) once.
    solutions = solutions_from_args(args)
    status = play(
        holdings[0],
        holdings[1],
        rules,
        args.opponent,
        np.random.default_rng([seed, 2]),
        _read,
        print,
        args.lang,
        describe=described_with_source(solutions, lambda grade: grade_lines(grade, args.lang)),
        next_deal=next_deal,
        solver=solutions,
    )
    if status:
        raise SystemExit(status)


COMMANDS: list[Command] = [
    Command(
        "tournament",
        "every pair of players on the same seeded deals, each in each seat",
        _tournament_arguments,
        _tournament,
        flags={"jobs": "--jobs", "scheduler": "--scheduler", "time_limit": "--eq-time-limit"},
    ),
    Command(
        "play",
        "play a game against the computer: type your packets, then see them compared",
        _play_arguments,
        _play,
        flags={"book": "--book"},
    ),
]
