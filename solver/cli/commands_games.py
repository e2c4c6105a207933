"""The game sub-commands of ``quintet``: ``tournament`` and ``play``."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from solver.app.arguments import bounded_int, non_negative_int, positive_float
from solver.app.command import Command
from solver.app.limits import MAX_DEALS, MAX_JOBS, MAX_SEED
from solver.app.report import Output
from solver.app.report_book import rate_line
from solver.app.sessions import PlaySessionRequest, play_session
from solver.app.tournaments import TournamentRequest, TournamentRun
from solver.cli.commands import add_book_arguments, book_choice, rules_from_args
from solver.cli.progress import Progress
from solver.cli.render import shown, warn, warner
from solver.play.players import PLAYER_NAMES
from solver.play.tournament import DASK_CONNECT_TIMEOUT

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
    """The tournament's progress on stderr: deals done, rate and time left (rewritten in place
    on a terminal, a line every 10 s in a log)."""

    def __init__(self, total: int) -> None:
        self.total, self.done = total, 0
        self.printer = Progress()
        self.started = self.printer.clock()

    def __call__(self, finished: int) -> None:
        self.done += finished
        seconds = self.printer.clock() - self.started
        line = rate_line(self.done, self.total, seconds, "deals")
        self.printer.show(line, final=self.done >= self.total)


def _tournament(args: argparse.Namespace) -> Output:
    request = TournamentRequest(
        players=tuple(args.players.split(",")),
        deals=args.deals,
        seed=args.seed,
        rules=rules_from_args(args),
        equilibrium_time_limit=args.eq_time_limit,
        jobs=args.jobs,
        backend=args.backend,
        scheduler=args.scheduler,
        connect_timeout=args.connect_timeout,
        csv=args.csv,
        resume=args.resume,
    )
    tournament = TournamentRun(request)
    warn(tournament.warnings, args.flags, args.lang)  # before the work, not after it
    remaining = request.deals - len(tournament.done)
    progress = _Progress(remaining)
    try:
        answer = tournament.play(on_deal=progress)
    except KeyboardInterrupt:
        if args.csv is not None:
            print(
                f"quintet: {tournament.saved} of {request.deals} deals are in {args.csv}; "
                "run the same command with --resume to play the others",
                file=sys.stderr,
            )
        raise
    return shown(replace(answer, warnings=()), args)


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


def _play(args: argparse.Namespace) -> None:
    request = PlaySessionRequest(
        opponent=args.opponent,
        seed=args.seed,
        rules=rules_from_args(args),
        book=book_choice(args),
        lang=args.lang,
    )
    status = play_session(request, input, print, warner(args.flags, args.lang))
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
            "resume": "--resume",
            "csv": "--csv",
            "backend": "--backend",
            "deals": "--deals",
            "players": "--players",
        },
    ),
    Command(
        "play",
        "play a game against the computer: type your packets, then see them compared",
        _play_arguments,
        _play,
        flags={"book": "--book"},
        no_json="--json is not available in the interactive game",
    ),
]
