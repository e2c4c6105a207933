"""Benchmark of tournaments: ``run_tournament`` with worker processes.

Run from the repository root::

    python benchmarks/bench_tournament.py [--deals N] [--jobs J] [--players LIST]
        [--eq-time-limit S] [--seed S] [--markdown]

The wall time of N mirror deals on J processes, projected to 1,000 deals, and the report.
"""

import datetime as dt
import os
import platform
from collections.abc import Sequence

import harness as h

from solver import PLAYER_NAMES, QuintetError, TournamentConfig, run_tournament
from solver.app.arguments import non_negative_int, positive_float, positive_int
from solver.app.report_games import tournament_report


def main(argv: Sequence[str] | None = None) -> int:
    """Play the tournament and print the tables."""
    cli = h.parser(__doc__).options(positive_int, deals=100, jobs=2)
    cli.options(str, players=",".join(PLAYER_NAMES)).options(positive_float, eq_time_limit=None)
    args = cli.options(non_negative_int, seed=2026).parse_args(argv)
    players, limit = tuple(args.players.split(",")), args.eq_time_limit
    try:
        config = TournamentConfig(players, args.deals, args.seed, equilibrium_time_limit=limit)
    except QuintetError as error:
        cli.error(str(error))
    done = [0]

    def progress(n: int) -> None:
        done[0] += n
        h.log(f"{done[0]}/{args.deals} deals")

    played = h.timed(lambda: run_tournament(config, jobs=args.jobs, on_deal=progress))
    wall = played.wall[0]
    projected = wall * 1000 / args.deals
    table = h.Table(
        f"Tournament: {args.deals} mirror deals, {args.jobs} jobs, players "
        + ", ".join(config.players),
        ["item", "value"],
        "ll",
    )
    table.add("date", dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"))
    load = os.getloadavg()[0]
    table.add("machine", f"{platform.machine()}, {os.cpu_count()} CPUs, load {load:.2f}")
    table.add("equilibrium time limit", "none (exact)" if limit is None else f"{limit} s per solve")
    table.add("wall time", f"{wall:.1f} s ({wall / args.deals:.2f} s per deal)")
    table.add("projected for 1000 deals", f"{projected / 60:.1f} min")
    for minutes in (30, 12, 5):
        verdict = "met" if projected <= minutes * 60 else "NOT met"
        table.add(f"target: 1,000 deals <= {minutes} min", verdict)
    report = tournament_report(played.result, "en", jobs=args.jobs).text
    print(table.render(args.markdown) + "\n")
    print(f"```\n{report}\n```" if args.markdown else report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
