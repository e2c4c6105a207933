"""The public API: ``import solver`` is the library surface, and it is cheap.

* Every name of ``solver.__all__`` resolves, ``dir(solver)`` lists it, and it
  is the very object its home module defines (the lazy table of
  ``solver/__init__.py`` points at the defining modules).
* An unknown attribute raises the usual ``AttributeError``.
* ``import solver`` in a fresh interpreter loads no numpy, OR-Tools, SciPy,
  FastAPI or Dask, no best-response, equilibrium or book module; the first
  use of a lazy name imports its module.
* README.md's library example imports from ``solver`` only, and runs.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import solver

REPO = Path(__file__).resolve().parents[1]
LAZY = dict(solver._LAZY)  # the table under test
HEAVY = ("ortools", "scipy", "fastapi", "dask", "distributed", "sqlite3")
HEAVY_LAYERS = ("solver.response", "solver.equilibria", "solver.lp", "solver.book")


def _home(name: str) -> object:
    module, _, attribute = LAZY[name].partition(":")
    return getattr(importlib.import_module(module), attribute or name)


@pytest.mark.parametrize("name", solver.__all__)
def test_every_public_name_resolves(name: str) -> None:
    assert getattr(solver, name) is not None
    assert name in dir(solver)


@pytest.mark.parametrize("name", sorted(LAZY))
def test_lazy_names_are_their_home_modules_objects(name: str) -> None:
    value = getattr(solver, name)
    assert value is _home(name)
    module = LAZY[name].partition(":")[0]
    if inspect.isclass(value) or inspect.isfunction(value):
        assert value.__module__ == module, f"{name} is defined in {value.__module__}"


def test_the_table_and_all_agree() -> None:
    assert len(solver.__all__) == len(set(solver.__all__))
    assert set(LAZY) <= set(solver.__all__)
    eager = set(solver.__all__) - set(LAZY)
    assert eager <= set(vars(solver))  # imported when solver is
    assert {
        "Opponent",
        "OpponentKind",
        "Objective",
        "best_response",
        "top_responses",
        "frontier_best_response",
        "BestResponse",
        "SolveStatus",
        "solve_equilibrium",
        "EquilibriumResult",
        "Payoff",
        "IterationRecord",
        "grade",
        "Grade",
        "Book",
        "solve_with_book",
        "default_book_path",
        "Mixture",
        "read_mixture",
        "write_mixture",
        "greedy_arrangement",
        "house_arrangement",
        "player",
        "players",
        "run_tournament",
    } <= set(solver.__all__)


def test_all_is_what_star_import_gives() -> None:
    namespace: dict[str, object] = {}
    exec("from solver import *", namespace)
    assert set(namespace) - {"__builtins__"} == set(solver.__all__)


def test_renamed_exports() -> None:
    from solver.equilibria.equilibrium import solve

    assert solver.solve_equilibrium is solve
    assert solver.run_tournament.__name__ == "run"


def test_unknown_attribute() -> None:
    with pytest.raises(AttributeError, match=r"^module 'solver' has no attribute 'no_such_name'$"):
        solver.no_such_name  # noqa: B018
    assert not hasattr(solver, "no_such_name")
    with pytest.raises(ImportError, match="no_such_name"):
        exec("from solver import no_such_name", {})


def _fresh(code: str) -> dict[str, object]:
    """Run ``code`` in a new interpreter; it prints one JSON document."""
    completed = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )
    return json.loads(completed.stdout)


LOADED = (
    "import json, sys\n"
    "def loaded():\n"
    f"    heavy = {HEAVY!r}\n"
    f"    layers = {HEAVY_LAYERS!r}\n"
    "    return sorted(m for m in sys.modules if m.split('.')[0] in heavy\n"
    "                  or m.startswith(layers))\n"
)


def test_import_solver_is_cheap() -> None:
    # Not even numpy: the command line chooses numpy's threads before it loads.
    found = _fresh(
        LOADED + "import solver\n"
        "before, numpy = loaded(), 'numpy' in sys.modules\n"
        "solver.best_response\n"
        "print(json.dumps({'before': before, 'after': loaded(), 'numpy': numpy,\n"
        "                  'cached': 'best_response' in vars(solver)}))\n"
    )
    assert found["before"] == [], f"import solver loaded {found['before']}"
    assert not found["numpy"]
    assert "solver.response.best_response" in found["after"]
    assert found["cached"]


def test_the_book_is_imported_on_first_use() -> None:
    found = _fresh(
        LOADED + "from solver import Rules, deal\n"
        "before = loaded()\n"
        "from solver import Book\n"
        "print(json.dumps({'before': before, 'after': loaded()}))\n"
    )
    assert found["before"] == []
    assert {"solver.book.store", "sqlite3"} <= set(found["after"])


# ============================================== README.md, "As a library"


def _library_example() -> str:
    """The README's library example: the ``pycon`` block under "As a library"."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("### As a library", 1)[1]
    match = re.search(r"```pycon\n(.*?)```", section, re.DOTALL)
    assert match, "README.md: no pycon example under 'As a library'"
    return match.group(1)


def test_readme_example_imports_from_solver_only() -> None:
    imports = [
        line.removeprefix(">>> ").strip()
        for line in _library_example().splitlines()
        if re.match(r">>> (from|import)\s", line) and "numpy" not in line
    ]
    assert imports
    for line in imports:
        assert re.fullmatch(r"(from solver import .+|import solver)", line), line


def test_readme_example_runs_and_shows_what_it_says() -> None:
    """The example is a doctest: every output shown is what it prints."""
    import doctest

    test = doctest.DocTestParser().get_doctest(_library_example(), {}, "README", "README.md", 0)
    assert len(test.examples) >= 5
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0


def _imports(source: str) -> list[ast.Import | ast.ImportFrom]:
    """The import statements of a code cell (IPython ``%`` lines left out)."""
    code = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith("%"))
    return [
        node for node in ast.walk(ast.parse(code)) if isinstance(node, ast.Import | ast.ImportFrom)
    ]


@pytest.mark.parametrize("path", sorted((REPO / "notebooks").glob("*.ipynb")), ids=lambda p: p.stem)
def test_notebooks_import_from_solver_only(path: Path) -> None:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    names = []
    for cell in cells:
        if cell["cell_type"] != "code":
            continue
        for node in _imports("".join(cell["source"])):
            if isinstance(node, ast.ImportFrom):
                assert not (node.module or "").startswith("solver."), ast.unparse(node)
                if node.module == "solver":
                    names += [alias.name for alias in node.names]
            else:
                assert not [a.name for a in node.names if a.name.startswith("solver.")]
    assert set(names) <= set(solver.__all__)


def test_the_type_checking_imports_are_the_lazy_table() -> None:
    """The ``if TYPE_CHECKING:`` block names exactly the lazy table's targets."""
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(solver))
    [block] = [
        node
        for node in tree.body
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING"
    ]
    imported = {
        alias.asname or alias.name: f"{node.module}:{alias.name}"
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    expected = {
        name: target if ":" in target else f"{target}:{name}"
        for name, target in solver._LAZY.items()
    }
    assert imported == expected
