"""The review guideline on sizes: functions over 60 lines and modules over 500, listed.

    python tools/sizes.py [--functions 60] [--modules 500]

A guideline, not a rule (docs/architecture.md, "Sizes"): what a module does decides
its size, and a long one is a question for review, never a failing test.  Prints the
functions and modules of ``solver/`` over the limits, longest first; exits 0.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

LIBRARY = Path(__file__).resolve().parent.parent / "solver"
FUNCTION_LINES, MODULE_LINES = 60, 500


def long_functions(tree: ast.AST, limit: int = FUNCTION_LINES) -> list[tuple[str, int]]:
    """``(qualified name, lines)`` of every function over ``limit`` lines, nested ones too."""
    found = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef) and child.end_lineno is not None:
                    lines = child.end_lineno - child.lineno + 1
                    if lines > limit:
                        found.append((name, lines))
                visit(child, f"{name}.")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--functions", type=int, default=FUNCTION_LINES, metavar="N")
    parser.add_argument("--modules", type=int, default=MODULE_LINES, metavar="N")
    args = parser.parse_args()
    functions, modules = [], []
    for path in sorted(LIBRARY.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(LIBRARY.parent).as_posix()
        if (lines := len(text.splitlines())) > args.modules:
            modules.append((lines, where))
        functions += [
            (n, f"{where}:{name}") for name, n in long_functions(ast.parse(text), args.functions)
        ]
    print(f"modules over {args.modules} lines: {len(modules)}")
    for lines, where in sorted(modules, reverse=True):
        print(f"  {lines:5d}  {where}")
    print(f"functions over {args.functions} lines: {len(functions)}")
    for lines, where in sorted(functions, reverse=True):
        print(f"  {lines:5d}  {where}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
