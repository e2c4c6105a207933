"""The test tiers' promises.

* ``pytest`` alone runs the fast tier: pyproject's ``addopts`` deselect every heavy
  marker it registers (``slow``, ``e2e``, ``notebooks``, ``docs``).
* A test that opens a browser is marked ``e2e``, one that executes a notebook
  ``notebooks``, one that builds the site with mkdocs ``docs``: read from the test
  files' syntax, so a new heavy test cannot land in the fast tier unmarked.
* ``.ci/run`` runs README's test command exactly, then every other tier.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.support import REPO

HEAVY = ("slow", "e2e", "notebooks", "docs")
TEST_FILES = sorted((REPO / "tests").rglob("test_*.py"))
BROWSER = "tests.support.browser"


def _marks(node: ast.AST) -> set[str]:
    """The names ``x`` of every ``pytest.mark.x`` under ``node``."""
    return {
        inner.attr
        for inner in ast.walk(node)
        if isinstance(inner, ast.Attribute)
        and isinstance(inner.value, ast.Attribute)
        and inner.value.attr == "mark"
    }


def unmarked(source: str) -> list[str]:
    """The heavy tests of one test module's ``source`` without their tier's marker.

    Browser: the module imports the browser helpers (or another browser test module),
    so its ``pytestmark`` must say ``e2e``.  Notebooks and docs: a test function that
    calls ``.execute`` on the notebook runner, or runs ``mkdocs``, must carry the marker,
    on itself or on the module.

    >>> unmarked("from tests.support.browser import serve")
    ['module: e2e']
    >>> unmarked("import pytest\\npytestmark = pytest.mark.e2e\\nfrom tests.support.browser import serve")
    []
    """
    tree = ast.parse(source)
    module_marks: set[str] = set()
    imports: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
        ):
            module_marks |= _marks(node.value)
        if isinstance(node, ast.ImportFrom) and node.module:
            imports.add(node.module)
    missing = []
    browser = BROWSER in imports or any(m.startswith("tests.e2e.test_web") for m in imports)
    if browser and "e2e" not in module_marks:
        missing.append("module: e2e")
    for node in tree.body:
        if not (isinstance(node, ast.FunctionDef) and node.name.startswith("test")):
            continue
        marks = module_marks | set().union(*(_marks(d) for d in node.decorator_list))
        strings = {n.value for n in ast.walk(node) if isinstance(n, ast.Constant)}
        runs_notebook = any(
            isinstance(n, ast.Attribute)
            and n.attr == "execute"
            and ast.unparse(n.value) == "RUNNER"
            for n in ast.walk(node)
        )
        if "mkdocs" in strings and "docs" not in marks:
            missing.append(f"{node.name}: docs")
        if runs_notebook and "notebooks" not in marks:
            missing.append(f"{node.name}: notebooks")
    return missing


def test_the_heavy_markers_are_registered_and_deselected_by_default(pytestconfig: pytest.Config):
    registered = {line.split(":")[0] for line in pytestconfig.getini("markers")}
    assert set(HEAVY) <= registered
    addopts = pytestconfig.getini("addopts")  # pyproject's, split as pytest splits them
    expression = addopts[addopts.index("-m") + 1]
    assert expression == " and ".join(f"not {marker}" for marker in HEAVY)


@pytest.mark.parametrize("path", TEST_FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_heavy_test_carries_its_tier(path: Path):
    assert unmarked(path.read_text(encoding="utf-8")) == []


def test_the_tier_check_sees_unmarked_tests():
    source = (
        "import pytest\n"
        "def test_site():\n    run(['mkdocs', 'build'])\n"
        "@pytest.mark.slow\ndef test_notebook():\n    RUNNER.execute(book, kernel)\n"
        "@pytest.mark.docs\ndef test_marked_site():\n    run(['mkdocs', 'build'])\n"
    )
    assert unmarked(source) == ["test_site: docs", "test_notebook: notebooks"]
    assert unmarked("from tests.e2e.test_web_browser import browser") == ["module: e2e"]


def test_ci_runs_the_readme_command_then_every_other_tier():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    command = re.search(r"```bash\n(python3 -m venv .venv && .*pytest.*)\n```", readme)
    assert command is not None
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert command.group(1) in ci
    after = ci[ci.index(command.group(1)) + 1 :]
    assert '.venv/bin/python -m pytest -n auto -m "slow or e2e or notebooks or docs"' in after
