"""The commands' cases: start-up, grade, analyze, default answers, the book, tournaments, web jobs."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

import solver
from benchmarks import harness as h
from benchmarks.harness import Case, Run, Table

STARTUP = {  # command: target for the median CPU (seconds)
    "quintet suggest --seed 1": 0.3,
    'quintet eval "As Ks Qs Js Ts"': 0.25,
    "quintet --help": None,
}
ARGV = {"quintet suggest --seed 1": ["suggest", "--seed", "1"],
        'quintet eval "As Ks Qs Js Ts"': ["eval", "As Ks Qs Js Ts"], "quintet --help": ["--help"]}  # fmt: skip


def startup(run: Run) -> list[Table]:
    """Whole-process CPU (user + system) of three commands, the checkouts alternating."""
    table = Table("Start-up: whole process, CPU (user + system)",
                  "command; checkout; runs; median; min; max; target", "llrrrrl")  # fmt: skip
    with tempfile.TemporaryDirectory() as cache:
        for root in run.roots.values():  # untimed: the byte code written, as an install does
            for argv in ARGV.values():
                h.command(argv, root, cache)
        items = [(name, i) for name in ARGV for i in range(run.repeat)]
        found = h.alternate(items, list(run.roots),
                            lambda item, root: (item[0], h.command(ARGV[item[0]], run.roots[root], cache).cpu))  # fmt: skip
    for name, target in STARTUP.items():
        for root, runs in found.items():
            cpu = [c for n, c in runs if n == name]
            verdict = "-" if target is None else f"<= {target} s: {h.met(h.median(cpu) <= target)}"
            table.add(
                name,
                root,
                len(cpu),
                h.seconds(h.median(cpu)),
                h.seconds(min(cpu)),
                h.seconds(max(cpu)),
                verdict,
            )
    return [table]


def grade(run: Run) -> list[Table]:
    """The greedy arrangement of each deal graded by the whole command on an empty book
    (solved), again (known: from the book), and twice in one fresh process."""
    found: dict[str, list[float]] = {"process solved": [], "process known": [], "in-process solved": [],
                                     "in-process known": []}  # fmt: skip
    losses = []
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(run.seed, run.seed + run.deals):
            laid = solver.greedy_arrangement(solver.deal(seed).holdings[0]).format(ascii=True)
            argv = ["grade", laid, "--seed", str(seed), "--book", f"{folder}/book.sqlite", "--json"]
            for kind in ("process solved", "process known"):
                done = h.command(argv)
                found[kind].append(done.wall)
            assert json.loads(done.stdout)["book"]["from_book"], "the second grade: from the book"
            inside = h.probe("grade", seed=seed)
            found["in-process solved"].append(inside["solved"])
            found["in-process known"].append(inside["known"])
            losses.append(inside["loss"])
    table = Table(
        f"Grading the greedy arrangement of {run.deals} deals (wall)",
        "what; median; p95; max; goal",
        "lrrrl",
    )
    for kind, walls in found.items():
        goal = {"process solved": 3.0, "process known": 1.0}.get(kind)
        table.add(
            kind,
            *h.spread(walls),
            "" if goal is None else f"<= {goal:g} s: {h.met(h.median(walls) <= goal)}",
        )
    table.notes = ["process: the whole `quintet grade` command, start-up included; known: from the book",
                   f"mean equilibrium loss of the greedy arrangements: {np.mean(losses):.3f} points"]  # fmt: skip
    return [table]


def history(path: Path, seeds: range | list[int]) -> dict[int, str]:
    """Write the greedy arrangements of the deals ``seeds`` (JSON Lines); return them by seed."""
    laid = {
        s: solver.greedy_arrangement(solver.deal(s).holdings[0]).format(ascii=True) for s in seeds
    }
    path.write_text(
        "".join(json.dumps({"seed": s, "arrangement": a}) + "\n" for s, a in laid.items())
    )
    return laid


def analyze(run: Run) -> list[Table]:
    """``quintet analyze`` on a history whose deals are in the book against one ``quintet
    grade`` process per deal; --jobs 1 against --jobs N by size; deals the book lacks."""
    with tempfile.TemporaryDirectory() as folder:
        path, book = Path(folder) / "history.jsonl", f"{folder}/book.sqlite"
        laid = history(path, range(run.seed, run.seed + run.deals))

        def analyzed(file: Path, jobs: object, where: str = book) -> tuple[float, float, dict]:
            done = h.command(["analyze", str(file), "--book", where, "--json", "--jobs", str(jobs)])
            return (
                done.wall,
                done.cpu,
                {r["seed"]: r["loss"] for r in json.loads(done.stdout)["rows"]},
            )

        def graded() -> tuple[float, float, dict]:
            runs = {
                s: h.command(["grade", a, "--seed", str(s), "--book", book, "--json"])
                for s, a in laid.items()
            }
            losses = {s: json.loads(d.stdout)["equilibrium_loss"] for s, d in runs.items()}
            return sum(d.wall for d in runs.values()), sum(d.cpu for d in runs.values()), losses

        analyzed(path, run.jobs)  # untimed: the book filled
        ways = {
            f"quintet analyze --jobs {run.jobs}": lambda: analyzed(path, run.jobs),
            "quintet grade loop": graded,
        }
        found = h.alternate(range(run.repeats), list(ways), lambda _, name: ways[name]())
        for (_, _, a), (_, _, g) in zip(*found.values(), strict=True):
            assert a.keys() == g.keys() and all(abs(a[s] - g[s]) < 1e-9 for s in a), "losses differ"
        table = Table(f"A history of {run.deals} deals graded, every deal in the book ({run.repeats} runs each)",
                      "what; median; p95; max; per deal; goal", "lrrrrl")  # fmt: skip
        for name, runs in found.items():
            walls = [w for w, _, _ in runs]
            goal = f"<= 10 s: {h.met(h.median(walls) <= 10)}" if "analyze" in name else ""
            table.add(name, *h.spread(walls), h.ms(h.median(walls) / run.deals), goal)
        n = (
            len(os.sched_getaffinity(0))
            if hasattr(os, "sched_getaffinity")
            else os.cpu_count() or 1
        )
        pools = Table(f"--jobs 1 against --jobs {n} (the CPUs usable), deals from the book",
                      f"deals; wall, 1 job; wall, {n} jobs; CPU, 1 job; CPU, {n} jobs; the pool saves", "rrrrrr")  # fmt: skip
        for size in sorted(
            {int(x) for x in run.words("sizes") if int(x) <= run.deals}
            | ({run.deals} if run.sizes else set())
        ):
            part = Path(folder) / f"first{size}.jsonl"
            history(part, list(laid)[:size])
            both = h.alternate(
                range(run.repeats), ["1", str(n)], lambda _, jobs, p=part: analyzed(p, jobs)
            )
            wall = [h.median(w for w, _, _ in both[k]) for k in both]
            cpu = [h.median(c for _, c, _ in both[k]) for k in both]
            pools.add(size, *map(h.seconds, wall + cpu), f"{wall[0] - wall[1]:+.3f} s")
        fresh = Path(folder) / "fresh.jsonl"
        history(fresh, range(run.seed + run.deals, run.seed + run.deals + run.fresh))
        wall = analyzed(fresh, run.jobs, f"{folder}/fresh.sqlite")[0]
        table.add(
            "analyze, deals not in the book", h.seconds(wall), "", "", h.ms(wall / run.fresh), ""
        )
    table.notes = [
        "the whole commands, start-up included; every analyze loss equals grade's (checked)"
    ]
    return [table] + ([pools] if pools.rows else [])


def answers(run: Run) -> list[Table]:
    """Independent deals, no book, fresh processes (frontier cache warmed by an untimed run):
    ``quintet equilibrium`` with and without ``--ranges``; ``suggest --top 2`` against the
    opponent's equilibrium strategy."""
    cpu: dict[str, list[float]] = {}
    proven = 0
    with tempfile.TemporaryDirectory() as cache:
        for seed in range(run.seed, run.seed + run.deals):
            common = ["--seed", str(seed), "--mode", "independent", "--no-book"]
            for payoff in ("margin", "win"):
                argv = ["equilibrium", *common, "--payoff", payoff]
                h.command(argv, cache=cache)
                for extra in (["--ranges"], []):
                    cpu.setdefault(" ".join([*argv[:1], *argv[-2:], *extra]), []).append(
                        h.command(argv + extra, cache=cache).cpu
                    )
            mine, theirs = (
                solver.format_cards(x)
                for x in solver.deal(
                    seed=seed, rules=solver.Rules(discard_mode="independent")
                ).holdings
            )
            mixture = f"{cache}/mixture-{seed}.json"
            h.command(
                [
                    "equilibrium",
                    theirs,
                    "--opponent-cards",
                    mine,
                    "--mode",
                    "independent",
                    "--no-book",
                    "--out",
                    mixture,
                ],
                cache=cache,
            )
            done = h.command(
                ["suggest", *common[:4], "--against", mixture, "--top", "2"], cache=cache
            )
            cpu.setdefault("suggest --top 2 --against FILE", []).append(done.cpu)
            proven += "best found" not in done.stdout
    table = Table(f"Independent deals {run.seed}-{run.seed + run.deals - 1}: whole process, CPU (user + system)",
                  "command; runs; median; p95; max; note", "lrrrrl")  # fmt: skip
    for name, values in cpu.items():
        note = (
            f"both proven on {proven}/{len(values)}, <= 20 s: {h.met(max(values) <= 20)}"
            if "suggest" in name
            else "-"
        )
        table.add(name, len(values), *h.spread(values), note)
    return [table]


