"""Issue #25: start-up of the command, the cold frontier and exact equilibria, in CPU seconds.

Run from the repository root::

    python benchmarks/bench_startup.py [--repeat N] [--deals N] [--seed S] [--baseline PATH]
        [--profile] [--markdown]

Each measurement is a fresh process; with --baseline (another checkout, e.g. ``git worktree
add /tmp/perf-base 94c8eef``) this checkout and the baseline alternate, one measurement each,
so both see the same load.  Whole-process CPU (user + system, the children's rusage) of
``quintet suggest --seed 1``, ``quintet eval "As Ks Qs Js Ts"`` and ``quintet --help``
(N runs, after one untimed run that writes the byte code); the CPU time of the cold frontier
of each player, of the exact equilibria (tolerance 1e-9, no book) and of a solution-book
build with both payoffs (one class: the frontier shared, a new book file, the row stored)
of N seeded mirror deals, each in a fresh process, through the public API only.  --profile:
the functions taking the most time in the frontier build and in the double oracle's
iterations (frontiers cached) of one deal.

``python benchmarks/run_all.py --only bench_startup.py --baseline PATH`` writes these
tables into RESULTS.md (its section replaced, the others kept).
"""

import cProfile
import inspect
import io
import os
import pstats
import resource
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import harness as h

TOLERANCE = 1e-9
CERTIFIED = 1e-6
PAYOFFS = ("margin", "win")
COMMANDS = {
    "quintet suggest --seed 1": ["suggest", "--seed", "1"],
    'quintet eval "As Ks Qs Js Ts"': ["eval", "As Ks Qs Js Ts"],
    "quintet --help": ["--help"],
}
TARGETS = {"quintet suggest --seed 1": 0.3, 'quintet eval "As Ks Qs Js Ts"': 0.25}
TASK_TARGETS = {"frontier": 0.04, "margin": 0.12, "win": 0.2, "book": 0.5}
TASKS = ("frontier", *PAYOFFS, "book")


def child(seed: int, task: str) -> None:
    """One in-process measurement, CPU seconds, with whichever ``solver`` is on the path."""
    from solver import Rules, cached_frontier, deal
    from solver import solve_equilibrium as solve

    def frontier(holding: tuple[int, ...], rules: Rules) -> object:
        return cached_frontier(tuple(sorted(holding)), rules)  # the first call is cold

    warm = deal(seed=999_999, rules=Rules(ace_low_straight=True))
    holdings = deal(seed=seed).holdings
    if task == "book":
        book_child(seed)
        return
    if task == "frontier":
        frontier(warm.holdings[0], warm.rules)  # tables of other rules: the code, warm
        h.emit(seconds=h.timed(lambda: frontier(holdings[0], Rules())).cpu[0])
        return
    # The double oracle's solve: the canonical selection (issue #24, where it exists)
    # is timed against it by bench_canonical.py.
    extra = {"canonical": False} if "canonical" in inspect.signature(solve).parameters else {}
    solve(*warm.holdings, warm.rules, "margin", **extra)
    run = h.timed(lambda: solve(*holdings, Rules(), task, tolerance=TOLERANCE, **extra))
    h.emit(seconds=run.cpu[0], gap=run.result.gap, value=run.result.value)


def book_child(seed: int) -> None:
    """CPU of one book class, both payoffs, in a new book (set-up warmed on another book)."""
    from solver import Rules, build_book

    with tempfile.TemporaryDirectory() as folder:
        build_book(Path(folder) / "warm.sqlite", Rules(), list(PAYOFFS), deals=1, seed=999_999)
        path = Path(folder) / "book.sqlite"
        run = h.timed(lambda: build_book(path, Rules(), list(PAYOFFS), deals=1, seed=seed))
    h.emit(seconds=run.cpu[0], gap=0.0, value=0.0)


