"""Run benchmark cases and print their tables.

    python -m benchmarks                       # every case at full size (hours on 2 cores)
    python -m benchmarks solve book --quick    # two cases, small sizes
    python -m benchmarks solve --set deals=40 --set variants=plain,glop --markdown
    python -m benchmarks startup solve book --baseline /tmp/base   # against another checkout
    python -m benchmarks --list                # the cases, their options, quick sizes

Each case prints a heading, the command reproducing it, the machine line (date, CPU,
Python, git revision, load average) and its tables; progress goes to standard error.
--baseline DIR: the cases comparing checkouts (startup, solve, book) measure that checkout
too, alternating with this one so both see the same load.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks import commands, engine
from benchmarks import harness as h

CASES = {case.name: case for case in [*engine.CASES, *commands.CASES]}


def checkout(text: str) -> Path:
    if not (Path(text) / "solver").is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is not a checkout (no solver/ in it)")
    return Path(text).resolve()


def parser() -> argparse.ArgumentParser:
    cli = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0],
                                  epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    cli.add_argument(
        "cases", nargs="*", metavar="CASE", help=f"cases to run (default: all): {', '.join(CASES)}"
    )
    cli.add_argument("--quick", action="store_true", help="the cases' small sizes")
    cli.add_argument("--markdown", action="store_true", help="GitHub markdown (RESULTS.md's form)")
    cli.add_argument("--baseline", type=checkout, help="another checkout to measure side by side")
    cli.add_argument(
        "--set", action="append", default=[], metavar="NAME=VALUE", help="a case option"
    )
    cli.add_argument("--list", action="store_true", help="list the cases and their options")
    return cli


def main(argv: Sequence[str] | None = None) -> int:
    cli = parser()
    args = cli.parse_args(argv)
    if unknown := [name for name in args.cases if name not in CASES]:
        cli.error(f"unknown case {unknown[0]!r} (cases: {', '.join(CASES)})")
    chosen = [CASES[name] for name in args.cases or CASES]
    if args.list:
        for case in chosen:
            print(f"{case.name}: {case.runs}\n  compares: {', '.join(case.alternatives)}\n"
                  f"  full: {case.full}\n  quick: {case.quick}")  # fmt: skip
        return 0
    try:
        runs = [(case, case.options(args.quick, [s for s in args.set if s.split("=")[0] in case.full]))
                for case in chosen]  # fmt: skip
    except ValueError as error:
        cli.error(str(error))
    if stray := [s for s in args.set if not any(s.split("=")[0] in case.full for case in chosen)]:
        cli.error(f"--set {stray[0]}: no chosen case has that option")
    roots = {"this checkout": h.REPO_ROOT} | ({"baseline": args.baseline} if args.baseline else {})
    for case, options in runs:
        started = time.perf_counter()
        changed = [
            f"--set {k}={v}"
            for k, v in options.items()
            if v != case.full[k] and k not in (case.quick if args.quick else {})
        ]
        words = ["python -m benchmarks", case.name, *(["--quick"] if args.quick else []), *changed]
        words += [f"--baseline {args.baseline}"] if args.baseline else []
        header = f"`{' '.join(words)}`\n\n{h.machine()}"
        tables = case.measure(h.Run(options, roots))
        footer = (
            f"{time.perf_counter() - started:.0f} s; load average at the end {h.load_average()}"
        )
        mark = "## " if args.markdown else ""
        body = "\n\n".join(table.render(args.markdown) for table in tables)
        print(f"{mark}{case.title}\n\n{header}\n\n{body}\n\n{footer}\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
