"""The whole game: orbit weights, samples and slices of the classes, bootstrap intervals,
the summary (made, written, read back damaged), builds over a slice killed and resumed."""

from __future__ import annotations

import functools
import itertools
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from math import comb
from pathlib import Path

import numpy as np
import pytest

from solver.book.build import BuildProgress, build, chosen_keys
from solver.book.canonical import (
    SUIT_PERMUTATIONS,
    canonical_masks,
    canonical_mirror_holdings,
    holding_of,
    orbit_sizes,
    sample_mirror_classes,
    slice_mirror_classes,
)
from solver.book.estimate import ROW_OVERHEAD, estimate_units
from solver.book.store import Book
from solver.book.summary import (
    MAX_BYTES,
    SHIPPED,
    bootstrap,
    read_summary,
    share_figure,
    summarize,
    write_summary,
)
from solver.errors import BookError
from solver.game.rules import Rules
from solver.schemas import schema

RULES = Rules()
FIRST = (0, 3)  # the first classes of the enumeration: holdings of high cards, solved at once


@functools.cache
def _all_classes() -> np.ndarray:
    """Every class's canonical mask (2 s to enumerate: once per module)."""
    return np.concatenate(list(canonical_mirror_holdings()))


# ---------- orbit weights ----------


def test_orbit_weights_of_every_class_sum_to_the_number_of_deals() -> None:
    classes = _all_classes()
    assert classes.size == 156_248 == np.unique(classes).size
    assert int(orbit_sizes(classes).sum()) == comb(32, 7)


