"""The k-curve's rows: written a deal at a time, resumed without repeating a deal, summarized."""

from __future__ import annotations

import pytest

from solver.analysis.k_curve import FIELDS, read_rows, run, summarize
from solver.errors import SolverError


def test_a_run_resumes_where_it_stopped(tmp_path):
    path = tmp_path / "curve.csv"
    seen = []
    assert (
        run(path, deals=1, modes=("mirror",), payoffs=("win",), ks=(1, 2), on_deal=seen.append) == 1
    )
    rows = read_rows(path)
    assert [(r["seed"], r["k"]) for r in rows] == [(0, 1), (0, 2)] and len(seen) == 1
    assert set(rows[0]) == set(FIELDS)
    # Monotone in k, certified, never below 0.
    assert rows[0]["exploitability"] >= rows[1]["exploitability"] >= 0.0
    # A second run adds only the deals not written yet.
    assert run(path, deals=1, modes=("mirror",), payoffs=("win",), ks=(1, 2)) == 0
    assert run(path, deals=2, modes=("mirror",), payoffs=("win",), ks=(1, 2)) == 1
    summary = summarize(read_rows(path))
    assert [(s["k"], s["deals"]) for s in summary] == [(1, 2), (2, 2)]
    assert all(s["median"] <= s["p90"] <= s["max"] for s in summary)


def test_bad_deals_are_refused(tmp_path):
    with pytest.raises(SolverError, match="deals must be a positive integer, got 0"):
        run(tmp_path / "curve.csv", deals=0)
