"""Issue #38: what the default answers cost, whole process, in CPU seconds.

Run from the repository root::

    python benchmarks/bench_answers.py [--deals N] [--seed S] [--markdown]

On N independent deals (seeds S..S+N-1, no book, each command a fresh process, the frontier
cache warmed by one untimed run per deal):

* ``quintet equilibrium`` for each payoff, with ``--ranges`` (what the report computed
  before issue #38 by default) and without (the default now);
* ``quintet suggest --top 2 --against FILE.json``, FILE the opponent's equilibrium strategy
  (margin): its CPU and whether both arrangements were proven optimal.

CPU, not wall time: the machine may be loaded.
"""

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import harness as h
from bench_startup import process_cpu

from solver.app.arguments import non_negative_int, positive_int
from solver.game.cards import format_cards
from solver.game.deal import deal
from solver.game.rules import Rules

PAYOFFS = ("margin", "win")
ROOT = Path(__file__).resolve().parent.parent
TOP_TARGET = 20.0  # issue #38: --top 2 against an equilibrium, seconds


def cards_of(seed: int) -> tuple[str, str]:
    """Both holdings of the independent deal ``seed``, as text."""
    first, second = deal(seed=seed, rules=Rules(discard_mode="independent")).holdings
    return format_cards(first), format_cards(second)


def opponent_mixture(seed: int, path: Path, cache: str) -> None:
    """The opponent's equilibrium strategy of deal ``seed`` as a mixture file (untimed)."""
    mine, theirs = cards_of(seed)
    argv = ["equilibrium", theirs, "--opponent-cards", mine, "--mode", "independent"]
    process_cpu(ROOT, [*argv, "--no-book", "--out", str(path)], cache)


def proven_top(seed: int, path: Path, cache: str) -> bool:
    """Whether ``suggest --top 2`` proves both arrangements (its output read, not timed)."""
    argv = ["suggest", "--seed", str(seed), "--mode", "independent", "--against", str(path)]
    done = subprocess.run(
        [sys.executable, "-m", "solver.cli", *argv, "--top", "2"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": cache, "QUINTET_PROGRESS": "0"},
        check=False,
    )
    return done.returncode == 0 and "best found" not in done.stdout


def main() -> int:
    parser = h.parser(__doc__)
    parser.add_argument("--deals", type=positive_int, default=10, help="deals (10)")
    parser.add_argument("--seed", type=non_negative_int, default=1, help="first seed (1)")
    args = parser.parse_args()
    started = time.perf_counter()
    seeds = range(args.seed, args.seed + args.deals)
    cpu: dict[str, list[float]] = {}
    proven = 0
    with tempfile.TemporaryDirectory() as cache:
        for seed in seeds:
            h.log(f"deal {seed}")
            common = ["--seed", str(seed), "--mode", "independent", "--no-book"]
            for payoff in PAYOFFS:
                argv = ["equilibrium", *common, "--payoff", payoff]
                process_cpu(ROOT, argv, cache)  # untimed: the frontiers cached
                for ranges in (True, False):
                    key = f"equilibrium --payoff {payoff}" + (" --ranges" if ranges else "")
                    timed = process_cpu(ROOT, argv + (["--ranges"] if ranges else []), cache)
                    cpu.setdefault(key, []).append(timed)
            mixture = Path(cache) / f"mixture-{seed}.json"
            opponent_mixture(seed, mixture, cache)
            argv = ["suggest", *common[:4], "--against", str(mixture), "--top", "2"]
            cpu.setdefault("suggest --top 2 --against FILE", []).append(
                process_cpu(ROOT, argv, cache)
            )
            proven += proven_top(seed, mixture, cache)
    table = h.Table(
        f"Independent deals {seeds.start}-{seeds.stop - 1}: whole process, CPU (user + system)",
        "command; runs; median; p95; max; note",
        "lrrrrl",
    )
    for key, values in cpu.items():
        note = "-"
        if key.startswith("suggest"):
            note = f"both proven on {proven}/{len(values)}, <= {TOP_TARGET:g} s: "
            note += h.met(max(values) <= TOP_TARGET)
        table.add(
            f"{key}; {len(values)}; {h.seconds(h.median(values))}; "
            f"{h.seconds(h.p95(values))}; {h.seconds(max(values))}; {note}"
        )
    h.show([table], args.markdown, h.elapsed(started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
