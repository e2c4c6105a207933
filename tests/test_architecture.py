"""The layout's promises: library errors speak of arguments, never of command-line options."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

LIBRARY = Path(__file__).resolve().parent.parent / "solver"
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
