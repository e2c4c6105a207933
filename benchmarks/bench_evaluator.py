"""Benchmark of the hand evaluator, :mod:`solver.game.evaluator`.

Run from the repository root::

    python benchmarks/bench_evaluator.py [--hands N] [--repeat R] [--seed S] [--markdown]

It prints plain-text tables, or GitHub markdown with ``--markdown`` (ready to
paste into a results file).  Every figure quoted is the median over ``R``
repeats; minima or best runs are given next to it for context only.

What is measured
----------------
1. **Table build, cold.**  ``R`` fresh interpreters (subprocesses) each time,
   with ``time.perf_counter`` inside the subprocess, ``import solver`` (numpy
   included, since the package imports it) and the first ``hand_table()``
   call, which enumerates all 201,376 hands.  The same subprocesses also time
   the first ``strength()`` call (it builds the 16-bit colex mask tables),
   ``hand_table(Rules(ace_low_straight=True))`` right after (a different
   ``lru_cache`` key, so a real build, but with the rule-independent pieces
   already cached: a *warm* build; nothing is cleared) and a cache hit.
   "Cold" means a fresh process: the OS file cache and ``__pycache__`` are warm.
2. **Batch throughput.**  ``strength(hands)`` on ``N`` (default 5,000,000)
   seeded uniform random hands of five distinct cards, given as ``int8`` and as
   ``int64`` arrays, in million hands per second.
3. **Per-hand evaluators** a Python user would otherwise pick, when installed:
   treys, eval7 and phevaluator (52-card evaluators, fed the same 32-card hands
   converted to their card formats outside the timed region), called once per
   hand in a list comprehension on a subsample (default 200,000 hands).  The
   ratio column is our ``int64`` batch throughput over theirs.
4. **Our per-call overhead**: ``strength(hand)`` called on one hand at a time
   (default 20,000 hands), against the batch call.
5. **Ordering agreement** (correctness, not speed).  On a 32-card deck the
   default ranking coincides with standard poker ranking (docs/rules.md: no wheel
   can occur, A-7-8-9-10 is not a straight, the flush stays below the full
   house), so for every pair of hands ours must say ``a > b`` exactly when the
   other library says ``a`` is better (treys and phevaluator: lower is better;
   eval7: higher is better).  Checked on disjoint random pairs (the rate
   reported) and, exactly, over all pairs of the subsample (the two orders must
   be the same weak order).  Our per-hand results must equal our batch ones.
   Any disagreement makes the script exit with status 1.

Targets (reported as met or not; never asserted)
-------------------------------------------------
* ``import solver`` <= 0.2 s, cold.
* first ``hand_table()`` <= 0.15 s, cold.
* batch ``strength`` >= 40 M hands/s.

With the defaults the whole run takes well under two minutes on two cores.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import numpy as np
from _common import (
    Table,
    git_revision,
    log,
    machine_table,
    met,
    positive_int,
    version,
)

import solver
from solver.game.cards import DECK_SIZE, HAND_SIZE

REPO_ROOT = Path(__file__).resolve().parent.parent

IMPORT_TARGET_S = 0.2
BUILD_TARGET_S = 0.15
THROUGHPUT_TARGET_MHPS = 40.0

T = TypeVar("T")

# Our card id is 4 * rank + suit, rank 0..7 = 7 8 9 T J Q K A, suit 0..3 = c d h s.
# Written out here rather than taken from solver.game.cards, so the cross-check with
# the other libraries does not rely on our own formatter.
CARD_NAMES: tuple[str, ...] = tuple(rank + suit for rank in "789TJQKA" for suit in "cdhs")

# Runs in a fresh interpreter; prints one JSON line of durations in seconds.
_COLD_SCRIPT = """\
import json, time
t0 = time.perf_counter()
import solver
t1 = time.perf_counter()
solver.hand_table()
t2 = time.perf_counter()
solver.strength([28, 24, 20, 16, 12])
t3 = time.perf_counter()
solver.hand_table(solver.Rules(ace_low_straight=True))
t4 = time.perf_counter()
solver.hand_table()
t5 = time.perf_counter()
print(json.dumps({
    "import": t1 - t0,
    "build": t2 - t1,
    "first_lookup": t3 - t2,
    "other_rules": t4 - t3,
    "cached": t5 - t4,
}))
"""


# --------------------------------------------------------------------------- output


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.1f} ms"


def _us(seconds: float) -> str:
    return f"{seconds * 1e6:.2f} µs"


def _mhps(hands_per_second: float) -> str:
    return (
        f"{hands_per_second / 1e6:.3f}"
        if hands_per_second < 1e7
        else f"{hands_per_second / 1e6:.1f}"
    )


# --------------------------------------------------------------------------- machine


def machine_header(args: argparse.Namespace) -> Table:
    """Date, machine, versions and run parameters, as a two-column table."""
    return machine_table(
        [
            ("numpy", np.__version__),
            ("quintet-solver", f"{solver.__version__}, git {git_revision()}"),
            (
                "treys / eval7 / phevaluator",
                " / ".join(version(name) for name in ("treys", "eval7", "phevaluator")),
            ),
        ],
        f"hands={args.hands:,} repeat={args.repeat} seed={args.seed} "
        f"compare-hands={args.compare_hands:,} single-hands={args.single_hands:,}",
        load=False,
    )


# --------------------------------------------------------------------------- hands


def _has_repeat(hands: np.ndarray) -> np.ndarray:
    """Whether each row of an ``(n, 5)`` array repeats a card."""
    repeat = np.zeros(hands.shape[0], dtype=bool)
    for i in range(HAND_SIZE):
        for j in range(i + 1, HAND_SIZE):
            repeat |= hands[:, i] == hands[:, j]
    return repeat


def random_hands(n: int, rng: np.random.Generator) -> np.ndarray:
    """Uniform random hands of five distinct cards, as an ``(n, 5)`` int8 array.

    Vectorized rejection sampling: rows with a repeated card are redrawn until
    none is left.  Each row is then uniform over ordered 5-tuples of distinct
    cards, the law of the top five cards of a shuffled deck (about 28% of rows
    are redrawn in the first round; it is much cheaper than sorting 32 random
    keys per row).

    Parameters
    ----------
    n
        Number of hands.
    rng
        Source of randomness.

    Returns
    -------
    numpy.ndarray
        ``(n, 5)`` int8 card ids.
    """
    hands = rng.integers(0, DECK_SIZE, size=(n, HAND_SIZE), dtype=np.int8)
    redraw = np.flatnonzero(_has_repeat(hands))
    while redraw.size:
        hands[redraw] = rng.integers(0, DECK_SIZE, size=(redraw.size, HAND_SIZE), dtype=np.int8)
        redraw = redraw[_has_repeat(hands[redraw])]
    return hands


# --------------------------------------------------------------------------- timing


def timed(run: Callable[[], T], repeat: int) -> tuple[list[float], T]:
    """Wall time of ``repeat`` calls of ``run`` and the result of the last one.

    Parameters
    ----------
    run
        The timed callable, without arguments.
    repeat
        Number of timed calls.

    Returns
    -------
    tuple
        The durations in seconds and the last result.
    """
    times: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return times, result  # repeat >= 1


def cold_build(repeat: int) -> dict[str, list[float]]:
    """Durations measured by ``_COLD_SCRIPT`` in ``repeat`` fresh interpreters.

    Returns
    -------
    dict
        For each step of the script, its ``repeat`` durations in seconds.

    Raises
    ------
    RuntimeError
        If a subprocess fails.
    """
    samples: dict[str, list[float]] = {}
    for _ in range(repeat):
        process = subprocess.run(
            [sys.executable, "-c", _COLD_SCRIPT],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        if process.returncode != 0:
            raise RuntimeError(f"cold-build subprocess failed:\n{process.stderr}")
        for key, value in json.loads(process.stdout.strip().splitlines()[-1]).items():
            samples.setdefault(key, []).append(float(value))
    return samples


def cold_table(samples: dict[str, list[float]]) -> Table:
    """Table 1 from the samples of :func:`cold_build`."""
    total = [a + b for a, b in zip(samples["import"], samples["build"], strict=True)]
    steps: list[tuple[str, list[float], float | None]] = [
        ("import solver (numpy included)", samples["import"], IMPORT_TARGET_S),
        ("first hand_table(), default rules", samples["build"], BUILD_TARGET_S),
        ("import + first hand_table()", total, None),
        ("first strength() call (colex mask tables)", samples["first_lookup"], None),
        ("hand_table(Rules(ace_low_straight=True)), warm", samples["other_rules"], None),
        ("hand_table() again (lru_cache hit)", samples["cached"], None),
    ]
    table = Table(
        f"1. Table build, cold (fresh interpreter, {len(total)} runs)",
        ["step", "median", "min", "target", "met"],
        "lrrrl",
    )
    for name, values, target in steps:
        median = statistics.median(values)
        fmt = _us if median < 1e-3 else _ms
        table.rows.append(
            [
                name,
                fmt(median),
                fmt(min(values)),
                "" if target is None else f"<= {target * 1e3:.0f} ms",
                "" if target is None else met(median <= target),
            ]
        )
    table.notes = [
        "Each run is a new `python -c` process timing itself with time.perf_counter; "
        "OS file cache and __pycache__ are warm.",
        "The ace-low table is a different lru_cache key, so it is really built, but after "
        "the default one: the rule-independent pieces (all hands, rank multisets) are "
        "already cached. Nothing is cleared.",
    ]
    return table


# --------------------------------------------------------------------------- other evaluators


@dataclass(frozen=True)
class PerHandEvaluator:
    """A prepared per-hand evaluator of another library.

    Attributes
    ----------
    name
        Library and version.
    call
        The call timed, as a user would write it.
    run
        Evaluates every prepared hand, one call per hand; returns the values.
    higher_is_better
        Direction of the library's values.
    """

    name: str
    call: str
    run: Callable[[], list[int]]
    higher_is_better: bool


def _prepare_treys(hands: list[list[int]]) -> list[PerHandEvaluator]:
    import treys  # type: ignore[import-untyped]

    evaluator = treys.Evaluator()  # builds its lookup tables: outside the timed region
    ids = [treys.Card.new(name) for name in CARD_NAMES]
    prepared = [([ids[a], ids[b]], [ids[c], ids[d], ids[e]]) for a, b, c, d, e in hands]
    evaluate = evaluator.evaluate

    def run() -> list[int]:
        return [evaluate(hole, board) for hole, board in prepared]

    name = f"treys {version('treys')}"
    return [PerHandEvaluator(name, "Evaluator().evaluate(hole, board)", run, False)]


def _prepare_eval7(hands: list[list[int]]) -> list[PerHandEvaluator]:
    import eval7  # type: ignore[import-untyped]

    cards = [eval7.Card(name) for name in CARD_NAMES]
    prepared = [[cards[card] for card in hand] for hand in hands]
    evaluate = eval7.evaluate

    def run() -> list[int]:
        return [evaluate(hand) for hand in prepared]

    name = f"eval7 {version('eval7')}"
    return [PerHandEvaluator(name, "evaluate([Card, ...])", run, True)]


def _prepare_phevaluator(hands: list[list[int]]) -> list[PerHandEvaluator]:
    from phevaluator import Card, evaluate_5cards, evaluate_cards  # type: ignore[import-untyped]

    ids = [Card.to_id(name) for name in CARD_NAMES]  # its int API: 4 * rank + suit, 2 = rank 0
    prepared = [tuple(ids[card] for card in hand) for hand in hands]

    def run_cards() -> list[int]:
        return [evaluate_cards(*hand) for hand in prepared]

    def run_5cards() -> list[int]:
        return [evaluate_5cards(*hand) for hand in prepared]

    name = f"phevaluator {version('phevaluator')}"
    return [
        PerHandEvaluator(name, "evaluate_cards(*int ids)", run_cards, False),
        PerHandEvaluator(name, "evaluate_5cards(*int ids)", run_5cards, False),
    ]


OTHER_EVALUATORS: tuple[tuple[str, Callable[[list[list[int]]], list[PerHandEvaluator]]], ...] = (
    ("treys", _prepare_treys),
    ("eval7", _prepare_eval7),
    ("phevaluator", _prepare_phevaluator),
)


# --------------------------------------------------------------------------- agreement


@dataclass(frozen=True)
class Agreement:
    """How far two rankings of the same hands agree.

    Attributes
    ----------
    pairs
        Number of disjoint random pairs compared.
    agreeing
        Pairs on which both rankings give the same verdict (win, tie or loss).
    same_order
        Whether the two rankings are the same weak order on the whole sample,
        i.e. agree on every pair of it.
    distinct
        Number of distinct values of each ranking on the sample (ours, theirs).
    """

    pairs: int
    agreeing: int
    same_order: bool
    distinct: tuple[int, int]

    @property
    def rate(self) -> float:
        """Fraction of agreeing pairs."""
        return self.agreeing / self.pairs if self.pairs else 1.0

    @property
    def ok(self) -> bool:
        """Full agreement."""
        return self.same_order and self.agreeing == self.pairs


def ordering_agreement(ours: np.ndarray, theirs: np.ndarray) -> Agreement:
    """Compare two rankings of the same hands, both "higher is better".

    Pairs ``(0, 1), (2, 3), ...`` give the agreement rate (the hands are
    random, so these are random pairs).  For the exact all-pairs test, the
    hands are sorted by (ours, theirs): the rankings agree on every pair iff
    along that order ours increases exactly where theirs does.

    Parameters
    ----------
    ours, theirs
        Values of each hand; higher is better for both.
    """
    ours = ours.astype(np.int64)
    theirs = theirs.astype(np.int64)
    even = ours.shape[0] // 2 * 2
    ours_verdict = np.sign(ours[0:even:2] - ours[1:even:2])
    theirs_verdict = np.sign(theirs[0:even:2] - theirs[1:even:2])
    order = np.lexsort((theirs, ours))
    same_order = np.array_equal(np.diff(ours[order]) > 0, np.diff(theirs[order]) > 0)
    return Agreement(
        pairs=even // 2,
        agreeing=int(np.count_nonzero(ours_verdict == theirs_verdict)),
        same_order=bool(same_order),
        distinct=(int(np.unique(ours).size), int(np.unique(theirs).size)),
    )


# --------------------------------------------------------------------------- main


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(
        description="Benchmark the quintet-solver hand evaluator against treys, eval7 "
        "and phevaluator.",
    )
    parser.add_argument(
        "--hands",
        type=positive_int,
        default=5_000_000,
        help="random hands for the batch throughput (default 5,000,000)",
    )
    parser.add_argument(
        "--repeat",
        type=positive_int,
        default=7,
        help="repeats of each measurement; medians are quoted (default 7)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=20_240_601,
        help="seed of the numpy Generator (default 20240601)",
    )
    parser.add_argument(
        "--compare-hands",
        type=positive_int,
        default=200_000,
        help="subsample for the per-hand libraries (default 200,000)",
    )
    parser.add_argument(
        "--single-hands",
        type=positive_int,
        default=20_000,
        help="hands for our own per-hand call (default 20,000)",
    )
    parser.add_argument(
        "--markdown", action="store_true", help="print GitHub markdown tables instead of plain text"
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its tables.

    Parameters
    ----------
    argv
        Command-line arguments (``sys.argv[1:]`` when None).

    Returns
    -------
    int
        0, or 1 if a ranking disagrees with another library or with itself.
    """
    args = parse_args(argv)
    started = time.perf_counter()
    tables = [machine_header(args)]

    log(f"cold table builds in {args.repeat} fresh interpreters")
    tables.append(cold_table(cold_build(args.repeat)))

    log(f"generating {args.hands:,} random hands")
    rng = np.random.default_rng(args.seed)
    hands_int8 = random_hands(args.hands, rng)
    hands_int64 = hands_int8.astype(np.int64)

    log("batch strength()")
    batch = Table(
        f"2. Batch strength(hands), {args.hands:,} random hands, {args.repeat} repeats",
        ["input dtype", "median time", "median M hands/s", "best M hands/s", "target", "met"],
        "lrrrrl",
    )
    batch_rate: dict[str, float] = {}
    reference: np.ndarray | None = None
    for hands in (hands_int8, hands_int64):
        result = solver.strength(hands)  # warm-up: tables, thread pool
        if reference is None:
            reference = result
        elif not np.array_equal(result, reference):
            raise AssertionError("strength() depends on the input dtype")
        times, _ = timed(functools.partial(solver.strength, hands), args.repeat)
        median = statistics.median(times)
        batch_rate[hands.dtype.name] = args.hands / median
        batch.rows.append(
            [
                hands.dtype.name,
                _ms(median),
                _mhps(args.hands / median),
                _mhps(args.hands / min(times)),
                f">= {THROUGHPUT_TARGET_MHPS:.0f}",
                met(args.hands / median / 1e6 >= THROUGHPUT_TARGET_MHPS),
            ]
        )
    assert reference is not None
    batch.notes = [
        "Hands: 5 distinct cards each, uniform, from numpy.random.default_rng(seed); "
        "one untimed warm-up call per dtype.",
        f"Large batches are split in chunks run on a thread pool "
        f"(min(4, cpu_count) = {min(4, os.cpu_count() or 1)} threads here).",
    ]
    tables.append(batch)
    ours_rate = batch_rate["int64"]

    compare_n = min(args.compare_hands, args.hands)
    subsample = hands_int64[:compare_n].tolist()
    ours_subsample = reference[:compare_n]
    speed = Table(
        f"3. Per-hand evaluators, {compare_n:,} of the same hands, {args.repeat} repeats",
        [
            "library",
            "call (one per hand)",
            "median µs/hand",
            "median M hands/s",
            "ours batch / theirs",
        ],
        "llrrr",
    )
    speed.rows.append(
        [
            f"quintet-solver {solver.__version__}",
            "strength(int64 array), batch",
            f"{1e6 / ours_rate:.4f}",
            _mhps(ours_rate),
            "1",
        ]
    )
    agreement = Table(
        "5. Ordering agreement with the other evaluators (must be 100%)",
        [
            "compared with",
            "random pairs",
            "agreeing",
            "rate",
            "all pairs agree",
            "distinct values (ours / theirs)",
        ],
        "lrrrll",
    )
    failures: list[str] = []
    for library, prepare in OTHER_EVALUATORS:
        try:
            evaluators = prepare(subsample)
        except (ImportError, OSError) as error:
            speed.notes.append(f"{library}: skipped, cannot import it ({error}).")
            continue
        for evaluator in evaluators:
            log(f"{evaluator.name}: {evaluator.call}")
            evaluator.run()  # warm-up
            times, values = timed(evaluator.run, args.repeat)
            rate = compare_n / statistics.median(times)
            speed.rows.append(
                [
                    evaluator.name,
                    evaluator.call,
                    f"{statistics.median(times) / compare_n * 1e6:.3f}",
                    _mhps(rate),
                    f"{ours_rate / rate:,.0f}x",
                ]
            )
            theirs = np.asarray(values, dtype=np.int64)
            if not evaluator.higher_is_better:
                theirs = -theirs
            check = ordering_agreement(ours_subsample, theirs)
            agreement.rows.append(
                [
                    f"{evaluator.name}: {evaluator.call}",
                    f"{check.pairs:,}",
                    f"{check.agreeing:,}",
                    f"{100 * check.rate:.4f}%",
                    "yes" if check.same_order else "NO",
                    f"{check.distinct[0]} / {check.distinct[1]}",
                ]
            )
            if not check.ok:
                failures.append(f"{evaluator.name} {evaluator.call}")
    speed.notes += [
        "Card conversion to each library's format, and treys.Evaluator() construction, "
        "are done before timing; each call is a bound local name in a list comprehension.",
        "Ratio: our int64 batch median throughput (table 2) over theirs.",
    ]
    tables.append(speed)

    single_n = min(args.single_hands, args.hands)
    log(f"our per-hand strength() on {single_n:,} hands")
    rows = list(hands_int64[:single_n])
    strength = solver.strength

    def run_single() -> list[np.ndarray]:
        return [strength(hand) for hand in rows]

    run_single()  # warm-up
    times, single_values = timed(run_single, args.repeat)
    single_median = statistics.median(times)
    single_rate = single_n / single_median
    overhead = Table(
        f"4. Our per-call overhead: strength(hand) one hand at a time, {single_n:,} hands, "
        f"{args.repeat} repeats",
        ["call", "median µs/hand", "median M hands/s", "batch (int64) / per-call"],
        "lrrr",
        [
            [
                "strength(int64 array of shape (5,))",
                f"{single_median / single_n * 1e6:.2f}",
                _mhps(single_rate),
                f"{ours_rate / single_rate:,.0f}x",
            ],
            [
                "strength(int64 array of shape (N, 5)), batch",
                f"{1e6 / ours_rate:.4f}",
                _mhps(ours_rate),
                "1",
            ],
        ],
    )
    tables.append(overhead)

    single_array = np.array([int(value) for value in single_values])
    self_ok = bool(np.array_equal(single_array, reference[:single_n]))
    agreement.rows.append(
        [
            "our per-hand calls vs our batch call",
            f"{single_n:,} hands",
            f"{int(np.count_nonzero(single_array == reference[:single_n])):,}",
            f"{100 * np.mean(single_array == reference[:single_n]):.4f}%",
            "yes" if self_ok else "NO",
            "",
        ]
    )
    if not self_ok:
        failures.append("our per-hand vs batch")
    agreement.notes = [
        "Random pairs: hands (0, 1), (2, 3), ... of the subsample; a pair agrees when both "
        "say win, tie or loss alike (treys, phevaluator: lower is better; eval7: higher).",
        "All pairs: the two rankings are the same weak order on the whole subsample "
        "(checked exactly by sorting).",
    ]
    tables.append(agreement)

    print("\n\n".join(table.render(args.markdown) for table in tables))
    print()
    print(f"Total benchmark time: {time.perf_counter() - started:.1f} s")
    if failures:
        print(f"FAIL: ordering disagreement: {', '.join(failures)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
