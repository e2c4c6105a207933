"""The documentation site builds strictly, loads nothing from the internet, and is complete.

Complete: every public name of ``import solver`` has its entry in the API
reference, and every command and option is in the command reference.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

import solver
from solver.cli.main import build_parser
from solver.cli.reference import command_reference, commands
from tests.support import REPO

EXTERNAL = re.compile(r"<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)=\"(?:https?:)?//", re.I)


def test_the_command_reference_has_every_command_and_option():
    page = command_reference()
    for name, parser in commands(build_parser()):
        assert f"## `{name}`" in page
        for action in parser._actions:
            for option in action.option_strings:
                assert option in page, (name, option)


@pytest.mark.docs
@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None, reason="needs the docs extra")
def test_the_site_builds_strictly_and_loads_nothing_from_outside(tmp_path: Path):
    site = tmp_path / "site"
    process = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "DISABLE_MKDOCS_2_WARNING": "true", "PYTHONPATH": str(REPO)},
        timeout=600,
        check=False,
    )
    assert process.returncode == 0, process.stderr[-3000:]
    for page in site.rglob("*.html"):
        assert not EXTERNAL.search(page.read_text(encoding="utf-8")), page
    api = (site / "reference" / "api" / "index.html").read_text(encoding="utf-8")
    for name in solver.__all__:
        assert f"solver.{name}" in api, name
    assert "&gt;&gt;&gt;" in api  # the doctests are shown
    commands_page = (site / "reference" / "commands" / "index.html").read_text(encoding="utf-8")
    assert "quintet book build" in commands_page
