"""The game sub-commands of ``quintet``: ``tournament`` and ``play``."""

from __future__ import annotations

import argparse
import sys
from contextlib import AbstractContextManager, nullcontext
from typing import IO

from solver.app.arguments import non_negative_int, positive_float
from solver.app.command import Command
from solver.app.games_csv import GamesCsv, finished_deals
from solver.app.limits import MAX_DEALS, MAX_JOBS, MAX_SEED, bounded_int
from solver.app.report import Output
from solver.app.report_games import tournament_report
from solver.cli.commands import rules_from_args
from solver.cli.commands_book import add_book_arguments
from solver.errors import QuintetError
from solver.play.players import PLAYER_NAMES
from solver.play.tournament import (
    DASK_CONNECT_TIMEOUT,
    TournamentConfig,
    run,
    used_jobs,
)
from solver.util.files import atomic_output, check_output_path

__all__ = ["COMMANDS"]


def _tournament_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players",
        default=",".join(PLAYER_NAMES),
        help=f"comma-separated players (default: all of {', '.join(PLAYER_NAMES)})",
    )
    parser.add_argument(
        "--deals",
        type=bounded_int(1, MAX_DEALS),
        default=100,
        help=f"deals (default 100, at most {MAX_DEALS:,})",
    )
    parser.add_argument("--seed", type=bounded_int(0, MAX_SEED), default=0, help="seed (default 0)")
    parser.add_argument(
        "--jobs",
        type=bounded_int(1, MAX_JOBS),
        default=1,
        help="worker processes (default 1; a local run uses at most one per core); "
        "results do not depend on it",
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
        "--connect-timeout",
        type=positive_float,
        default=DASK_CONNECT_TIMEOUT,
        metavar="S",
        help=f"with --scheduler: fail if it does not answer within S seconds "
        f"(default {DASK_CONNECT_TIMEOUT:g})",
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
        "--csv",
        metavar="FILE",
        default=None,
        help="write one row per game to FILE, as deals finish (an interrupted run keeps them)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="with --csv: keep the finished deals of FILE (same --players, --deals, --seed "
        "and rules) and play only the others; the report covers the deals played now",
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


def _tournament_checks(args: argparse.Namespace, config: TournamentConfig) -> int:
    """Refuse or warn about option combinations before the work; the jobs used."""
    if args.resume and args.csv is None:
        raise QuintetError("--resume needs --csv FILE (the file to resume)")
    if args.scheduler is not None and args.backend != "dask":
        raise QuintetError("--scheduler needs --backend dask")
    if args.csv is not None:
        check_output_path(args.csv)
    if args.scheduler is None and args.connect_timeout != DASK_CONNECT_TIMEOUT:
        print("quintet: warning: --connect-timeout applies only to --scheduler", file=sys.stderr)
    eq_players = [p for p in config.players if p.startswith("eq-")]
    if args.eq_time_limit is not None and not eq_players:
        print("quintet: warning: --eq-time-limit applies only to eq-* players", file=sys.stderr)
    if args.backend == "dask":
        return int(args.jobs)
    jobs = used_jobs(args.jobs, config.deals)
    if jobs < args.jobs:
        print(
            f"quintet: warning: --jobs {args.jobs}: using {jobs} (one per core and per deal)",
            file=sys.stderr,
        )
    return jobs


def _tournament(args: argparse.Namespace) -> Output:
    config = TournamentConfig(
        players=tuple(args.players.split(",")),
        deals=args.deals,
        seed=args.seed,
        rules=rules_from_args(args),
        equilibrium_time_limit=args.eq_time_limit,
    )
    jobs = _tournament_checks(args, config)
    done = finished_deals(args.csv, config) if args.resume else {}
    if len(done) == config.deals:
        text = f"all {config.deals} deals are already in {args.csv}: nothing to play"
        return Output(text, {"deals": config.deals, "resumed_deals": len(done), "csv": args.csv})
    progress = _Progress(config.deals - len(done), sys.stderr.isatty() and not args.json)
    sheets: list[GamesCsv] = []  # an interrupt before any new deal keeps the old file
    sink: AbstractContextManager[IO[str] | None] = (
        atomic_output(args.csv, keep_on_interrupt=lambda: sheets[0].deals > len(done))
        if args.csv is not None
        else nullcontext()
    )
    with sink as handle:
        sheet = GamesCsv(handle, done)
        sheets.append(sheet)
        try:
            result = run(
                config,
                jobs=jobs,
                backend=args.backend,
                scheduler=args.scheduler,
                connect_timeout=args.connect_timeout,
                on_deal=progress,
                on_record=sheet.save,
                skip=done,
            )
        except KeyboardInterrupt:
            if args.csv is not None:
                print(
                    f"quintet: {sheet.deals} of {config.deals} deals are in {args.csv}; "
                    "run the same command with --resume to play the others",
                    file=sys.stderr,
                )
            raise
        sheet.finish(result.records)
    output = tournament_report(result, args.lang, jobs=jobs)
    if not done:
        return output
    note = f"resumed: {len(done)} deals were already in {args.csv} (in the CSV, not in this report)"
    return Output(f"{output.text}\n{note}", {**output.payload, "resumed_deals": len(done)})


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
    add_book_arguments(parser)


def _read(prompt: str) -> str:
    return input(prompt)


def _play(args: argparse.Namespace) -> None:
    import numpy as np

    from solver.app.report_grade import grade_lines
    from solver.app.requests import fresh_seed
    from solver.app.solving import source_of
    from solver.cli.commands_book import book_choice
    from solver.cli.commands_grade import described_with_source
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
    solutions = source_of(book_choice(args))
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
        flags={
            "jobs": "--jobs",
            "scheduler": "--scheduler",
            "time_limit": "--eq-time-limit",
            "equilibrium_time_limit": "--eq-time-limit",
            "connect_timeout": "--connect-timeout",
        },
    ),
    Command(
        "play",
        "play a game against the computer: type your packets, then see them compared",
        _play_arguments,
        _play,
        flags={"book": "--book"},
    ),
]