def book(run: Run) -> list[Table]:
    """Books of seeded mirror deals per payoff (and both together), each built in a fresh
    process in every checkout; lookups; the full mirror book projected."""
    from solver.book.canonical import mirror_class_count

    classes, cores = mirror_class_count(), (64, 512)
    rates = Table("Book build, mirror deals, one worker",
                  "payoff; checkout; deals; wall; CPU; CPU per deal; deals per core-hour; bytes per deal (file); "
                  "strategy bytes per deal; lookup, frontiers cold; lookup, cached; SQLite read", "llrrrrrrrrrr")  # fmt: skip
    projection = Table(f"Projected full mirror book ({classes:,} classes)",
                       ["payoff", *(f"{c} cores" for c in cores), "size"], "lrrr")  # fmt: skip
    builds = [
        (p, n) for p, n in (("margin", run.margin), ("win", run.win), ("margin,win", run.both)) if n
    ]
    with tempfile.TemporaryDirectory(prefix="bench-book-") as folder:
        for payoff, deals in builds:
            for name, root in run.roots.items():
                m = h.probe("book", root, path=f"{folder}/{payoff}-{len(name)}.sqlite", payoffs=payoff.split(","),
                            deals=deals, seed=run.seed, lookups=run.lookups)  # fmt: skip
                if "error" in m:
                    sys.exit(f"book {payoff} in {root}: {m['error']}")
                per_deal = m["cpu"] / m["rows"]
                rates.add(payoff, name, m["rows"], h.seconds(m["wall"]), h.seconds(m["cpu"]), h.seconds(per_deal),
                          f"{3600 / per_deal:.0f}", f"{m['file']:,.0f}", f"{m['blobs']:,.0f}",
                          h.ms(m["cold"]), h.ms(m["cached"]), f"{1e3 * m['read']:.3f} ms")  # fmt: skip
                if name == "this checkout":
                    hours = [f"{classes * per_deal / c / 3600:.1f} h" for c in cores]
                    projection.add(payoff, *hours, f"{classes * m['file'] / 1e9:.2f} GB")
    rates.notes = ["CPU: the build's process time (all threads); lookups: solve_with_book on a relabelled "
                   "stored deal (the row certified again on its frontiers), medians; the book's CPU target: "
                   "mean <= 0.5 s per class, both payoffs"]  # fmt: skip
    projection.notes = ["wall time: classes x CPU s per deal / cores; size: classes x file bytes"]
    return [rates, projection]