def _orbit_by_hand(mask: int) -> int:
    """The slow, obvious orbit: relabel the holding's cards by each of the 24 suit
    permutations, one card at a time, and count the distinct sets."""
    held = holding_of(mask)
    images = set()
    for perm in itertools.permutations(range(4)):
        images.add(frozenset(4 * (card // 4) + perm[card % 4] for card in held))
    return len(images)


def test_orbit_sizes_match_a_count_by_hand() -> None:
    rng = np.random.default_rng(3)
    classes = _all_classes()
    picked = [int(m) for m in rng.choice(classes, 40, replace=False)] + [int(classes[0])]
    expected = [_orbit_by_hand(m) for m in picked]
    assert orbit_sizes(np.array(picked)).tolist() == expected
    assert {1, 24} - set(expected) == {1}  # a symmetric holding is rare, 24 common
    assert len(SUIT_PERMUTATIONS) == 24


# ---------- samples and slices of the classes ----------


def test_a_sample_is_seeded_distinct_canonical_and_uniform_over_classes() -> None:
    sample = sample_mirror_classes(2000, 7)
    assert sample.tolist() == sample_mirror_classes(2000, 7).tolist()
    assert sample.tolist() != sample_mirror_classes(2000, 8).tolist()
    assert np.unique(sample).size == 2000
    assert (canonical_masks(sample) == sample).all()
    # Uniform over classes, not over deals: the orbit sizes are those of all the classes.
    everyone = orbit_sizes(_all_classes())
    assert np.mean(orbit_sizes(sample) == 24) == pytest.approx(np.mean(everyone == 24), abs=0.03)


def test_a_slice_is_the_enumeration_order() -> None:
    classes = _all_classes()
    assert slice_mirror_classes(2, 70).tolist() == classes[2:70].tolist()
    keys = chosen_keys(FIRST, 0, RULES)
    assert keys == [(m, m) for m in classes[FIRST[0] : FIRST[1]].tolist()]


def test_classes_are_checked() -> None:
    with pytest.raises(BookError, match=r"^classes: give deals or classes"):
        build(None, RULES, ["margin"], deals=3, classes=5)
    with pytest.raises(BookError, match=r"^classes: start 4 is not before stop 4"):
        build(None, RULES, ["margin"], classes=(4, 4))
    with pytest.raises(BookError, match=r"^sample: count must be between 1 and 156248"):
        sample_mirror_classes(156_249, 0)
    with pytest.raises(BookError, match=r"^classes: only mirror classes"):
        chosen_keys(5, 0, Rules(discard_mode="independent"))


# ---------- bootstrap intervals ----------


def test_bootstrap_is_seeded_and_weighted() -> None:
    rng = np.random.default_rng(0)
    values, weights = rng.random((500, 3)), rng.integers(1, 25, 500).astype(float)
    first = bootstrap(values, weights, seed=4)
    assert all(
        np.array_equal(a, b) for a, b in zip(first, bootstrap(values, weights, seed=4), strict=True)
    )
    assert not np.array_equal(first[1], bootstrap(values, weights, seed=5)[1])
    mean, low, high = first
    assert mean == pytest.approx(np.average(values, axis=0, weights=weights))
    assert (low < mean).all() and (mean < high).all()
    constant = bootstrap(np.full(50, 0.25), np.arange(1.0, 51.0), seed=1)
    assert [float(x) for x in constant] == pytest.approx([0.25, 0.25, 0.25])


def test_bootstrap_interval_has_the_normal_width_on_a_large_sample() -> None:
    rng = np.random.default_rng(2)
    n, p = 4000, 0.3
    values = (rng.random(n) < p).astype(float)
    mean, low, high = bootstrap(values, np.ones(n), seed=0)
    normal = 2 * 1.96 * np.sqrt(mean * (1 - mean) / n)
    assert float(high - low) == pytest.approx(normal, rel=0.15)


def test_bootstrap_intervals_cover_the_true_mean_about_95_percent_of_the_time() -> None:
    rng = np.random.default_rng(9)
    weights = rng.integers(1, 25, 200).astype(float)
    covered = 0
    for trial in range(200):
        values = rng.exponential(1.0, 200)  # the weighted mean's true value is 1
        _, low, high = bootstrap(values, weights, replicates=300, seed=trial)
        covered += bool(low <= 1.0 <= high)
    assert 0.88 <= covered / 200 <= 0.99


# ---------- the summary ----------


@pytest.fixture(scope="module")
def small_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("whole") / "book.sqlite"
    build(path, RULES, ["margin", "win"], classes=FIRST)
    return path


def test_a_summary_weights_each_class_by_its_orbit(small_book: Path, tmp_path: Path) -> None:
    with Book(small_book, read_only=True) as book:
        document = summarize(book, seed=3)
        entries = list(book.entries(RULES, "margin"))
    schema_check(document)
    margin = document["payoffs"][0]
    orbits = np.array([e.orbit for e in entries])
    assert margin["classes"] == 3 and margin["weight"] == int(orbits.sum())
    support = np.array([len(e.row_probabilities) for e in entries])
    assert margin["support"]["mean"] == pytest.approx(np.average(support, weights=orbits), rel=1e-5)
    assert margin["value"]["mean"] == 0.0  # a mirror game's value, without float dust
    size = write_summary(document, tmp_path / "s.json")
    assert size < MAX_BYTES
    found = read_summary(tmp_path / "s.json")
    assert found.problems == () and found.document == document


def schema_check(document: dict) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(document, schema("quintet-summary/1"))


def test_the_shipped_summary_reads_clean_under_a_megabyte_and_in_the_wheel() -> None:
    assert SHIPPED.stat().st_size < MAX_BYTES
    found = read_summary()
    assert found.problems == () and found.document is not None
    schema_check(json.loads(SHIPPED.read_text("utf-8")))
    assert {b["payoff"] for b in found.document["payoffs"]} == {"margin", "win"}
    assert found.document["sample"]["kind"] == "uniform classes"
    pyproject = (Path(__file__).parents[2] / "pyproject.toml").read_text("utf-8")
    assert '"solver.book" = ["whole-game.json"]' in pyproject


def _damaged(tmp_path: Path, change) -> tuple[str, ...]:
    document = json.loads(SHIPPED.read_text("utf-8"))
    path = tmp_path / "damaged.json"
    text = change(document)
    path.write_text(text if isinstance(text, str) else json.dumps(document), "utf-8")
    found = read_summary(path)
    return found.problems if found.document is None else ("kept", *found.problems)


def _set(path: list, value):
    def change(document):
        target = document
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value

    return change


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda d: "{", "is not JSON"),
        (lambda d: json.dumps(d)[:500], "is not JSON"),
        (lambda d: "[" * 100_000 + "]" * 100_000, "is not JSON"),
        (
            lambda d: json.dumps({**d, "format": "quintet-summary/2"}),
            "is format 'quintet-summary/2'",
        ),
        (lambda d: json.dumps([1, 2]), "the file: not an object"),
        (_set(["rules", "position_points"], [3, 4, "x"]), "rules: points"),
        (_set(["sample", "bootstrap", "level"], 7), "bootstrap: level"),
        (_set(["payoffs"], "many"), "payoffs: not a list"),
        (_set(["payoffs"], []), "no readable payoff"),
    ],
)
def test_a_damaged_summary_is_reported_never_fatal(tmp_path: Path, change, says: str) -> None:
    problems = _damaged(tmp_path, change)
    assert problems[0] != "kept" and says in " ".join(problems)


