"""Benchmark of the hand evaluator against treys, eval7 and phevaluator.

Run from the repository root::

    python benchmarks/bench_evaluator.py [--hands N] [--repeat R] [--seed S] [--markdown]

Cold build, batch and per-hand speed, and ordering agreement with the other libraries;
medians over R repeats, targets reported, never asserted.
"""

import importlib
import os
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import harness as h
import numpy as np

import solver
from solver.app.arguments import positive_int

THROUGHPUT_TARGET = 40.0  # M hands/s
# Our card id is 4 * rank + suit, ranks 7..A, suits c d h s: spelled out here so the
# comparison does not rely on our own formatter.
CARD_NAMES = tuple(rank + suit for rank in "789TJQKA" for suit in "cdhs")
COLD_SCRIPT = """\
import json, time; t = [time.perf_counter()]
import solver; solver.hand_table; t.append(time.perf_counter())
solver.hand_table(); t.append(time.perf_counter())
solver.strength([28, 24, 20, 16, 12]); t.append(time.perf_counter())
solver.hand_table(solver.Rules(ace_low_straight=True)); t.append(time.perf_counter())
solver.hand_table(); t.append(time.perf_counter())
print(json.dumps([b - a for a, b in zip(t, t[1:])]))
"""
COLD_STEPS = {  # step: target (seconds)
    "import solver and the evaluator (numpy included)": 0.2,
    "first hand_table(), default rules": 0.15,
    "import + first hand_table()": None,
    "first strength() call (colex mask tables)": None,
    "hand_table(Rules(ace_low_straight=True)), warm": None,
    "hand_table() again (lru_cache hit)": None,
}
Evaluator = tuple[str, str, Callable[[], list[int]], int]


def fmt_time(value: float) -> str:
    return f"{value * 1e6:.2f} µs" if value < 1e-3 else f"{value * 1e3:.1f} ms"


def mhps(rate: float) -> str:
    return f"{rate / 1e6:.3f}" if rate < 1e7 else f"{rate / 1e6:.1f}"


def cold_table(repeat: int) -> h.Table:
    """Table 1: each step timed inside ``repeat`` fresh interpreters."""
    runs = []
    for _ in range(repeat):
        steps = h.last("-c", COLD_SCRIPT)
        runs.append([steps[0], steps[1], steps[0] + steps[1], *steps[2:]])
    table = h.Table(
        f"1. Table build, cold (fresh interpreter, {repeat} runs)",
        "step; median; min; target; met",
        "lrrrl",
    )
    for (name, target), values in zip(COLD_STEPS.items(), zip(*runs, strict=True), strict=True):
        middle = h.median(values)
        goal = (
            ["", ""] if target is None else [f"<= {target * 1e3:.0f} ms", h.met(middle <= target)]
        )
        table.add(name, fmt_time(middle), fmt_time(min(values)), *goal)
    table.notes = ["Each run: a new `python -c` process timing itself; nothing is cleared"]
    return table


def random_hands(n: int, rng: np.random.Generator) -> np.ndarray:
    """``(n, 5)`` int8 hands of distinct cards, uniform: rows with a repeat are redrawn."""
    hands = rng.integers(0, 32, size=(n, 5), dtype=np.int8)
    redraw = np.arange(n)
    while redraw.size:
        block = np.sort(hands[redraw], axis=1)
        redraw = redraw[(block[:, 1:] == block[:, :-1]).any(axis=1)]
        hands[redraw] = rng.integers(0, 32, size=(redraw.size, 5), dtype=np.int8)
    return hands


def each(evaluate: Callable[..., int], arguments: list[Any]) -> list[int]:
    return [evaluate(*a) for a in arguments]  # a bound local name in a list comprehension


def other_evaluators(hands: list[list[int]]) -> list[Evaluator]:
    """(library, call, run over every hand, sign making higher better) of each installed one."""
    found: list[Evaluator] = []
    for library in ("treys", "eval7", "phevaluator"):
        try:
            module = importlib.import_module(library)
        except ImportError:
            h.log(f"{library} not installed: skipped")
            continue
        if library == "treys":  # Evaluator() builds its tables: outside the timed region
            card, shape = module.Card.new, lambda c: ([c[0], c[1]], c[2:])
            calls = [("Evaluator().evaluate(hole, board)", module.Evaluator().evaluate, -1)]
        elif library == "eval7":
            card, shape = module.Card, lambda c: (c,)
            calls = [("evaluate([Card, ...])", module.evaluate, 1)]
        else:
            card, shape, names = module.Card.to_id, tuple, ("evaluate_cards", "evaluate_5cards")
            calls = [(f"{f}(*int ids)", getattr(module, f), -1) for f in names]
        ids = [card(name) for name in CARD_NAMES]
        arguments = [shape([ids[c] for c in hand]) for hand in hands]
        name = f"{library} {h.version(library)}"
        found += [(name, call, partial(each, f, arguments), sign) for call, f, sign in calls]
    return found


