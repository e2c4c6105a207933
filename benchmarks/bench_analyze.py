"""Analysis speed: ``quintet analyze`` on a history whose deals are in the book, against a loop
of ``quintet grade`` processes; and its rate on deals the book lacks.

Run from the repository root::

    python benchmarks/bench_analyze.py [--deals 200] [--repeats 3] [--fresh 10] [--seed 1]
        [--jobs auto] [--sizes 16,32,64,128]

The history: the greedy arrangements of deals ``seed .. seed + deals - 1`` (JSON Lines).
The book is filled first (untimed, one ``analyze`` in this process); then, ``repeats``
times, alternating: the whole ``quintet analyze FILE --jobs JOBS`` command, and one
``quintet grade`` process per deal (the same deals, the same book).  Every loss of
``analyze`` is checked against ``grade``'s.  Then, for the first deals of the history
at each of ``sizes`` (and all of them), ``repeats`` times alternating: ``--jobs 1``
against ``--jobs N``, N the CPUs this process may use (what ``auto`` picks from 64
deals on when they are idle): where the pool starts to pay, the threshold of ``auto`` (``--sizes ""``
skips it).  Last, ``quintet analyze`` on ``fresh`` other deals and an empty book, with
``--jobs JOBS``: its rate in deals per second, every deal solved.  CPU is the
processes' user + system time (the command's and its workers').
"""

import json
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import harness as h

from solver import deal, greedy_arrangement
from solver.app.analyze import AnalyzeRequest, analyze
from solver.app.analyze_jobs import available_cpus
from solver.app.arguments import auto_or_positive_int, non_negative_int, positive_int
from solver.app.requests import BookChoice

GOAL = 10.0  # seconds: `quintet analyze` on 200 deals from the book