@pytest.mark.parametrize(
    ("path", "value", "says"),
    [
        (["positions", 0, "concede", "mean"], 1.5, "position 1: mean: 1.5 is not in [0.0, 1.0]"),
        (["positions", 1, "concede", "interval"], [0.9, 0.95], "outside its interval"),
        (
            ["positions", 2, "combinations", "royal flush"],
            {"mean": 0, "interval": [0, 0]},
            "unknown combination",
        ),
        (["positions"], [], "positions: 0, the rules have 5"),
        (["support", "histogram"], [{"low": 1}] * 3, "support bin 1"),
        (["hardest", "support"], [{"removed": "x" * 500}], "removed"),
        (["pure", "mean"], float("nan"), "pure: mean"),
        (["classes"], True, "classes"),
    ],
)
def test_a_damaged_payoff_is_left_out_and_the_other_kept(tmp_path, path, value, says) -> None:
    problems = _damaged(tmp_path, _set(["payoffs", 1, *path], value))
    assert problems[0] == "kept" and len(problems) == 2
    assert "payoff 2 is damaged" in problems[1] and says in problems[1], problems


def test_a_summary_too_large_or_missing_or_not_text_is_reported(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_BYTES + 1))
    assert read_summary(big).problems == (f"summary: big.json is over {MAX_BYTES} bytes",)
    assert "cannot be read" in read_summary(tmp_path / "none.json").problems[0]
    binary = tmp_path / "b.json"
    binary.write_bytes(b"\xff\xfe{}")
    assert read_summary(binary).problems == ("summary: b.json is not UTF-8 text",)


def test_the_estimate_uses_the_books_rows_then_the_shipped_summary() -> None:
    shipped = read_summary().document
    assert shipped is not None
    per_class = sum(b["seconds"]["mean"] for b in shipped["payoffs"])
    estimate = estimate_units(2000, ["margin", "win"], workers=4)
    assert estimate.classes == 1000 and estimate.cpu_seconds == pytest.approx(1000 * per_class)
    assert estimate.wall_seconds == pytest.approx(estimate.cpu_seconds / 4)
    own = estimate_units(10, ["margin"], own={"margin": (50, 2.0, 100.0)})
    assert own.cpu_seconds == pytest.approx(20.0) and "the book's 50 rows" in own.source
    assert own.disk_bytes == pytest.approx(10 * (100 * 33 + ROW_OVERHEAD))


# ---------- builds over a slice of the classes: killed, resumed ----------


def _rows(path: Path) -> list[tuple[object, ...]]:
    connection = sqlite3.connect(path)
    try:
        return connection.execute(
            "SELECT rules, payoff, first, second, orbit, value, lower, upper, row_cards "
            "FROM solutions ORDER BY rules, payoff, first, second"
        ).fetchall()
    finally:
        connection.close()


def _count(path: Path) -> int:
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            return int(connection.execute("SELECT COUNT(*) FROM solutions").fetchone()[0])
        finally:
            connection.close()
    except sqlite3.Error:
        return 0


SLICE = (0, 30)
_STOPPING = textwrap.dedent(
    """
    import signal, sys, threading
    from solver.book.build import build
    from solver.game.rules import Rules
    signal.signal(signal.SIGHUP, signal.SIG_DFL)

    def stop_mid_way(progress):
        if progress.done >= 10:  # ten solves finished, at least six committed (batches of 3)
            print("ready", flush=True)
            threading.Event().wait()

    build(sys.argv[1], Rules(), ["margin", "win"], classes=(0, 30), batch=3,
          on_progress=stop_mid_way)
    """
)