def agreement_row(label: str, ours: np.ndarray, theirs: np.ndarray) -> list[str]:
    """Pairs (0, 1), (2, 3), ... judged alike; the same weak order on every pair (by sorting)."""
    even = ours.shape[0] // 2 * 2
    signs = [np.sign(np.diff(values[:even].reshape(-1, 2))) for values in (ours, theirs)]
    same = signs[0] == signs[1]
    order = np.lexsort((theirs, ours))
    every = np.array_equal(np.diff(ours[order]) > 0, np.diff(theirs[order]) > 0)
    distinct = f"{np.unique(ours).size} / {np.unique(theirs).size}"
    rate = f"{100 * same.mean():.4f}%"
    return [label, f"{even // 2:,}", f"{int(same.sum()):,}", rate, h.met(bool(every)), distinct]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its tables."""
    cli = h.parser(__doc__).options(positive_int, hands=5_000_000, repeat=7)
    cli.options(int, seed=20_240_601).options(positive_int, compare_hands=200_000)
    args = cli.options(positive_int, single_hands=20_000).parse_args(argv)
    started, repeat = time.perf_counter(), args.repeat
    versions = ["numpy", h.package(solver), "treys / eval7 / phevaluator"]
    parameters = f"hands={args.hands:,} repeat={repeat} seed={args.seed} compare-hands="
    parameters += f"{args.compare_hands:,} single-hands={args.single_hands:,}"
    h.log("cold builds")
    tables = [h.machine(versions, parameters, load=False), cold_table(repeat)]
    hands8 = random_hands(args.hands, np.random.default_rng(args.seed))
    hands64 = hands8.astype(np.int64)
    batch = h.Table(
        f"2. Batch strength(hands), {args.hands:,} random hands, {repeat} repeats",
        "input dtype; median time; median M hands/s; best M hands/s; target; met",
        "lrrrrl",
    )
    for hands in (hands8, hands64):
        timing = h.timed(lambda x=hands: solver.strength(x), repeat, warmup=1)
        middle = h.median(timing.wall)
        rate = args.hands / middle
        batch.add(
            f"{hands.dtype.name}; {middle * 1e3:.1f} ms; {mhps(rate)}; "
            f"{mhps(args.hands / min(timing.wall))}; >= {THROUGHPUT_TARGET:.0f}; "
            + h.met(rate / 1e6 >= THROUGHPUT_TARGET)
        )
    threads = min(4, os.cpu_count() or 1)
    batch.notes = [f"Hands: 5 distinct cards, uniform; one warm-up per dtype; {threads} threads"]
    ours = np.asarray(timing.result, dtype=np.int64)  # the int64 batch's result
    ours_row = [f"{1e6 / rate:.4f}", mhps(rate), "1"]
    n = min(args.compare_hands, args.hands)
    speed = h.Table(
        f"3. Per-hand evaluators, {n:,} of the same hands, {repeat} repeats",
        "library; call (one per hand); median µs/hand; median M hands/s; ours batch / theirs",
        "llrrr",
    )
    speed.add(f"quintet-solver {solver.__version__}", "strength(int64 array), batch", *ours_row)
    agreement = h.Table(
        "5. Ordering agreement with the other evaluators (must be 100%)",
        "compared with; random pairs; agreeing; rate; all pairs agree; "
        "distinct values (ours / theirs)",
        "lrrrll",
    )
    for library, call, run, sign in other_evaluators(hands64[:n].tolist()):
        h.log(f"{library}: {call}")
        timing = h.timed(run, repeat, warmup=1)
        middle = h.median(timing.wall)
        us, theirs_rate = f"{middle / n * 1e6:.3f}", mhps(n / middle)
        speed.add(library, call, us, theirs_rate, f"{rate / (n / middle):,.0f}x")
        theirs = sign * np.asarray(timing.result, dtype=np.int64)
        agreement.rows.append(agreement_row(f"{library}: {call}", ours[:n], theirs))
    speed.notes = ["Card conversion and treys.Evaluator() untimed; ratio: our batch over theirs"]

    k = min(args.single_hands, args.hands)
    rows = list(hands64[:k])
    timing = h.timed(lambda: [solver.strength(hand) for hand in rows], repeat, warmup=1)
    single, single_rate = h.median(timing.wall) / k, k / h.median(timing.wall)
    overhead = h.Table(
        f"4. Our per-call overhead: strength(hand) one hand at a time, {k:,} hands, "
        f"{repeat} repeats",
        "call; median µs/hand; median M hands/s; batch (int64) / per-call",
        "lrrr",
    )
    overhead.add(
        f"strength(int64 array of shape (5,)); {single * 1e6:.2f}; "
        f"{mhps(single_rate)}; {rate / single_rate:,.0f}x"
    )
    overhead.add("strength(int64 array of shape (N, 5)), batch", *ours_row)
    same = np.asarray(timing.result, dtype=np.int64) == ours[:k]
    agreement.add(
        f"our per-hand calls vs our batch call; {k:,} hands; {int(same.sum()):,}; "
        f"{100 * same.mean():.4f}%; {h.met(bool(same.all()))}; "
    )
    agreement.notes = ["Pairs agree on win, tie or loss; all pairs: one weak order (by sorting)"]
    h.show([*tables, batch, speed, overhead, agreement], args.markdown, h.elapsed(started, False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
