"""The benchmark suite (``python -m benchmarks``): its cases are data that parse, and it runs.

The fast tests read the cases (options, quick sizes, the command line); the slow one runs
three cheap cases with ``--quick`` end to end and reads their tables.  Speed itself is
never asserted here: the tables report it (benchmarks/RESULTS.md).
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys

import pytest

from benchmarks.__main__ import CASES, main
from tests.support import REPO


def test_the_suite_lists_its_cases(capsys):
    assert main(["--list"]) == 0
    listed = capsys.readouterr().out
    assert [line.split(":")[0] for line in listed.splitlines() if not line.startswith(" ")] == list(
        CASES
    )
    assert {"evaluator", "solve", "lp", "book", "startup"} <= CASES.keys()


@pytest.mark.parametrize("name", list(CASES))
def test_every_case_has_quick_sizes_of_its_own_options(name):
    case = CASES[name]
    assert case.quick.keys() <= case.full.keys(), name
    quick = case.options(quick=True)
    assert {k: type(v) for k, v in quick.items()} == {k: type(v) for k, v in case.full.items()}
    assert case.options(quick=True, settings=[f"{k}={v}" for k, v in quick.items()]) == quick
    assert case.alternatives and case.runs and case.title


def test_a_setting_is_typed_by_its_case_and_a_wrong_one_named():
    solve = CASES["solve"]
    assert solve.options(settings=["deals=40", "variants=plain,glop"])["deals"] == 40
    with pytest.raises(ValueError, match="no option 'hands'"):
        solve.options(settings=["hands=3"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [(["nope"], "unknown case 'nope'"), (["solve", "--set", "hands=1"], "no chosen case has that option"),
     (["--baseline", "/nonexistent"], "is not a checkout")],
)  # fmt: skip
def test_a_bad_command_line_is_one_error_line(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2 and message in capsys.readouterr().err


def test_no_benchmark_assigns_a_private_name():
    """Public APIs only: no ``x._name = ...`` (a patched private name of solver) in benchmarks/."""
    for path in sorted((REPO / "benchmarks").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = node.targets if isinstance(node, ast.Assign) else []
            for part in (inner for target in targets for inner in ast.walk(target)):
                private = isinstance(part, ast.Attribute) and part.attr.startswith("_")
                assert not private, f"{path.name}:{node.lineno}"


@pytest.mark.slow
def test_three_cheap_cases_run_quick_and_print_their_tables():
    env = os.environ | {"PYTHONPATH": str(REPO), "QUINTET_PROGRESS": "0"}
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", "startup", "grade", "web-jobs", "--quick", "--markdown"],
        capture_output=True, text=True, cwd=REPO, env=env, timeout=900, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    for heading in ("## Start-up in CPU seconds", "## Grading", "## Web job start latency"):
        assert heading in out
    assert "`python -m benchmarks startup --quick`" in out and "load average" in out
    assert "| quintet suggest --seed 1 | this checkout | 2 |" in out
    assert "| process known |" in out and "| next (forked) | 2 |" in out
