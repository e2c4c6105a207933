"""The analysis notebooks: committed with their outputs, and still executing cleanly.

The committed notebooks hold the outputs of ``python notebooks/run_all.py`` at
their documented parameters.  The tests check those stored
outputs (no errors, at least one PNG figure, under 1 MB), and execute COPIES
in memory with small parameters: the heavy parameters are made small through
the environment variables the notebooks read at the top
(``QUINTET_NOTEBOOK_DEALS``, ``QUINTET_NOTEBOOK_EQ_SECONDS``, ...) and figures
go to a temporary directory (``QUINTET_FIGURES``), so the committed files'
bytes never change (checked).

The kernel is this interpreter, from the runner (``notebooks/run_all.py``,
:func:`this_interpreter_kernel`): a kernel spec running ``sys.executable`` is
installed into a temporary directory put first on ``JUPYTER_PATH``.

Notebooks define no functions or classes (all computation is library calls).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager

from tests.support import REPO

NOTEBOOK_DIR = REPO / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
EXPECTED = {
    "01_combinations",
    "02_best_response",
    "03_equilibrium",
    "04_rule_options",
    "05_findings",
    "06_agents",
}


def _runner() -> ModuleType:
    """``notebooks/run_all.py``, the one way notebooks are executed (not a package)."""
    spec = importlib.util.spec_from_file_location("run_all", NOTEBOOK_DIR / "run_all.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RUNNER = _runner()

# Small parameters for every notebook; a few notebooks get smaller ones still.
SMALL = {
    "QUINTET_NOTEBOOK_DEALS": "2",
    "QUINTET_NOTEBOOK_EQ_SECONDS": "5",
    "QUINTET_FINDINGS_TOURNAMENT_DEALS": "1",
    "QUINTET_FINDINGS_HOUSE_DEALS": "2",
    "QUINTET_FINDINGS_BOOK_DEALS": "2",
    "QUINTET_FINDINGS_INDEPENDENT_DEALS": "2",
}
SMALLER = {"04_rule_options": {"QUINTET_NOTEBOOK_DEALS": "1"}}  # four frontiers per deal
KERNEL_NAME = "quintet-notebooks-test"


def _read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(str(path), as_version=4)


def test_all_notebooks_present() -> None:
    assert {path.stem for path in NOTEBOOKS} >= EXPECTED


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_stored_with_outputs(path: Path) -> None:
    """Committed executed, in order, without errors, with a figure, under 1 MB."""
    notebook = _read(path)
    nbformat.validate(notebook)
    assert path.stat().st_size < RUNNER.MAX_BYTES
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert [cell.execution_count for cell in code] == list(range(1, len(code) + 1)), "re-run"
    outputs = [o for cell in code for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert [o for o in outputs if "image/png" in o.get("data", {})], "no stored figure"
    first = notebook.cells[0]
    assert first.cell_type == "markdown" and "Parameters of the stored outputs" in first.source


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_logic_of_their_own(path: Path) -> None:
    """No function or class definitions: computation is done by library calls."""
    for cell in _read(path).cells:
        if cell.cell_type != "code":
            continue
        source = "\n".join(
            line for line in cell.source.splitlines() if not line.lstrip().startswith("%")
        )
        for node in ast.walk(ast.parse(source)):
            assert not isinstance(
                node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda
            ), f"{path.name} defines logic: {ast.unparse(node)[:80]}"
    assert "import solver" in "\n".join(c.source for c in _read(path).cells)


@pytest.fixture(scope="module")
def kernel_name() -> Iterator[str]:
    """A kernel spec that runs this interpreter, found first on JUPYTER_PATH."""
    with RUNNER.this_interpreter_kernel(KERNEL_NAME) as name:
        spec = KernelSpecManager().get_kernel_spec(name)
        assert os.path.samefile(spec.argv[0], sys.executable), spec.argv
        yield name


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.notebooks
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_executes(
    path: Path, kernel_name: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A copy runs on small parameters; the committed notebook and figures stay as they are."""
    for key, value in {**SMALL, **SMALLER.get(path.stem, {})}.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("QUINTET_FIGURES", str(tmp_path))
    monkeypatch.setenv("QUINTET_FINDINGS_BOOK", str(tmp_path / "book.sqlite"))
    monkeypatch.setenv("MPLBACKEND", "Agg")  # the notebooks switch to inline themselves
    figure_dir = REPO / "docs" / "figures"
    committed = {p: _digest(p) for p in [path, *sorted(figure_dir.glob("*.png"))]}
    notebook = RUNNER.execute(_read(path), kernel_name)  # raises on the first failing cell
    copy = tmp_path / path.name
    nbformat.write(notebook, str(copy))  # a copy: never the committed file
    assert {p: _digest(p) for p in committed} == committed
    outputs = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    figures = [o for o in outputs if "image/png" in o.get("data", {})]
    assert figures, f"{path.name} drew no figure"