@pytest.mark.slow
def test_a_build_over_classes_killed_with_sigkill_resumes_to_the_clean_result(
    tmp_path: Path,
) -> None:
    path = tmp_path / "killed.sqlite"
    process = subprocess.Popen([sys.executable, "-c", _STOPPING, str(path)], stdout=subprocess.PIPE)
    try:
        assert process.stdout is not None
        ready = process.stdout.readline()
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.kill()
        process.wait()
    assert ready == b"ready\n" and process.returncode == -signal.SIGKILL
    partial = _count(path)
    assert 6 <= partial < 60  # rows come two at a time (a class, both payoffs)
    resumed = build(path, RULES, ["margin", "win"], classes=SLICE)
    assert resumed.stored_before == partial and resumed.solved == 60 - partial
    clean = tmp_path / "clean.sqlite"
    build(clean, RULES, ["margin", "win"], classes=SLICE)
    assert _rows(path) == _rows(clean)
    assert {r[2] for r in _rows(path)} == set(slice_mirror_classes(*SLICE).tolist())


@pytest.mark.slow
def test_a_dask_build_over_classes_survives_a_killed_worker(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    path = tmp_path / "dask.sqlite"
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    killed: list[int] = []
    try:
        with distributed.Client(cluster) as client:
            pids = list(client.run(os.getpid).values())

        def kill_a_worker_mid_build(progress: BuildProgress) -> None:
            if not killed and progress.done >= 8:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(_count(path))

        summary = build(
            path,
            RULES,
            ["margin", "win"],
            classes=SLICE,
            backend="dask",
            scheduler=cluster.scheduler_address,
            batch=2,
            on_progress=kill_a_worker_mid_build,
        )
    finally:
        cluster.close()
    assert killed and 6 <= killed[0] < 60  # the worker died mid-build
    assert summary.solved == 60
    clean = tmp_path / "clean.sqlite"
    build(clean, RULES, ["margin", "win"], classes=SLICE)
    assert _rows(path) == _rows(clean)


def test_a_summary_of_a_sample_covers_the_prefix_solved_in_draw_order(tmp_path: Path) -> None:
    path = tmp_path / "sample.sqlite"
    summary = build(path, RULES, ["margin"], classes=3, seed=11)
    assert summary.solved == 3
    order = sample_mirror_classes(3, 11).tolist()
    with Book(path, read_only=True) as book:
        whole = summarize(book, payoffs=["margin"], sample=3, sample_seed=11)
    assert whole["sample"]["prefix"] == 3 and whole["payoffs"][0]["classes"] == 3
    connection = sqlite3.connect(path)
    with connection:  # the second class drawn is missing: only the first is a uniform prefix
        connection.execute("DELETE FROM solutions WHERE first = ?", (order[1],))
    connection.close()
    with Book(path, read_only=True) as book:
        first = summarize(book, payoffs=["margin"], sample=3, sample_seed=11)
        assert first["sample"]["prefix"] == 1 and first["payoffs"][0]["classes"] == 1
        assert first["payoffs"][0]["hardest"]["support"][0]["key"] == order[0]
        with pytest.raises(BookError, match=r"^book: no solution"):
            summarize(book, payoffs=["win"], sample=3, sample_seed=11)


def test_a_share_never_seen_has_clopper_pearsons_bound_not_a_zero_width_interval() -> None:
    weights = np.array([24.0] * 300 + [12.0] * 100)
    none = share_figure(np.zeros(400, dtype=bool), weights)
    n_eff = weights.sum() ** 2 / (weights**2).sum()
    assert none["mean"] == 0.0 and none["interval"][0] == 0.0
    assert none["interval"][1] == pytest.approx(1 - 0.025 ** (1 / n_eff), rel=1e-5)
    assert 3 / n_eff < none["interval"][1] < 4 / n_eff  # about the rule of three
    every = share_figure(np.ones(400, dtype=bool), weights)
    assert every["mean"] == 1.0 and every["interval"][1] == 1.0
    assert every["interval"][0] == pytest.approx(1 - none["interval"][1], rel=1e-5)
    some = share_figure(np.arange(400) % 4 == 0, weights, seed=2)
    assert some["interval"][0] < some["mean"] < some["interval"][1]
