"""The layout's promises.

* Library errors speak of arguments, never of command-line options.
* No module imports another's private (``_name``) definitions.
* Sizes are a review guideline (tools/sizes.py lists functions over 60 lines and
  modules over 500), not a rule: the listing is tested, lengths are not.
* A clone is self-contained: no tracked file refers to the sibling ``shared``
  directory of the development checkout, and every
  relative link in README.md and docs/**/*.md leads to a file that exists
  (links into the generated docs/reference/ are checked by the site's strict build).
"""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import REPO

LIBRARY = REPO / "solver"
LIBRARY_MODULES = sorted(
    p for p in LIBRARY.rglob("*.py") if "cli" not in p.relative_to(LIBRARY).parts
)
FLAG = re.compile(r"(?<![\w-])--[a-z]")


def _raised_strings(tree: ast.AST) -> list[tuple[int, str]]:
    """Every string constant inside a ``raise`` statement, with its line."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            for inner in ast.walk(node.exc):
                if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                    found.append((inner.lineno, inner.value))
    return found


def test_library_modules_found():
    names = {p.name for p in LIBRARY_MODULES}
    assert {"best_response.py", "equilibrium.py", "tournament.py"} <= names
    assert "main.py" not in names  # the CLI is excluded


@pytest.mark.parametrize("path", LIBRARY_MODULES, ids=lambda p: str(p.relative_to(LIBRARY)))
def test_library_errors_never_name_cli_options(path):
    offending = [
        f"{path.name}:{line}: {text!r}"
        for line, text in _raised_strings(ast.parse(path.read_text()))
        if FLAG.search(text)
    ]
    assert not offending, "library errors must name arguments, not options:\n" + "\n".join(
        offending
    )


def test_the_check_sees_a_flag():
    tree = ast.parse('raise ValueError(f"--time-limit must be positive, got {x}")')
    assert [text for _, text in _raised_strings(tree) if FLAG.search(text)]


def _private_imports(tree: ast.AST) -> list[str]:
    """``module._name`` for every ``from solver... import _name`` (dunders aside)."""
    return [
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("solver")
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    ]


def test_no_module_imports_private_names():
    offending = [
        f"{path.relative_to(LIBRARY)}: {name}"
        for path in sorted(LIBRARY.rglob("*.py"))
        for name in _private_imports(ast.parse(path.read_text()))
    ]
    assert not offending, "\n".join(offending)


def test_the_check_sees_a_private_import():
    tree = ast.parse("def f():\n    from solver.cli.main import _subparser\n")
    assert _private_imports(tree) == ["solver.cli.main._subparser"]


# ============================================== sizes: a review guideline, not a rule

# tools/sizes.py lists functions over 60 lines and modules over 500 (docs/architecture.md,
# "Sizes"); what a module does decides its size, so no test fails on a length.
_SIZES = REPO / "tools" / "sizes.py"


def _sizes_module():
    spec = importlib.util.spec_from_file_location("sizes", _SIZES)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_size_listing_sees_a_long_function():
    def method(name: str, statements: int) -> str:
        return f"    def {name}(self):\n" + "".join(f"        x = {i}\n" for i in range(statements))

    # 61 lines (def and 60 statements) is over; 60 is not; nested functions count.
    source = "class C:\n" + method("long", 60) + method("fits", 59)
    source += "def outer():\n" + method("inner", 60).replace("(self)", "()")
    assert _sizes_module().long_functions(ast.parse(source)) == [
        ("C.long", 61),
        ("outer", 62),
        ("outer.inner", 61),
    ]


def test_the_size_listing_runs_on_the_library():
    done = subprocess.run(
        [sys.executable, str(_SIZES), "--modules", "300"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.startswith("modules over 300 lines: ")
    assert "functions over 60 lines: " in done.stdout


# ============================================== what a clone of the repository holds

# A markdown link or image target: [text](target) or ![alt](target).
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
# Outside the repository: users who clone it do not have the sibling directory.
# (Spelled in two parts so that this file does not match itself.)
OUTSIDE = "../" + "shared"


def _tracked_files() -> list[str]:
    """Paths of the git-tracked files, relative to the repository root."""
    try:
        listing = subprocess.run(
            ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True
        )
    except (FileNotFoundError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [name for name in listing.stdout.decode().split("\0") if name]


def test_no_tracked_file_refers_outside_the_repository():
    tracked = _tracked_files()
    assert "README.md" in tracked and "docs/rules.md" in tracked
    offending = [
        f"{name}:{number}: {line.strip()}"
        for name in tracked
        if (REPO / name).is_file()
        for number, line in enumerate(
            (REPO / name).read_text(encoding="utf-8", errors="replace").splitlines(), 1
        )
        if OUTSIDE in line
    ]
    assert not offending, f"tracked files refer to {OUTSIDE}:\n" + "\n".join(offending)


def _anchor(heading: str) -> str:
    """GitHub's anchor for a markdown heading: lower case, punctuation dropped, - for spaces."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    return {
        _anchor(line.lstrip("#"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    }


# The docs site's generated pages (tools/docs_pages.py): not in the repository;
# links to them are checked by ``mkdocs build --strict`` (tests/e2e/test_docs_site.py).
GENERATED = (REPO / "docs" / "reference").resolve()


def _broken_links(path: Path) -> list[str]:
    """Relative link targets in ``path`` whose file (or heading) does not exist."""
    broken = []
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...
            continue
        file_part, _, fragment = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if linked.is_relative_to(GENERATED):  # made by the site's build, which checks them
            continue
        missing_heading = bool(fragment) and linked.suffix == ".md"
        if not linked.exists() or (missing_heading and fragment not in _anchors(linked)):
            broken.append(target)
    return broken


MARKDOWN = [REPO / "README.md", *sorted((REPO / "docs").glob("**/*.md"))]


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: str(p.relative_to(REPO)))
def test_relative_links_point_to_existing_files(path):
    assert not _broken_links(path), f"{path.name}: broken links {_broken_links(path)}"


def test_the_link_check_sees_a_broken_link(tmp_path):
    page = tmp_path / "page.md"
    (tmp_path / "there.md").write_text("# A heading, here\n")
    page.write_text(
        "[ok](there.md) [ok](there.md#a-heading-here) [web](https://example.org) "
        "[gone](missing.md) [bad anchor](there.md#nowhere) ![img](pic.png)\n"
    )
    assert _broken_links(page) == ["missing.md", "there.md#nowhere", "pic.png"]


def test_the_rules_are_in_the_repository():
    assert "docs/rules.md" in (REPO / "README.md").read_text(encoding="utf-8")
    assert {"sources", "rule-options", "where-the-texts-differ-or-are-silent"} <= _anchors(
        REPO / "docs" / "rules.md"
    )