def history(path: Path, seeds: range | list[int]) -> dict[int, str]:
    """Write the greedy arrangements of the deals ``seeds``; return them by seed."""
    laid = {s: greedy_arrangement(deal(s).holdings[0]).format(ascii=True) for s in seeds}
    lines = [json.dumps({"seed": s, "arrangement": a}) for s, a in laid.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return laid


def run(command: list[str]) -> dict:
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def children_cpu() -> float:
    """User + system seconds of the finished child processes (and theirs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def analyzed(path: Path, book: Path, jobs: object) -> tuple[float, dict[int, float], float]:
    """The whole ``quintet analyze`` command: its wall time, each deal's loss, its CPU time."""
    command = [sys.executable, "-m", "solver.cli", "analyze", str(path), "--book", str(book)]
    cpu = children_cpu()
    timing = h.timed(lambda: run([*command, "--json", "--jobs", str(jobs)]))
    losses = {r["seed"]: r["loss"] for r in timing.result["rows"]}
    return timing.wall[0], losses, children_cpu() - cpu


def pool_table(
    folder: Path, book: Path, laid: dict[int, str], sizes: list[int], repeats: int
) -> h.Table:
    """``--jobs 1`` against ``--jobs N`` on the first deals of the history, size by size."""
    n = available_cpus()
    table = h.Table(
        f"--jobs 1 against --jobs {n} (the CPUs usable), deals from the book ({repeats} runs each, alternating)",
        f"deals; wall, 1 job; wall, {n} jobs; CPU, 1 job; CPU, {n} jobs; the pool saves",
        "rrrrrr",
    )  # fmt: skip
    for size in sizes:
        path = folder / f"first{size}.jsonl"
        history(path, list(laid)[:size])
        jobs = {"1": 1, "n": n}
        found = h.alternate(
            range(repeats),
            list(jobs),
            lambda _, k, path=path, jobs=jobs: analyzed(path, book, jobs[k]),
        )
        wall = {k: h.median(w for w, _, _ in found[k]) for k in jobs}
        cpu = {k: h.median(c for _, _, c in found[k]) for k in jobs}
        saved = wall["1"] - wall["n"]
        table.add(size, h.seconds(wall["1"]), h.seconds(wall["n"]), h.seconds(cpu["1"]), h.seconds(cpu["n"]), f"{saved:+.3f} s")  # fmt: skip
    table.notes = [
        "medians; the pool saves: wall of 1 job minus wall of the pool (negative: it costs)"
    ]
    return table


def graded(laid: dict[int, str], book: Path) -> tuple[float, dict[int, float]]:
    """One ``quintet grade`` process per deal: the loop's wall time and each deal's loss."""
    losses = {}

    def loop() -> None:
        for seed, arrangement in laid.items():
            command = [sys.executable, "-m", "solver.cli", "grade", arrangement]
            command += ["--seed", str(seed), "--book", str(book), "--json"]
            losses[seed] = run(command)["equilibrium_loss"]

    return h.timed(loop).wall[0], losses


def main() -> int:
    cli = h.parser(__doc__).options(positive_int, deals=200, repeats=3, fresh=10)
    cli = cli.options(auto_or_positive_int, jobs="auto").options(str, sizes="16,32,64,128")
    args = cli.options(non_negative_int, seed=1).parse_args()
    sizes = sorted({int(x) for x in args.sizes.split(",") if x.strip()} | ({args.deals} if args.sizes.strip() else set()))  # fmt: skip
    sizes = [size for size in sizes if size <= args.deals]
    with tempfile.TemporaryDirectory() as folder:
        path, book = Path(folder) / "history.jsonl", Path(folder) / "book.sqlite"
        laid = history(path, range(args.seed, args.seed + args.deals))
        h.log(f"filling the book with {args.deals} deals (untimed)")
        analyze(AnalyzeRequest(path=str(path), book=BookChoice(str(book))))
        measure = {"analyze": lambda _: analyzed(path, book, args.jobs)[:2], "grade loop": lambda _: graded(laid, book)}  # fmt: skip
        found = h.alternate(range(args.repeats), list(measure), lambda i, name: measure[name](i))
        for (_, a), (_, g) in zip(found["analyze"], found["grade loop"], strict=True):
            assert a.keys() == g.keys() and all(abs(a[s] - g[s]) < 1e-9 for s in a), "losses"
        h.log(f"--jobs 1 against --jobs {available_cpus()} at {sizes} deals")
        pools = pool_table(Path(folder), book, laid, sizes, args.repeats) if sizes else None
        fresh_path, fresh_book = Path(folder) / "fresh.jsonl", Path(folder) / "fresh.sqlite"
        start = args.seed + args.deals
        history(fresh_path, range(start, start + args.fresh))
        h.log(f"analyzing {args.fresh} deals not in the book")
        fresh_wall, _, _ = analyzed(fresh_path, fresh_book, args.jobs)
    facts = h.machine(["ortools"], f"deals={args.deals} repeats={args.repeats} fresh={args.fresh} seed={args.seed} jobs={args.jobs}")  # fmt: skip
    table = h.Table(
        f"A history of {args.deals} deals graded, every deal in the book ({args.repeats} runs each, alternating)",
        "what; median; p95; max; per deal; goal",
        "lrrrrl",
    )  # fmt: skip
    for name in measure:
        walls = [wall for wall, _ in found[name]]
        goal = f"<= {GOAL:g} s: {h.met(h.median(walls) <= GOAL)}" if name == "analyze" else ""
        label = f"quintet analyze --jobs {args.jobs}" if name == "analyze" else f"quintet {name}"
        table.add(label, *h.spread(walls), h.ms(h.median(walls) / args.deals), goal)
    ratio = h.median(w for w, _ in found["grade loop"]) / h.median(w for w, _ in found["analyze"])
    rate = args.fresh / fresh_wall
    table.add("analyze, deals not in the book", h.seconds(fresh_wall), "", "", h.ms(1 / rate), "")
    table.notes = [
        "the whole commands, start-up included; every analyze loss equals grade's (checked)",
        f"analyze is {ratio:.1f} times faster than one grade process per deal",
        f"deals not in the book: {rate:.2f} deals per second ({args.fresh} deals, one run, each solved and stored; start-up included)",
    ]  # fmt: skip
    h.show([facts, table] + ([pools] if pools else []), args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