def process_cpu(root: Path, argv: list[str], cache: str) -> float:
    """CPU seconds (user + system) of ``python -m solver.cli ARGV`` in the checkout ``root``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env |= {"PYTHONPATH": str(root), "XDG_CACHE_HOME": cache}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-m", "solver.cli", *argv],
        capture_output=True,
        cwd=root,
        env=env,
        timeout=120,
        check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        sys.exit(f"{' '.join(argv)} in {root}: {done.stderr.decode()[-500:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def start_up(roots: dict[str, Path], repeat: int) -> h.Table:
    """Whole-process CPU of each command, the checkouts alternating."""
    table = h.Table(
        "Start-up: whole process, CPU (user + system)",
        "command; implementation; runs; median; min; max; target",
        "llrrrrl",
    )
    with tempfile.TemporaryDirectory() as cache:
        for root in roots.values():  # untimed: write the byte code, as an install does
            for argv in COMMANDS.values():
                process_cpu(root, argv, cache)
        runs = h.alternate(
            [(c, i) for c in COMMANDS for i in range(repeat)],
            list(roots),
            lambda item, name: (item[0], process_cpu(roots[name], COMMANDS[item[0]], cache)),
        )
    for command in COMMANDS:
        for name in roots:
            cpu = [s for c, s in runs[name] if c == command]
            target = TARGETS.get(command)
            verdict = "-" if target is None else f"<= {target} s: {h.met(h.median(cpu) <= target)}"
            table.add(
                f"{command}; {name}; {len(cpu)}; {h.seconds(h.median(cpu))}; "
                f"{h.seconds(min(cpu))}; {h.seconds(max(cpu))}; {verdict}"
            )
    return table


def solving(roots: dict[str, Path], deals: int, seed: int) -> h.Table:
    """CPU of the cold frontier and the equilibria, fresh processes, checkouts alternating."""
    table = h.Table(
        "Frontier and exact equilibrium, in process, CPU (mirror deals)",
        "task; implementation; deals; certified; median; p95; max; target; max |value - first|",
        "llrrrrrlr",
    )
    tasks = [(seed + i, task) for i in range(deals) for task in TASKS]

    def measure(item: tuple[int, str], name: str) -> dict[str, Any] | None:
        done = h.fresh(__file__, "--child", str(item[0]), item[1], root=roots[name])
        h.log(f"{name} {item}: {done.error[-300:] or done.messages[-1:]}")
        return None if done.error else done.messages[-1] | {"deal": item[0], "task": item[1]}

    results = h.alternate(tasks, list(roots), measure)
    first = {(r["deal"], r["task"]): r for r in next(iter(results.values()), [])}
    for task in TASKS:
        for name, runs in results.items():
            done = [r for r in runs if r["task"] == task]
            if not done:
                continue
            cpu = [r["seconds"] for r in done]
            solved = task in PAYOFFS
            certified = sum(r["gap"] <= CERTIFIED for r in done) if solved else None
            values = [abs(r["value"] - first[(r["deal"], task)]["value"]) for r in done if solved]
            ok = h.median(cpu) <= TASK_TARGETS[task]
            table.add(
                f"{task}; {name}; {len(cpu)}; "
                + (f"{certified}/{len(cpu)}" if solved else "-")
                + f"; {'; '.join(h.spread(cpu))}; <= {TASK_TARGETS[task]} s: {h.met(ok)}; "
                + (f"{max(values):.1e}" if values else "-")
            )
    return table


def profile(seed: int, top: int = 18) -> str:
    """The functions taking the most time in the frontier build and the double oracle."""
    sys.path.insert(0, str(h.REPO_ROOT))  # this checkout's package, not an installed one
    from solver.equilibria.equilibrium import solve
    from solver.game.deal import deal
    from solver.game.rules import Rules
    from solver.response.frontier import frontier

    warm = deal(seed=999_999, rules=Rules(ace_low_straight=True))
    solve(*warm.holdings, warm.rules, "margin")
    holdings = deal(seed=seed).holdings
    parts = []
    runs: list[tuple[str, Any]] = [
        ("frontier build (cold)", lambda: frontier(holdings[0], Rules()))
    ]
    runs += [(f"double oracle, {p}", lambda p=p: solve(*holdings, Rules(), p)) for p in PAYOFFS]
    solve(*holdings, Rules(), "margin")  # caches the frontiers: the profiles are the iterations
    for title, call in runs:
        profiler = cProfile.Profile()
        result = profiler.runcall(call)
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(top)
        iterations = getattr(result, "iterations", None)
        extra = f", {iterations} iterations" if iterations is not None else ""
        parts.append(f"## {title} (deal {seed}{extra})\n{text.getvalue()}")
    return "\n".join(parts)


def main() -> int:
    cli = h.parser(__doc__, baseline=True).options(int, repeat=5, deals=5, seed=1)
    cli.add_argument("--profile", action="store_true", help="print profiles, no timings")
    args = cli.parse_args()
    if args.child:
        child(int(args.child[0]), args.child[1])
        return 0
    if args.profile:
        print(profile(args.seed))
        return 0
    roots = {"this checkout": h.REPO_ROOT}
    roots |= {"baseline": args.baseline} if args.baseline else {}
    load = h.load_average()
    tables = [start_up(roots, args.repeat), solving(roots, args.deals, args.seed)]
    facts = h.machine(
        [("revision", h.git_revision()), ("baseline", str(args.baseline or "none"))],
        f"{args.repeat} runs per command, {args.deals} mirror deals from seed {args.seed}",
        load=False,
    )
    facts.add("load average at start", load)
    facts.add("load average at end", h.load_average())
    h.show([facts, *tables], args.markdown, "CPU medians are what to quote under load")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
