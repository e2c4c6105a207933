"""Benchmark of tournaments: ``solver.play.tournament.run`` with worker processes.

Run from the repository root::

    python benchmarks/bench_tournament.py [--deals N] [--jobs J] [--players LIST]
                                          [--eq-time-limit S] [--seed S] [--markdown]

It plays a tournament among the given players (default: all seven) on ``N``
(default 100) seeded mirror deals with ``J`` worker processes (``run(config, jobs=J)``) and
prints the wall time, extrapolated to 1,000 deals, and the library's report
(results per pair, cost of each player per deal).  Targets (reported, never
asserted): 1,000 deals among all the players within 30 minutes on 2 cores
(the README's first goal), and within 12 minutes (issue #15).
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import sys
from collections.abc import Sequence

from harness import Table, log, parser, timed

from solver.app.arguments import non_negative_int, positive_float, positive_int
from solver.app.report_games import tournament_report
from solver.errors import QuintetError
from solver.play.players import PLAYER_NAMES
from solver.play.tournament import TournamentConfig, run


def main(argv: Sequence[str] | None = None) -> int:
    """Play the tournament and print the tables."""
    cli = parser(__doc__)
    cli.add_argument("--deals", type=positive_int, default=100)
    cli.add_argument("--jobs", type=positive_int, default=2)
    cli.add_argument("--players", default=",".join(PLAYER_NAMES))
    cli.add_argument("--eq-time-limit", type=positive_float, default=None)
    cli.add_argument("--seed", type=non_negative_int, default=2026)
    args = cli.parse_args(argv)
    try:
        config = TournamentConfig(
            players=tuple(args.players.split(",")),
            deals=args.deals,
            seed=args.seed,
            equilibrium_time_limit=args.eq_time_limit,
        )
    except QuintetError as error:
        cli.error(str(error))
    players = config.players
    done = [0]

    def progress(n: int) -> None:
        done[0] += n
        log(f"{done[0]}/{args.deals} deals")

    played = timed(lambda: run(config, jobs=args.jobs, on_deal=progress))
    wall = played.wall[0]
    projected = wall * 1000 / args.deals
    limit = "none (exact)" if args.eq_time_limit is None else f"{args.eq_time_limit} s per solve"
    table = Table(
        f"Tournament: {args.deals} mirror deals, {args.jobs} jobs, players {', '.join(players)}",
        ["item", "value"],
        "ll",
    )
    table.add("date", dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"))
    load = os.getloadavg()[0]
    table.add("machine", f"{platform.machine()}, {os.cpu_count()} CPUs, load {load:.2f}")
    table.add("equilibrium time limit", limit)
    table.add("wall time", f"{wall:.1f} s ({wall / args.deals:.2f} s per deal)")
    table.add("projected for 1000 deals", f"{projected / 60:.1f} min")
    for minutes in (30, 12):
        met = "met" if projected <= minutes * 60 else "NOT met"
        table.add(f"target: 1,000 deals <= {minutes} min", met)
    report = tournament_report(played.result, "en", jobs=args.jobs).text
    print(table.render(args.markdown))
    print()
    print(f"```\n{report}\n```" if args.markdown else report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