def tournament(run: Run) -> list[Table]:
    from solver import PLAYER_NAMES, TournamentConfig, run_tournament
    from solver.app.report_games import tournament_report

    players = tuple(run.words("players")) or PLAYER_NAMES
    config = TournamentConfig(players, run.deals, run.seed)
    wall, _, result = h.timed(lambda: run_tournament(config, jobs=run.jobs))
    projected = wall * 1000 / run.deals
    table = Table(f"Tournament: {run.deals} mirror deals, {run.jobs} jobs, players {', '.join(config.players)}",
                  "wall; per deal; projected for 1,000 deals; <= 30 min; <= 12 min; <= 5 min", "rrrlll")  # fmt: skip
    table.add(h.seconds(wall), h.seconds(wall / run.deals), f"{projected / 60:.1f} min",
              *(h.met(projected <= m * 60) for m in (30, 12, 5)))  # fmt: skip
    table.notes = [
        "The report:\n\n```\n" + tournament_report(result, "en", jobs=run.jobs).text + "\n```"
    ]
    return [table]


def web_jobs(run: Run) -> list[Table]:
    """Submit to a job's first answer: a job that fails at once in its process (a suggest
    against an arrangement that does not parse); the first starts the forkserver."""
    from solver.app.requests import SuggestRequest, holdings
    from solver.web.jobs import JobManager

    manager = JobManager(max_running=1, time_limit=10)
    if (start := getattr(manager, "start", None)) is not None:
        start()
    request = SuggestRequest(holdings(None, None, 1, solver.Rules()), solver.Rules(), known="As")

    def round_trip() -> float:
        def submitted() -> object:
            job = manager.submit("suggest", request)
            job.finished_event.wait(timeout=60)
            assert job.state.value == "error", job.status()
            return job

        return h.timed(submitted)[0]

    walls = [round_trip() for _ in range(run.jobs + 1)]
    manager.shutdown()
    table = Table(
        "Web job start latency (submit to the job's first answer)",
        "job; runs; median; p95; max",
        "lrrrr",
    )
    table.add("first (forkserver start)", 1, *h.spread(walls[:1], h.ms))
    table.add("next (forked)", run.jobs, *h.spread(walls[1:], h.ms))
    return [table]


