"""Run every benchmark and write ``benchmarks/RESULTS.md``.

Run from the repository root (after ``pip install -e ".[bench]"`` for the evaluator
comparisons)::

    python benchmarks/run_all.py            # the full runs (about an hour on 2 cores)
    python benchmarks/run_all.py --quick    # small parameters (a few minutes)
    python benchmarks/run_all.py --only bench_startup.py --baseline /tmp/base   # one section

Each script runs in its own process with ``--markdown``, its output under a heading after
a header (machine, date, git revision, load); a failed script is recorded, and exit is 1.
With ``--only`` the sections of the scripts named are replaced in the existing file and the
others kept (each section's own Machine table dates it).  ``--baseline`` is passed to the
scripts that compare against another checkout side by side.
"""

import datetime as dt
import os
import platform
from collections.abc import Sequence
from pathlib import Path

from harness import cpu_model, fresh, git_revision, load_average, log, parser

HERE = Path(__file__).resolve().parent

COMPARES = {"bench_startup.py", "bench_book.py"}  # scripts that take --baseline

# (title, script, full arguments: the sizes RESULTS.md states, quick arguments)
BENCHMARKS = [
    ("Evaluator", "bench_evaluator.py", "", "--hands 1000000 --repeat 3"),
    ("Best response (CP-SAT)", "bench_best_response.py", "",
     "--deals 5 --direct-deals 1 --direct-time-limit 5 --mixture-deals 2"),
    ("Frontier and equilibrium", "bench_equilibrium.py", "",
     "--mirror-deals 3 --independent-deals 2"),
    ("Restricted games: warm simplex, HiGHS kept warm, GLOP", "bench_simplex.py", "",
     "--deals 3 --first 2 --replay-deals 2"),
    ("Faster equilibria: frontier and exact equilibria on 100 deals per mode", "bench_fast.py",
     "--deals 100", "--quick"),
    ("Tournament", "bench_tournament.py", "--deals 1000", "--deals 4"),
    ("Grading", "bench_grade.py", "--deals 20", "--deals 3"),
    ("Solution book", "bench_book.py", "--margin 40 --win 20 --both 150",
     "--margin 4 --win 2 --both 2"),
    ("Analysis of a history", "bench_analyze.py", "--deals 200 --repeats 3 --fresh 10",
     "--deals 5 --repeats 2 --fresh 2"),
    ("Start-up, frontier and equilibria in CPU seconds", "bench_startup.py", "--repeat 9 --deals 20",
     "--repeat 3 --deals 2"),
    ("Certificates: verify and the certificate's cost", "bench_certificate.py",
     "--deals 20 --positions 3", "--deals 3"),
    ("quintet verify on full deals: the exact best-response search", "bench_verify.py",
     "--deals 20", "--deals 2 --time-limit 60"),
    ("Learning algorithms scored exactly (issue #41)", "bench_agents.py", "--deals 6",
     "--deals 2"),
    ("Default answers: probability ranges and suggest --top", "bench_answers.py", "--deals 10",
     "--deals 2"),
]  # fmt: skip


def kept_with(text: str, sections: Sequence[str]) -> str:
    """The file ``text`` with its sections of the same titles replaced by ``sections``
    (new ones placed in the order of BENCHMARKS)."""
    head, *old = text.split("\n## ")
    by_title = {part.split("\n", 1)[0]: "## " + part.rstrip() + "\n" for part in old}
    by_title |= {part.split("\n", 1)[0][3:]: part for part in sections}
    order = [title for title, *_ in BENCHMARKS]
    titles = sorted(by_title, key=lambda t: order.index(t) if t in order else len(order))
    return head.rstrip() + "\n\n" + "\n".join(by_title[t] for t in titles)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmarks; write RESULTS.md."""
    cli = parser(__doc__)
    cli.add_argument("--quick", action="store_true", help="small parameters")
    cli.add_argument("--out", default=str(HERE / "RESULTS.md"))
    cli.add_argument("--only", default=None, help="comma-separated script names to run")
    cli.add_argument("--baseline", default=None, help="a checkout to compare against")
    args = cli.parse_args(argv)
    scripts = [script for _, script, _, _ in BENCHMARKS]
    if args.only and (unknown := set(args.only.split(",")) - set(scripts)):
        cli.error(f"--only: unknown scripts {', '.join(sorted(unknown))}")
    system = f"{os.cpu_count()} logical CPUs, {platform.system()} {platform.release()}"
    rows = [
        ("date", dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")),
        ("machine", f"{cpu_model()}, {system}"),
        ("python", f"{platform.python_implementation()} {platform.python_version()}"),
        ("git revision", git_revision()),
        ("load average at start", load_average("")),
        ("parameters", "quick" if args.quick else "full"),
    ]
    header = [
        "# Benchmark results\n",
        f"Regenerate with `python benchmarks/run_all.py{' --quick' if args.quick else ''}`.",
        "Medians are quoted; the machine is shared and noisy (see the load averages).\n",
        "| item | value |\n|---|---|",
        *(f"| {item} | {value} |" for item, value in rows),
        "",
    ]
    sections, failed = [], False
    for title, script, full, quick in BENCHMARKS:
        if args.only and script not in args.only.split(","):
            continue
        arguments = (quick if args.quick else full).split()
        if args.baseline and script in COMPARES:
            arguments += ["--baseline", args.baseline]
        log(f"running {script} {' '.join(arguments)}")
        done = fresh(str(HERE / script), "--markdown", *arguments)
        body = done.stdout.strip()
        if done.error:
            failed = True
            body += f"\n\n**FAILED**:\n\n```\n{done.error}\n```"
        command = f"`python benchmarks/{script} {' '.join(arguments)}` ({done.wall:.0f} s)"
        sections.append(f"## {title}\n\n{command}\n\n{body}\n")
    out = Path(args.out)
    if args.only and out.exists():
        text = kept_with(out.read_text(encoding="utf-8"), sections)
    else:
        text = "\n".join(header) + "\n" + "\n".join(sections)
    out.write_text(text, encoding="utf-8")
    log(f"wrote {args.out}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
