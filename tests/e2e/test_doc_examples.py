"""The documentation's examples are tests: console blocks are run, Python blocks are doctests.

Every ``console`` block of README.md and docs/*.md is run as a new user would
run it (the page's commands in order, in a fresh directory with a fresh
cache) and its output compared with what the page shows, through the masks
of :mod:`tests.support.examples` and nothing else.  A change in what a
command prints fails here until the page is updated.  Every ``>>>`` example
of the pages is a doctest.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import REPO
from tests.support.examples import Example, blocks, masked, matches

PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("**/*.md"))]
PYTHON_BLOCK = re.compile(r"^```(?:pycon|python)\n(.*?)^```", re.MULTILINE | re.DOTALL)
PAGE_IDS = [p.relative_to(REPO).as_posix() for p in PAGES]


def run(example: Example, cwd: Path) -> list[str]:
    """What the example's command prints (stdout and stderr together), as lines."""
    assert example.command[0] == "quintet", f"{example.name}: only quintet commands run"
    process = subprocess.run(
        [sys.executable, "-m", "solver.cli", *example.command[1:]],
        cwd=cwd,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={
            **os.environ,
            "PYTHONIOENCODING": "utf-8",
            "XDG_CACHE_HOME": str(cwd / "cache"),
            # A run slower than 10 s (a loaded machine) would add progress lines to stderr.
            "QUINTET_PROGRESS": "0",
        },
        timeout=600,
        check=False,
    )
    return (process.stdout + process.stderr).splitlines()


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_console_examples_print_what_the_page_shows(page: Path, tmp_path: Path):
    differences = []
    for block in blocks(page, REPO):
        if block.not_run is not None:
            continue
        for example in block.examples:
            actual = run(example, tmp_path)
            if not matches(masked(example.expected), masked(actual)):
                shown = "\n".join(actual)
                differences.append(
                    f"{example.name}\n--- the page shows\n"
                    + "\n".join(example.expected)
                    + f"\n--- it prints\n{shown}"
                )
    assert not differences, "\n\n".join(differences)


def test_every_console_block_runs_or_says_why_not():
    for page in PAGES:
        for block in blocks(page, REPO):
            commands = {example.command[0] for example in block.examples}
            assert block.examples, f"{block.page}:{block.line}: an empty console block"
            assert block.not_run is not None or commands == {"quintet"}, (block.page, block.line)


def test_the_masks_hide_only_the_named_fields():
    page = ["status: proven optimal; engine frontier; time 0.16 s", "value: 24.9449"]
    printed = ["status: proven optimal; engine frontier; time 1.03 s", "value: 24.9449"]
    assert masked(page) == masked(printed)
    assert masked(["value: 24.9449"]) != masked(["value: 24.9450"])
    table = ["player     seconds/deal  exploitability", "greedy     0.013         10.17"]
    assert masked(table) == masked([table[0], "greedy     0.020         10.17"])
    assert masked(table) != masked([table[0], "greedy     0.013         10.18"])
    gaps = ["certified exploitability: 1.78e-15 points", "iterations: 18, converged"]
    assert masked(gaps) == masked(
        ["certified exploitability: 3.55e-15 points", "iterations: 20, converged"]
    )
    assert masked(gaps) != masked(["certified exploitability: 1.78e-11 points", gaps[1]])
    assert masked(["gap 2.2e-14"]) != masked(["gap 2.2e-04"])
    assert masked(["book: from /home/you/.cache/quintet-solver/book.sqlite"]) == [
        "book: from <book>"
    ]


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_python_examples_are_doctests(page: Path):
    text = "\n\n".join(PYTHON_BLOCK.findall(page.read_text(encoding="utf-8")))
    test = doctest.DocTestParser().get_doctest(text, {}, page.name, str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{page.name}: {result.failed} of {result.attempted} failed"