CASES = [
    Case("startup", "Start-up in CPU seconds", "quintet suggest, eval and --help as whole processes",
         {"repeat": 9}, {"repeat": 2}, ("this checkout", "baseline"), startup),
    Case("grade", "Grading", "quintet grade on an empty book and from the book; grade() in process",
         {"deals": 20, "seed": 1}, {"deals": 2}, ("process solved", "process known", "in-process solved", "in-process known"), grade),
    Case("analyze", "Analysis of a history", "quintet analyze against a loop of quintet grade; --jobs 1 against N",
         {"deals": 200, "repeats": 3, "fresh": 10, "seed": 1, "jobs": "auto", "sizes": "16,32,64,128"},
         {"deals": 4, "repeats": 1, "fresh": 1, "sizes": ""}, ("analyze", "grade loop", "--jobs 1", "--jobs N"), analyze),
    Case("answers", "Default answers: probability ranges and suggest --top",
         "quintet equilibrium with and without --ranges; suggest --top 2 against an equilibrium",
         {"deals": 10, "seed": 1}, {"deals": 1}, ("--ranges", "default"), answers),
    Case("book", "Solution book", "build_book per payoff and both together, lookups, projection",
         {"margin": 40, "win": 20, "both": 150, "seed": 0, "lookups": 200},
         {"margin": 2, "win": 1, "both": 1, "lookups": 5}, ("this checkout", "baseline"), book),
    Case("tournament", "Tournament", "run_tournament of every player on mirror deals",
         {"deals": 1000, "jobs": 2, "seed": 2026, "players": ""}, {"deals": 4}, ("players",), tournament),
    Case("web-jobs", "Web job start latency", "JobManager: submit to the first answer",
         {"jobs": 10}, {"jobs": 2}, ("first", "next"), web_jobs),
]  # fmt: skip
