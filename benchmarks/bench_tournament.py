"""Benchmark of tournaments, :mod:`solver.play.tournament`.

Run from the repository root::

    python benchmarks/bench_tournament.py [--deals N] [--jobs J] [--players LIST]
                                          [--eq-time-limit S] [--seed S] [--markdown]

It plays a tournament among the given players (default: all six) on ``N``
seeded mirror deals with ``J`` worker processes and prints the results
table, the cost of each player per deal, and the wall time, extrapolated to
the 1,000-deal target.

Target (reported, never asserted): a 1,000-deal tournament among greedy,
random, both best responses and both equilibria completes within 30 minutes
on this 2-core machine.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import sys
import time
from collections.abc import Sequence

from solver.cli.report_games import tournament_report
from solver.play.players import PLAYER_NAMES
from solver.play.tournament import TournamentConfig, run

TARGET_DEALS = 1000
TARGET_SECONDS = 30 * 60


def _table(rows: list[list[str]], markdown: bool) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    if markdown:
        lines = ["| " + " | ".join(rows[0]) + " |", "|" + "|".join("---" for _ in rows[0]) + "|"]
        lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
        return "\n".join(lines)
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows)


def _report_table(text: str, markdown: bool) -> str:
    """The library's plain report, kept verbatim (in a code block for markdown)."""
    return f"```\n{text}\n```" if markdown else text


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--players", default=",".join(PLAYER_NAMES))
    parser.add_argument("--eq-time-limit", type=float, default=None)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--markdown", action="store_true")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Play the tournament and print the tables."""
    args = parse_args(argv)
    config = TournamentConfig(
        players=tuple(args.players.split(",")),
        deals=args.deals,
        seed=args.seed,
        equilibrium_time_limit=args.eq_time_limit,
    )
    started = time.perf_counter()
    done = [0]

    def progress(n: int) -> None:
        done[0] += n
        print(
            f"  {done[0]}/{config.deals} deals, {time.perf_counter() - started:.0f} s",
            file=sys.stderr,
        )

    result = run(config, jobs=args.jobs, on_deal=progress)
    wall = time.perf_counter() - started
    projected = wall * TARGET_DEALS / config.deals
    heading = "## " if args.markdown else ""
    print(
        f"{heading}Tournament: {config.deals} mirror deals, {args.jobs} jobs, "
        f"players {', '.join(config.players)}"
    )
    print()
    print(
        _table(
            [
                ["item", "value"],
                ["date", dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")],
                [
                    "machine",
                    f"{platform.machine()}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}",
                ],
                [
                    "equilibrium time limit",
                    "none (exact)"
                    if args.eq_time_limit is None
                    else f"{args.eq_time_limit} s per solve",
                ],
                ["wall time", f"{wall:.1f} s ({wall / config.deals:.2f} s per deal)"],
                [f"projected for {TARGET_DEALS} deals", f"{projected / 60:.1f} min"],
                [
                    "target: 1,000 deals <= 30 min",
                    "met" if projected <= TARGET_SECONDS else "NOT met",
                ],
            ],
            args.markdown,
        )
    )
    print()
    print(_report_table(tournament_report(result, "en", jobs=args.jobs).text, args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
